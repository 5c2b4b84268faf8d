// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Whole generations: N tokens by autoregressive decoding (the baseline) or by speculative decoding.

#include "LanguageModel.h"
#include "RoundTrace.h"
#include "SpeculativeDecoder.h"

#include <functional>
#include <vector>

namespace specdec {

struct Generation
{
    std::vector<TokenId> tokens;     ///< exactly the requested number of new tokens
    std::vector<RoundTrace> rounds;  ///< speculative only
    double seconds = 0.0;            ///< wall time of the whole generation
    CallStats target;                ///< the target's calls during this generation
    CallStats draft;                 ///< the draft's calls (speculative only)
};

/// Called after each round (or token) with the tokens generated so far; return false to stop early.
using ProgressCallback = std::function<bool(int generated, int wanted)>;

/// The baseline: one target call per token, x_t ~ sampler(p(. | x_<t)).
Generation generateAutoregressive(LanguageModel &target, const SamplerSettings &sampler, std::uint64_t seed,
                                  std::vector<TokenId> prompt, int tokens, const ProgressCallback &progress = {});

/// Rounds of SpeculativeDecoder until `tokens` new tokens exist; the last round's surplus is cut off.
Generation generateSpeculative(LanguageModel &target, LanguageModel &draft, const DecodingSettings &settings,
                               std::vector<TokenId> prompt, int tokens, const ProgressCallback &progress = {});

} // namespace specdec
