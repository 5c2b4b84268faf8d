// SPDX-License-Identifier: GPL-3.0-or-later
#include "onnx/OnnxGraph.h"

#include "onnx/CompiledNode.h"
#include "onnx/ElementTypes.h"
#include "onnx/ExternalData.h"
#include "onnx/Gemm.h"
#include "onnx/GraphFusion.h"
#include "onnx/KvCache.h"
#include "onnx/MergedDecoder.h"
#include "onnx/Operator.h"
#include "onnx/Opset18.h"
#include "onnx/TensorProtoIo.h"
#include "onnx/ThreadPool.h"

#include <onnx/checker.h>
#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <deque>
#include <limits>
#include <unordered_map>
#include <unordered_set>

namespace specdec::nn {

namespace {

using Kind = UnsupportedError::Kind;

std::string nodeLabel(const onnx::NodeProto &node, int index, int opset)
{
    std::string label = "node ";
    if (node.name().empty())
        label.append("#").append(std::to_string(index));
    else
        label.append("'").append(node.name()).append("'");
    label.append(" (").append(node.op_type()).append(", opset ").append(std::to_string(opset)).append(")");
    return label;
}

ValueInfo valueInfoFrom(const onnx::ValueInfoProto &proto)
{
    ValueInfo info;
    info.name = proto.name();
    if (!proto.type().has_tensor_type())
        return info;
    const auto &tensorType = proto.type().tensor_type();
    info.onnxType = tensorType.elem_type();
    info.type = fromOnnxDataType(info.onnxType);
    if (tensorType.has_shape()) {
        info.hasShape = true;
        for (const auto &dim : tensorType.shape().dim()) {
            Dimension d;
            if (dim.has_dim_value())
                d.value = dim.dim_value();
            else if (dim.has_dim_param())
                d.symbol = dim.dim_param();
            info.shape.push_back(d);
        }
    }
    return info;
}

/// The executor's operator for `node` and the schema version it runs at; UnsupportedError for a foreign
/// domain, an operator unknown at `opset`, one the executor lacks, or a version it does not implement.
std::pair<const OperatorSpec *, int> checkOperator(const onnx::NodeProto &node, int opset)
{
    if (!node.domain().empty() && node.domain() != "ai.onnx")
        throw UnsupportedError(Kind::Operator, opset18::foreignOperatorMessage(node));
    // Opset 18 beyond what the ONNX library knows: the operators it changed run at 18, the others at their 17 schema.
    const bool beyondLibrary = opset == opset18::kOpset && newestKnownOpset() < opset18::kOpset;
    const int lookup = beyondLibrary ? 17 : opset;
    const onnx::OpSchema *schema = onnx::OpSchemaRegistry::Schema(node.op_type(), lookup, onnx::ONNX_DOMAIN);
    if (!schema)
        throw UnsupportedError(Kind::Operator, "operator " + node.op_type() + " is unknown at this opset");
    const OperatorSpec *spec = findOperator(node.op_type());
    if (!spec)
        throw UnsupportedError(Kind::Operator, "operator " + node.op_type() + " is not supported");
    const int version = beyondLibrary && opset18::changedAt18(node.op_type()) ? opset18::kOpset : schema->since_version();
    if (std::find(spec->versions.begin(), spec->versions.end(), version) == spec->versions.end()) {
        std::string known;
        for (int v : spec->versions)
            known += (known.empty() ? "" : ", ") + std::to_string(v);
        throw UnsupportedError(Kind::Version,
                               node.op_type() + "-" + std::to_string(version)
                                   + " is not supported (supported versions: " + known + ")");
    }
    return {spec, version};
}

bool importsOpset18BeyondLibrary(const onnx::ModelProto &model)
{
    if (newestKnownOpset() >= opset18::kOpset)
        return false;
    for (const auto &import : model.opset_import())
        if ((import.domain().empty() || import.domain() == "ai.onnx") && import.version() == opset18::kOpset)
            return true;
    return false;
}

} // namespace

std::string ValueInfo::describe() const
{
    std::string s = onnxType ? onnxDataTypeName(onnxType) : "?";
    if (!hasShape)
        return s + "[?]";
    s += "[";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i)
            s += ", ";
        s += shape[i].fixed() ? std::to_string(shape[i].value) : shape[i].symbol.empty() ? "?" : shape[i].symbol;
    }
    return s + "]";
}

