// SPDX-License-Identifier: GPL-3.0-or-later
// The draft arena: lanes against one target on the worker thread. Greedy: every lane writes the target's
// own text with its own number of target passes; the table holds the engine's metrics; a policy lane shows
// K changing over rounds while a constant lane keeps K.
#include "../TestSupport.h"
#include "GuiTestSupport.h"

#include "ArenaRunner.h"
#include "ArenaView.h"
#include "CardStrip.h"
#include "TreeView.h"

#include "MetricsAccumulator.h"
#include "PlotStyle.h"

#include <QHeaderView>
#include <QTableWidget>
#include <QtTest>
#include <qcustomplot.h>

using namespace specdec;
using namespace specdec::gui;

namespace {

Setup tinySetup(double temperature)
{
    Setup s = test::tinySetup();
    s.tokens = 60;
    s.decoding.target.temperature = temperature;
    s.decoding.draft.temperature = temperature;
    s.decoding.seed = 5;
    return s;
}

/// Loads `lanes` into a runner wired to `view` and plays every lane to the end.
void playArena(ArenaRunner &runner, ArenaView &view, const Setup &setup, const QStringList &lanes, bool aligned)
{
    QObject::connect(&runner, &ArenaRunner::ready, &view,
                     [&](const ArenaInfo &info) { view.setLanes(info.lanes, info.session, info.baseline); });
    QObject::connect(&runner, &ArenaRunner::roundsAdded, &view,
                     [&](int lane) { view.showLane(lane, runner.history(lane)); });
    runner.start(setup, lanes);
    QVERIFY(QTest::qWaitFor([&] { return runner.isReady(); }, 30000));
    runner.step(aligned, setup.tokens);
    QVERIFY(QTest::qWaitFor([&] { return runner.pending() == 0; }, 30000));
}

} // namespace

class TestArena : public QObject
{
    Q_OBJECT
private slots:
    void greedyLanesWriteTheTargetsText();
    void alignedStepsKeepTokensTogether();
    void policyLaneShowsKOverRounds();
    void badLaneIsAMessage();
    void chainAndTreeLanesSideBySide();
    void fitsA720pScreen();
    void plotsShowFromTheFirstRound();
    void plotsStayBounded();
};

void TestArena::chainAndTreeLanesSideBySide()
{
    // The same draft as a chain of 3 and as the trees 2,2,1 and 3,2,1: greedy, every lane writes the target's
    // own text; a tree lane keeps its trees, one target pass per round, and drafts more nodes per kept token.
    QCOMPARE(ArenaLaneSpec::parse(QStringLiteral("ngram:2 tree:3,2,1")).tree, QStringLiteral("3,2,1"));
    QCOMPARE(ArenaLaneSpec::parse(QStringLiteral("ngram:2 tree:3,2,1")).policy, QStringLiteral("constant"));
    ArenaRunner runner(test::builtCorpora());
    ArenaView view;
    Setup setup = tinySetup(0.0);
    setup.decoding.draftLength = 3;
    const QStringList lanes{QStringLiteral("ngram:2"), QStringLiteral("ngram:2 tree:2,2,1"),
                            QStringLiteral("ngram:2 tree:3,2,1")};
    playArena(runner, view, setup, lanes, false);
    QCOMPARE(view.laneCount(), 3);
    QVERIFY(!runner.history(0).back().tree);
    for (int i = 0; i < 3; ++i) {
        QVERIFY(view.lane(i)->sameAsBaseline());
        const RoundRecord &last = runner.history(i).back();
        QCOMPARE(last.cumulative.targetCalls, static_cast<std::int64_t>(runner.history(i).size()));
        QCOMPARE(view.table()->item(i, ArenaView::DraftedPerAccepted)->text(),
                 QString::number(static_cast<double>(last.nodesDrafted) / last.cumulative.accepted, 'f', 2));
        if (i > 0) {
            QVERIFY(last.tree);
            QCOMPARE(last.tree->shape.branchingList().front(), i + 1);
            QCOMPARE(view.table()->item(i, ArenaView::SpeedupCostModel)->text(), QStringLiteral("—"));
        }
        // A chain lane shows its last round as cards; a tree lane as the tree at its commit (the accepted path
        // highlighted), with the shape, its nodes and the accepted path's length in the latest rounds.
        ArenaLane *lane = view.lane(i);
        QCOMPARE(lane->showsTree(), i > 0);
        QCOMPARE(lane->cards()->isVisibleTo(lane), i == 0);
        QCOMPARE(lane->tree()->isVisibleTo(lane), i > 0);
        if (i > 0) {
            QVERIFY(lane->tree()->frame().committed);
            QCOMPARE(lane->tree()->frame().trace, last.tree.get());
            const QString summary = lane->treeSummary();
            QVERIFY2(summary.contains(QString::fromStdString(last.tree->shape.describe())), qPrintable(summary));
            QVERIFY2(summary.contains(QStringLiteral("%1 nodes").arg(last.tree->draftedCount())), qPrintable(summary));
            // The newest round's accepted path length, in bold, and the mean over the lane's rounds.
            QVERIFY2(summary.contains(QStringLiteral("<b>%1</b>").arg(last.tree->acceptedCount())), qPrintable(summary));
            const double mean = static_cast<double>(last.cumulative.accepted)
                / static_cast<double>(last.cumulative.rounds);
            QVERIFY2(summary.contains(QStringLiteral("mean %1").arg(mean, 0, 'f', 2)), qPrintable(summary));
        }
    }
    QVERIFY(view.table()->item(2, ArenaView::Draft)->text().contains(QStringLiteral("3,2,1")));
    if (const QString dir = qEnvironmentVariable("SPECDEC_SCREENSHOT_DIR"); !dir.isEmpty()) { // to look at it
        view.resize(1280, 720);
        view.grab().save(dir + QStringLiteral("/arena-trees.png"));
    }
    // More children per node: at least as many tokens per pass, more nodes drafted per kept token.
    const RoundRecord &chain = runner.history(0).back(), &tree = runner.history(2).back();
    QVERIFY(tree.cumulative.speedupForwardPasses >= chain.cumulative.speedupForwardPasses);
    QVERIFY(static_cast<double>(tree.nodesDrafted) / tree.cumulative.accepted
            > static_cast<double>(chain.nodesDrafted) / chain.cumulative.accepted);
}

