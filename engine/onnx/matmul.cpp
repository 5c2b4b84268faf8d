// SPDX-License-Identifier: GPL-3.0-or-later
// Matrix products: MatMul (numpy semantics, batched with broadcasting) and Gemm
// (Y = alpha * A' * B' + beta * C). Float32 MatMul runs on the executor's own product (Gemm.h: packed
// panels, kernels chosen by instruction set, bit-identical on every path); a constant B is packed once at
// load. Other element types run through Eigen maps of the tensors' buffers. Work is split into tasks whose
// boundaries depend only on the shapes, never on the thread count, so results are identical for any threads.
#include "onnx/Broadcast.h"
#include "onnx/Gemm.h"
#include "onnx/ThreadPool.h"

#include <Eigen/Core>

namespace specdec::nn {

namespace {

template<class T> using RowMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template<class T> using ConstMap = Eigen::Map<const RowMatrix<T>>;
template<class T> using MutMap = Eigen::Map<RowMatrix<T>>;

constexpr std::int64_t kMinTaskWork = 8 << 20; // multiply-adds per task, at least
constexpr std::int64_t kMaxTasks = 16;

/// out (+)= A' * B' for one matrix pair (A' = A or A^T as stored), split along the longer output side.
template<class T> void gemm(const T *a, bool transA, const T *b, bool transB, T *c, std::int64_t m, std::int64_t k,
                            std::int64_t n, T alpha, bool accumulate, ExecContext &exec)
{
    const ConstMap<T> A(a, transA ? k : m, transA ? m : k);
    const ConstMap<T> B(b, transB ? n : k, transB ? k : n);
    MutMap<T> C(c, m, n);
    const std::int64_t work = m * n * k;
    const std::int64_t tasks = std::clamp<std::int64_t>(work / kMinTaskWork, 1, kMaxTasks);
    const bool alongColumns = n >= m;
    const std::int64_t side = alongColumns ? n : m;
    const std::int64_t chunk = ((side + tasks - 1) / tasks + 15) / 16 * 16;
    const std::int64_t count = (side + chunk - 1) / chunk;
    exec.pool.run(count, [&](std::int64_t t) {
        const std::int64_t begin = t * chunk;
        const std::int64_t len = std::min(chunk, side - begin);
        auto compute = [&](const auto &lhs, const auto &rhs, auto &&dst) {
            if (accumulate)
                dst.noalias() += alpha * lhs * rhs;
            else if (alpha == T(1))
                dst.noalias() = lhs * rhs;
            else
                dst.noalias() = alpha * lhs * rhs;
        };
        auto run = [&](const auto &lhs, const auto &rhs) {
            if (alongColumns)
                compute(lhs, rhs.middleCols(begin, len), C.middleCols(begin, len));
            else
                compute(lhs.middleRows(begin, len), rhs, C.middleRows(begin, len));
        };
        if (transA && transB)
            run(A.transpose(), B.transpose());
        else if (transA)
            run(A.transpose(), B);
        else if (transB)
            run(A, B.transpose());
        else
            run(A, B);
    });
}

/// The float32 MatMul of a [..., M, K] by a [..., K, N] with numpy broadcasting of the batch dimensions;
/// `packed` is B packed at load when B is a constant matrix.
void floatMatMul(const Tensor &a, const Tensor &b, const std::shared_ptr<const PackedMatrix> &packed,
                 const Shape &batch, const Shape &batchA, const Shape &batchB, std::int64_t m, std::int64_t k,
                 std::int64_t n, Tensor &o, ExecContext &exec)
{
    const float *pa = a.data<float>();
    const float *pb = b.data<float>();
    float *pc = o.mutableData<float>();
    if (elementCount(batchB) == 1 && elementCount(batchA) == elementCount(batch)) {
        // [..., M, K] x [K, N]: one product over all rows of A.
        const std::int64_t rows = elementCount(batch) * m;
        if (packed) {
            gemmPacked(pa, k, *packed, nullptr, pc, n, rows, exec.pool);
        } else {
            const PackedMatrix local(pb, k, n, n, 1);
            gemmPacked(pa, k, local, nullptr, pc, n, rows, exec.pool);
        }
        return;
    }
    const std::int64_t batches = elementCount(batch);
    std::vector<std::int64_t> offA(static_cast<std::size_t>(batches)), offB(static_cast<std::size_t>(batches));
    std::int64_t at = 0;
    forEachBroadcastRun<2>(batch, {&batchA, &batchB}, [&](std::int64_t, auto off, std::int64_t cnt, auto st) {
        for (std::int64_t i = 0; i < cnt; ++i, ++at) {
            offA[static_cast<std::size_t>(at)] = (off[0] + i * st[0]) * m * k;
            offB[static_cast<std::size_t>(at)] = (off[1] + i * st[1]) * k * n;
        }
    });
    ThreadPool single(1);
    exec.pool.run(batches, [&](std::int64_t i) {
        const auto u = static_cast<std::size_t>(i);
        if (packed) {
            gemmPacked(pa + offA[u], k, *packed, nullptr, pc + i * m * n, n, m, single);
        } else {
            const PackedMatrix local(pb + offB[u], k, n, n, 1);
            gemmPacked(pa + offA[u], k, local, nullptr, pc + i * m * n, n, m, single);
        }
    });
}

Kernel makeMatMul(const NodeContext &ctx)
{
    ctx.requireType(0, kNumericTypes);
    ctx.requireType(1, kNumericTypes);
    // A constant float matrix B is packed once; the graph keeps the constant alive, so its buffer address
    // identifies it when the node runs.
    std::shared_ptr<const PackedMatrix> packed;
    const float *packedFrom = nullptr;
    if (const Tensor *w = ctx.constant(1); w && w->type() == DataType::Float32 && w->rank() == 2) {
        packed = ctx.packs ? ctx.packs->get(*w)
                           : std::make_shared<const PackedMatrix>(w->data<float>(), w->dim(0), w->dim(1), w->dim(1), 1);
        packedFrom = w->data<float>();
    }
    return [packed, packedFrom](Inputs in, Outputs out, ExecContext &exec) {
        const Tensor &a = requireInput(in, 0, "A");
        const Tensor &b = requireInput(in, 1, "B");
        if (a.type() != b.type())
            throw Error("MatMul of " + a.describe() + " and " + b.describe());
        if (a.rank() == 0 || b.rank() == 0)
            throw Error("MatMul of a scalar");
        // Promote 1-D operands to matrices, as numpy does, and drop the added dimension afterwards.
        Shape sa = a.shape(), sb = b.shape();
        const bool vecA = sa.size() == 1, vecB = sb.size() == 1;
        if (vecA)
            sa.insert(sa.begin(), 1);
        if (vecB)
            sb.push_back(1);
        const std::int64_t m = sa[sa.size() - 2], k = sa.back(), n = sb.back();
        if (sb[sb.size() - 2] != k)
            throw Error("MatMul: inner dimensions of " + a.describe() + " and " + b.describe() + " differ");
        const Shape batchA(sa.begin(), sa.end() - 2), batchB(sb.begin(), sb.end() - 2);
        const Shape batch = broadcastShapes(batchA, batchB);
        Shape shape = batch;
        if (!vecA)
            shape.push_back(m);
        if (!vecB)
            shape.push_back(n);
        Tensor &o = makeOutput(out, 0, a.type(), shape);
        if (o.size() == 0)
            return;
        if (a.type() == DataType::Float32) {
            const bool usePacked = packed && b.rank() == 2 && b.data<float>() == packedFrom;
            floatMatMul(a, b, usePacked ? packed : nullptr, batch, batchA, batchB, m, k, n, o, exec);
            return;
        }
        dispatchTypes<double, std::int64_t, std::int32_t>(a.type(), "MatMul", [&](auto tag) {
            using T = typename decltype(tag)::type;
            const T *pa = a.data<T>();
            const T *pb = b.data<T>();
            T *pc = o.mutableData<T>();
            if (k == 0) {
                std::fill_n(pc, o.size(), T(0));
                return;
            }
            if (batchB.empty() || elementCount(batchB) == 1) {
                // [..., M, K] x [K, N]: one product over all rows of A.
                const std::int64_t rows = elementCount(batch) * m;
                if (elementCount(batchA) == elementCount(batch)) {
                    gemm<T>(pa, false, pb, false, pc, rows, k, n, T(1), false, exec);
                    return;
                }
            }
            // General batched case: one product per broadcast batch index, batches spread over tasks.
            const std::int64_t batches = elementCount(batch);
            std::vector<std::int64_t> offA(static_cast<std::size_t>(batches)), offB(static_cast<std::size_t>(batches));
            std::int64_t at = 0;
            forEachBroadcastRun<2>(batch, {&batchA, &batchB}, [&](std::int64_t, auto off, std::int64_t cnt, auto st) {
                for (std::int64_t i = 0; i < cnt; ++i, ++at) {
                    offA[static_cast<std::size_t>(at)] = (off[0] + i * st[0]) * m * k;
                    offB[static_cast<std::size_t>(at)] = (off[1] + i * st[1]) * k * n;
                }
            });
            ThreadPool single(1);
            ExecContext inner{single};
            exec.pool.run(batches, [&](std::int64_t i) {
                gemm<T>(pa + offA[static_cast<std::size_t>(i)], false, pb + offB[static_cast<std::size_t>(i)], false,
                        pc + i * m * n, m, k, n, T(1), false, inner);
            });
        });
    };
}

// Gemm: Y = alpha * A' * B' + beta * C for 2-D A, B; C broadcasts to [M, N] and is optional from opset 11.
Kernel makeGemm(const NodeContext &ctx)
{
    ctx.requireType(0, kNumericTypes);
    const float alpha = ctx.attributes.getFloat("alpha", 1.0f);
    const float beta = ctx.attributes.getFloat("beta", 1.0f);
    const bool transA = ctx.attributes.getInt("transA", 0) != 0;
    const bool transB = ctx.attributes.getInt("transB", 0) != 0;
    return [=](Inputs in, Outputs out, ExecContext &exec) {
        const Tensor &a = requireInput(in, 0, "A");
        const Tensor &b = requireInput(in, 1, "B");
        const Tensor *c = in.size() > 2 && in[2] && in[2]->defined() ? in[2] : nullptr;
        if (a.rank() != 2 || b.rank() != 2 || a.type() != b.type())
            throw Error("Gemm needs two matrices of one type, got " + a.describe() + " and " + b.describe());
        const std::int64_t m = transA ? a.dim(1) : a.dim(0), k = transA ? a.dim(0) : a.dim(1);
        const std::int64_t n = transB ? b.dim(0) : b.dim(1);
        if ((transB ? b.dim(1) : b.dim(0)) != k)
            throw Error("Gemm: inner dimensions of " + a.describe() + " and " + b.describe() + " differ");
        Tensor &y = makeOutput(out, 0, a.type(), {m, n});
        dispatchTypes<float, double, std::int64_t, std::int32_t>(a.type(), "Gemm", [&](auto tag) {
            using T = typename decltype(tag)::type;
            T *py = y.mutableData<T>();
            bool accumulate = false;
            if (c && beta != 0.0f) {
                if (c->type() != a.type())
                    throw Error("Gemm: C is " + c->describe() + ", A is " + a.describe());
                const Shape shapeY{m, n};
                broadcastShapes(c->shape(), shapeY); // throws when C does not fit
                if (broadcastShapes(c->shape(), shapeY) != shapeY)
                    throw Error("Gemm: C " + c->describe() + " does not broadcast to [M, N] = " + shapeToString(shapeY));
                const T *pc = c->data<T>();
                const T b2 = static_cast<T>(beta);
                forEachBroadcastRun<1>(shapeY, {&c->shape()}, [&](std::int64_t o, auto off, std::int64_t cnt, auto st) {
                    for (std::int64_t i = 0; i < cnt; ++i)
                        py[o + i] = b2 * pc[off[0] + i * st[0]];
                });
                accumulate = true;
            }
            if (k == 0) {
                if (!accumulate)
                    std::fill_n(py, y.size(), T(0));
                return;
            }
            if (y.size() > 0)
                gemm<T>(a.data<T>(), transA, b.data<T>(), transB, py, m, k, n, static_cast<T>(alpha), accumulate, exec);
        });
    };
}

} // namespace

void registerMatMulOperators(std::vector<OperatorSpec> &specs)
{
    specs.push_back({"MatMul", {9, 13}, {}, makeMatMul});
    specs.push_back({"Gemm", {7, 9, 11, 13}, {"alpha", "beta", "transA", "transB"}, makeGemm});
}

} // namespace specdec::nn
