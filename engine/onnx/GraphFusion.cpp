// SPDX-License-Identifier: GPL-3.0-or-later
#include "onnx/GraphFusion.h"

#include "onnx/Attention.h"
#include "onnx/Broadcast.h"
#include "onnx/Gemm.h"
#include "onnx/KvCache.h"
#include "onnx/ShapeMemo.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <memory>

namespace specdec::nn {

namespace {

/// The original nodes of a fused group, run one after the other when the fast path does not apply.
struct SubGraph
{
    std::vector<CompiledNode> nodes;
    std::vector<int> inputs;  // slots the fused node reads, in its input order
    std::vector<int> outputs; // slots the fused node produces, in its output order

    void run(Inputs in, Outputs out, ExecContext &exec) const
    {
        std::vector<std::pair<int, Tensor>> values;
        values.reserve(inputs.size() + nodes.size() * 2);
        for (std::size_t i = 0; i < inputs.size(); ++i)
            values.emplace_back(inputs[i], in[i] ? *in[i] : Tensor());
        auto find = [&](int slot) -> const Tensor * {
            for (auto it = values.rbegin(); it != values.rend(); ++it)
                if (it->first == slot)
                    return &it->second;
            return nullptr;
        };
        std::vector<const Tensor *> args;
        std::vector<Tensor> results;
        for (std::size_t n = 0; n < nodes.size(); ++n) {
            const CompiledNode &node = nodes[n];
            args.clear();
            for (int s : node.inputs)
                args.push_back(s >= 0 ? find(s) : nullptr);
            results.assign(node.outputs.size(), Tensor());
            try {
                node.kernel(args, results, exec);
            } catch (const std::exception &e) {
                if (n == 0)
                    throw;
                throw Error(node.label + ": " + e.what());
            }
            for (std::size_t k = 0; k < node.outputs.size(); ++k)
                if (node.outputs[k] >= 0)
                    values.emplace_back(node.outputs[k], std::move(results[k]));
        }
        for (std::size_t k = 0; k < outputs.size(); ++k)
            out[k] = *find(outputs[k]);
    }
};

/// Where the operands of a fused attention come from: Transposes folded into views, and the scale.
struct AttentionLayout
{
    std::vector<std::int64_t> permQ, permK, permV, permY; // empty: no Transpose
    float scale = 1.0f;
};

/// Y of the fused pattern from views of Kᵀ and V; false (nothing computed) when the operands do not fit.
bool attentionFromViews(const AttentionLayout &l, const Tensor *tq, const View4 &kt, const View4 &vv, const Tensor *tm,
                        Tensor &out, ExecContext &exec)
{
    if (!tq || !tm || tq->type() != DataType::Float32 || tm->type() != DataType::Float32 || tq->rank() != 4)
        return false;
    const View4 qv = permutedView(*tq, l.permQ);
    const std::array<std::int64_t, 4> logical{qv.dim[0], qv.dim[1], qv.dim[2], vv.dim[3]};
    Shape shape(4);
    for (std::size_t a = 0; a < 4; ++a)
        shape[a] = logical[l.permY.empty() ? a : static_cast<std::size_t>(l.permY[a])];
    std::array<std::int64_t, 4> stride{}, yStride{};
    std::int64_t s = 1;
    for (int a = 3; a >= 0; --a) {
        stride[static_cast<std::size_t>(a)] = s;
        s *= shape[static_cast<std::size_t>(a)];
    }
    for (std::size_t a = 0; a < 4; ++a)
        yStride[l.permY.empty() ? a : static_cast<std::size_t>(l.permY[a])] = stride[a];
    Tensor y(DataType::Float32, shape);
    if (!attention(qv, kt, vv, tm, l.scale, y.mutableData<float>(), yStride, exec.pool))
        return false;
    out = std::move(y);
    return true;
}

/// The same from the tensors K and V (before their Transposes).
bool runAttention(const AttentionLayout &l, const Tensor *tq, const Tensor *tk, const Tensor *tv, const Tensor *tm,
                  Tensor &out, ExecContext &exec)
{
    for (const Tensor *t : {tk, tv})
        if (!t || t->type() != DataType::Float32 || t->rank() != 4)
            return false;
    return attentionFromViews(l, tq, permutedView(*tk, l.permK), permutedView(*tv, l.permV), tm, out, exec);
}

/// A cached run's attention of one layer: the new keys and values (views [1, heads, S, dim]) written into
/// `cache` at positions [length, length + S) (the Concat in place), then attention over the first length + S.
void appendInPlace(const AttentionLayout &l, KvCache &cache, std::size_t pair, const Tensor *tq, const View4 &nk,
                   const View4 &nv, const Tensor *tm, Tensor &out, ExecContext &exec)
{
    const KvCache::PairShape &ps = cache.shape(pair);
    const std::int64_t past = cache.length(), cap = cache.capacity(), rs = cache.rowStride();
    auto fits = [&](const View4 &t, std::int64_t dim) {
        return t.data && t.dim[0] == 1 && t.dim[1] == ps.heads && t.dim[3] == dim;
    };
    auto describe = [](const View4 &t) {
        return "[" + std::to_string(t.dim[0]) + ", " + std::to_string(t.dim[1]) + ", " + std::to_string(t.dim[2]) + ", "
            + std::to_string(t.dim[3]) + "]";
    };
    if (!fits(nk, ps.keyDim) || !fits(nv, ps.valueDim) || nk.dim[2] != nv.dim[2] || nk.dim[2] < 1
        || nk.dim[2] > cap - past)
        throw Error("a cached run's new keys " + describe(nk) + " and values " + describe(nv)
                    + " do not fit a cache of " + std::to_string(ps.heads) + " heads holding " + std::to_string(past)
                    + " of " + std::to_string(cap) + " positions");
    const std::int64_t S = nk.dim[2], end = past + S, endPad = (end + 15) / 16 * 16;
    float *keys = cache.keys(pair);
    float *values = cache.values(pair);
    for (std::int64_t h = 0; h < ps.heads; ++h) {
        for (std::int64_t d = 0; d < ps.keyDim; ++d) {
            float *row = keys + (h * ps.keyDim + d) * rs;
            const float *k = nk.data + h * nk.stride[1] + d * nk.stride[3];
            for (std::int64_t t = 0; t < S; ++t)
                row[past + t] = k[t * nk.stride[2]];
            for (std::int64_t j = end; j < endPad; ++j)
                row[j] = 0.0f;
        }
        for (std::int64_t t = 0; t < S; ++t) {
            float *row = values + (h * cap + past + t) * ps.valueDim;
            const float *v = nv.data + h * nv.stride[1] + t * nv.stride[2];
            for (std::int64_t e = 0; e < ps.valueDim; ++e)
                row[e] = v[e * nv.stride[3]];
        }
    }
    View4 kt;
    kt.data = keys;
    kt.dim = {1, ps.heads, ps.keyDim, end};
    kt.stride = {ps.heads * ps.keyDim * rs, ps.keyDim * rs, rs, 1};
    kt.padded = true;
    View4 vv;
    vv.data = values;
    vv.dim = {1, ps.heads, end, ps.valueDim};
    vv.stride = {ps.heads * cap * ps.valueDim, cap * ps.valueDim, ps.valueDim, 1};
    if (!attentionFromViews(l, tq, kt, vv, tm, out, exec))
        throw Error("a cached run's queries " + (tq ? tq->describe() : std::string("(none)")) + " or mask "
                    + (tm ? tm->describe() : std::string("(none)")) + " do not fit attention over "
                    + std::to_string(end) + " cached positions");
    cache.written(pair, end);
}

/// The new keys or values of a cached attention: the Concat's second input, or the input of the Transpose
/// that produced it (perm non-empty), as a view [1, heads, S, dim]; false when it is not a float rank-4 tensor.
bool newRows(const Tensor *t, const std::vector<std::int64_t> &perm, View4 &view)
{
    if (!t || t->type() != DataType::Float32 || t->rank() != 4)
        return false;
    view = permutedView(*t, perm);
    return true;
}

class Fuser
{
public:
    Fuser(std::vector<CompiledNode> &nodes, const std::vector<const Tensor *> &constantOf, const std::vector<int> &kept,
          const std::vector<int> &graphInputs, PackedWeights &packs, std::vector<CacheAppendPair> &pairs)
        : m_nodes(nodes)
        , m_constantOf(constantOf)
        , m_packs(packs)
        , m_pairs(pairs)
    {
        std::size_t slots = constantOf.size();
        for (const CompiledNode &n : nodes)
            for (const auto *list : {&n.inputs, &n.outputs})
                for (int s : *list)
                    slots = std::max(slots, static_cast<std::size_t>(s + 1));
        for (int s : kept)
            slots = std::max(slots, static_cast<std::size_t>(s + 1));
        m_readers.resize(slots);
        for (int s : graphInputs)
            slots = std::max(slots, static_cast<std::size_t>(s + 1));
        m_kept.assign(slots, false);
        for (int s : kept)
            m_kept[static_cast<std::size_t>(s)] = true;
        m_graphInput.assign(slots, false);
        for (int s : graphInputs)
            m_graphInput[static_cast<std::size_t>(s)] = true;
        for (std::size_t i = 0; i < nodes.size(); ++i)
            for (int s : nodes[i].inputs)
                if (s >= 0) {
                    auto &r = m_readers[static_cast<std::size_t>(s)];
                    if (std::find(r.begin(), r.end(), static_cast<int>(i)) == r.end())
                        r.push_back(static_cast<int>(i));
                }
        m_removed.assign(nodes.size(), false);
    }