void TestArena::greedyLanesWriteTheTargetsText()
{
    ArenaRunner runner(test::builtCorpora());
    ArenaView view;
    const QStringList lanes{QStringLiteral("ngram:2"), QStringLiteral("uniform"), QStringLiteral("lookup:2"),
                            QStringLiteral("same")};
    QSignalSpy progress(&runner, &ArenaRunner::loadProgressed);
    playArena(runner, view, tinySetup(0.0), lanes, false);
    QCOMPARE(view.laneCount(), 4);
    // The load was told rising to 1: the target, its 60-token baseline, then each lane's draft.
    QVERIFY2(progress.size() >= 4, qPrintable(QString::number(progress.size())));
    for (int i = 1; i < progress.size(); ++i)
        QVERIFY(progress[i][0].toDouble() > progress[i - 1][0].toDouble());
    QCOMPARE(progress.back()[0].toDouble(), 1.0);
    QSet<qint64> passes;
    for (int i = 0; i < view.laneCount(); ++i) {
        QCOMPARE(view.lane(i)->tokens().size(), std::size_t(60));
        QVERIFY(view.lane(i)->sameAsBaseline());
        QVERIFY(view.lane(i)->badgeText().contains(QStringLiteral("✓")));
        const RunMetrics &m = runner.history(i).back().cumulative;
        passes.insert(m.targetCalls);
        QCOMPARE(view.table()->item(i, ArenaView::TargetPasses)->text(), QString::number(m.targetCalls));
        QCOMPARE(view.table()->item(i, ArenaView::Alpha)->text(), QString::number(m.acceptanceRate, 'f', 3));
    }
    QVERIFY(passes.size() > 1); // same text, different numbers of target passes
    // `same` accepts everything: α̂ = 1 and K + 1 tokens per pass.
    QCOMPARE(runner.history(3).back().cumulative.acceptanceRate, 1.0);
    QCOMPARE(view.plot(0)->graphCount(), 4);
}

void TestArena::alignedStepsKeepTokensTogether()
{
    ArenaRunner runner(test::builtCorpora());
    ArenaView view;
    QObject::connect(&runner, &ArenaRunner::ready, &view,
                     [&](const ArenaInfo &info) { view.setLanes(info.lanes, info.session, info.baseline); });
    QObject::connect(&runner, &ArenaRunner::roundsAdded, &view,
                     [&](int lane) { view.showLane(lane, runner.history(lane)); });
    runner.start(tinySetup(1.0), {QStringLiteral("ngram:2"), QStringLiteral("uniform")});
    QVERIFY(QTest::qWaitFor([&] { return runner.isReady(); }, 30000));
    for (int step = 0; step < 5; ++step) {
        runner.step(true);
        QVERIFY(QTest::qWaitFor([&] { return runner.pending() == 0; }, 30000));
        const auto a = view.lane(0)->tokens().size(), b = view.lane(1)->tokens().size();
        // each lane stops at the first round that reaches the goal: at most K tokens apart
        QVERIFY2(std::max(a, b) - std::min(a, b) <= 5, qPrintable(QStringLiteral("%1 vs %2").arg(a).arg(b)));
    }
}

