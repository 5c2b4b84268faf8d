// SPDX-License-Identifier: GPL-3.0-or-later
// Metrics and theory: the closed forms against the literature's numbers, and metrics of hand-made traces.
#include "Error.h"
#include "Metrics.h"
#include "MetricsAccumulator.h"
#include "Theory.h"
#include "VerificationCost.h"

#include <QtTest>

#include <cmath>

using namespace specdec;

namespace {

/// A round with K drafts of which the first `accepted` passed (all K: a bonus token).
RoundTrace round(int k, int accepted, double overlap)
{
    RoundTrace r;
    r.draftLength = k;
    r.positions.resize(static_cast<std::size_t>(k));
    for (int i = 0; i < k; ++i) {
        auto &pos = r.positions[static_cast<std::size_t>(i)];
        pos.verdict = i < accepted ? Verdict::Accepted : (i == accepted ? Verdict::Rejected : Verdict::Discarded);
        pos.overlap = overlap;
        pos.totalVariation = 1.0 - overlap;
        if (i < accepted)
            r.committed.push_back(i);
    }
    r.rejectedAt = accepted < k ? accepted : -1;
    r.committed.push_back(99);
    r.targetCalls = 1;
    r.draftCalls = k;
    r.targetSeconds = 0.010;
    r.draftSeconds = 0.001 * k;
    return r;
}

} // namespace

class TestMetrics : public QObject
{
    Q_OBJECT
private slots:
    void expectedTokensPerRound()
    {
        QVERIFY(std::abs(theory::expectedTokensPerRound(0.8, 4) - 3.36160) < 1e-12); // PRODUCT.md: 3.36
        QCOMPARE(theory::expectedTokensPerRound(1.0, 4), 5.0);
        QCOMPARE(theory::expectedTokensPerRound(0.0, 4), 1.0);
        QVERIFY(std::abs(theory::expectedTokensPerRound(0.5, 1) - 1.5) < 1e-15);
    }

    void costModelSpeedup()
    {
        // Leviathan et al. Thm 3.8: (1 - a^{K+1}) / ((1 - a)(Kc + 1)); a = 0.8, K = 4, c = 0.05 -> 3.3616 / 1.2.
        QVERIFY(std::abs(theory::costModelSpeedup(0.8, 4, 0.05) - 3.3616 / 1.2) < 1e-12);
        QCOMPARE(theory::costModelSpeedup(0.8, 4, 0.0), theory::expectedTokensPerRound(0.8, 4));
        QVERIFY(theory::costModelSpeedup(0.2, 4, 0.5) < 1.0); // a poor, costly draft slows decoding down
        // The optimum grows with alpha and shrinks with c.
        QVERIFY(theory::optimalDraftLength(0.9, 0.01) > theory::optimalDraftLength(0.6, 0.01));
        QVERIFY(theory::optimalDraftLength(0.8, 0.2) < theory::optimalDraftLength(0.8, 0.01));
        const int k = theory::optimalDraftLength(0.8, 0.05);
        for (int other = 1; other <= 64; ++other)
            QVERIFY(theory::costModelSpeedup(0.8, k, 0.05) >= theory::costModelSpeedup(0.8, other, 0.05));
    }

    void generalisedSpeedup()
    {
        // E[N] = 3.3616 at alpha = 0.8, K = 4: V(K+1) = 1 is Leviathan's Theorem 3.8, V = 2 halves its denominator's 1.
        QVERIFY(std::abs(theory::generalisedSpeedup(0.8, 4, 0.05, 1.0) - theory::costModelSpeedup(0.8, 4, 0.05)) < 1e-12);
        QVERIFY(std::abs(theory::generalisedSpeedup(0.8, 4, 0.05, 2.0) - 3.3616 / 2.2) < 1e-12);
        // V(m) = 1 and c = 0: the longest draft measured wins; V(m) = m and c = 0: E[N] / (K + 1) falls, K = 1.
        QCOMPARE(theory::optimalDraftLengthMeasured(0.8, 0.0, {1, 1, 1, 1, 1, 1}), 5);
        QCOMPARE(theory::optimalDraftLengthMeasured(0.8, 0.0, {1, 2, 3, 4, 5, 6}), 1);
        const std::vector<double> v{1.0, 1.1, 1.3, 1.6, 2.0, 2.5, 3.1, 3.8, 4.6};
        const int best = theory::optimalDraftLengthMeasured(0.8, 0.05, v);
        for (int k = 1; k <= 8; ++k)
            QVERIFY(theory::generalisedSpeedup(0.8, best, 0.05, v[best])
                    >= theory::generalisedSpeedup(0.8, k, 0.05, v[k]));
        QCOMPARE(theory::optimalDraftLengthMeasured(0.8, 0.05, {1.0}), 1);
    }

