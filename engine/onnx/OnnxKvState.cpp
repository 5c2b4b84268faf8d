// SPDX-License-Identifier: GPL-3.0-or-later
#include "onnx/OnnxKvState.h"

#include "Error.h"
#include "onnx/OnnxLanguageModel.h"

#include <algorithm>
#include <cstring>

namespace specdec {

OnnxKvState::OnnxKvState(OnnxLanguageModel &model, LanguageModel &counter)
    : DecodingState(model, counter)
    , m_onnx(model)
    , m_inPlace(model.cachesInPlace())
{
    if (m_inPlace)
        m_kv = model.newCache();
}

void OnnxKvState::clearCache()
{
    if (m_inPlace)
        m_kv.truncate(0);
    else
        m_cache.clear();
}

nn::Tensor OnnxKvState::run(std::span<const TokenId> tokens)
{
    if (m_inPlace) {
        m_kv.truncate(m_end - m_start);
        return m_onnx.runCached(tokens, m_kv);
    }
    if (m_end == m_start)
        m_cache.clear();
    else
        cutCache(m_end - m_start);
    return m_onnx.runWithPast(tokens, m_end - m_start, m_cache);
}

void OnnxKvState::cutCache(std::int64_t entries)
{
    for (nn::Tensor &t : m_cache) {
        if (t.dim(2) == entries)
            continue;
        const std::int64_t heads = t.dim(1), past = t.dim(2), hd = t.dim(3);
        nn::Tensor cut(nn::DataType::Float32, {1, heads, entries, hd});
        const float *src = t.data<float>();
        float *dst = cut.mutableData<float>();
        for (std::int64_t h = 0; h < heads; ++h)
            std::memcpy(dst + h * entries * hd, src + h * past * hd, static_cast<std::size_t>(entries * hd) * sizeof(float));
        t = std::move(cut);
    }
}

void OnnxKvState::compute(int added, int m, DistributionMatrix &out)
{
    const std::span<const TokenId> sequence = tokens();
    const auto n = static_cast<std::int64_t>(sequence.size());
    if (m > n)
        throw Error("the ONNX model needs at least one prompt token");
    const std::int64_t before = n - added;
    // Rows j = 0..m-1 score the prefixes of length L = n - m + 1 + j; consecutive rows with one window start
    // form a group, computed by one run that feeds the tokens from the cache's end to the group's last prefix.
    int j = 0;
    int runs = 0;
    while (j < m) {
        const std::int64_t start = m_onnx.windowStart(n - m + 1 + j);
        int last = j;
        while (last + 1 < m && m_onnx.windowStart(n - m + 1 + last + 1) == start)
            ++last;
        const std::int64_t end = n - m + 1 + last;
        const std::int64_t firstFed = n - m + j; // the token whose logits give row j
        if (start != m_start || m_end <= m_start) {
            if (m_end > m_start && start != m_start) {
                ++m_stats.refills;
                m_stats.refilledPositions += std::max<std::int64_t>(0, std::min(end, before) - start);
            }
            clearCache();
            m_start = start;
            m_end = start;
        }
        if (m_end > firstFed) // the rows ask for positions already cached: recompute them
            m_end = std::max(m_start, firstFed);
        const nn::Tensor logits = run(sequence.subspan(static_cast<std::size_t>(m_end),
                                                       static_cast<std::size_t>(end - m_end)));
        for (int row = j; row <= last; ++row)
            m_onnx.softmaxAt(logits, n - m + row - m_end, out.row(row));
        ++runs;
        m_stats.fed += end - m_end;
        m_end = end;
        j = last + 1;
    }
    m_extraRuns = runs - 1;
}

int OnnxKvState::discardFrom(int length)
{
    if (length >= m_end)
        return 0;
    const auto discarded = static_cast<int>(m_end - std::max<std::int64_t>(length, m_start));
    if (length <= m_start) {
        clearCache();
        m_start = 0;
        m_end = 0;
    } else {
        m_end = length;
    }
    return discarded;
}

} // namespace specdec
