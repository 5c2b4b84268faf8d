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

/// The repeat of grouped-query attention on an operand, Reshape(Expand(Unsqueeze(x, axis 2), e), s): for x of
/// shape [B, kvHeads, T, D], each head repeated r times into [B, kvHeads r, T, D] (head g r + i is head g of x).
struct HeadRepeat
{
    int expandShape = -1, reshapeShape = -1; ///< the fused node's inputs holding e and s; -1: no repeat
    bool allowZero = false;                  ///< the Reshape's allowzero
};

/// r of a HeadRepeat for x of shape `x` and the e and s of this run: 0 when the nodes would compute anything
/// but such a repeat (or fail).
std::int64_t repeatFactor(const Shape &x, const Tensor *e, const Tensor *s, bool allowZero)
{
    if (x.size() != 4 || !e || !s || e->type() != DataType::Int64 || s->type() != DataType::Int64 || e->rank() != 1
        || s->rank() != 1 || e->size() > 5 || s->size() != 4)
        return 0;
    // Expand: [B, kvHeads, 1, T, D] broadcast with e.
    Shape out{x[0], x[1], 1, x[2], x[3]};
    const std::vector<std::int64_t> ev = e->toInt64Vector();
    for (std::size_t k = 0; k < ev.size(); ++k) {
        std::int64_t &d = out[5 - ev.size() + k];
        if (ev[k] < 0)
            return 0;
        if (ev[k] == d || ev[k] == 1)
            continue;
        if (d != 1)
            return 0;
        d = ev[k];
    }
    const std::int64_t r = out[2];
    if (r < 1 || r > (std::int64_t(1) << 20) || out[0] != x[0] || out[1] != x[1] || out[3] != x[2] || out[4] != x[3])
        return 0;
    // Reshape to [B, kvHeads r, T, D]: every given dimension (0 copying the input's where allowzero is 0) that one,
    // at most one -1 (inferred: the element counts are equal, so it is that one unless a dimension is 0).
    const Shape target{x[0], x[1] * r, x[2], x[3]};
    const std::vector<std::int64_t> sv = s->toInt64Vector();
    bool inferred = false;
    for (std::size_t k = 0; k < 4; ++k) {
        const std::int64_t d = sv[k] == 0 && !allowZero ? out[k] : sv[k];
        if (d == -1 && !inferred) {
            inferred = true;
            continue;
        }
        if (d != target[k])
            return 0;
    }
    if (inferred && std::find(target.begin(), target.end(), 0) != target.end())
        return 0;
    return r;
}

/// Where the operands of a fused attention come from (inputs of the fused node; Transposes folded into views),
/// how its scores are formed, and the repeats of grouped-query attention.
struct AttentionLayout
{
    std::vector<std::int64_t> permQ, permK, permV, permY; // empty: no Transpose
    float scale = 1.0f;
    bool divide = false;
    float fill = 0.0f;
    int q = -1, k = -1, v = -1, mask = -1; // K and V before their repeats
    int scaleInput = -1;                   // a scale computed at run time (else `scale`)
    int keep = -1;                         // the condition of Where(keep, scores, fill); -1: no Where
    HeadRepeat repeatK, repeatV;

    /// The scores' form for this run's inputs; false when a run-time scale is not one float or the mask is missing.
    bool scores(Inputs in, AttentionScores &s) const
    {
        s.scale = scale;
        s.divide = divide;
        s.fill = fill;
        s.mask = in[static_cast<std::size_t>(mask)];
        s.keep = keep >= 0 ? in[static_cast<std::size_t>(keep)] : nullptr;
        if (!s.mask || (keep >= 0 && !s.keep))
            return false;
        if (scaleInput >= 0) {
            const Tensor *t = in[static_cast<std::size_t>(scaleInput)];
            if (!t || t->type() != DataType::Float32 || t->size() != 1 || t->rank() > 4)
                return false;
            s.scale = t->data<float>()[0];
        }
        return true;
    }
    /// Query heads per key/value head for K and V of these shapes (before their repeats); 0 when the repeats do
    /// not fit.
    std::int64_t groups(Inputs in, const Shape &kShape, const Shape &vShape) const
    {
        auto factor = [&](const HeadRepeat &r, const Shape &x) -> std::int64_t {
            if (r.expandShape < 0)
                return 1;
            return repeatFactor(x, in[static_cast<std::size_t>(r.expandShape)],
                                in[static_cast<std::size_t>(r.reshapeShape)], r.allowZero);
        };
        const std::int64_t gk = factor(repeatK, kShape), gv = factor(repeatV, vShape);
        return gk == gv ? gk : 0;
    }
};

