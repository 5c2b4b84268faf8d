// SPDX-License-Identifier: GPL-3.0-or-later
#include "DecodingState.h"

#include "Error.h"

#include <algorithm>
#include <chrono>

namespace specdec {

DecodingState::DecodingState(LanguageModel &model, LanguageModel &counter)
    : m_model(model)
    , m_counter(counter)
{
}

DecodingState::~DecodingState() = default;

void DecodingState::extend(std::span<const TokenId> tokens, int m, DistributionMatrix &out)
{
    const int before = length();
    const int after = before + static_cast<int>(tokens.size());
    if (m < 1 || m > after + 1)
        throw Error("model asked for " + std::to_string(m) + " positions of a sequence of " + std::to_string(after)
                    + " tokens");
    const int V = m_model.vocabulary().size();
    for (TokenId t : tokens)
        if (t < 0 || t >= V)
            throw Error(m_model.describe() + ": token id " + std::to_string(t) + " is outside the vocabulary of "
                        + std::to_string(V));
    m_tokens.insert(m_tokens.end(), tokens.begin(), tokens.end());
    const auto start = std::chrono::steady_clock::now();
    out.resize(m, V);
    m_extraRuns = 0;
    try {
        compute(static_cast<int>(tokens.size()), m, out);
    } catch (...) {
        m_tokens.resize(static_cast<std::size_t>(before));
        discardFrom(before);
        throw;
    }
    const auto stop = std::chrono::steady_clock::now();
    CallStats &stats = m_counter.m_stats;
    stats.calls += 1 + m_extraRuns;
    m_extraRuns = 0;
    stats.positions += m;
    stats.seconds += std::chrono::duration<double>(stop - start).count();
}

void DecodingState::compute(int added, int m, DistributionMatrix &out)
{
    m_stats.fed += added;
    m_model.compute(m_tokens, m, out);
}

int DecodingState::discardFrom(int length)
{
    return std::max(0, this->length() - length);
}

int DecodingState::truncate(int length)
{
    if (length < 0)
        throw Error("a decoding state cannot be truncated to " + std::to_string(length) + " tokens");
    if (length >= this->length())
        return 0;
    const int discarded = discardFrom(length);
    m_tokens.resize(static_cast<std::size_t>(length));
    m_stats.discarded += discarded;
    return discarded;
}

int DecodingState::syncTo(std::span<const TokenId> sequence)
{
    const auto limit = std::min(m_tokens.size(), sequence.size());
    std::size_t common = 0;
    while (common < limit && m_tokens[common] == sequence[common])
        ++common;
    return truncate(static_cast<int>(common));
}

} // namespace specdec
