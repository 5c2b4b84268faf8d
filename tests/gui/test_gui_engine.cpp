// SPDX-License-Identifier: GPL-3.0-or-later
// The engine host is the one door to the engine: every job kind (session rounds, arena lanes, lab Monte
// Carlo) stops within 100 ms of being cancelled, queued jobs are dropped, results come back on the GUI
// thread; a session stops at its cap of tokens and says so; a session file's far position loads with
// progress up to the cap instead of silently. The frame gate holds the session's next round until the window has
// processed what a batch made it do.
#include "../TestSupport.h"
#include "GuiTestSupport.h"

#include "ArenaRunner.h"
#include "EngineHost.h"
#include "FrameGate.h"
#include "LabRunner.h"
#include "SessionController.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QtTest>

#include <atomic>
#include <functional>
#include <thread>

using namespace specdec;
using namespace specdec::gui;

namespace {

constexpr qint64 kStopMs = 100;
/// A stop is timed up to this many times and the fastest counts: a cancellation the loops honour stops in
/// about a millisecond every time, one they ignore never does, and a test process descheduled once on a
/// loaded machine does not fail the test.
constexpr int kStopTries = 3;

/// Calls `stop` and returns the milliseconds until no job of `kind` runs on `host` (polled every millisecond,
/// at most 5 s), printed with `what`.
qint64 millisecondsToStop(const EngineHost &host, EngineHost::Kind kind, const std::function<void()> &stop,
                          const char *what)
{
    QElapsedTimer since;
    since.start();
    stop();
    while (host.isBusy(kind) && since.elapsed() < 5000)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    qInfo("%s stopped after %lld ms", what, since.elapsed());
    return since.elapsed();
}

} // namespace

class TestEngine : public QObject
{
    Q_OBJECT
private slots:
    void hostCancelsWithinOneStep();
    void sessionStopsWithin100ms();
    void arenaStopsWithin100ms();
    void labStopsWithin100ms();
    void sessionStopsAtItsCap();
    void farSessionPositionPlaysWithProgressToTheCap();
    void frameGateOpensAfterTheWindowsWork();
};

void TestEngine::hostCancelsWithinOneStep()
{
    EngineHost host;
    std::atomic<int> steps = 0;
    std::atomic<bool> queuedRan = false;
    std::atomic<bool> onWorker = false;
    const auto gui = std::this_thread::get_id();
    host.post(EngineHost::Kind::Lab, [&](std::stop_token stop) {
        onWorker = std::this_thread::get_id() != gui;
        while (!stop.stop_requested()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(2)); // one "step" of a long loop
            ++steps;
        }
    });
    host.post(EngineHost::Kind::Lab, [&](std::stop_token) { queuedRan = true; });
    QTRY_VERIFY(steps > 5);
    QVERIFY(onWorker);
    QVERIFY(host.isBusy(EngineHost::Kind::Lab));
    QVERIFY(!host.isBusy(EngineHost::Kind::Session)); // kinds have their own workers
    QVERIFY(millisecondsToStop(
                host, EngineHost::Kind::Lab, [&] { host.cancel(EngineHost::Kind::Lab); }, "a cancelled job")
            < kStopMs);
    QVERIFY(!queuedRan); // the queued job was dropped

    // Results come back on the GUI thread through a functor.
    QObject context;
    bool delivered = false;
    host.post(EngineHost::Kind::Session, [&](std::stop_token) {
        EngineHost::deliver(&context, [&] { delivered = std::this_thread::get_id() == gui; });
    });
    QTRY_VERIFY(delivered);
}