/// Y of the fused pattern from views of Kᵀ and V; false (nothing computed) when the operands do not fit.
bool attentionFromViews(const AttentionLayout &l, const Tensor *tq, const View4 &kt, const View4 &vv,
                        const AttentionScores &scores, std::int64_t groups, Tensor &out, ExecContext &exec)
{
    if (!tq || tq->type() != DataType::Float32 || tq->rank() != 4 || groups < 1)
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
    if (!attention(qv, kt, vv, scores, groups, y.mutableData<float>(), yStride, exec.pool))
        return false;
    out = std::move(y);
    return true;
}

/// The same from the fused node's inputs (K and V tensors before their repeats and Transposes).
bool runAttention(const AttentionLayout &l, Inputs in, Tensor &out, ExecContext &exec)
{
    const Tensor *tk = in[static_cast<std::size_t>(l.k)], *tv = in[static_cast<std::size_t>(l.v)];
    for (const Tensor *t : {tk, tv})
        if (!t || t->type() != DataType::Float32 || t->rank() != 4)
            return false;
    AttentionScores scores;
    if (!l.scores(in, scores))
        return false;
    const std::int64_t groups = l.groups(in, tk->shape(), tv->shape());
    return attentionFromViews(l, in[static_cast<std::size_t>(l.q)], permutedView(*tk, l.permK),
                              permutedView(*tv, l.permV), scores, groups, out, exec);
}

/// A cached run's append of one pair's new keys (or values), a view [1, heads, S, dim], written into `cache` at
/// positions [length, length + S) (the Concat in place); returns the Concat's stand-in (KvCache::standIn).
Tensor appendInPlace(KvCache &cache, std::size_t pair, bool keys, const View4 &rows)
{
    const KvCache::PairShape &ps = cache.shape(pair);
    const std::int64_t past = cache.length(), cap = cache.capacity(), rs = cache.rowStride();
    const std::int64_t dim = keys ? ps.keyDim : ps.valueDim;
    if (!rows.data || rows.dim[0] != 1 || rows.dim[1] != ps.heads || rows.dim[3] != dim || rows.dim[2] < 1
        || rows.dim[2] > cap - past)
        throw Error("a cached run's new " + std::string(keys ? "keys [" : "values [") + std::to_string(rows.dim[0])
                    + ", " + std::to_string(rows.dim[1]) + ", " + std::to_string(rows.dim[2]) + ", "
                    + std::to_string(rows.dim[3]) + "] do not fit a cache of " + std::to_string(ps.heads)
                    + " heads of size " + std::to_string(dim) + " holding " + std::to_string(past) + " of "
                    + std::to_string(cap) + " positions");
    const std::int64_t S = rows.dim[2], end = past + S, endPad = (end + 15) / 16 * 16;
    if (keys) {
        float *k = cache.keys(pair);
        for (std::int64_t h = 0; h < ps.heads; ++h)
            for (std::int64_t d = 0; d < dim; ++d) {
                float *row = k + (h * dim + d) * rs;
                const float *src = rows.data + h * rows.stride[1] + d * rows.stride[3];
                for (std::int64_t t = 0; t < S; ++t)
                    row[past + t] = src[t * rows.stride[2]];
                for (std::int64_t j = end; j < endPad; ++j)
                    row[j] = 0.0f;
            }
    } else {
        float *v = cache.values(pair);
        for (std::int64_t h = 0; h < ps.heads; ++h)
            for (std::int64_t t = 0; t < S; ++t) {
                float *row = v + (h * cap + past + t) * dim;
                const float *src = rows.data + h * rows.stride[1] + t * rows.stride[2];
                for (std::int64_t e = 0; e < dim; ++e)
                    row[e] = src[e * rows.stride[3]];
            }
    }
    cache.appended(pair, keys, end);
    return cache.standIn(pair, keys, end);
}

