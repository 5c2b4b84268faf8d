// SPDX-License-Identifier: GPL-3.0-or-later
#include "LanguageModel.h"

#include "Error.h"

#include <chrono>

namespace specdec {

void LanguageModel::distributions(std::span<const TokenId> sequence, int m, DistributionMatrix &out)
{
    if (m < 1 || static_cast<std::size_t>(m) > sequence.size() + 1)
        throw Error("model asked for " + std::to_string(m) + " positions of a sequence of "
                    + std::to_string(sequence.size()) + " tokens");
    const auto start = std::chrono::steady_clock::now();
    out.resize(m, m_vocabulary.size());
    compute(sequence, m, out);
    const auto stop = std::chrono::steady_clock::now();
    ++m_stats.calls;
    m_stats.positions += m;
    m_stats.seconds += std::chrono::duration<double>(stop - start).count();
}

} // namespace specdec
