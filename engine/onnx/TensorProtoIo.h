// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Conversion between ONNX TensorProto messages and Tensor, and reading/writing TensorProto files
// (the `input_0.pb` / `output_0.pb` files of the ONNX backend tests and of `specdec onnx-run`).

#include "FileIo.h"
#include "onnx/Tensor.h"

#include <cstdint>
#include <string>

namespace google::protobuf {
class MessageLite;
}
namespace onnx {
class TensorProto;
}

namespace specdec::nn {

/// Decodes a TensorProto (raw_data or the typed fields, little-endian). Throws Error naming `what` for
/// an unsupported element type, external data, or a payload whose size does not match the dims.
Tensor tensorFromProto(const onnx::TensorProto &proto, const std::string &what);
/// The float32 value of IEEE 754 binary16 bits. Exact: every half (normal, subnormal, +-0, +-inf) is a float;
/// a NaN keeps its sign and payload and comes out quiet.
float halfToFloat(std::uint16_t bits);
/// Decodes a float16 TensorProto (raw_data, or the int32_data field holding the 16 bits of each value) widened
/// to a float32 tensor, exactly (halfToFloat). Throws Error naming `what` as tensorFromProto does.
Tensor float32FromFloat16Proto(const onnx::TensorProto &proto, const std::string &what);
/// Encodes a tensor as a TensorProto with raw_data (little-endian) and the given name.
void tensorToProto(const Tensor &tensor, const std::string &name, onnx::TensorProto &proto);

/// Reads a serialized TensorProto file of at most tensorMemoryLimit() bytes (a larger file, or an endless
/// stream, is an Error at once); the tensor's name goes to `name` when given.
Tensor readTensorFile(const std::string &path, std::string *name = nullptr);
/// Writes a tensor as a serialized TensorProto, atomically (a temporary file renamed over `path`).
void writeTensorFile(const std::string &path, const Tensor &tensor, const std::string &name);

/// The whole content of a file of at most tensorMemoryLimit() bytes; throws Error naming the file when it
/// cannot be read or is larger.
std::string readWholeFile(const std::string &path);
/// Parses `message` from a file of at most `limit` bytes, streamed: garbage (/dev/zero) fails on its first
/// chunk, a larger file or an endless stream is an Error naming `what` ("a model may hold ..."). Returns
/// false when the bytes are not a `message`; throws Error when the file is empty or cannot be read.
bool parseFileBounded(const std::string &path, google::protobuf::MessageLite &message, std::size_t limit,
                      const std::string &what);

} // namespace specdec::nn
