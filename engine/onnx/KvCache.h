// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// KvCache: the keys and values of one sequence, held in place for a decoder-with-past graph
// (OnnxGraph::runCached). Per key/value pair of the graph (a layer), two buffers of `capacity` positions
// (the context length), allocated once:
//   keys   [heads, keyDim, rowStride]   K(h, j, d) at keys[(h keyDim + d) rowStride + j]  (transposed: the layout
//                                       attention reads, so a step copies no key)
//   values [heads, capacity, valueDim]  V(h, j, e) at values[(h capacity + j) valueDim + e]
// with rowStride = capacity rounded up to 16. Positions [0, length) are valid. A cached run writes its S new
// positions at [length, length + S) — the graph's Concat(past, new) in place, whose value the graph then sees
// as a stand-in of its shape (only its shape is read) — and attention reads the first length + S; then length
// grows by S. truncate() only moves length back (a rollback copies nothing).

#include "onnx/Tensor.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace specdec::nn {

class KvCache
{
public:
    /// The shape of one pair's past tensors [1, heads, past, keyDim] and [1, heads, past, valueDim].
    struct PairShape
    {
        std::int64_t heads = 0, keyDim = 0, valueDim = 0;
    };

    KvCache() = default;
    /// Zero-filled buffers of `capacity` positions per pair; throws Error past the tensor memory limit.
    KvCache(const std::vector<PairShape> &pairs, std::int64_t capacity);

    std::size_t pairs() const { return m_shapes.size(); }
    const PairShape &shape(std::size_t pair) const { return m_shapes[pair]; }
    std::int64_t capacity() const { return m_capacity; }
    std::int64_t rowStride() const { return m_rowStride; }
    std::int64_t length() const { return m_length; }
    /// Forgets the positions from `length` on (0 <= length <= length()).
    void truncate(std::int64_t length);

    float *keys(std::size_t pair) { return m_keys[pair].mutableData<float>(); }
    float *values(std::size_t pair) { return m_values[pair].mutableData<float>(); }

    /// Called by the append node of `pair`'s keys (or values) during a run once it has written positions
    /// [length(), end).
    void appended(std::size_t pair, bool keys, std::int64_t end) { (keys ? m_keyEnd : m_valueEnd)[pair] = end; }
    /// The end both the keys and the values of `pair` were appended to in this run; -1 if they differ or one was not.
    std::int64_t appendedEnd(std::size_t pair) const
    {
        return m_keyEnd[pair] == m_valueEnd[pair] && m_keyEnd[pair] > m_length ? m_keyEnd[pair] : -1;
    }
    /// What the graph sees of the keys (or values) of `pair` after an append to `end`: a float32 tensor
    /// [1, heads, end, dim] over the cache's buffer, for its shape only (the layout is the cache's); it lives
    /// only during the run.
    Tensor standIn(std::size_t pair, bool keys, std::int64_t end);
    /// Called by the fused attention of `pair` during a run once it has read positions [0, end).
    void written(std::size_t pair, std::int64_t end) { m_written[pair] = end; }
    /// Before a run: no pair written yet.
    void beginRun();
    /// After a run: every pair wrote up to the same end, which becomes the length; throws Error otherwise.
    void commitRun();

private:
    std::vector<PairShape> m_shapes;
    std::vector<Tensor> m_keys, m_values;
    std::vector<std::int64_t> m_written, m_keyEnd, m_valueEnd;
    std::shared_ptr<std::byte[]> m_anchor = std::make_shared<std::byte[]>(1); ///< owner of the stand-ins' views
    std::int64_t m_capacity = 0;
    std::int64_t m_rowStride = 0;
    std::int64_t m_length = 0;
};

} // namespace specdec::nn