struct OnnxGraph::Impl
{
    std::string name;
    std::int64_t parameters = 0; ///< elements of the floating-point initializers
    int opset = 0;
    std::vector<ValueInfo> inputs;
    std::vector<ValueInfo> optionalInputs;
    std::vector<ValueInfo> outputs;
    std::map<std::string, std::string> metadata;
    std::map<std::string, int> operatorCounts;

    std::vector<std::string> slotNames;
    std::unordered_map<std::string, int> slotOf;
    std::vector<Tensor> constants; // per slot; defined for initializers and folded Constant nodes
    std::vector<int> inputSlots;
    std::vector<int> optionalInputSlots;
    std::vector<int> outputSlots;
    std::vector<CompiledNode> nodes;   // topological order
    std::vector<CachePair> cachePairs; // the FusedCachedAttention nodes' pairs, in their order
    std::vector<CacheAppendPair> cachePairSlots;
    std::unique_ptr<ThreadPool> pool = std::make_unique<ThreadPool>(0);
    std::unique_ptr<ExternalData> external; // the model's external data files, mapped (their tensors share them)

    int slot(const std::string &valueName)
    {
        const auto [it, inserted] = slotOf.emplace(valueName, static_cast<int>(slotNames.size()));
        if (inserted) {
            slotNames.push_back(valueName);
            constants.emplace_back();
        }
        return it->second;
    }

    void build(onnx::ModelProto &model, const LoadProgress &progress);
    std::vector<Tensor> execute(std::vector<Tensor> &values, KvCache *cache = nullptr);
};

namespace {

/// True when b is a's transpose, both non-square matrices: a tied embedding that the export stored a second
/// time as the unembedding ([V, d] and [d, V]). (Equal matrices of one shape are not taken for copies: a grown
/// network's new blocks start with identical zero projections.)
bool transposedCopy(const Tensor &a, const Tensor &b)
{
    if (a.type() != DataType::Float32 || b.type() != DataType::Float32 || a.shape().size() != 2 || b.shape().size() != 2
        || a.shape()[0] == a.shape()[1] || a.shape()[0] != b.shape()[1] || a.shape()[1] != b.shape()[0])
        return false;
    const float *x = a.data<float>(), *y = b.data<float>();
    const std::int64_t rows = a.shape()[0], cols = a.shape()[1];
    for (std::int64_t i = 0; i < rows; ++i)
        for (std::int64_t j = 0; j < cols; ++j)
            if (x[i * cols + j] != y[j * rows + i])
                return false;
    return true;
}

/// The elements of the floating-point weights, a tied embedding stored twice (transposed) counted once: PyTorch's
/// parameter count of the exported module.
std::int64_t distinctParameters(const std::vector<const Tensor *> &weights)
{
    std::int64_t total = 0;
    for (std::size_t i = 0; i < weights.size(); ++i) {
        const Tensor &w = *weights[i];
        if (!w.defined() || (w.type() != DataType::Float32 && w.type() != DataType::Float64))
            continue;
        bool copy = false;
        for (std::size_t j = 0; j < i && !copy; ++j)
            copy = weights[j]->defined() && transposedCopy(*weights[j], w);
        if (!copy)
            total += w.size();
    }
    return total;
}

} // namespace

OnnxGraph::OnnxGraph(std::unique_ptr<Impl> impl)
    : d(std::move(impl))
{
}
OnnxGraph::OnnxGraph(OnnxGraph &&) noexcept = default;
OnnxGraph &OnnxGraph::operator=(OnnxGraph &&) noexcept = default;
OnnxGraph::~OnnxGraph() = default;

OnnxGraph OnnxGraph::load(const std::string &path, const LoadProgress &progress)
{
    progress.report(0.0);
    // Streamed with a bound: /dev/zero fails on its first bytes, a sparse 64 GB file at once, an endless
    // stream after the model-memory limit (a model larger than that could not be held anyway).
    onnx::ModelProto model;
    if (!parseFileBounded(path, model, tensorMemoryLimit(),
                          "a model may hold (the setting SPECDEC_MAX_MODEL_MEMORY, in MiB)"))
        throw Error(path + ": not an ONNX model (the file is truncated or malformed)");
    progress.report(0.05);
    return fromModel(model, path, path, progress);
}

OnnxGraph OnnxGraph::fromBytes(const std::string &bytes, const std::string &name)
{
    if (bytes.empty())
        throw Error(name + ": the file is empty, not an ONNX model");
    onnx::ModelProto model;
    if (!model.ParseFromString(bytes))
        throw Error(name + ": not an ONNX model (the file is truncated or malformed)");
    return fromModel(model, name, {});
}

