// SPDX-License-Identifier: GPL-3.0-or-later
// The baseline path of the kernels (x86-64: SSE2, four floats per register; elsewhere one float).
// Compiled with -ffp-contract=off, like the other paths.
#include "onnx/Kernels.h"

#include <cstdint>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace specdec::nn::kernels_baseline {

#include "vecmath.inc"

#if defined(__SSE2__)
struct V
{
    using Reg = __m128;
    static constexpr int W = 4;
    static Reg zero() { return _mm_setzero_ps(); }
    static Reg load(const float *p) { return _mm_loadu_ps(p); }
    static void store(float *p, Reg r) { _mm_storeu_ps(p, r); }
    static Reg set1(float x) { return _mm_set1_ps(x); }
    static Reg add(Reg a, Reg b) { return _mm_add_ps(a, b); }
    static Reg sub(Reg a, Reg b) { return _mm_sub_ps(a, b); }
    static Reg mul(Reg a, Reg b) { return _mm_mul_ps(a, b); }
    static Reg div(Reg a, Reg b) { return _mm_div_ps(a, b); }
    static Reg min(Reg a, Reg b) { return _mm_min_ps(a, b); }
    static Reg max(Reg a, Reg b) { return _mm_max_ps(a, b); }
    static Reg pow2(Reg n)
    {
        return _mm_castsi128_ps(_mm_slli_epi32(_mm_add_epi32(_mm_cvttps_epi32(n), _mm_set1_epi32(127)), 23));
    }
    static Reg zeroBelow(Reg x, float threshold, Reg r) { return _mm_andnot_ps(_mm_cmplt_ps(x, set1(threshold)), r); }
    static bool allAtMost(Reg x, float t) { return _mm_movemask_ps(_mm_cmple_ps(x, set1(t))) == 0xF; }
};
constexpr int kMaxRows = 2;
#else
using V = V1;
constexpr int kMaxRows = 4;
#endif
constexpr int kMaxPanels = 1;
constexpr int panelsForRows(int)
{
    return 1;
}
constexpr int kPrefetchFromRows = 1000; // none
constexpr int kPrefetchDistance = 16;   // rows of k
constexpr int kPrefetchLocality = 3;

#include "gemm_tile.inc"
#include "normalize.inc"

// after normalize.inc: attention uses its laneSum16
#include "attention.inc"

} // namespace specdec::nn::kernels_baseline

namespace specdec::nn::kernels {
const Table &baselineTable()
{
    static const Table table{kernels_baseline::gemmPanels, kernels_baseline::attentionHeadImpl,
                             kernels_baseline::geluImpl, kernels_baseline::layerNormImpl};
    return table;
}
} // namespace specdec::nn::kernels
