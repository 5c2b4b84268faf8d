#include "onnx/FastGemm.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define SPECDEC_FAST_GEMM 1
#endif

namespace specdec::nn {

#ifdef SPECDEC_FAST_GEMM

namespace {

constexpr std::int64_t kMr = 6;   // rows of a register tile
constexpr std::int64_t kNr = 16;  // columns of a register tile (two 8-float vectors)
constexpr std::int64_t kKc = 256; // depth of a packed block
constexpr std::int64_t kMc = 96;  // rows of a packed block of A

// op(B) rows [p0, p0 + kc) x columns [0, n) into panels of kNr columns, zero-padded.
void packB(const float *b, std::int64_t ldb, bool transB, std::int64_t p0, std::int64_t kc, std::int64_t n, float *out)
{
    for (std::int64_t j0 = 0; j0 < n; j0 += kNr) {
        const std::int64_t cols = std::min(kNr, n - j0);
        for (std::int64_t p = 0; p < kc; ++p, out += kNr) {
            for (std::int64_t j = 0; j < cols; ++j)
                out[j] = transB ? b[(j0 + j) * ldb + p0 + p] : b[(p0 + p) * ldb + j0 + j];
            for (std::int64_t j = cols; j < kNr; ++j)
                out[j] = 0.0f;
        }
    }
}

// op(A) rows [i0, i0 + mc) x depth [p0, p0 + kc) into panels of kMr rows, zero-padded.
void packA(const float *a, std::int64_t lda, bool transA, std::int64_t i0, std::int64_t mc, std::int64_t p0,
           std::int64_t kc, float *out)
{
    for (std::int64_t r0 = 0; r0 < mc; r0 += kMr) {
        const std::int64_t rows = std::min(kMr, mc - r0);
        for (std::int64_t p = 0; p < kc; ++p, out += kMr) {
            for (std::int64_t r = 0; r < rows; ++r) {
                const std::int64_t i = i0 + r0 + r;
                out[r] = transA ? a[(p0 + p) * lda + i] : a[i * lda + p0 + p];
            }
            for (std::int64_t r = rows; r < kMr; ++r)
                out[r] = 0.0f;
        }
    }
}

// One 6 x 16 tile: C = (add ? C : 0) + alpha * Apanel * Bpanel over kc.
[[gnu::target("avx2,fma")]] void tile(std::int64_t kc, const float *a, const float *b, float *c, std::int64_t ldc,
                                      std::int64_t rows, std::int64_t cols, float alpha, bool add)
{
    __m256 acc[kMr][2];
    for (int i = 0; i < kMr; ++i)
        acc[i][0] = acc[i][1] = _mm256_setzero_ps();
    for (std::int64_t p = 0; p < kc; ++p, a += kMr, b += kNr) {
        const __m256 b0 = _mm256_loadu_ps(b);
        const __m256 b1 = _mm256_loadu_ps(b + 8);
#pragma GCC unroll 6
        for (int i = 0; i < kMr; ++i) {
            const __m256 ai = _mm256_broadcast_ss(a + i);
            acc[i][0] = _mm256_fmadd_ps(ai, b0, acc[i][0]);
            acc[i][1] = _mm256_fmadd_ps(ai, b1, acc[i][1]);
        }
    }
    const __m256 va = _mm256_set1_ps(alpha);
    if (rows == kMr && cols == kNr) {
        for (int i = 0; i < kMr; ++i) {
            float *row = c + i * ldc;
            const __m256 old0 = add ? _mm256_loadu_ps(row) : _mm256_setzero_ps();
            const __m256 old1 = add ? _mm256_loadu_ps(row + 8) : _mm256_setzero_ps();
            _mm256_storeu_ps(row, _mm256_fmadd_ps(va, acc[i][0], old0));
            _mm256_storeu_ps(row + 8, _mm256_fmadd_ps(va, acc[i][1], old1));
        }
        return;
    }
    // Edge tile: the same arithmetic through a buffer, then only the valid part is stored.
    alignas(32) float buffer[kMr][kNr];
    for (std::int64_t i = 0; i < rows; ++i) {
        float *row = c + i * ldc;
        for (std::int64_t j = 0; j < kNr; ++j)
            buffer[i][j] = add && j < cols ? row[j] : 0.0f;
        _mm256_store_ps(buffer[i], _mm256_fmadd_ps(va, acc[i][0], _mm256_load_ps(buffer[i])));
        _mm256_store_ps(buffer[i] + 8, _mm256_fmadd_ps(va, acc[i][1], _mm256_load_ps(buffer[i] + 8)));
        for (std::int64_t j = 0; j < cols; ++j)
            row[j] = buffer[i][j];
    }
}

} // namespace

bool fastGemmAvailable()
{
    static const bool available = [] {
        __builtin_cpu_init();
        if (const char *off = std::getenv("SPECDEC_ONNX_NO_AVX2"); off && *off && *off != '0')
            return false; // for comparisons: the portable Eigen path
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    }();
    return available;
}

void fastGemm(const float *a, std::int64_t lda, bool transA, const float *b, std::int64_t ldb, bool transB, float *c,
              std::int64_t ldc, std::int64_t m, std::int64_t n, std::int64_t k, float alpha, bool accumulate)
{
    const std::int64_t nPadded = (n + kNr - 1) / kNr * kNr;
    std::vector<float> packedB(static_cast<std::size_t>(std::min(k, kKc) * nPadded));
    std::vector<float> packedA(static_cast<std::size_t>(std::min(k, kKc) * ((std::min(m, kMc) + kMr - 1) / kMr * kMr)));
    if (k == 0 && !accumulate) {
        for (std::int64_t i = 0; i < m; ++i)
            std::fill_n(c + i * ldc, n, 0.0f);
        return;
    }
    for (std::int64_t p0 = 0; p0 < k; p0 += kKc) {
        const std::int64_t kc = std::min(kKc, k - p0);
        const bool add = accumulate || p0 > 0;
        packB(b, ldb, transB, p0, kc, n, packedB.data());
        for (std::int64_t i0 = 0; i0 < m; i0 += kMc) {
            const std::int64_t mc = std::min(kMc, m - i0);
            packA(a, lda, transA, i0, mc, p0, kc, packedA.data());
            for (std::int64_t j0 = 0; j0 < n; j0 += kNr)
                for (std::int64_t r0 = 0; r0 < mc; r0 += kMr)
                    tile(kc, packedA.data() + r0 * kc, packedB.data() + j0 * kc, c + (i0 + r0) * ldc + j0, ldc,
                         std::min(kMr, mc - r0), std::min(kNr, n - j0), alpha, add);
        }
    }
}

#else

bool fastGemmAvailable()
{
    return false;
}

void fastGemm(const float *, std::int64_t, bool, const float *, std::int64_t, bool, float *, std::int64_t, std::int64_t,
              std::int64_t, std::int64_t, float, bool)
{
}

#endif

} // namespace specdec::nn