    void metricsOfHandMadeRounds()
    {
        // Rounds of K = 4: all pass; 2 pass; 0 pass; 3 pass.
        const std::vector<RoundTrace> rounds{round(4, 4, 0.9), round(4, 2, 0.5), round(4, 0, 0.3), round(4, 3, 0.7)};
        const RunMetrics m = computeMetrics(rounds, 2.0, 5.0);
        QCOMPARE(m.rounds, 4);
        QCOMPARE(m.drafted, 16);
        QCOMPARE(m.accepted, 9);
        QCOMPARE(m.tested, 4 + 3 + 1 + 4);
        QCOMPARE(m.generatedTokens, 5 + 3 + 1 + 4);
        QCOMPARE(m.acceptanceRate, 9.0 / 12.0);
        QCOMPARE(m.draftAcceptance, 9.0 / 16.0);
        QCOMPARE(m.tokensPerRound, 13.0 / 4.0);
        QCOMPARE(m.perPositionTested, (std::vector<int>{4, 3, 3, 2}));
        QCOMPARE(m.perPositionAcceptance[0], 3.0 / 4.0);
        QCOMPARE(m.perPositionAcceptance[1], 3.0 / 3.0);
        QCOMPARE(m.perPositionAcceptance[2], 2.0 / 3.0);
        QCOMPARE(m.perPositionAcceptance[3], 1.0 / 2.0);
        QCOMPARE(m.speedupForwardPasses, 13.0 / 4.0);
        QCOMPARE(m.targetCalls, std::int64_t(4));
        QCOMPARE(m.draftCalls, std::int64_t(16));
        // c = T_draft(1) / T_target(1): 1 ms per draft call over the baseline's step, 5 s for 13 tokens
        QVERIFY(std::abs(m.costRatio - 0.001 / (5.0 / 13.0)) < 1e-12);
        QVERIFY(std::abs(m.expectedTokensPerRound - theory::expectedTokensPerRound(0.75, 4)) < 1e-12);
        QVERIFY(std::abs(m.speedupCostModel - theory::costModelSpeedup(0.75, 4, 0.001 / (5.0 / 13.0))) < 1e-12);
        QVERIFY(m.speedupWallClock.has_value());
        QCOMPARE(*m.speedupWallClock, 2.5);
        const double meanOverlap = (4 * 0.9 + 3 * 0.5 + 1 * 0.3 + 4 * 0.7) / 12.0;
        QVERIFY(std::abs(m.meanOverlap - meanOverlap) < 1e-12);
        // V(K+1) in this run: the mean target call over the same step
        QVERIFY(std::abs(m.verificationRatio - (m.targetSeconds / 4.0) / (5.0 / 13.0)) < 1e-12);
        // Without a baseline there is no step of the target alone (a run's target call verifies K + 1): no c.
        const RunMetrics alone = computeMetrics(rounds, 2.0);
        QVERIFY(!alone.speedupWallClock.has_value());
        QVERIFY(std::isnan(alone.costRatio));
        QVERIFY(std::isnan(alone.verificationRatio));
        QVERIFY(std::isnan(alone.speedupCostModel));
    }

