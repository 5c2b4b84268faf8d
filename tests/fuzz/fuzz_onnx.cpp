// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the ONNX loader and one run. Bytes -> OnnxGraph::fromBytes; a graph that loads is run
// with inputs made from its declared inputs (symbolic dimensions 2, small values). Every failure must be
// an Error; allocations are capped at 256 MiB so that a shape from the file cannot exhaust the machine.
#include "Error.h"
#include "onnx/OnnxGraph.h"

#include <cstdint>
#include <cstring>

using namespace specdec;
using namespace specdec::nn;

namespace {

Tensor inputFor(const ValueInfo &info)
{
    Shape shape;
    if (info.hasShape)
        for (const Dimension &d : info.shape)
            shape.push_back(d.fixed() ? d.value : 2);
    else
        shape = {2};
    const DataType type = info.type == DataType::Undefined ? DataType::Float32 : info.type;
    Tensor t = Tensor::zeros(type, shape);
    // Small values that are valid indices and token ids: 0, 1, 0, 1, ...
    visitDataType(type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        T *p = t.mutableData<T>();
        for (std::int64_t i = 0; i < t.size(); ++i)
            p[i] = static_cast<T>(i % 2);
    });
    return t;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    setTensorMemoryLimit(std::size_t{256} << 20);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string bytes(reinterpret_cast<const char *>(data), size);
    try {
        OnnxGraph graph = OnnxGraph::fromBytes(bytes, "fuzz.onnx");
        graph.setThreads(1);
        std::vector<Tensor> inputs;
        for (const ValueInfo &info : graph.inputs())
            inputs.push_back(inputFor(info));
        graph.run(std::move(inputs));
    } catch (const Error &) {
    }
    return 0;
}
