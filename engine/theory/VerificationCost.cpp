// SPDX-License-Identifier: GPL-3.0-or-later
#include "VerificationCost.h"

#include "DecodingState.h"
#include "Error.h"
#include "Metrics.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace specdec {

namespace {

/// Median seconds of `repeats` extensions by `tokens` of a fresh state of `model` holding `prefix` (a fresh
/// state each time, so that no rollback's cache cut is timed).
double timeExtension(LanguageModel &model, bool kvCache, std::span<const TokenId> prefix,
                     std::span<const TokenId> tokens, int repeats)
{
    DistributionMatrix rows;
    std::vector<double> times;
    for (int r = 0; r <= repeats; ++r) {
        const auto state = model.newState(kvCache);
        state->extend(prefix, 1, rows);
        const auto start = std::chrono::steady_clock::now();
        state->extend(tokens, static_cast<int>(tokens.size()), rows);
        const auto stop = std::chrono::steady_clock::now();
        if (r > 0) // the first is a warm-up
            times.push_back(std::chrono::duration<double>(stop - start).count());
    }
    std::nth_element(times.begin(), times.begin() + static_cast<std::ptrdiff_t>(times.size() / 2), times.end());
    return times[times.size() / 2];
}

} // namespace

double VerificationCost::at(int m) const
{
    if (m < 1 || m > static_cast<int>(v.size()))
        throw Error("V(" + std::to_string(m) + ") was not measured (measured m = 1.." + std::to_string(v.size()) + ")");
    return v[static_cast<std::size_t>(m - 1)];
}

/// A prompt's V(K+1) - 1 below this is a flat curve (a memory-bound step): no shape to scale.
constexpr double kFlat = 0.02;

VerificationCost calibratedCost(const VerificationCost &prompt, const RunMetrics &metrics, int k)
{
    VerificationCost cost = prompt;
    if (!std::isfinite(metrics.costRatio))
        return cost;
    cost.c = metrics.costRatio;
    cost.fromRun = true;
    if (cost.draftSeconds > 0.0 && !cost.seconds.empty())
        cost.draftSeconds = cost.c * cost.seconds.front();
    const auto at = static_cast<std::size_t>(k);
    if (k >= 1 && at < cost.v.size() && std::isfinite(metrics.verificationRatio)) {
        // Scale what a verification costs beyond one step, V(m) - 1: the prompt's curve where it rises, else a
        // straight line from V(1) = 1 through the run's V(K+1).
        const double promptExcess = cost.v[at] - 1.0;
        const double runExcess = std::max(0.0, metrics.verificationRatio - 1.0);
        for (std::size_t m = 1; m < cost.v.size(); ++m) // V(1) = 1 by definition
            cost.v[m] = promptExcess > kFlat ? 1.0 + (cost.v[m] - 1.0) * (runExcess / promptExcess)
                                             : 1.0 + runExcess * static_cast<double>(m) / k;
        cost.v[at] = metrics.verificationRatio; // exactly as measured
    }
    return cost;
}

VerificationCost measureVerificationCost(LanguageModel &target, LanguageModel *draft, std::span<const TokenId> prefix,
                                         int maxM, bool kvCache, int repeats)
{
    if (prefix.empty())
        throw Error("measuring the cost of verification needs a prompt of at least one token");
    if (maxM < 1 || repeats < 1)
        throw Error("measuring the cost of verification needs m >= 1 and repeats >= 1");
    // The new positions: the prefix's own tokens again (any valid tokens cost the same).
    std::vector<TokenId> fresh;
    while (static_cast<int>(fresh.size()) < maxM)
        fresh.insert(fresh.end(), prefix.begin(), prefix.end());
    VerificationCost cost;
    cost.kvCache = kvCache;
    cost.prefixLength = static_cast<int>(prefix.size());
    for (int m = 1; m <= maxM; ++m)
        cost.seconds.push_back(timeExtension(
            target, kvCache, prefix, std::span<const TokenId>(fresh).first(static_cast<std::size_t>(m)), repeats));
    for (double s : cost.seconds)
        cost.v.push_back(cost.seconds[0] > 0.0 ? s / cost.seconds[0] : 1.0);
    if (draft) {
        cost.draftSeconds = timeExtension(*draft, kvCache, prefix, std::span<const TokenId>(fresh).first(1), repeats);
        cost.c = cost.seconds[0] > 0.0 ? cost.draftSeconds / cost.seconds[0] : 0.0;
    }
    return cost;
}

} // namespace specdec
