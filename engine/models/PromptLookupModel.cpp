// SPDX-License-Identifier: GPL-3.0-or-later
#include "PromptLookupModel.h"

#include "Error.h"

#include <algorithm>

namespace specdec {

PromptLookupModel::PromptLookupModel(Tokenizer tokenizer, int n)
    : LanguageModel(std::move(tokenizer))
    , m_n(n)
{
    if (n < 1 || n > 16)
        throw Error("prompt lookup length must be between 1 and 16, got " + std::to_string(n));
}

TokenId PromptLookupModel::propose(std::span<const TokenId> prefix) const
{
    const std::size_t length = prefix.size();
    for (std::size_t n = std::min<std::size_t>(static_cast<std::size_t>(m_n), length); n >= 1; --n) {
        const auto tail = prefix.subspan(length - n);
        // Latest earlier occurrence: it must end before the last token so that a follower exists.
        for (std::size_t end = length - 1; end >= n; --end) {
            if (std::equal(tail.begin(), tail.end(), prefix.begin() + static_cast<std::ptrdiff_t>(end - n)))
                return prefix[end];
        }
    }
    return -1;
}

void PromptLookupModel::compute(std::span<const TokenId> sequence, int m, DistributionMatrix &out)
{
    const std::size_t n = sequence.size();
    for (int r = 0; r < m; ++r) {
        const std::size_t length = n + 1 - static_cast<std::size_t>(m) + static_cast<std::size_t>(r);
        const TokenId next = propose(sequence.first(length));
        if (next < 0) {
            out.row(r).setConstant(1.0 / tokenizer().size());
        } else {
            out.row(r).setZero();
            out(r, next) = 1.0;
        }
    }
}

} // namespace specdec
