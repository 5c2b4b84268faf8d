// SPDX-License-Identifier: GPL-3.0-or-later
// Decoding states (the KV cache API): extend gives the rows of distributions(), truncate rolls back, and the
// speculative decoder's traces record each state's lengths (before, after extension, after rollback).
#include "DecodingState.h"
#include "Error.h"
#include "Generation.h"
#include "Metrics.h"
#include "TestSupport.h"
#include "VerificationCost.h"

#include <QtTest>

using namespace specdec;

class TestDecodingState : public QObject
{
    Q_OBJECT
private slots:
    void extendGivesTheRowsOfDistributions()
    {
        const Corpus c = test::tinyEnglish();
        auto model = test::model("ngram:4", c);
        const std::vector<TokenId> text = c.vocabulary.encode(U"the cat sat on the mat");
        auto state = model->newState();
        DistributionMatrix rows, expected;
        // Grow by 1, 3, 5, ... tokens; ask for every number of rows the new length allows.
        std::size_t at = 0;
        for (std::size_t grow = 1; at < text.size(); grow += 2) {
            const std::size_t k = std::min(grow, text.size() - at);
            const int m = static_cast<int>(std::min<std::size_t>(k + 1, at + k));
            state->extend(std::span<const TokenId>(text).subspan(at, k), m, rows);
            at += k;
            QCOMPARE(state->length(), static_cast<int>(at));
            model->distributions(std::span<const TokenId>(text).first(at), m, expected);
            QCOMPARE(rows, expected);
        }
        QCOMPARE(state->stats().fed, static_cast<std::int64_t>(text.size()));
    }

    void truncateRollsBack()
    {
        const Corpus c = test::tinyEnglish();
        auto model = test::model("ngram:3", c);
        const std::vector<TokenId> text = c.vocabulary.encode(U"and the dog");
        auto state = model->newState();
        DistributionMatrix rows, again;
        state->extend(text, 2, rows);
        QCOMPARE(state->truncate(4), static_cast<int>(text.size()) - 4);
        QCOMPARE(state->length(), 4);
        QCOMPARE(state->truncate(10), 0); // longer than the state: nothing to discard
        state->extend(std::span<const TokenId>(text).subspan(4), 2, again);
        QCOMPARE(again, rows);
        QCOMPARE(state->stats().discarded, static_cast<std::int64_t>(text.size()) - 4);
        std::vector<TokenId> other = text;
        other[6] = other[0] == other[6] ? other[1] : other[0];
        QCOMPARE(state->syncTo(other), static_cast<int>(text.size()) - 6);
        QCOMPARE(state->length(), 6);
        // followTo: a continued sequence keeps the state, a shorter one cuts it, a changed tail resyncs exactly
        QCOMPARE(state->followTo(other), 0);
        QCOMPARE(state->length(), 6);
        QCOMPARE(state->followTo(std::span<const TokenId>(other).first(5)), 1);
        QCOMPARE(state->length(), 5);
        std::vector<TokenId> changed = other;
        changed[2] = changed[2] == changed[0] ? changed[1] : changed[0];
        QCOMPARE(state->followTo(changed), 3);
        QCOMPARE(state->length(), 2);
        state->extend(std::span<const TokenId>(other).subspan(2, 4), 1, rows);
        QCOMPARE(state->length(), 6);
        QVERIFY_THROWS_EXCEPTION(Error, state->truncate(-1));
        QVERIFY_THROWS_EXCEPTION(Error, state->extend({}, 8, rows));
        const std::vector<TokenId> bad{c.vocabulary.size()};
        QVERIFY_THROWS_EXCEPTION(Error, state->extend(bad, 1, rows));
        QCOMPARE(state->length(), 6); // a failed extension leaves the state as it was
    }

    void callsAreCountedByTheModel()
    {
        const Corpus c = test::tinyEnglish();
        auto model = test::model("ngram:2", c);
        auto state = model->newState();
        DistributionMatrix rows;
        const std::vector<TokenId> text = c.vocabulary.encode(U"the cat");
        state->extend(text, 3, rows);
        state->extend(std::span<const TokenId>(text).first(1), 1, rows);
        QCOMPARE(model->stats().calls, std::int64_t(2));
        QCOMPARE(model->stats().positions, std::int64_t(4));
    }

