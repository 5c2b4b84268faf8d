// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The graph optimisation pass: after every node is validated and compiled, patterns of exported
// transformers are replaced by one fused node each.
//   MatMul(X, W) + Add(bias) [+ the tanh GELU chain] [+ Add(residual)]  →  one packed product (Gemm.h)
//   [Transpose →] MatMul(Q, Kᵀ) → Mul(scale) → Add(mask) → Softmax → MatMul(·, V) [→ Transpose]
//                                                                        →  fused attention (Attention.h)
// Nodes of shape plumbing (Shape, Gather, Unsqueeze, Concat, ... on a few integers) remember their last
// inputs and outputs and skip the kernel when a run repeats them (same input shapes).
// A pattern is fused only when its intermediate values have no other reader and are no graph output. A
// fused node that meets shapes its fast path does not cover runs the original nodes instead, so fusion never
// changes which inputs a graph accepts or the errors it gives.

#include "onnx/CompiledNode.h"

#include <vector>

namespace specdec::nn {

class PackedWeights;

/// Rewrites `nodes` (topological order). constantOf[slot]: the value of a slot known at load (nullptr
/// otherwise); kept: slots that must stay visible (graph outputs).
/// packs: the graph's packed constants (the fused products share their MatMul's packed weights).
void fuseNodes(std::vector<CompiledNode> &nodes, const std::vector<const Tensor *> &constantOf,
               const std::vector<int> &kept, PackedWeights &packs);

} // namespace specdec::nn
