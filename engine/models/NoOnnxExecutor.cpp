// SPDX-License-Identifier: GPL-3.0-or-later
// A build without the ONNX executor (cmake -DSPECDEC_ONNX_EXECUTOR=OFF), in place of OnnxModelLoader.cpp: every
// door to the executor (an onnx:PATH model spec, specdec onnx-run, specdec onnx-ops) throws one line saying so.
#include "Error.h"
#include "LanguageModel.h"
#include "LoadProgress.h"
#include "onnx/OnnxRun.h"

#include <memory>
#include <string>

namespace specdec {

namespace {

[[noreturn]] void noExecutor(const std::string &what)
{
    throw Error(what + ": this build has no ONNX executor (configured with -DSPECDEC_ONNX_EXECUTOR=OFF)");
}

} // namespace

std::unique_ptr<LanguageModel> loadOnnxModel(const std::string &path, int /*threads*/, const LoadProgress & /*progress*/)
{
    noExecutor(path);
}

std::unique_ptr<LanguageModel> loadHfFolderModel(const std::string &dir, int /*threads*/,
                                                 const LoadProgress & /*progress*/)
{
    noExecutor(dir);
}

namespace nn {

std::pair<std::string, std::string> parseNamedInput(std::string_view /*spec*/)
{
    noExecutor("onnx-run");
}

std::vector<std::string> runModelOnFiles(const std::string &modelPath,
                                         const std::vector<std::pair<std::string, std::string>> & /*namedInputFiles*/,
                                         const std::string & /*outputDir*/, int /*threads*/)
{
    noExecutor(modelPath);
}

std::string supportedOperatorsTable()
{
    noExecutor("onnx-ops");
}

} // namespace nn

} // namespace specdec