void TestArena::policyLaneShowsKOverRounds()
{
    ArenaRunner runner(test::builtCorpora());
    ArenaView view;
    playArena(runner, view, tinySetup(1.0), {QStringLiteral("ngram:2"), QStringLiteral("ngram:2 heuristic")}, false);
    auto ks = [&](int lane) {
        QSet<int> values;
        const RoundHistory &history = runner.history(lane);
        for (int i = 0; i < history.size(); ++i) {
            const RoundRecord &r = history.at(i);
            const int before = r.cumulative.generatedTokens - static_cast<int>(r.trace.committed.size());
            if (before + 4 <= 60) // near the end a round's K is cut to the tokens still wanted
                values.insert(r.trace.draftLength);
        }
        return values;
    };
    QCOMPARE(ks(0), QSet<int>{4});
    QVERIFY(ks(1).size() > 1);
    QVERIFY(view.lane(1)->findChild<QLabel *>() != nullptr);
    // the K plot has one graph per lane with one point per round
    QCOMPARE(view.plot(2)->graph(1)->dataCount(), runner.history(1).size());
}

void TestArena::badLaneIsAMessage()
{
    ArenaRunner runner(test::builtCorpora());
    QSignalSpy failed(&runner, &ArenaRunner::failed);
    runner.start(tinySetup(1.0), {QStringLiteral("ngram:2"), QStringLiteral("nonsense:3")});
    QVERIFY(failed.wait(30000));
    QVERIFY(!failed.first().first().toString().isEmpty());
    QVERIFY(!runner.isReady());
}

// A 1280×720 projector keeps the whole arena on screen (the window's title bar takes some 40 px): empty, and
// with six lanes loaded.
void TestArena::fitsA720pScreen()
{
    ArenaRunner runner(test::builtCorpora());
    ArenaView view;
    auto fits = [&](const char *when) {
        const QSize min = view.minimumSizeHint().expandedTo(view.minimumSize());
        QVERIFY2(
            min.width() <= 1280 && min.height() <= 680,
            qPrintable(QStringLiteral("%1: minimum %2x%3").arg(QLatin1String(when)).arg(min.width()).arg(min.height())));
    };
    fits("empty");
    const QStringList lanes{QStringLiteral("ngram:1"), QStringLiteral("ngram:2"),  QStringLiteral("ngram:3"),
                            QStringLiteral("uniform"), QStringLiteral("lookup:2"), QStringLiteral("same")};
    QObject::connect(&runner, &ArenaRunner::ready, &view,
                     [&](const ArenaInfo &info) { view.setLanes(info.lanes, info.session, info.baseline); });
    runner.start(tinySetup(1.0), lanes);
    QVERIFY(QTest::qWaitFor([&] { return view.laneCount() == 6; }, 30000));
    fits("six lanes");
    view.resize(1280, 680);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    fits("six lanes, shown");
    QCOMPARE(view.size(), QSize(1280, 680));
    // one whole lane, every row of the table and the plots in view
    const QRect laneRect(view.lane(0)->mapTo(&view, QPoint(0, 0)), view.lane(0)->size());
    QVERIFY(view.rect().contains(laneRect));
    QVERIFY(view.table()->height() >= view.table()->horizontalHeader()->height() + 6 * view.table()->rowHeight(0));
    for (int i = 0; i < 3; ++i)
        QVERIFY(view.plot(i)->height() >= 150);
}

