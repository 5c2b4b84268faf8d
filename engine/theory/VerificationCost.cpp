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

using Clock = std::chrono::steady_clock;

double median(std::vector<double> values)
{
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2), values.end());
    return values[values.size() / 2];
}

/// Brings `state` to the first `length` tokens of `text`: a rollback (no call) or one untimed extension.
void moveTo(DecodingState &state, std::span<const TokenId> text, int length, DistributionMatrix &rows)
{
    if (state.length() > length)
        state.truncate(length);
    else if (state.length() < length)
        state.extend(
            text.subspan(static_cast<std::size_t>(state.length()), static_cast<std::size_t>(length - state.length())),
            1, rows);
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
                                         int maxM, bool kvCache, int repeats, CostProbe probe)
{
    if (prefix.empty())
        throw Error("measuring the cost of verification needs a prompt of at least one token");
    if (maxM < 1 || repeats < 1)
        throw Error("measuring the cost of verification needs m >= 1 and repeats >= 1");
    const int k = std::max(1, probe.draftCalls);
    const int run = std::max(0, probe.runTokens);
    const int lo = static_cast<int>(prefix.size()) + run / 4, hi = static_cast<int>(prefix.size()) + 3 * run / 4;
    auto pastOf = [&](int r) { return lo + (hi - lo) * r / repeats; }; // r = 0 (the warm-up) .. repeats
    std::vector<TokenId> text(prefix.begin(), prefix.end());
    while (static_cast<int>(text.size()) < hi + maxM + k)
        text.push_back(prefix[text.size() % prefix.size()]);
    const std::span<const TokenId> all(text);

    std::vector<std::vector<double>> seconds(static_cast<std::size_t>(maxM));
    double draftSum = 0.0;
    int draftRounds = 0;
    DistributionMatrix rows;
    const auto t = target.newState(kvCache);
    const auto d = draft ? draft->newState(kvCache) : nullptr;
    for (int r = 0; r <= repeats; ++r) {
        const int past = pastOf(r);
        moveTo(*t, all, past, rows);
        for (int m = 1; m <= maxM; ++m) {
            const auto start = Clock::now();
            t->extend(all.subspan(static_cast<std::size_t>(past), static_cast<std::size_t>(m)), m, rows);
            const auto stop = Clock::now();
            t->truncate(past); // (not timed: a run's rollback is part of its next call's bookkeeping)
            if (r > 0)
                seconds[static_cast<std::size_t>(m - 1)].push_back(std::chrono::duration<double>(stop - start).count());
            if (!d)
                continue;
            // A round's K draft calls, right after the target's: the draft's pasts move on by one each time.
            const int draftPast = past + m - 1;
            moveTo(*d, all, draftPast, rows);
            const auto draftStart = Clock::now();
            for (int j = 0; j < k; ++j)
                d->extend(all.subspan(static_cast<std::size_t>(draftPast + j), 1), 1, rows);
            const auto draftStop = Clock::now();
            if (r > 0) {
                draftSum += std::chrono::duration<double>(draftStop - draftStart).count() / k;
                ++draftRounds;
            }
        }
    }
    VerificationCost cost;
    cost.kvCache = kvCache;
    cost.prefixLength = (lo + hi) / 2;
    for (const auto &times : seconds)
        cost.seconds.push_back(median(times));
    for (double s : cost.seconds)
        cost.v.push_back(cost.seconds[0] > 0.0 ? s / cost.seconds[0] : 1.0);
    if (d) {
        // The mean, not the median: a draft past its context refills its window now and then, as in the run.
        cost.draftSeconds = draftSum / draftRounds;
        cost.c = cost.seconds[0] > 0.0 ? cost.draftSeconds / cost.seconds[0] : 0.0;
    }
    return cost;
}

} // namespace specdec
