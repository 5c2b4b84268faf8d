// SPDX-License-Identifier: GPL-3.0-or-later
// Connects the model factory to the ONNX executor (engine/onnx/).
#include "LanguageModel.h"
#include "LoadProgress.h"
#include "onnx/OnnxLanguageModel.h"

#include "Error.h"

#include <charconv>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

namespace specdec {

namespace {

/// The most positions a model folder's context may have: config.json's max_position_embeddings up to the setting
/// SPECDEC_MAX_CONTEXT (default OnnxLanguageModel::kDefaultFolderContext, 4096). Real models declare 32 K to 128 K
/// positions; a longer context only grows the KV cache and each step's attention, and the window rule (the
/// oldest tokens dropped) takes over past it.
int folderContextCap()
{
    const char *env = std::getenv("SPECDEC_MAX_CONTEXT");
    if (!env || !*env)
        return OnnxLanguageModel::kDefaultFolderContext;
    constexpr int kMin = 16, kMax = 1 << 20;
    const std::string_view text(env);
    int positions = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), positions);
    if (ec != std::errc() || end != text.data() + text.size() || positions < kMin || positions > kMax)
        throw Error("SPECDEC_MAX_CONTEXT is '" + std::string(text) + "', expected the most positions of a model "
                    + "folder's context (a whole number from " + std::to_string(kMin) + " to " + std::to_string(kMax)
                    + ")");
    return positions;
}

} // namespace

std::unique_ptr<LanguageModel> loadOnnxModel(const std::string &path, int threads, const LoadProgress &progress)
{
    return OnnxLanguageModel::load(path, threads, progress);
}

std::unique_ptr<LanguageModel> loadHfFolderModel(const std::string &dir, int threads, const LoadProgress &progress)
{
    return OnnxLanguageModel::loadFolder(dir, threads, folderContextCap(), progress);
}

} // namespace specdec
