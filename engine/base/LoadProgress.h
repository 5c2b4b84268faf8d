// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// LoadProgress: how far loading has come, as a fraction in [0, 1] told to a callback. What a loader reports is
// made monotonic (a smaller fraction is never told after a larger one) and cheap: the callback hears at most
// every 1 % or every 50 ms, and always the end of a part. A part of a load (one model of a pair, the weights of
// a graph) reports through `part(from, to)`: its fraction f is told as from + f · (to − from) of the whole; parts
// loaded side by side report through `concurrentParts` (their weighted sum).
// A default-constructed LoadProgress tells no one.

#include <chrono>
#include <functional>
#include <memory>
#include <vector>

namespace specdec {

using LoadCallback = std::function<void(double fraction)>;

class LoadProgress
{
public:
    LoadProgress() = default;
    explicit LoadProgress(LoadCallback callback);

    /// The range [from, to] of this progress (fractions of it), reported through the same callback.
    LoadProgress part(double from, double to) const;
    /// Parts of this progress loaded at the same time, one thread each: part i weighs weights[i] (of their sum) and
    /// this progress hears Σ wᵢ·fᵢ / Σ wᵢ of their latest fractions (a part's end always told, on its thread; 1
    /// once every part has finished). Each part is used by one thread; the parts may report at the same time.
    std::vector<LoadProgress> concurrentParts(const std::vector<double> &weights) const;
    /// This part has come `fraction` of its way (clamped to [0, 1]).
    void report(double fraction) const;
    /// report(1): told at once (the end of the whole is 1 exactly).
    void finish() const { report(1.0); }
    bool active() const { return m_shared != nullptr; }

    static constexpr double kStep = 0.01;                     ///< the least change told, but for a part's end
    static constexpr std::chrono::milliseconds kInterval{50}; ///< a change smaller than kStep is told after this

private:
    struct Shared
    {
        LoadCallback callback;
        double told = -1.0; ///< the last fraction told (of the whole)
        std::chrono::steady_clock::time_point at;
    };
    std::shared_ptr<Shared> m_shared;
    double m_from = 0.0, m_to = 1.0;
};

/// Adds up work done (bytes) against a total known before, reporting done / total to a LoadProgress.
class ByteProgress
{
public:
    ByteProgress(LoadProgress progress, double totalBytes)
        : m_progress(std::move(progress))
        , m_total(totalBytes)
    {
    }
    void add(double bytes)
    {
        m_done += bytes;
        if (m_total > 0)
            m_progress.report(m_done / m_total);
    }

private:
    LoadProgress m_progress;
    double m_total = 0.0, m_done = 0.0;
};

} // namespace specdec
