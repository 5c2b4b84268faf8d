// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The executor's float matrix product, C = A · B (+ bias), with B packed into column panels.
//
//   s_0 = 0,  s_{q+1} = fma(A[i,q], B[q,j], s_q),  C[i, j] = s_k + bias[j]
//
// Each element is one sum in ascending k with one rounding per fused multiply-add (A[i,q] B[q,j] + s_q rounded
// once), the same on every instruction-set path (InstructionSet.h): vectors run along j, never along k, so the
// vector width does not change the order. Work is split over column panels, so results do not depend on
// the thread count either. Weights are packed once at load; other right-hand sides are packed per call.

#include "onnx/ModelMemory.h"

#include <cstdint>
#include <map>
#include <memory>
#include <tuple>

namespace specdec::nn {

class ThreadPool;

/// A [k, n] float matrix as panels of kPanelWidth columns: panel p holds B[0.., 16p..16p+15] row after
/// row (k-major, 16 floats per row), the last panel zero-padded. The layout is the same for every path.
class PackedMatrix
{
public:
    static constexpr std::int64_t kPanelWidth = 16;

    PackedMatrix() = default;
    /// Packs B(r, c) = b[r * rowStride + c * colStride] for r < k, c < n (a transposed B swaps the strides).
    PackedMatrix(const float *b, std::int64_t k, std::int64_t n, std::int64_t rowStride, std::int64_t colStride);

    /// Floats held by all packed matrices alive now (tests check that a graph packs each weight once).
    static std::int64_t liveFloats();

    std::int64_t rows() const { return m_k; }
    std::int64_t cols() const { return m_n; }
    std::int64_t panels() const { return (m_n + kPanelWidth - 1) / kPanelWidth; }
    const float *data() const { return m_data.get(); }

private:
    struct FreeDeleter
    {
        std::int64_t count; ///< floats allocated
        void operator()(float *p) const;
    };
    std::int64_t m_k = 0, m_n = 0;
    MemoryClaim m_claim; ///< its bytes, counted against the model memory limit
    std::unique_ptr<float[], FreeDeleter> m_data{nullptr, FreeDeleter{0}};
};

class Tensor;

/// The packed copies of a graph's constant matrices while it loads: every node that multiplies by the same
/// constant (a MatMul, and the fused node that replaces it with the MatMul kept as its fallback) shares one.
class PackedWeights
{
public:
    /// The packed form of a constant float [k, n] matrix, packed on first request.
    std::shared_ptr<const PackedMatrix> get(const Tensor &w);

private:
    std::map<std::tuple<const float *, std::int64_t, std::int64_t>, std::shared_ptr<const PackedMatrix>> m_packed;
};

/// What runs on each element of C after the sum (and the bias).
enum class GemmEpilogue { None = 0, Gelu = 1 }; ///< Gelu: the tanh form, x / (1 + exp(-2u)) (Kernels.h)

/// C[i, j] for i < m, j < B.cols() (rows of A and C at strides lda and ldc); bias (B.cols() floats) or nullptr.
/// With `residual` (rows at stride ldr), C = (A · B + bias, then the epilogue) + residual.
void gemmPacked(const float *a, std::int64_t lda, const PackedMatrix &b, const float *bias, float *c, std::int64_t ldc,
                std::int64_t m, ThreadPool &pool, GemmEpilogue epilogue = GemmEpilogue::None,
                const float *residual = nullptr, std::int64_t ldr = 0);

} // namespace specdec::nn
