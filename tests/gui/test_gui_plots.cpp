// SPDX-License-Identifier: GPL-3.0-or-later
// The plots hold exactly the metric values of the rounds played (per round and cumulative), and the theory
// panel substitutes the same numbers; past DecimatedSeries' capacity they stay bounded (dots keep each bucket's
// extremes, lines pass through exact values at bucket ends).
#include "GuiTestSupport.h"

#include "ArenaView.h"
#include "PlotsPanel.h"
#include "SetupBar.h"
#include "TheoryPanel.h"

#include "Theory.h"

#include <QCheckBox>
#include <QTableWidget>
#include <QtTest>

#include <limits>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <utility>

using namespace specdec;
using namespace specdec::gui;
using Series = PlotsPanel::Series;

class TestPlots : public QObject
{
    Q_OBJECT
private slots:
    void holdExactlyTheMetrics();
    void appendIsIncremental();
    void theorySubstitutesTheNumbers();
    void theoryGivesEachSpeedupItsCost();
    void theorySaysTheKvCacheIsOff();
    void theoryBestKUsesTheMeasuredCost();
    void speedupLegendsSayWhy();
    void decimatedSeriesKeepsExtremesAndEnds();
    void staysBoundedAfterManyRounds();
    void draftPositionsAreWholeNumbers();
};

void TestPlots::holdExactlyTheMetrics()
{
    const auto played = test::playRounds("ngram:4", "ngram:2", 1.0, 25);
    PlotsPanel plots;
    plots.appendRounds(*played.history);
    QCOMPARE(plots.roundsPlotted(), 25);
    auto expect = [&](Series s, auto value) {
        QVector<double> v;
        for (const auto &r : played.records)
            v << value(*r);
        QCOMPARE(plots.values(s), v);
    };
    expect(Series::AcceptancePerRound, [](const RoundRecord &r) { return r.round.acceptanceRate; });
    expect(Series::AcceptanceCumulative, [](const RoundRecord &r) { return r.cumulative.acceptanceRate; });
    expect(Series::MeanOverlap, [](const RoundRecord &r) { return r.cumulative.meanOverlap; });
    expect(Series::TokensPerRound, [](const RoundRecord &r) { return r.round.tokensPerRound; });
    expect(Series::TokensPerRoundCumulative, [](const RoundRecord &r) { return r.cumulative.tokensPerRound; });
    expect(Series::ExpectedTokens, [](const RoundRecord &r) { return r.cumulative.expectedTokensPerRound; });
    expect(Series::SpeedupPasses, [](const RoundRecord &r) { return r.cumulative.speedupForwardPasses; });
    expect(Series::SpeedupCostModel, [](const RoundRecord &r) { return r.cumulative.speedupCostModel; });
    expect(Series::SpeedupWallClock, [](const RoundRecord &r) { return *r.cumulative.speedupWallClock; });

    plots.setCurrentRound(*played.history, 24);
    QVector<double> perPosition;
    for (double a : played.records.back()->cumulative.perPositionAcceptance)
        if (!std::isnan(a))
            perPosition << a;
    QCOMPARE(plots.values(Series::PositionAcceptance), perPosition);
}

void TestPlots::appendIsIncremental()
{
    const auto played = test::playRounds("ngram:4", "ngram:2", 1.0, 10);
    PlotsPanel plots;
    plots.appendRounds(*test::historyOf(played, 5));
    plots.appendRounds(*played.history);
    QCOMPARE(plots.values(Series::AcceptanceCumulative).size(), 10);
    QCOMPARE(plots.values(Series::AcceptanceCumulative).back(), played.records.back()->cumulative.acceptanceRate);
    plots.clear();
    QCOMPARE(plots.roundsPlotted(), 0);
    QVERIFY(plots.values(Series::TokensPerRound).isEmpty());
}

