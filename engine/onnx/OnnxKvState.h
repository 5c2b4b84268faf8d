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

private:
    /// Cuts the cache tensors to `entries` positions (a copy per head; only after a rollback).
    void cutCache(std::int64_t entries);

    /// Forgets every cached position.
    void clearCache();
    /// Runs `tokens` after the cache (its first `m_end - m_start` positions); returns the logits.
    nn::Tensor run(std::span<const TokenId> tokens);

    OnnxLanguageModel &m_onnx;
    const bool m_inPlace;
    nn::KvCache m_kv;                ///< in place: the cache
    std::vector<nn::Tensor> m_cache; ///< else 2 per layer; their past dimension may exceed end - start until cut
    std::int64_t m_start = 0;
    std::int64_t m_end = 0;
};

} // namespace specdec
