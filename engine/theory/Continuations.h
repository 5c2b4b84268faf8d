// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Distributions of whole continuations: exact (by enumeration under the target) and sampled (many
// independent generations). Comparing the two is how the lossless claim is checked.

#include "LanguageModel.h"
#include "SpeculativeDecoder.h"
#include "Statistics.h"

#include <cstdint>
#include <map>
#include <vector>

namespace specdec {

/// The seed of generation i of a batch started with `seed` (SplitMix64 of both), so batches are
/// reproducible and generations independent.
std::uint64_t deriveSeed(std::uint64_t seed, std::uint64_t index);

/// Exact probabilities of every length-M continuation of `prompt` under sampler(p):
/// \f$P(x_1..x_M) = \prod_t p'(x_t \mid \text{prompt}, x_{<t})\f$, enumerated over V^M sequences (only those with
/// non-zero probability are kept). Continuation j is index j in base V, most significant token first.
std::map<std::vector<TokenId>, double> exactContinuations(LanguageModel &target, const SamplerSettings &sampler,
                                                          const std::vector<TokenId> &prompt, int length);

enum class DecodingMode { Autoregressive, Speculative };

/// Counts of the first M tokens over `samples` independent generations (generation i seeded by
/// deriveSeed(settings.seed, i)). `draft` may be null for autoregressive mode.
std::map<std::vector<TokenId>, std::int64_t> sampleContinuations(LanguageModel &target, LanguageModel *draft,
                                                                 const DecodingSettings &settings, DecodingMode mode,
                                                                 const std::vector<TokenId> &prompt, int length,
                                                                 std::int64_t samples);

struct ContinuationFit
{
    ChiSquareResult chi;
    double totalVariation = 0.0; ///< between the sampled histogram and the exact probabilities
};

/// Pearson's test of sampled continuation counts against exact probabilities; continuations the exact
/// distribution gives probability 0 (or omits) count as impossible and make the fit fail.
ContinuationFit fitContinuations(const std::map<std::vector<TokenId>, double> &exact,
                                 const std::map<std::vector<TokenId>, std::int64_t> &counts);

} // namespace specdec