void TestEngine::sessionStopsWithin100ms()
{
    SessionController session(test::builtCorpora());
    QSignalSpy ready(&session, &SessionController::ready);
    session.start(test::tinySetup());
    QVERIFY(ready.wait(30000));
    qint64 ms = 0;
    for (int attempt = 0; attempt < kStopTries; ++attempt) {
        const int before = session.history().size();
        session.requestRounds(10000000);
        QTRY_VERIFY_WITH_TIMEOUT(session.history().size() > before + 20, 20000);
        QVERIFY(session.host()->isBusy(EngineHost::Kind::Session));
        ms = millisecondsToStop(
            *session.host(), EngineHost::Kind::Session, [&] { session.stop(); }, "session");
        if (ms < kStopMs)
            break;
    }
    QVERIFY2(ms < kStopMs, qPrintable(QString::number(ms)));
    QCOMPARE(session.pendingRounds(), 0);
    QTest::qWait(20);
    const int played = session.history().size();
    QTest::qWait(50);
    QCOMPARE(session.history().size(), played); // nothing more arrives
    QVERIFY(session.isReady());                 // and the session can go on
    session.requestRounds(3);
    QTRY_COMPARE_WITH_TIMEOUT(session.history().size(), played + 3, 10000);
}

void TestEngine::arenaStopsWithin100ms()
{
    EngineHost host;
    ArenaRunner runner(test::builtCorpora(), nullptr, &host);
    Setup setup = test::tinySetup();
    setup.tokens = 20000;
    QSignalSpy ready(&runner, &ArenaRunner::ready);
    runner.start(setup, {QStringLiteral("ngram:2"), QStringLiteral("uniform")});
    QVERIFY(ready.wait(60000));
    QSignalSpy added(&runner, &ArenaRunner::roundsAdded);
    QSignalSpy finished(&runner, &ArenaRunner::stepFinished);
    qint64 ms = 0;
    for (int attempt = 0; attempt < kStopTries; ++attempt) {
        added.clear();
        finished.clear();
        runner.step(false, 100000); // 100,000 rounds per lane: far more than the test waits for
        QTRY_VERIFY_WITH_TIMEOUT(added.count() > 4, 20000);
        QVERIFY(host.isBusy(EngineHost::Kind::Arena));
        ms = millisecondsToStop(
            host, EngineHost::Kind::Arena, [&] { runner.stop(); }, "arena");
        QTRY_VERIFY(finished.count() >= 1); // the view hears that the step is over
        if (ms < kStopMs)
            break;
    }
    QVERIFY2(ms < kStopMs, qPrintable(QString::number(ms)));
    QCOMPARE(runner.pending(), 0);
    QVERIFY(runner.history(0).size() < 20000);
}

void TestEngine::labStopsWithin100ms()
{
    EngineHost host;
    LabRunner runner(nullptr, &host);
    QSignalSpy progress(&runner, &LabRunner::progress);
    LabRequest request;
    request.p = {0.5, 0.3, 0.2};
    request.q = {0.2, 0.3, 0.5};
    request.samples = std::int64_t(1) << 40; // far more than a test could wait for
    qint64 ms = 0;
    for (int attempt = 0; attempt < kStopTries; ++attempt) {
        progress.clear();
        runner.start(request);
        QVERIFY(progress.wait(10000));
        QVERIFY(host.isBusy(EngineHost::Kind::Lab));
        ms = millisecondsToStop(
            host, EngineHost::Kind::Lab, [&] { runner.stop(); }, "lab");
        if (ms < kStopMs)
            break;
    }
    QVERIFY2(ms < kStopMs, qPrintable(QString::number(ms)));
    QVERIFY(!runner.isRunning());
}

void TestEngine::sessionStopsAtItsCap()
{
    SessionController session(test::builtCorpora());
    Setup setup = test::tinySetup();
    setup.cap = 60;
    QSignalSpy ready(&session, &SessionController::ready);
    QSignalSpy cap(&session, &SessionController::capReached);
    session.start(setup);
    QVERIFY(ready.wait(30000));
    session.requestRounds(1000);
    QVERIFY(cap.wait(20000));
    QCOMPARE(cap.front().front().toInt(), 60);
    QVERIFY(session.isAtCap());
    // The last round's K is cut to the tokens left, so the run ends at the cap (its bonus token may pass it by one).
    QVERIFY(session.generatedTokens() >= 60);
    QVERIFY(session.generatedTokens() <= 61);
    QVERIFY(session.history().size() < 1000);
    QCOMPARE(session.pendingRounds(), 0);
    const int played = session.history().size();
    session.requestRounds(10); // ignored at the cap
    QTest::qWait(50);
    QCOMPARE(session.history().size(), played);
}

