// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A small fixed pool of worker threads that runs numbered tasks. Callers split work into tasks whose
// boundaries depend only on the problem size, never on the thread count, so results are bit-identical
// for any number of threads. Each thread that runs the pool's tasks (the caller of run() and each worker) has
// scratch memory of its own, owned by the pool and freed with it.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace specdec::nn {

class ThreadPool
{
public:
    /// `threads` <= 0 means std::thread::hardware_concurrency(). Throws Error for more than maxThreads()
    /// or when the system refuses to start a thread (then no thread is left running).
    explicit ThreadPool(int threads = 0);
    /// The most threads a pool may have: 4 x the cores (at least 4).
    static int maxThreads();
    ~ThreadPool();
    ThreadPool(const ThreadPool &) = delete;
    ThreadPool &operator=(const ThreadPool &) = delete;

    int threads() const { return static_cast<int>(m_workers.size()) + 1; }

    /// Runs task(0) .. task(count - 1), each exactly once, on the caller and the workers (on the caller alone for
    /// one task, without workers, or when `parallel` is false: work too small to be worth handing out); returns
    /// when all are done. The first exception thrown by a task is rethrown here.
    void run(std::int64_t count, const std::function<void(std::int64_t)> &task, bool parallel = true);

    /// At least `floats` floats of scratch for the calling thread, valid until its next call of scratch() on
    /// this pool; call it from inside a task (a thread that is not one of the workers uses the caller's slot).
    float *scratch(std::size_t floats);

private:
    std::vector<std::thread> m_workers;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_done;
    const std::function<void(std::int64_t)> *m_task = nullptr;
    std::int64_t m_count = 0;
    std::int64_t m_next = 0;
    std::int64_t m_finished = 0;
    /// Written under the lock; atomic so that an idle worker can watch them without it while it spins.
    std::atomic<std::uint64_t> m_generation{0};
    std::atomic<bool> m_stop{false};
    std::exception_ptr m_error;
    std::vector<std::vector<float>> m_scratch; ///< slot 0: the caller of run(); slot i: worker i

    void workerLoop(std::size_t slot);
    /// Spins until a task set after `seen` is posted, the pool stops, or a short while has passed.
    void spinWhileIdle(std::uint64_t seen) const;
    /// Wakes every worker with m_stop set and joins them.
    void stop();
    void drain(std::unique_lock<std::mutex> &lock);
};

} // namespace specdec::nn
