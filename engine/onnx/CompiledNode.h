// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// CompiledNode: a node of a loaded graph as the executor runs it — a kernel reading and writing value slots.
// Private to OnnxGraph.cpp and the fusion pass (GraphFusion.h).

#include "onnx/Operator.h"

#include <string>
#include <vector>

namespace specdec::nn {

struct CompiledNode
{
    std::string label;         // "node 'name' (Op, opset N)"
    std::string opType;        // "MatMul", ...; "Fused..." for a node the fusion pass made
    std::vector<int> inputs;   // value slots, -1 for an omitted optional input
    std::vector<int> outputs;  // value slots, -1 for an omitted optional output
    std::vector<int> releases; // slots whose last reader is this node
    Kernel kernel;
    const onnx::NodeProto *proto = nullptr; // during loading only
};

} // namespace specdec::nn
