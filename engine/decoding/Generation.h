// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Whole generations: N tokens by autoregressive decoding (the baseline, AutoregressiveRun) or by speculative
// decoding (the rounds of SpeculativeRun, kept), for callers that want the whole run at once.

#include "LanguageModel.h"
#include "RoundTrace.h"
#include "RunReport.h"
#include "SpeculativeDecoder.h"
#include "TreeTrace.h"

#include <functional>
#include <vector>

namespace specdec {

struct Generation
{
    std::vector<TokenId> tokens;         ///< the requested number of new tokens, or fewer: see endOfText
    bool endOfText = false;              ///< the target wrote its end-of-text token, the last of `tokens`
    std::vector<RoundTrace> rounds;      ///< speculative with chains only
    std::vector<TreeTrace> treeRounds;   ///< speculative with token trees only
    double seconds = 0.0;                ///< decoding seconds of the whole generation
    CallStats target;                    ///< the target's calls during this generation (a baseline's apart)
    CallStats draft;                     ///< the draft's calls (speculative only)
    RunReport report;                    ///< speculative only: the run's report (SpeculativeRun)
    std::vector<TokenId> baselineTokens; ///< speculative with a baseline: the baseline's text
};

/// Called after each round (or token) with the tokens generated so far; return false to stop early.
using ProgressCallback = std::function<bool(int generated, int wanted)>;

/// The baseline: one target call per token, x_t ~ sampler(p(. | x_<t)), through one DecodingState (with
/// `kvCache`, the model's key/value cache: each call feeds one new token), until `tokens` new tokens exist or
/// the target writes one of its end-of-text ids (LanguageModel::endOfText), as the speculative run ends.
Generation generateAutoregressive(LanguageModel &target, const SamplerSettings &sampler, std::uint64_t seed,
                                  std::vector<TokenId> prompt, int tokens, const ProgressCallback &progress = {},
                                  bool kvCache = true);

/// The rounds of a SpeculativeRun (chains, or token trees when settings.tree is set) until `tokens` new tokens
/// exist or the target writes its end-of-text token, every round kept; `baseline`: the autoregressive baseline
/// played alongside (report.baseline).
Generation generateSpeculative(LanguageModel &target, LanguageModel &draft, const DecodingSettings &settings,
                               std::vector<TokenId> prompt, int tokens, const ProgressCallback &progress = {},
                               bool baseline = false);

} // namespace specdec
