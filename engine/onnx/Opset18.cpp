// SPDX-License-Identifier: GPL-3.0-or-later
#include "onnx/Opset18.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <array>
#include <map>

namespace specdec::nn::opset18 {

namespace {

// ONNX's Changelog, "Version 18 of the default ONNX operator set": the operators with a schema of version 18.
constexpr std::array<std::string_view, 25> kChanged = {
    "BitwiseAnd",
    "BitwiseNot",
    "BitwiseOr",
    "BitwiseXor",
    "CenterCropPad",
    "Col2Im",
    "GroupNormalization",
    "LpPool",
    "Mish",
    "OptionalGetElement",
    "OptionalHasElement",
    "Pad",
    "ReduceL1",
    "ReduceL2",
    "ReduceLogSum",
    "ReduceLogSumExp",
    "ReduceMax",
    "ReduceMean",
    "ReduceMin",
    "ReduceProd",
    "ReduceSumSquare",
    "Resize",
    "ScatterElements",
    "ScatterND",
    "Split",
};

bool isReduction(std::string_view op)
{
    return op.rfind("Reduce", 0) == 0 && op != "ReduceSum";
}

/// The int64 values of `name` if an initializer or a Constant node of `graph` holds them (raw or typed).
bool constantInts(const onnx::GraphProto &graph, const std::string &name, std::vector<std::int64_t> &values)
{
    auto read = [&](const onnx::TensorProto &t) {
        if (t.data_type() != onnx::TensorProto::INT64 || t.data_location() == onnx::TensorProto::EXTERNAL)
            return false;
        values.clear();
        if (!t.raw_data().empty()) {
            const std::string &raw = t.raw_data();
            if (raw.size() % 8 != 0)
                return false;
            for (std::size_t i = 0; i < raw.size(); i += 8) {
                std::int64_t v = 0;
                for (int b = 7; b >= 0; --b)
                    v = static_cast<std::int64_t>(static_cast<std::uint64_t>(v) << 8
                                                  | static_cast<unsigned char>(raw[i + static_cast<std::size_t>(b)]));
                values.push_back(v);
            }
        } else {
            values.assign(t.int64_data().begin(), t.int64_data().end());
        }
        return true;
    };
    for (const auto &init : graph.initializer())
        if (init.name() == name)
            return read(init);
    for (const auto &node : graph.node())
        if (node.op_type() == "Constant" && node.output_size() == 1 && node.output(0) == name)
            for (const auto &a : node.attribute())
                if (a.name() == "value" && a.has_t())
                    return read(a.t());
    return false;
}

void dropAttribute(onnx::NodeProto &node, std::string_view name)
{
    auto *attributes = node.mutable_attribute();
    for (int i = 0; i < attributes->size(); ++i)
        if (attributes->Get(i).name() == name) {
            attributes->DeleteSubrange(i, 1);
            return;
        }
}

} // namespace

bool changedAt18(std::string_view op)
{
    return std::find(kChanged.begin(), kChanged.end(), op) != kChanged.end();
}

void lowerTo17(onnx::ModelProto &model)
{
    for (auto &import : *model.mutable_opset_import())
        if ((import.domain().empty() || import.domain() == "ai.onnx") && import.version() == kOpset)
            import.set_version(17);
    onnx::GraphProto &graph = *model.mutable_graph();
    for (auto &node : *graph.mutable_node()) {
        if (!node.domain().empty() && node.domain() != "ai.onnx")
            continue;
        const std::string &op = node.op_type();
        if (isReduction(op)) {
            std::vector<std::int64_t> axes;
            const bool known = node.input_size() >= 2 && !node.input(1).empty()
                && constantInts(graph, node.input(1), axes);
            if (node.input_size() >= 2)
                node.mutable_input()->DeleteSubrange(1, node.input_size() - 1);
            dropAttribute(node, "noop_with_empty_axes");
            if (known && !axes.empty()) {
                auto *a = node.add_attribute();
                a->set_name("axes");
                a->set_type(onnx::AttributeProto::INTS);
                for (std::int64_t v : axes)
                    a->add_ints(v);
            }
        } else if (op == "Split") {
            dropAttribute(node, "num_outputs");
        } else if (op == "ScatterND" || op == "ScatterElements") {
            for (const auto &a : node.attribute())
                if (a.name() == "reduction" && (a.s() == "max" || a.s() == "min")) {
                    dropAttribute(node, "reduction");
                    break;
                }
        }
    }
}

std::string foreignOperatorMessage(const onnx::NodeProto &node)
{
    const std::string name = node.domain() + "." + node.op_type();
    if (node.domain() == "com.microsoft")
        return "operator " + name
            + " is an ONNX Runtime contrib operator (an onnxruntime-genai, optimized or quantized build); export the "
              "model with Optimum instead: optimum-cli export onnx --task text-generation-with-past, in float32 or "
              "float16, without onnxruntime-genai or q4 builds";
    return "operator " + name + ": operators of domain '" + node.domain() + "' are not supported";
}

} // namespace specdec::nn::opset18
