// SPDX-License-Identifier: GPL-3.0-or-later
#include "onnx/TensorProtoIo.h"

#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <vector>

namespace specdec::nn {

namespace {

// Copies little-endian element bytes into host order.
void copyLittleEndian(std::byte *dst, const char *src, std::size_t count, std::size_t width)
{
    std::memcpy(dst, src, count * width);
    if constexpr (std::endian::native == std::endian::big) {
        for (std::size_t i = 0; i < count; ++i)
            std::reverse(dst + i * width, dst + (i + 1) * width);
    }
}

template<class T, class Field> void copyTyped(Tensor &t, const Field &field, const std::string &what)
{
    if (static_cast<std::int64_t>(field.size()) != t.size())
        throw Error(what + ": " + std::to_string(field.size()) + " values for shape " + shapeToString(t.shape()));
    T *out = t.mutableData<T>();
    for (int i = 0; i < field.size(); ++i)
        out[i] = static_cast<T>(field.Get(i));
}

/// The checks every stored tensor passes before its payload is read: inline data in one segment, no negative
/// dimension, an element count that fits. Returns the shape; `count` receives its element count.
Shape checkedShape(const onnx::TensorProto &proto, const std::string &what, std::int64_t &count)
{
    if (proto.data_location() == onnx::TensorProto::EXTERNAL)
        throw Error(what + ": tensors stored in external data files are not supported");
    if (proto.has_segment())
        throw Error(what + ": segmented tensors are not supported");
    Shape shape(proto.dims().begin(), proto.dims().end());
    for (std::int64_t d : shape)
        if (d < 0)
            throw Error(what + ": negative dimension in " + shapeToString(shape));
    try {
        count = elementCount(shape);
    } catch (const Error &e) {
        throw Error(what + ": " + e.what());
    }
    return shape;
}

} // namespace

Tensor tensorFromProto(const onnx::TensorProto &proto, const std::string &what)
{
    std::int64_t count = 0;
    const Shape shape = checkedShape(proto, what, count);
    const DataType type = fromOnnxDataType(proto.data_type());
    if (type == DataType::Undefined)
        throw Error(what + ": element type " + onnxDataTypeName(proto.data_type()) + " is not supported");
    // The payload must match the dims before anything is allocated: the dims alone may ask for exabytes.
    const std::size_t width = elementSize(type);
    const std::int64_t given = proto.has_raw_data() ? static_cast<std::int64_t>(proto.raw_data().size() / width)
        : type == DataType::Float32                 ? proto.float_data_size()
        : type == DataType::Float64                 ? proto.double_data_size()
        : type == DataType::Int64                   ? proto.int64_data_size()
                                                    : proto.int32_data_size();
    if (proto.has_raw_data() && (proto.raw_data().size() % width != 0 || given != count))
        throw Error(what + ": raw_data holds " + std::to_string(proto.raw_data().size()) + " bytes, shape "
                    + shapeToString(shape) + " of " + std::string(dataTypeName(type)) + " needs "
                    + (count > std::numeric_limits<std::int64_t>::max() / 8
                           ? std::string("more than 2^63")
                           : std::to_string(count * static_cast<std::int64_t>(width))));
    if (!proto.has_raw_data() && given != count)
        throw Error(what + ": " + std::to_string(given) + " values for shape " + shapeToString(shape));
    Tensor t(type, shape);
    if (proto.has_raw_data()) {
        const std::string &raw = proto.raw_data();
        copyLittleEndian(t.mutableBytes(), raw.data(), static_cast<std::size_t>(t.size()), elementSize(type));
        if (type == DataType::Bool) {
            bool *b = t.mutableData<bool>();
            const auto *raw8 = reinterpret_cast<const unsigned char *>(raw.data());
            for (std::int64_t i = 0; i < t.size(); ++i)
                b[i] = raw8[i] != 0;
        }
        return t;
    }
    switch (type) {
    case DataType::Float32: copyTyped<float>(t, proto.float_data(), what); break;
    case DataType::Float64: copyTyped<double>(t, proto.double_data(), what); break;
    case DataType::Int64: copyTyped<std::int64_t>(t, proto.int64_data(), what); break;
    case DataType::Int32: copyTyped<std::int32_t>(t, proto.int32_data(), what); break;
    case DataType::Bool: {
        const auto &field = proto.int32_data();
        if (static_cast<std::int64_t>(field.size()) != t.size())
            throw Error(what + ": " + std::to_string(field.size()) + " values for shape " + shapeToString(shape));
        bool *out = t.mutableData<bool>();
        for (int i = 0; i < field.size(); ++i)
            out[i] = field.Get(i) != 0;
        break;
    }
    case DataType::Undefined: break;
    }
    return t;
}

float halfToFloat(std::uint16_t bits)
{
    const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
    const std::uint32_t exponent = (bits >> 10) & 0x1fu;
    std::uint32_t mantissa = bits & 0x3ffu;
    std::uint32_t out = 0;
    if (exponent == 0x1fu) { // inf, or NaN: its payload at the top of the float's mantissa, quieted (as F16C does)
        out = sign | 0x7f800000u | (mantissa << 13) | (mantissa != 0 ? 0x00400000u : 0u);
    } else if (exponent != 0) { // normal: rebias 15 -> 127
        out = sign | ((exponent + 112u) << 23) | (mantissa << 13);
    } else if (mantissa == 0) { // +-0
        out = sign;
    } else { // subnormal half m * 2^-24: a normal float after shifting the leading one into place
        int shift = 0;
        while ((mantissa & 0x400u) == 0) {
            mantissa <<= 1;
            ++shift;
        }
        out = sign | (static_cast<std::uint32_t>(113 - shift) << 23) | ((mantissa & 0x3ffu) << 13);
    }
    return std::bit_cast<float>(out);
}

Tensor float32FromFloat16Proto(const onnx::TensorProto &proto, const std::string &what)
{
    if (proto.data_type() != onnx::TensorProto::FLOAT16)
        throw Error(what + ": not a float16 tensor");
    std::int64_t count = 0;
    const Shape shape = checkedShape(proto, what, count);
    const std::int64_t given = proto.has_raw_data() ? static_cast<std::int64_t>(proto.raw_data().size() / 2)
                                                    : proto.int32_data_size();
    if ((proto.has_raw_data() && proto.raw_data().size() % 2 != 0) || given != count)
        throw Error(what + ": " + std::to_string(given) + " float16 values for shape " + shapeToString(shape));
    // Every half's float, computed once (256 KiB): a 90 MB model's weights widen at the speed of a lookup.
    static const std::vector<float> table = [] {
        std::vector<float> all(65536);
        for (std::uint32_t bits = 0; bits < 65536; ++bits)
            all[bits] = halfToFloat(static_cast<std::uint16_t>(bits));
        return all;
    }();
    Tensor t(DataType::Float32, shape);
    float *out = t.mutableData<float>();
    if (proto.has_raw_data()) {
        const auto *raw = reinterpret_cast<const unsigned char *>(proto.raw_data().data());
        for (std::int64_t i = 0; i < count; ++i) // little-endian pairs of bytes
            out[i] = table[static_cast<std::size_t>(raw[2 * i] | (raw[2 * i + 1] << 8))];
    } else {
        for (std::int64_t i = 0; i < count; ++i)
            out[i] = table[static_cast<std::size_t>(proto.int32_data(static_cast<int>(i)) & 0xffff)];
    }
    return t;
}

void tensorToProto(const Tensor &tensor, const std::string &name, onnx::TensorProto &proto)
{
    proto.Clear();
    proto.set_name(name);
    proto.set_data_type(toOnnxDataType(tensor.type()));
    for (std::int64_t d : tensor.shape())
        proto.add_dims(d);
    std::string raw(tensor.byteSize(), '\0');
    copyLittleEndian(reinterpret_cast<std::byte *>(raw.data()), reinterpret_cast<const char *>(tensor.bytes()),
                     static_cast<std::size_t>(tensor.size()), elementSize(tensor.type()));
    proto.set_raw_data(std::move(raw));
}

namespace {

const char *kTensorLimit = "a tensor file may hold (the setting SPECDEC_MAX_MODEL_MEMORY, in MiB)";

// protobuf's pull interface over a BoundedInput.
class BoundedStream : public google::protobuf::io::CopyingInputStream
{
public:
    explicit BoundedStream(BoundedInput &input)
        : m_input(input)
    {
    }
    int Read(void *buffer, int size) override
    {
        return static_cast<int>(m_input.read(static_cast<char *>(buffer), static_cast<std::size_t>(size)));
    }

private:
    BoundedInput &m_input;
};

} // namespace

std::string readWholeFile(const std::string &path)
{
    return readFileBounded(path, tensorMemoryLimit(), kTensorLimit);
}

bool parseFileBounded(const std::string &path, google::protobuf::MessageLite &message, std::size_t limit,
                      const std::string &what)
{
    BoundedInput input(path, limit, what);
    BoundedStream stream(input);
    google::protobuf::io::CopyingInputStreamAdaptor adaptor(&stream);
    const bool parsed = message.ParseFromZeroCopyStream(&adaptor);
    input.checkRead();
    if (input.bytesRead() == 0)
        throw Error(path + ": the file is empty");
    return parsed;
}

Tensor readTensorFile(const std::string &path, std::string *name)
{
    onnx::TensorProto proto;
    if (!parseFileBounded(path, proto, tensorMemoryLimit(), kTensorLimit))
        throw Error(path + ": not a serialized ONNX TensorProto (truncated or malformed)");
    if (name)
        *name = proto.name();
    return tensorFromProto(proto, path);
}

void writeTensorFile(const std::string &path, const Tensor &tensor, const std::string &name)
{
    onnx::TensorProto proto;
    tensorToProto(tensor, name, proto);
    std::string bytes;
    if (!proto.SerializeToString(&bytes))
        throw Error(path + ": cannot serialize tensor '" + name + "'");
    writeFileAtomically(path, bytes);
}

} // namespace specdec::nn