void TestPlots::theorySubstitutesTheNumbers()
{
    const auto played = test::playRounds("ngram:4", "ngram:2", 1.0, 10);
    const RunMetrics &m = played.records.back()->cumulative;
    TheoryPanel theory;
    theory.setMetrics(m, 4);
    const QString text = theory.toPlainText();
    QVERIFY(text.contains(QStringLiteral("%1 / %2").arg(m.accepted).arg(m.tested)));
    QVERIFY(text.contains(QString::number(m.acceptanceRate, 'f', 3)));
    QVERIFY(text.contains(QString::number(m.expectedTokensPerRound, 'f', 2)));
    QVERIFY(text.contains(QStringLiteral("3.36"))); // the reference: alpha = 0.8, K = 4
}

namespace {
/// A run measured slower than the target alone: 10 rounds of K = 4, 25 tokens, 100 ms per verification,
/// 10 ms per draft call, 1.4 s in all against 0.8 s for the baseline (32 ms per step).
RunMetrics slowRun()
{
    RunMetrics m;
    m.rounds = 10;
    m.tested = 40;
    m.accepted = 15;
    m.acceptanceRate = 0.375;
    m.generatedTokens = 25;
    m.tokensPerRound = 2.5;
    m.targetCalls = 10;
    m.draftCalls = 40;
    m.targetSeconds = 1.0;
    m.draftSeconds = 0.4;
    m.costRatio = 10.0 / 32.0;          // a draft call over a baseline step
    m.verificationRatio = 100.0 / 32.0; // a verification over a baseline step
    m.speedupForwardPasses = 2.5;
    m.seconds = 1.4;
    m.speedupWallClock = 0.8 / 1.4;
    return m;
}

/// V(m) = 1 + 0.5 (m − 1), m = 1..17: a compute-bound CPU step.
std::vector<double> steepV()
{
    std::vector<double> v;
    for (int m = 1; m <= 17; ++m)
        v.push_back(1.0 + 0.5 * (m - 1));
    return v;
}
} // namespace

// Passes saved, predicted with the measured V and c (and V = 1 beside it), measured: each with its reason, the
// milliseconds of each kind of call, and — measured below 1× — why, in the measured numbers.
void TestPlots::theoryGivesEachSpeedupItsCost()
{
    TheoryPanel theory;
    const RunMetrics m = slowRun();
    theory.setMachineCost(steepV(), 0.3, true, 300);
    theory.setMetrics(m, 4);
    const QString text = theory.toPlainText();
    const double en = theory::expectedTokensPerRound(m.acceptanceRate, 4);
    // One c and one V(K+1) on the panel: this run's own (100 ms / 32 ms = 3.13 steps a verification, 10 / 32 =
    // 0.313 a draft call), not the prompt's V(5) = 3.00 and c = 0.300.
    const QString predicted = QString::number(theory::generalisedSpeedup(m.acceptanceRate, 4, 10.0 / 32.0, 100.0 / 32.0),
                                              'f', 2);
    const QString accelerator = QString::number(theory::costModelSpeedup(m.acceptanceRate, 4, 10.0 / 32.0), 'f', 2);
    QVERIFY(predicted != accelerator);
    auto has = [&](const QString &s) { QVERIFY2(text.contains(s), qPrintable(s + QStringLiteral(" in:\n") + text)); };
    has(QStringLiteral("25 tokens / 10 passes = 2.50×"));
    has(QStringLiteral("= %1 / (3.13 + 4 · 0.313) = %2× — a round's cost in target steps: in this run a verification "
                       "of 5 positions took V(5) = 3.13 baseline steps and a draft call c = 0.313 of a step")
            .arg(QString::number(en, 'f', 2), predicted));
    has(QStringLiteral("V = 1, Thm 3.8): %1 / (1 + 4 · 0.313) = %2×").arg(QString::number(en, 'f', 2), accelerator));
    has(QStringLiteral("0.800 s / 1.40 s = 0.57×"));
    QVERIFY2(!text.contains(QStringLiteral("0.300")) && !text.contains(QStringLiteral("3.00 ")), qPrintable(text));
    // without a baseline the run has no c: the prompt's V and c, said to be the prompt's
    RunMetrics unpaired = m;
    unpaired.costRatio = std::numeric_limits<double>::quiet_NaN();
    unpaired.verificationRatio = std::numeric_limits<double>::quiet_NaN();
    unpaired.speedupWallClock.reset();
    theory.setMetrics(unpaired, 4);
    QVERIFY2(theory.toPlainText().contains(QStringLiteral("(3.00 + 4 · 0.300)"))
                 && theory.toPlainText().contains(
                     QStringLiteral("measured before the first round, where a 300-token run's calls are")),
             qPrintable(theory.toPlainText()));
    theory.setMetrics(m, 4);
    has(QStringLiteral("draft 10.0 · verification 100 · baseline step 32.0"));
    has(QStringLiteral("speculative 17.9 · target alone %1").arg(QString::number(25 / (*m.speedupWallClock * 1.4), 'f', 1)));
    // 140 ms a round (100 ms verifying 5 positions = 3.1 steps, 4 drafts 40 ms) for 2.5 tokens: 56 ms a token
    has(QStringLiteral("a round takes 140 ms (a verification of 5 positions, 100 ms = 3.1 baseline steps, and "
                       "4.0 draft calls, 40.0 ms) for 2.50 tokens, 56.0 ms per token; the target alone takes 32.0 ms"));
    // measured above 1×: no "why slower"
    RunMetrics fast = m;
    fast.speedupWallClock = 1.2;
    theory.setMetrics(fast, 4);
    QVERIFY(!theory.toPlainText().contains(QStringLiteral("Why slower")));
    QVERIFY(theory.toPlainText().contains(QStringLiteral("= 1.20×")));
}