void TestEngine::farSessionPositionPlaysWithProgressToTheCap()
{
    // A "round": 99999 position: the rounds are played up to the cap, with progress, and the controller says
    // where it stopped (the window shows it; see MainWindow's status line).
    SessionController session(test::builtCorpora());
    Setup setup = test::tinySetup();
    setup.cap = 400;
    QSignalSpy ready(&session, &SessionController::ready);
    QSignalSpy cap(&session, &SessionController::capReached);
    QSignalSpy added(&session, &SessionController::roundsAdded);
    session.start(setup);
    QVERIFY(ready.wait(30000));
    session.requestRounds(99999);
    QVERIFY(cap.wait(30000));
    QVERIFY(added.count() >= 1);
    QVERIFY(session.history().size() < 99999);
    QVERIFY(session.generatedTokens() >= 400);
}

QTEST_MAIN(TestEngine)
// The gate opens two passes of the event loop after a batch arrives (behind the updates, replots and repaint
// the batch posted), not before; a worker waiting on it wakes then, at its limit (the gate then counts as open) or
// when it is stopped.
void TestEngine::frameGateOpensAfterTheWindowsWork()
{
    FrameGate gate;
    std::stop_source never;
    QElapsedTimer t;
    t.start();
    gate.wait(never.get_token(), std::chrono::milliseconds(2000)); // open: at once
    QVERIFY(t.elapsed() < 1000);

    gate.close();
    QVERIFY(gate.isClosed());
    std::atomic<bool> woke{false};
    std::thread worker([&] {
        gate.wait(never.get_token(), std::chrono::milliseconds(5000));
        woke = true;
    });
    QObject sink; // a repaint the batch asked for: posted before the gate's first pass, at the same low priority
    bool painted = false;
    gate.arrived();
    QCoreApplication::postEvent(&sink, new QEvent(QEvent::User), Qt::LowEventPriority);
    struct Filter : QObject
    {
        bool *painted;
        FrameGate *gate;
        bool sawOpen = false;
        bool eventFilter(QObject *, QEvent *e) override
        {
            if (e->type() == QEvent::User) {
                *painted = true;
                sawOpen = !gate->isClosed();
            }
            return false;
        }
    } filter;
    filter.painted = &painted;
    filter.gate = &gate;
    sink.installEventFilter(&filter);
    QCoreApplication::sendPostedEvents(); // pass 1 (and the repaint behind it)
    QVERIFY(painted);
    QVERIFY(!filter.sawOpen);
    QVERIFY(gate.isClosed());
    QVERIFY(!woke);
    QCoreApplication::sendPostedEvents(); // pass 2: open
    QVERIFY(!gate.isClosed());
    worker.join();
    QVERIFY(woke);

    // Nobody opens it: the limit, then open; a stop wakes a waiting worker at once.
    gate.close();
    t.restart();
    gate.wait(never.get_token(), std::chrono::milliseconds(50));
    QVERIFY(t.elapsed() >= 45);
    QVERIFY(!gate.isClosed());
    gate.close();
    std::stop_source stop;
    std::thread stopped([&] { gate.wait(stop.get_token(), std::chrono::milliseconds(10000)); });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    t.restart();
    stop.request_stop();
    stopped.join();
    QVERIFY(t.elapsed() < 1000);
    QCoreApplication::sendPostedEvents(); // (nothing pending: the gate's passes ran above)
}

#include "test_gui_engine.moc"
