// SPDX-License-Identifier: GPL-3.0-or-later
// Predict, then reveal: in the lab, "predict the histogram" keeps a finished run's bars, statistics and
// verdict hidden (the p marks stay) until the teacher reveals them; a new run hides them again. In the window,
// View > Predict before reveal (P) makes each verdict of the dice wait for →: the card shows p, q and
// min(1, p/q) with a '?' and no die, → rolls u and reveals ✓/✗; the timeline shows no verdict before its card,
// playing pauses at each '?', and the lab's "predict the histogram" follows the toggle.
#include "../TestSupport.h"
#include "GuiTestSupport.h"

#include "ActionRegistry.h"
#include "CardPainter.h"
#include "ClassroomTools.h"
#include "LabRunner.h"
#include "Language.h"
#include "LosslessLabView.h"
#include "MainWindow.h"
#include "Player.h"
#include "RoundView.h"
#include "SessionController.h"
#include "Timeline.h"

#include <QAction>
#include <QLabel>
#include <QListView>
#include <QPushButton>
#include <QtTest>
#include <qcustomplot.h>

using namespace specdec;
using namespace specdec::gui;

class TestPredict : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void labHidesTheHistogramUntilRevealed();
    void windowWaitsForEachVerdict();
};

namespace {

/// The texts the painter draws on card `card` as it is now.
QStringList cardTexts(CardStrip *cards, int card)
{
    QStringList texts;
    const CardLayout layout = layoutCard(cards->cardRect(card), cards->contentOf(card),
                                         LabColors::from(cards->palette()), cards->font());
    for (const CardText &t : layout.texts)
        texts << t.text;
    return texts;
}

} // namespace

void TestPredict::windowWaitsForEachVerdict()
{
    SessionController session(test::builtCorpora());
    Player player(&session);
    Language language;
    language.set(QStringLiteral("en"));
    MainWindow window(&session, &player, &language);
    window.resize(1280, 720);
    window.show();
    QSignalSpy ready(&session, &SessionController::ready);
    Setup setup = test::tinySetup();
    setup.decoding.seed = 5;
    setup.decoding.draftLength = 4; // T = 1 for both: every test rolls a die
    window.startSession(setup);
    QVERIFY(ready.wait(30000));
    session.requestRounds(12);
    QTRY_VERIFY_WITH_TIMEOUT(session.history().size() >= 12, 30000);
    // A round with at least two tests, so that one verdict waits while the next is still unseen.
    int round = -1;
    for (int r = 1; r < 10 && round < 0; ++r)
        if (session.history().at(r).trace.testedCount() >= 2)
            round = r;
    QVERIFY(round > 0);
    const RoundTrace &t = session.history().at(round).trace;
    const int tested = t.testedCount();

    // P is View > Predict before reveal, declared once in the registry; the lab follows it.
    QAction *predict = window.actions()->action(QStringLiteral("view.predict"));
    QVERIFY(predict && predict->isCheckable());
    QCOMPARE(predict->shortcut(), QKeySequence(Qt::Key_P));
    QVERIFY(window.actions()->menu(MenuId::View)->actions().contains(predict));
    QVERIFY(test::press(&window, QKeySequence(Qt::Key_P)));
    QVERIFY(predict->isChecked());
    QVERIFY(window.classroom()->predictBeforeReveal());
    QVERIFY(window.classroom()->lab()->predictFirst());

    CardStrip *cards = window.roundView()->cards();
    const QAbstractItemModel *timeline = window.timeline()->view()->model();
    player.jumpTo(round);                                       // Draft
    QVERIFY(test::press(&window, QKeySequence(Qt::Key_Right))); // Verify
    for (int i = 0; i < tested; ++i) {
        // → shows test i: p, q, the threshold and '?', no die; nothing of its verdict anywhere.
        QVERIFY(test::press(&window, QKeySequence(Qt::Key_Right)));
        QCOMPARE(player.phase(), Phase::Dice);
        cards->finishAnimation();
        const CardFrame ask = cards->contentOf(i).frame;
        QVERIFY(ask.testShown && ask.p && ask.q);
        QCOMPARE(*ask.threshold, t.positions[static_cast<std::size_t>(i)].threshold);
        QVERIFY(!ask.passed);
        QVERIFY(!ask.u);
        QCOMPARE(ask.state, CardFrame::State::Pending);
        const QStringList texts = cardTexts(cards, i);
        QVERIFY2(texts.contains(QStringLiteral("?")), qPrintable(texts.join(QLatin1Char('|'))));
        QVERIFY2(!texts.contains(QStringLiteral("✓")) && !texts.contains(QStringLiteral("✗")),
                 qPrintable(texts.join(QLatin1Char('|'))));
        QVERIFY2(texts.join(QLatin1Char(' ')).contains(QStringLiteral("min(1,p/q)")),
                 qPrintable(texts.join(QLatin1Char('|'))));
        QVERIFY(!cards->cardState(i + 1).showsTest);
        QCOMPARE(test::marks(timeline->index(round, 0).data().toString()), i);
        QVERIFY(window.roundView()->headerText().contains(QStringLiteral(" or ")));
        // → again: u is rolled along the bar (on its way while animating), then the verdict.
        QVERIFY(test::press(&window, QKeySequence(Qt::Key_Right)));
        const double u = t.positions[static_cast<std::size_t>(i)].u;
        const RoundFrame rolling = cards->frame();
        QVERIFY(!rolling.cards[static_cast<std::size_t>(i)].passed);
        QVERIFY(rolling.cards[static_cast<std::size_t>(i)].u.value_or(0.0) <= u);
        cards->finishAnimation();
        const CardFrame told = cards->contentOf(i).frame;
        QCOMPARE(told.u, std::optional(u));
        QCOMPARE(told.passed, std::optional(t.positions[static_cast<std::size_t>(i)].verdict == Verdict::Accepted));
        QCOMPARE(test::marks(timeline->index(round, 0).data().toString()), i + 1);
        QVERIFY(cardTexts(cards, i).contains(*told.passed ? QStringLiteral("✓") : QStringLiteral("✗")));
    }
    QVERIFY(!window.roundView()->headerText().contains(QStringLiteral(" or "))); // the outcome is known now
    QVERIFY(test::press(&window, QKeySequence(Qt::Key_Right)));
    QVERIFY(player.phase() == Phase::Residual || player.phase() == Phase::Bonus);
    // ← goes back to the dice with every verdict shown, then one verdict at a time.
    QVERIFY(test::press(&window, QKeySequence(Qt::Key_Left)));
    QCOMPARE(player.phase(), Phase::Dice);
    cards->finishAnimation();
    QVERIFY(cards->contentOf(tested - 1).frame.passed.has_value());
    QVERIFY(test::press(&window, QKeySequence(Qt::Key_Left)));
    QVERIFY(!cards->contentOf(tested - 1).frame.passed.has_value());

    // Playing stops at the next '?' for the room to answer.
    player.jumpTo(round + 1);
    player.setPhaseMilliseconds(20);
    player.play();
    QTRY_VERIFY_WITH_TIMEOUT(!player.isPlaying(), 20000);
    QCOMPARE(player.phase(), Phase::Dice);
    cards->finishAnimation();
    const int asked = cards->currentCard();
    QVERIFY(cards->contentOf(asked).frame.testShown);
    QVERIFY(!cards->contentOf(asked).frame.passed);

    // P again: the dice show their verdicts at once, the lab its histogram.
    QVERIFY(test::press(&window, QKeySequence(Qt::Key_P)));
    QVERIFY(!predict->isChecked());
    QVERIFY(!window.classroom()->lab()->predictFirst());
    cards->finishAnimation();
    QVERIFY(cards->contentOf(asked).frame.passed.has_value());
}