/// A cached run's attention of one layer over the first `end` positions of `cache`, which this run's appends
/// of the pair filled (the keys read in place as Kᵀ, the values as V).
void attentionInPlace(const AttentionLayout &l, KvCache &cache, std::size_t pair, Inputs in, Tensor &out,
                      ExecContext &exec)
{
    const KvCache::PairShape &ps = cache.shape(pair);
    const std::int64_t end = cache.appendedEnd(pair), cap = cache.capacity(), rs = cache.rowStride();
    if (end < 0)
        throw Error("a cached run's attention found its keys and values appended unevenly");
    View4 kt;
    kt.data = cache.keys(pair);
    kt.dim = {1, ps.heads, ps.keyDim, end};
    kt.stride = {ps.heads * ps.keyDim * rs, ps.keyDim * rs, rs, 1};
    kt.padded = true;
    View4 vv;
    vv.data = cache.values(pair);
    vv.dim = {1, ps.heads, end, ps.valueDim};
    vv.stride = {ps.heads * cap * ps.valueDim, cap * ps.valueDim, ps.valueDim, 1};
    AttentionScores scores;
    const Tensor *tq = in[static_cast<std::size_t>(l.q)];
    if (!l.scores(in, scores)
        || !attentionFromViews(l, tq, kt, vv, scores,
                               l.groups(in, {1, ps.heads, end, ps.keyDim}, {1, ps.heads, end, ps.valueDim}), out, exec))
        throw Error("a cached run's queries " + (tq ? tq->describe() : std::string("(none)"))
                    + ", mask, scale or head repeats do not fit attention over " + std::to_string(end)
                    + " cached positions of " + std::to_string(ps.heads) + " heads");
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

    /// The repeat of grouped-query attention (HeadRepeat) producing `slot`, which only `reader` reads: its nodes
    /// added to `members`, the slots of its shapes and its allowzero set; returns the repeated operand (the
    /// Unsqueeze's input), or `slot` when there is no such repeat.
    int throughRepeat(int slot, int reader, std::vector<int> &members, int &expandShape, int &reshapeShape,
                      bool &allowZero) const
    {
        const int reshape = producer(slot, reader);
        if (!is(reshape, "Reshape", 2) || !node(reshape).proto || onlyReader(slot) != reader)
            return slot;
        const int expand = producer(node(reshape).inputs[0], reshape);
        if (!is(expand, "Expand", 2) || onlyReader(out0(expand)) != reshape)
            return slot;
        const int unsqueeze = producer(node(expand).inputs[0], expand);
        const bool withInput = is(unsqueeze, "Unsqueeze", 2); // opset 13 on: the axes are an input
        if ((!withInput && !is(unsqueeze, "Unsqueeze", 1)) || onlyReader(out0(unsqueeze)) != expand)
            return slot;
        std::vector<std::int64_t> axes;
        if (!withInput)
            axes = intsAttribute(unsqueeze, "axes");
        else if (const Tensor *c = constant(node(unsqueeze).inputs[1]); c && c->type() == DataType::Int64)
            axes = c->toInt64Vector();
        if (axes.size() != 1 || (axes[0] != 2 && axes[0] != -3) || node(unsqueeze).inputs[0] < 0)
            return slot;
        members.insert(members.end(), {unsqueeze, expand, reshape});
        expandShape = node(expand).inputs[1];
        reshapeShape = node(reshape).inputs[1];
        allowZero = Attributes(*node(reshape).proto).getInt("allowzero", 0) != 0;
        return node(unsqueeze).inputs[0];
    }

    /// The Concat(past, new) along axis 2 producing the attention operand `slot`, when `past` is a graph input
    /// that only this Concat and Shape nodes read and only `members` and Shape nodes read the result (which may
    /// be a graph output: a present): the node, else -1. Such a Concat can append in place (KvCache.h).
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
            if (std::find(members.begin(), members.end(), r) == members.end() && !readsShapeOnly(r))
                return -1;
        return c;
    }

    /// Whether node `r` reads only the shape of its input: a Shape, or an Identity whose copy only such nodes
    /// read (a merged decoder's outputs: MergedDecoder.h).
    bool readsShapeOnly(int r) const
    {
        if (node(r).opType == "Shape")
            return true;
        if (!is(r, "Identity", 1))
            return false;
        for (int next : m_readers[static_cast<std::size_t>(out0(r))])
            if (!readsShapeOnly(next))
                return false;
        return true;
    }

    /// `slot` and the slots of its Identity copies (the values a cached run gives stand-ins).
    void copiesOf(int slot, std::vector<int> &slots) const
    {
        slots.push_back(slot);
        for (int r : m_readers[static_cast<std::size_t>(slot)])
            if (is(r, "Identity", 1))
                copiesOf(out0(r), slots);
    }

    /// Replaces a cache pair's Concat(past, new) [and the Transpose laying out `new`] by a node that, in a cached
    /// run, appends the new rows in place and gives the Concat's stand-in (appendInPlace), and is the Concat
    /// otherwise.
    void fuseAppend(int concat, std::size_t pair, bool keys)
    {
        std::vector<int> members{concat};
        int rows = node(concat).inputs[1];
        std::vector<std::int64_t> perm;
        if (const int t = producer(rows, concat); is(t, "Transpose", 1) && onlyReader(rows) == concat) {
            const std::vector<std::int64_t> p = intsAttribute(t, "perm");
            if (p.size() == 4) {
                perm = p;
                members.insert(members.begin(), t);
                rows = node(t).inputs[0];
            }
        }
        std::shared_ptr<SubGraph> sub;
        CompiledNode &fused = replace(members, out0(concat), "KvCacheAppend", sub);
        const auto in = static_cast<std::size_t>(indexOf(fused.inputs, rows));
        fused.kernel = [sub, in, perm, pair, keys](Inputs inputs, Outputs out, ExecContext &exec) {
            if (!exec.cache) {
                sub->run(inputs, out, exec);
                return;
            }
            View4 view;
            if (!newRows(inputs[in], perm, view))
                throw Error(std::string("a cached run's new ") + (keys ? "keys" : "values")
                            + " are not a float32 tensor of rank 4");
            out[0] = appendInPlace(*exec.cache, pair, keys, view);
        };
    }

    // MatMul(Q, Kt) → Mul(scale) or Div(scale) → [Where(keep, ·, fill) →] Add(mask) → Softmax(last axis) →
    // [Cast(to float) →] MatMul(·, V), with Transposes around and grouped-query repeats of K and V; and where K
    // and V are Concat(past, new) of graph inputs (the decoder-with-past layout), those Concats in place.
    bool fuseAttention(int mm1)
    {
        if (!is(mm1, "MatMul", 2) || constant(node(mm1).inputs[1]))
            return false;
        auto layout = std::make_shared<AttentionLayout>();
        // The scale: Mul(scores, c) or Div(scores, c), c one float known at load or computed at run time.
        const int scaleNode = onlyReader(out0(mm1));
        int scaleSlot = -1;
        if (is(scaleNode, "Mul", 2)) {
            scaleSlot = other(scaleNode, out0(mm1));
        } else if (is(scaleNode, "Div", 2) && node(scaleNode).inputs[0] == out0(mm1)
                   && node(scaleNode).inputs[1] != out0(mm1)) {
            scaleSlot = node(scaleNode).inputs[1];
            layout->divide = true;
        }
        if (scaleSlot < 0)
            return false;
        const bool scaleKnown = scalar(scaleSlot, &layout->scale, 4);
        if (!scaleKnown && constant(scaleSlot))
            return false; // a constant that is not one float
        std::vector<int> members{mm1, scaleNode};
        int scores = out0(scaleNode);
        // Where(keep, scores, fill): fill one float known at load.
        int keep = -1;
        if (const int w = onlyReader(scores); is(w, "Where", 3) && node(w).inputs[1] == scores && node(w).inputs[0] >= 0
            && node(w).inputs[0] != scores && scalar(node(w).inputs[2], &layout->fill, 4)) {
            keep = node(w).inputs[0];
            members.push_back(w);
            scores = out0(w);
        }
        const int add = onlyReader(scores);
        if (!is(add, "Add", 2) || other(add, scores) < 0)
            return false;
        const int mask = other(add, scores);
        const int softmax = onlyReader(out0(add));
        if (!is(softmax, "Softmax", 1) || !node(softmax).proto)
            return false;
        const Attributes attributes(*node(softmax).proto);
        if (!attributes.has("axis") || (attributes.getInt("axis", 0) != -1 && attributes.getInt("axis", 0) != 3))
            return false;
        members.insert(members.end(), {add, softmax});
        int probs = out0(softmax);
        // A Cast of the probabilities to float (the fused pattern runs on float only) changes nothing.
        if (const int cast = onlyReader(probs);
            is(cast, "Cast", 1) && node(cast).proto && Attributes(*node(cast).proto).getInt("to", 0) == 1) {
            members.push_back(cast);
            probs = out0(cast);
        }
        const int mm2 = onlyReader(probs);
        if (!is(mm2, "MatMul", 2) || node(mm2).inputs[0] != probs || constant(node(mm2).inputs[1]))
            return false;
        members.push_back(mm2);
        const int q = throughTranspose(node(mm1).inputs[0], mm1, members, layout->permQ);
        int k = throughTranspose(node(mm1).inputs[1], mm1, members, layout->permK);
        int v = throughTranspose(node(mm2).inputs[1], mm2, members, layout->permV);
        int output = out0(mm2);
        if (const int t = onlyReader(output); is(t, "Transpose", 1)) {
            const std::vector<std::int64_t> p = intsAttribute(t, "perm");
            if (p.size() == 4) {
                layout->permY = p;
                members.push_back(t);
                output = out0(t);
            }
        }
        // Grouped-query attention: K and V both repeated (a Transpose around the repeat keeps batch and heads).
        int shapeSlots[4] = {-1, -1, -1, -1}; // the repeats' Expand and Reshape shapes of K, then V
        {
            std::vector<int> repeats;
            auto keepsHeads = [](const std::vector<std::int64_t> &p) { return p.empty() || (p[0] == 0 && p[1] == 1); };
            const int kReader = layout->permK.empty() ? mm1 : producer(node(mm1).inputs[1], mm1);
            const int vReader = layout->permV.empty() ? mm2 : producer(node(mm2).inputs[1], mm2);
            const int kx = throughRepeat(k, kReader, repeats, shapeSlots[0], shapeSlots[1], layout->repeatK.allowZero);
            const int vx = throughRepeat(v, vReader, repeats, shapeSlots[2], shapeSlots[3], layout->repeatV.allowZero);
            if (kx != k && vx != v && keepsHeads(layout->permK) && keepsHeads(layout->permV)) {
                members.insert(members.end(), repeats.begin(), repeats.end());
                k = kx;
                v = vx;
            } else {
                std::fill(std::begin(shapeSlots), std::end(shapeSlots), -1);
            }
        }
        // Every operand must come from outside the group.
        std::vector<int> produced;
        for (int m : members)
            produced.insert(produced.end(), node(m).outputs.begin(), node(m).outputs.end());
        std::vector<int> operands{q, k, v, mask, scaleSlot, keep};
        operands.insert(operands.end(), std::begin(shapeSlots), std::end(shapeSlots));
        for (int s : operands)
            if (s >= 0 && std::find(produced.begin(), produced.end(), s) != produced.end())
                return false;
        // The cache appends: Kᵀ = Transpose(Concat(past_k, new_k), (0, 1, 3, 2)), V = Concat(past_v, new_v).
        const std::vector<std::int64_t> kTransposed{0, 1, 3, 2}, identity{0, 1, 2, 3};
        int concatK = -1, concatV = -1;
        if (layout->permK == kTransposed && (layout->permV.empty() || layout->permV == identity)) {
            concatK = cacheAppend(k, mm1, members);
            concatV = cacheAppend(v, mm2, members);
            if (concatK < 0 || concatV < 0 || concatK == concatV)
                concatK = concatV = -1;
        }
        const bool cached = concatK >= 0;
        const std::size_t pair = m_pairs.size();
        if (cached) {
            CacheAppendPair p{node(concatK).inputs[0], node(concatV).inputs[0], {}};
            copiesOf(k, p.presents);
            copiesOf(v, p.presents);
            m_pairs.push_back(std::move(p));
            fuseAppend(concatK, pair, true);
            fuseAppend(concatV, pair, false);
        }
        std::sort(members.begin(), members.end());
        std::shared_ptr<SubGraph> sub;
        CompiledNode &fused = replace(members, output, cached ? "FusedCachedAttention" : "FusedAttention", sub);
        auto input = [&](int slot) { return slot >= 0 ? indexOf(fused.inputs, slot) : -1; };
        layout->q = input(q);
        layout->k = input(k);
        layout->v = input(v);
        layout->mask = input(mask);
        layout->scaleInput = scaleKnown ? -1 : input(scaleSlot);
        layout->keep = input(keep);
        layout->repeatK.expandShape = input(shapeSlots[0]);
        layout->repeatK.reshapeShape = input(shapeSlots[1]);
        layout->repeatV.expandShape = input(shapeSlots[2]);
        layout->repeatV.reshapeShape = input(shapeSlots[3]);
        fused.kernel = [layout, sub, cached, pair](Inputs in, Outputs out, ExecContext &exec) {
            if (cached && exec.cache) {
                attentionInPlace(*layout, *exec.cache, pair, in, out[0], exec);
                return;
            }
            if (!runAttention(*layout, in, out[0], exec))
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
