// SPDX-License-Identifier: GPL-3.0-or-later
// Decoding: greedy speculative output equals greedy autoregressive output; traces are consistent and
// reproducible; the teaching drafts behave as taught.
#include "AutoregressiveRun.h"
#include "Error.h"
#include "Generation.h"
#include "TeachingDrafts.h"
#include "TestSupport.h"
#include "TreeDecoder.h"

#include <QtTest>

#include <chrono>

using namespace specdec;

namespace {

bool sameTrace(const RoundTrace &a, const RoundTrace &b)
{
    if (a.index != b.index || a.contextLength != b.contextLength || a.draftLength != b.draftLength
        || a.rejectedAt != b.rejectedAt || a.correction != b.correction || a.bonus != b.bonus
        || a.committed != b.committed || a.positions.size() != b.positions.size() || a.residual != b.residual
        || a.bonusDist != b.bonusDist || a.targetCalls != b.targetCalls || a.draftCalls != b.draftCalls)
        return false;
    for (std::size_t i = 0; i < a.positions.size(); ++i) {
        const auto &x = a.positions[i];
        const auto &y = b.positions[i];
        if (x.token != y.token || x.q != y.q || x.p != y.p || x.u != y.u || x.verdict != y.verdict
            || x.overlap != y.overlap || x.pDist != y.pDist || x.qDist != y.qDist)
            return false;
    }
    return true;
}

} // namespace

class TestDecoding : public QObject
{
    Q_OBJECT
private slots:
    void greedySpeculativeEqualsAutoregressive_data()
    {
        QTest::addColumn<QString>("corpus");
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("draft");
        QTest::addColumn<int>("k");
        QTest::addColumn<double>("draftTemperature");
        const QString kjv = QStringLiteral("kjv"), poems = QStringLiteral("tang-song");
        QTest::addRow("kjv 6/2 K=4") << kjv << QStringLiteral("ngram:6") << QStringLiteral("ngram:2") << 4 << 0.0;
        QTest::addRow("kjv 6/2 K=1") << kjv << QStringLiteral("ngram:6") << QStringLiteral("ngram:2") << 1 << 0.0;
        QTest::addRow("kjv 5/addk K=8") << kjv << QStringLiteral("ngram:5") << QStringLiteral("ngram:3:addk=0.2") << 8
                                        << 0.0;
        QTest::addRow("kjv uniform K=3") << kjv << QStringLiteral("ngram:4") << QStringLiteral("uniform") << 3 << 1.0;
        QTest::addRow("kjv same K=5") << kjv << QStringLiteral("ngram:4") << QStringLiteral("same") << 5 << 0.0;
        QTest::addRow("kjv sampled draft K=4")
            << kjv << QStringLiteral("ngram:6") << QStringLiteral("ngram:2") << 4 << 1.0;
        QTest::addRow("poems 3/2 K=6") << poems << QStringLiteral("ngram:3:addk=0.2")
                                       << QStringLiteral("ngram:2:addk=0.2") << 6 << 0.0;
        QTest::addRow("poems 4/1 K=2") << poems << QStringLiteral("ngram:4") << QStringLiteral("ngram:1") << 2 << 0.0;
        QTest::addRow("poems uniform K=4") << poems << QStringLiteral("ngram:3") << QStringLiteral("uniform") << 4 << 0.7;
    }
    void greedySpeculativeEqualsAutoregressive()
    {
        QFETCH(QString, corpus);
        QFETCH(QString, target);
        QFETCH(QString, draft);
        QFETCH(int, k);
        QFETCH(double, draftTemperature);
        const test::BuiltPair pair = test::builtPair(corpus, target, draft);
        const Corpus &c = pair.corpus;
        const BuiltModel &t = pair.target, &d = pair.draft;
        const std::vector<std::u32string> prompts = test::greedyPrompts(corpus);
        DecodingSettings s;
        s.draftLength = k;
        s.target.temperature = 0.0;
        s.draft.temperature = draftTemperature;
        for (std::size_t i = 0; i < prompts.size(); ++i) {
            const auto prompt = c.vocabulary.encode(prompts[i]);
            s.seed = i;
            const Generation spec = generateSpeculative(*t.model, *d.model, s, prompt, 60);
            const Generation ar = generateAutoregressive(*t.model, s.target, 999, prompt, 60);
            QCOMPARE(spec.tokens, ar.tokens);
            QVERIFY(spec.target.calls <= ar.target.calls);
            if (draft == QLatin1String("same"))
                QCOMPARE(spec.target.calls, std::int64_t(10)); // K + 1 = 6 tokens per pass: 60 / 6
        }
    }

