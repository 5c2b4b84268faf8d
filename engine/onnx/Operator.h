// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The operator registry: for each supported ONNX operator, the schema versions it implements, the
// attributes it understands, and a factory that turns a node into a kernel (a function from input tensors
// to output tensors). Factories check attributes and element types at load time and throw
// UnsupportedError for anything they cannot run.

#include "onnx/Tensor.h"

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace onnx {
class NodeProto;
class AttributeProto;
} // namespace onnx

namespace specdec::nn {

class ThreadPool;
class PackedWeights;
class KvCache;

/// A model feature the executor does not implement. `kind` lets tests group skipped cases.
class UnsupportedError : public Error
{
public:
    enum class Kind { Operator, Version, Attribute, DataType };
    UnsupportedError(Kind kind, const std::string &message)
        : Error(message)
        , m_kind(kind)
    {
    }
    Kind kind() const { return m_kind; }
    static std::string_view kindName(Kind kind);

private:
    Kind m_kind;
};

/// Typed access to a node's attributes with defaults; a wrong attribute type is an Error.
class Attributes
{
public:
    explicit Attributes(const onnx::NodeProto &node)
        : m_node(&node)
    {
    }
    bool has(std::string_view name) const;
    std::int64_t getInt(std::string_view name, std::int64_t fallback) const;
    float getFloat(std::string_view name, float fallback) const;
    std::string getString(std::string_view name, const std::string &fallback) const;
    std::vector<std::int64_t> getInts(std::string_view name) const;
    std::vector<float> getFloats(std::string_view name) const;
    std::vector<std::string> getStrings(std::string_view name) const;
    /// A TENSOR attribute (Constant's value, ConstantOfShape's value).
    Tensor getTensor(std::string_view name) const;
    std::int64_t requireInt(std::string_view name) const;

private:
    const onnx::NodeProto *m_node;
    const onnx::AttributeProto *find(std::string_view name) const;
    const onnx::AttributeProto &expect(std::string_view name, int type) const;
};

/// What the pool and kernels share during one run.
struct ExecContext
{
    ThreadPool &pool;
    KvCache *cache = nullptr; ///< the cache a cached run appends to in place (OnnxGraph::runCached), else nullptr
};

/// A loaded node: inputs (nullptr for an absent optional input) -> outputs (one per node output;
/// a kernel may leave an output undefined when the node's output name is empty).
using Inputs = std::span<const Tensor *const>;
using Outputs = std::span<Tensor>;
using Kernel = std::function<void(Inputs inputs, Outputs outputs, ExecContext &)>;

/// What a factory sees of a node at load time.
struct NodeContext
{
    const onnx::NodeProto &node;
    int version; ///< since-version of the schema in effect (e.g. 13 for Softmax-13)
    Attributes attributes;
    std::vector<DataType> inputTypes;      ///< Undefined where the type is unknown before running
    std::vector<bool> inputPresent;        ///< false for an empty (omitted) optional input name
    std::vector<const Tensor *> constants; ///< values known at load (initializers, Constant nodes)
    int outputCount;
    PackedWeights *packs = nullptr; ///< the graph's packed constant matrices (nullptr: pack your own)

    DataType inputType(int i) const;
    bool hasInput(int i) const;
    const Tensor *constant(int i) const;
    /// Throws UnsupportedError(DataType) if input i's known type is not one of `allowed`.
    void requireType(int i, std::initializer_list<DataType> allowed) const;
};

using KernelFactory = Kernel (*)(const NodeContext &);

struct OperatorSpec
{
    std::string name;
    std::vector<int> versions;           ///< schema since-versions implemented, ascending
    std::vector<std::string> attributes; ///< every attribute the implementation understands
    KernelFactory factory;
};

/// Every supported operator of the default ONNX domain.
const std::vector<OperatorSpec> &operatorRegistry();
const OperatorSpec *findOperator(std::string_view name);

/// One line of `specdec onnx-ops`: an operator and the opsets (model opset_import versions) it runs at.
struct SupportedOperator
{
    std::string name;
    int firstOpset;
    int lastOpset;
    std::vector<int> versions;
};
std::vector<SupportedOperator> supportedOperators();
/// Builds the ONNX library's registries (schemas, opset ranges) once, under a static of this library: their own
/// first-use initialisation happens inside libonnx, where ThreadSanitizer cannot see its ordering, and two models
/// load side by side (Experiment::load). Called before any use of them; cheap after the first call.
void initOnnxRegistries();
/// The newest default-domain opset this build's ONNX library knows (17 for ONNX 1.12).
int newestKnownOpset();
/// The newest default-domain opset the executor runs: 18 on ONNX 1.12 through the table of Opset18.h.
int newestRunnableOpset();

// Family registration (one file each).
void registerElementwiseOperators(std::vector<OperatorSpec> &specs);
void registerReduceOperators(std::vector<OperatorSpec> &specs);
void registerShapeOperators(std::vector<OperatorSpec> &specs);
void registerIndexOperators(std::vector<OperatorSpec> &specs);
void registerMatMulOperators(std::vector<OperatorSpec> &specs);
void registerRecurrentOperators(std::vector<OperatorSpec> &specs);

} // namespace specdec::nn