// With the KV cache off the wall clock compares against the uncached decoder: the panel says so next to it.
void TestPlots::theorySaysTheKvCacheIsOff()
{
    TheoryPanel theory;
    theory.setMachineCost(steepV(), 0.3, false, 300);
    theory.setMetrics(slowRun(), 4);
    QVERIFY(theory.toPlainText().contains(QStringLiteral("KV cache off")));
    QVERIFY(theory.toPlainText().contains(QStringLiteral("uncached decoder")));
    QVERIFY(TheoryPanel::kvCacheOffNote().contains(QStringLiteral("uncached decoder")));
    theory.setMachineCost(steepV(), 0.3, true, 300);
    QVERIFY(!theory.toPlainText().contains(QStringLiteral("KV cache off")));
    // and the switch says it in its tooltip
    SetupBar bar;
    auto *kvCache = bar.findChild<QCheckBox *>(QStringLiteral("kvCache"));
    QVERIFY(kvCache);
    QVERIFY2(kvCache->toolTip().contains(QStringLiteral("Off: every call recomputes its whole window; the baseline "
                                                        "is then the uncached decoder")),
             qPrintable(kvCache->toolTip()));
}

// "Best K" maximises E[N] / (V(K+1) + K c) with the measured V and c, not Theorem 3.8's V = 1.
void TestPlots::theoryBestKUsesTheMeasuredCost()
{
    TheoryPanel theory;
    RunMetrics m = slowRun();
    m.acceptanceRate = 0.8;
    m.costRatio = 0.05;      // the run's c
    m.verificationRatio = 3; // and V(5): the prompt's steep curve as it is
    theory.setMachineCost(steepV(), 0.7, true, 300);
    theory.setMetrics(m, 4);
    const int measured = theory::optimalDraftLengthMeasured(0.8, 0.05, steepV());
    const int oneStep = theory::optimalDraftLength(0.8, 0.05, 16);
    QCOMPARE(theory.bestK(), measured);
    QVERIFY2(measured < oneStep, qPrintable(QStringLiteral("%1 vs %2").arg(measured).arg(oneStep)));
    for (int k = 1; k <= 16; ++k)
        QVERIFY(theory::generalisedSpeedup(0.8, k, 0.05, 1.0 + 0.5 * k)
                <= theory::generalisedSpeedup(0.8, measured, 0.05, 1.0 + 0.5 * measured));
    QVERIFY2(theory.toPlainText().contains(
                 QStringLiteral("best K with V and c measured here: %1 (S = %2×); in the accelerator case (V = 1): %3")
                     .arg(measured)
                     .arg(QString::number(theory::generalisedSpeedup(0.8, measured, 0.05, 1.0 + 0.5 * measured), 'f', 2))
                     .arg(oneStep)),
             qPrintable(theory.toPlainText()));
    // A run whose verification of 5 positions took 6 steps (the prompt's 3): V(m) − 1 scaled by 5 / 2, best K with it.
    m.verificationRatio = 6;
    theory.setMetrics(m, 4);
    std::vector<double> steeper = steepV();
    for (double &v : steeper)
        v = 1.0 + (v - 1.0) * 2.5;
    QCOMPARE(theory.bestK(), theory::optimalDraftLengthMeasured(0.8, 0.05, steeper));
    QVERIFY(theory.bestK() < measured);
}

