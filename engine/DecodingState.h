// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// DecodingState: what a model keeps for one sequence between calls (a real engine's key/value cache).
//
// A state holds tokens x_1..x_n. extend(t_1..t_k, m) appends k tokens and returns, in one model call, the
// next-token distributions after each of the last m prefixes of x_1..x_{n+k} (the rows of
// LanguageModel::distributions). truncate(L) rolls the state back to x_1..x_L and discards the cache entries
// of the removed positions. Speculative decoding extends the draft's state one token per call and the
// target's by K + 1 positions in one call, then truncates both to the committed prefix.
//
// The base class is the state of a model whose "cache" is its context (n-gram, uniform, lookup, and any
// model without a key/value cache): extend() calls distributions() on the whole sequence. Models with a
// cache (OnnxLanguageModel in the decoder-with-past layout) return a state that feeds only the new
// positions, past the context refilling its cache when the window start moves (see docs/model-format.md).

#include "LanguageModel.h"

#include <cstdint>
#include <span>
#include <vector>

namespace specdec {

/// What one state has done: positions computed, cache entries thrown away, window refills.
struct DecodingStateStats
{
    std::int64_t fed = 0;              ///< positions computed by the model (new tokens plus refills)
    std::int64_t discarded = 0;        ///< cache entries removed by truncate() (rollbacks)
    std::int64_t refills = 0;          ///< times the cache was recomputed from a new window start
    std::int64_t refilledPositions = 0; ///< positions those refills computed
};

class DecodingState
{
public:
    /// A state of `model` whose calls are counted in `counter`'s CallStats (normally the model itself).
    DecodingState(LanguageModel &model, LanguageModel &counter);
    virtual ~DecodingState();
    DecodingState(const DecodingState &) = delete;
    DecodingState &operator=(const DecodingState &) = delete;

    LanguageModel &model() { return m_model; }
    int length() const { return static_cast<int>(m_tokens.size()); }
    std::span<const TokenId> tokens() const { return m_tokens; }
    /// Positions whose keys and values the state keeps (length() for a state whose cache is its context;
    /// past the context, only the current window).
    virtual int cachedLength() const { return length(); }
    /// True for a state that keeps a real key/value cache.
    virtual bool hasCache() const { return false; }

    /// Appends `tokens` and fills `out` (m x V) with the distributions after each of the last m prefixes of
    /// the extended sequence, in one counted call; 1 <= m <= length() + tokens.size() (+ 1 where the model
    /// scores the empty prefix). Throws Error for a bad m or token; the state is then unchanged.
    void extend(std::span<const TokenId> tokens, int m, DistributionMatrix &out);
    /// Rolls back to the first `length` tokens (no call); returns the cache entries discarded.
    int truncate(int length);
    /// Truncates to the longest common prefix of the state and `sequence` (so that the state is a prefix of
    /// it); returns the cache entries discarded.
    int syncTo(std::span<const TokenId> sequence);

    const DecodingStateStats &stats() const { return m_stats; }

protected:
    /// Computes the rows after the state's tokens grew by `added` (already appended to tokens()).
    virtual void compute(int added, int m, DistributionMatrix &out);
    /// Drops what is kept beyond `length` tokens; returns the entries discarded.
    virtual int discardFrom(int length);
    DecodingStateStats m_stats;
    int m_extraRuns = 0; ///< forward passes beyond the first in this compute() (window refills): counted as calls

private:
    LanguageModel &m_model;
    LanguageModel &m_counter;
    std::vector<TokenId> m_tokens;
};

} // namespace specdec
