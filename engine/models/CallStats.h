// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// CallStats: what a model has done so far (forward passes, positions scored, wall time inside them); the
// difference of two readings is what it did in between: stats() after − stats() before.

#include <cstdint>

namespace specdec {

struct CallStats
{
    std::int64_t calls = 0;
    std::int64_t positions = 0;
    double seconds = 0.0;

    double secondsPerCall() const { return calls > 0 ? seconds / static_cast<double>(calls) : 0.0; }

    CallStats &operator+=(const CallStats &other)
    {
        calls += other.calls;
        positions += other.positions;
        seconds += other.seconds;
        return *this;
    }
    friend CallStats operator-(const CallStats &after, const CallStats &before)
    {
        return {after.calls - before.calls, after.positions - before.positions, after.seconds - before.seconds};
    }
};

} // namespace specdec
