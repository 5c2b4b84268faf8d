// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Helpers shared by the kernels: numpy-style broadcasting, axis normalisation and strides.
// Broadcasting aligns shapes on the right; a dimension of 1 (or a missing leading one) stretches.

#include "onnx/Operator.h"

#include <array>

namespace specdec::nn {

/// An axis in [-rank, rank) mapped to [0, rank); throws Error naming `what` otherwise.
int normalizeAxis(std::int64_t axis, int rank, std::string_view what = "axis");

/// The numpy broadcast of two shapes; throws Error when they are incompatible.
Shape broadcastShapes(const Shape &a, const Shape &b);

/// Row-major strides (in elements) of a contiguous tensor of this shape.
Shape contiguousStrides(const Shape &shape);

/// The positions of an n-ary broadcast, in runs: calls
/// f(outOffset, inOffsets, count, inStrides) for each maximal run along the innermost (coalesced)
/// dimension; output elements of a run are contiguous, input k advances by inStrides[k] (0 or more).
template<std::size_t N, class F>
void forEachBroadcastRun(const Shape &out, const std::array<const Shape *, N> &inputs, F &&f)
{
    const int rank = static_cast<int>(out.size());
    // Per-dimension strides of each input in the output's index space (0 where broadcast).
    std::vector<std::int64_t> dims;
    std::vector<std::array<std::int64_t, N>> strides;
    std::array<std::int64_t, N> running{};
    running.fill(1);
    std::vector<std::array<std::int64_t, N>> raw(static_cast<std::size_t>(rank));
    for (int d = rank - 1; d >= 0; --d) {
        for (std::size_t k = 0; k < N; ++k) {
            const Shape &s = *inputs[k];
            const int kd = d - (rank - static_cast<int>(s.size()));
            const std::int64_t dim = kd >= 0 ? s[static_cast<std::size_t>(kd)] : 1;
            raw[static_cast<std::size_t>(d)][k] = dim == 1 ? 0 : running[k];
            running[k] *= dim;
        }
    }
    for (int d = 0; d < rank; ++d) {
        const std::int64_t n = out[static_cast<std::size_t>(d)];
        if (n == 0)
            return;
        if (n == 1)
            continue;
        const auto &st = raw[static_cast<std::size_t>(d)];
        if (!dims.empty()) {
            bool merge = true;
            for (std::size_t k = 0; k < N; ++k)
                merge = merge && strides.back()[k] == st[k] * n;
            if (merge) {
                dims.back() *= n;
                strides.back() = st;
                continue;
            }
        }
        dims.push_back(n);
        strides.push_back(st);
    }
    std::array<std::int64_t, N> offsets{};
    if (dims.empty()) {
        f(std::int64_t(0), offsets, std::int64_t(1), offsets);
        return;
    }
    const std::size_t inner = dims.size() - 1;
    const std::int64_t count = dims[inner];
    std::vector<std::int64_t> index(inner, 0);
    std::int64_t outOffset = 0;
    while (true) {
        f(outOffset, offsets, count, strides[inner]);
        outOffset += count;
        // Advance the outer multi-index (last outer dimension fastest).
        std::size_t d = inner;
        while (d > 0) {
            --d;
            ++index[d];
            for (std::size_t k = 0; k < N; ++k)
                offsets[k] += strides[d][k];
            if (index[d] < dims[d])
                break;
            for (std::size_t k = 0; k < N; ++k)
                offsets[k] -= strides[d][k] * dims[d];
            index[d] = 0;
            if (d == 0)
                return;
        }
        if (inner == 0)
            return;
    }
}

/// Output `i` of a kernel's span as a fresh tensor of this type and shape.
inline Tensor &makeOutput(std::span<Tensor> outputs, std::size_t i, DataType type, Shape shape)
{
    outputs[i] = Tensor(type, std::move(shape));
    return outputs[i];
}

/// Throws Error when a required input is absent.
const Tensor &requireInput(std::span<const Tensor *const> inputs, std::size_t i, std::string_view what);

} // namespace specdec::nn

namespace specdec::nn {

/// Calls f(TypeTag<T>{}) for the one T among Ts whose DataType is `type`; otherwise throws Error
/// saying that `op` does not support that element type.
template<class... Ts, class F> void dispatchTypes(DataType type, std::string_view op, F &&f)
{
    const bool done = ((type == dataTypeOf<Ts>() ? (f(TypeTag<Ts>{}), true) : false) || ...);
    if (!done)
        throw Error(std::string(op) + " does not support element type " + std::string(dataTypeName(type)));
}

constexpr std::initializer_list<DataType> kFloatTypes = {DataType::Float32, DataType::Float64};
constexpr std::initializer_list<DataType> kNumericTypes = {DataType::Float32, DataType::Float64, DataType::Int64,
                                                           DataType::Int32};
constexpr std::initializer_list<DataType> kAllTypes = {DataType::Float32, DataType::Float64, DataType::Int64,
                                                       DataType::Int32, DataType::Bool};

} // namespace specdec::nn
