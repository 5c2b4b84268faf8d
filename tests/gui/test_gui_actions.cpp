// SPDX-License-Identifier: GPL-3.0-or-later
// The action registry and the keys: every action of the main window and its tool windows is declared once,
// no two share a shortcut, Ctrl+O opens the corpus dialog (as the user guide says) and Ctrl+Shift+O a
// session; Enter in a setup field gives Space back to the round; clicking the round takes focus; without a
// session Space does nothing.
#include "../TestSupport.h"
#include "GuiTestSupport.h"

#include "ActionRegistry.h"
#include "ArenaView.h"
#include "ClassroomTools.h"
#include "Language.h"
#include "LosslessLabView.h"
#include "MainWindow.h"
#include "Player.h"
#include "SessionController.h"
#include "TheoryExplorer.h"

#include "RoundView.h"
#include "TransportBar.h"

#include <QAction>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QLineEdit>
#include <QMenu>
#include <QShortcut>
#include <QSpinBox>
#include <QtTest>

using namespace specdec;
using namespace specdec::gui;

namespace {

/// Presses `keys` in `window` and returns the title of the modal file dialog it opened (closing it).
QString dialogOpenedBy(QWidget *window, const QKeySequence &keys)
{
    QString title;
    QTimer poll;
    poll.setInterval(20);
    QObject::connect(&poll, &QTimer::timeout, [&] {
        if (auto *dialog = qobject_cast<QFileDialog *>(QApplication::activeModalWidget())) {
            title = dialog->windowTitle();
            dialog->reject();
        }
    });
    poll.start();
    QTimer::singleShot(3000, &poll, &QTimer::stop);
    QTest::keySequence(window, keys);
    QElapsedTimer waited;
    waited.start();
    while (title.isEmpty() && poll.isActive() && waited.elapsed() < 4000)
        QTest::qWait(20);
    return title;
}

} // namespace

class TestActions : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void everyActionDeclaredOnceNoDuplicateShortcut();
    void menusComeFromTheRegistry();
    void ctrlOOpensTheCorpusDialog();
    void enterInASetupFieldGivesSpaceBack();
    void clickingTheRoundTakesFocus();
    void spaceWithoutASessionDoesNothing();
};

void TestActions::everyActionDeclaredOnceNoDuplicateShortcut()
{
    test::Window w;
    ActionRegistry *registry = w.window.actions();
    QVERIFY2(registry->duplicateShortcuts().isEmpty(),
             qPrintable(registry->duplicateShortcuts().join(QLatin1Char('\n'))));
    // Every action with a shortcut, in the window and in its tool windows (children of the window), is one the
    // registry declared, and no two share a key.
    const QList<QWidget *> windows{static_cast<QWidget *>(&w.window),
                                   static_cast<QWidget *>(w.window.classroom()->arena()),
                                   static_cast<QWidget *>(w.window.classroom()->lab()),
                                   static_cast<QWidget *>(w.window.classroom()->theoryExplorer())};
    QMap<QString, QString> owner;
    for (QWidget *top : windows) {
        for (QAction *a : top->findChildren<QAction *>()) {
            for (const QKeySequence &key : a->shortcuts()) {
                if (key.isEmpty())
                    continue;
                QVERIFY2(registry->actions().contains(a),
                         qPrintable(
                             QStringLiteral("%1 (%2) is not declared in the registry").arg(a->text(), key.toString())));
                const QString k = key.toString(QKeySequence::PortableText);
                QVERIFY2(!owner.contains(k) || owner[k] == a->objectName(),
                         qPrintable(QStringLiteral("%1 is bound to %2 and %3").arg(k, owner[k], a->objectName())));
                owner[k] = a->objectName();
            }
        }
        QVERIFY2(top->findChildren<QShortcut *>().isEmpty(), "a QShortcut outside the registry");
    }
    QCOMPARE(owner.value(QKeySequence(QKeySequence::Open).toString(QKeySequence::PortableText)),
             QStringLiteral("file.openCorpus"));
    QCOMPARE(owner.value(QStringLiteral("Ctrl+Shift+O")), QStringLiteral("file.openSession"));
    QCOMPARE(owner.value(QStringLiteral("Space")), QStringLiteral("play.toggle"));
    QCOMPARE(owner.value(QStringLiteral("Home")), QStringLiteral("play.reset"));
    // An id declared twice is an error, not a second action.
    QVERIFY_THROWS_EXCEPTION(std::exception, registry->add(QStringLiteral("file.openCorpus"), MenuId::File, 0, {}));
}

