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
    std::int64_t fed = 0;               ///< positions computed by the model (new tokens plus refills)
    std::int64_t discarded = 0;         ///< cache entries removed by truncate() (rollbacks)
    std::int64_t refills = 0;           ///< times the cache was recomputed from a new window start
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
    /// syncTo() for a sequence that continues the state's tokens (the decoders' case: between rounds the text
    /// only grows, or is cut at its end): compares the last kFollowChecked tokens the two share, O(1) at any
    /// length, and falls back to syncTo()'s full comparison when one differs. A caller that edits a token
    /// further back starts a new state (syncTo() compares every token, O(length)).
    int followTo(std::span<const TokenId> sequence);
    static constexpr std::size_t kFollowChecked = 64;

    /// Token trees: appends `shared` (the tokens every branch continues, e.g. the last committed token) and
    /// scores every branch after it in one counted call: out[b] (m x V) holds the distributions after each of
    /// the last m prefixes of tokens() + shared + branches[b]. All branches have one length n_b, 1 <= m <=
    /// n_b + 1. The state then holds tokens() + shared and keeps each branch's cache entries (one row per
    /// branch, the committed prefix's cache shared by all rows) until keepBranch(); a later call whose
    /// branches continue these rows (shared empty, each branch = a row + new tokens) feeds only the new
    /// tokens after them; any other call discards them. Throws Error for bad branches, m or tokens; the state
    /// is then as before without branches.
    void extendBranches(std::span<const TokenId> shared, std::span<const std::vector<TokenId>> branches, int m,
                        std::vector<DistributionMatrix> &out);
    /// Appends the first `count` tokens of branch `branch` of the last extendBranches() (their cache entries
    /// are kept, no call) and discards the other entries of the branch rows: rows x n_b - count, returned and
    /// counted in stats().discarded. Throws Error when there are no such branch or tokens.
    int keepBranch(int branch, int count);
    /// Discards the entries of the last extendBranches()'s branch rows (returned; 0 when there are none).
    int dropBranches();
    /// Branch rows kept since the last extendBranches() (0: none).
    int branchRows() const { return static_cast<int>(m_branches.size()); }

    const DecodingStateStats &stats() const { return m_stats; }

protected:
    /// Computes the rows after the state's tokens grew by `added` (already appended to tokens()).
    virtual void compute(int added, int m, DistributionMatrix &out);
    /// Drops what is kept beyond `length` tokens; returns the entries discarded.
    virtual int discardFrom(int length);
    /// Computes the rows of extendBranches() (tokens() already holds the shared tokens, `sharedAdded` of
    /// them new). Where `parents` is not empty, branch b continues row parents[b] of the branches kept so far,
    /// whose tokens are its first `reused`. The default runs the model's batched call on the whole sequences.
    virtual void computeBranches(int sharedAdded, std::span<const std::vector<TokenId>> branches,
                                 std::span<const int> parents, int reused, int m, std::vector<DistributionMatrix> &out);
    /// keepBranch()'s and dropBranches()' work on what the state keeps beyond tokens() (counts are the base's).
    virtual void keepBranchEntries(int branch, int count);
    virtual void dropBranchEntries();
    DecodingStateStats m_stats;
    int m_extraRuns = 0; ///< forward passes beyond the first in this compute() (window refills): counted as calls

private:
    LanguageModel &m_model;
    LanguageModel &m_counter;
    std::vector<TokenId> m_tokens;
    std::vector<std::vector<TokenId>> m_branches; ///< the branch rows kept by extendBranches()
};

} // namespace specdec
