// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Whole generations: N tokens by autoregressive decoding (the baseline) or by speculative decoding.

#include "LanguageModel.h"
#include "RoundTrace.h"
#include "SpeculativeDecoder.h"
#include "TreeTrace.h"

#include <functional>
#include <vector>

namespace specdec {

struct Generation
{
    std::vector<TokenId> tokens;     ///< exactly the requested number of new tokens
    std::vector<RoundTrace> rounds;  ///< speculative with chains only
    std::vector<TreeTrace> treeRounds; ///< speculative with token trees only
    double seconds = 0.0;            ///< wall time of the whole generation
    CallStats target;                ///< the target's calls during this generation
    CallStats draft;                 ///< the draft's calls (speculative only)
};

/// Called after each round (or token) with the tokens generated so far; return false to stop early.
using ProgressCallback = std::function<bool(int generated, int wanted)>;

/// The baseline: one target call per token, x_t ~ sampler(p(. | x_<t)), through one DecodingState (with
/// `kvCache`, the model's key/value cache: each call feeds one new token).
Generation generateAutoregressive(LanguageModel &target, const SamplerSettings &sampler, std::uint64_t seed,
                                  std::vector<TokenId> prompt, int tokens, const ProgressCallback &progress = {},
                                  bool kvCache = true);

/// Rounds of SpeculativeDecoder until `tokens` new tokens exist; the last round's surplus is cut off.
/// With a tree shape in the settings, rounds of TreeDecoder instead (in `treeRounds`).
Generation generateSpeculative(LanguageModel &target, LanguageModel &draft, const DecodingSettings &settings,
                               std::vector<TokenId> prompt, int tokens, const ProgressCallback &progress = {});

/// Rounds of TreeDecoder (settings.tree must be set) until `tokens` new tokens exist.
Generation generateTree(LanguageModel &target, LanguageModel &draft, const DecodingSettings &settings,
                        std::vector<TokenId> prompt, int tokens, const ProgressCallback &progress = {});

} // namespace specdec
