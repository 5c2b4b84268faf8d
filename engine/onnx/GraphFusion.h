// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The graph optimisation pass: after every node is validated and compiled, patterns of exported
// transformers are replaced by one fused node each.
//   MatMul(X, W) + Add(bias) [+ the tanh GELU chain] [+ Add(residual)]  →  one packed product (Gemm.h)
//   [Transpose →] MatMul(Q, Kᵀ) → Mul(scale) or Div(scale) → [Where(keep, ·, fill) →] Add(mask) → Softmax
//   [→ Cast(to float)] → MatMul(·, V) [→ Transpose], K and V each through [Unsqueeze → Expand → Reshape] (the
//   repeat of grouped-query attention: checked at run time, read unrepeated)
//                                                                        →  fused attention (Attention.h)
// Nodes of shape plumbing (Shape, Gather, Unsqueeze, Concat, ... on a few integers) remember their last
// inputs and outputs and skip the kernel when a run repeats them (same input shapes).
//   Concat(past_k, new_k) and Concat(past_v, new_v) of graph inputs feeding that attention as K and V (the
//   decoder-with-past layout; the past and the Concat read by nothing else but Shape nodes)
//                                                   →  two KvCacheAppend nodes and a FusedCachedAttention, which
//                                                      in a cached run (OnnxGraph::runCached) append in place and
//                                                      read the cache (the Concats' values are stand-ins then)
// A pattern is fused only when its intermediate values have no other reader and are no graph output. A
// fused node that meets shapes its fast path does not cover runs the original nodes instead, so fusion never
// changes which inputs a graph accepts or the errors it gives.

#include "onnx/CompiledNode.h"

#include <vector>

namespace specdec::nn {

class PackedWeights;

/// A key/value pair a fused attention appends to in place: the slots of its past inputs, and those of the Concats'
/// values and their Identity copies (the presents, stand-ins in a cached run).
struct CacheAppendPair
{
    int pastKey = -1, pastValue = -1;
    std::vector<int> presents;
};

/// Rewrites `nodes` (topological order). constantOf[slot]: the value of a slot known at load (nullptr
/// otherwise); kept: slots that must stay visible (graph outputs).
/// graphInputs: the slots of graph inputs. packs: the graph's packed constants (the fused products share
/// their MatMul's packed weights). pairs: set to the cache appends found, in the order of their nodes
/// (index i is the pair the i-th FusedCachedAttention writes in a KvCache).
void fuseNodes(std::vector<CompiledNode> &nodes, const std::vector<const Tensor *> &constantOf,
               const std::vector<int> &kept, const std::vector<int> &graphInputs, PackedWeights &packs,
               std::vector<CacheAppendPair> &pairs);

} // namespace specdec::nn
