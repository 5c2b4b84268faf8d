// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// OnnxGraph: an ONNX model file loaded, checked and ready to evaluate on the executor's own kernels.
//
// Loading parses the file with the ONNX library (read with a bound), runs its checker, resolves the
// default-domain opset, checks every node's operator and schema version, takes every value's element type from
// the operators' schemas (ElementTypes.h: ONNX's shape-inference functions are not safe on hostile shapes) and
// validates every node (attributes, element types), so that anything unsupported is an error at load time. Evaluation
// runs the nodes in topological order with shapes computed from the actual inputs.

#include "LoadProgress.h"
#include "onnx/KvCache.h"
#include "onnx/Tensor.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace onnx {
class ModelProto;
}

namespace specdec::nn {

/// One dimension of a declared shape: a fixed size, a symbol such as "batch", or unknown (-1, "").
struct Dimension
{
    std::int64_t value = -1;
    std::string symbol;
    bool fixed() const { return value >= 0; }
};

/// A graph input or output as declared in the file.
struct ValueInfo
{
    std::string name;
    int onnxType = 0; ///< TensorProto::DataType code; 0 when unknown
    DataType type = DataType::Undefined;
    bool hasShape = false;
    std::vector<Dimension> shape;
    /// "int64[batch, sequence]"
    std::string describe() const;
};

class OnnxGraph
{
public:
    /// Loads and validates a model file (its external data, if any, mapped from files in its folder:
    /// ExternalData.h). Throws Error naming the file for a missing, empty, truncated or
    /// malformed file or a model the checker rejects, and UnsupportedError (an Error) naming the node,
    /// operator and opset for anything the executor cannot run. `progress` hears how far it has come: the file
    /// parsed and checked (a tenth), then the weights' bytes read (float16 ones widened) and consumed by the
    /// nodes (each matrix packed), against the weights as held (known before any is read); 1 at the end.
    static OnnxGraph load(const std::string &path, const LoadProgress &progress = {});
    /// The same from serialized bytes; `name` stands for the file in messages.
    static OnnxGraph fromBytes(const std::string &bytes, const std::string &name);

    OnnxGraph(OnnxGraph &&) noexcept;
    OnnxGraph &operator=(OnnxGraph &&) noexcept;
    ~OnnxGraph();

    const std::string &name() const;
    /// The opset of the default ONNX domain the model imports.
    int opset() const;
    /// The model's parameters: the elements of its floating-point initializers (the weights; integer
    /// initializers such as shapes are not parameters).
    std::int64_t parameterCount() const;
    /// The inputs a caller must feed (graph inputs without an initializer), in file order.
    const std::vector<ValueInfo> &inputs() const;
    /// Graph inputs that have an initializer (a default value); feeding them is optional.
    const std::vector<ValueInfo> &optionalInputs() const;
    const std::vector<ValueInfo> &outputs() const;
    /// metadata_props of the model (key -> value).
    const std::map<std::string, std::string> &metadata() const;
    std::size_t nodeCount() const;
    /// Bytes of external data files mapped (ExternalData.h); 0 for a model with its weights inline.
    std::uint64_t externalBytesMapped() const;
    /// Operator type -> number of nodes, for summaries.
    std::map<std::string, int> operatorCounts() const;

    /// Worker threads for the kernels (<= 0: all cores). Results do not depend on it.
    void setThreads(int threads);
    int threads() const;

    /// Evaluates the graph; `inputs` follow inputs() order. Returns outputs() in order. Throws Error for a
    /// missing input, a wrong element type, rank or fixed dimension, or a kernel failure (naming the node).
    std::vector<Tensor> run(std::vector<Tensor> inputs);
    /// The same with inputs by name (required inputs and, optionally, initializer-backed ones).
    std::vector<Tensor> run(const std::map<std::string, Tensor> &inputs);

    /// A key/value pair of the decoder-with-past layout that the graph appends in place (GraphFusion.h): past
    /// inputs read only by Concat(past, new) along the positions and Shape nodes, feeding one fused attention.
    struct CachePair
    {
        std::string pastKey, pastValue;
        KvCache::PairShape shape;
    };
    /// Empty when the graph has none or some pair's heads or dimensions are not fixed in the file.
    const std::vector<CachePair> &cachePairs() const;
    /// A cache of `capacity` positions for runCached (needs cachePairs()).
    KvCache newCache(std::int64_t capacity) const;
    /// A run whose past inputs are `cache` (batch 1): every pair's new keys and values are written into it at
    /// [length, length + S) and attention reads them there; afterwards its length grows by S. `inputs` are the
    /// other inputs by name; the outputs are those of run() with the pairs' presents left undefined (the
    /// cache holds them). Throws Error as run() does, and when the cache lacks room.
    std::vector<Tensor> runCached(const std::map<std::string, Tensor> &inputs, KvCache &cache);

private:
    struct Impl;
    explicit OnnxGraph(std::unique_ptr<Impl> impl);
    static OnnxGraph fromModel(onnx::ModelProto &model, const std::string &name, const std::string &modelPath,
                               const LoadProgress &progress = {});
    std::unique_ptr<Impl> d;
};

} // namespace specdec::nn
