// SPDX-License-Identifier: GPL-3.0-or-later
#include "onnx/OnnxRun.h"

#include "Error.h"
#include "onnx/OnnxGraph.h"
#include "onnx/Operator.h"
#include "onnx/TensorProtoIo.h"

#include <filesystem>
#include <map>

namespace specdec::nn {

std::pair<std::string, std::string> parseNamedInput(std::string_view spec)
{
    const std::size_t eq = spec.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == spec.size())
        throw Error("input '" + std::string(spec) + "': expected NAME=FILE.pb");
    return {std::string(spec.substr(0, eq)), std::string(spec.substr(eq + 1))};
}

std::string outputFilePath(const std::string &outputDir, const std::string &outputName)
{
    std::string file = outputName;
    for (char &c : file)
        if (c == '/' || c == '\\')
            c = '_';
    return (std::filesystem::path(outputDir) / (file + ".pb")).string();
}

std::vector<std::string> runModelOnFiles(const std::string &modelPath,
                                         const std::vector<std::pair<std::string, std::string>> &namedInputFiles,
                                         const std::string &outputDir, int threads)
{
    OnnxGraph graph = OnnxGraph::load(modelPath);
    graph.setThreads(threads);
    // Two outputs must not write one file ("a/b" and "a_b" are both a_b.pb): refused before the run.
    std::map<std::string, std::string> outputOfFile;
    for (const ValueInfo &output : graph.outputs()) {
        const auto [it, fresh] = outputOfFile.emplace(outputFilePath(outputDir, output.name), output.name);
        if (!fresh)
            throw Error("outputs '" + it->second + "' and '" + output.name + "' would both be written to " + it->first);
    }
    std::map<std::string, Tensor> inputs;
    for (const auto &[name, file] : namedInputFiles) {
        if (inputs.count(name))
            throw Error("input '" + name + "' is given twice");
        inputs[name] = readTensorFile(file);
    }
    const std::vector<Tensor> outputs = graph.run(inputs);
    std::error_code ec;
    std::filesystem::create_directories(outputDir, ec);
    if (ec)
        throw Error(outputDir + ": cannot create the output directory (" + ec.message() + ")");
    std::vector<std::string> written;
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const std::string &name = graph.outputs()[i].name;
        const std::string path = outputFilePath(outputDir, name);
        writeTensorFile(path, outputs[i], name);
        written.push_back(path);
    }
    return written;
}

std::string supportedOperatorsTable()
{
    std::string table;
    for (const SupportedOperator &op : supportedOperators()) {
        std::string line = op.name;
        line.resize(std::max<std::size_t>(line.size() + 1, 20), ' ');
        line += "opsets " + std::to_string(op.firstOpset) + "-" + std::to_string(op.lastOpset) + "  (versions ";
        for (std::size_t i = 0; i < op.versions.size(); ++i)
            line += (i ? ", " : "") + std::to_string(op.versions[i]);
        table += line + ")\n";
    }
    return table;
}

} // namespace specdec::nn
