// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// StateCountingModel: a test model that answers with another model's distributions and records every decoding
// state asked of it, with its KV-cache flag — how the suites count the caches a run (or a lane) allocates.

#include "DecodingState.h"
#include "LanguageModel.h"

#include <memory>
#include <string>
#include <vector>

namespace specdec::test {

/// A model that answers with `inner`'s distributions and records every state asked of it (with its KV flag).
class StateCountingModel final : public LanguageModel
{
public:
    explicit StateCountingModel(LanguageModel &inner)
        : LanguageModel(inner.tokenizer())
        , m_inner(inner)
    {
    }
    std::string describe() const override { return "counting " + m_inner.describe(); }
    bool hasKvCache() const override { return true; }
    std::vector<bool> states; ///< the kvCache flag of each state made, in order

protected:
    void compute(std::span<const TokenId> sequence, int m, DistributionMatrix &out) override
    {
        m_inner.distributions(sequence, m, out);
    }
    std::unique_ptr<DecodingState> makeState(LanguageModel &counter, bool kvCache) override
    {
        states.push_back(kvCache);
        return LanguageModel::makeState(counter, kvCache);
    }

private:
    LanguageModel &m_inner;
};

} // namespace specdec::test
