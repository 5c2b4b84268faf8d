// SPDX-License-Identifier: GPL-3.0-or-later
// The plots hold exactly the metric values of the rounds played (per round and cumulative), and the theory
// panel substitutes the same numbers; past DecimatedSeries' capacity they stay bounded (dots keep each bucket's
// extremes, lines pass through exact values at bucket ends).
#include "GuiTestSupport.h"

#include "PlotsPanel.h"
#include "TheoryPanel.h"

#include <QtTest>

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
    void decimatedSeriesKeepsExtremesAndEnds();
    void staysBoundedAfterManyRounds();
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
    QVERIFY(plots.values(Series::SpeedupWallClock).isEmpty()); // not measured in these rounds

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