OnnxGraph OnnxGraph::fromModel(onnx::ModelProto &model, const std::string &name, const std::string &modelPath,
                               const LoadProgress &progress)
{
    if (!model.has_graph() || model.ir_version() <= 0)
        throw Error(name + ": not an ONNX model (no graph or IR version; the file is truncated or of another kind)");
    initOnnxRegistries();
    try {
        inlineCachedBranch(model); // Optimum's merged decoder: its If on use_cache_branch (MergedDecoder.h)
    } catch (const Error &e) {
        throw Error(name + ": " + e.what());
    }
    // A foreign operator (an ONNX Runtime contrib build) is named before the checker runs: such builds also break
    // rules the checker enforces (onnxruntime-genai writes nodes before the nodes they read), which would hide why.
    for (const auto &node : model.graph().node())
        if (!node.domain().empty() && node.domain() != "ai.onnx")
            throw UnsupportedError(Kind::Operator,
                                   name + ": node '" + node.name() + "' (" + node.op_type()
                                       + "): " + opset18::foreignOperatorMessage(node));
    try {
        bool external = false;
        for (const auto &init : model.graph().initializer())
            external = external || init.data_location() == onnx::TensorProto::EXTERNAL;
        if (importsOpset18BeyondLibrary(model) || external) {
            // A copy the checker can take: opset 17's schemas (ONNX 1.12 knows no more, Opset18.h), and external
            // initializers as one-byte stand-ins, so that the checker opens no file (ExternalData reads them,
            // inside the model's folder only).
            onnx::ModelProto checked = model;
            if (importsOpset18BeyondLibrary(model))
                opset18::lowerTo17(checked);
            for (auto &init : *checked.mutable_graph()->mutable_initializer())
                if (init.data_location() == onnx::TensorProto::EXTERNAL) {
                    init.clear_external_data();
                    init.set_data_location(onnx::TensorProto::DEFAULT);
                    init.set_raw_data(std::string(1, '\0'));
                }
            onnx::checker::check_model(checked);
        } else {
            onnx::checker::check_model(model);
        }
    } catch (const std::exception &e) {
        throw Error(name + ": the ONNX checker rejects the model: " + oneLine(e.what()));
    }
    auto impl = std::make_unique<Impl>();
    impl->name = name;
    impl->external = std::make_unique<ExternalData>(modelPath);
    progress.report(0.1);
    try {
        impl->build(model, progress.part(0.1, 1.0));
    } catch (const UnsupportedError &e) {
        throw UnsupportedError(e.kind(), name + ": " + e.what());
    } catch (const Error &e) {
        throw Error(name + ": " + e.what());
    }
    progress.finish();
    return OnnxGraph(std::move(impl));
}