// Plots are never empty frames: before any lane their axes span the plot from 0 to 1 (an empty legend below
// the plot used to squeeze its axes into a third; the table's coloured Draft column is the arena's legend now);
// after one round each lane is a visible point (a line needs two); a new arena starts from clean ranges.
void TestArena::plotsShowFromTheFirstRound()
{
    ArenaView view;
    view.resize(1280, 680);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    for (int i = 0; i < 3; ++i) {
        QCustomPlot *plot = view.plot(i);
        plot->replot();
        QVERIFY2(
            plot->axisRect()->width() > plot->width() * 3 / 4,
            qPrintable(
                QStringLiteral("plot %1: axis rect %2 of %3").arg(i).arg(plot->axisRect()->width()).arg(plot->width())));
        QCOMPARE(plot->yAxis->range().upper, 1.0);
    }
    QCustomPlot legendBelowAlone; // PlotStyle's legend below, with no entry yet
    legendBelowAlone.resize(400, 250);
    legendBelow(&legendBelowAlone);
    legendBelowAlone.show();
    QVERIFY(QTest::qWaitForWindowExposed(&legendBelowAlone));
    legendBelowAlone.replot();
    QVERIFY2(legendBelowAlone.axisRect()->width() > 300,
             qPrintable(QString::number(legendBelowAlone.axisRect()->width())));

    ArenaRunner runner(test::builtCorpora());
    QObject::connect(&runner, &ArenaRunner::ready, &view,
                     [&](const ArenaInfo &info) { view.setLanes(info.lanes, info.session, info.baseline); });
    QObject::connect(&runner, &ArenaRunner::roundsAdded, &view,
                     [&](int lane) { view.showLane(lane, runner.history(lane)); });
    runner.start(tinySetup(0.0), {QStringLiteral("ngram:2"), QStringLiteral("same")});
    QVERIFY(QTest::qWaitFor([&] { return runner.isReady() && view.laneCount() == 2; }, 30000));
    runner.step(false, 1);
    QVERIFY(QTest::qWaitFor([&] { return runner.pending() == 0; }, 30000));
    for (int i = 0; i < 3; ++i)
        for (int lane = 0; lane < 2; ++lane) {
            QCPGraph *g = view.plot(i)->graph(lane);
            QCOMPARE(g->dataCount(), 1);
            QVERIFY(!g->scatterStyle().isNone());
        }
    runner.step(false, 60);
    QVERIFY(QTest::qWaitFor([&] { return runner.pending() == 0; }, 30000));
    QVERIFY(view.plot(0)->xAxis->range().upper > 5);
    runner.start(tinySetup(0.0), {QStringLiteral("ngram:3"), QStringLiteral("uniform")});
    QVERIFY(QTest::qWaitFor([&] { return runner.isReady() && view.plot(0)->graph(0)->dataCount() == 0; }, 30000));
    QCOMPARE(view.plot(0)->xAxis->range().upper, 1.0);
}

void TestArena::plotsStayBounded()
{
    // A lane of 6,000 rounds: each plot keeps at most DecimatedSeries' 1,000 buckets (2,000 points for K's
    // band), the last round's values drawn exactly, and showing more rounds adds only the new ones.
    ArenaView view;
    SessionInfo session;
    view.setLanes({QStringLiteral("a"), QStringLiteral("b")}, session, {});
    RoundHistory history;
    MetricsAccumulator sums;
    std::vector<std::shared_ptr<const RoundRecord>> rounds;
    for (int i = 0; i < 6000; ++i) {
        RoundRecord r;
        r.trace.index = i;
        r.trace.draftLength = 1 + i % 4;
        r.trace.positions.resize(static_cast<std::size_t>(r.trace.draftLength));
        r.trace.rejectedAt = i % 3 == 0 ? 0 : -1;
        for (int k = 0; k < r.trace.draftLength; ++k)
            r.trace.positions[static_cast<std::size_t>(k)].verdict = r.trace.rejectedAt == 0
                ? (k == 0 ? Verdict::Rejected : Verdict::Discarded)
                : Verdict::Accepted;
        r.trace.committed.assign(static_cast<std::size_t>(r.trace.acceptedCount() + 1), 1);
        r.trace.targetCalls = 1;
        sums.add(r.trace);
        r.cumulative = sums.metrics(1.0);
        rounds.push_back(std::make_shared<const RoundRecord>(std::move(r)));
        if (rounds.size() == 1500) {
            history.append(std::move(rounds));
            rounds.clear();
            view.showLane(0, history);
        }
    }
    for (int p = 0; p < 3; ++p) {
        const int points = view.plot(p)->graph(0)->dataCount();
        QVERIFY2(points <= (p == 2 ? 2000 : 1000), qPrintable(QStringLiteral("plot %1: %2").arg(p).arg(points)));
        QVERIFY(points >= 500);
    }
    const RoundRecord &last = history.back();
    QCOMPARE((view.plot(1)->graph(0)->data()->constEnd() - 1)->value, last.cumulative.acceptanceRate);
    QCOMPARE((view.plot(0)->graph(0)->data()->constEnd() - 1)->value, double(last.cumulative.generatedTokens));
    QCOMPARE(view.plot(0)->graph(1)->dataCount(), 0); // the other lane has nothing yet
}

QTEST_MAIN(TestArena)
#include "test_gui_arena.moc"
