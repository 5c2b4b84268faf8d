// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Metrics of a speculative run, computed in one place from its round traces (by a MetricsAccumulator).

#include "RoundTrace.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace specdec {

struct RunMetrics
{
    int rounds = 0;
    int generatedTokens = 0; ///< tokens committed by all rounds (before cutting to the requested count)
    int drafted = 0;         ///< draft tokens proposed
    int tested = 0;          ///< draft tokens that faced the test (up to and including each rejection)
    int accepted = 0;        ///< draft tokens that passed
    int maxDraftLength = 0;
    /// alpha-hat = accepted / tested: the estimated probability that a drafted token passes, the alpha of
    /// E[N] (a geometric model of the first rejection).
    double acceptanceRate = 0.0;
    double draftAcceptance = 0.0;              ///< accepted / drafted (the "accept %" of llama.cpp)
    std::vector<double> perPositionAcceptance; ///< position i: accepted_i / tested_i (NaN when never tested)
    std::vector<int> perPositionTested;
    double tokensPerRound = 0.0; ///< generatedTokens / rounds
    double meanOverlap = 0.0;    ///< mean beta = sum min(p, q) over tested positions: E[beta] = alpha
    double meanTotalVariation = 0.0;
    std::int64_t targetCalls = 0;
    std::int64_t draftCalls = 0;
    double targetSeconds = 0.0;
    double draftSeconds = 0.0;
    /// c = T_draft(1) / T_target(1): the run's mean draft call over the mean step of its autoregressive baseline
    /// (Leviathan et al.'s c; the same quantity VerificationCost::c measures before a run). NaN without a baseline.
    double costRatio = 0.0;
    /// V(K+1) in this run: its mean target call (one verification) over the same baseline step. NaN without a
    /// baseline. With costRatio, the costs a prediction of this run uses (calibratedCost, VerificationCost.h).
    double verificationRatio = 0.0;
    double expectedTokensPerRound = 0.0; ///< E[N] at alpha-hat and the mean K
    double speedupForwardPasses = 0.0;   ///< generated tokens / target calls (autoregressive: 1 per token)
    double speedupCostModel = 0.0;       ///< (1 - a^{K+1}) / ((1 - a)(Kc + 1)) at alpha-hat, K, c (NaN without c)
    std::int64_t targetFed = 0;          ///< positions the target's state computed (KV cache entries written)
    std::int64_t targetDiscarded = 0;    ///< target cache entries removed by rollbacks
    std::int64_t draftDiscarded = 0;     ///< draft cache entries removed by rollbacks
    std::int64_t cacheDiscarded = 0;     ///< both
    std::int64_t cacheRefills = 0;       ///< window refills past the context (both models)
    /// targetDiscarded / targetFed: the share of the target's computed positions that rejection threw away.
    double rejectedComputeShare = 0.0;
    std::optional<double> speedupWallClock; ///< autoregressive seconds / speculative seconds, when measured
    double seconds = 0.0;
};

/// Metrics of `rounds`; `seconds` is the run's wall time, `baselineSeconds` that of an autoregressive run of
/// the same target for the same number of tokens (when measured).
RunMetrics computeMetrics(const std::vector<RoundTrace> &rounds, double seconds,
                          std::optional<double> baselineSeconds = std::nullopt);

} // namespace specdec