    void run()
    {
        for (std::size_t i = 0; i < m_nodes.size(); ++i)
            if (!m_removed[i] && m_nodes[i].opType == "MatMul")
                if (!fuseAttention(static_cast<int>(i)))
                    fuseLinear(static_cast<int>(i));
        std::vector<CompiledNode> kept;
        for (std::size_t i = 0; i < m_nodes.size(); ++i)
            if (!m_removed[i])
                kept.push_back(std::move(m_nodes[i]));
        m_nodes = std::move(kept);
    }

private:
    std::vector<CompiledNode> &m_nodes;
    const std::vector<const Tensor *> &m_constantOf;
    PackedWeights &m_packs;
    std::vector<CacheAppendPair> &m_pairs;
    std::vector<std::vector<int>> m_readers;
    std::vector<bool> m_kept;
    std::vector<bool> m_graphInput;
    std::vector<bool> m_removed;

    const CompiledNode &node(int n) const { return m_nodes[static_cast<std::size_t>(n)]; }
    int out0(int n) const { return node(n).outputs.empty() ? -1 : node(n).outputs[0]; }
    bool is(int n, const char *op, std::size_t inputs) const
    {
        return n >= 0 && !m_removed[static_cast<std::size_t>(n)] && node(n).opType == op
            && node(n).inputs.size() == inputs && node(n).outputs.size() == 1;
    }
    /// The one node reading `slot` when nothing else needs it, else -1.
    int onlyReader(int slot) const
    {
        if (slot < 0 || m_kept[static_cast<std::size_t>(slot)])
            return -1;
        const auto &r = m_readers[static_cast<std::size_t>(slot)];
        return r.size() == 1 ? r[0] : -1;
    }
    /// The node producing `slot` (searching back from `before`), or -1.
    int producer(int slot, int before) const
    {
        for (int n = before - 1; n >= 0; --n)
            if (!m_removed[static_cast<std::size_t>(n)]
                && std::find(node(n).outputs.begin(), node(n).outputs.end(), slot) != node(n).outputs.end())
                return n;
        return -1;
    }
    const Tensor *constant(int slot) const
    {
        return slot >= 0 && static_cast<std::size_t>(slot) < m_constantOf.size()
            ? m_constantOf[static_cast<std::size_t>(slot)]
            : nullptr;
    }
    /// A float scalar constant (one element, rank <= maxRank), optionally equal to `value`.
    bool scalar(int slot, float *value, int maxRank, const float *expected = nullptr) const
    {
        const Tensor *c = constant(slot);
        if (!c || c->type() != DataType::Float32 || c->size() != 1 || c->rank() > maxRank)
            return false;
        const float v = c->data<float>()[0];
        if (expected && std::fabs(v - *expected) > 1e-6f * std::fabs(*expected))
            return false;
        if (value)
            *value = v;
        return true;
    }
    /// For a binary node with `slot` as one input, the other input; -1 if `slot` is not exactly one of them.
    int other(int n, int slot) const
    {
        const auto &in = node(n).inputs;
        if (in.size() != 2 || (in[0] == slot) == (in[1] == slot))
            return -1;
        return in[0] == slot ? in[1] : in[0];
    }
    std::vector<std::int64_t> intsAttribute(int n, const char *name) const
    {
        return node(n).proto ? Attributes(*node(n).proto).getInts(name) : std::vector<std::int64_t>{};
    }

