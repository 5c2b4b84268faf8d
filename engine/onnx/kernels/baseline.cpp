// SPDX-License-Identifier: GPL-3.0-or-later
// The baseline path of the kernels (x86-64: SSE2, four floats per register; elsewhere one float).
// Compiled with -ffp-contract=off, like the other paths; its fused multiply-add (V::fma) is emulated exactly.
#include "onnx/Kernels.h"

#include <cmath>
#include <cstdint>
#include <initializer_list>
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
    /// a · b + c rounded once, as the FMA instruction computes it. SSE2 has none: a · b is exact in double (24 +
    /// 24 significant bits), + c rounds to double, and rounding that to float is the exact result unless the
    /// double landed exactly on a midpoint between two floats (low 29 bits of its mantissa 0x10000000: two
    /// roundings may differ from one), is below FLT_MIN (a subnormal float rounds at another bit) or is not
    /// finite; such lanes, rare, take std::fma.
    static Reg fma(Reg a, Reg b, Reg c)
    {
        const __m128d s0 = _mm_add_pd(_mm_mul_pd(_mm_cvtps_pd(a), _mm_cvtps_pd(b)), _mm_cvtps_pd(c));
        const __m128d s1 = _mm_add_pd(_mm_mul_pd(_mm_cvtps_pd(_mm_movehl_ps(a, a)), _mm_cvtps_pd(_mm_movehl_ps(b, b))),
                                      _mm_cvtps_pd(_mm_movehl_ps(c, c)));
        const __m128i low = _mm_set1_epi64x(0x1fffffff), midpoint = _mm_set1_epi64x(0x10000000);
        const __m128d magnitude = _mm_castsi128_pd(_mm_set1_epi64x(0x7fffffffffffffff));
        const __m128d smallest = _mm_set1_pd(1.1754943508222875e-38), largest = _mm_set1_pd(1.7976931348623157e308);
        int suspect = 0;
        for (const __m128d s : {s0, s1}) {
            // (the low dword of each 64-bit lane holds the low 29 bits: lanes 0 and 2 of the 32-bit compare)
            const int tie = _mm_movemask_ps(
                _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(_mm_castpd_si128(s), low), midpoint)));
            const __m128d abs = _mm_and_pd(s, magnitude);
            const int range = _mm_movemask_pd(
                _mm_or_pd(_mm_and_pd(_mm_cmplt_pd(abs, smallest), _mm_cmpneq_pd(abs, _mm_setzero_pd())),
                          _mm_cmpnle_pd(abs, largest))); // (NaN compares not-less-equal too)
            suspect |= (tie & 0x5) | range;
        }
        if (suspect) {
            alignas(16) float x[4], y[4], z[4];
            _mm_store_ps(x, a);
            _mm_store_ps(y, b);
            _mm_store_ps(z, c);
            for (int l = 0; l < 4; ++l)
                z[l] = std::fma(x[l], y[l], z[l]);
            return _mm_load_ps(z);
        }
        return _mm_movelh_ps(_mm_cvtpd_ps(s0), _mm_cvtpd_ps(s1));
    }
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

constexpr int padRows(int)
{
    return 0;
}
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
