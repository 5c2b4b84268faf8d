// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Initializers stored outside the model file (TensorProto.data_location = EXTERNAL, as Optimum writes
// model.onnx_data next to model.onnx for models over 2 GB): each names a `location` relative to the model's
// folder, an `offset` and a `length` in its key/value table. The files are memory-mapped (read-only pages,
// private: never written back) once and shared by every tensor in them, so a 2 GB model is not copied.
//
// A model folder is untrusted: a location that is absolute, holds "..", or resolves through a symlink outside the
// folder, an offset past the end of the file, a length or a file shorter than the tensor's shape needs, an
// unknown key or a malformed number — each is a one-line Error naming the model file, the initializer and the
// field, and nothing outside the folder is opened.

#include "onnx/Tensor.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace onnx {
class TensorProto;
}

namespace specdec::nn {

/// The external-data table of one tensor, checked on its own (no file is read).
struct ExternalDataEntry
{
    std::string location;
    std::uint64_t offset = 0;
    std::int64_t length = -1; ///< -1: not given (the tensor's bytes from offset)

    /// Parses the key/value pairs (location, offset, length, checksum); throws Error "what: field 'x' ...".
    static ExternalDataEntry parse(const std::vector<std::pair<std::string, std::string>> &table,
                                   const std::string &what);
    /// Checks the entry against a file of `fileSize` bytes for a tensor of `needed` bytes: the range
    /// [offset, offset + needed) must lie inside the file and inside `length` when given.
    void checkRange(std::uint64_t fileSize, std::uint64_t needed, const std::string &what) const;
};

/// The external data files of one model, mapped on first use.
class ExternalData
{
public:
    /// `modelPath` is the model file: locations resolve in its folder. Empty: a model given as bytes, which may
    /// not have external data.
    explicit ExternalData(std::string modelPath);
    ~ExternalData();
    ExternalData(const ExternalData &) = delete;
    ExternalData &operator=(const ExternalData &) = delete;

    /// The tensor of an external initializer: float32, float64, int64 and int32 point into the mapping (no copy)
    /// when aligned; otherwise, and for bool, its bytes are copied. Throws Error naming `what`.
    Tensor tensor(const onnx::TensorProto &proto, const std::string &what);
    /// `proto` with its external bytes copied into raw_data (for the float16 weights that a Cast widens at load).
    void inlineInto(onnx::TensorProto &proto, const std::string &what);
    /// Bytes mapped so far (all files).
    std::uint64_t mappedBytes() const;

private:
    struct Mapping;
    std::string m_model;
    std::string m_dir;
    std::map<std::string, std::shared_ptr<Mapping>> m_files;

    /// The entry of `proto` checked against its file; `bytes` receives a pointer to its first byte.
    ExternalDataEntry locate(const onnx::TensorProto &proto, std::uint64_t needed, const std::string &what,
                             std::shared_ptr<Mapping> &mapping);
    std::shared_ptr<Mapping> map(const std::string &location, const std::string &what);
};

} // namespace specdec::nn
