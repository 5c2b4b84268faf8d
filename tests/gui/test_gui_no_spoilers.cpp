// SPDX-License-Identifier: GPL-3.0-or-later
// Acceptance of the frame in the real window: the engine plays rounds ahead, the class steps phase by phase,
// and no view (cards, distribution view, timeline, plots, theory, status) shows anything of a phase not yet
// on screen. Home resets every view to the prompt; a timeline click moves every view; ← moves them back.
// The expectations are read from the traces directly, not from the frame function under test.
#include "../TestSupport.h"
#include "GuiTestSupport.h"

#include "Language.h"
#include "MainWindow.h"
#include "Player.h"
#include "SessionController.h"

#include "DistributionView.h"
#include "PlotsPanel.h"
#include "RoundView.h"
#include "TheoryPanel.h"
#include "Timeline.h"
#include "TransportBar.h"

#include <QListView>
#include <QtTest>

using namespace specdec;
using namespace specdec::gui;

class TestNoSpoilers : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void stepsRevealNothingAhead();
    void homeResetsEveryView();
    void timelineClickMovesEveryView();

private:
    void start(test::Window &w, int ahead);
    /// Checks the views at (round, phase) after the class has seen up to (seenRound, seenPhase) (the same
    /// position when stepping forward): lists show what was seen, numbers what is on screen.
    void checkPosition(test::Window &w, int round, Phase phase, int seenRound = -1, Phase seenPhase = Phase::Draft);
};

void TestNoSpoilers::start(test::Window &w, int ahead)
{
    w.window.resize(1280, 720);
    w.window.show();
    QSignalSpy ready(&w.session, &SessionController::ready);
    Setup setup = test::tinySetup();
    setup.decoding.seed = 11;
    setup.decoding.draftLength = 4;
    w.window.startSession(setup);
    QVERIFY(ready.wait(30000));
    w.session.requestRounds(ahead);
    QTRY_VERIFY_WITH_TIMEOUT(w.session.history().size() >= ahead, 30000);
}

void TestNoSpoilers::checkPosition(test::Window &w, int round, Phase phase, int seenRound, Phase seenPhase)
{
    if (seenRound < 0) {
        seenRound = round;
        seenPhase = phase;
    }
    const RoundHistory &h = w.session.history();
    QVERIFY2(h.size() > round + 1, "the engine has played ahead of the class");
    const RoundTrace &t = h.at(round).trace;
    const bool committed = phase == Phase::Commit;
    const bool tested = phase != Phase::Draft && phase != Phase::Verify;
    const int revealed = round + (committed ? 1 : 0);
    const QString where = QStringLiteral("round %1 %2").arg(round + 1).arg(phaseKey(phase));
    auto say = [&](const char *what) { return qPrintable(where + QStringLiteral(": ") + QLatin1String(what)); };

    // Cards: q from Draft, p from Verify, tests from Dice, the correction / bonus from its phase (as each phase
    // ends: within a phase the animation steps through the same frame).
    CardStrip *cards = w.window.roundView()->cards();
    cards->finishAnimation();
    for (int i = 0; i < t.draftLength; ++i) {
        const auto s = cards->cardState(i);
        QVERIFY2(s.showsP == (phase != Phase::Draft), say("p on a card"));
        QVERIFY2(!s.showsTest || tested, say("a die before Dice"));
    }
    const auto extra = cards->cardState(t.draftLength).state;
    QVERIFY2((extra == CardContent::State::Residual || extra == CardContent::State::Bonus)
                 == (phase == Phase::Residual || phase == Phase::Bonus || committed),
             say("the correction or bonus before its phase"));
    // The header names Residual or Bonus only once the dice have said which.
    const QString header = w.window.roundView()->headerText();
    if (!tested)
        QVERIFY2(header.contains(QStringLiteral(" or ")), say("the header tells the outcome"));

    // Distribution view: the card the phase is about, p only after Verify, u only after Dice.
    DistributionView *d = w.window.distributionView();
    QCOMPARE(d->round(), round);
    if (phase == Phase::Draft)
        QVERIFY2(test::allZero(d->pValues()) && !d->numbersText().contains(QStringLiteral("p(x)")),
                 say("p while drafting"));
    if (!tested)
        QVERIFY2(!d->numbersText().contains(QStringLiteral(">u<")) && test::allZero(d->residualValues()),
                 say("u or r before Dice"));

    // Timeline: the rounds seen, the last with the verdicts shown so far, its text once committed; the
    // highlight on the round on screen.
    const RoundTrace &seen = h.at(seenRound).trace;
    const bool seenTested = seenPhase != Phase::Draft && seenPhase != Phase::Verify;
    const bool seenCommitted = seenPhase == Phase::Commit;
    const QAbstractItemModel *model = w.window.timeline()->view()->model();
    QCOMPARE(model->rowCount(), seenRound + 1);
    const QString row = model->index(seenRound, 0).data().toString();
    QVERIFY2(test::marks(row) == (seenTested ? seen.testedCount() : 0), say("the timeline shows verdicts before Dice"));
    QVERIFY2(model->index(seenRound, 0).data(TimelineModel::CommittedRole).toString().isEmpty()
                 == (!seenCommitted || seen.committed.empty()),
             say("the timeline shows the round's text before Commit"));
    QCOMPARE(w.window.timeline()->view()->currentIndex().row(), round);

    // Plots: one point per committed round seen; the cursor on the round on screen.
    const int seenRevealed = seenRound + (seenCommitted ? 1 : 0);
    QCOMPARE(w.window.plots()->roundsPlotted(), seenRevealed);
    QCOMPARE(w.window.plots()->values(PlotsPanel::Series::AcceptanceCumulative).size(), seenRevealed);
    QCOMPARE(w.window.plots()->cursorRound(), round);

    // Theory: the numbers of the committed rounds only.
    const QString theory = w.window.theory()->toPlainText();
    if (revealed == 0)
        QVERIFY2(theory.contains(QStringLiteral("Play a round")), say("theory numbers before a round commits"));
    else
        QVERIFY2(theory.contains(QStringLiteral("over %1 rounds").arg(revealed)), say("theory counts other rounds"));

    // Status: the round on screen, not how many the engine has played.
    const QString status = w.window.transport()->status();
    QVERIFY2(status.contains(QStringLiteral("Round %1 ").arg(round + 1)), say("status names the round"));
    QVERIFY2(!status.contains(QString::number(h.size())) || h.size() == round + 1,
             say("status counts rounds played ahead"));
}

