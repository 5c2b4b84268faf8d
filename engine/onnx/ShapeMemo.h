// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Memoised shape plumbing: nodes such as Shape, Gather, Unsqueeze and Concat on a few integers compute the
// same values in every run with the same input shapes. Each such node keeps its last inputs and outputs
// and skips its kernel when a run repeats them (kernels are deterministic; only small integer tensors are
// kept, and Shape's data input by its shape alone).

#include "onnx/CompiledNode.h"

#include <vector>

namespace specdec::nn {

/// Wraps the kernels of the shape-plumbing nodes among `nodes` with a memo.
void memoizeShapeNodes(std::vector<CompiledNode> &nodes);

} // namespace specdec::nn
