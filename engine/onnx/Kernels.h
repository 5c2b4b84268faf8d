// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The executor's hot kernels, compiled once per instruction-set path (kernels/baseline.cpp, avx2.cpp,
// avx512.cpp) from the same templates, and the table of the path in use (InstructionSet.h). Private to the
// executor: Gemm.h and Attention.h are the interfaces the operators use.

#include <cstdint>

namespace specdec::nn::kernels {

/// The columns of panels [panelBegin, panelEnd) of C = A · B (+ bias) (+ epilogue) (+ residual R, rows at
/// stride ldr) for all m rows (Gemm.h). bias and res may be nullptr.
using GemmPanelsFn = void (*)(const float *a, std::int64_t lda, const float *panels, std::int64_t k, std::int64_t n,
                              std::int64_t panelBegin, std::int64_t panelEnd, const float *bias, const float *res,
                              std::int64_t ldr, float *c, std::int64_t ldc, std::int64_t m, int epilogue);

/// One (batch, key/value head) of attention for each of `heads` query heads g that read it,
/// Y_g = softmax(where(keep_g, scale ⊙ Q_g Kᵀ, fill) + mask_g) V, with element strides:
/// Q_g(i, d) = q[g qHead + i qRow + d qCol], K(j, d), V(j, e), mask_g(i, j) (nullptr: none), keep_g(i, j) (nullptr:
/// all kept), Y_g(i, e); ⊙ multiplies by scale, or divides by it when `divide`.
struct AttentionHead
{
    const float *q;
    std::int64_t qRow, qCol;
    const float *k;
    std::int64_t kRow, kCol;
    const float *v;
    std::int64_t vRow, vCol;
    const float *mask;
    std::int64_t maskRow, maskCol;
    float *y;
    std::int64_t yRow, yCol;
    std::int64_t tq, tk, dk, dv; ///< tq: the rows of each query head
    std::int64_t heads, qHead, maskHead, keepHead, yHead;
    float scale;
    bool divide;      ///< scores fl(q · k / scale) rather than fl(q · k · scale)
    const bool *keep; ///< where false, the score is `fill` (Where(keep, scores, fill)) before the mask is added
    std::int64_t keepRow, keepCol;
    float fill;
    /// kRow == 1 and each row d of Kᵀ has roundUp16(tk) readable floats: the keys are read in place.
    bool keysPadded;
    float *scratch; ///< attentionScratchFloats(tk, dk, dv) floats
};
using AttentionFn = void (*)(const AttentionHead &head);

inline std::int64_t roundUp16(std::int64_t x)
{
    return (x + 15) / 16 * 16;
}
constexpr int kAttentionRows = 4;
inline std::int64_t attentionScratchFloats(std::int64_t tk, std::int64_t dk, std::int64_t dv)
{
    return dk * roundUp16(tk) + tk * roundUp16(dv) + (2 + kAttentionRows) * roundUp16(tk)
        + kAttentionRows * (roundUp16(dk) + roundUp16(dv)) + 16;
}

/// y[i] = gelu(x[i]) (tanh form) for i < n.
using GeluFn = void (*)(const float *x, float *y, std::int64_t n);

/// LayerNormalization of `rows` rows of n floats (normalize.inc); bias, meanOut, invOut may be nullptr.
using LayerNormFn = void (*)(const float *x, const float *scale, const float *bias, float *y, std::int64_t rows,
                             std::int64_t n, float epsilon, float *meanOut, float *invOut);

struct Table
{
    GemmPanelsFn gemmPanels;
    AttentionFn attention;
    GeluFn gelu;
    LayerNormFn layerNorm;
};

const Table &baselineTable();
const Table &avx2Table();
const Table &avx512Table();
/// The table of activeInstructionSet().
const Table &active();

} // namespace specdec::nn::kernels