void TestPredict::labHidesTheHistogramUntilRevealed()
{
    LosslessLabView lab;
    LabRunner runner;
    connectLab(&lab, &runner);
    lab.show();
    auto bars = [&] {
        int visible = 0;
        for (int i = 0; i < lab.plot()->plottableCount(); ++i)
            if (qobject_cast<QCPBars *>(lab.plot()->plottable(i)) && lab.plot()->plottable(i)->visible())
                ++visible;
        return visible;
    };
    QCOMPARE(bars(), 2); // without prediction the bars show as they fill
    lab.setPredictFirst(true);
    lab.setSamples(100000);
    emit lab.runRequested(lab.request());
    QVERIFY(QTest::qWaitFor([&] { return lab.snapshot().finished; }, 30000));
    QVERIFY(lab.histogramHidden());
    QCOMPARE(bars(), 0);
    QVERIFY(lab.plot()->graph(0)->visible()); // p's marks: what the room predicts against
    for (QLabel *label : lab.findChildren<QLabel *>())
        if (label->text().contains(QStringLiteral("p-value")) || label->text().contains(QStringLiteral("Consistent")))
            QVERIFY(!label->isVisible());
    lab.revealHistogram();
    QVERIFY(!lab.histogramHidden());
    QCOMPARE(bars(), 2);
    QVERIFY(lab.verdictText().contains(QStringLiteral("Consistent with p")));
    // A new run (the Run button) is hidden again; switching prediction off shows it at once.
    QPushButton *run = nullptr;
    for (QPushButton *b : lab.findChildren<QPushButton *>())
        if (b->text() == QStringLiteral("Run"))
            run = b;
    QVERIFY(run);
    run->click();
    QVERIFY(QTest::qWaitFor([&] { return lab.snapshot().finished; }, 30000));
    QVERIFY(lab.histogramHidden());
    QCOMPARE(bars(), 0);
    lab.setPredictFirst(false);
    QVERIFY(!lab.histogramHidden());
    QCOMPARE(bars(), 2);
}

QTEST_MAIN(TestPredict)
#include "test_gui_predict.moc"
