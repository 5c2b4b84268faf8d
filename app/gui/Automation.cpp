// SPDX-License-Identifier: GPL-3.0-or-later
#include "Automation.h"

#include "ArenaRunner.h"
#include "ArenaView.h"
#include "ClassroomTools.h"
#include "ErrorLine.h"
#include "Exporter.h"
#include "LabRunner.h"
#include "MainWindow.h"
#include "Player.h"
#include "PresenterMode.h"
#include "QuizView.h"
#include "RaceRunner.h"
#include "RaceView.h"
#include "SessionController.h"

#include "DistributionView.h"
#include "MessageBanner.h"
#include "RoundView.h"

#include <QApplication>
#include <QBuffer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>
#include <QTimer>

#include <qcustomplot.h>

#include <algorithm>

#include <time.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace specdec::gui {

namespace {

QTextStream &errStream()
{
    static QTextStream s(stderr);
    return s;
}

/// Runs the event loop until `done` holds (checked whenever the session reports or the window paints) or
/// `seconds` pass; false on timeout. A real event loop, so the GUI thread sleeps between events.
template<typename Done> bool waitFor(const AutomationContext &c, Done done, int seconds)
{
    if (done())
        return true;
    QEventLoop loop;
    auto check = [&] {
        if (done())
            loop.quit();
    };
    QList<QMetaObject::Connection> connections{
        QObject::connect(c.session, &SessionController::ready, &loop, check, Qt::QueuedConnection),
        QObject::connect(c.session, &SessionController::failed, &loop, check, Qt::QueuedConnection),
        QObject::connect(c.session, &SessionController::roundsAdded, &loop, check, Qt::QueuedConnection),
    };
    QTimer poll; // a slow safety net for conditions no signal announces (the first paint)
    QObject::connect(&poll, &QTimer::timeout, &loop, check);
    poll.start(100);
    QTimer::singleShot(seconds * 1000, &loop, &QEventLoop::quit);
    loop.exec();
    for (const auto &connection : connections)
        QObject::disconnect(connection);
    return done();
}

/// Runs the event loop until `done` holds (polled every 50 ms) or `seconds` pass.
template<typename Done> void pollUntil(Done done, int seconds)
{
    if (done())
        return;
    QEventLoop loop;
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (done())
            loop.quit();
    });
    poll.start(50);
    QTimer::singleShot(seconds * 1000, &loop, &QEventLoop::quit);
    loop.exec();
}

/// The newest round at or before `last` that has `phase` (a residual needs a rejection, a bonus none).
int roundWithPhase(const RoundHistory &history, int last, Phase phase)
{
    for (int r = last; r >= history.first(); --r) {
        const auto phases = phasesOf(history.at(r).trace);
        if (std::find(phases.begin(), phases.end(), phase) != phases.end())
            return r;
    }
    return last;
}

/// The banner holds an error (a lesson's "your session is kept" notice is not one).
bool bannerShowsError(const AutomationContext &c)
{
    return c.window->banner()->kind() == MessageBanner::Kind::Error && !c.window->banner()->text().isEmpty();
}

bool loadAndPlay(const AutomationContext &c, const CommandLine &cl, int rounds)
{
    if (!cl.lesson.isEmpty()) {
        const QString error = c.window->classroom()->openLessonFile(cl.lesson, ClassroomTools::Aside::None);
        if (!error.isEmpty()) {
            app::printMessage(errStream(), QStringLiteral("specdec-lab"), QStringLiteral("error"), error);
            return false;
        }
    } else {
        c.window->startSession(cl.setup);
    }
    if (!waitFor(
            c, [&] { return c.session->isReady() || bannerShowsError(c); }, 300)
        || !c.session->isReady()) {
        app::printMessage(errStream(), QStringLiteral("specdec-lab"), QStringLiteral("error"),
                          c.window->banner()->text());
        return false;
    }
    c.session->requestRounds(rounds - c.session->history().size());
    return waitFor(
        c, [&] { return c.session->history().size() >= rounds; }, 300);
}

} // namespace

