// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Metrics of a token-tree run, computed in one place from its tree traces.

#include "TreeTrace.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace specdec {

struct TreeMetrics
{
    int rounds = 0;
    int generatedTokens = 0;       ///< committed by all rounds (before cutting to the requested count)
    int drafted = 0;               ///< nodes drafted
    int accepted = 0;              ///< nodes accepted (on the accepted paths)
    int maxDepth = 0;
    std::int64_t targetCalls = 0;
    std::int64_t draftCalls = 0;
    std::int64_t targetRows = 0;   ///< rows the verifications scored
    double tokensPerTargetCall = 0.0;   ///< generated / target calls: the speedup counted in target passes
    double acceptedPerTargetCall = 0.0; ///< accepted drafts / target calls
    double nodesPerAcceptedToken = 0.0; ///< drafted / accepted (0 when nothing was accepted)
    /// Depth d (index d - 1): rounds whose path accepted a child at depth d / rounds that tested depth d.
    std::vector<double> perDepthAcceptance;
    std::vector<int> perDepthTested;
    /// Mean over tested depths of the exact one-node acceptance 1 - prod_j (1 - beta_j), beside the measured
    /// fraction of tested depths where a child was accepted.
    double exactNodeAcceptance = 0.0;
    double measuredNodeAcceptance = 0.0;
    int testedNodes = 0;
    double targetSeconds = 0.0;
    double draftSeconds = 0.0;
    double seconds = 0.0;
    std::optional<double> speedupWallClock; ///< autoregressive seconds / tree seconds, when measured
};

TreeMetrics computeTreeMetrics(const std::vector<TreeTrace> &rounds, double seconds,
                               std::optional<double> baselineSeconds = std::nullopt);

} // namespace specdec
