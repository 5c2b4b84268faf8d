// SPDX-License-Identifier: GPL-3.0-or-later
#include "onnx/ElementTypes.h"

#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>
#include <utility>

namespace specdec::nn {

namespace {

using Types = std::unordered_map<std::string, int>;

int typeOfValue(const Types &types, const std::string &name)
{
    const auto it = types.find(name);
    return it == types.end() ? 0 : it->second;
}

const onnx::AttributeProto *attribute(const onnx::NodeProto &node, std::string_view name)
{
    for (const auto &a : node.attribute())
        if (a.name() == name)
            return &a;
    return nullptr;
}

/// An integer attribute naming a data type (Cast's `to`, the `dtype` of EyeLike and the Random* family), or
/// `otherwise` where the node has none.
int typeAttribute(const onnx::NodeProto &node, std::string_view name, int otherwise)
{
    const onnx::AttributeProto *a = attribute(node, name);
    return a && a->has_i() ? static_cast<int>(a->i()) : otherwise;
}

/// The type an operator's attribute or a particular input gives its first output; nullopt where the schema's
/// type constraints tell (typeFromSchema).
std::optional<int> typeFromAttributes(const onnx::NodeProto &node, const Types &types)
{
    const std::string &op = node.op_type();
    auto inputType = [&](int i) { return i < node.input_size() ? typeOfValue(types, node.input(i)) : 0; };
    if (op == "Cast")
        return typeAttribute(node, "to", 0);
    if (op == "Constant") {
        for (const auto &a : node.attribute()) {
            if (a.name() == "value" && a.has_t())
                return a.t().data_type();
            if (a.name() == "sparse_value" && a.has_sparse_tensor())
                return a.sparse_tensor().values().data_type();
            if (a.name() == "value_float" || a.name() == "value_floats")
                return onnx::TensorProto::FLOAT;
            if (a.name() == "value_int" || a.name() == "value_ints")
                return onnx::TensorProto::INT64;
            if (a.name() == "value_string" || a.name() == "value_strings")
                return onnx::TensorProto::STRING;
        }
        return 0;
    }
    if (op == "ConstantOfShape") {
        const onnx::AttributeProto *a = attribute(node, "value");
        return a && a->has_t() ? a->t().data_type() : onnx::TensorProto::FLOAT;
    }
    if (op == "EyeLike" || op == "RandomNormalLike" || op == "RandomUniformLike" || op == "Bernoulli")
        return typeAttribute(node, "dtype", inputType(0));
    if (op == "RandomNormal" || op == "RandomUniform")
        return typeAttribute(node, "dtype", onnx::TensorProto::FLOAT);
    if (op == "Multinomial")
        return typeAttribute(node, "dtype", onnx::TensorProto::INT32);
    if (op == "QuantizeLinear")
        return node.input_size() > 2 && !node.input(2).empty() ? inputType(2) : onnx::TensorProto::UINT8;
    return std::nullopt;
}

/// Output `index`'s type from the schema: its fixed type, the type of an input of the same type constraint, or
/// the constraint's only allowed type.
int typeFromSchema(const onnx::NodeProto &node, const onnx::OpSchema &schema, int index, const Types &types)
{
    const auto &outputs = schema.outputs();
    if (outputs.empty())
        return 0;
    const auto &formal = outputs[std::min(static_cast<std::size_t>(index), outputs.size() - 1)];
    const std::string &typeString = formal.GetTypeStr();
    if (const int fixed = dataTypeOfTypeString(typeString); fixed != 0)
        return fixed;
    // An input of the same constraint, known already (a variadic last formal covers the inputs after it).
    const auto &inputs = schema.inputs();
    for (int i = 0; i < node.input_size() && !inputs.empty(); ++i) {
        const auto &in = inputs[std::min(static_cast<std::size_t>(i), inputs.size() - 1)];
        if (in.GetTypeStr() == typeString && !node.input(i).empty())
            if (const int t = typeOfValue(types, node.input(i)); t != 0)
                return t;
    }
    for (const auto &constraint : schema.typeConstraintParams())
        if (constraint.type_param_str == typeString && constraint.allowed_type_strs.size() == 1)
            return dataTypeOfTypeString(constraint.allowed_type_strs.front());
    return 0;
}

void addNodeTypes(const onnx::NodeProto &node, const onnx::OpSchema *schema, Types &types)
{
    if (!schema)
        return;
    const onnx::AttributeProto *thenBranch = node.op_type() == "If" ? attribute(node, "then_branch") : nullptr;
    const std::optional<int> first = typeFromAttributes(node, types);
    for (int i = 0; i < node.output_size(); ++i) {
        const std::string &out = node.output(i);
        if (out.empty() || typeOfValue(types, out) != 0)
            continue; // declared in the file (value_info): kept
        int t = 0;
        if (thenBranch && thenBranch->has_g() && i < thenBranch->g().output_size())
            t = thenBranch->g().output(i).type().tensor_type().elem_type();
        else if (i == 0 && first)
            t = *first;
        else
            t = typeFromSchema(node, *schema, i, types);
        if (t != 0)
            types[out] = t;
    }
}

} // namespace

int dataTypeOfTypeString(const std::string &typeString)
{
    static constexpr std::array<std::pair<std::string_view, int>, 16> kTypes{{
        {"tensor(float)", onnx::TensorProto::FLOAT},
        {"tensor(uint8)", onnx::TensorProto::UINT8},
        {"tensor(int8)", onnx::TensorProto::INT8},
        {"tensor(uint16)", onnx::TensorProto::UINT16},
        {"tensor(int16)", onnx::TensorProto::INT16},
        {"tensor(int32)", onnx::TensorProto::INT32},
        {"tensor(int64)", onnx::TensorProto::INT64},
        {"tensor(string)", onnx::TensorProto::STRING},
        {"tensor(bool)", onnx::TensorProto::BOOL},
        {"tensor(float16)", onnx::TensorProto::FLOAT16},
        {"tensor(double)", onnx::TensorProto::DOUBLE},
        {"tensor(uint32)", onnx::TensorProto::UINT32},
        {"tensor(uint64)", onnx::TensorProto::UINT64},
        {"tensor(complex64)", onnx::TensorProto::COMPLEX64},
        {"tensor(complex128)", onnx::TensorProto::COMPLEX128},
        {"tensor(bfloat16)", onnx::TensorProto::BFLOAT16},
    }};
    for (const auto &[name, type] : kTypes)
        if (name == typeString)
            return type;
    return 0;
}

std::unordered_map<std::string, int> elementTypes(const onnx::GraphProto &graph, const SchemaOf &schemaOf)
{
    Types types;
    for (const auto *list : {&graph.input(), &graph.output(), &graph.value_info()})
        for (const auto &vi : *list)
            if (vi.type().has_tensor_type() && vi.type().tensor_type().elem_type() != 0)
                types[vi.name()] = vi.type().tensor_type().elem_type();
    for (const auto &init : graph.initializer())
        types[init.name()] = init.data_type();
    for (const auto &node : graph.node())
        addNodeTypes(node, schemaOf(node), types);
    return types;
}

} // namespace specdec::nn
