// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Prompt lookup decoding as a draft: copy what followed the last time the context's tail appeared.

#include "LanguageModel.h"

namespace specdec {

/// `lookup:N`. For a context ending in tokens t_{n-N+1..n}, find the latest earlier position where the same
/// N tokens occur and propose the token that followed them: q is one-hot on it, so acceptance equals p of the
/// proposed token. With no match of length N, shorter tails N-1 .. 1 are tried; with none at all, q is uniform.
class PromptLookupModel final : public LanguageModel
{
public:
    PromptLookupModel(Tokenizer tokenizer, int n);
    std::string describe() const override { return "lookup:" + std::to_string(m_n); }

    /// The proposed next token after `prefix`, or -1 when no tail of it occurred before.
    TokenId propose(std::span<const TokenId> prefix) const;

protected:
    void compute(std::span<const TokenId> sequence, int m, DistributionMatrix &out) override;

private:
    int m_n;
};

} // namespace specdec