    void greedySubwordEqualsAutoregressive_data()
    {
        QTest::addColumn<QString>("draft");
        QTest::addColumn<QString>("tree");
        QTest::addRow("ngram:2 K=4") << QStringLiteral("ngram:2") << QString();
        QTest::addRow("ngram:2 tree 3,2,1") << QStringLiteral("ngram:2") << QStringLiteral("3,2,1");
        QTest::addRow("uniform K=3") << QStringLiteral("uniform") << QString();
        QTest::addRow("same K=5") << QStringLiteral("same") << QString();
        QTest::addRow("lookup:3 K=4") << QStringLiteral("lookup:3") << QString();
    }
    void greedySubwordEqualsAutoregressive()
    {
        // The subword pair (Qwen3's ids, 151,669 of them): greedy speculative decoding writes the ids greedy
        // decoding of the target writes, for every kind of draft, chains and trees.
        QFETCH(QString, draft);
        QFETCH(QString, tree);
        test::SubwordPair &pair = test::subwordPair();
        std::unique_ptr<LanguageModel> other;
        LanguageModel *d = pair.draft.get();
        if (draft != QLatin1String("ngram:2")) {
            other = buildModel(ModelSpec::parse(draft.toStdString()), pair.corpus, &pair.tokenizer, pair.target.get()).model;
            d = other.get();
        }
        DecodingSettings s;
        s.draftLength = draft == QLatin1String("same") ? 5 : draft == QLatin1String("uniform") ? 3 : 4;
        if (!tree.isEmpty())
            s.tree = TreeShape::parse(tree.toStdString());
        s.target.temperature = 0.0;
        s.draft.temperature = 0.0;
        const std::vector<std::string> prompts{"And God said", "In the beginning", "", "我们", "Jesus wept."};
        for (std::size_t i = 0; i < prompts.size(); ++i) {
            const std::vector<TokenId> prompt = pair.tokenizer.encode(prompts[i]);
            s.seed = i;
            const Generation spec = generateSpeculative(*pair.target, *d, s, prompt, 40);
            const Generation ar = generateAutoregressive(*pair.target, s.target, 999, prompt, 40);
            QCOMPARE(spec.tokens, ar.tokens);
            QVERIFY(spec.target.calls <= ar.target.calls);
            // The text is the prompt followed by what the ids after it decode to.
            std::vector<TokenId> all = prompt;
            all.insert(all.end(), spec.tokens.begin(), spec.tokens.end());
            QCOMPARE(pair.tokenizer.decode(all), prompts[i] + pair.tokenizer.decodeAfter(prompt, spec.tokens));
        }
    }

    void subwordTokenizerMismatchIsOneSentence()
    {
        // A draft over kjv's characters and a target over Qwen3's ids: one sentence says which tokenizer each uses.
        test::SubwordPair &pair = test::subwordPair();
        const auto chars = test::model("ngram:2", pair.corpus);
        try {
            SpeculativeDecoder decoder(*pair.target, *chars, DecodingSettings{});
            QFAIL("a chars draft was accepted for a Qwen3 target");
        } catch (const Error &e) {
            const QString message = QString::fromUtf8(e.what());
            QVERIFY2(message.startsWith(QStringLiteral(
                         "draft and target tokenizers differ: the draft uses the chars tokenizer of kjv (")),
                     qPrintable(message));
            QVERIFY2(message.contains(QStringLiteral("the target qwen3's tokenizer.json (151,669 ids)")),
                     qPrintable(message));
            QVERIFY(!message.contains(QLatin1Char('\n')));
        }
        // Two tokenizer.json files: which parts differ, and the first ids whose pieces differ.
        UniformModel qwen(pair.tokenizer);
        UniformModel gpt2(Tokenizer::load(test::tokenizerFolder("gpt2")));
        try {
            SpeculativeDecoder decoder(qwen, gpt2, DecodingSettings{});
            QFAIL("a GPT-2 draft was accepted for a Qwen3 target");
        } catch (const Error &e) {
            const QString message = QString::fromUtf8(e.what());
            QVERIFY2(message.contains(QStringLiteral("the draft uses gpt2's tokenizer.json (50,257 ids), the target "
                                                     "qwen3's tokenizer.json (151,669 ids)")),
                     qPrintable(message));
            QVERIFY2(message.contains(QStringLiteral("merges (target 151,387, draft 50,000)")), qPrintable(message));
        }
        // The same file loaded twice is the same tokenizer.
        UniformModel again(Tokenizer::load(test::tokenizerFolder("qwen3")));
        SpeculativeDecoder fine(qwen, again, DecodingSettings{});
    }

