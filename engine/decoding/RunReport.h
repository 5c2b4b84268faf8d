// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// RunReport: the numbers of one speculative run, chain or tree, in one definition — the metrics of its accepted
// path (RunMetrics: alpha-hat = accepted / tested, tokens per round, calls, c, the speedups), the tokens and
// decoding seconds of the run and, when one was played alongside, of its autoregressive baseline, and what a
// tree adds (nodes drafted, positions verified). SpeculativeRun makes it; the CLI renders it as text or as JSON
// with one schema for chains and trees (docs/cli.md); the window's history holds the same RunMetrics.

#include "LanguageModel.h"
#include "Metrics.h"
#include "TokenTree.h"

#include <cstdint>
#include <optional>

namespace specdec {

/// The autoregressive baseline of a run: the same target, sampler, seed and KV-cache setting, played for the
/// same tokens in the same steps (SpeculativeRun).
struct BaselineReport
{
    int tokens = 0;
    double seconds = 0.0;
    CallStats target; ///< its target calls (one per token, + window refills)

    double tokensPerSecond() const { return seconds > 0.0 ? tokens / seconds : 0.0; }
    /// Seconds per baseline step (per target call).
    double stepSeconds() const { return target.secondsPerCall(); }
};

struct RunReport
{
    RunMetrics metrics;                 ///< of the accepted path, chain or tree (MetricsAccumulator)
    int draftLength = 0;                ///< K, or the tree's depth
    TreeShape tree;                     ///< the shape of a tree run; empty for a chain run
    int tokens = 0;                     ///< tokens written (the last round's surplus cut)
    bool endOfText = false;             ///< the run ended at the target's end-of-text token (the last written)
    double seconds = 0.0;               ///< decoding seconds (RoundCore::teachingSeconds left out)
    std::int64_t nodesDrafted = 0;      ///< tokens drafted: K per chain round, every node of a tree
    std::int64_t verifiedPositions = 0; ///< positions the verification calls scored (Round::verifiedPositions)
    CallStats target;                   ///< the run's target calls (the baseline's apart)
    CallStats draft;
    std::optional<BaselineReport> baseline;

    bool isTree() const { return !tree.empty(); }
    double tokensPerSecond() const { return seconds > 0.0 ? tokens / seconds : 0.0; }
    /// Drafted tokens per accepted token (1 / draft acceptance for chains); 0 when nothing was accepted.
    double nodesPerAcceptedToken() const
    {
        return metrics.accepted > 0 ? static_cast<double>(nodesDrafted) / metrics.accepted : 0.0;
    }
};

} // namespace specdec
