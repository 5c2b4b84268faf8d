// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// VerificationCost: what verifying K + 1 positions costs compared with one decoding step, measured.
//
// \f[ V(m) = \frac{T_\mathrm{target}(m \text{ new positions})}{T_\mathrm{target}(1)}, \qquad
//     c = \frac{T_\mathrm{draft}(1)}{T_\mathrm{target}(1)} \f]
// both through the models' decoding states (with the KV cache when it is on), at the pasts a run's calls follow
// and with the draft called right after the target, as in a round (CostProbe). Leviathan et al.'s Theorem 3.8
// assumes V = 1; with a cache on a CPU a step is compute-bound and V(m) grows with m, so the speedup is
// E[N] / (V(K+1) + K c) (theory::generalisedSpeedup).

#include "LanguageModel.h"

#include <span>
#include <vector>

namespace specdec {

struct VerificationCost
{
    std::vector<double> v;       ///< v[m - 1] = V(m), m = 1..maxM (v[0] = 1)
    std::vector<double> seconds; ///< T_target(m): median seconds of one call extending by m positions
    double draftSeconds = 0.0;   ///< T_draft(1), a round's draft call (CostProbe), 0 without a draft
    double c = 0.0;              ///< T_draft(1) / T_target(1)
    bool kvCache = false;        ///< measured through the models' key/value caches
    int prefixLength = 0;        ///< the middle past the extensions followed (the prompt's length without a run)
    bool fromRun = false;        ///< c and V(K+1) are a run's own (calibratedCost), not measured before it

    /// V(m) for 1 <= m <= v.size(); throws Error outside.
    double at(int m) const;
};

/// Where the extensions of measureVerificationCost happen: a run's calls follow longer and longer pasts, and its
/// draft calls come right after a target call (which, on a memory-bound target, has evicted the draft's weights).
struct CostProbe
{
    /// Tokens the run will write: the extensions follow pasts spread over the middle half of the run (prompt +
    /// runTokens / 4 .. prompt + 3 runTokens / 4, the draft's consecutive, so that its window moves at a run's
    /// rate past its context); 0: every extension follows the prompt.
    int runTokens = 0;
    /// Draft calls per round (K): each timing of the draft is the mean of K calls right after a target call.
    int draftCalls = 1;
};

/// Times the target extending a state by m = 1..maxM positions, `repeats` times each after a warm-up (medians),
/// and rounds of `probe.draftCalls` draft calls after each of those (mean), at the pasts `probe` says (the
/// prompt, then its own tokens again: any valid tokens cost the same). The calls are counted in the models'
/// stats like any others. Throws Error for an empty prefix, maxM < 1 or repeats < 1.
VerificationCost measureVerificationCost(LanguageModel &target, LanguageModel *draft, std::span<const TokenId> prefix,
                                         int maxM, bool kvCache, int repeats = 7, CostProbe probe = {});

struct RunMetrics;

/// The costs a prediction of a run uses, one c and one V per output: c = the run's own (RunMetrics::costRatio)
/// and V(K+1) = the verification this run measured — every call of the run, against the few calls measured
/// before it (`prompt`, named for where they once were). The other V(m) keep the measured shape:
/// V(m) - 1 scaled by (V_run(K+1) - 1) / (V_prompt(K+1) - 1), or, where that curve is flat, the line from
/// V(1) = 1 through V_run(K+1). Without a baseline (c NaN) `prompt` as measured.
VerificationCost calibratedCost(const VerificationCost &prompt, const RunMetrics &metrics, int k);

} // namespace specdec
