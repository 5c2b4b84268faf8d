// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What file or folder a model spec names: the one answer to "is this spec a neural model, and where is it"
// that the CLI, the window, its titles and the lessons ask (onnx:PATH is an ONNX file, hf:PATH a Hugging Face
// model folder, docs/model-format.md §7; every other spec is trained or built, not loaded).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace specdec {

struct NeuralModelRef
{
    bool folder = false; ///< hf:PATH (a model folder) rather than onnx:PATH (a file)
    std::string path;    ///< as written in the spec (relative paths are not resolved)

    /// The tokenizer the model brings, as Setup::tokenizer names it: "chars" for an ONNX file (its own
    /// characters), the folder (its tokenizer.json) for a Hugging Face folder.
    std::string tokenizer() const { return folder ? path : std::string("chars"); }
    /// The model's name for titles: a folder's own name ("llama-small", also for "llama-small/"), else the path.
    std::string folderName() const;
};

/// The file or folder of a neural model spec ("onnx:PATH", "hf:PATH"); nullopt for every other spec and for a
/// prefix without a path. Never throws (ModelSpec::parse says what is wrong with a spec).
std::optional<NeuralModelRef> neuralModel(std::string_view spec);

/// The files that hold a neural model's graph and weights, as the loader finds them: an ONNX file; in a folder
/// the first of onnx/model.onnx, model.onnx, decoder_model_merged.onnx (HfFolder.h), each with its external data
/// beside it (<graph>_data, <graph>.data). Only the files that exist; reads nothing.
std::vector<std::string> weightFiles(const NeuralModelRef &model);
/// The bytes of weightFiles() on disk (0 when none exists).
std::uint64_t weightFileBytes(const NeuralModelRef &model);

} // namespace specdec
