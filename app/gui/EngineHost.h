// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// EngineHost: the window's one door to the engine. Every long piece of engine work (loading and playing a
// session, the arena's lanes, a lossless-lab run, the race) is a job posted here; nothing else in app/gui starts a
// thread or talks to the engine off the GUI thread.
//
// - A job is a functor run on a worker thread with a std::stop_token. Jobs of one kind (session, arena,
//   lab, race) run in order on that kind's own worker, so a lab run never waits for the session.
// - One cancellation mechanism: cancel(kind) requests stop on the job running and drops the ones queued;
//   the long loops (session rounds, arena lanes, lab Monte Carlo) check the token between steps, so a job
//   stops within one step (well under 100 ms). Destroying the host cancels everything and joins.
// - Values come back to the GUI thread with deliver(context, functor): a functor-based queued call (no
//   string-based invokeMethod). Requests, progress and results are the value types of EngineJobs.h.
// - A job that throws does not end the program: the worker catches it, reports it by jobFailed (delivered
//   on the GUI thread; the window shows it in its banner) and goes on with the next job.

#include "LoadProgress.h"

#include <QObject>

#include <array>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <stop_token>
#include <thread>

namespace specdec::gui {

class EngineHost : public QObject
{
    Q_OBJECT
public:
    enum class Kind { Session, Arena, Lab, Race };
    using Work = std::function<void(std::stop_token)>;

    explicit EngineHost(QObject *parent = nullptr);
    ~EngineHost() override;

    /// Queues `work` on the worker of `kind`; it runs after the jobs already queued there.
    void post(Kind kind, Work work);
    /// Stops the job of `kind` that is running (its token reports stop) and drops the queued ones.
    void cancel(Kind kind);
    /// cancel(kind), then waits until the job running has returned: after this, no job of `kind` touches
    /// what it captured (an owner calls it from its destructor).
    void cancelAndWait(Kind kind);
    /// Whether a job of `kind` is running or queued.
    bool isBusy(Kind kind) const;

    /// Calls `f` on `context`'s thread (the GUI thread) unless `context` is destroyed first.
    template<typename F> static void deliver(QObject *context, F &&f)
    {
        QMetaObject::invokeMethod(context, std::forward<F>(f), Qt::QueuedConnection);
    }
    /// A load's progress for a job: each fraction it tells goes to `f(fraction)` on `context`'s thread (deliver).
    template<typename F> static LoadProgress deliverProgress(QObject *context, F f)
    {
        return LoadProgress(
            [context, f = std::move(f)](double fraction) { deliver(context, [f, fraction] { f(fraction); }); });
    }

    /// Lowers the calling thread's scheduling priority (Linux: nice +10) so that the engine yields the CPU
    /// to the window whenever both want it; the session's worker calls it when it starts.
    static void yieldToWindow();

signals:
    /// A job of `kind` threw `message` (queued to the host's thread); the worker carries on.
    void jobFailed(int kind, const QString &message);

private:
    struct Worker
    {
        mutable std::mutex mutex;
        std::condition_variable_any wake;
        std::condition_variable_any idle; ///< a job has returned
        std::deque<Work> queue;
        std::stop_source current; ///< the running job's source
        bool running = false;
        std::jthread thread;
    };
    void loop(Worker &worker, std::stop_token quit, Kind kind);
    Worker &worker(Kind kind) { return m_workers[static_cast<std::size_t>(kind)]; }
    const Worker &worker(Kind kind) const { return m_workers[static_cast<std::size_t>(kind)]; }

    std::array<Worker, 4> m_workers;
};

} // namespace specdec::gui