int runScreenshot(const AutomationContext &c, const CommandLine &cl)
{
    const int rounds = std::max(1, cl.rounds < 0 ? 12 : cl.rounds);
    c.window->arrangeFor(cl.size);
    c.window->show();
    if (cl.predict)
        c.window->classroom()->setPredictBeforeReveal(true);
    const bool ok = loadAndPlay(c, cl, rounds);
    if (ok) {
        const Phase phase = cl.phase.value_or(Phase::Dice);
        const int round = roundWithPhase(c.session->history(), rounds - 1, phase);
        if (cl.predict && phase == Phase::Dice) { // the first test as the room sees it: p, q, min(1, p/q), '?'
            c.player->jumpTo(round, Phase::Verify);
            c.player->nextPhase();
        } else {
            c.player->jumpTo(round, phase);
        }
        c.window->roundView()->cards()->finishAnimation();
        if (cl.card >= 0)
            emit c.window->roundView()->cardSelected(cl.card);
    }
    for (int i = 0; i < 5; ++i)
        QCoreApplication::processEvents();
    QWidget *shown = c.window;
    if (cl.presenter) { // the quiz (with --quiz) is a stage of the window
        c.window->classroom()->setPresenterMode(true);
        for (int i = 0; i < 3; ++i)
            QCoreApplication::processEvents();
        c.window->setMinimumSize(0, 0);
        c.window->resize(cl.size); // the presenter layout fits where the normal one may not
    }
    if (cl.quiz >= 0 && cl.presenter) {
        c.window->classroom()->showQuiz(cl.quiz);
    } else if (cl.stage == PresenterStage::Quiz) {
        c.window->classroom()->showQuiz(0);
    } else if (cl.quiz >= 0) { // the quiz, at its question
        c.window->classroom()->showQuiz(cl.quiz);
        shown = c.window->classroom()->quiz();
        shown->resize(cl.size);
    }
    if (cl.stage && cl.stage != PresenterStage::Quiz) {
        ClassroomTools *tools = c.window->classroom();
        if (cl.stage == PresenterStage::Arena && ok) {
            // The lanes (the lesson's, or the editor's) play the same number of rounds as the window.
            tools->playArena(rounds);
            const ArenaRunner *arena = tools->arenaRunner();
            bool failed = false;
            const auto connection = QObject::connect(arena, &ArenaRunner::failed, [&failed] { failed = true; });
            pollUntil(
                [&] {
                    if (failed)
                        return true;
                    if (tools->arenaLoading() || !arena->isReady() || arena->pending() > 0)
                        return false;
                    for (int lane = 0; lane < arena->laneCount(); ++lane) {
                        const RoundHistory &h = arena->history(lane);
                        const bool capped = !h.empty() && h.back().cumulative.generatedTokens >= arena->info().tokens;
                        if (h.size() < rounds && !capped)
                            return false;
                    }
                    return arena->laneCount() > 0;
                },
                300);
            QObject::disconnect(connection);
        } else if (cl.stage == PresenterStage::Race && ok) { // the race on the session's setup, to its end
            RaceView *race = tools->race();
            emit race->startRequested(race->tokens());
            pollUntil([&] { return race->isFinished() || !tools->raceRunner()->isRunning(); }, 300);
            pollUntil([&] { return race->isFinished(); }, 60);
        } else if (cl.stage == PresenterStage::Lab) { // a lesson's lab run, finished
            pollUntil([&] { return !tools->labRunner()->isRunning(); }, 300);
        }
        tools->presenter()->showStage(static_cast<int>(*cl.stage));
    }
    for (int i = 0; i < 5; ++i)
        QCoreApplication::processEvents();
    for (QCustomPlot *plot : c.window->findChildren<QCustomPlot *>())
        plot->replot();
    QStringList errors;
    if (!cl.screenshot.isEmpty()) { // rendered in memory, saved through the one atomic path (Exporter.h)
        QBuffer png;
        png.open(QIODevice::WriteOnly);
        const QByteArray format = QFileInfo(cl.screenshot).suffix().toLower().toLatin1();
        if (!shown->grab().save(&png, format.isEmpty() ? "PNG" : format.constData()))
            errors << QCoreApplication::translate("specdec::gui::Exporter", "Could not write %1.").arg(cl.screenshot);
        else
            errors << saveFile(cl.screenshot, png.data());
    }
    // The handout of the round on screen and the quiz sheet, as File > Export writes them.
    if (!cl.handout.isEmpty())
        errors << c.window->classroom()->exportHandout(cl.handout);
    if (!cl.quizSheet.isEmpty())
        errors << c.window->classroom()->exportQuizSheet(cl.quizSheet);
    errors.removeAll(QString());
    for (const QString &error : std::as_const(errors))
        app::printMessage(errStream(), QStringLiteral("specdec-lab"), QStringLiteral("error"), error);
    if (!errors.isEmpty())
        return 1;
    return ok ? 0 : 1;
}

