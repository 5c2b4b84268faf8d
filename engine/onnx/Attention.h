// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Fused attention, the pattern MatMul(Q, Kᵀ) → Mul(scale) or Div(scale) → [Where(keep, ·, fill) →] Add(mask) →
// Softmax(last axis) → MatMul(·, V) of exported transformers, computed head by head without the [t, t]
// intermediates:
//   Y[b, h] = softmax(where(keep[b, h], scale ⊙ Q[b, h] · Kᵀ[b, g(h)], fill) + mask[b, h]) · V[b, g(h)]
// with ⊙ the product or the quotient, and g(h) = h / (heads / kvHeads): grouped-query attention, where the graph
// repeats each of kvHeads key/value heads heads / kvHeads times (Unsqueeze, Expand, Reshape), reads them unrepeated.
// Operands are strided rank-4 views, so Transposes around the pattern cost nothing. Kernels.h has the
// per-row arithmetic (the same bits on every instruction-set path); key/value heads are the tasks (each with the
// query heads that read it: one pass over its keys and values), so the thread count never changes a result.

#include "onnx/Tensor.h"

#include <array>

namespace specdec::nn {

class ThreadPool;

/// A rank-4 float view of a tensor's buffer: element (a, b, c, d) at data[a s0 + b s1 + c s2 + d s3].
struct View4
{
    const float *data = nullptr;
    std::array<std::int64_t, 4> dim{};
    std::array<std::int64_t, 4> stride{};
    /// As the Kᵀ operand: stride[3] == 1 and every row (a, b, c, ·) has roundUp16(dim[3]) readable floats
    /// (a KvCache's keys), so attention reads the keys in place.
    bool padded = false;
};

/// The view of a rank-4 float tensor with its axes permuted as Transpose(perm) would (perm empty: as is).
View4 permutedView(const Tensor &t, const std::vector<std::int64_t> &perm);

/// How the scores of attention are formed before the softmax: fl(fl(q · k) ⊙ scale), then where `keep` (bool,
/// nullptr: everywhere) is false `fill`, then + mask (float, nullptr: none); keep and mask broadcast to
/// [B, H, Tq, Tk].
struct AttentionScores
{
    float scale = 1.0f;
    bool divide = false; ///< ⊙ is the quotient (a Div node) rather than the product (Mul)
    const Tensor *keep = nullptr;
    float fill = 0.0f;
    const Tensor *mask = nullptr;
};

/// Runs attention for views Q [B, H, Tq, Dk], Kt [B, H / groups, Dk, Tk], V [B, H / groups, Tk, Dv] (query head
/// h reads key/value head h / groups), writing Y(b, h, i, e) = y[b ys0 + h ys1 + i ys2 + e ys3].
/// Returns false (and computes nothing) when the shapes do not fit that pattern.
bool attention(const View4 &q, const View4 &kt, const View4 &v, const AttentionScores &scores, std::int64_t groups,
               float *y, const std::array<std::int64_t, 4> &yStride, ThreadPool &pool);

} // namespace specdec::nn
