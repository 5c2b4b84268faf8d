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

bool OnnxKvState::enterWindow(std::int64_t start, std::int64_t keepTo, bool straddling)
{
    if (start == m_start && m_end > m_start)
        return false;
    if (spareHolds(start)) {
        std::swap(m_kv, m_spare.kv);
        std::swap(m_cache, m_spare.cache);
        std::swap(m_start, m_spare.start);
        std::swap(m_end, m_spare.end);
        return false;
    }
    const bool left = m_end > m_start; // (in another window: the cache's own returned above)
    // The window left stays as the spare (the spare's buffers become the new window's) once a call's rows have
    // straddled a boundary: a state whose calls never do (autoregressive decoding) never rolls back into it.
    if (left && (straddling || m_spare.kept)) {
        if (m_inPlace && m_spare.kv.capacity() == 0) {
            try {
                m_spare.kv = m_onnx.newCache();
            } catch (const Error &) {
                // No room for a second cache under the memory limit: the window left is dropped, as before the
                // spare, and refilled if a rollback wants it again.
            }
        }
        if (!m_inPlace || m_spare.kv.capacity() > 0) {
            std::swap(m_kv, m_spare.kv);
            std::swap(m_cache, m_spare.cache);
            m_spare.start = m_start;
            m_spare.end = std::max(m_start, std::min(m_end, keepTo));
            m_spare.kept = true;
        }
    }
    clearCache();
    m_start = start;
    m_end = start;
    return left;
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
            std::memcpy(dst + h * entries * hd, src + h * past * hd,
                        static_cast<std::size_t>(entries * hd) * sizeof(float));
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
    std::int64_t fedTo = m_end; // the cache's end before this call's run in its window (what a spare keeps)
    while (j < m) {
        const std::int64_t start = m_onnx.windowStart(n - m + 1 + j);
        int last = j;
        while (last + 1 < m && m_onnx.windowStart(n - m + 1 + last + 1) == start)
            ++last;
        const std::int64_t end = n - m + 1 + last;
        const std::int64_t firstFed = n - m + j; // the token whose logits give row j
        if (enterWindow(start, fedTo, runs > 0)) {
            ++m_stats.refills;
            m_stats.refilledPositions += std::max<std::int64_t>(0, std::min(end, before) - start);
        }
        if (m_end > firstFed) // the rows ask for positions already cached: recompute them
            m_end = std::max(m_start, firstFed);
        fedTo = m_end;
        const nn::Tensor logits = run(
            sequence.subspan(static_cast<std::size_t>(m_end), static_cast<std::size_t>(end - m_end)));
        for (int row = j; row <= last; ++row)
            m_onnx.softmaxAt(logits, n - m + row - m_end, out.row(row));
        ++runs;
        m_stats.fed += end - m_end;
        m_end = end;
        j = last + 1;
    }
    m_extraRuns = runs - 1;
}

OnnxKvState::RowEntries OnnxKvState::copyOut(std::int64_t from, std::int64_t to)
{
    RowEntries e;
    const std::int64_t n = e.positions = to - from;
    const std::int64_t stride = m_kv.rowStride(), capacity = m_kv.capacity();
    for (std::size_t pair = 0; pair < m_kv.pairs(); ++pair) {
        const nn::KvCache::PairShape &sh = m_kv.shape(pair);
        const float *keys = m_kv.keys(pair);
        const float *values = m_kv.values(pair);
        std::vector<float> &k = e.keys.emplace_back(static_cast<std::size_t>(sh.heads * sh.keyDim * n));
        std::vector<float> &v = e.values.emplace_back(static_cast<std::size_t>(sh.heads * n * sh.valueDim));
        for (std::int64_t row = 0; row < sh.heads * sh.keyDim; ++row) // K(h, d, j) at (h keyDim + d) stride + j
            std::memcpy(k.data() + row * n, keys + row * stride + from, static_cast<std::size_t>(n) * sizeof(float));
        for (std::int64_t h = 0; h < sh.heads; ++h) // V(h, j, e) at (h capacity + j) valueDim + e
            std::memcpy(v.data() + h * n * sh.valueDim, values + (h * capacity + from) * sh.valueDim,
                        static_cast<std::size_t>(n * sh.valueDim) * sizeof(float));
    }
    return e;
}

