// SPDX-License-Identifier: GPL-3.0-or-later
// The AVX2 path of the kernels: eight floats per register, six rows by one panel per product tile (two panels
// for one or two rows: sixteen registers in all).
// Compiled with -mavx2 -mfma and -ffp-contract=off: the products' sums use FMA where the templates say so
// (V::fma), and nothing else is fused.
#include "onnx/Kernels.h"

#include <cmath>
#include <cstdint>

#if defined(__AVX2__)
#include <immintrin.h>

namespace specdec::nn::kernels_avx2 {

#include "vecmath.inc"

struct V
{
    using Reg = __m256;
    static constexpr int W = 8;
    static Reg zero() { return _mm256_setzero_ps(); }
    static Reg load(const float *p) { return _mm256_loadu_ps(p); }
    static void store(float *p, Reg r) { _mm256_storeu_ps(p, r); }
    static Reg set1(float x) { return _mm256_set1_ps(x); }
    static Reg add(Reg a, Reg b) { return _mm256_add_ps(a, b); }
    static Reg sub(Reg a, Reg b) { return _mm256_sub_ps(a, b); }
    static Reg mul(Reg a, Reg b) { return _mm256_mul_ps(a, b); }
    static Reg fma(Reg a, Reg b, Reg c) { return _mm256_fmadd_ps(a, b, c); }
    static Reg div(Reg a, Reg b) { return _mm256_div_ps(a, b); }
    static Reg min(Reg a, Reg b) { return _mm256_min_ps(a, b); }
    static Reg max(Reg a, Reg b) { return _mm256_max_ps(a, b); }
    static Reg pow2(Reg n)
    {
        return _mm256_castsi256_ps(
            _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvttps_epi32(n), _mm256_set1_epi32(127)), 23));
    }
    static Reg zeroBelow(Reg x, float threshold, Reg r)
    {
        return _mm256_andnot_ps(_mm256_cmp_ps(x, set1(threshold), _CMP_LT_OQ), r);
    }
    static bool allAtMost(Reg x, float t) { return _mm256_movemask_ps(_mm256_cmp_ps(x, set1(t), _CMP_LE_OQ)) == 0xFF; }
};
constexpr int kMaxRows = 6;
constexpr int kMaxPanels = 2;
constexpr int panelsForRows(int mr)
{
    return mr <= 2 ? 2 : 1;
}
// Measured on an AMD EPYC (Zen 3) with 100 MB of weights: prefetching 128 rows of k (8 KiB of a panel) ahead
// made a product of 3-6 rows 15-30 % faster (the memory streams while the tile computes), and a 1-row
// product 10 % slower (the hardware prefetcher alone keeps up with it). On a Zen 4 (SPECDEC_ISA=avx2, kjv
// target-large, one thread) 256 rows ahead into L2 instead of 128 into L1 took V(5) from 1.33-1.39 to
// 1.07-1.12 and V(8) from 2.04-2.06 to 1.58-1.66.
constexpr int kPrefetchFromRows = 3;
constexpr int kPrefetchDistance = 256; // rows of k
constexpr int kPrefetchLocality = 2;

constexpr int padRows(int)
{
    return 0;
}
#include "gemm_tile.inc"
#include "normalize.inc"

// after normalize.inc: attention uses its laneSum16
#include "attention.inc"

} // namespace specdec::nn::kernels_avx2

namespace specdec::nn::kernels {
const Table &avx2Table()
{
    static const Table table{kernels_avx2::gemmPanels, kernels_avx2::attentionHeadImpl, kernels_avx2::geluImpl,
                             kernels_avx2::layerNormImpl};
    return table;
}
} // namespace specdec::nn::kernels

#else // not an x86-64 compiler: the path is never chosen (InstructionSet.cpp)
namespace specdec::nn::kernels {
const Table &avx2Table()
{
    return baselineTable();
}
} // namespace specdec::nn::kernels
#endif
