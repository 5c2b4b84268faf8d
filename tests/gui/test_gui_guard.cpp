// SPDX-License-Identifier: GPL-3.0-or-later
// The window cannot die of an exception: one thrown by a view's slot is caught at the event loop
// (GuardedApplication::notify), one thrown by an engine job at the engine's door (EngineHost); both are said
// in the banner, and the session and its position stay.
#include "../TestSupport.h"
#include "GuiTestSupport.h"

#include "EngineHost.h"
#include "GuardedApplication.h"
#include "MessageBanner.h"

#include <QSignalSpy>
#include <QTimer>
#include <QtTest>

#include <atomic>
#include <stdexcept>

using namespace specdec;
using namespace specdec::gui;

class TestGuard : public QObject
{
    Q_OBJECT
private slots:
    void exceptionInAViewIsReported();
    void exceptionInAJobIsReported();
};

namespace {

/// The window with a session on its third round.
void startAtRound(test::Window &w, int round)
{
    w.window.show();
    QSignalSpy ready(&w.session, &SessionController::ready);
    w.window.startSession(test::tinySetup());
    QVERIFY(ready.wait(20000));
    w.player.nextRound();
    QTRY_COMPARE_WITH_TIMEOUT(w.player.round(), 0, 20000);
    for (int i = 0; i < round; ++i)
        w.player.nextRound();
    QTRY_COMPARE_WITH_TIMEOUT(w.player.round(), round, 20000);
}

} // namespace

void TestGuard::exceptionInAViewIsReported()
{
    auto *app = qobject_cast<GuardedApplication *>(qApp);
    QVERIFY(app);
    test::Window w;
    connect(app, &GuardedApplication::exceptionCaught, &w.window, &MainWindow::reportError);
    startAtRound(w, 2);
    QTimer::singleShot(0, &w.window, [] { throw std::out_of_range("RoundHistory: round 7 is not kept"); });
    QTRY_VERIFY_WITH_TIMEOUT(w.window.banner()->text().contains(QStringLiteral("round 7 is not kept")), 5000);
    QCOMPARE(w.window.banner()->kind(), MessageBanner::Kind::Error);
    QVERIFY(w.session.isReady());
    QCOMPARE(w.player.round(), 2);
    w.player.nextRound(); // and it goes on
    QTRY_COMPARE_WITH_TIMEOUT(w.player.round(), 3, 20000);
}

void TestGuard::exceptionInAJobIsReported()
{
    test::Window w;
    startAtRound(w, 1);
    EngineHost *host = w.session.host();
    QSignalSpy failed(host, &EngineHost::jobFailed);
    host->post(EngineHost::Kind::Lab, [](std::stop_token) { throw std::runtime_error("the lab's job broke"); });
    std::atomic<bool> ran = false;
    host->post(EngineHost::Kind::Lab, [&ran](std::stop_token) { ran = true; }); // the worker carries on
    QTRY_VERIFY_WITH_TIMEOUT(w.window.banner()->text().contains(QStringLiteral("the lab's job broke")), 5000);
    QCOMPARE(failed.count(), 1);
    QCOMPARE(failed.front().at(0).toInt(), static_cast<int>(EngineHost::Kind::Lab));
    QTRY_VERIFY(ran.load());
    QVERIFY(w.session.isReady());
    QCOMPARE(w.player.round(), 1);
    w.player.nextRound();
    QTRY_COMPARE_WITH_TIMEOUT(w.player.round(), 2, 20000);
}

int main(int argc, char *argv[])
{
    GuardedApplication app(argc, argv);
    TestGuard test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "test_gui_guard.moc"