    void calibratedCostUsesTheRunsOwnCalls()
    {
        VerificationCost prompt;
        prompt.v = {1.0, 1.5, 2.0, 2.5, 3.0, 3.5}; // V(m) = 1 + (m - 1) / 2
        prompt.seconds = {0.01, 0.015, 0.02, 0.025, 0.03, 0.035};
        prompt.c = 0.3;
        prompt.draftSeconds = 0.003;
        RunMetrics run;
        run.costRatio = 0.1;
        run.verificationRatio = 5.0; // V(5) in the run: twice the prompt's excess (4 against 2)
        const VerificationCost cost = calibratedCost(prompt, run, 4);
        QVERIFY(cost.fromRun);
        QCOMPARE(cost.c, 0.1);
        QCOMPARE(cost.v[4], 5.0);
        QCOMPARE(cost.v[0], 1.0);
        for (std::size_t m = 1; m < cost.v.size(); ++m)
            QVERIFY(std::abs(cost.v[m] - (1.0 + 2.0 * (prompt.v[m] - 1.0))) < 1e-12);
        // a flat prompt curve (memory-bound): the line from V(1) = 1 through the run's V(5)
        prompt.v = {1.0, 1.0, 1.01, 1.0, 1.01, 1.02};
        run.verificationRatio = 1.4;
        const VerificationCost flat = calibratedCost(prompt, run, 4);
        for (std::size_t m = 1; m < flat.v.size(); ++m)
            QVERIFY(std::abs(flat.v[m] - (1.0 + 0.4 * static_cast<double>(m) / 4.0)) < 1e-12);
        QCOMPARE(flat.v[4], 1.4);
        // no baseline: the prompt's own, said so
        run.costRatio = std::nan("");
        run.verificationRatio = std::nan("");
        const VerificationCost unpaired = calibratedCost(prompt, run, 4);
        QVERIFY(!unpaired.fromRun);
        QCOMPARE(unpaired.c, 0.3);
        QCOMPARE(unpaired.v, prompt.v);
    }

    void accumulatorEqualsComputeMetrics()
    {
        // Rounds of varying K and verdicts (a policy's K over rounds), folded in one at a time: after every
        // round the running metrics equal computeMetrics over the same prefix, field by field, exactly.
        std::vector<RoundTrace> rounds;
        for (int i = 0; i < 60; ++i) {
            const int k = 1 + (i * 7) % 6;
            RoundTrace r = round(k, (i * 5) % (k + 1), 0.1 + 0.013 * (i % 50));
            r.targetSeconds = 0.001 * (1 + i % 3);
            r.draftSeconds = 0.0002 * k * (1 + i % 2);
            rounds.push_back(r);
        }
        MetricsAccumulator acc;
        std::vector<RoundTrace> prefix;
        for (std::size_t i = 0; i < rounds.size(); ++i) {
            acc.add(rounds[i]);
            prefix.push_back(rounds[i]);
            const double seconds = 0.01 * static_cast<double>(i + 1), baseline = 0.03 * static_cast<double>(i + 1);
            const RunMetrics a = acc.metrics(seconds, baseline);
            const RunMetrics b = computeMetrics(prefix, seconds, baseline);
            QCOMPARE(a.rounds, b.rounds);
            QCOMPARE(a.generatedTokens, b.generatedTokens);
            QCOMPARE(a.drafted, b.drafted);
            QCOMPARE(a.tested, b.tested);
            QCOMPARE(a.accepted, b.accepted);
            QCOMPARE(a.maxDraftLength, b.maxDraftLength);
            QCOMPARE(a.acceptanceRate, b.acceptanceRate);
            QCOMPARE(a.draftAcceptance, b.draftAcceptance);
            QCOMPARE(a.perPositionTested, b.perPositionTested);
            QCOMPARE(a.perPositionAcceptance.size(), b.perPositionAcceptance.size());
            for (std::size_t j = 0; j < a.perPositionAcceptance.size(); ++j)
                QVERIFY(a.perPositionAcceptance[j] == b.perPositionAcceptance[j]
                        || (std::isnan(a.perPositionAcceptance[j]) && std::isnan(b.perPositionAcceptance[j])));
            QCOMPARE(a.tokensPerRound, b.tokensPerRound);
            QCOMPARE(a.meanOverlap, b.meanOverlap);
            QCOMPARE(a.meanTotalVariation, b.meanTotalVariation);
            QCOMPARE(a.targetCalls, b.targetCalls);
            QCOMPARE(a.draftCalls, b.draftCalls);
            QCOMPARE(a.costRatio, b.costRatio);
            QCOMPARE(a.expectedTokensPerRound, b.expectedTokensPerRound);
            QCOMPARE(a.speedupForwardPasses, b.speedupForwardPasses);
            QCOMPARE(a.speedupCostModel, b.speedupCostModel);
            QCOMPARE(a.speedupWallClock, b.speedupWallClock);
            // metrics() leaves the sums alone: asking twice gives the same
            QCOMPARE(acc.metrics(seconds, baseline).acceptanceRate, a.acceptanceRate);
        }
        QCOMPARE(acc.rounds(), 60);
        // The accumulator matches the hand-computed numbers of metricsOfHandMadeRounds as well.
        MetricsAccumulator hand;
        for (const RoundTrace &r : {round(4, 4, 0.9), round(4, 2, 0.5), round(4, 0, 0.3), round(4, 3, 0.7)})
            hand.add(r);
        QCOMPARE(hand.metrics(2.0).acceptanceRate, 9.0 / 12.0);
        QCOMPARE(hand.metrics(2.0).perPositionTested, (std::vector<int>{4, 3, 3, 2}));
    }

