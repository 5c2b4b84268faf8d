// SPDX-License-Identifier: GPL-3.0-or-later
// Operators that compute shapes or re-label data without moving it: Reshape, Flatten, Squeeze, Unsqueeze,
// Shape, Size, ConstantOfShape, Constant, Identity, Dropout (inference), Range.
#include "onnx/Broadcast.h"

#include <algorithm>
#include <cmath>

namespace specdec::nn {

namespace {

using Kind = UnsupportedError::Kind;

// Reshape(data, shape): 0 copies the input dimension (unless allowzero), -1 is inferred.
Kernel makeReshape(const NodeContext &ctx)
{
    ctx.requireType(1, {DataType::Int64});
    const bool allowZero = ctx.attributes.getInt("allowzero", 0) != 0;
    return [allowZero](Inputs in, Outputs out, ExecContext &) {
        const Tensor &x = requireInput(in, 0, "data");
        const std::vector<std::int64_t> requested = requireInput(in, 1, "shape").toInt64Vector();
        Shape shape(requested.size());
        int inferred = -1;
        std::int64_t known = 1;
        for (std::size_t i = 0; i < requested.size(); ++i) {
            std::int64_t v = requested[i];
            if (v == 0 && !allowZero) {
                if (i >= x.shape().size())
                    throw Error("Reshape: 0 at position " + std::to_string(i) + " but the input is " + x.describe());
                v = x.shape()[i];
            }
            if (v == -1) {
                if (inferred >= 0)
                    throw Error("Reshape: more than one -1 in " + shapeToString(requested));
                inferred = static_cast<int>(i);
                continue;
            }
            if (v < 0)
                throw Error("Reshape: invalid dimension in " + shapeToString(requested));
            shape[i] = v;
            known = checkedProduct(known, v, "Reshape: a dimension product");
        }
        if (inferred >= 0) {
            if (known == 0 || x.size() % known != 0)
                throw Error("Reshape: cannot reshape " + x.describe() + " to " + shapeToString(requested));
            shape[static_cast<std::size_t>(inferred)] = x.size() / known;
        }
        out[0] = x.reshaped(shape);
    };
}

Kernel makeFlatten(const NodeContext &ctx)
{
    const std::int64_t axisAttr = ctx.attributes.getInt("axis", 1);
    return [axisAttr](Inputs in, Outputs out, ExecContext &) {
        const Tensor &x = requireInput(in, 0, "input");
        const std::int64_t axis = axisAttr < 0 ? axisAttr + x.rank() : axisAttr;
        if (axis < 0 || axis > x.rank())
            throw Error("Flatten axis " + std::to_string(axisAttr) + " is out of range for " + x.describe());
        std::int64_t outer = 1;
        std::int64_t inner = 1;
        for (int i = 0; i < x.rank(); ++i) {
            std::int64_t &part = i < axis ? outer : inner;
            part = checkedProduct(part, x.dim(i), "Flatten: a dimension product");
        }
        out[0] = x.reshaped({outer, inner});
    };
}

Kernel makeSqueeze(const NodeContext &ctx)
{
    const int version = ctx.version;
    const std::vector<std::int64_t> attrAxes = ctx.attributes.getInts("axes");
    return [version, attrAxes](Inputs in, Outputs out, ExecContext &) {
        const Tensor &x = requireInput(in, 0, "data");
        std::vector<std::int64_t> axes = attrAxes;
        if (version >= 13)
            axes = in.size() > 1 && in[1] ? in[1]->toInt64Vector() : std::vector<std::int64_t>{};
        std::vector<bool> drop(static_cast<std::size_t>(x.rank()), false);
        if (axes.empty()) {
            for (int i = 0; i < x.rank(); ++i)
                drop[static_cast<std::size_t>(i)] = x.dim(i) == 1;
        } else {
            for (std::int64_t a : axes) {
                const int axis = normalizeAxis(a, x.rank(), "Squeeze axis");
                if (x.dim(axis) != 1)
                    throw Error("Squeeze: dimension " + std::to_string(axis) + " of " + x.describe() + " is not 1");
                drop[static_cast<std::size_t>(axis)] = true;
            }
        }
        Shape shape;
        for (int i = 0; i < x.rank(); ++i)
            if (!drop[static_cast<std::size_t>(i)])
                shape.push_back(x.dim(i));
        out[0] = x.reshaped(shape);
    };
}

Kernel makeUnsqueeze(const NodeContext &ctx)
{
    const int version = ctx.version;
    const std::vector<std::int64_t> attrAxes = ctx.attributes.getInts("axes");
    if (version < 13 && attrAxes.empty())
        throw Error("Unsqueeze needs the 'axes' attribute");
    return [version, attrAxes](Inputs in, Outputs out, ExecContext &) {
        const Tensor &x = requireInput(in, 0, "data");
        const std::vector<std::int64_t> axes = version >= 13 ? requireInput(in, 1, "axes").toInt64Vector() : attrAxes;
        const int rank = x.rank() + static_cast<int>(axes.size());
        std::vector<bool> inserted(static_cast<std::size_t>(rank), false);
        for (std::int64_t a : axes) {
            const int axis = normalizeAxis(a, rank, "Unsqueeze axis");
            if (inserted[static_cast<std::size_t>(axis)])
                throw Error("Unsqueeze: axis " + std::to_string(a) + " is repeated");
            inserted[static_cast<std::size_t>(axis)] = true;
        }
        Shape shape;
        int next = 0;
        for (int i = 0; i < rank; ++i)
            shape.push_back(inserted[static_cast<std::size_t>(i)] ? 1 : x.dim(next++));
        out[0] = x.reshaped(shape);
    };
}

// Shape(data)[start:end] (start/end from opset 15, clamped like Python slices).
Kernel makeShape(const NodeContext &ctx)
{
    const std::int64_t startAttr = ctx.attributes.getInt("start", 0);
    const bool hasEnd = ctx.attributes.has("end");
    const std::int64_t endAttr = ctx.attributes.getInt("end", 0);
    return [startAttr, hasEnd, endAttr](Inputs in, Outputs out, ExecContext &) {
        const Tensor &x = requireInput(in, 0, "data");
        const std::int64_t r = x.rank();
        auto clampIndex = [r](std::int64_t v) { return std::clamp<std::int64_t>(v < 0 ? v + r : v, 0, r); };
        const std::int64_t start = clampIndex(startAttr);
        const std::int64_t end = hasEnd ? clampIndex(endAttr) : r;
        std::vector<std::int64_t> dims;
        for (std::int64_t i = start; i < end; ++i)
            dims.push_back(x.dim(static_cast<int>(i)));
        out[0] = Tensor::fromVector<std::int64_t>({static_cast<std::int64_t>(dims.size())}, dims);
    };
}

Kernel makeSize(const NodeContext &)
{
    return [](Inputs in, Outputs out, ExecContext &) {
        out[0] = Tensor::scalar<std::int64_t>(requireInput(in, 0, "data").size());
    };
}

Kernel makeConstantOfShape(const NodeContext &ctx)
{
    ctx.requireType(0, {DataType::Int64});
    Tensor value = ctx.attributes.has("value") ? ctx.attributes.getTensor("value") : Tensor::scalar<float>(0.0f);
    if (value.size() != 1)
        throw Error("ConstantOfShape: 'value' must hold one element");
    return [value](Inputs in, Outputs out, ExecContext &) {
        const Shape shape = requireInput(in, 0, "input").toInt64Vector();
        Tensor &o = makeOutput(out, 0, value.type(), shape);
        visitDataType(value.type(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            std::fill_n(o.mutableData<T>(), o.size(), value.data<T>()[0]);
        });
    };
}

Kernel makeConstant(const NodeContext &ctx)
{
    const Attributes &a = ctx.attributes;
    Tensor value;
    if (a.has("value"))
        value = a.getTensor("value");
    else if (a.has("value_float"))
        value = Tensor::scalar<float>(a.getFloat("value_float", 0.0f));
    else if (a.has("value_int"))
        value = Tensor::scalar<std::int64_t>(a.getInt("value_int", 0));
    else if (a.has("value_floats")) {
        const auto v = a.getFloats("value_floats");
        value = Tensor::fromVector<float>({static_cast<std::int64_t>(v.size())}, v);
    } else if (a.has("value_ints")) {
        const auto v = a.getInts("value_ints");
        value = Tensor::fromVector<std::int64_t>({static_cast<std::int64_t>(v.size())}, v);
    } else {
        throw UnsupportedError(Kind::Attribute, "Constant needs one of value, value_float(s), value_int(s)");
    }
    return [value](Inputs, Outputs out, ExecContext &) { out[0] = value; };
}

Kernel makeIdentity(const NodeContext &)
{
    return [](Inputs in, Outputs out, ExecContext &) { out[0] = requireInput(in, 0, "input"); };
}

// Dropout at inference: output = input and mask = all true. Training mode with a non-zero ratio is random
// and not supported.
Kernel makeDropout(const NodeContext &ctx)
{
    const int version = ctx.version;
    return [version](Inputs in, Outputs out, ExecContext &) {
        const Tensor &x = requireInput(in, 0, "data");
        if (version >= 12 && in.size() > 2 && in[2] && in[2]->defined() && in[2]->intAt(0) != 0) {
            const double ratio = in.size() > 1 && in[1] && in[1]->defined() ? in[1]->doubleAt(0) : 0.5;
            if (ratio != 0.0)
                throw Error("Dropout in training mode is random; specdec-lab runs models for inference only");
        }
        out[0] = x;
        if (out.size() > 1) {
            Tensor &mask = makeOutput(out, 1, DataType::Bool, x.shape());
            std::fill_n(mask.mutableData<bool>(), mask.size(), true);
        }
    };
}

// Range(start, limit, delta): max(ceil((limit - start) / delta), 0) elements start + i * delta.
Kernel makeRange(const NodeContext &ctx)
{
    ctx.requireType(0, kNumericTypes);
    return [](Inputs in, Outputs out, ExecContext &) {
        const Tensor &start = requireInput(in, 0, "start");
        const Tensor &limit = requireInput(in, 1, "limit");
        const Tensor &delta = requireInput(in, 2, "delta");
        dispatchTypes<float, double, std::int64_t, std::int32_t>(start.type(), "Range", [&](auto tag) {
            using T = typename decltype(tag)::type;
            const T s = start.data<T>()[0];
            const T l = limit.data<T>()[0];
            const T dlt = delta.data<T>()[0];
            if (dlt == T(0))
                throw Error("Range: delta is zero");
            const double n = std::ceil((static_cast<double>(l) - static_cast<double>(s)) / static_cast<double>(dlt));
            const std::int64_t count = std::max<std::int64_t>(static_cast<std::int64_t>(n), 0);
            T *o = makeOutput(out, 0, start.type(), {count}).template mutableData<T>();
            for (std::int64_t i = 0; i < count; ++i)
                o[i] = static_cast<T>(s + static_cast<T>(i) * dlt);
        });
    };
}

} // namespace

void registerShapeOperators(std::vector<OperatorSpec> &specs)
{
    specs.push_back({"Reshape", {5, 13, 14}, {"allowzero"}, makeReshape});
    specs.push_back({"Flatten", {9, 11, 13}, {"axis"}, makeFlatten});
    specs.push_back({"Squeeze", {11, 13}, {"axes"}, makeSqueeze});
    specs.push_back({"Unsqueeze", {11, 13}, {"axes"}, makeUnsqueeze});
    specs.push_back({"Shape", {1, 13, 15}, {"start", "end"}, makeShape});
    specs.push_back({"Size", {1, 13}, {}, makeSize});
    specs.push_back({"ConstantOfShape", {9}, {"value"}, makeConstantOfShape});
    specs.push_back(
        {"Constant", {9, 11, 12, 13}, {"value", "value_float", "value_floats", "value_int", "value_ints"}, makeConstant});
    specs.push_back({"Identity", {1, 13, 14, 16}, {}, makeIdentity});
    specs.push_back({"Dropout", {7, 10, 12, 13}, {"ratio", "seed"}, makeDropout});
    specs.push_back({"Range", {11}, {}, makeRange});
}

} // namespace specdec::nn
