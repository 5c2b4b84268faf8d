// SPDX-License-Identifier: GPL-3.0-or-later
// Operators that move elements: Transpose, Concat, Split, Slice, Gather, Expand, Tile, Trilu, ScatterND.
// They work on raw element bytes, so every element type shares one implementation.
#include "onnx/Broadcast.h"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace specdec::nn {

namespace {

// Copies a strided view of `src` (element strides per output dimension, 0 to repeat) into the
// contiguous `dst` of shape `outShape`.
void stridedCopy(std::size_t width, const Shape &outShape, const std::vector<std::int64_t> &inStrides,
                 const std::byte *src, std::byte *dst)
{
    const std::int64_t total = elementCount(outShape);
    if (total == 0)
        return;
    const std::size_t rank = outShape.size();
    if (rank == 0) {
        std::memcpy(dst, src, width);
        return;
    }
    const std::int64_t inner = outShape[rank - 1];
    const std::int64_t innerStride = inStrides[rank - 1];
    std::vector<std::int64_t> index(rank, 0);
    std::int64_t offset = 0;
    for (std::int64_t done = 0; done < total; done += inner) {
        if (innerStride == 1) {
            std::memcpy(dst, src + offset * static_cast<std::int64_t>(width), static_cast<std::size_t>(inner) * width);
            dst += static_cast<std::size_t>(inner) * width;
        } else {
            for (std::int64_t i = 0; i < inner; ++i, dst += width)
                std::memcpy(dst, src + (offset + i * innerStride) * static_cast<std::int64_t>(width), width);
        }
        for (std::size_t d = rank - 1; d-- > 0;) {
            offset += inStrides[d];
            if (++index[d] < outShape[d])
                break;
            offset -= inStrides[d] * outShape[d];
            index[d] = 0;
        }
    }
}

Kernel makeTranspose(const NodeContext &ctx)
{
    const std::vector<std::int64_t> permAttr = ctx.attributes.getInts("perm");
    return [permAttr](Inputs in, Outputs out, ExecContext &) {
        const Tensor &x = requireInput(in, 0, "data");
        const int r = x.rank();
        std::vector<std::int64_t> perm = permAttr;
        if (perm.empty()) {
            perm.resize(static_cast<std::size_t>(r));
            std::iota(perm.rbegin(), perm.rend(), 0);
        }
        if (static_cast<int>(perm.size()) != r)
            throw Error("Transpose: perm " + shapeToString(perm) + " does not match " + x.describe());
        const Shape strides = contiguousStrides(x.shape());
        Shape shape(static_cast<std::size_t>(r));
        std::vector<std::int64_t> inStrides(static_cast<std::size_t>(r));
        std::vector<bool> seen(static_cast<std::size_t>(r), false);
        for (int i = 0; i < r; ++i) {
            const int p = normalizeAxis(perm[static_cast<std::size_t>(i)], r, "Transpose perm");
            if (seen[static_cast<std::size_t>(p)])
                throw Error("Transpose: perm " + shapeToString(perm) + " repeats an axis");
            seen[static_cast<std::size_t>(p)] = true;
            shape[static_cast<std::size_t>(i)] = x.dim(p);
            inStrides[static_cast<std::size_t>(i)] = strides[static_cast<std::size_t>(p)];
        }
        Tensor &o = makeOutput(out, 0, x.type(), shape);
        stridedCopy(elementSize(x.type()), shape, inStrides, x.bytes(), o.mutableBytes());
    };
}

Kernel makeConcat(const NodeContext &ctx)
{
    const std::int64_t axisAttr = ctx.attributes.requireInt("axis");
    return [axisAttr](Inputs in, Outputs out, ExecContext &) {
        const Tensor &first = requireInput(in, 0, "inputs");
        const int r = first.rank();
        const int axis = normalizeAxis(axisAttr, r, "Concat axis");
        Shape shape = first.shape();
        shape[static_cast<std::size_t>(axis)] = 0;
        for (std::size_t k = 0; k < in.size(); ++k) {
            const Tensor &t = requireInput(in, k, "inputs");
            bool ok = t.type() == first.type() && t.rank() == r;
            for (int i = 0; ok && i < r; ++i)
                ok = i == axis || t.dim(i) == first.dim(i);
            if (!ok)
                throw Error("Concat: " + t.describe() + " does not fit " + first.describe() + " along axis "
                            + std::to_string(axis));
            shape[static_cast<std::size_t>(axis)] += t.dim(axis);
        }
        std::int64_t outer = 1;
        for (int i = 0; i < axis; ++i)
            outer *= shape[static_cast<std::size_t>(i)];
        const std::size_t width = elementSize(first.type());
        Tensor &o = makeOutput(out, 0, first.type(), shape);
        const std::size_t outBlock = static_cast<std::size_t>(outer == 0 ? 0 : o.size() / outer) * width;
        std::byte *dst = o.mutableBytes();
        std::size_t column = 0;
        for (std::size_t k = 0; k < in.size(); ++k) {
            const Tensor &t = *in[k];
            const std::size_t block = static_cast<std::size_t>(outer == 0 ? 0 : t.size() / outer) * width;
            for (std::int64_t o2 = 0; o2 < outer; ++o2)
                std::memcpy(dst + static_cast<std::size_t>(o2) * outBlock + column,
                            t.bytes() + static_cast<std::size_t>(o2) * block, block);
            column += block;
        }
    };
}

Kernel makeSplit(const NodeContext &ctx)
{
    const std::int64_t axisAttr = ctx.attributes.getInt("axis", 0);
    const std::vector<std::int64_t> splitAttr = ctx.attributes.getInts("split");
    const int version = ctx.version;
    // Split-18: num_outputs parts of ceil(dim / num_outputs), the last one smaller (given when `split` is not).
    const std::int64_t numOutputs = ctx.attributes.getInt("num_outputs", 0);
    if (ctx.attributes.has("num_outputs") && (version < 18 || numOutputs != ctx.outputCount))
        throw Error("Split: num_outputs " + std::to_string(numOutputs) + " differs from the node's "
                    + std::to_string(ctx.outputCount) + " outputs");
    if (numOutputs > 0 && ctx.hasInput(1))
        throw Error("Split: num_outputs and the split input are both given");
    return [axisAttr, splitAttr, version, numOutputs](Inputs in, Outputs out, ExecContext &) {
        const Tensor &x = requireInput(in, 0, "input");
        const int axis = normalizeAxis(axisAttr, x.rank(), "Split axis");
        const std::int64_t dim = x.dim(axis);
        std::vector<std::int64_t> split = splitAttr;
        if (version >= 13)
            split = in.size() > 1 && in[1] && in[1]->defined() ? in[1]->toInt64Vector() : std::vector<std::int64_t>{};
        const auto parts = static_cast<std::int64_t>(out.size());
        if (split.empty() && numOutputs > 0) {
            const std::int64_t chunk = (dim + parts - 1) / parts;
            for (std::int64_t k = 0, left = dim; k < parts; ++k, left -= std::min(left, chunk))
                split.push_back(std::min(left, chunk));
        }
        if (split.empty()) {
            if (dim % parts != 0)
                throw Error("Split: dimension " + std::to_string(dim) + " does not divide into " + std::to_string(parts)
                            + " equal parts");
            split.assign(static_cast<std::size_t>(parts), dim / parts);
        }
        if (static_cast<std::int64_t>(split.size()) != parts
            || std::accumulate(split.begin(), split.end(), std::int64_t(0)) != dim)
            throw Error("Split: sizes " + shapeToString(split) + " do not split " + x.describe() + " along axis "
                        + std::to_string(axis) + " into " + std::to_string(parts) + " outputs");
        std::int64_t outer = 1;
        for (int i = 0; i < axis; ++i)
            outer *= x.dim(i);
        const std::size_t width = elementSize(x.type());
        const std::int64_t inner = dim == 0 || outer == 0 ? 0 : x.size() / outer / dim;
        std::int64_t start = 0;
        for (std::size_t k = 0; k < split.size(); ++k) {
            Shape shape = x.shape();
            shape[static_cast<std::size_t>(axis)] = split[k];
            Tensor &o = makeOutput(out, k, x.type(), shape);
            const std::size_t block = static_cast<std::size_t>(split[k] * inner) * width;
            for (std::int64_t b = 0; b < outer; ++b)
                std::memcpy(o.mutableBytes() + static_cast<std::size_t>(b) * block,
                            x.bytes() + static_cast<std::size_t>((b * dim + start) * inner) * width, block);
            start += split[k];
        }
    };
}

// Slice(data, starts, ends, axes, steps): Python-style clamping, negative steps walk backwards.
Kernel makeSlice(const NodeContext &ctx)
{
    ctx.requireType(1, {DataType::Int64, DataType::Int32});
    return [](Inputs in, Outputs out, ExecContext &) {
        const Tensor &x = requireInput(in, 0, "data");
        const auto starts = requireInput(in, 1, "starts").toInt64Vector();
        const auto ends = requireInput(in, 2, "ends").toInt64Vector();
        std::vector<std::int64_t> axes, steps;
        if (in.size() > 3 && in[3] && in[3]->defined())
            axes = in[3]->toInt64Vector();
        else {
            axes.resize(starts.size());
            std::iota(axes.begin(), axes.end(), 0);
        }
        if (in.size() > 4 && in[4] && in[4]->defined())
            steps = in[4]->toInt64Vector();
        else
            steps.assign(starts.size(), 1);
        if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
            throw Error("Slice: starts, ends, axes and steps differ in length");
        const int r = x.rank();
        Shape shape = x.shape();
        const Shape strides = contiguousStrides(x.shape());
        std::vector<std::int64_t> inStrides(strides.begin(), strides.end());
        std::int64_t offset = 0;
        std::vector<bool> seen(static_cast<std::size_t>(r), false);
        for (std::size_t k = 0; k < starts.size(); ++k) {
            const auto a = static_cast<std::size_t>(normalizeAxis(axes[k], r, "Slice axis"));
            if (seen[a])
                throw Error("Slice: an axis is repeated");
            seen[a] = true;
            const std::int64_t d = x.shape()[a];
            const std::int64_t step = steps[k];
            if (step == 0)
                throw Error("Slice: step 0");
            std::int64_t s = starts[k] < 0 ? starts[k] + d : starts[k];
            std::int64_t e = ends[k] < 0 ? ends[k] + d : ends[k];
            // Every step from the file may be near the int64 limits: span and magnitude never overflow, and a
            // stride is only formed when two elements are taken (then |step| < d).
            const std::int64_t magnitude = step > 0 ? step : step == INT64_MIN ? INT64_MAX : -step;
            std::int64_t span = 0;
            if (step > 0) {
                s = std::clamp<std::int64_t>(s, 0, d);
                e = std::clamp<std::int64_t>(e, 0, d);
                span = e - s;
            } else {
                s = std::clamp<std::int64_t>(s, 0, d - 1);
                e = std::clamp<std::int64_t>(e, -1, d - 1);
                span = s - e;
            }
            const std::int64_t count = span > 0 ? 1 + (span - 1) / magnitude : 0;
            shape[a] = count;
            if (count > 0)
                offset += s * strides[a];
            inStrides[a] = count > 1 ? strides[a] * step : 0;
        }
        Tensor &o = makeOutput(out, 0, x.type(), shape);
        if (o.size() > 0)
            stridedCopy(elementSize(x.type()), shape, inStrides,
                        x.bytes() + offset * static_cast<std::int64_t>(elementSize(x.type())), o.mutableBytes());
    };
}

Kernel makeGather(const NodeContext &ctx)
{
    ctx.requireType(1, {DataType::Int64, DataType::Int32});
    const std::int64_t axisAttr = ctx.attributes.getInt("axis", 0);
    return [axisAttr](Inputs in, Outputs out, ExecContext &) {
        const Tensor &x = requireInput(in, 0, "data");
        const Tensor &indices = requireInput(in, 1, "indices");
        const int axis = normalizeAxis(axisAttr, x.rank(), "Gather axis");
        Shape shape(x.shape().begin(), x.shape().begin() + axis);
        shape.insert(shape.end(), indices.shape().begin(), indices.shape().end());
        shape.insert(shape.end(), x.shape().begin() + axis + 1, x.shape().end());
        const std::int64_t dim = x.dim(axis);
        std::int64_t outer = 1;
        for (int i = 0; i < axis; ++i)
            outer *= x.dim(i);
        const std::int64_t inner = dim == 0 || outer == 0 ? 0 : x.size() / outer / dim;
        const std::size_t width = elementSize(x.type());
        const std::size_t block = static_cast<std::size_t>(inner) * width;
        Tensor &o = makeOutput(out, 0, x.type(), shape);
        std::byte *dst = o.mutableBytes();
        const std::int64_t n = indices.size();
        std::vector<std::int64_t> idx(static_cast<std::size_t>(n));
        for (std::int64_t j = 0; j < n; ++j) {
            std::int64_t v = indices.intAt(j);
            if (v < -dim || v >= dim)
                throw Error("Gather: index " + std::to_string(v) + " is out of range [" + std::to_string(-dim) + ", "
                            + std::to_string(dim) + ")");
            idx[static_cast<std::size_t>(j)] = v < 0 ? v + dim : v;
        }
        for (std::int64_t b = 0; b < outer; ++b)
            for (std::int64_t j = 0; j < n; ++j, dst += block)
                std::memcpy(dst, x.bytes() + static_cast<std::size_t>(b * dim + idx[static_cast<std::size_t>(j)]) * block,
                            block);
    };
}

Kernel makeExpand(const NodeContext &ctx)
{
    ctx.requireType(1, {DataType::Int64});
    return [](Inputs in, Outputs out, ExecContext &) {
        const Tensor &x = requireInput(in, 0, "input");
        const Shape shape = broadcastShapes(x.shape(), requireInput(in, 1, "shape").toInt64Vector());
        const Shape strides = contiguousStrides(x.shape());
        std::vector<std::int64_t> inStrides(shape.size(), 0);
        const std::size_t lead = shape.size() - x.shape().size();
        for (std::size_t i = 0; i < x.shape().size(); ++i)
            inStrides[lead + i] = x.shape()[i] == 1 ? 0 : strides[i];
        Tensor &o = makeOutput(out, 0, x.type(), shape);
        stridedCopy(elementSize(x.type()), shape, inStrides, x.bytes(), o.mutableBytes());
    };
}

Kernel makeTile(const NodeContext &ctx)
{
    ctx.requireType(1, {DataType::Int64});
    return [](Inputs in, Outputs out, ExecContext &) {
        const Tensor &x = requireInput(in, 0, "input");
        const auto repeats = requireInput(in, 1, "repeats").toInt64Vector();
        if (static_cast<int>(repeats.size()) != x.rank())
            throw Error("Tile: repeats " + shapeToString(repeats) + " do not match " + x.describe());
        // Tile = Expand of a view with an extra "repeat" axis before each axis, then merge pairs.
        Shape viewShape, strides2;
        const Shape strides = contiguousStrides(x.shape());
        Shape shape;
        for (int i = 0; i < x.rank(); ++i) {
            if (repeats[static_cast<std::size_t>(i)] < 0)
                throw Error("Tile: negative repeat");
            viewShape.push_back(repeats[static_cast<std::size_t>(i)]);
            strides2.push_back(0);
            viewShape.push_back(x.dim(i));
            strides2.push_back(strides[static_cast<std::size_t>(i)]);
            shape.push_back(
                checkedProduct(x.dim(i), repeats[static_cast<std::size_t>(i)], "Tile: a dimension times its repeat"));
        }
        Tensor &o = makeOutput(out, 0, x.type(), shape);
        stridedCopy(elementSize(x.type()), viewShape, std::vector<std::int64_t>(strides2.begin(), strides2.end()),
                    x.bytes(), o.mutableBytes());
    };
}

// Trilu: keeps the upper (j - i >= k) or lower (j - i <= k) triangle of the last two dimensions.
Kernel makeTrilu(const NodeContext &ctx)
{
    const bool upper = ctx.attributes.getInt("upper", 1) != 0;
    return [upper](Inputs in, Outputs out, ExecContext &) {
        const Tensor &x = requireInput(in, 0, "input");
        if (x.rank() < 2)
            throw Error("Trilu needs a tensor of rank >= 2, got " + x.describe());
        const std::int64_t k = in.size() > 1 && in[1] && in[1]->defined() ? in[1]->intAt(0) : 0;
        Tensor &o = makeOutput(out, 0, x.type(), x.shape());
        const std::int64_t rows = x.dim(x.rank() - 2);
        const std::int64_t cols = x.dim(x.rank() - 1);
        const std::size_t width = elementSize(x.type());
        std::memcpy(o.mutableBytes(), x.bytes(), x.byteSize());
        std::byte *p = o.mutableBytes();
        const std::int64_t matrices = rows * cols == 0 ? 0 : x.size() / (rows * cols);
        for (std::int64_t m = 0; m < matrices; ++m)
            for (std::int64_t i = 0; i < rows; ++i)
                for (std::int64_t j = 0; j < cols; ++j) {
                    const bool keep = upper ? j - i >= k : j - i <= k;
                    if (!keep)
                        std::memset(p + static_cast<std::size_t>((m * rows + i) * cols + j) * width, 0, width);
                }
    };
}

// ScatterND(data, indices, updates): a copy of data with the slices data[indices[j]] (each index a prefix of k
// coordinates, negative ones counted from the end) replaced by, or from opset 16 added to or multiplied by (18:
// max, min), updates[j]. Slices are written in order, so a repeated index keeps its last update (reduction none).
enum class ScatterReduction { None, Add, Mul, Max, Min };

template<class T> void scatterCombine(ScatterReduction how, T *dst, const T *src, std::int64_t n)
{
    for (std::int64_t i = 0; i < n; ++i) {
        switch (how) {
        case ScatterReduction::Add: dst[i] = static_cast<T>(dst[i] + src[i]); break;
        case ScatterReduction::Mul: dst[i] = static_cast<T>(dst[i] * src[i]); break;
        case ScatterReduction::Max: dst[i] = std::max(dst[i], src[i]); break;
        case ScatterReduction::Min: dst[i] = std::min(dst[i], src[i]); break;
        case ScatterReduction::None: dst[i] = src[i]; break;
        }
    }
}

Kernel makeScatterND(const NodeContext &ctx)
{
    ctx.requireType(1, {DataType::Int64});
    const std::string name = ctx.attributes.getString("reduction", "none");
    ScatterReduction how = ScatterReduction::None;
    if (name == "add" && ctx.version >= 16)
        how = ScatterReduction::Add;
    else if (name == "mul" && ctx.version >= 16)
        how = ScatterReduction::Mul;
    else if (name == "max" && ctx.version >= 18)
        how = ScatterReduction::Max;
    else if (name == "min" && ctx.version >= 18)
        how = ScatterReduction::Min;
    else if (name != "none")
        throw UnsupportedError(UnsupportedError::Kind::Attribute,
                               "ScatterND-" + std::to_string(ctx.version) + " has no reduction '" + name + "'");
    if (how != ScatterReduction::None)
        ctx.requireType(0, {DataType::Float32, DataType::Float64, DataType::Int64, DataType::Int32});
    return [how](Inputs in, Outputs out, ExecContext &) {
        const Tensor &x = requireInput(in, 0, "data");
        const Tensor &indices = requireInput(in, 1, "indices");
        const Tensor &updates = requireInput(in, 2, "updates");
        if (updates.type() != x.type())
            throw Error("ScatterND: updates " + updates.describe() + " differ in type from data " + x.describe());
        if (indices.rank() < 1)
            throw Error("ScatterND: indices must have rank >= 1, got " + indices.describe());
        const std::int64_t k = indices.dim(indices.rank() - 1);
        if (k < 1 || k > x.rank())
            throw Error("ScatterND: index tuples of " + std::to_string(k) + " coordinates do not address " + x.describe());
        Shape expected(indices.shape().begin(), indices.shape().end() - 1);
        expected.insert(expected.end(), x.shape().begin() + k, x.shape().end());
        if (updates.shape() != expected)
            throw Error("ScatterND: updates must be " + shapeToString(expected) + ", got " + updates.describe());
        Tensor &o = makeOutput(out, 0, x.type(), x.shape());
        std::memcpy(o.mutableBytes(), x.bytes(), x.byteSize());
        const Shape strides = contiguousStrides(x.shape());
        const std::int64_t slice = k == x.rank() ? 1 : strides[static_cast<std::size_t>(k - 1)];
        const std::int64_t tuples = k == 0 ? 0 : indices.size() / k;
        const std::size_t width = elementSize(x.type());
        for (std::int64_t j = 0; j < tuples; ++j) {
            std::int64_t offset = 0;
            for (std::int64_t c = 0; c < k; ++c) {
                const std::int64_t d = x.dim(static_cast<int>(c));
                std::int64_t v = indices.intAt(j * k + c);
                if (v < -d || v >= d)
                    throw Error("ScatterND: index " + std::to_string(v) + " is out of range [" + std::to_string(-d)
                                + ", " + std::to_string(d) + ") on axis " + std::to_string(c));
                offset += (v < 0 ? v + d : v) * strides[static_cast<std::size_t>(c)];
            }
            std::byte *dst = o.mutableBytes() + static_cast<std::size_t>(offset) * width;
            const std::byte *src = updates.bytes() + static_cast<std::size_t>(j * slice) * width;
            if (how == ScatterReduction::None) {
                std::memcpy(dst, src, static_cast<std::size_t>(slice) * width);
                continue;
            }
            dispatchTypes<float, double, std::int64_t, std::int32_t>(x.type(), "ScatterND", [&](auto tag) {
                using T = typename decltype(tag)::type;
                scatterCombine<T>(how, reinterpret_cast<T *>(dst), reinterpret_cast<const T *>(src), slice);
            });
        }
    };
}

} // namespace

void registerIndexOperators(std::vector<OperatorSpec> &specs)
{
    specs.push_back({"Transpose", {1, 13}, {"perm"}, makeTranspose});
    specs.push_back({"Concat", {4, 11, 13}, {"axis"}, makeConcat});
    specs.push_back({"Split", {11, 13, 18}, {"axis", "split", "num_outputs"}, makeSplit});
    specs.push_back({"Slice", {10, 11, 13}, {}, makeSlice});
    specs.push_back({"Gather", {11, 13}, {"axis"}, makeGather});
    specs.push_back({"Expand", {8, 13}, {}, makeExpand});
    specs.push_back({"Tile", {6, 13}, {}, makeTile});
    specs.push_back({"Trilu", {14}, {"upper"}, makeTrilu});
    specs.push_back({"ScatterND", {11, 13, 16, 18}, {"reduction"}, makeScatterND});
}

} // namespace specdec::nn
