// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Tensor: the value that flows along the edges of an ONNX graph — an element type, a shape and a
// contiguous row-major buffer. Copies share the buffer; writing through mutableData() detaches first.

#include "Error.h"
#include "onnx/ModelMemory.h" // tensorMemoryLimit and the other parts of the limit (declared there)

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace specdec::nn {

/// The element types the executor computes with (ONNX FLOAT, DOUBLE, INT64, INT32, BOOL).
enum class DataType { Undefined, Float32, Float64, Int64, Int32, Bool };

using Shape = std::vector<std::int64_t>;

/// "float32", "int64", ... as printed in messages and by `specdec onnx-ops`.
std::string_view dataTypeName(DataType type);
/// The ONNX TensorProto::DataType code of a type, and back (Undefined for a type the executor lacks).
int toOnnxDataType(DataType type);
DataType fromOnnxDataType(int onnxType);
/// The ONNX name of any TensorProto::DataType code ("uint8", "float16", ...), for messages.
std::string onnxDataTypeName(int onnxType);
std::size_t elementSize(DataType type);

/// Product of the dimensions (1 for a scalar); throws Error on a negative dimension or overflow.
std::int64_t elementCount(const Shape &shape);
/// a * b for sizes (both >= 0); throws Error naming `what` when the product overflows int64.
std::int64_t checkedProduct(std::int64_t a, std::int64_t b, const char *what);

/// "512 B", "3.5 MiB", "16 EiB"
std::string formatBytes(double bytes);
/// "[2, 3, 4]"
std::string shapeToString(const Shape &shape);

/// The C++ element type of each DataType (bool is stored as one byte holding 0 or 1).
template<class T> constexpr DataType dataTypeOf()
{
    if constexpr (std::is_same_v<T, float>)
        return DataType::Float32;
    else if constexpr (std::is_same_v<T, double>)
        return DataType::Float64;
    else if constexpr (std::is_same_v<T, std::int64_t>)
        return DataType::Int64;
    else if constexpr (std::is_same_v<T, std::int32_t>)
        return DataType::Int32;
    else if constexpr (std::is_same_v<T, bool>)
        return DataType::Bool;
    else
        static_assert(sizeof(T) == 0, "not a tensor element type");
}

template<class T> struct TypeTag
{
    using type = T;
};

/// Calls f(TypeTag<T>{}) with the C++ type of `type`; throws Error for Undefined.
template<class F> decltype(auto) visitDataType(DataType type, F &&f);

class Tensor
{
public:
    Tensor() = default;
    /// A tensor of this type and shape; the elements are uninitialised.
    Tensor(DataType type, Shape shape);
    static Tensor zeros(DataType type, Shape shape);

    template<class T> static Tensor fromVector(Shape shape, const std::vector<T> &values);
    /// A tensor over `storage` as it is (memory-mapped external data): no copy, not counted against the memory
    /// limit (the pages belong to a file); a write copies it first (detach).
    static Tensor adopt(DataType type, Shape shape, std::shared_ptr<std::byte[]> storage);
    template<class T> static Tensor scalar(T value) { return fromVector<T>({}, {value}); }

    bool defined() const { return m_type != DataType::Undefined; }
    DataType type() const { return m_type; }
    const Shape &shape() const { return m_shape; }
    int rank() const { return static_cast<int>(m_shape.size()); }
    std::int64_t dim(int axis) const { return m_shape[static_cast<std::size_t>(axis)]; }
    std::int64_t size() const { return m_size; }
    /// Never overflows: the constructor refuses a tensor whose bytes do not fit the memory limit.
    std::size_t byteSize() const { return static_cast<std::size_t>(m_size) * elementSize(m_type); }

    /// Typed read access; throws Error if T is not this tensor's element type.
    template<class T> const T *data() const
    {
        checkType(dataTypeOf<T>());
        return reinterpret_cast<const T *>(m_storage.get());
    }
    template<class T> std::span<const T> values() const { return {data<T>(), static_cast<std::size_t>(m_size)}; }
    /// Typed write access; copies the buffer first if another tensor shares it.
    template<class T> T *mutableData()
    {
        checkType(dataTypeOf<T>());
        detach();
        return reinterpret_cast<T *>(m_storage.get());
    }
    const std::byte *bytes() const { return m_storage.get(); }
    std::byte *mutableBytes()
    {
        detach();
        return m_storage.get();
    }

    /// The same elements under another shape with the same element count (shares the buffer).
    Tensor reshaped(Shape shape) const;

    /// Element i converted to int64 / double (any type); for shape-like inputs and tests.
    std::int64_t intAt(std::int64_t i) const;
    double doubleAt(std::int64_t i) const;
    /// All elements as int64 (for 1-D shape, axes and index inputs).
    std::vector<std::int64_t> toInt64Vector() const;

    /// "float32[2, 3]"
    std::string describe() const;

private:
    DataType m_type = DataType::Undefined;
    Shape m_shape;
    std::int64_t m_size = 0;
    std::shared_ptr<std::byte[]> m_storage;

    void checkType(DataType requested) const;
    void detach();
    /// A buffer of byteSize() bytes (at least 1) counted against the memory limit while it lives.
    std::shared_ptr<std::byte[]> allocate() const;
};

template<class F> decltype(auto) visitDataType(DataType type, F &&f)
{
    switch (type) {
    case DataType::Float32: return f(TypeTag<float>{});
    case DataType::Float64: return f(TypeTag<double>{});
    case DataType::Int64: return f(TypeTag<std::int64_t>{});
    case DataType::Int32: return f(TypeTag<std::int32_t>{});
    case DataType::Bool: return f(TypeTag<bool>{});
    case DataType::Undefined: break;
    }
    throw Error("a tensor of undefined element type was used");
}

template<class T> Tensor Tensor::fromVector(Shape shape, const std::vector<T> &values)
{
    Tensor t(dataTypeOf<T>(), std::move(shape));
    if (static_cast<std::int64_t>(values.size()) != t.size())
        throw Error("Tensor::fromVector: " + std::to_string(values.size()) + " values for shape "
                    + shapeToString(t.shape()));
    T *out = t.mutableData<T>();
    for (std::size_t i = 0; i < values.size(); ++i)
        out[i] = values[i];
    return t;
}

} // namespace specdec::nn
