// SPDX-License-Identifier: GPL-3.0-or-later
// Connects the model factory to the ONNX executor (engine/onnx/).
#include "LanguageModel.h"
#include "LoadProgress.h"
#include "onnx/OnnxLanguageModel.h"

#include <memory>
#include <string>

namespace specdec {

std::unique_ptr<LanguageModel> loadOnnxModel(const std::string &path, int threads, const LoadProgress &progress)
{
    return OnnxLanguageModel::load(path, threads, progress);
}

std::unique_ptr<LanguageModel> loadHfFolderModel(const std::string &dir, int threads, const LoadProgress &progress)
{
    return OnnxLanguageModel::loadFolder(dir, threads, OnnxLanguageModel::kDefaultFolderContext, progress);
}

} // namespace specdec