    /// Replaces the member nodes (topological order) by one node producing `output`; returns the fused
    /// node's input slots (externals of the group) through `inputs`.
    CompiledNode &replace(const std::vector<int> &members, int output, const std::string &opType,
                          std::shared_ptr<SubGraph> &sub)
    {
        sub = std::make_shared<SubGraph>();
        sub->outputs = {output};
        std::vector<int> produced;
        for (int m : members) {
            for (int s : node(m).inputs)
                if (s >= 0 && std::find(produced.begin(), produced.end(), s) == produced.end()
                    && std::find(sub->inputs.begin(), sub->inputs.end(), s) == sub->inputs.end())
                    sub->inputs.push_back(s);
            for (int s : node(m).outputs)
                produced.push_back(s);
        }
        const int last = members.back();
        CompiledNode fused;
        fused.label = node(members.front()).label + " (fused into " + opType + ")";
        fused.opType = opType;
        fused.inputs = sub->inputs;
        fused.outputs = {output};
        for (int m : members) {
            sub->nodes.push_back(std::move(m_nodes[static_cast<std::size_t>(m)]));
            sub->nodes.back().proto = nullptr;
            m_removed[static_cast<std::size_t>(m)] = true;
        }
        // The fused node takes the place of the last member (all its inputs are ready there).
        m_nodes[static_cast<std::size_t>(last)] = std::move(fused);
        m_removed[static_cast<std::size_t>(last)] = false;
        return m_nodes[static_cast<std::size_t>(last)];
    }