void OnnxGraph::Impl::build(onnx::ModelProto &model, const LoadProgress &progress)
{
    for (const auto &import : model.opset_import())
        if (import.domain().empty() || import.domain() == "ai.onnx")
            opset = static_cast<int>(import.version());
    if (opset <= 0) {
        for (const auto &node : model.graph().node())
            if (!node.domain().empty() && node.domain() != "ai.onnx")
                throw UnsupportedError(Kind::Operator,
                                       "node '" + node.name() + "' (" + node.op_type()
                                           + "): " + opset18::foreignOperatorMessage(node));
        throw Error("the model imports no opset of the default ONNX domain");
    }
    if (opset > newestRunnableOpset())
        throw UnsupportedError(Kind::Version,
                               "the model imports opset " + std::to_string(opset)
                                   + " of the default ONNX domain; the executor runs opsets up to "
                                   + std::to_string(newestRunnableOpset()));
    for (const auto &prop : model.metadata_props())
        metadata[prop.key()] = prop.value();

    // Every operator and its schema version first: ONNX 1.12's inference functions of operators (and old
    // versions) the executor lacks crash on hostile shapes (Conv with a scalar weight, Gemm-6), so inference
    // runs only on graphs of supported operators.
    for (int i = 0; i < model.graph().node_size(); ++i) {
        const auto &node = model.graph().node(i);
        try {
            checkOperator(node, opset);
        } catch (const UnsupportedError &e) {
            throw UnsupportedError(e.kind(), nodeLabel(node, i, opset) + ": " + e.what());
        }
    }

    // Element types of every value: declared ones, initializers, and what the operators' schemas give
    // (ElementTypes.h; ONNX's shape inference is not run: its functions crash on hostile shapes). An opset-18
    // model beyond the ONNX library takes its operators' opset-17 schemas (Opset18.h: no type changed at 18).
    const onnx::GraphProto &graph = model.graph();
    const int schemaOpset = importsOpset18BeyondLibrary(model) ? 17 : opset;
    const std::unordered_map<std::string, int> typeOf = elementTypes(graph, [schemaOpset](const onnx::NodeProto &node) {
        return onnx::OpSchemaRegistry::Schema(node.op_type(), schemaOpset, onnx::ONNX_DOMAIN);
    });
    auto checkValueType = [&](const std::string &value, const std::string &what) {
        const auto it = typeOf.find(value);
        if (it != typeOf.end() && it->second != 0 && fromOnnxDataType(it->second) == DataType::Undefined)
            throw UnsupportedError(Kind::DataType,
                                   what + " '" + value + "' has element type " + onnxDataTypeName(it->second)
                                       + ", which is not supported");
    };

    // Before anything is read: the weights as the executor holds them (float16 widened to float32) must fit in the
    // model memory limit, so that a model too large for this machine is one line at once, not minutes of paging.
    double weightBytes = 0;
    {
        for (const auto &init : graph.initializer()) {
            const DataType type = init.data_type() == onnx::TensorProto::FLOAT16 ? DataType::Float32
                                                                                 : fromOnnxDataType(init.data_type());
            double count = 1;
            for (const std::int64_t d : init.dims())
                count *= static_cast<double>(std::max<std::int64_t>(d, 0));
            weightBytes += type == DataType::Undefined ? 0.0 : count * static_cast<double>(elementSize(type));
        }
        const double most = static_cast<double>(std::numeric_limits<std::size_t>::max() / 2);
        const MemoryClaim fits(static_cast<std::size_t>(std::min(weightBytes, most)),
                               "loading its weights"); // released at once
    }

    // Progress by bytes of weights: each read (a float16 one: widened by its Cast) and each consumed by the
    // nodes that use it (a matrix packed), so 2 · weightBytes in all.
    ByteProgress done(progress, 2 * weightBytes);
    std::unordered_set<int> unconsumed; // weight slots no node has read yet

    // Initializers. A float16 one is kept as it is in the file until a Cast to float reads it (folded below).
    std::unordered_map<std::string, bool> isInitializer;
    std::unordered_map<std::string, const onnx::TensorProto *> halfInitializers;
    std::vector<int> weightSlots; // the initializers' values (float16 ones: their widened Cast outputs)
    for (const auto &init : graph.initializer()) {
        if (init.data_type() == onnx::TensorProto::FLOAT16) {
            halfInitializers[init.name()] = &init;
            isInitializer[init.name()] = true;
            continue;
        }
        checkValueType(init.name(), "initializer");
        const std::string what = "initializer '" + init.name() + "'";
        constants[static_cast<std::size_t>(slot(init.name()))] = init.data_location() == onnx::TensorProto::EXTERNAL
            ? external->tensor(init, what)
            : tensorFromProto(init, what);
        isInitializer[init.name()] = true;
        weightSlots.push_back(slot(init.name()));
        unconsumed.insert(slot(init.name()));
        done.add(static_cast<double>(constants[static_cast<std::size_t>(slot(init.name()))].byteSize()));
    }
    // Graph inputs and outputs.
    for (const auto &vi : graph.input()) {
        if (!vi.type().has_tensor_type())
            throw UnsupportedError(Kind::DataType,
                                   "input '" + vi.name()
                                       + "' is not a tensor (sequences, maps and "
                                         "optionals are not supported)");
        checkValueType(vi.name(), "input");
        const int s = slot(vi.name());
        if (isInitializer.count(vi.name())) {
            optionalInputs.push_back(valueInfoFrom(vi));
            optionalInputSlots.push_back(s);
        } else {
            inputs.push_back(valueInfoFrom(vi));
            inputSlots.push_back(s);
        }
    }
    for (const auto &vi : graph.output()) {
        if (!vi.type().has_tensor_type())
            throw UnsupportedError(Kind::DataType,
                                   "output '" + vi.name()
                                       + "' is not a tensor (sequences, maps and "
                                         "optionals are not supported)");
        checkValueType(vi.name(), "output");
        outputs.push_back(valueInfoFrom(vi));
        outputSlots.push_back(slot(vi.name()));
    }

    // Topological order (Kahn), keeping file order among ready nodes.
    const int nodeTotal = graph.node_size();
    std::unordered_map<std::string, int> producer;
    for (int i = 0; i < nodeTotal; ++i)
        for (const auto &out : graph.node(i).output())
            if (!out.empty()) {
                if (producer.count(out) || isInitializer.count(out))
                    throw Error("value '" + out + "' is produced twice");
                producer[out] = i;
            }
    std::unordered_map<std::string, bool> isGraphInput;
    for (const auto &vi : graph.input())
        isGraphInput[vi.name()] = true;
    std::vector<int> pending(static_cast<std::size_t>(nodeTotal), 0);
    std::vector<std::vector<int>> readers(static_cast<std::size_t>(nodeTotal));
    for (int i = 0; i < nodeTotal; ++i) {
        const auto &node = graph.node(i);
        for (const auto &in : node.input()) {
            if (in.empty())
                continue;
            const auto it = producer.find(in);
            if (it != producer.end()) {
                ++pending[static_cast<std::size_t>(i)];
                readers[static_cast<std::size_t>(it->second)].push_back(i);
            } else if (!isInitializer.count(in) && !isGraphInput.count(in)) {
                throw Error(nodeLabel(node, i, opset) + ": input '" + in
                            + "' is not produced by any node, graph input or initializer");
            }
        }
    }
    std::deque<int> ready;
    for (int i = 0; i < nodeTotal; ++i)
        if (pending[static_cast<std::size_t>(i)] == 0)
            ready.push_back(i);
    std::vector<int> order;
    while (!ready.empty()) {
        const int i = ready.front();
        ready.pop_front();
        order.push_back(i);
        for (int r : readers[static_cast<std::size_t>(i)])
            if (--pending[static_cast<std::size_t>(r)] == 0)
                ready.push_back(r);
    }
    if (static_cast<int>(order.size()) != nodeTotal)
        throw Error("the graph has a cycle");

    // Validate and compile every node; fold Constant nodes (and nodes with only constant inputs that
    // are themselves Constant-like) into values known at load.
    ExecContext exec{*pool};
    PackedWeights packs; // each constant matrix packed once, shared by its MatMul and the fused node
    for (const int i : order) {
        const auto &node = graph.node(i);
        const std::string label = nodeLabel(node, i, opset);
        ++operatorCounts[node.op_type()];
        try {
            const auto [spec, version] = checkOperator(node, opset);
            for (const auto &attribute : node.attribute())
                if (std::find(spec->attributes.begin(), spec->attributes.end(), attribute.name())
                    == spec->attributes.end())
                    throw UnsupportedError(Kind::Attribute,
                                           "attribute '" + attribute.name() + "' of " + node.op_type()
                                               + " is not supported");
            // Cast(float16 initializer) to float: widened exactly once, here, into a float32 constant, so the
            // weights of a file stored in float16 cost no cast per run (and compute exactly as float32 ones).
            if (node.op_type() == "Cast" && node.input_size() == 1 && node.output_size() == 1
                && halfInitializers.count(node.input(0)) && !isGraphInput.count(node.input(0))
                && Attributes(node).requireInt("to") == onnx::TensorProto::FLOAT) {
                const onnx::TensorProto &half = *halfInitializers.at(node.input(0));
                const std::string what = "initializer '" + node.input(0) + "'";
                if (half.data_location() == onnx::TensorProto::EXTERNAL) {
                    onnx::TensorProto inlined = half; // the halves copied once, widened, then dropped
                    external->inlineInto(inlined, what);
                    constants[static_cast<std::size_t>(slot(node.output(0)))] = float32FromFloat16Proto(inlined, what);
                } else {
                    constants[static_cast<std::size_t>(slot(node.output(0)))] = float32FromFloat16Proto(half, what);
                }
                weightSlots.push_back(slot(node.output(0)));
                unconsumed.insert(slot(node.output(0)));
                done.add(static_cast<double>(constants[static_cast<std::size_t>(slot(node.output(0)))].byteSize()));
                continue;
            }
            NodeContext ctx{node, version, Attributes(node), {}, {}, {}, node.output_size(), &packs};
            CompiledNode compiled;
            compiled.label = label;
            compiled.opType = node.op_type();
            compiled.proto = &node;
            for (const auto &in : node.input()) {
                if (in.empty()) {
                    ctx.inputTypes.push_back(DataType::Undefined);
                    ctx.inputPresent.push_back(false);
                    ctx.constants.push_back(nullptr);
                    compiled.inputs.push_back(-1);
                    continue;
                }
                checkValueType(in, "input");
                const auto it = typeOf.find(in);
                ctx.inputTypes.push_back(it != typeOf.end() ? fromOnnxDataType(it->second) : DataType::Undefined);
                ctx.inputPresent.push_back(true);
                ctx.constants.push_back(nullptr); // set below, once every slot of the node exists
                compiled.inputs.push_back(slot(in));
            }
            for (const auto &out : node.output()) {
                if (!out.empty())
                    checkValueType(out, "output");
                compiled.outputs.push_back(out.empty() ? -1 : slot(out));
            }
            // Pointers into `constants` only now: slot() may grow it (a new output name) and move its tensors.
            for (std::size_t input = 0; input < compiled.inputs.size(); ++input) {
                const int s = compiled.inputs[input];
                if (s < 0)
                    continue;
                const Tensor &c = constants[static_cast<std::size_t>(s)];
                // A graph input backed by an initializer may be overridden, so it is not a constant.
                if (c.defined() && !isGraphInput.count(node.input(static_cast<int>(input))))
                    ctx.constants[input] = &c;
            }
            compiled.kernel = spec->factory(ctx);
            for (const int read : compiled.inputs)
                if (read >= 0 && unconsumed.erase(read))
                    done.add(static_cast<double>(constants[static_cast<std::size_t>(read)].byteSize()));
            if (node.op_type() == "Constant") {
                std::vector<Tensor> produced(1);
                compiled.kernel({}, produced, exec);
                constants[static_cast<std::size_t>(compiled.outputs[0])] = std::move(produced[0]);
                continue;
            }
            nodes.push_back(std::move(compiled));
        } catch (const UnsupportedError &e) {
            throw UnsupportedError(e.kind(), label + ": " + e.what());
        } catch (const Error &e) {
            throw Error(label + ": " + e.what());
        }
    }
    for (std::size_t k = 0; k < outputSlots.size(); ++k) {
        const std::string &out = outputs[k].name;
        if (!producer.count(out) && !isInitializer.count(out) && !isGraphInput.count(out))
            throw Error("graph output '" + out + "' is not produced by any node");
    }

    std::vector<const Tensor *> weights;
    for (const int s : weightSlots)
        weights.push_back(&constants[static_cast<std::size_t>(s)]);
    parameters = distinctParameters(weights);

    // Fused kernels for the patterns of exported transformers (GraphFusion.h).
    std::vector<const Tensor *> constantOf(slotNames.size(), nullptr);
    for (std::size_t s = 0; s < slotNames.size(); ++s)
        if (constants[s].defined() && !isGraphInput.count(slotNames[s]))
            constantOf[s] = &constants[s];
    std::vector<CacheAppendPair> appends;
    fuseNodes(nodes, constantOf, outputSlots, inputSlots, packs, appends);
    // The cache pairs a cached run can hold in place: each past input declared [batch, heads, past, dim]
    // with fixed heads and dims (a KvCache is laid out from them).
    auto inputInfo = [&](int s) -> const ValueInfo * {
        for (std::size_t i = 0; i < inputSlots.size(); ++i)
            if (inputSlots[i] == s)
                return &inputs[i];
        return nullptr;
    };
    for (const CacheAppendPair &a : appends) {
        const ValueInfo *k = inputInfo(a.pastKey), *v = inputInfo(a.pastValue);
        const bool fixed = k && v && k->hasShape && v->hasShape && k->shape.size() == 4 && v->shape.size() == 4
            && k->shape[1].fixed() && k->shape[3].fixed() && v->shape[1].fixed() && v->shape[3].fixed()
            && k->shape[1].value == v->shape[1].value;
        if (!fixed) {
            cachePairs.clear();
            break;
        }
        cachePairs.push_back({k->name, v->name, {k->shape[1].value, k->shape[3].value, v->shape[3].value}});
        cachePairSlots.push_back(a);
    }
    for (CompiledNode &n : nodes)
        n.proto = nullptr;

    // Release each intermediate value after its last reader.
    std::vector<int> lastReader(slotNames.size(), -1);
    for (std::size_t n = 0; n < nodes.size(); ++n)
        for (int s : nodes[n].inputs)
            if (s >= 0)
                lastReader[static_cast<std::size_t>(s)] = static_cast<int>(n);
    for (int s : outputSlots)
        lastReader[static_cast<std::size_t>(s)] = -1;
    for (std::size_t s = 0; s < lastReader.size(); ++s)
        if (lastReader[s] >= 0)
            nodes[static_cast<std::size_t>(lastReader[s])].releases.push_back(static_cast<int>(s));
}

