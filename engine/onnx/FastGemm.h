#pragma once
// A float32 matrix product for x86-64 CPUs with AVX2 and FMA, chosen at run time (the build targets plain
// x86-64, where Eigen uses SSE2 only): C (+)= alpha * op(A) * op(B) on row-major buffers, with packed
// 6 x 16 register tiles. The summation order depends only on the shapes, never on the thread count.

#include <cstdint>

namespace specdec::nn {

/// True when this CPU runs the AVX2/FMA kernel (checked once; SPECDEC_ONNX_NO_AVX2=1 turns it off).
bool fastGemmAvailable();

/// op(A) is m x k: A[i * lda + p], or A[p * lda + i] when transA. op(B) is k x n: B[p * ldb + j], or
/// B[j * ldb + p] when transB. C[i * ldc + j] = alpha * sum_p op(A)(i, p) op(B)(p, j), plus the old C when
/// `accumulate`. Only call when fastGemmAvailable().
void fastGemm(const float *a, std::int64_t lda, bool transA, const float *b, std::int64_t ldb, bool transB, float *c,
              std::int64_t ldc, std::int64_t m, std::int64_t n, std::int64_t k, float alpha, bool accumulate);

} // namespace specdec::nn