    static int indexOf(const std::vector<int> &slots, int slot)
    {
        return static_cast<int>(std::find(slots.begin(), slots.end(), slot) - slots.begin());
    }

    /// x → the tanh GELU chain as torch exports it → returns the chain's last node, or -1.
    /// 0.5 * (x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * (x * (x * x))))))
    int matchGelu(int x, std::vector<int> &members) const
    {
        const auto &readers = m_readers[static_cast<std::size_t>(x)];
        if (m_kept[static_cast<std::size_t>(x)] || readers.size() != 4)
            return -1;
        int sq = -1;
        for (int r : readers)
            if (is(r, "Mul", 2) && node(r).inputs[0] == x && node(r).inputs[1] == x)
                sq = r;
        if (sq < 0)
            return -1;
        const float c1 = 0.044715f, c2 = 0.7978845608f, one = 1.0f, half = 0.5f;
        const int cube = onlyReader(out0(sq));
        if (!is(cube, "Mul", 2) || other(cube, out0(sq)) != x)
            return -1;
        const int scaled = onlyReader(out0(cube));
        if (!is(scaled, "Mul", 2) || !scalar(other(scaled, out0(cube)), nullptr, 0, &c1))
            return -1;
        const int inner = onlyReader(out0(scaled));
        if (!is(inner, "Add", 2) || other(inner, out0(scaled)) != x)
            return -1;
        const int arg = onlyReader(out0(inner));
        if (!is(arg, "Mul", 2) || !scalar(other(arg, out0(inner)), nullptr, 0, &c2))
            return -1;
        const int tanh = onlyReader(out0(arg));
        if (!is(tanh, "Tanh", 1))
            return -1;
        const int plus = onlyReader(out0(tanh));
        if (!is(plus, "Add", 2) || !scalar(other(plus, out0(tanh)), nullptr, 0, &one))
            return -1;
        const int times = onlyReader(out0(plus));
        if (!is(times, "Mul", 2) || other(times, out0(plus)) != x)
            return -1;
        const int halve = onlyReader(out0(times));
        if (!is(halve, "Mul", 2) || !scalar(other(halve, out0(times)), nullptr, 0, &half))
            return -1;
        members.insert(members.end(), {sq, cube, scaled, inner, arg, tanh, plus, times, halve});
        return halve;
    }

