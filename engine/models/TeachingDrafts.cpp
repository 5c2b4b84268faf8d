// SPDX-License-Identifier: GPL-3.0-or-later
#include "TeachingDrafts.h"

#include "DecodingState.h"

namespace specdec {

void UniformModel::compute(std::span<const TokenId>, int, DistributionMatrix &out)
{
    out.setConstant(1.0 / tokenizer().size());
}

void SameAsTargetModel::compute(std::span<const TokenId> sequence, int m, DistributionMatrix &out)
{
    // The target's forward pass, counted as this draft's call and not as the target's.
    m_target.compute(sequence, m, out);
}

std::unique_ptr<DecodingState> SameAsTargetModel::makeState(LanguageModel &counter, bool kvCache)
{
    return m_target.makeState(counter, kvCache);
}

} // namespace specdec
