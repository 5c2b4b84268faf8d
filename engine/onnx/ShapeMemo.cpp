// SPDX-License-Identifier: GPL-3.0-or-later
#include "onnx/ShapeMemo.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <memory>
#include <mutex>

namespace specdec::nn {

namespace {

/// The last inputs and outputs of one node (see ShapeMemo.h).
class Memo
{
public:
    /// The input values a memo compares: the shape alone for Shape's data input, else type, shape and
    /// (at most kMaxValues) bytes of integer tensors. False for anything else (the kernel then just runs).
    static constexpr std::int64_t kMaxValues = 16;

    bool lookup(Inputs in, bool shapeOnly, Outputs out)
    {
        std::lock_guard lock(m_mutex);
        if (!m_valid || in.size() != m_inputs.size())
            return false;
        for (std::size_t i = 0; i < in.size(); ++i)
            if (!same(in[i], m_inputs[i], shapeOnly && i == 0))
                return false;
        for (std::size_t k = 0; k < out.size() && k < m_outputs.size(); ++k)
            out[k] = m_outputs[k];
        return true;
    }

    void store(Inputs in, bool shapeOnly, Outputs out)
    {
        std::lock_guard lock(m_mutex);
        m_valid = false;
        m_inputs.clear();
        for (std::size_t i = 0; i < in.size(); ++i) {
            if (in[i] && !(shapeOnly && i == 0) && !small(*in[i]))
                return;
            // (Shape's data input is kept by its shape only, not held alive.)
            m_inputs.push_back(in[i] && in[i]->defined()
                                   ? Key{true, in[i]->type(), in[i]->shape(), shapeOnly && i == 0 ? Tensor() : *in[i]}
                                   : Key{});
        }
        for (const Tensor &t : out)
            if (t.defined() && !small(t))
                return;
        m_outputs.assign(out.begin(), out.end());
        m_valid = true;
    }

    static bool small(const Tensor &t)
    {
        return (t.type() == DataType::Int64 || t.type() == DataType::Int32) && t.size() <= kMaxValues;
    }

private:
    struct Key
    {
        bool present = false;
        DataType type = DataType::Undefined;
        Shape shape;
        Tensor value;
    };
    std::mutex m_mutex;
    bool m_valid = false;
    std::vector<Key> m_inputs;
    std::vector<Tensor> m_outputs;

    static bool same(const Tensor *t, const Key &key, bool shapeOnly)
    {
        if (!t || !t->defined())
            return !key.present;
        if (!key.present || t->type() != key.type || t->shape() != key.shape)
            return false;
        return shapeOnly || std::memcmp(t->bytes(), key.value.bytes(), t->byteSize()) == 0;
    }
};

} // namespace

void memoizeShapeNodes(std::vector<CompiledNode> &nodes)
{
    static const char *const kOps[] = {"Shape", "Gather", "Unsqueeze", "Squeeze", "Concat", "Cast",  "Slice",
                                       "Add",   "Sub",    "Mul",       "Div",     "Equal",  "Where", "Range"};
    for (CompiledNode &node : nodes) {
        if (std::find_if(std::begin(kOps), std::end(kOps), [&](const char *op) { return node.opType == op; })
            == std::end(kOps))
            continue;
        const bool shapeOnly = node.opType == "Shape";
        auto memo = std::make_shared<Memo>();
        node.kernel = [memo, shapeOnly, kernel = std::move(node.kernel)](Inputs in, Outputs out, ExecContext &exec) {
            if (memo->lookup(in, shapeOnly, out))
                return;
            kernel(in, out, exec);
            memo->store(in, shapeOnly, out);
        };
    }
}

} // namespace specdec::nn
