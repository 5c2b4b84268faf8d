// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// AutoregressiveRun: the autoregressive baseline played in steps, x_t ~ sampler(p(. | x_<t)), one target
// call per token. generate(n) continues where the last call stopped, so a window can time the baseline
// for the tokens each speculative round committed, round by round, and the sum is the time of one whole
// generateAutoregressive run of the same length (same prompt, seed and sampler: the same tokens). The target
// decodes through one DecodingState (with `kvCache`, its key/value cache: one new token per call).

#include "DecodingState.h"
#include "LanguageModel.h"
#include "Random.h"
#include "Sampler.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace specdec {

class AutoregressiveRun
{
public:
    AutoregressiveRun(LanguageModel &target, const SamplerSettings &sampler, std::uint64_t seed,
                      std::vector<TokenId> prompt, bool kvCache = true);

    /// Generates `tokens` more tokens; returns the wall seconds they took.
    double generate(int tokens);

    const std::vector<TokenId> &sequence() const { return m_sequence; }
    int generated() const { return m_generated; }
    double seconds() const { return m_seconds; }

private:
    LanguageModel &m_target;
    SamplerSettings m_sampler;
    Rng m_rng;
    std::vector<TokenId> m_sequence;
    std::unique_ptr<DecodingState> m_state;
    DistributionMatrix m_row;
    int m_generated = 0;
    double m_seconds = 0.0;
};

} // namespace specdec