const std::string &OnnxGraph::name() const
{
    return d->name;
}
std::int64_t OnnxGraph::parameterCount() const
{
    return d->parameters;
}
int OnnxGraph::opset() const
{
    return d->opset;
}
const std::vector<ValueInfo> &OnnxGraph::inputs() const
{
    return d->inputs;
}
const std::vector<ValueInfo> &OnnxGraph::optionalInputs() const
{
    return d->optionalInputs;
}
const std::vector<ValueInfo> &OnnxGraph::outputs() const
{
    return d->outputs;
}
const std::map<std::string, std::string> &OnnxGraph::metadata() const
{
    return d->metadata;
}
std::size_t OnnxGraph::nodeCount() const
{
    return d->nodes.size();
}
std::uint64_t OnnxGraph::externalBytesMapped() const
{
    return d->external ? d->external->mappedBytes() : 0;
}
std::map<std::string, int> OnnxGraph::operatorCounts() const
{
    return d->operatorCounts;
}

void OnnxGraph::setThreads(int threads)
{
    d->pool = std::make_unique<ThreadPool>(threads);
}

int OnnxGraph::threads() const
{
    return d->pool->threads();
}

namespace {

void checkFed(const ValueInfo &info, const Tensor &t)
{
    if (!t.defined())
        throw Error("input '" + info.name + "' is missing");
    if (info.type != DataType::Undefined && t.type() != info.type)
        throw Error("input '" + info.name + "' must be " + info.describe() + ", got " + t.describe());
    if (!info.hasShape)
        return;
    if (static_cast<std::size_t>(t.rank()) != info.shape.size())
        throw Error("input '" + info.name + "' must be " + info.describe() + ", got " + t.describe());
    for (std::size_t i = 0; i < info.shape.size(); ++i)
        if (info.shape[i].fixed() && info.shape[i].value != t.shape()[i])
            throw Error("input '" + info.name + "' must be " + info.describe() + ", got " + t.describe());
}

} // namespace

