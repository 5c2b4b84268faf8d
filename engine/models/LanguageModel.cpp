// SPDX-License-Identifier: GPL-3.0-or-later
#include "LanguageModel.h"

#include "DecodingState.h"
#include "Error.h"

#include <chrono>

namespace specdec {

void LanguageModel::distributions(std::span<const TokenId> sequence, int m, DistributionMatrix &out)
{
    if (m < 1 || static_cast<std::size_t>(m) > sequence.size() + 1)
        throw Error("model asked for " + std::to_string(m) + " positions of a sequence of "
                    + std::to_string(sequence.size()) + " tokens");
    const auto start = std::chrono::steady_clock::now();
    out.resize(m, m_tokenizer.size());
    compute(sequence, m, out);
    const auto stop = std::chrono::steady_clock::now();
    ++m_stats.calls;
    m_stats.positions += m;
    m_stats.seconds += std::chrono::duration<double>(stop - start).count();
}

void LanguageModel::batchDistributions(std::span<const SequenceRequest> requests, std::vector<DistributionMatrix> &out)
{
    if (requests.empty())
        throw Error("model asked for a batch of no sequences");
    std::int64_t positions = 0;
    for (const SequenceRequest &r : requests) {
        if (r.m < 1 || static_cast<std::size_t>(r.m) > r.sequence.size() + 1)
            throw Error("model asked for " + std::to_string(r.m) + " positions of a sequence of "
                        + std::to_string(r.sequence.size()) + " tokens");
        positions += r.m;
    }
    const auto start = std::chrono::steady_clock::now();
    out.resize(requests.size());
    for (std::size_t i = 0; i < requests.size(); ++i)
        out[i].resize(requests[i].m, m_tokenizer.size());
    computeBatch(requests, out);
    const auto stop = std::chrono::steady_clock::now();
    ++m_stats.calls;
    m_stats.positions += positions;
    m_stats.seconds += std::chrono::duration<double>(stop - start).count();
}

void LanguageModel::computeBatch(std::span<const SequenceRequest> requests, std::vector<DistributionMatrix> &out)
{
    for (std::size_t i = 0; i < requests.size(); ++i)
        compute(requests[i].sequence, requests[i].m, out[i]);
}

std::unique_ptr<DecodingState> LanguageModel::newState(bool kvCache)
{
    return makeState(*this, kvCache);
}

std::unique_ptr<DecodingState> LanguageModel::makeState(LanguageModel &counter, bool)
{
    return std::make_unique<DecodingState>(*this, counter);
}

} // namespace specdec
