// SPDX-License-Identifier: GPL-3.0-or-later
// Reductions and normalisations: ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd, Softmax, LogSoftmax,
// CumSum, LayerNormalization. Float sums and products accumulate in double and in element order (deterministic).
#include "onnx/Broadcast.h"
#include "onnx/Kernels.h"

#include <Eigen/Core>

#include <cmath>
#include <limits>

namespace specdec::nn {

namespace {

using Kind = UnsupportedError::Kind;

enum class Reduction { Sum, Mean, Max, Min, Prod };

template<class T> using Accumulator = std::conditional_t<std::is_floating_point_v<T>, double, std::int64_t>;

template<class T> void reduceAxes(const Tensor &x, const std::vector<bool> &reduced, Reduction how, Tensor &o)
{
    using Acc = Accumulator<T>;
    const int r = x.rank();
    // Output strides in the input's index space: 0 along reduced axes.
    Shape outStrides(static_cast<std::size_t>(r), 0);
    std::int64_t s = 1;
    for (int i = r - 1; i >= 0; --i)
        if (!reduced[static_cast<std::size_t>(i)]) {
            outStrides[static_cast<std::size_t>(i)] = s;
            s *= x.dim(i);
        }
    const std::int64_t outSize = o.size();
    Acc init = Acc(0);
    if (how == Reduction::Max)
        init = std::is_floating_point_v<T> ? -std::numeric_limits<Acc>::infinity() : std::numeric_limits<Acc>::lowest();
    else if (how == Reduction::Min)
        init = std::is_floating_point_v<T> ? std::numeric_limits<Acc>::infinity() : std::numeric_limits<Acc>::max();
    else if (how == Reduction::Prod)
        init = Acc(1);
    std::vector<Acc> acc(static_cast<std::size_t>(outSize), init);
    const T *p = x.data<T>();
    const std::int64_t total = x.size();
    std::vector<std::int64_t> index(static_cast<std::size_t>(r), 0);
    std::int64_t at = 0;
    for (std::int64_t i = 0; i < total; ++i) {
        Acc &a = acc[static_cast<std::size_t>(at)];
        const Acc v = static_cast<Acc>(p[i]);
        if (how == Reduction::Max)
            a = (v > a || v != v) ? v : a;
        else if (how == Reduction::Min)
            a = (v < a || v != v) ? v : a;
        else if (how == Reduction::Prod)
            a *= v;
        else
            a += v;
        for (int d = r - 1; d >= 0; --d) {
            const auto du = static_cast<std::size_t>(d);
            at += outStrides[du];
            if (++index[du] < x.dim(d))
                break;
            at -= outStrides[du] * x.dim(d);
            index[du] = 0;
        }
    }
    const std::int64_t count = outSize == 0 ? 0 : total / outSize;
    T *out = o.mutableData<T>();
    for (std::int64_t i = 0; i < outSize; ++i) {
        Acc v = acc[static_cast<std::size_t>(i)];
        if (how == Reduction::Mean)
            v = count > 0 ? v / static_cast<Acc>(count) : v;
        out[i] = static_cast<T>(v);
    }
}

template<Reduction How> Kernel makeReduce(const NodeContext &ctx)
{
    ctx.requireType(0, kNumericTypes);
    const bool keepDims = ctx.attributes.getInt("keepdims", 1) != 0;
    const bool noopWhenEmpty = ctx.attributes.getInt("noop_with_empty_axes", 0) != 0;
    const std::vector<std::int64_t> attrAxes = ctx.attributes.getInts("axes");
    // The axes became an input at ReduceSum-13 and, for the other reductions, at opset 18 (Opset18.h).
    const bool axesFromInput = (How == Reduction::Sum && ctx.version >= 13) || ctx.version >= 18;
    if (axesFromInput && ctx.attributes.has("axes"))
        throw Error("the axes are an input at this version, not an attribute");
    return [=](Inputs in, Outputs out, ExecContext &) {
        const Tensor &x = requireInput(in, 0, "data");
        std::vector<std::int64_t> axes = attrAxes;
        if (axesFromInput)
            axes = in.size() > 1 && in[1] && in[1]->defined() ? in[1]->toInt64Vector() : std::vector<std::int64_t>{};
        if (axes.empty() && noopWhenEmpty) {
            out[0] = x;
            return;
        }
        std::vector<bool> reduced(static_cast<std::size_t>(x.rank()), axes.empty());
        for (std::int64_t a : axes)
            reduced[static_cast<std::size_t>(normalizeAxis(a, x.rank(), "reduction axis"))] = true;
        Shape shape;
        for (int i = 0; i < x.rank(); ++i) {
            if (!reduced[static_cast<std::size_t>(i)])
                shape.push_back(x.dim(i));
            else if (keepDims)
                shape.push_back(1);
        }
        Tensor &o = makeOutput(out, 0, x.type(), shape);
        dispatchTypes<float, double, std::int64_t, std::int32_t>(
            x.type(), "Reduce", [&](auto tag) { reduceAxes<typename decltype(tag)::type>(x, reduced, How, o); });
    };
}

// Softmax(x)_i = exp(x_i - max) / sum_j exp(x_j - max) along one axis; LogSoftmax = log of it.
// Before opset 13 the input is coerced to 2-D at `axis` and normalised over the flattened tail.
template<class T> void softmaxLines(const T *x, T *y, std::int64_t outer, std::int64_t n, std::int64_t inner, bool log)
{
    using Array = Eigen::Array<T, Eigen::Dynamic, 1>;
    if (inner == 1) {
        for (std::int64_t o = 0; o < outer; ++o) {
            Eigen::Map<const Array> in(x + o * n, n);
            Eigen::Map<Array> res(y + o * n, n);
            const T max = in.maxCoeff();
            res = (in - max).exp();
            const T sum = res.sum();
            if (log)
                res = (in - max) - std::log(sum);
            else
                res /= sum;
        }
        return;
    }
    std::vector<double> line(static_cast<std::size_t>(n));
    for (std::int64_t o = 0; o < outer; ++o)
        for (std::int64_t k = 0; k < inner; ++k) {
            const std::int64_t base = o * n * inner + k;
            T max = -std::numeric_limits<T>::infinity();
            for (std::int64_t i = 0; i < n; ++i)
                max = std::max(max, x[base + i * inner]);
            double sum = 0;
            for (std::int64_t i = 0; i < n; ++i)
                sum += line[static_cast<std::size_t>(i)] = std::exp(static_cast<double>(x[base + i * inner] - max));
            for (std::int64_t i = 0; i < n; ++i)
                y[base + i * inner] = log
                    ? static_cast<T>(static_cast<double>(x[base + i * inner] - max) - std::log(sum))
                    : static_cast<T>(line[static_cast<std::size_t>(i)] / sum);
        }
}

template<bool Log> Kernel makeSoftmax(const NodeContext &ctx)
{
    ctx.requireType(0, kFloatTypes);
    const bool coerce2d = ctx.version < 13;
    const std::int64_t axisAttr = ctx.attributes.getInt("axis", coerce2d ? 1 : -1);
    return [coerce2d, axisAttr](Inputs in, Outputs out, ExecContext &) {
        const Tensor &x = requireInput(in, 0, "input");
        if (x.rank() == 0)
            throw Error("Softmax of a scalar");
        const int axis = normalizeAxis(axisAttr, x.rank(), "Softmax axis");
        std::int64_t outer = 1, n = 1, inner = 1;
        for (int i = 0; i < x.rank(); ++i) {
            if (i < axis)
                outer *= x.dim(i);
            else if (i == axis || coerce2d)
                n *= x.dim(i);
            else
                inner *= x.dim(i);
        }
        Tensor &o = makeOutput(out, 0, x.type(), x.shape());
        dispatchTypes<float, double>(x.type(), Log ? "LogSoftmax" : "Softmax", [&](auto tag) {
            using T = typename decltype(tag)::type;
            if (x.size() > 0)
                softmaxLines<T>(x.data<T>(), o.mutableData<T>(), outer, n, inner, Log);
        });
    };
}

// CumSum(x, axis): running sums along an axis; `exclusive` shifts by one, `reverse` runs backwards.
Kernel makeCumSum(const NodeContext &ctx)
{
    ctx.requireType(0, kNumericTypes);
    const bool exclusive = ctx.attributes.getInt("exclusive", 0) != 0;
    const bool reverse = ctx.attributes.getInt("reverse", 0) != 0;
    return [exclusive, reverse](Inputs in, Outputs out, ExecContext &) {
        const Tensor &x = requireInput(in, 0, "x");
        const int axis = normalizeAxis(requireInput(in, 1, "axis").intAt(0), x.rank(), "CumSum axis");
        std::int64_t outer = 1, inner = 1;
        for (int i = 0; i < x.rank(); ++i) {
            if (i < axis)
                outer *= x.dim(i);
            else if (i > axis)
                inner *= x.dim(i);
        }
        const std::int64_t n = x.dim(axis);
        Tensor &o = makeOutput(out, 0, x.type(), x.shape());
        dispatchTypes<float, double, std::int64_t, std::int32_t>(x.type(), "CumSum", [&](auto tag) {
            using T = typename decltype(tag)::type;
            const T *p = x.data<T>();
            T *q = o.mutableData<T>();
            for (std::int64_t a = 0; a < outer; ++a)
                for (std::int64_t k = 0; k < inner; ++k) {
                    Accumulator<T> sum = 0;
                    for (std::int64_t step = 0; step < n; ++step) {
                        const std::int64_t i = reverse ? n - 1 - step : step;
                        const std::int64_t at = (a * n + i) * inner + k;
                        if (exclusive) {
                            q[at] = static_cast<T>(sum);
                            sum += p[at];
                        } else {
                            sum += p[at];
                            q[at] = static_cast<T>(sum);
                        }
                    }
                }
        });
    };
}

// LayerNormalization over the dimensions from `axis` on:
// y = (x - mean) / sqrt(var + epsilon) * scale + bias, with Mean and InvStdDev as optional outputs.
// Float32 with full-size scale (and bias) runs the dispatched kernel (Kernels.h: float sums in 16 lanes, the
// same bits on every path); other cases accumulate in double.
Kernel makeLayerNormalization(const NodeContext &ctx)
{
    ctx.requireType(0, kFloatTypes);
    const std::int64_t axisAttr = ctx.attributes.getInt("axis", -1);
    const double epsilon = ctx.attributes.getFloat("epsilon", 1e-5f);
    if (ctx.attributes.getInt("stash_type", 1) != 1)
        throw UnsupportedError(Kind::Attribute, "LayerNormalization stash_type other than 1 (float) is not supported");
    return [axisAttr, epsilon](Inputs in, Outputs out, ExecContext &) {
        const Tensor &x = requireInput(in, 0, "X");
        const Tensor &scale = requireInput(in, 1, "Scale");
        const Tensor *bias = in.size() > 2 && in[2] && in[2]->defined() ? in[2] : nullptr;
        const int axis = normalizeAxis(axisAttr, x.rank(), "LayerNormalization axis");
        std::int64_t outer = 1, n = 1;
        Shape statShape;
        for (int i = 0; i < x.rank(); ++i) {
            (i < axis ? outer : n) *= x.dim(i);
            statShape.push_back(i < axis ? x.dim(i) : 1);
        }
        for (const Tensor *t : {&scale, bias})
            if (t && t->size() != n && t->size() != 1)
                throw Error("LayerNormalization: " + t->describe() + " does not match the normalised size "
                            + std::to_string(n) + " of " + x.describe());
        Tensor &y = makeOutput(out, 0, x.type(), x.shape());
        float *meanOut = out.size() > 1 ? makeOutput(out, 1, DataType::Float32, statShape).mutableData<float>() : nullptr;
        float *invOut = out.size() > 2 ? makeOutput(out, 2, DataType::Float32, statShape).mutableData<float>() : nullptr;
        if (x.type() == DataType::Float32 && scale.type() == DataType::Float32 && scale.size() == n
            && (!bias || (bias->type() == DataType::Float32 && bias->size() == n))) {
            kernels::active().layerNorm(x.data<float>(), scale.data<float>(), bias ? bias->data<float>() : nullptr,
                                        y.mutableData<float>(), outer, n, static_cast<float>(epsilon), meanOut, invOut);
            return;
        }
        dispatchTypes<float, double>(x.type(), "LayerNormalization", [&](auto tag) {
            using T = typename decltype(tag)::type;
            const T *px = x.data<T>();
            const T *ps = scale.data<T>();
            const T *pb = bias ? bias->data<T>() : nullptr;
            T *py = y.mutableData<T>();
            const std::int64_t sStep = scale.size() == 1 ? 0 : 1;
            const std::int64_t bStep = bias && bias->size() == 1 ? 0 : 1;
            for (std::int64_t o = 0; o < outer; ++o) {
                const T *row = px + o * n;
                double sum = 0;
                for (std::int64_t i = 0; i < n; ++i)
                    sum += row[i];
                const double mean = n > 0 ? sum / static_cast<double>(n) : 0.0;
                double sq = 0;
                for (std::int64_t i = 0; i < n; ++i)
                    sq += (row[i] - mean) * (row[i] - mean);
                const double inv = 1.0 / std::sqrt((n > 0 ? sq / static_cast<double>(n) : 0.0) + epsilon);
                for (std::int64_t i = 0; i < n; ++i) {
                    const double v = (row[i] - mean) * inv * static_cast<double>(ps[i * sStep]);
                    py[o * n + i] = static_cast<T>(pb ? v + static_cast<double>(pb[i * bStep]) : v);
                }
                if (meanOut)
                    meanOut[o] = static_cast<float>(mean);
                if (invOut)
                    invOut[o] = static_cast<float>(inv);
            }
        });
    };
}

} // namespace

void registerReduceOperators(std::vector<OperatorSpec> &specs)
{
    specs.push_back({"ReduceSum", {1, 11, 13}, {"axes", "keepdims", "noop_with_empty_axes"}, makeReduce<Reduction::Sum>});
    specs.push_back(
        {"ReduceMean", {1, 11, 13, 18}, {"axes", "keepdims", "noop_with_empty_axes"}, makeReduce<Reduction::Mean>});
    specs.push_back(
        {"ReduceMax", {1, 11, 12, 13, 18}, {"axes", "keepdims", "noop_with_empty_axes"}, makeReduce<Reduction::Max>});
    specs.push_back(
        {"ReduceMin", {1, 11, 12, 13, 18}, {"axes", "keepdims", "noop_with_empty_axes"}, makeReduce<Reduction::Min>});
    specs.push_back(
        {"ReduceProd", {1, 11, 13, 18}, {"axes", "keepdims", "noop_with_empty_axes"}, makeReduce<Reduction::Prod>});
    specs.push_back({"Softmax", {1, 11, 13}, {"axis"}, makeSoftmax<false>});
    specs.push_back({"LogSoftmax", {1, 11, 13}, {"axis"}, makeSoftmax<true>});
    specs.push_back({"CumSum", {11, 14}, {"exclusive", "reverse"}, makeCumSum});
    specs.push_back({"LayerNormalization", {17}, {"axis", "epsilon", "stash_type"}, makeLayerNormalization});
}

} // namespace specdec::nn
