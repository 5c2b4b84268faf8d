// SPDX-License-Identifier: GPL-3.0-or-later
#include "AutoregressiveRun.h"

#include <chrono>

namespace specdec {

AutoregressiveRun::AutoregressiveRun(LanguageModel &target, const SamplerSettings &sampler, std::uint64_t seed,
                                     std::vector<TokenId> prompt, bool kvCache)
    : m_target(target)
    , m_sampler(sampler)
    , m_rng(seed)
    , m_sequence(std::move(prompt))
    , m_state(target.newState(kvCache))
{
    m_sampler.validate();
}

double AutoregressiveRun::generate(int tokens)
{
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < tokens; ++i) {
        m_state->extend(std::span<const TokenId>(m_sequence).subspan(static_cast<std::size_t>(m_state->length())), 1,
                        m_row);
        auto p = m_row.row(0).transpose();
        applySampler(m_sampler, p);
        m_sequence.push_back(m_sampler.greedy() ? argmax(p) : m_rng.categorical(p));
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    m_generated += std::max(0, tokens);
    m_seconds += seconds;
    return seconds;
}

} // namespace specdec
