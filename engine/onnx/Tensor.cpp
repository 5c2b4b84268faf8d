// SPDX-License-Identifier: GPL-3.0-or-later
#include "onnx/Tensor.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <new>

namespace specdec::nn {

namespace {

// The allocator of a tensor's buffer and its shared_ptr control block, one allocation for both: returns the
// buffer's bytes to the budget when its last owner lets go.
template<class T> struct CountedAllocator
{
    using value_type = T;
    std::size_t bytes;
    explicit CountedAllocator(std::size_t b)
        : bytes(b)
    {
    }
    template<class U> CountedAllocator(const CountedAllocator<U> &other) // NOLINT: rebinding
        : bytes(other.bytes)
    {
    }
    T *allocate(std::size_t n) { return static_cast<T *>(::operator new(n * sizeof(T))); }
    void deallocate(T *p, std::size_t) noexcept
    {
        ::operator delete(p);
        releaseModelMemory(bytes);
    }
    template<class U> bool operator==(const CountedAllocator<U> &other) const { return bytes == other.bytes; }
};

} // namespace

std::string formatBytes(double bytes)
{
    const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB"};
    int u = 0;
    while (bytes >= 1024.0 && u < 7) {
        bytes /= 1024.0;
        ++u;
    }
    char text[32];
    std::snprintf(text, sizeof text, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
    return text;
}

std::int64_t checkedProduct(std::int64_t a, std::int64_t b, const char *what)
{
    std::int64_t product = 0;
    if (a < 0 || b < 0 || __builtin_mul_overflow(a, b, &product))
        throw Error(std::string(what) + ": " + std::to_string(a) + " x " + std::to_string(b) + " is out of range");
    return product;
}

std::string_view dataTypeName(DataType type)
{
    switch (type) {
    case DataType::Float32: return "float32";
    case DataType::Float64: return "float64";
    case DataType::Int64: return "int64";
    case DataType::Int32: return "int32";
    case DataType::Bool: return "bool";
    case DataType::Undefined: break;
    }
    return "undefined";
}

int toOnnxDataType(DataType type)
{
    switch (type) {
    case DataType::Float32: return onnx::TensorProto::FLOAT;
    case DataType::Float64: return onnx::TensorProto::DOUBLE;
    case DataType::Int64: return onnx::TensorProto::INT64;
    case DataType::Int32: return onnx::TensorProto::INT32;
    case DataType::Bool: return onnx::TensorProto::BOOL;
    case DataType::Undefined: break;
    }
    return onnx::TensorProto::UNDEFINED;
}

DataType fromOnnxDataType(int onnxType)
{
    switch (onnxType) {
    case onnx::TensorProto::FLOAT: return DataType::Float32;
    case onnx::TensorProto::DOUBLE: return DataType::Float64;
    case onnx::TensorProto::INT64: return DataType::Int64;
    case onnx::TensorProto::INT32: return DataType::Int32;
    case onnx::TensorProto::BOOL: return DataType::Bool;
    default: return DataType::Undefined;
    }
}

std::string onnxDataTypeName(int onnxType)
{
    if (!onnx::TensorProto::DataType_IsValid(onnxType))
        return "data type " + std::to_string(onnxType);
    std::string name = onnx::TensorProto::DataType_Name(static_cast<onnx::TensorProto::DataType>(onnxType));
    for (char &c : name)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return name == "float" ? "float32" : name == "double" ? "float64" : name;
}

std::size_t elementSize(DataType type)
{
    switch (type) {
    case DataType::Float32: return 4;
    case DataType::Float64: return 8;
    case DataType::Int64: return 8;
    case DataType::Int32: return 4;
    case DataType::Bool: return 1;
    case DataType::Undefined: break;
    }
    return 0;
}

std::int64_t elementCount(const Shape &shape)
{
    std::int64_t n = 1;
    for (std::int64_t d : shape) {
        if (d < 0)
            throw Error("negative dimension in shape " + shapeToString(shape));
        if (d != 0 && n > std::numeric_limits<std::int64_t>::max() / d)
            throw Error("shape " + shapeToString(shape) + " has too many elements");
        n *= d;
    }
    return n;
}

std::string shapeToString(const Shape &shape)
{
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i > 0)
            s += ", ";
        s += std::to_string(shape[i]);
    }
    return s + "]";
}

