// SPDX-License-Identifier: GPL-3.0-or-later
// The plots hold exactly the metric values of the rounds played (per round and cumulative), and the theory
// panel substitutes the same numbers.
#include "GuiTestSupport.h"

#include "PlotsPanel.h"
#include "TheoryPanel.h"

#include <QtTest>

#include <cmath>

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

QTEST_MAIN(TestPlots)
#include "test_gui_plots.moc"
