// Connects the model factory to the ONNX executor (engine/onnx/), when it is built in.
#include "Error.h"
#include "LanguageModel.h"

#include <memory>
#include <string>

namespace specdec {

std::unique_ptr<LanguageModel> loadOnnxModel(const std::string &path, int threads)
{
    (void)threads;
    throw Error("cannot load " + path + ": ONNX models are not available in this build");
}

} // namespace specdec