std::vector<Tensor> OnnxGraph::run(std::vector<Tensor> inputs)
{
    if (inputs.size() != d->inputs.size())
        throw Error(d->name + ": the model takes " + std::to_string(d->inputs.size()) + " inputs, got "
                    + std::to_string(inputs.size()));
    std::vector<Tensor> values(d->constants.size()); // constants are read in place (execute)
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        checkFed(d->inputs[i], inputs[i]);
        values[static_cast<std::size_t>(d->inputSlots[i])] = std::move(inputs[i]);
    }
    return d->execute(values);
}

std::vector<Tensor> OnnxGraph::run(const std::map<std::string, Tensor> &inputs)
{
    std::vector<Tensor> values(d->constants.size()); // constants are read in place (execute)
    std::size_t used = 0;
    auto feed = [&](const std::vector<ValueInfo> &infos, const std::vector<int> &slots, bool required) {
        for (std::size_t i = 0; i < infos.size(); ++i) {
            const auto it = inputs.find(infos[i].name);
            if (it == inputs.end()) {
                if (required)
                    throw Error(d->name + ": input '" + infos[i].name + "' (" + infos[i].describe() + ") is missing");
                continue;
            }
            checkFed(infos[i], it->second);
            values[static_cast<std::size_t>(slots[i])] = it->second;
            ++used;
        }
    };
    feed(d->inputs, d->inputSlots, true);
    feed(d->optionalInputs, d->optionalInputSlots, false);
    if (used != inputs.size())
        for (const auto &[name, tensor] : inputs)
            if (!d->slotOf.count(name))
                throw Error(d->name + ": the model has no input named '" + name + "'");
    return d->execute(values);
}

