// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// ElementTypes: the element type of every value of a graph (ONNX TensorProto data types, 0 where unknown), from
// what the file declares and the operators' schemas. An output whose type constraint it shares with an input
// takes that input's type; a constraint that allows one type, or a fixed type, gives it; the operators whose
// attribute names the type (Cast's `to`, Constant's value, ConstantOfShape, EyeLike, the Random* family, …) are
// read directly, and an If's outputs are its then-branch's. ONNX's shape-inference functions are never run: those
// of ONNX 1.12 crash on hostile shapes (a LayerNormalization of a scalar, a Conv with a scalar weight).

#include <functional>
#include <string>
#include <unordered_map>

namespace onnx {
class GraphProto;
class NodeProto;
class OpSchema;
} // namespace onnx

namespace specdec::nn {

/// A node's schema at the graph's opset; nullptr leaves the node's outputs unknown.
using SchemaOf = std::function<const onnx::OpSchema *(const onnx::NodeProto &)>;

/// The element types of `graph`'s values, the nodes taken in file order (the ONNX checker requires a
/// topological order).
std::unordered_map<std::string, int> elementTypes(const onnx::GraphProto &graph, const SchemaOf &schemaOf);

/// The data type of an ONNX type string such as "tensor(int64)"; 0 for anything else.
int dataTypeOfTypeString(const std::string &typeString);

} // namespace specdec::nn
