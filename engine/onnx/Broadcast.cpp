// SPDX-License-Identifier: GPL-3.0-or-later
#include "onnx/Broadcast.h"

namespace specdec::nn {

int normalizeAxis(std::int64_t axis, int rank, std::string_view what)
{
    if (axis < -rank || axis >= rank)
        throw Error(std::string(what) + " " + std::to_string(axis) + " is out of range for a tensor of rank "
                    + std::to_string(rank));
    return static_cast<int>(axis < 0 ? axis + rank : axis);
}

Shape broadcastShapes(const Shape &a, const Shape &b)
{
    const std::size_t rank = std::max(a.size(), b.size());
    Shape out(rank);
    for (std::size_t i = 0; i < rank; ++i) {
        const std::int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
        const std::int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
        if (da != db && da != 1 && db != 1)
            throw Error("shapes " + shapeToString(a) + " and " + shapeToString(b) + " cannot be broadcast");
        out[i] = da == 1 ? db : da;
    }
    return out;
}

Shape contiguousStrides(const Shape &shape)
{
    Shape strides(shape.size());
    std::int64_t s = 1;
    for (std::size_t i = shape.size(); i-- > 0;) {
        strides[i] = s;
        s *= shape[i];
    }
    return strides;
}

const Tensor &requireInput(std::span<const Tensor *const> inputs, std::size_t i, std::string_view what)
{
    if (i >= inputs.size() || !inputs[i] || !inputs[i]->defined())
        throw Error("input " + std::to_string(i) + " (" + std::string(what) + ") is required");
    return *inputs[i];
}

} // namespace specdec::nn