Tensor::Tensor(DataType type, Shape shape)
    : m_type(type)
    , m_shape(std::move(shape))
    , m_size(elementCount(m_shape))
{
    if (type == DataType::Undefined)
        throw Error("a tensor needs an element type");
    if (static_cast<std::uint64_t>(m_size) > std::numeric_limits<std::size_t>::max() / elementSize(type))
        throw Error("a " + describe() + " tensor needs more than 2^64 bytes");
    m_storage = allocate();
    static_assert(sizeof(bool) == 1, "bool tensors are stored one byte per element");
}

std::shared_ptr<std::byte[]> Tensor::allocate() const
{
    // Never a null buffer, so that data() of an empty tensor is a valid pointer.
    const std::size_t bytes = std::max<std::size_t>(byteSize(), 1);
    reserveModelMemory(bytes, "a " + describe() + " tensor");
    // Whole max_align_t units (so every element type is aligned), not initialised.
    const std::size_t units = (bytes + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t);
    std::shared_ptr<std::max_align_t[]> block;
    try {
        block = std::allocate_shared_for_overwrite<std::max_align_t[]>(CountedAllocator<std::max_align_t>(bytes), units);
    } catch (const std::bad_alloc &) {
        releaseModelMemory(bytes);
        throw Error("out of memory allocating a " + describe() + " tensor (" + formatBytes(static_cast<double>(bytes))
                    + ")");
    }
    std::byte *data = reinterpret_cast<std::byte *>(block.get());
    return std::shared_ptr<std::byte[]>(std::move(block), data);
}

Tensor Tensor::adopt(DataType type, Shape shape, std::shared_ptr<std::byte[]> storage)
{
    Tensor t;
    t.m_type = type;
    t.m_shape = std::move(shape);
    t.m_size = elementCount(t.m_shape);
    t.m_storage = std::move(storage);
    return t;
}

Tensor Tensor::zeros(DataType type, Shape shape)
{
    Tensor t(type, std::move(shape));
    std::memset(t.m_storage.get(), 0, t.byteSize());
    return t;
}

Tensor Tensor::reshaped(Shape shape) const
{
    Tensor t = *this;
    const std::int64_t n = elementCount(shape);
    if (n != m_size)
        throw Error("cannot reshape " + describe() + " to " + shapeToString(shape));
    t.m_shape = std::move(shape);
    return t;
}

std::int64_t Tensor::intAt(std::int64_t i) const
{
    return visitDataType(m_type, [&](auto tag) -> std::int64_t {
        using T = typename decltype(tag)::type;
        return static_cast<std::int64_t>(data<T>()[i]);
    });
}

double Tensor::doubleAt(std::int64_t i) const
{
    return visitDataType(m_type, [&](auto tag) -> double {
        using T = typename decltype(tag)::type;
        return static_cast<double>(data<T>()[i]);
    });
}

std::vector<std::int64_t> Tensor::toInt64Vector() const
{
    if (m_type != DataType::Int64 && m_type != DataType::Int32)
        throw Error("expected an integer tensor, got " + describe());
    std::vector<std::int64_t> v(static_cast<std::size_t>(m_size));
    for (std::int64_t i = 0; i < m_size; ++i)
        v[static_cast<std::size_t>(i)] = intAt(i);
    return v;
}

std::string Tensor::describe() const
{
    return std::string(dataTypeName(m_type)) + shapeToString(m_shape);
}

void Tensor::checkType(DataType requested) const
{
    if (requested != m_type)
        throw Error("expected a " + std::string(dataTypeName(requested)) + " tensor, got " + describe());
}

void Tensor::detach()
{
    if (m_storage && m_storage.use_count() > 1) {
        auto copy = allocate();
        std::memcpy(copy.get(), m_storage.get(), byteSize());
        m_storage = std::move(copy);
    }
}

} // namespace specdec::nn