const std::vector<OnnxGraph::CachePair> &OnnxGraph::cachePairs() const
{
    return d->cachePairs;
}

KvCache OnnxGraph::newCache(std::int64_t capacity) const
{
    if (d->cachePairs.empty())
        throw Error(d->name + ": the graph has no key/value pairs it can append in place");
    std::vector<KvCache::PairShape> shapes;
    for (const CachePair &p : d->cachePairs)
        shapes.push_back(p.shape);
    return KvCache(shapes, capacity);
}

std::vector<Tensor> OnnxGraph::runCached(const std::map<std::string, Tensor> &inputs, KvCache &cache)
{
    if (d->cachePairs.empty() || cache.pairs() != d->cachePairs.size())
        throw Error(d->name + ": a cached run needs a cache of this graph's " + std::to_string(d->cachePairs.size())
                    + " key/value pairs (OnnxGraph::newCache)");
    std::map<std::string, Tensor> feed = inputs;
    // The past inputs stand for the cache: the graph reads only their shapes (GraphFusion.h), so each is a stand-in
    // of the cache's length over the cache's buffer (KvCache::standIn: nothing allocated).
    for (std::size_t p = 0; p < d->cachePairs.size(); ++p) {
        const CachePair &pair = d->cachePairs[p];
        if (!(cache.shape(p).heads == pair.shape.heads && cache.shape(p).keyDim == pair.shape.keyDim
              && cache.shape(p).valueDim == pair.shape.valueDim))
            throw Error(d->name + ": the cache's pair " + std::to_string(p) + " has another shape than '" + pair.pastKey
                        + "'");
        for (const bool keys : {true, false}) {
            const std::string &name = keys ? pair.pastKey : pair.pastValue;
            if (inputs.count(name))
                throw Error(d->name + ": input '" + name + "' is held by the cache in a cached run");
            feed[name] = cache.standIn(p, keys, cache.length());
        }
    }
    std::vector<Tensor> values(d->constants.size()); // constants are read in place (execute)
    for (std::size_t i = 0; i < d->inputs.size(); ++i) {
        const auto it = feed.find(d->inputs[i].name);
        if (it == feed.end())
            throw Error(d->name + ": input '" + d->inputs[i].name + "' (" + d->inputs[i].describe() + ") is missing");
        checkFed(d->inputs[i], it->second);
        values[static_cast<std::size_t>(d->inputSlots[i])] = it->second;
    }
    for (std::size_t i = 0; i < d->optionalInputs.size(); ++i)
        if (const auto it = feed.find(d->optionalInputs[i].name); it != feed.end()) {
            checkFed(d->optionalInputs[i], it->second);
            values[static_cast<std::size_t>(d->optionalInputSlots[i])] = it->second;
        }
    for (const auto &[name, tensor] : inputs)
        if (!d->slotOf.count(name))
            throw Error(d->name + ": the model has no input named '" + name + "'");
    cache.beginRun();
    std::vector<Tensor> result = d->execute(values, &cache);
    cache.commitRun();
    // The presents were stand-ins for their shapes (KvCache::standIn): the cache holds them.
    for (std::size_t k = 0; k < d->outputSlots.size(); ++k)
        for (const CacheAppendPair &a : d->cachePairSlots)
            if (std::find(a.presents.begin(), a.presents.end(), d->outputSlots[k]) != a.presents.end())
                result[k] = Tensor();
    return result;
}

