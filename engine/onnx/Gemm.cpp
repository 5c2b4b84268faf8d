// SPDX-License-Identifier: GPL-3.0-or-later
#include "onnx/Gemm.h"

#include "Error.h"
#include "onnx/InstructionSet.h"
#include "onnx/Kernels.h"
#include "onnx/Tensor.h"
#include "onnx/ThreadPool.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace specdec::nn {

namespace {
std::atomic<std::int64_t> g_liveFloats{0};
constexpr std::size_t kHugePage = std::size_t{2} << 20;
} // namespace

void PackedMatrix::FreeDeleter::operator()(float *p) const
{
    g_liveFloats.fetch_sub(count, std::memory_order_relaxed);
    std::free(p);
}

std::int64_t PackedMatrix::liveFloats()
{
    return g_liveFloats.load(std::memory_order_relaxed);
}

std::shared_ptr<const PackedMatrix> PackedWeights::get(const Tensor &w)
{
    auto &packed = m_packed[{w.data<float>(), w.dim(0), w.dim(1)}];
    if (!packed)
        packed = std::make_shared<const PackedMatrix>(w.data<float>(), w.dim(0), w.dim(1), w.dim(1), 1);
    return packed;
}

PackedMatrix::PackedMatrix(const float *b, std::int64_t k, std::int64_t n, std::int64_t rowStride, std::int64_t colStride)
    : m_k(k)
    , m_n(n)
{
    const std::int64_t count = std::max<std::int64_t>(panels() * kPanelWidth * k, 16);
    // Matrices of 2 MiB or more go on 2 MiB boundaries, asking for huge pages: the products stream them with
    // one TLB entry per 2 MiB instead of one per 4 KiB.
    const std::size_t raw = static_cast<std::size_t>(count) * sizeof(float);
    const std::size_t align = raw >= kHugePage ? kHugePage : 64;
    const std::size_t bytes = (raw + align - 1) / align * align;
    m_claim = MemoryClaim(bytes, "a packed " + std::to_string(k) + " x " + std::to_string(n) + " weight matrix");
    float *buffer = static_cast<float *>(std::aligned_alloc(align, bytes));
#if defined(__linux__)
    if (buffer && align == kHugePage)
        madvise(buffer, bytes, MADV_HUGEPAGE); // advice only: without it the pages are 4 KiB
#endif
    if (!buffer)
        throw Error("out of memory packing a " + std::to_string(k) + " x " + std::to_string(n) + " matrix");
    g_liveFloats.fetch_add(count, std::memory_order_relaxed);
    m_data = std::unique_ptr<float[], FreeDeleter>(buffer, FreeDeleter{count});
    float *out = m_data.get();
    for (std::int64_t p = 0; p < panels(); ++p)
        for (std::int64_t r = 0; r < k; ++r)
            for (std::int64_t x = 0; x < kPanelWidth; ++x) {
                const std::int64_t col = p * kPanelWidth + x;
                *out++ = col < n ? b[r * rowStride + col * colStride] : 0.0f;
            }
}

namespace {

constexpr std::int64_t kMinTaskWork = 1 << 20; // multiply-adds per task, at least
constexpr std::int64_t kMaxTasks = 16;
// A product of few rows costs what streaming its weights from memory costs, about as much as the arithmetic of
// this many rows: it is split as if it had them (a cached step's products of 1 MiB of weights go to 2 tasks).
constexpr std::int64_t kStreamRows = 8;

} // namespace

void gemmPacked(const float *a, std::int64_t lda, const PackedMatrix &b, const float *bias, float *c, std::int64_t ldc,
                std::int64_t m, ThreadPool &pool, GemmEpilogue epilogue, const float *residual, std::int64_t ldr)
{
    const std::int64_t k = b.rows(), n = b.cols(), panels = b.panels();
    if (m <= 0 || n <= 0)
        return;
    const kernels::GemmPanelsFn kernel = kernels::active().gemmPanels;
    // Task boundaries depend on the shape only (whole pairs of panels); each C element is computed by one
    // task in the same order whatever the split, so the thread count never changes a result.
    const std::int64_t work = std::max(m, kStreamRows) * n * std::max<std::int64_t>(k, 1);
    const std::int64_t tasks = std::clamp<std::int64_t>(work / kMinTaskWork, 1, std::min(kMaxTasks, (panels + 1) / 2));
    const std::int64_t chunk = ((panels + tasks - 1) / tasks + 1) / 2 * 2;
    const std::int64_t count = (panels + chunk - 1) / chunk;
    auto task = [&](std::int64_t t) {
        const std::int64_t begin = t * chunk, end = std::min(panels, begin + chunk);
        kernel(a, lda, b.data(), k, n, begin, end, bias, residual, ldr, c, ldc, m, static_cast<int>(epilogue));
    };
    if (count == 1 || pool.threads() == 1) {
        for (std::int64_t t = 0; t < count; ++t)
            task(t);
        return;
    }
    pool.run(count, task);
}

} // namespace specdec::nn

namespace specdec::nn::kernels {

const Table &active()
{
    switch (activeInstructionSet()) {
    case InstructionSet::Avx512: return avx512Table();
    case InstructionSet::Avx2: return avx2Table();
    case InstructionSet::Baseline: break;
    }
    return baselineTable();
}

} // namespace specdec::nn::kernels