void OnnxKvState::copyIn(const RowEntries &e, std::int64_t at, std::int64_t count)
{
    const std::int64_t n = e.positions;
    const std::int64_t stride = m_kv.rowStride(), capacity = m_kv.capacity();
    if (count < 0 || count > n || at + count > capacity)
        throw Error("internal: a branch row of " + std::to_string(n) + " positions cannot give " + std::to_string(count)
                    + " at " + std::to_string(at));
    m_kv.truncate(at);
    m_kv.beginRun();
    for (std::size_t pair = 0; pair < m_kv.pairs(); ++pair) {
        const nn::KvCache::PairShape &sh = m_kv.shape(pair);
        float *keys = m_kv.keys(pair);
        float *values = m_kv.values(pair);
        for (std::int64_t row = 0; row < sh.heads * sh.keyDim; ++row)
            std::memcpy(keys + row * stride + at, e.keys[pair].data() + row * n,
                        static_cast<std::size_t>(count) * sizeof(float));
        for (std::int64_t h = 0; h < sh.heads; ++h)
            std::memcpy(values + (h * capacity + at) * sh.valueDim, e.values[pair].data() + h * n * sh.valueDim,
                        static_cast<std::size_t>(count * sh.valueDim) * sizeof(float));
        m_kv.written(pair, at + count);
    }
    m_kv.commitRun();
}

std::vector<nn::Tensor> OnnxKvState::runBranchRows(const std::vector<std::vector<TokenId>> &rows,
                                                   std::span<const int> parents)
{
    const std::size_t B = rows.size();
    std::vector<nn::Tensor> logits(B);
    if (!m_inPlace) {
        std::vector<const std::vector<nn::Tensor> *> pasts(B, &m_cache);
        std::int64_t past = m_end - m_start;
        if (parents.empty()) {
            if (m_end == m_start)
                m_cache.clear();
            else
                cutCache(past);
        } else {
            for (std::size_t b = 0; b < B; ++b)
                pasts[b] = &m_rows[static_cast<std::size_t>(parents[b])];
            past = pasts[0]->empty() ? 0 : (*pasts[0])[0].dim(2);
        }
        std::vector<std::vector<nn::Tensor>> presents;
        m_onnx.runRowsWithPast(rows, past, pasts, logits, presents);
        m_rows = std::move(presents);
        return logits;
    }
    // In place: the rows run one after the other on the one cache, each after the base (and the entries of the
    // row it continues, copied back in); each row's own new entries are copied out (a few positions each).
    const std::int64_t base = parents.empty() ? m_end - m_start : m_rowsBase;
    std::vector<RowEntries> entries(B);
    for (std::size_t b = 0; b < B; ++b) {
        m_kv.truncate(base);
        std::int64_t own = 0;
        if (!parents.empty()) {
            const RowEntries &parent = m_rowEntries[static_cast<std::size_t>(parents[b])];
            copyIn(parent, base, parent.positions);
            own = parent.positions;
        }
        logits[b] = m_onnx.runCached(rows[b], m_kv);
        entries[b] = copyOut(base, base + own + static_cast<std::int64_t>(rows[b].size()));
    }
    m_rowEntries = std::move(entries);
    m_rowsBase = base;
    m_lastRowRun = B - 1;
    return logits;
}

void OnnxKvState::adoptRow(std::size_t row, std::int64_t entries)
{
    // The row's first `entries` positions after the rows' base become the cache's: [m_rowsStart, ... + base + entries).
    if (m_inPlace) {
        if (row != m_lastRowRun || m_kv.length() < m_rowsBase + entries)
            copyIn(m_rowEntries[row], m_rowsBase, entries);
    } else {
        m_cache = m_rows[row]; // shares the buffers; cut when the next run needs it
    }
    m_start = m_rowsStart;
    m_end = m_rowsStart + m_rowsBase + entries;
}