void TestNoSpoilers::stepsRevealNothingAhead()
{
    test::Window w;
    start(w, 12);
    int steps = 0;
    for (int round = 0; round < 3; ++round) {
        for (Phase phase : phasesOf(w.session.history().at(round).trace)) {
            w.player.nextPhase();
            QTRY_COMPARE_WITH_TIMEOUT(w.player.round(), round, 20000);
            QCOMPARE(w.player.phase(), phase);
            checkPosition(w, round, phase);
            if (QTest::currentTestFailed())
                return;
            ++steps;
        }
    }
    QVERIFY(steps >= 15);
    // ← goes back a phase and every view with it: inside the newest round seen, the lists go back too (after ←
    // from Commit to Dice the timeline once still showed the committed token and the plots its point).
    const int lastRound = w.player.round();
    w.player.previousPhase();
    w.player.previousPhase();
    QCOMPARE(w.player.round(), lastRound);
    checkPosition(w, lastRound, w.player.phase());
    if (QTest::currentTestFailed())
        return;
    // Back into the round before: the newest round's first phase seen stays listed.
    while (w.player.round() == lastRound)
        w.player.previousPhase();
    checkPosition(w, lastRound - 1, Phase::Commit, lastRound, Phase::Draft);
}

void TestNoSpoilers::homeResetsEveryView()
{
    test::Window w;
    start(w, 10);
    for (int i = 0; i < 12; ++i)
        w.player.nextPhase();
    QTRY_VERIFY_WITH_TIMEOUT(w.player.round() >= 1, 20000);
    w.player.reset(); // Home
    QCOMPARE(w.player.round(), -1);
    QCOMPARE(w.window.roundView()->cards()->cardCount(), 0);
    QVERIFY(w.window.roundView()->headerText().contains(QStringLiteral("No round yet")));
    QCOMPARE(w.window.distributionView()->round(), -1);
    QVERIFY(w.window.distributionView()->labels().isEmpty());
    QCOMPARE(w.window.timeline()->view()->model()->rowCount(), 0);
    QVERIFY(!w.window.timeline()->view()->selectionModel()->hasSelection());
    QCOMPARE(w.window.plots()->roundsPlotted(), 0);
    QCOMPARE(w.window.plots()->cursorRound(), -1);
    QVERIFY(w.window.plots()->values(PlotsPanel::Series::PositionAcceptance).isEmpty());
    QVERIFY(w.window.theory()->toPlainText().contains(QStringLiteral("Play a round")));
    QVERIFY(w.window.transport()->status().contains(QStringLiteral("prompt")));
    // And the first step after Home is round 1 again.
    w.player.nextPhase();
    checkPosition(w, 0, Phase::Draft);
}

void TestNoSpoilers::timelineClickMovesEveryView()
{
    test::Window w;
    start(w, 12);
    for (int i = 0; i < 5; ++i)
        w.player.nextRound();
    QTRY_COMPARE_WITH_TIMEOUT(w.player.round(), 4, 20000);
    w.player.jumpTo(4, Phase::Commit);
    QListView *list = w.window.timeline()->view();
    QCOMPARE(list->model()->rowCount(), 5);
    const QRect row = list->visualRect(list->model()->index(1, 0));
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, row.center());
    QCOMPARE(w.player.round(), 1);
    QCOMPARE(w.player.phase(), Phase::Draft);
    QCOMPARE(w.window.roundView()->round(), 1);
    QCOMPARE(w.window.distributionView()->round(), 1);
    QCOMPARE(list->currentIndex().row(), 1);
    QCOMPARE(w.window.plots()->cursorRound(), 1);
    // What was seen stays listed (rounds 1–5); the numbers are those of the position on screen.
    QCOMPARE(list->model()->rowCount(), 5);
    QVERIFY(w.window.theory()->toPlainText().contains(QStringLiteral("over 1 rounds")));
    QVERIFY(w.window.transport()->status().contains(QStringLiteral("Round 2 ")));
}

QTEST_MAIN(TestNoSpoilers)
#include "test_gui_no_spoilers.moc"
