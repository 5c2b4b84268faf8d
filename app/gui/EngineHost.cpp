// SPDX-License-Identifier: GPL-3.0-or-later
#include "EngineHost.h"

#include <exception>

#ifdef Q_OS_LINUX
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace specdec::gui {

EngineHost::EngineHost(QObject *parent)
    : QObject(parent)
{
    for (std::size_t i = 0; i < m_workers.size(); ++i) {
        Worker &w = m_workers[i];
        const auto kind = static_cast<Kind>(i);
        w.thread = std::jthread([this, &w, kind](std::stop_token quit) { loop(w, quit, kind); });
    }
}

EngineHost::~EngineHost()
{
    for (Worker &w : m_workers) {
        {
            std::lock_guard lock(w.mutex);
            w.queue.clear();
            w.current.request_stop();
        }
        w.thread.request_stop(); // wakes the condition variable, which waits on this token
    }
    for (Worker &w : m_workers)
        if (w.thread.joinable())
            w.thread.join();
}

void EngineHost::yieldToWindow()
{
#ifdef Q_OS_LINUX
    // Per-thread on Linux: affects this thread and the threads it creates, not the GUI thread.
    setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 10);
#endif
}

void EngineHost::loop(Worker &w, std::stop_token quit, Kind kind)
{
    if (kind == Kind::Session)
        yieldToWindow();
    for (;;) {
        Work job;
        std::stop_token token;
        {
            std::unique_lock lock(w.mutex);
            if (!w.wake.wait(lock, quit, [&] { return !w.queue.empty(); }))
                return; // quit requested
            job = std::move(w.queue.front());
            w.queue.pop_front();
            w.current = std::stop_source();
            token = w.current.get_token();
            w.running = true;
        }
        // The door's guard: whatever a job throws is reported, never the end of the program.
        try {
            job(token);
        } catch (const std::exception &e) {
            emit jobFailed(static_cast<int>(kind), QString::fromUtf8(e.what()));
        } catch (...) {
            emit jobFailed(static_cast<int>(kind), tr("an unknown error"));
        }
        job = nullptr; // what the job captured is released before it counts as returned
        {
            std::lock_guard lock(w.mutex);
            w.running = false;
        }
        w.idle.notify_all();
    }
}

void EngineHost::post(Kind kind, Work work)
{
    Worker &w = worker(kind);
    {
        std::lock_guard lock(w.mutex);
        w.queue.push_back(std::move(work));
    }
    w.wake.notify_one();
}

void EngineHost::cancel(Kind kind)
{
    Worker &w = worker(kind);
    std::lock_guard lock(w.mutex);
    w.queue.clear();
    w.current.request_stop();
}

void EngineHost::cancelAndWait(Kind kind)
{
    Worker &w = worker(kind);
    std::unique_lock lock(w.mutex);
    w.queue.clear();
    w.current.request_stop();
    w.idle.wait(lock, [&] { return !w.running; });
}

bool EngineHost::isBusy(Kind kind) const
{
    const Worker &w = worker(kind);
    std::lock_guard lock(w.mutex);
    return w.running || !w.queue.empty();
}

} // namespace specdec::gui
