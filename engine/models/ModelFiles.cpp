// SPDX-License-Identifier: GPL-3.0-or-later
#include "ModelFiles.h"

#include <filesystem>

namespace specdec {

namespace fs = std::filesystem;

std::optional<NeuralModelRef> neuralModel(std::string_view spec)
{
    for (const auto &[prefix, folder] : {std::pair<std::string_view, bool>{"onnx:", false}, {"hf:", true}})
        if (spec.starts_with(prefix) && spec.size() > prefix.size())
            return NeuralModelRef{folder, std::string(spec.substr(prefix.size()))};
    return std::nullopt;
}

std::string NeuralModelRef::folderName() const
{
    fs::path p(path);
    if (!p.has_filename()) // "llama-small/"
        p = p.parent_path();
    const std::string name = p.filename().string();
    return name.empty() || name == "." || name == ".." ? path : name;
}

std::vector<std::string> weightFiles(const NeuralModelRef &model)
{
    std::error_code ec;
    const auto isFile = [&](const fs::path &p) { return fs::is_regular_file(p, ec); };
    fs::path graph;
    if (!model.folder) {
        graph = model.path;
    } else {
        for (const char *name : {"onnx/model.onnx", "model.onnx", "decoder_model_merged.onnx"})
            if (isFile(fs::path(model.path) / name)) {
                graph = fs::path(model.path) / name;
                break;
            }
    }
    std::vector<std::string> files;
    if (graph.empty() || !isFile(graph))
        return files;
    files.push_back(graph.string());
    for (const char *suffix : {"_data", ".data"})
        if (const fs::path data = graph.string() + suffix; isFile(data))
            files.push_back(data.string());
    return files;
}

std::uint64_t weightFileBytes(const NeuralModelRef &model)
{
    std::uint64_t bytes = 0;
    for (const std::string &file : weightFiles(model)) {
        std::error_code ec;
        const auto size = fs::file_size(file, ec);
        if (!ec)
            bytes += size;
    }
    return bytes;
}

} // namespace specdec