void TestActions::menusComeFromTheRegistry()
{
    test::Window w;
    ActionRegistry *registry = w.window.actions();
    // File: the classroom's session actions sit before Quit although they were registered after it.
    const QList<QAction *> file = registry->menu(MenuId::File)->actions();
    QCOMPARE(file.last(), registry->action(QStringLiteral("file.quit")));
    QVERIFY(file.indexOf(registry->action(QStringLiteral("file.openSession")))
            < file.indexOf(registry->action(QStringLiteral("file.quit"))));
    QVERIFY(registry->menu(MenuId::Help)->actions().size() >= 3); // guide, shortcuts, about
    for (QAction *a : registry->actions())
        QVERIFY2(!a->text().isEmpty(), qPrintable(a->objectName()));
}

void TestActions::ctrlOOpensTheCorpusDialog()
{
    test::Window w;
    w.window.show();
    w.window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w.window));
    QCOMPARE(dialogOpenedBy(&w.window, QKeySequence::Open), QStringLiteral("Open corpus"));
    w.window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w.window));
    QCOMPARE(dialogOpenedBy(&w.window, QKeySequence(QStringLiteral("Ctrl+Shift+O"))), QStringLiteral("Open session"));
}

void TestActions::enterInASetupFieldGivesSpaceBack()
{
    test::Window w;
    w.window.show();
    w.window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w.window));
    QSignalSpy ready(&w.session, &SessionController::ready);
    w.window.startSession(test::tinySetup());
    QVERIFY(ready.wait(30000));
    auto *seed = w.window.findChild<QLineEdit *>(QStringLiteral("seed"));
    QVERIFY(seed);
    seed->setFocus();
    QTRY_VERIFY(seed->hasFocus());
    QTest::keyClick(seed, Qt::Key_End);
    QTest::keyClicks(seed, QStringLiteral("7"));
    QTest::keyClick(seed, Qt::Key_Return);
    QTRY_VERIFY(w.window.roundView()->hasFocus());
    QTRY_VERIFY_WITH_TIMEOUT(w.session.isReady(), 30000); // the new seed's session
    const QString seedValue = seed->text();
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Space);
    QTRY_VERIFY_WITH_TIMEOUT(w.player.isPlaying() || w.player.round() >= 0, 10000);
    QCOMPARE(seed->text(), seedValue); // Space went to the player, not into the field
}

void TestActions::clickingTheRoundTakesFocus()
{
    test::Window w;
    w.window.show();
    w.window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w.window));
    auto *prompt = w.window.findChild<QLineEdit *>(QStringLiteral("prompt"));
    QVERIFY(prompt);
    prompt->setFocus();
    QTRY_VERIFY(prompt->hasFocus());
    QTest::mouseClick(w.window.roundView()->cards(), Qt::LeftButton, {}, QPoint(5, 5));
    QTRY_VERIFY(!prompt->hasFocus());
    QVERIFY(w.window.roundView()->isAncestorOf(QApplication::focusWidget())
            || QApplication::focusWidget() == w.window.roundView());
    QTest::mouseClick(w.window.roundView()->transcript()->viewport(), Qt::LeftButton);
    QVERIFY(w.window.roundView()->isAncestorOf(QApplication::focusWidget())
            || QApplication::focusWidget() == w.window.roundView());
}

void TestActions::spaceWithoutASessionDoesNothing()
{
    test::Window w;
    w.window.show();
    w.window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w.window));
    QVERIFY(!w.window.transport()->playAction()->isEnabled());
    QTest::keyClick(&w.window, Qt::Key_Space);
    w.player.togglePlay();
    w.player.nextPhase();
    QVERIFY(!w.player.isPlaying());
    QCOMPARE(w.player.round(), -1);
    // A session that failed to load leaves Space off as well.
    Setup bad = test::tinySetup();
    bad.corpus = "/nonexistent/corpus.txt";
    QSignalSpy failed(&w.session, &SessionController::failed);
    w.window.startSession(bad);
    QVERIFY(failed.wait(20000));
    QVERIFY(!w.window.transport()->playAction()->isEnabled());
    w.player.togglePlay();
    QVERIFY(!w.player.isPlaying());
}

QTEST_MAIN(TestActions)
#include "test_gui_actions.moc"
