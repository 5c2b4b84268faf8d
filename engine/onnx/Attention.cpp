// SPDX-License-Identifier: GPL-3.0-or-later
#include "onnx/Attention.h"

#include "onnx/Kernels.h"
#include "onnx/ThreadPool.h"

#include <algorithm>
#include <vector>

namespace specdec::nn {

View4 permutedView(const Tensor &t, const std::vector<std::int64_t> &perm)
{
    View4 view;
    view.data = t.data<float>();
    std::array<std::int64_t, 4> stride{};
    std::int64_t s = 1;
    for (int a = 3; a >= 0; --a) {
        stride[static_cast<std::size_t>(a)] = s;
        s *= t.dim(a);
    }
    for (std::size_t a = 0; a < 4; ++a) {
        const auto from = perm.empty() ? a : static_cast<std::size_t>(perm[a]);
        view.dim[a] = t.dim(static_cast<int>(from));
        view.stride[a] = stride[from];
    }
    return view;
}

namespace {

/// The strides over (b, h, i, j) of a tensor broadcast to `full` (0 along broadcast axes); false when it does not
/// broadcast to it.
bool broadcastStrides(const Tensor &t, const std::array<std::int64_t, 4> &full, std::array<std::int64_t, 4> &strides)
{
    if (t.rank() > 4)
        return false;
    std::int64_t s = 1;
    for (int a = 3, m = t.rank() - 1; a >= 0; --a, --m) {
        const std::int64_t d = m >= 0 ? t.dim(m) : 1;
        if (d != 1 && d != full[static_cast<std::size_t>(a)])
            return false;
        strides[static_cast<std::size_t>(a)] = d == 1 ? 0 : s;
        s *= d;
    }
    return true;
}

} // namespace

bool attention(const View4 &q, const View4 &kt, const View4 &v, const AttentionScores &scores, std::int64_t groups,
               float *y, const std::array<std::int64_t, 4> &yStride, ThreadPool &pool)
{
    const std::int64_t batch = q.dim[0], heads = q.dim[1], tq = q.dim[2], dk = q.dim[3];
    const std::int64_t tk = kt.dim[3], dv = v.dim[3];
    if (groups < 1 || heads % groups != 0)
        return false;
    const std::int64_t kvHeads = heads / groups;
    if (kt.dim[0] != batch || v.dim[0] != batch || kt.dim[1] != kvHeads || v.dim[1] != kvHeads || kt.dim[2] != dk
        || v.dim[2] != tk)
        return false;
    if (batch * heads * tq * tk == 0 || dk == 0 || dv == 0)
        return false;
    const std::array<std::int64_t, 4> full{batch, heads, tq, tk};
    std::array<std::int64_t, 4> ms{}, ks{};
    const float *mdata = nullptr;
    if (const Tensor *mask = scores.mask) {
        if (mask->type() != DataType::Float32 || !broadcastStrides(*mask, full, ms))
            return false;
        mdata = mask->data<float>();
    }
    const bool *kdata = nullptr;
    if (const Tensor *keep = scores.keep) {
        if (keep->type() != DataType::Bool || !broadcastStrides(*keep, full, ks))
            return false;
        kdata = keep->data<bool>();
    }
    const kernels::AttentionFn kernel = kernels::active().attention;
    const std::int64_t scratch = kernels::attentionScratchFloats(tk, dk, dv);
    // A task per (batch, key/value head g, chunk c of the query heads that read it): query heads
    // h = g groups + c R .. (at most R of them, R = kAttentionRows: their rows make whole blocks of R rows, as they
    // would in one task for the whole group, so the split changes no bits), enough tasks for the threads.
    constexpr std::int64_t R = kernels::kAttentionRows;
    const std::int64_t chunks = (groups + R - 1) / R;
    const std::int64_t tasks = batch * kvHeads * chunks;
    auto run = [&](std::int64_t t) {
        const std::int64_t b = t / (kvHeads * chunks), g = t / chunks % kvHeads, c = t % chunks;
        const std::int64_t h = g * groups + c * R;
        kernels::AttentionHead head{};
        head.heads = std::min(R, groups - c * R);
        head.q = q.data + b * q.stride[0] + h * q.stride[1];
        head.qHead = q.stride[1];
        head.qRow = q.stride[2];
        head.qCol = q.stride[3];
        // Kt(d, j) = K(j, d)
        head.k = kt.data + b * kt.stride[0] + g * kt.stride[1];
        head.kRow = kt.stride[3];
        head.kCol = kt.stride[2];
        head.v = v.data + b * v.stride[0] + g * v.stride[1];
        head.vRow = v.stride[2];
        head.vCol = v.stride[3];
        head.mask = mdata ? mdata + b * ms[0] + h * ms[1] : nullptr;
        head.maskHead = ms[1];
        head.maskRow = ms[2];
        head.maskCol = ms[3];
        head.y = y + b * yStride[0] + h * yStride[1];
        head.yHead = yStride[1];
        head.yRow = yStride[2];
        head.yCol = yStride[3];
        head.tq = tq;
        head.tk = tk;
        head.dk = dk;
        head.dv = dv;
        head.scale = scores.scale;
        head.divide = scores.divide;
        head.keep = kdata ? kdata + b * ks[0] + h * ks[1] : nullptr;
        head.keepHead = ks[1];
        head.keepRow = ks[2];
        head.keepCol = ks[3];
        head.fill = scores.fill;
        head.keysPadded = kt.padded && kt.stride[3] == 1;
        head.scratch = pool.scratch(static_cast<std::size_t>(scratch));
        kernel(head);
    };
    // A small attention (a draft's step: a few heads over a short cache) runs on the calling thread: handing its
    // tasks to the pool costs more than they take (draft-small's calls were 3x slower with two threads). Which
    // thread runs a task changes no bits.
    constexpr std::int64_t kMinParallelWork = 1 << 16; // multiply-adds
    pool.run(tasks, run, batch * heads * tq * tk * (dk + dv) >= kMinParallelWork);
    return true;
}

} // namespace specdec::nn