    void tracesAreConsistent()
    {
        const Corpus c = test::builtCorpus("kjv");
        auto t = test::model("ngram:5", c);
        auto d = test::model("ngram:2", c);
        DecodingSettings s;
        s.draftLength = 5;
        s.seed = 3;
        s.recordDistributions = true;
        const Generation g = generateSpeculative(*t, *d, s, c.vocabulary.encode(U"And God said"), 300);
        QCOMPARE(static_cast<int>(g.tokens.size()), 300);
        std::vector<TokenId> fromTraces;
        int contextLength = 12;
        for (const RoundTrace &r : g.rounds) {
            QCOMPARE(r.contextLength, contextLength);
            QCOMPARE(r.targetCalls, 1);
            QCOMPARE(r.draftCalls, r.draftLength);
            std::vector<TokenId> expected;
            for (int i = 0; i < r.draftLength; ++i) {
                const DraftPosition &pos = r.positions[static_cast<std::size_t>(i)];
                QCOMPARE(pos.q, pos.qDist[pos.token]);
                QCOMPARE(pos.p, pos.pDist[pos.token]);
                QVERIFY(std::abs(pos.qDist.sum() - 1.0) < 1e-9);
                QVERIFY(std::abs(pos.overlap + pos.totalVariation - 1.0) < 1e-9);
                if (i < r.acceptedCount()) {
                    QCOMPARE(pos.verdict, Verdict::Accepted);
                    QVERIFY(pos.u < pos.threshold);
                    expected.push_back(pos.token);
                } else if (i == r.rejectedAt) {
                    QCOMPARE(pos.verdict, Verdict::Rejected);
                    QVERIFY(pos.u >= pos.threshold);
                } else {
                    QCOMPARE(pos.verdict, Verdict::Discarded);
                    QCOMPARE(pos.u, -1.0);
                }
            }
            if (r.rejectedAt >= 0) {
                QVERIFY(r.bonus < 0);
                QVERIFY(r.residual[r.correction] > 0.0); // the correction comes from the residual's support
                expected.push_back(r.correction);
            } else {
                QVERIFY(r.correction < 0);
                QVERIFY(r.bonusDist[r.bonus] > 0.0);
                expected.push_back(r.bonus);
            }
            QCOMPARE(r.committed, expected);
            fromTraces.insert(fromTraces.end(), r.committed.begin(), r.committed.end());
            contextLength += static_cast<int>(r.committed.size());
        }
        fromTraces.resize(300);
        QCOMPARE(fromTraces, g.tokens);
    }

    void sameSeedSameTraces()
    {
        const Corpus c = test::builtCorpus("tang-song");
        auto t = test::model("ngram:3", c);
        auto d = test::model("ngram:1", c);
        DecodingSettings s;
        s.draftLength = 4;
        s.target = {0.9, 50, 0.95};
        s.draft = {1.1, 50, 0.95};
        s.seed = 77;
        s.recordDistributions = true;
        const auto prompt = c.vocabulary.encode(U"春");
        const Generation a = generateSpeculative(*t, *d, s, prompt, 200);
        const Generation b = generateSpeculative(*t, *d, s, prompt, 200);
        QCOMPARE(a.tokens, b.tokens);
        QCOMPARE(a.rounds.size(), b.rounds.size());
        for (std::size_t i = 0; i < a.rounds.size(); ++i)
            QVERIFY2(sameTrace(a.rounds[i], b.rounds[i]), qPrintable(QStringLiteral("round %1 differs").arg(i)));
        s.seed = 78;
        const Generation other = generateSpeculative(*t, *d, s, prompt, 200);
        QVERIFY(other.tokens != a.tokens);
    }

    void sameDraftIsAlwaysAccepted()
    {
        const Corpus c = test::tinyEnglish();
        auto t = test::model("ngram:3", c);
        SameAsTargetModel same(*t);
        DecodingSettings s;
        s.draftLength = 4;
        s.seed = 5;
        const Generation g = generateSpeculative(*t, same, s, {}, 100);
        for (const RoundTrace &r : g.rounds) {
            QCOMPARE(r.rejectedAt, -1);
            QVERIFY(r.bonus >= 0);
        }
        QCOMPARE(g.target.calls, std::int64_t(20)); // the draft's calls are its own: 5 tokens per target pass
        QCOMPARE(g.draft.calls, std::int64_t(80));
    }

