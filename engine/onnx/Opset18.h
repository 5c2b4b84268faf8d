// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Opset 18 on an ONNX library that knows opsets up to 17 (Debian 12's ONNX 1.12), and the operator domains the
// executor refuses with advice.
//
// Opset 18 gave 25 operators a new schema (since_version 18, the table in Opset18.cpp); every other operator has
// at 18 the schema it has at 17. So a node of an opset-18 model runs at version 18 when its operator is in the
// table (the executor implements ReduceMean-18 and ReduceMax-18 with the axes as an input, Split-18 with
// num_outputs, ScatterND-18 with max/min), and at its opset-17 schema version otherwise. ONNX 1.12's checker and
// shape inference do not know the version-18 schemas, so they run on a copy lowered to opset 17 (`lowerTo17`):
// a reduction's axes read from a constant input become the attribute, Split's num_outputs and ScatterND's new
// reductions are dropped. That copy only types the graph's values; the nodes that run are the file's.

#include <string>
#include <string_view>

namespace onnx {
class ModelProto;
class NodeProto;
} // namespace onnx

namespace specdec::nn::opset18 {

constexpr int kOpset = 18;

/// True when `op` of the default domain has a new schema version at opset 18.
bool changedAt18(std::string_view op);

/// `model` (importing opset 18) rewritten in place into its opset-17 form for ONNX 1.12's checker and inference.
void lowerTo17(onnx::ModelProto &model);

/// For a node of a foreign domain: one line naming the operator and, for ONNX Runtime's contrib operators
/// (com.microsoft: GroupQueryAttention, MatMulNBits, SkipSimplifiedLayerNormalization, RotaryEmbedding, ...), the
/// export to use instead.
std::string foreignOperatorMessage(const onnx::NodeProto &node);

} // namespace specdec::nn::opset18