    // MatMul(X, W) + Add(bias) [+ GELU]: W a constant float matrix, bias a constant float vector.
    void fuseLinear(int mm)
    {
        if (!is(mm, "MatMul", 2))
            return;
        const Tensor *w = constant(node(mm).inputs[1]);
        if (!w || w->type() != DataType::Float32 || w->rank() != 2)
            return;
        const int add = onlyReader(out0(mm));
        if (!is(add, "Add", 2))
            return;
        const Tensor *bias = constant(other(add, out0(mm)));
        if (!bias || bias->type() != DataType::Float32 || bias->rank() != 1 || bias->size() != w->dim(1))
            return;
        std::vector<int> members{mm, add};
        int last = add;
        GemmEpilogue epilogue = GemmEpilogue::None;
        if (const int gelu = matchGelu(out0(add), members); gelu >= 0) {
            last = gelu;
            epilogue = GemmEpilogue::Gelu;
        }
        // A residual connection: Add(r, y) with r computed at run time, of y's shape (checked when it runs).
        int residual = -1;
        if (const int res = onlyReader(out0(last));
            is(res, "Add", 2) && other(res, out0(last)) >= 0 && !constant(other(res, out0(last)))) {
            residual = other(res, out0(last));
            members.push_back(res);
            last = res;
        }
        std::sort(members.begin(), members.end());
        const int x = node(mm).inputs[0];
        std::shared_ptr<const PackedMatrix> packed = m_packs.get(*w);
        auto biasValues = std::make_shared<const std::vector<float>>(bias->data<float>(),
                                                                     bias->data<float>() + bias->size());
        std::shared_ptr<SubGraph> sub;
        CompiledNode &fused = replace(members, out0(last),
                                      epilogue == GemmEpilogue::Gelu ? "FusedLinearGelu" : "FusedLinear", sub);
        const int ix = indexOf(fused.inputs, x);
        const int ir = residual >= 0 ? indexOf(fused.inputs, residual) : -1;
        fused.kernel = [packed, biasValues, epilogue, sub, ix, ir](Inputs in, Outputs out, ExecContext &exec) {
            const Tensor *a = in[static_cast<std::size_t>(ix)];
            const Tensor *r = ir >= 0 ? in[static_cast<std::size_t>(ir)] : nullptr;
            const std::int64_t k = packed->rows(), n = packed->cols();
            if (a && a->type() == DataType::Float32 && a->rank() >= 2 && k > 0 && a->shape().back() == k) {
                Shape shape = a->shape();
                shape.back() = n;
                if (ir < 0 || (r && r->type() == DataType::Float32 && r->shape() == shape)) {
                    Tensor &o = makeOutput(out, 0, DataType::Float32, shape);
                    gemmPacked(a->data<float>(), k, *packed, biasValues->data(), o.mutableData<float>(), n,
                               a->size() / k, exec.pool, epilogue, r ? r->data<float>() : nullptr, n);
                    return;
                }
            }
            sub->run(in, out, exec);
        };
    }

    /// The source of an attention operand: through a Transpose (rank 4) that only it reads.
    int throughTranspose(int slot, int before, std::vector<int> &members, std::vector<std::int64_t> &perm) const
    {
        const int t = producer(slot, before);
        if (!is(t, "Transpose", 1) || onlyReader(slot) < 0)
            return slot;
        const std::vector<std::int64_t> p = intsAttribute(t, "perm");
        if (p.size() != 4)
            return slot;
        perm = p;
        members.push_back(t);
        return node(t).inputs[0];
    }