std::vector<Tensor> OnnxGraph::Impl::execute(std::vector<Tensor> &values, KvCache *cache)
{
    ExecContext exec{*pool, cache};
    // A slot's value: what was fed or computed in this run, else the constant (initializer or folded node).
    auto value = [&](std::size_t s) -> const Tensor * { return values[s].defined() ? &values[s] : &constants[s]; };
    std::vector<const Tensor *> in;
    std::vector<Tensor> out;
    for (const CompiledNode &node : nodes) {
        in.clear();
        for (int s : node.inputs)
            in.push_back(s >= 0 ? value(static_cast<std::size_t>(s)) : nullptr);
        out.assign(node.outputs.size(), Tensor());
        try {
            node.kernel(in, out, exec);
        } catch (const std::exception &e) {
            throw Error(name + ": " + node.label + ": " + oneLine(e.what()));
        }
        for (std::size_t k = 0; k < node.outputs.size(); ++k)
            if (node.outputs[k] >= 0)
                values[static_cast<std::size_t>(node.outputs[k])] = std::move(out[k]);
        for (int s : node.releases)
            values[static_cast<std::size_t>(s)] = Tensor();
    }
    std::vector<Tensor> result;
    for (int s : outputSlots)
        result.push_back(*value(static_cast<std::size_t>(s)));
    return result;
}

} // namespace specdec::nn
