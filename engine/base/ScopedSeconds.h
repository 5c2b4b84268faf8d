// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// ScopedSeconds: adds the steady-clock seconds of a scope to a running total. The decoders time with it the
// work only a teaching run does (β and TV per position, the recorded distributions, a tree's exact node
// acceptance), which a real engine would not do, so every wall clock can leave it out (RoundTrace::teachingSeconds).

#include <chrono>

namespace specdec {

class ScopedSeconds
{
public:
    explicit ScopedSeconds(double &total)
        : m_total(total)
        , m_start(std::chrono::steady_clock::now())
    {
    }
    ~ScopedSeconds() { m_total += std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count(); }
    ScopedSeconds(const ScopedSeconds &) = delete;
    ScopedSeconds &operator=(const ScopedSeconds &) = delete;

private:
    double &m_total;
    std::chrono::steady_clock::time_point m_start;
};

} // namespace specdec
