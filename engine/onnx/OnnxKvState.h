// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// OnnxKvState: the decoding state of an ONNX model in the decoder-with-past layout — a real key/value cache.
//
// The cache holds the keys and values of the tokens [start, end) of the state's sequence, computed in the
// window that starts at `start` (positions 0..end-start-1 of that window). extend() feeds only the tokens
// from `end` on, with the cache as past, and keeps the presents as the new cache. The window rule of
// OnnxLanguageModel decides each row's window: a row whose window start differs from the cache's refills the
// cache from the new start (one more graph run, recorded in stats().refills), so every row is the one the
// windowed path gives. truncate() only moves `end` back.
// Past the context a window's cache is kept as a spare when the rows move on to the next window: a verification
// call whose rows straddle a window boundary, followed by a rollback to before it, goes back to the spare instead
// of refilling the old window (and, a round later, the new one again). Each window boundary then costs one
// refill, as it does autoregressive decoding; the spare's end follows every rollback, so it holds the sequence.
// In place the spare is a second cache of the context length, allocated when a call's rows first straddle a
// boundary (autoregressive decoding, one row a call, never has one); where the memory limit has no room for it, the
// window left is dropped as before.
// Where the graph appends in place (OnnxLanguageModel::cachesInPlace) the cache is an nn::KvCache of the
// context length, written by the graph itself: a step copies no past and a rollback copies nothing. Otherwise
// the presents of each run are the cache, cut (a copy per head) when a run follows a rollback.

#include "DecodingState.h"
#include "onnx/KvCache.h"
#include "onnx/Tensor.h"

#include <vector>

namespace specdec {

class OnnxLanguageModel;

class OnnxKvState final : public DecodingState
{
public:
    OnnxKvState(OnnxLanguageModel &model, LanguageModel &counter);

    int cachedLength() const override { return static_cast<int>(m_end - m_start); }
    bool hasCache() const override { return true; }
    /// First token of the window the cache was computed in.
    std::int64_t cacheStart() const { return m_start; }

protected:
    void compute(int added, int m, DistributionMatrix &out) override;
    int discardFrom(int length) override;
    /// Token-tree rows: every branch row runs after the committed prefix's cache (one batch row each, see
    /// OnnxLanguageModel::runRowsWithPast), or after the kept row it continues (a tree's next depth); past the
    /// context, rows in another window than the cache's refill it first, as compute() does.
    void computeBranches(int sharedAdded, std::span<const std::vector<TokenId>> branches, std::span<const int> parents,
                         int reused, int m, std::vector<DistributionMatrix> &out) override;
    void keepBranchEntries(int branch, int count) override;
    void dropBranchEntries() override;

private:
    /// Cuts the cache tensors to `entries` positions (a copy per head; only after a rollback).
    void cutCache(std::int64_t entries);

    /// Forgets every cached position.
    void clearCache();
    /// Makes the cache the one of the window that starts at `start`: the cache itself, the spare (swapped in),
    /// or an empty one (the cache in another window becomes the spare, with its entries up to `keepTo`: what it
    /// held before this call fed it, as a token tree's rows leave it; the first spare is made when `straddling`,
    /// an earlier group of the call's rows ran in another window). True when a cache in another window had to be
    /// left for an empty one: the caller's run refills it.
    bool enterWindow(std::int64_t start, std::int64_t keepTo, bool straddling);
    /// Whether the spare holds entries of the window that starts at `start`.
    bool spareHolds(std::int64_t start) const { return m_spare.start == start && m_spare.end > m_spare.start; }
    /// Runs `tokens` after the cache (its first `m_end - m_start` positions); returns the logits.
    nn::Tensor run(std::span<const TokenId> tokens);

    OnnxLanguageModel &m_onnx;
    const bool m_inPlace;
    nn::KvCache m_kv;                ///< in place: the cache
    std::vector<nn::Tensor> m_cache; ///< else 2 per layer; their past dimension may exceed end - start until cut
    std::int64_t m_start = 0;
    std::int64_t m_end = 0;
    /// The cache of the window the rows left last (its entries [start, end) of the sequence), with its buffers.
    struct Spare
    {
        nn::KvCache kv;                ///< in place
        std::vector<nn::Tensor> cache; ///< else
        std::int64_t start = 0;
        std::int64_t end = 0;
        bool kept = false; ///< a window has been kept here (its buffers are the state's from then on)
    };
    Spare m_spare;
    /// In place: one branch row's own cache entries (positions after the base), copied out of m_kv.
    struct RowEntries
    {
        std::vector<std::vector<float>> keys, values; ///< per pair: [heads, keyDim, n] and [heads, n, valueDim]
        std::int64_t positions = 0;
    };
    /// Runs one call's branch rows (their tokens), after the base cache's first m_end - m_start positions or,
    /// with `parents`, after the kept rows they continue; keeps every row's entries; returns the logits.
    std::vector<nn::Tensor> runBranchRows(const std::vector<std::vector<TokenId>> &rows, std::span<const int> parents);
    RowEntries copyOut(std::int64_t from, std::int64_t to);
    /// Writes the first `count` positions of `entries` at `at` (m_kv's length becomes at + count).
    void copyIn(const RowEntries &entries, std::int64_t at, std::int64_t count);
    /// Makes the first `entries` positions of kept row `row` after the rows' base the cache's (no run).
    void adoptRow(std::size_t row, std::int64_t entries);

    /// The branch rows after extendBranches(): row b holds [m_rowsStart, length()) + branch b, of which the
    /// first m_rowsBase positions are the base cache's (shared by every row, in place kept in m_kv) and the rest
    /// the row's own: m_rows[b] (the presents, all positions) or, in place, m_rowEntries[b].
    std::vector<std::vector<nn::Tensor>> m_rows;
    std::vector<RowEntries> m_rowEntries;
    std::int64_t m_rowsStart = 0;
    std::int64_t m_rowsBase = 0;
    std::size_t m_lastRowRun = 0; ///< in place: the row whose entries m_kv holds after the base
};

} // namespace specdec