void OnnxKvState::computeBranches(int /*sharedAdded*/, std::span<const std::vector<TokenId>> branches,
                                  std::span<const int> parents, int reused, int m, std::vector<DistributionMatrix> &out)
{
    const std::span<const TokenId> sequence = tokens();
    const auto c = static_cast<std::int64_t>(sequence.size());
    const auto n = static_cast<std::int64_t>(branches[0].size());
    const auto B = branches.size();
    const std::int64_t first = c + n - m + 1; // row j scores the prefix of length first + j (of every branch)
    if (first < 1)
        throw Error("the ONNX model needs at least one prompt token");
    const std::size_t kept = m_inPlace ? m_rowEntries.size() : m_rows.size();
    const bool haveParents = !parents.empty()
        && kept > static_cast<std::size_t>(*std::max_element(parents.begin(), parents.end()));
    const bool oneWindow = m_onnx.windowStart(first) == m_onnx.windowStart(first + m - 1);
    // A tree's next depth: each branch continues a kept row, so only its new tokens are fed after that row.
    const bool fromRows = haveParents && oneWindow && m_onnx.windowStart(first) == m_rowsStart && first - 1 >= c + reused;
    std::vector<std::vector<TokenId>> rows(B);
    if (fromRows) {
        for (std::size_t b = 0; b < B; ++b)
            rows[b].assign(branches[b].begin() + reused, branches[b].end());
        const std::int64_t fedFrom = c + reused; // sequence index of each row's first fed token
        const std::vector<nn::Tensor> logits = runBranchRows(rows, parents);
        m_stats.fed += static_cast<std::int64_t>(B) * (n - reused);
        for (std::size_t b = 0; b < B; ++b)
            for (int j = 0; j < m; ++j)
                m_onnx.softmaxAt(logits[b], first + j - 1 - fedFrom, out[b].row(j));
        m_extraRuns = 0;
        return;
    }
    if (!parents.empty()) {
        m_stats.discarded += static_cast<std::int64_t>(parents.size()) * reused;
        // The rows' committed part [m_rowsStart, c) becomes the cache (what a chain's state would hold).
        if (haveParents)
            adoptRow(static_cast<std::size_t>(parents[0]), c - m_rowsStart - m_rowsBase);
    }
    int j = 0;
    int runs = 0;
    std::int64_t fedTo = m_end;
    std::vector<nn::Tensor> logits;
    while (j < m) {
        const std::int64_t start = m_onnx.windowStart(first + j);
        int last = j;
        while (last + 1 < m && m_onnx.windowStart(first + last + 1) == start)
            ++last;
        const std::int64_t end = first + last; // the group's longest prefix (c + n for the last group)
        // A cache in another window (an earlier group's counts) is left for an empty one: a refill, unless the
        // spare holds this window.
        const bool another = (m_end > m_start || runs > 0) && start != m_start;
        const bool fromSpare = spareHolds(start);
        enterWindow(start, fedTo, runs > 0);
        if (another && !fromSpare) {
            ++m_stats.refills;
            m_stats.refilledPositions += std::max<std::int64_t>(0, c - 1 - start);
        }
        m_end = std::max(m_start, std::min(m_end, first + j - 1)); // row j needs its last token fed
        // A long unfed stretch before the branch point (the prompt, a refilled window) is fed once, in a
        // one-row run, rather than in every branch row.
        if (B > 1 && c - 1 - m_end > n + 1) {
            run(sequence.subspan(static_cast<std::size_t>(m_end), static_cast<std::size_t>(c - 1 - m_end)));
            m_stats.fed += c - 1 - m_end;
            m_end = c - 1;
            ++runs;
        }
        const std::int64_t fedFrom = fedTo = m_end;
        for (std::size_t b = 0; b < B; ++b) {
            rows[b].assign(sequence.begin() + fedFrom, sequence.end());
            rows[b].insert(rows[b].end(), branches[b].begin(), branches[b].begin() + (end - c));
        }
        logits = runBranchRows(rows, {});
        m_stats.fed += static_cast<std::int64_t>(B) * (end - fedFrom);
        ++runs;
        for (std::size_t b = 0; b < B; ++b)
            for (int row = j; row <= last; ++row)
                m_onnx.softmaxAt(logits[b], first + row - 1 - fedFrom, out[b].row(row));
        j = last + 1;
    }
    // The last group's rows hold the whole branches (their window is the cache's).
    m_rowsStart = m_start;
    if (!m_inPlace)
        m_rowsBase = 0; // the presents hold every position from the window start
    m_extraRuns = runs - 1;
}

void OnnxKvState::keepBranchEntries(int branch, int count)
{
    const std::size_t kept = m_inPlace ? m_rowEntries.size() : m_rows.size();
    if (static_cast<std::size_t>(branch) >= kept)
        return;
    // The kept row's [m_rowsStart, length()) + its first `count` tokens become the cache.
    adoptRow(static_cast<std::size_t>(branch), static_cast<std::int64_t>(length()) + count - m_rowsStart - m_rowsBase);
    dropBranchEntries();
}

void OnnxKvState::dropBranchEntries()
{
    m_rows.clear();
    m_rowEntries.clear();
}

int OnnxKvState::discardFrom(int length)
{
    m_spare.end = std::max(m_spare.start, std::min<std::int64_t>(m_spare.end, length)); // it holds the sequence
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
