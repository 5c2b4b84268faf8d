// SPDX-License-Identifier: GPL-3.0-or-later
// The AVX-512 path of the kernels: sixteen floats per register; product tiles of up to sixteen rows by one
// panel, four panels for one to four rows (measured on an AMD EPYC: 16 rows instead of 8 and the prefetch made the
// 16-row products of the shipped models 10-20 % faster, several panels the 1- and 2-row products 10-20 %; two
// panels for 5-8 rows were slower). Tiles of five rows or more prefetch their panel 256 rows of k (16 KiB) ahead
// into L2: a one-panel tile's loads alone keep too few lines in flight to stream from memory, and prefetches into
// L1 hold the core's few L1 miss buffers. Tiles of three and four rows stream best as four panels without
// prefetches, as the one-row tiles do. Measured on an AMD EPYC Zen 4, kjv target-large, one thread, past 128,
// medians of 6 alternating runs: V(3..8) of a cached step 1.37, 1.41, 1.10, 1.22, 1.37, 1.50 with mul then add and
// 2 panels for 3-4 rows, 1.15, 1.17, 1.13, 1.14, 1.27, 1.41 with FMA and these tiles (64 rows ahead into L1 had
// read V(5) 1.34-1.39, V(8) 1.64-1.72). The products' sums use FMA (V::fma); the file is compiled with
// -ffp-contract=off, so nothing else is fused.
#include "onnx/Kernels.h"

#include <cmath>
#include <cstdint>

#if defined(__AVX512F__)
#include <immintrin.h>

namespace specdec::nn::kernels_avx512 {

#include "vecmath.inc"

struct V
{
    using Reg = __m512;
    static constexpr int W = 16;
    static Reg zero() { return _mm512_setzero_ps(); }
    static Reg load(const float *p) { return _mm512_loadu_ps(p); }
    static void store(float *p, Reg r) { _mm512_storeu_ps(p, r); }
    static Reg set1(float x) { return _mm512_set1_ps(x); }
    static Reg add(Reg a, Reg b) { return _mm512_add_ps(a, b); }
    static Reg sub(Reg a, Reg b) { return _mm512_sub_ps(a, b); }
    static Reg mul(Reg a, Reg b) { return _mm512_mul_ps(a, b); }
    static Reg fma(Reg a, Reg b, Reg c) { return _mm512_fmadd_ps(a, b, c); }
    static Reg div(Reg a, Reg b) { return _mm512_div_ps(a, b); }
    static Reg min(Reg a, Reg b) { return _mm512_min_ps(a, b); }
    static Reg max(Reg a, Reg b) { return _mm512_max_ps(a, b); }
    static Reg pow2(Reg n)
    {
        return _mm512_castsi512_ps(
            _mm512_slli_epi32(_mm512_add_epi32(_mm512_cvttps_epi32(n), _mm512_set1_epi32(127)), 23));
    }
    static Reg zeroBelow(Reg x, float threshold, Reg r)
    {
        // keep r where x is not below the threshold (NaN included), as the other paths do
        return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(x, set1(threshold), _CMP_NLT_UQ), r);
    }
    static bool allAtMost(Reg x, float t) { return _mm512_cmp_ps_mask(x, set1(t), _CMP_LE_OQ) == 0xFFFF; }
};
constexpr int kMaxRows = 16;
constexpr int kMaxPanels = 4;
constexpr int panelsForRows(int mr)
{
    return mr <= 4 ? 4 : 1;
}
constexpr int kPrefetchFromRows = 5;   // measured: tiles of up to 4 rows (four panels) ran slower with it
constexpr int kPrefetchDistance = 256; // rows of k (16 KiB of one panel; 64 into L1 left 5-row tiles waiting)
constexpr int kPrefetchLocality = 2;   // into L2

// A tile of five rows computes a sixth of zeros that nobody reads. Measured on the Zen 4, kjv target-large, one
// thread, the command (`onnx_bench ... --lengths 127+1,123+5,120+8`, 12 alternating rounds): right after a
// one-row call, a 5-row product streamed its weights more slowly than a 6-row one (V(5) 1.26-1.31, V(6) 1.10-1.14);
// the sixth FMA per step, which only paces the loop, took V(5) to 1.11-1.20 (mul then add, twice the instructions,
// read 1.12-1.22). Why the faster loop streams worse is not known: this core's counters are not visible here.
constexpr int padRows(int mr)
{
    return mr == 5 ? 1 : 0;
}
#include "gemm_tile.inc"
#include "normalize.inc"

// after normalize.inc: attention uses its laneSum16
#include "attention.inc"

} // namespace specdec::nn::kernels_avx512

namespace specdec::nn::kernels {
const Table &avx512Table()
{
    static const Table table{kernels_avx512::gemmPanels, kernels_avx512::attentionHeadImpl, kernels_avx512::geluImpl,
                             kernels_avx512::layerNormImpl};
    return table;
}
} // namespace specdec::nn::kernels

#else // not an x86-64 compiler: the path is never chosen (InstructionSet.cpp)
namespace specdec::nn::kernels {
const Table &avx512Table()
{
    return baselineTable();
}
} // namespace specdec::nn::kernels
#endif
