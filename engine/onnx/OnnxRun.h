// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Running any ONNX model on TensorProto files: the engine side of `specdec onnx-run`, the tool for checking
// the executor against another runtime, and of `specdec onnx-ops`.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace specdec::nn {

/// "NAME=FILE.pb" -> {NAME, FILE.pb}; throws Error when there is no '=' or either side is empty.
std::pair<std::string, std::string> parseNamedInput(std::string_view spec);

/// The file an output is written to: DIR/<name>.pb, with '/' and '\' in the name replaced by '_'.
std::string outputFilePath(const std::string &outputDir, const std::string &outputName);

/// Loads `modelPath`, feeds each named input from its TensorProto file, runs once with `threads` threads
/// (<= 0: all cores) and writes every graph output as outputFilePath(outputDir, name), each atomically
/// (temporary file + rename). Creates outputDir if needed. Returns the paths written, in output order.
/// Throws Error for a bad model, a missing/unknown/mistyped input or an unwritable directory.
std::vector<std::string> runModelOnFiles(const std::string &modelPath,
                                         const std::vector<std::pair<std::string, std::string>> &namedInputFiles,
                                         const std::string &outputDir, int threads = 0);

/// The table printed by `specdec onnx-ops`: one line per operator, "Name  opsets A-B  (versions ...)".
std::string supportedOperatorsTable();

} // namespace specdec::nn