// The plots' speedup panel and the arena's speedup columns say in their tooltips what each speedup is.
void TestPlots::speedupLegendsSayWhy()
{
    PlotsPanel plots;
    const QString tip = plots.plot(2)->toolTip();
    for (const char *reason : {"Target passes saved: tokens per target pass", "E[N] / (1 + K·c)",
                               "Wall clock: baseline time / speculative time"})
        QVERIFY2(tip.contains(QString::fromUtf8(reason)), qPrintable(tip));
    ArenaView arena;
    QTableWidget *table = arena.table();
    QVERIFY(table->horizontalHeaderItem(4)->text().contains(QStringLiteral("passes")));
    QVERIFY(table->horizontalHeaderItem(4)->toolTip().contains(QStringLiteral("Tokens per target pass")));
    QVERIFY(table->horizontalHeaderItem(5)->toolTip().contains(QStringLiteral("Theorem 3.8")));
    QVERIFY(table->horizontalHeaderItem(6)->text().contains(QStringLiteral("wall clock")));
    QVERIFY(table->horizontalHeaderItem(6)->toolTip().contains(QStringLiteral("Baseline time / speculative time")));
}

void TestPlots::decimatedSeriesKeepsExtremesAndEnds()
{
    DecimatedSeries dots(DecimatedSeries::Mode::MinMax, 8);
    DecimatedSeries line(DecimatedSeries::Mode::Last, 8);
    for (int x = 1; x <= 8; ++x) { // up to the capacity: every value as added
        dots.add(x, x % 3);
        line.add(x, 10.0 * x);
    }
    QCOMPARE(dots.width(), 1LL);
    QCOMPARE(line.points().size(), std::size_t(8));
    QCOMPARE(line.points()[4].value, 50.0);
    for (int x = 9; x <= 1000; ++x) {
        dots.add(x, x == 777 ? -5.0 : x == 333 ? 9.0 : x % 3);
        line.add(x, 10.0 * x);
    }
    QCOMPARE(dots.added(), 1000LL);
    QVERIFY(dots.buckets() <= 8 && line.buckets() <= 8);
    QVERIFY(dots.points().size() <= 16);
    QCOMPARE(line.width(), dots.width());
    QVERIFY(line.width() >= 1000 / 8);
    // the line passes through exact values, ending at the last one; keys stay sorted
    const auto points = line.points();
    QCOMPARE(points.back().key, 1000.0);
    QCOMPARE(points.back().value, 10000.0);
    for (std::size_t i = 0; i < points.size(); ++i) {
        QCOMPARE(points[i].value, 10.0 * points[i].key);
        if (i > 0)
            QVERIFY(points[i - 1].key < points[i].key);
    }
    // the dots keep the extremes, at their own rounds
    bool low = false, high = false;
    for (const auto &p : dots.points()) {
        low = low || (p.key == 777.0 && p.value == -5.0);
        high = high || (p.key == 333.0 && p.value == 9.0);
    }
    QVERIFY(low && high);
    dots.clear();
    QVERIFY(dots.empty());
    QCOMPARE(dots.width(), 1LL);
}

