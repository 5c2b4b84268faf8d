// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// KvCache: the keys and values of one sequence, held in place for a decoder-with-past graph
// (OnnxGraph::runCached). Per key/value pair of the graph (a layer), two buffers of `capacity` positions
// (the context length), allocated once:
//   keys   [heads, keyDim, rowStride]   K(h, j, d) at keys[(h keyDim + d) rowStride + j]  (transposed: the layout
//                                       attention reads, so a step copies no key)
//   values [heads, capacity, valueDim]  V(h, j, e) at values[(h capacity + j) valueDim + e]
// with rowStride = capacity rounded up to 16. Positions [0, length) are valid. A cached run writes its S new
// positions at [length, length + S) — the graph's Concat(past, new) in place — and attention reads the first
// length + S; then length grows by S. truncate() only moves length back (a rollback copies nothing).

#include "onnx/Tensor.h"

#include <cstdint>
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

    /// Called by the fused node of `pair` during a run once it has written positions [length(), end).
    void written(std::size_t pair, std::int64_t end) { m_written[pair] = end; }
    /// Before a run: no pair written yet.
    void beginRun();
    /// After a run: every pair wrote up to the same end, which becomes the length; throws Error otherwise.
    void commitRun();

private:
    std::vector<PairShape> m_shapes;
    std::vector<Tensor> m_keys, m_values;
    std::vector<std::int64_t> m_written;
    std::int64_t m_capacity = 0;
    std::int64_t m_rowStride = 0;
    std::int64_t m_length = 0;
};

} // namespace specdec::nn