    void inconsistentTraceIsRejected_data()
    {
        QTest::addColumn<int>("broken");
        QTest::addColumn<QString>("message");
        QTest::addRow("fewer positions than K") << 0 << QStringLiteral("round 3: K = 4 but 2 draft positions recorded");
        QTest::addRow("rejection past K") << 1 << QStringLiteral("round 3: rejected at position 4 outside 0..3");
        QTest::addRow("rejection below -1") << 2 << QStringLiteral("round 3: rejected at position -2 outside 0..3");
        QTest::addRow("negative K") << 3 << QStringLiteral("round 3: negative draft length K = -1");
        QTest::addRow("too many committed") << 4 << QStringLiteral("round 3: 6 tokens committed, more than K + 1 = 5");
    }

    void inconsistentTraceIsRejected()
    {
        // A trace that contradicts itself (read from a file, made by hand) is refused with the round named,
        // before any position is read (no read past `positions`) and without changing the sums.
        QFETCH(int, broken);
        QFETCH(QString, message);
        RoundTrace r = round(4, 1, 0.5);
        r.index = 2;
        switch (broken) {
        case 0:
            r.positions.resize(2);
            r.rejectedAt = 3;
            break; // tested 4 of 2 positions
        case 1: r.rejectedAt = 4; break;
        case 2: r.rejectedAt = -2; break;
        case 3:
            r.draftLength = -1;
            r.positions.clear();
            break;
        default: r.committed.assign(6, 1); break;
        }
        MetricsAccumulator acc;
        acc.add(round(4, 2, 0.5));
        const RunMetrics before = acc.metrics(1.0);
        try {
            acc.add(r);
            QFAIL("an inconsistent trace was accepted");
        } catch (const Error &e) {
            QCOMPARE(QString::fromStdString(e.what()), message);
        }
        QCOMPARE(acc.rounds(), 1);
        QCOMPARE(acc.metrics(1.0).tested, before.tested);
        QCOMPARE(acc.metrics(1.0).perPositionTested, before.perPositionTested);
        QVERIFY_THROWS_EXCEPTION(Error, computeMetrics({round(4, 2, 0.5), r}, 1.0));
        // The same round made consistent is accepted.
        acc.add(round(4, 1, 0.5));
        QCOMPARE(acc.rounds(), 2);
    }

    void emptyRunHasZeroMetrics()
    {
        const RunMetrics m = computeMetrics({}, 0.0);
        QCOMPARE(m.rounds, 0);
        QCOMPARE(m.acceptanceRate, 0.0);
        QVERIFY(m.perPositionAcceptance.empty());
    }
};

QTEST_APPLESS_MAIN(TestMetrics)
#include "test_metrics.moc"