void TestPlots::staysBoundedAfterManyRounds()
{
    // 30,000 numbers-only rounds (no model needed): a real session at full speed for several minutes.
    constexpr int kRounds = 30000;
    RoundHistory history(16);
    std::vector<std::shared_ptr<const RoundRecord>> batch;
    double lowest = 1.0;
    for (int i = 0; i < kRounds; ++i) {
        RoundRecord r;
        r.trace.index = i;
        r.trace.draftLength = 4;
        r.trace.positions.resize(4); // a consistent trace: the history's metrics read its tested positions
        r.round.acceptanceRate = i == 31337 ? 0.0 : 0.25 + 0.5 * ((i * 7) % 3) / 2.0;
        r.round.tokensPerRound = 1 + (i * 5) % 5;
        r.cumulative.acceptanceRate = 0.5 + 0.4 * i / kRounds;
        r.cumulative.tokensPerRound = 3.0;
        lowest = std::min(lowest, r.round.acceptanceRate);
        batch.push_back(std::make_shared<const RoundRecord>(std::move(r)));
        if (batch.size() == 500)
            history.append(std::exchange(batch, {}));
    }
    PlotsPanel plots;
    int most = 0;
    for (int shown = 500; shown <= kRounds; shown += 500) { // the frames of a run
        plots.appendRounds(history, shown);
        most = std::max(most, plots.pointsHeld());
    }
    QCOMPARE(plots.roundsPlotted(), kRounds);
    // ten series, each at most 2 points per bucket (dots) or 1 (lines), buckets at most the capacity
    QVERIFY2(most <= 10 * 2 * DecimatedSeries().capacity() + 64, qPrintable(QString::number(most)));
    const QVector<double> alpha = plots.values(Series::AcceptanceCumulative);
    QVERIFY(alpha.size() <= DecimatedSeries().capacity());
    QCOMPARE(alpha.back(), history.back().cumulative.acceptanceRate);
    const QVector<double> perRound = plots.values(Series::AcceptancePerRound);
    QCOMPARE(*std::min_element(perRound.begin(), perRound.end()), lowest); // the one 0 survives decimation
    // stepping back re-plots from the history, still bounded
    plots.appendRounds(history, 1000);
    QCOMPARE(plots.roundsPlotted(), 1000);
    QVERIFY(plots.values(Series::AcceptanceCumulative).size() <= DecimatedSeries().capacity());
}

QTEST_MAIN(TestPlots)
#include "test_gui_plots.moc"

// The draft-position axis counts positions 1..K: its ticks are whole numbers before the first round (no
// "0.5 1 1.5") and after rounds.
void TestPlots::draftPositionsAreWholeNumbers()
{
    // Draft positions (plot 3) and rounds (plots 0-2) are whole numbers: no tick at position 2.5 or round 12.5
    // (the round axes once read 2.5, 5, 7.5, 10, 12.5 after 12 rounds).
    PlotsPanel plots;
    auto wholeInRange = [&](int index) {
        QCPAxis *axis = plots.plot(index)->xAxis;
        QVector<double> ticks, subTicks;
        QVector<QString> labels;
        axis->ticker()->generate(axis->range(), QLocale(), QLatin1Char('g'), 6, ticks, &subTicks, &labels);
        for (double t : ticks)
            if (t >= axis->range().lower && t <= axis->range().upper && t != std::round(t))
                return false;
        return !ticks.isEmpty();
    };
    auto allWhole = [&] { return wholeInRange(0) && wholeInRange(1) && wholeInRange(2) && wholeInRange(3); };
    QVERIFY2(allWhole(), "a new panel");
    const auto played = test::playRounds("ngram:4", "ngram:2", 1.0, 12);
    plots.setCurrentRound(*played.history, -1, 0); // the window's state before the first round
    QVERIFY2(allWhole(), "before the first round");
    plots.appendRounds(*played.history);
    plots.setCurrentRound(*played.history, 11);
    const double k = static_cast<double>(played.info.draftLength);
    QVERIFY2(plots.plot(3)->xAxis->range().upper > k, "the axis reaches position K");
    QVERIFY2(plots.plot(0)->xAxis->range().upper >= 12, "the axis reaches round 12");
    QVERIFY2(allWhole(), "after 12 rounds");
}
