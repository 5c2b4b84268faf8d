// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Drafts that exist to teach: a draft that knows nothing, and a draft that is the target itself.

#include "LanguageModel.h"

namespace specdec {

/// q = 1/V everywhere. Acceptance then equals p(x)·V capped at 1: a lower bound for any real draft.
class UniformModel final : public LanguageModel
{
public:
    explicit UniformModel(Tokenizer tokenizer)
        : LanguageModel(std::move(tokenizer))
    {
    }
    std::string describe() const override { return "uniform"; }

protected:
    void compute(std::span<const TokenId> sequence, int m, DistributionMatrix &out) override;
};

/// The target used as its own draft (q = p): every drafted token is accepted. Its calls are counted apart
/// from the target's, as a separate draft model's would be.
class SameAsTargetModel final : public LanguageModel
{
public:
    explicit SameAsTargetModel(LanguageModel &target)
        : LanguageModel(target.tokenizer())
        , m_target(target)
    {
    }
    std::string describe() const override { return "same"; }
    bool hasKvCache() const override { return m_target.hasKvCache(); }

protected:
    void compute(std::span<const TokenId> sequence, int m, DistributionMatrix &out) override;
    /// The target's own kind of state (its cache), counted as this draft's calls.
    std::unique_ptr<DecodingState> makeState(LanguageModel &counter, bool kvCache) override;

private:
    LanguageModel &m_target;
};

} // namespace specdec
