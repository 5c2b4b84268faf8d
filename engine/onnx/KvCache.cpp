// SPDX-License-Identifier: GPL-3.0-or-later
#include "onnx/KvCache.h"

#include "Error.h"

namespace specdec::nn {

KvCache::KvCache(const std::vector<PairShape> &pairs, std::int64_t capacity)
    : m_shapes(pairs)
    , m_written(pairs.size(), -1)
    , m_keyEnd(pairs.size(), -1)
    , m_valueEnd(pairs.size(), -1)
    , m_capacity(capacity)
    , m_rowStride((capacity + 15) / 16 * 16)
{
    if (capacity < 1)
        throw Error("a key/value cache of " + std::to_string(capacity) + " positions");
    for (const PairShape &p : pairs) {
        if (p.heads < 1 || p.keyDim < 1 || p.valueDim < 1)
            throw Error("a key/value cache pair of " + std::to_string(p.heads) + " heads, key size "
                        + std::to_string(p.keyDim) + ", value size " + std::to_string(p.valueDim));
        m_keys.push_back(Tensor::zeros(DataType::Float32, {p.heads, p.keyDim, m_rowStride}));
        m_values.push_back(Tensor::zeros(DataType::Float32, {p.heads, capacity, p.valueDim}));
    }
}

void KvCache::truncate(std::int64_t length)
{
    if (length < 0 || length > m_length)
        throw Error("cannot cut a key/value cache of " + std::to_string(m_length) + " positions to "
                    + std::to_string(length));
    m_length = length;
}

void KvCache::beginRun()
{
    for (auto *ends : {&m_written, &m_keyEnd, &m_valueEnd})
        for (std::int64_t &w : *ends)
            w = -1;
}

Tensor KvCache::standIn(std::size_t pair, bool keys, std::int64_t end)
{
    // The buffers hold at least [heads, capacity, dim] floats (keys: rowStride >= capacity), so a reader that did
    // read the stand-in's elements would stay inside them; a writer copies them first (the anchor shares them).
    const PairShape &s = m_shapes[pair];
    if (end < 0 || end > m_capacity)
        throw Error("a key/value cache of " + std::to_string(m_capacity) + " positions cannot stand for "
                    + std::to_string(end));
    auto *data = reinterpret_cast<std::byte *>(keys ? this->keys(pair) : values(pair));
    return Tensor::adopt(DataType::Float32, {1, s.heads, end, keys ? s.keyDim : s.valueDim},
                         std::shared_ptr<std::byte[]>(m_anchor, data));
}

void KvCache::commitRun()
{
    std::int64_t end = -1;
    for (std::int64_t w : m_written) {
        if (w < 0 || (end >= 0 && w != end))
            throw Error("a cached run wrote its key/value pairs unevenly (a pair the graph never appended to, or "
                        "different lengths)");
        end = w;
    }
    if (end < m_length || end > m_capacity)
        throw Error("a cached run ended at " + std::to_string(end) + " positions (cache of "
                    + std::to_string(m_capacity) + ")");
    m_length = end;
}

} // namespace specdec::nn
