// SPDX-License-Identifier: GPL-3.0-or-later
#include "onnx/Operator.h"

#include "onnx/Opset18.h"
#include "onnx/TensorProtoIo.h"

#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>

#include <algorithm>

namespace specdec::nn {

std::string_view UnsupportedError::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Operator: return "unsupported operator";
    case Kind::Version: return "unsupported operator version";
    case Kind::Attribute: return "unsupported attribute";
    case Kind::DataType: return "unsupported data type";
    }
    return "unsupported";
}

// ---- Attributes ----

const onnx::AttributeProto *Attributes::find(std::string_view name) const
{
    for (const auto &a : m_node->attribute())
        if (a.name() == name)
            return &a;
    return nullptr;
}

bool Attributes::has(std::string_view name) const
{
    return find(name) != nullptr;
}

const onnx::AttributeProto &Attributes::expect(std::string_view name, int type) const
{
    const onnx::AttributeProto *a = find(name);
    if (!a)
        throw Error("attribute '" + std::string(name) + "' is missing");
    if (a->type() != type)
        throw Error("attribute '" + std::string(name) + "' has type "
                    + onnx::AttributeProto::AttributeType_Name(a->type()) + ", expected "
                    + onnx::AttributeProto::AttributeType_Name(static_cast<onnx::AttributeProto::AttributeType>(type)));
    return *a;
}

std::int64_t Attributes::getInt(std::string_view name, std::int64_t fallback) const
{
    return has(name) ? expect(name, onnx::AttributeProto::INT).i() : fallback;
}

std::int64_t Attributes::requireInt(std::string_view name) const
{
    return expect(name, onnx::AttributeProto::INT).i();
}

float Attributes::getFloat(std::string_view name, float fallback) const
{
    return has(name) ? expect(name, onnx::AttributeProto::FLOAT).f() : fallback;
}

std::string Attributes::getString(std::string_view name, const std::string &fallback) const
{
    return has(name) ? expect(name, onnx::AttributeProto::STRING).s() : fallback;
}

std::vector<std::int64_t> Attributes::getInts(std::string_view name) const
{
    if (!has(name))
        return {};
    const auto &a = expect(name, onnx::AttributeProto::INTS);
    return {a.ints().begin(), a.ints().end()};
}

std::vector<float> Attributes::getFloats(std::string_view name) const
{
    if (!has(name))
        return {};
    const auto &a = expect(name, onnx::AttributeProto::FLOATS);
    return {a.floats().begin(), a.floats().end()};
}

std::vector<std::string> Attributes::getStrings(std::string_view name) const
{
    if (!has(name))
        return {};
    const auto &a = expect(name, onnx::AttributeProto::STRINGS);
    return {a.strings().begin(), a.strings().end()};
}

Tensor Attributes::getTensor(std::string_view name) const
{
    return tensorFromProto(expect(name, onnx::AttributeProto::TENSOR).t(), "attribute '" + std::string(name) + "'");
}

// ---- NodeContext ----

DataType NodeContext::inputType(int i) const
{
    return i < static_cast<int>(inputTypes.size()) ? inputTypes[static_cast<std::size_t>(i)] : DataType::Undefined;
}

bool NodeContext::hasInput(int i) const
{
    return i < static_cast<int>(inputPresent.size()) && inputPresent[static_cast<std::size_t>(i)];
}

const Tensor *NodeContext::constant(int i) const
{
    return i < static_cast<int>(constants.size()) ? constants[static_cast<std::size_t>(i)] : nullptr;
}

void NodeContext::requireType(int i, std::initializer_list<DataType> allowed) const
{
    const DataType t = inputType(i);
    if (t == DataType::Undefined || std::find(allowed.begin(), allowed.end(), t) != allowed.end())
        return;
    std::string list;
    for (DataType a : allowed)
        list += (list.empty() ? "" : ", ") + std::string(dataTypeName(a));
    throw UnsupportedError(UnsupportedError::Kind::DataType,
                           "input " + std::to_string(i) + " has element type " + std::string(dataTypeName(t))
                               + "; supported: " + list);
}

// ---- registry ----

const std::vector<OperatorSpec> &operatorRegistry()
{
    static const std::vector<OperatorSpec> specs = [] {
        std::vector<OperatorSpec> all;
        registerElementwiseOperators(all);
        registerReduceOperators(all);
        registerShapeOperators(all);
        registerIndexOperators(all);
        registerMatMulOperators(all);
        registerRecurrentOperators(all);
        std::sort(all.begin(), all.end(), [](const auto &a, const auto &b) { return a.name < b.name; });
        return all;
    }();
    return specs;
}

const OperatorSpec *findOperator(std::string_view name)
{
    for (const OperatorSpec &spec : operatorRegistry())
        if (spec.name == name)
            return &spec;
    return nullptr;
}

void initOnnxRegistries()
{
    static const bool ready = [] {
        onnx::OpSchemaRegistry::DomainToVersionRange::Instance();
        return onnx::OpSchemaRegistry::Schema("Add", 14, onnx::ONNX_DOMAIN) != nullptr;
    }();
    (void)ready;
}

int newestKnownOpset()
{
    initOnnxRegistries();
    const auto &map = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
    const auto it = map.find(onnx::ONNX_DOMAIN);
    return it != map.end() ? it->second.second : 17;
}

int newestRunnableOpset()
{
    return std::max(newestKnownOpset(), opset18::kOpset);
}

std::vector<SupportedOperator> supportedOperators()
{
    std::vector<SupportedOperator> result;
    const int known = newestKnownOpset();
    for (const OperatorSpec &spec : operatorRegistry()) {
        SupportedOperator op{spec.name, 0, 0, spec.versions};
        for (int opset = 1; opset <= newestRunnableOpset(); ++opset) {
            // Past the library's opsets (18 on ONNX 1.12): the operators of Opset18.h at 18, the others at 17's schema.
            const onnx::OpSchema *schema = onnx::OpSchemaRegistry::Schema(spec.name, std::min(opset, known),
                                                                          onnx::ONNX_DOMAIN);
            if (!schema)
                continue;
            const int version = opset > known && opset18::changedAt18(spec.name) ? opset : schema->since_version();
            const bool ok = std::find(spec.versions.begin(), spec.versions.end(), version) != spec.versions.end();
            if (ok) {
                if (op.firstOpset == 0)
                    op.firstOpset = opset;
                op.lastOpset = opset;
            }
        }
        result.push_back(std::move(op));
    }
    return result;
}

} // namespace specdec::nn