    /// The Concat(past, new) along axis 2 producing the attention operand `slot`, when `past` is a graph input
    /// that only this Concat and Shape nodes read and nothing outside `members` reads the result (which may be
    /// a graph output: a present): the node, else -1. Such a Concat can append in place (KvCache.h).
    int cacheAppend(int slot, int before, const std::vector<int> &members) const
    {
        const int c = producer(slot, before);
        if (!is(c, "Concat", 2) || !node(c).proto)
            return -1;
        const std::int64_t axis = Attributes(*node(c).proto).getInt("axis", 0);
        const int past = node(c).inputs[0];
        if ((axis != 2 && axis != -2) || past < 0 || !m_graphInput[static_cast<std::size_t>(past)]
            || node(c).inputs[1] < 0)
            return -1;
        for (int r : m_readers[static_cast<std::size_t>(past)])
            if (r != c && node(r).opType != "Shape")
                return -1;
        for (int r : m_readers[static_cast<std::size_t>(slot)])
            if (std::find(members.begin(), members.end(), r) == members.end())
                return -1;
        return c;
    }

    // MatMul(Q, Kt) → Mul(scale) → Add(mask) → Softmax(last axis) → MatMul(·, V), with Transposes around; and
    // where K and V are Concat(past, new) of graph inputs (the decoder-with-past layout), those Concats too.
    bool fuseAttention(int mm1)
    {
        if (!is(mm1, "MatMul", 2) || constant(node(mm1).inputs[1]))
            return false;
        const int mul = onlyReader(out0(mm1));
        float scale = 0;
        if (!is(mul, "Mul", 2) || !scalar(other(mul, out0(mm1)), &scale, 4))
            return false;
        const int add = onlyReader(out0(mul));
        if (!is(add, "Add", 2) || other(add, out0(mul)) < 0)
            return false;
        const int mask = other(add, out0(mul));
        const int softmax = onlyReader(out0(add));
        if (!is(softmax, "Softmax", 1) || !node(softmax).proto)
            return false;
        const Attributes attributes(*node(softmax).proto);
        if (!attributes.has("axis") || (attributes.getInt("axis", 0) != -1 && attributes.getInt("axis", 0) != 3))
            return false;
        const int mm2 = onlyReader(out0(softmax));
        if (!is(mm2, "MatMul", 2) || node(mm2).inputs[0] != out0(softmax) || constant(node(mm2).inputs[1]))
            return false;
        std::vector<int> members{mm1, mul, add, softmax, mm2};
        auto layout = std::make_shared<AttentionLayout>();
        layout->scale = scale;
        const int q = throughTranspose(node(mm1).inputs[0], mm1, members, layout->permQ);
        const int k = throughTranspose(node(mm1).inputs[1], mm1, members, layout->permK);
        const int v = throughTranspose(node(mm2).inputs[1], mm2, members, layout->permV);
        int output = out0(mm2);
        if (const int t = onlyReader(output); is(t, "Transpose", 1)) {
            const std::vector<std::int64_t> p = intsAttribute(t, "perm");
            if (p.size() == 4) {
                layout->permY = p;
                members.push_back(t);
                output = out0(t);
            }
        }
        // The cache appends: Kᵀ = Transpose(Concat(past_k, new_k), (0, 1, 3, 2)), V = Concat(past_v, new_v).
        const std::vector<std::int64_t> kTransposed{0, 1, 3, 2}, identity{0, 1, 2, 3};
        int concatK = -1, concatV = -1;
        if (layout->permK == kTransposed && (layout->permV.empty() || layout->permV == identity)) {
            concatK = cacheAppend(k, mm1, members);
            concatV = cacheAppend(v, mm2, members);
            if (concatK < 0 || concatV < 0 || concatK == concatV)
                concatK = concatV = -1;
        }
        Kernel appendK, appendV, transposeK, transposeV;
        std::vector<std::int64_t> permNewK, permNewV;
        int pastK = -1, newK = -1, pastV = -1, newV = -1;
        if (concatK >= 0) {
            appendK = node(concatK).kernel;
            appendV = node(concatV).kernel;
            pastK = node(concatK).inputs[0];
            newK = node(concatK).inputs[1];
            pastV = node(concatV).inputs[0];
            newV = node(concatV).inputs[1];
            members.push_back(concatK);
            members.push_back(concatV);
            // The Transposes that lay the new rows out as [batch, heads, seq, dim]: read through as views.
            auto throughNew = [&](int &slot, int concat, Kernel &kernel, std::vector<std::int64_t> &perm) {
                const int t = producer(slot, concat);
                if (!is(t, "Transpose", 1) || onlyReader(slot) != concat)
                    return;
                const std::vector<std::int64_t> p = intsAttribute(t, "perm");
                if (p.size() != 4)
                    return;
                perm = p;
                kernel = node(t).kernel;
                members.push_back(t);
                slot = node(t).inputs[0];
            };
            throughNew(newK, concatK, transposeK, permNewK);
            throughNew(newV, concatV, transposeV, permNewV);
        }
        std::sort(members.begin(), members.end());
        std::shared_ptr<SubGraph> sub;
        CompiledNode &fused = replace(members, output, concatK >= 0 ? "FusedCachedAttention" : "FusedAttention", sub);
        const int iq = indexOf(fused.inputs, q), im = indexOf(fused.inputs, mask);
        if (concatK < 0) {
            const int ik = indexOf(fused.inputs, k), iv = indexOf(fused.inputs, v);
            fused.kernel = [=](Inputs in, Outputs out, ExecContext &exec) {
                const Tensor *tq = in[static_cast<std::size_t>(iq)], *tk = in[static_cast<std::size_t>(ik)];
                const Tensor *tv = in[static_cast<std::size_t>(iv)], *tm = in[static_cast<std::size_t>(im)];
                if (!runAttention(*layout, tq, tk, tv, tm, out[0], exec))
                    sub->run(in, out, exec);
            };
            return true;
        }
        fused.outputs = {output, k, v};
        sub->outputs = fused.outputs;
        const auto pair = m_pairs.size();
        m_pairs.push_back({pastK, pastV});
        const int ipk = indexOf(fused.inputs, pastK), ink = indexOf(fused.inputs, newK);
        const int ipv = indexOf(fused.inputs, pastV), inv = indexOf(fused.inputs, newV);
        fused.kernel = [=](Inputs in, Outputs out, ExecContext &exec) {
            const Tensor *tq = in[static_cast<std::size_t>(iq)], *tm = in[static_cast<std::size_t>(im)];
            const Tensor *nk = in[static_cast<std::size_t>(ink)], *nv = in[static_cast<std::size_t>(inv)];
            if (exec.cache) {
                View4 k4, v4;
                if (!newRows(nk, permNewK, k4) || !newRows(nv, permNewV, v4))
                    throw Error("a cached run's new keys or values are not float32 tensors of rank 4");
                appendInPlace(*layout, *exec.cache, pair, tq, k4, v4, tm, out[0], exec);
                return;
            }
            try {
                Tensor laidOut[2]; // the new rows after their Transposes
                if (transposeK) {
                    transposeK(Inputs(&nk, 1), Outputs(&laidOut[0], 1), exec);
                    nk = &laidOut[0];
                }
                if (transposeV) {
                    transposeV(Inputs(&nv, 1), Outputs(&laidOut[1], 1), exec);
                    nv = &laidOut[1];
                }
                const Tensor *pk[2] = {in[static_cast<std::size_t>(ipk)], nk};
                const Tensor *pv[2] = {in[static_cast<std::size_t>(ipv)], nv};
                appendK(Inputs(pk, 2), out.subspan(1, 1), exec);
                appendV(Inputs(pv, 2), out.subspan(2, 1), exec);
            } catch (const std::exception &) {
                sub->run(in, out, exec); // the Concat's own error, named by its node
                return;
            }
            if (!runAttention(*layout, tq, &out[1], &out[2], tm, out[0], exec))
                sub->run(in, out, exec);
        };
        return true;
    }
};

} // namespace

void fuseNodes(std::vector<CompiledNode> &nodes, const std::vector<const Tensor *> &constantOf,
               const std::vector<int> &kept, const std::vector<int> &graphInputs, PackedWeights &packs,
               std::vector<CacheAppendPair> &pairs)
{
    pairs.clear();
    Fuser(nodes, constantOf, kept, graphInputs, packs, pairs).run();
    memoizeShapeNodes(nodes);
}

} // namespace specdec::nn