int runBenchmark(const AutomationContext &c, const CommandLine &cl)
{
    const int rounds = std::max(1, cl.rounds < 0 ? 500 : cl.rounds);
    // First paint: the first paint event of any widget of the window.
    qint64 firstPaint = -1;
    struct PaintWatch : QObject
    {
        qint64 *firstPaint;
        const QElapsedTimer *since;
        QWidget *window;
        bool eventFilter(QObject *o, QEvent *e) override
        {
            if (*firstPaint < 0 && e->type() == QEvent::Paint && o->isWidgetType()
                && static_cast<QWidget *>(o)->window() == window)
                *firstPaint = since->elapsed();
            return false;
        }
    } watch;
    watch.firstPaint = &firstPaint;
    watch.since = c.sinceStart;
    watch.window = c.window;
    qApp->installEventFilter(&watch);

    c.window->arrangeFor(cl.size);
    c.window->show();
    waitFor(
        c, [&] { return firstPaint >= 0; }, 10);
    // The benchmark plays its rounds whatever the cap of tokens (a round writes at most K + 1).
    Setup setup = cl.setup;
    setup.cap = std::max<std::int64_t>(setup.cap, std::min<std::int64_t>(INT32_MAX, std::int64_t(rounds) * 65));
    c.window->startSession(setup);
    if (!waitFor(
            c, [&] { return c.session->isReady() || bannerShowsError(c); }, 300)
        || !c.session->isReady()) {
        app::printMessage(errStream(), QStringLiteral("specdec-lab"), QStringLiteral("error"),
                          c.window->banner()->text());
        return 1;
    }

    // A frame: from the moment a batch of rounds reaches the GUI thread until the window shows it — the
    // session stores it, every view updates, the plots replot and the whole window repaints. Timed on the wall
    // clock and on the GUI thread's CPU clock (the frame's own work, without the time other processes of a
    // shared machine took the CPU). Every event the session receives restarts the clocks, so a frame starts
    // with the event that delivered its batch (not with an earlier "job finished" event). Beside them, all the
    // GUI thread's CPU time from one frame to the next (timers, deferred layouts, the other events included).
    std::vector<double> frames, frameCpu, betweenCpu;
    QElapsedTimer frame;
    double frameCpuStart = 0.0;
    double lastFrameCpuEnd = -1.0;
    struct Arrival : QObject
    {
        QElapsedTimer *frame;
        double *cpuStart;
        bool eventFilter(QObject *, QEvent *e) override
        {
            if (e->type() == QEvent::MetaCall) {
                frame->start();
                *cpuStart = threadCpuMilliseconds();
            }
            return false;
        }
    } arrival;
    arrival.frame = &frame;
    arrival.cpuStart = &frameCpuStart;
    c.session->installEventFilter(&arrival);
    // Resident memory as the rounds pile up: bounded means flat once the history's window is full.
    QJsonArray rss;
    int nextRss = 1000;
    double rssAt = -1; // after cl.rssAt rounds
    const QList<QCustomPlot *> plots = c.window->findChildren<QCustomPlot *>();
    const bool printParts = qEnvironmentVariableIsSet("SPECDEC_FRAME_PARTS"); // a frame's parts on stderr
    const auto shown = QObject::connect(c.session, &SessionController::roundsAdded, c.window, [&] {
        if (c.session->history().size() >= rounds)
            c.player->pause();
        if (rssAt < 0 && c.session->history().size() >= cl.rssAt)
            rssAt = residentMegabytes();
        while (c.session->history().size() >= nextRss) {
            // with the wall-clock speedup so far: a drift over a long run shows here
            const RunMetrics &m = c.session->history().back().cumulative;
            rss.append(QJsonObject{{QStringLiteral("rounds"), nextRss},
                                   {QStringLiteral("rss_mb"), residentMegabytes()},
                                   {QStringLiteral("heap_mb"), heapMegabytes()},
                                   {QStringLiteral("speedup_wall_clock"), m.speedupWallClock.value_or(0.0)}});
            nextRss = nextRss < 10000 ? nextRss * 10 : nextRss + 10000;
        }
        if (!frame.isValid())
            return;
        // What the event loop would do next for this update: the queued replots, then the window's repaint
        // of what changed.
        const double before = static_cast<double>(frame.nsecsElapsed()) * 1e-6;
        const double cpuBefore = threadCpuMilliseconds() - frameCpuStart;
        QString parts;
        for (QCustomPlot *plot : std::as_const(plots)) {
            QElapsedTimer t;
            t.start();
            QCoreApplication::sendPostedEvents(plot, QEvent::MetaCall);
            if (printParts)
                parts += QString::number(static_cast<double>(t.nsecsElapsed()) * 1e-6, 'f', 1) + QLatin1Char(' ');
        }
        QElapsedTimer t;
        t.start();
        QCoreApplication::sendPostedEvents(c.window, QEvent::UpdateRequest);
        if (printParts)
            errStream() << "views " << before << " (cpu " << cpuBefore << ") plots " << parts << " paint "
                        << static_cast<double>(t.nsecsElapsed()) * 1e-6 << " frame cpu "
                        << threadCpuMilliseconds() - frameCpuStart << Qt::endl;
        frames.push_back(static_cast<double>(frame.nsecsElapsed()) * 1e-6);
        const double cpuEnd = threadCpuMilliseconds();
        frameCpu.push_back(cpuEnd - frameCpuStart);
        if (lastFrameCpuEnd >= 0)
            betweenCpu.push_back(cpuEnd - lastFrameCpuEnd);
        lastFrameCpuEnd = cpuEnd;
        frame.invalidate();
    });
    QElapsedTimer playing;
    playing.start();
    c.player->setPhaseMilliseconds(0);
    c.player->play();
    // At least 10 minutes, and 20 ms a round beyond 30,000 (100,000 rounds of the ONNX models take longer).
    const int limit = std::max(600, rounds / 50);
    const bool ok = waitFor(
        c, [&] { return c.session->history().size() >= rounds; }, limit);
    if (!ok)
        errStream() << "specdec-lab: --benchmark-ui stopped after " << limit << " s at round "
                    << c.session->history().size() << Qt::endl;
    c.player->pause();
    const double seconds = static_cast<double>(playing.nsecsElapsed()) * 1e-9;
    for (int i = 0; i < 3; ++i)
        QCoreApplication::processEvents();
    QObject::disconnect(shown);
    c.session->removeEventFilter(&arrival);
    qApp->removeEventFilter(&watch);

    std::vector<double> sorted = frames;
    std::sort(sorted.begin(), sorted.end());
    std::sort(frameCpu.begin(), frameCpu.end());
    std::sort(betweenCpu.begin(), betweenCpu.end());
    auto percentileOf = [](const std::vector<double> &v, double q) {
        if (v.empty())
            return 0.0;
        return v[std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size())))];
    };
    auto percentile = [&](double q) { return percentileOf(sorted, q); };
    const double rssEnd = residentMegabytes();
    const int played = c.session->history().size();
    const SessionInfo &info = c.session->info();
    QJsonObject report{
        {QStringLiteral("corpus"), info.corpus},
        {QStringLiteral("target"), info.target},
        {QStringLiteral("draft"), info.draft},
        {QStringLiteral("k"), info.draftLength},
        {QStringLiteral("rounds"), played},
        {QStringLiteral("seconds"), seconds},
        {QStringLiteral("rounds_per_second"), seconds > 0 ? played / seconds : 0.0},
        {QStringLiteral("frames"), static_cast<int>(frames.size())},
        {QStringLiteral("frame_ms_p50"), percentile(0.50)},
        {QStringLiteral("frame_ms_p99"), percentile(0.99)},
        {QStringLiteral("frame_ms_max"), sorted.empty() ? 0.0 : sorted.back()},
        {QStringLiteral("frame_cpu_ms_p50"), percentileOf(frameCpu, 0.50)},
        {QStringLiteral("frame_cpu_ms_p99"), percentileOf(frameCpu, 0.99)},
        {QStringLiteral("gui_cpu_ms_per_frame_p50"), percentileOf(betweenCpu, 0.50)},
        {QStringLiteral("gui_cpu_ms_per_frame_p99"), percentileOf(betweenCpu, 0.99)},
        {QStringLiteral("first_paint_ms"), static_cast<double>(firstPaint)},
        {QStringLiteral("peak_memory_mb"), peakMemoryMegabytes()},
        {QStringLiteral("rss_mb_end"), rssEnd},
        {QStringLiteral("rss_at_rounds"), cl.rssAt},
        {QStringLiteral("rss_mb_at"), rssAt},
        {QStringLiteral("rss_ratio_end_to_at"), rssAt > 0 ? rssEnd / rssAt : 0.0},
        {QStringLiteral("rss_mb"), rss},
        {QStringLiteral("tokens"), c.session->generatedTokens()},
    };
    if (!c.session->history().empty()) {
        const RunMetrics &m = c.session->history().back().cumulative;
        report.insert(QStringLiteral("speedup_wall_clock"), m.speedupWallClock.value_or(0.0));
        report.insert(QStringLiteral("speedup_cost_model"), m.speedupCostModel);
        report.insert(QStringLiteral("cost_ratio_c"), m.costRatio);
        report.insert(QStringLiteral("acceptance_rate"), m.acceptanceRate);
    }
    QTextStream(stdout) << QJsonDocument(report).toJson(QJsonDocument::Indented);
    return ok ? 0 : 1;
}

namespace {

double statusMegabytes(const char *field)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith(field))
            return line.mid(static_cast<int>(qstrlen(field))).trimmed().split(' ').front().toDouble() / 1024.0;
    return -1;
}

} // namespace

double threadCpuMilliseconds()
{
    timespec t{};
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0)
        return 0.0;
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

double heapMegabytes()
{
#ifdef __GLIBC__
    const struct mallinfo2 m = mallinfo2();
    return static_cast<double>(m.uordblks + m.hblkhd) / (1024.0 * 1024.0);
#else
    return -1;
#endif
}

double residentMegabytes()
{
    return statusMegabytes("VmRSS:");
}

double peakMemoryMegabytes()
{
    return statusMegabytes("VmHWM:");
}

} // namespace specdec::gui
