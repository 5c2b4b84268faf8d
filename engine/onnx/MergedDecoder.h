// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Optimum's merged decoder (decoder_model_merged.onnx): one graph whose single top-level If, on the bool input
// `use_cache_branch`, holds the decoder with past in its then-branch and the decoder without past in its
// else-branch. The engine always decodes with a past (empty on the first call), so at load the If is replaced by
// its then-branch: the branch's nodes and initializers join the main graph, Identity nodes give its outputs the
// If's output names, and `use_cache_branch` stops being an input. The executor has no general If; any other If is
// refused as an unsupported operator.

namespace onnx {
class ModelProto;
}

namespace specdec::nn {

/// Inlines the cached branch when `model` is a merged decoder (a graph input "use_cache_branch" read only by one
/// top-level If as its condition); returns whether it did. Throws Error when the branch's outputs do not match
/// the If's.
bool inlineCachedBranch(onnx::ModelProto &model);

} // namespace specdec::nn
