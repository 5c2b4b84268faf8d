// SPDX-License-Identifier: GPL-3.0-or-later
// Draft models and draft-length policies: prompt lookup proposes what followed before; each policy drafts
// the number of tokens its rule says.
#include "DraftPolicy.h"
#include "Error.h"
#include "Generation.h"
#include "PromptLookupModel.h"
#include "TestSupport.h"

#include <QtTest>

#include <set>

using namespace specdec;

class TestDrafts : public QObject
{
    Q_OBJECT
private slots:
    void promptLookupProposesLatestContinuation()
    {
        const Vocabulary v = Vocabulary::fromText(U"abcdxyz");
        PromptLookupModel lookup(Tokenizer::chars(v), 2);
        auto ids = [&](const char32_t *text) { return v.encode(text); };
        QCOMPARE(lookup.propose(ids(U"abcxab")), v.find(U'c'));   // "ab" seen before, followed by c
        QCOMPARE(lookup.propose(ids(U"abcabdab")), v.find(U'd')); // the latest occurrence wins
        QCOMPARE(lookup.propose(ids(U"xbyzb")), v.find(U'y'));    // tail "zb" unseen: falls back to "b"
        QCOMPARE(lookup.propose(ids(U"abcd")), -1);               // no tail occurred before
        DistributionMatrix rows;
        lookup.distributions(ids(U"abcxab"), 1, rows);
        QCOMPARE(rows(0, v.find(U'c')), 1.0);
        QCOMPARE(rows.row(0).sum(), 1.0);
        lookup.distributions(ids(U"abcd"), 1, rows);
        QCOMPARE(rows(0, 0), 1.0 / v.size());
        QVERIFY_THROWS_EXCEPTION(Error, PromptLookupModel(Tokenizer::chars(v), 0));
        QVERIFY_THROWS_EXCEPTION(Error, ModelSpec::parse("lookup:x"));
        QCOMPARE(ModelSpec::parse("lookup:3").lookup, 3);
    }

    void policiesParse()
    {
        QCOMPARE(DraftPolicy::parse("constant").kind, DraftPolicy::Kind::Constant);
        QCOMPARE(DraftPolicy::parse("heuristic").kind, DraftPolicy::Kind::Heuristic);
        QCOMPARE(DraftPolicy::parse("confidence:0.4").value, 0.4);
        QCOMPARE(DraftPolicy::parse("threshold:0.6").kind, DraftPolicy::Kind::Threshold);
        QCOMPARE(DraftPolicy::parse("threshold:0.6").describe(), std::string("threshold:0.6"));
        QVERIFY_THROWS_EXCEPTION(Error, DraftPolicy::parse("confidence:2"));
        QVERIFY_THROWS_EXCEPTION(Error, DraftPolicy::parse("sometimes"));
    }

    void heuristicGrowsAfterFullAcceptanceAndShrinksOtherwise()
    {
        const Corpus c = test::builtCorpus("kjv");
        auto t = test::model("ngram:5", c);
        auto d = test::model("ngram:3", c);
        DecodingSettings s;
        s.draftLength = 8;
        s.policy = DraftPolicy::parse("heuristic");
        const auto prompt = c.vocabulary.encode(U"And the LORD");
        const Generation g = generateSpeculative(*t, *d, s, prompt, 2000);
        int expected = 4; // starts at K/2
        int changes = 0;
        for (const RoundTrace &r : g.rounds) {
            const int budget = 2000 - (r.contextLength - static_cast<int>(prompt.size()));
            QCOMPARE(r.draftLength, std::min(expected, budget));
            const int next = std::clamp(expected + (r.rejectedAt < 0 ? 2 : -1), 1, 8);
            changes += next != expected;
            expected = next;
        }
        QVERIFY(changes > 10);
    }

    void confidenceAndThresholdStopEarly_data()
    {
        QTest::addColumn<QString>("policy");
        QTest::addColumn<int>("minLength");
        QTest::addColumn<int>("maxLength");
        QTest::addRow("confidence:0 drafts K") << QStringLiteral("confidence:0") << 6 << 6;
        QTest::addRow("confidence:1 drafts one") << QStringLiteral("confidence:1") << 1 << 1;
        QTest::addRow("threshold:1 drafts K") << QStringLiteral("threshold:1") << 6 << 6;
        QTest::addRow("threshold:0 drafts one") << QStringLiteral("threshold:0") << 1 << 1;
        QTest::addRow("confidence:0.5 varies") << QStringLiteral("confidence:0.5") << 1 << 6;
        QTest::addRow("threshold:0.7 varies") << QStringLiteral("threshold:0.7") << 1 << 6;
    }
    void confidenceAndThresholdStopEarly()
    {
        QFETCH(QString, policy);
        QFETCH(int, minLength);
        QFETCH(int, maxLength);
        const Corpus c = test::builtCorpus("kjv");
        auto t = test::model("ngram:5", c);
        auto d = test::model("ngram:3", c);
        DecodingSettings s;
        s.draftLength = 6;
        s.policy = DraftPolicy::parse(policy.toStdString());
        s.recordDistributions = true;
        const auto prompt = c.vocabulary.encode(U"In the beginning");
        const Generation g = generateSpeculative(*t, *d, s, prompt, 500);
        std::set<int> lengths;
        for (const RoundTrace &r : g.rounds) {
            if (500 - (r.contextLength - static_cast<int>(prompt.size())) < s.draftLength)
                continue; // near the end the budget, not the policy, cuts the draft
            QVERIFY(r.draftLength >= minLength && r.draftLength <= maxLength);
            QCOMPARE(static_cast<int>(r.positions.size()), r.draftLength);
            lengths.insert(r.draftLength);
            if (s.policy.kind == DraftPolicy::Kind::Confidence)
                for (int i2 = 1; i2 < r.draftLength; ++i2)
                    QVERIFY(r.positions[static_cast<std::size_t>(i2)].qDist.maxCoeff() >= s.policy.value);
        }
        if (minLength != maxLength)
            QVERIFY(lengths.size() > 1);
    }
};

QTEST_APPLESS_MAIN(TestDrafts)
#include "test_drafts.moc"