    void autoregressiveRunInStepsIsTheWholeGeneration()
    {
        // The window's baseline plays the autoregressive run in steps of each round's tokens: the same tokens
        // as one generateAutoregressive call (same prompt, seed, sampler), whatever the steps.
        const Corpus en = test::tinyEnglish();
        auto t = test::model("ngram:3", en);
        SamplerSettings sampler;
        sampler.temperature = 0.8;
        const auto prompt = en.vocabulary.encode(U"the ");
        const Generation whole = generateAutoregressive(*t, sampler, 7, prompt, 50);
        AutoregressiveRun run(*t, sampler, 7, prompt);
        for (int step : {1, 3, 2, 5, 4, 1, 5, 5, 5, 5, 5, 5, 4})
            run.generate(step);
        QCOMPARE(run.generated(), 50);
        const std::vector<TokenId> generated(run.sequence().begin() + static_cast<std::ptrdiff_t>(prompt.size()),
                                             run.sequence().end());
        QCOMPARE(generated, whole.tokens);
        QVERIFY(run.seconds() > 0.0);
        AutoregressiveRun other(*t, sampler, 8, prompt); // another seed: another text (the test can fail)
        other.generate(50);
        QVERIFY(other.sequence() != run.sequence());
    }

    /// What only a teaching run computes (β and TV, the recorded distributions, a tree's exact acceptance) is
    /// timed apart in every round, chain and tree, and left out of the generation's seconds: the wall clocks of
    /// the window and the CLI count decoding work only.
    void teachingWorkIsTimedApart()
    {
        const Corpus c = test::builtCorpus("tang-song");
        auto t = test::model("ngram:4", c);
        auto d = test::model("ngram:2", c);
        const std::vector<TokenId> prompt = c.vocabulary.encode(U"春");
        for (const bool tree : {false, true}) {
            DecodingSettings s;
            s.draftLength = 4;
            s.seed = 5;
            s.recordDistributions = true;
            if (tree)
                s.tree = TreeShape::parse("2,2,1");
            SpeculativeDecoder chain(*t, *d, s);
            std::optional<TreeDecoder> treeDecoder;
            if (tree)
                treeDecoder.emplace(*t, *d, s);
            std::vector<TokenId> sequence = prompt;
            for (int i = 0; i < 20; ++i) {
                const auto start = std::chrono::steady_clock::now();
                const double teaching = tree ? treeDecoder->round(sequence, 3).teachingSeconds
                                             : chain.round(sequence, 4).teachingSeconds;
                const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                QVERIFY2(teaching > 0.0, tree ? "tree" : "chain");
                QVERIFY(teaching <= elapsed);
            }
            const auto start = std::chrono::steady_clock::now();
            const Generation g = generateSpeculative(*t, *d, s, prompt, 200);
            const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            double teaching = 0.0;
            for (const RoundTrace &r : g.rounds)
                teaching += r.teachingSeconds;
            for (const TreeTrace &r : g.treeRounds)
                teaching += r.teachingSeconds;
            QVERIFY(teaching > 0.0);
            QVERIFY(g.seconds > 0.0);
            QVERIFY(g.seconds + teaching <= elapsed);
        }
    }

    void mismatchedVocabulariesAreRefused()
    {
        const Corpus en = test::tinyEnglish();
        const Corpus zh = test::tinyChinese();
        auto t = test::model("ngram:2", en);
        auto d = test::model("ngram:2", zh);
        QVERIFY_THROWS_EXCEPTION(Error, SpeculativeDecoder(*t, *d, DecodingSettings{}));
        DecodingSettings bad;
        bad.draftLength = 65;
        QVERIFY_THROWS_EXCEPTION(Error, SpeculativeDecoder(*t, *t, bad));
        bad.draftLength = 0;
        QVERIFY_THROWS_EXCEPTION(Error, SpeculativeDecoder(*t, *t, bad));
        QVERIFY_THROWS_EXCEPTION(Error, generateAutoregressive(*t, {}, 0, {}, 0));
    }
};

QTEST_APPLESS_MAIN(TestDecoding)
#include "test_decoding.moc"