    void tracesRecordCacheLengths()
    {
        const Corpus c = test::builtCorpus("kjv");
        auto t = test::model("ngram:5", c);
        auto d = test::model("ngram:2", c);
        DecodingSettings s;
        s.draftLength = 5;
        s.seed = 11;
        const std::vector<TokenId> prompt = c.vocabulary.encode(U"And God said");
        const Generation g = generateSpeculative(*t, *d, s, prompt, 300);
        std::int64_t discarded = 0, fed = 0, targetDiscarded = 0;
        int rejections = 0;
        for (const RoundTrace &r : g.rounds) {
            const int n = r.contextLength, k = r.draftLength;
            // The target sees everything but the last committed token, then all K drafts in one call.
            QCOMPARE(r.targetCache.before, r.index == 0 ? 0 : n - 1);
            QCOMPARE(r.targetCache.extended, n + k);
            QCOMPARE(r.targetCache.after, n + r.acceptedCount());
            QCOMPARE(r.targetCache.discarded, r.targetCache.extended - r.targetCache.after);
            QCOMPARE(r.targetCache.fed, r.targetCache.extended - r.targetCache.before);
            // The draft feeds one token per call: it never sees its own last draft.
            QCOMPARE(r.draftCache.extended, n + k - 1);
            QCOMPARE(r.draftCache.after, std::min(n + r.acceptedCount(), n + k - 1));
            QCOMPARE(r.draftCache.discarded, r.draftCache.extended - r.draftCache.after);
            // After the rollback both states are a prefix of the committed text.
            QVERIFY(r.targetCache.after < n + static_cast<int>(r.committed.size()));
            rejections += r.rejectedAt >= 0;
            discarded += r.targetCache.discarded + r.draftCache.discarded;
            targetDiscarded += r.targetCache.discarded;
            fed += r.targetCache.fed;
        }
        QVERIFY(rejections > 10);
        const RunMetrics m = computeMetrics(g.rounds, g.seconds);
        QCOMPARE(m.cacheDiscarded, discarded);
        QCOMPARE(m.targetFed, fed);
        QCOMPARE(m.rejectedComputeShare, static_cast<double>(targetDiscarded) / static_cast<double>(fed));
        QVERIFY(m.rejectedComputeShare > 0.0 && m.rejectedComputeShare < 1.0);
    }

    void verificationCostIsMeasured()
    {
        const Corpus c = test::tinyEnglish();
        auto t = test::model("ngram:5", c);
        auto d = test::model("ngram:2", c);
        const std::vector<TokenId> prompt = c.vocabulary.encode(U"the cat");
        const std::int64_t callsBefore = t->stats().calls;
        const VerificationCost cost = measureVerificationCost(*t, d.get(), prompt, 5, true, 3);
        QCOMPARE(static_cast<int>(cost.v.size()), 5);
        QCOMPARE(static_cast<int>(cost.seconds.size()), 5);
        QCOMPARE(cost.v[0], 1.0);
        QCOMPARE(cost.at(1), 1.0);
        for (double v : cost.v)
            QVERIFY(v > 0.0);
        QVERIFY(cost.draftSeconds > 0.0 && cost.c > 0.0);
        QCOMPARE(cost.prefixLength, static_cast<int>(prompt.size()));
        // One prefill, then 5 m values x (1 warm-up + 3 timed) extensions: the calls are real and counted.
        QCOMPARE(t->stats().calls - callsBefore, std::int64_t(1 + 5 * 4));
        // The draft: each extension of the target is followed by a round of K = 2 draft calls, after one prefill
        // (a round leaves the draft past the next round's start: a rollback, no call).
        const std::int64_t draftBefore = d->stats().calls;
        const VerificationCost rounds = measureVerificationCost(*t, d.get(), prompt, 5, true, 3, {0, 2});
        QCOMPARE(d->stats().calls - draftBefore, std::int64_t(1 + 4 * 5 * 2));
        QVERIFY(rounds.c > 0.0);
        // A run of 40 tokens: the pasts spread over its middle half (prompt + 10 .. prompt + 30).
        const VerificationCost mid = measureVerificationCost(*t, d.get(), prompt, 5, true, 3, {40, 2});
        QCOMPARE(mid.prefixLength, static_cast<int>(prompt.size()) + 20);
        QCOMPARE(static_cast<int>(mid.v.size()), 5);
        QVERIFY_THROWS_EXCEPTION(Error, cost.at(6));
        QVERIFY_THROWS_EXCEPTION(Error, measureVerificationCost(*t, d.get(), {}, 5, true));
        QVERIFY_THROWS_EXCEPTION(Error, measureVerificationCost(*t, nullptr, prompt, 0, true));
    }

    void theStateFollowsAnEditedSequence()
    {
        // A caller that changes the text between rounds: the states resynchronise to the common prefix.
        const Corpus c = test::tinyEnglish();
        auto t = test::model("ngram:3", c);
        auto d = test::model("ngram:2", c);
        DecodingSettings s;
        s.draftLength = 3;
        s.target.temperature = 0.0;
        SpeculativeDecoder decoder(*t, *d, s);
        std::vector<TokenId> sequence = c.vocabulary.encode(U"the cat");
        decoder.round(sequence, 10);
        decoder.round(sequence, 10);
        sequence = c.vocabulary.encode(U"a dog");
        const RoundTrace r = decoder.round(sequence, 10);
        QCOMPARE(r.targetCache.before, 0);
        const Generation ar = generateAutoregressive(*t, s.target, 0, c.vocabulary.encode(U"a dog"),
                                                     static_cast<int>(r.committed.size()));
        QCOMPARE(r.committed, ar.tokens);
    }
};

QTEST_APPLESS_MAIN(TestDecodingState)
#include "test_decoding_state.moc"
