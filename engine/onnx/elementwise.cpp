// SPDX-License-Identifier: GPL-3.0-or-later
// Element-wise operators: unary math, binary arithmetic with broadcasting, comparisons, logic, Where,
// Max/Min, Clip and Cast.
#include "onnx/Broadcast.h"

#include <Eigen/Core>

#include <cmath>
#include <limits>
#include <type_traits>

namespace specdec::nn {

namespace {

using Kind = UnsupportedError::Kind;

// ---- loops ----

template<class T, class R, class Op> void unaryLoop(const Tensor &x, Tensor &out, Op op)
{
    const T *in = x.data<T>();
    R *o = out.mutableData<R>();
    const std::int64_t n = x.size();
    for (std::int64_t i = 0; i < n; ++i)
        o[i] = op(in[i]);
}

template<class A, class B, class R, class Op> void binaryLoop(const Tensor &a, const Tensor &b, Tensor &out, Op op)
{
    const A *pa = a.data<A>();
    const B *pb = b.data<B>();
    R *po = out.mutableData<R>();
    forEachBroadcastRun<2>(out.shape(), {&a.shape(), &b.shape()}, [&](std::int64_t o, auto off, std::int64_t n, auto st) {
        const A *x = pa + off[0];
        const B *y = pb + off[1];
        R *z = po + o;
        if (st[0] == 1 && st[1] == 1) {
            for (std::int64_t i = 0; i < n; ++i)
                z[i] = op(x[i], y[i]);
        } else if (st[0] == 1 && st[1] == 0) {
            const B yv = *y;
            for (std::int64_t i = 0; i < n; ++i)
                z[i] = op(x[i], yv);
        } else if (st[0] == 0 && st[1] == 1) {
            const A xv = *x;
            for (std::int64_t i = 0; i < n; ++i)
                z[i] = op(xv, y[i]);
        } else {
            for (std::int64_t i = 0; i < n; ++i)
                z[i] = op(x[i * st[0]], y[i * st[1]]);
        }
    });
}

Tensor binaryOutput(const Tensor &a, const Tensor &b, DataType type)
{
    return Tensor(type, broadcastShapes(a.shape(), b.shape()));
}

void requireSameType(const Tensor &a, const Tensor &b, std::string_view op)
{
    if (a.type() != b.type())
        throw Error(std::string(op) + " needs inputs of one element type, got " + a.describe() + " and " + b.describe());
}

void requireSameKnownTypes(const NodeContext &ctx, int first, int last)
{
    DataType seen = DataType::Undefined;
    for (int i = first; i <= last; ++i) {
        const DataType t = ctx.inputType(i);
        if (t == DataType::Undefined)
            continue;
        if (seen != DataType::Undefined && t != seen)
            throw Error("inputs have different element types");
        seen = t;
    }
}

// ---- unary ----

// For the functions Eigen vectorizes: SIMD exp and tanh (within a few ULP of libm) instead of one libm call
// per element, which made Tanh a quarter of a forward pass of a GELU transformer.
template<class ArrayOp> Kernel vectorUnary(const NodeContext &ctx, std::string_view name, ArrayOp op)
{
    ctx.requireType(0, kFloatTypes);
    return [name = std::string(name), op](Inputs in, Outputs out, ExecContext &) {
        const Tensor &x = requireInput(in, 0, "X");
        dispatchTypes<float, double>(x.type(), name, [&](auto tag) {
            using T = typename decltype(tag)::type;
            using Array = Eigen::Array<T, Eigen::Dynamic, 1>;
            Tensor &o = makeOutput(out, 0, x.type(), x.shape());
            Eigen::Map<Array>(o.mutableData<T>(), x.size()) = op(Eigen::Map<const Array>(x.data<T>(), x.size()));
        });
    };
}

/// A float function applied element by element (through Eigen, as vectorUnary does).
template<class Op> Kernel floatUnary(const NodeContext &ctx, std::string_view name, Op op)
{
    return vectorUnary(ctx, name, [op](const auto &a) {
        return a.unaryExpr([op](auto v) { return static_cast<decltype(v)>(op(v)); });
    });
}

template<class Op> Kernel numericUnary(const NodeContext &ctx, std::string_view name, Op op)
{
    ctx.requireType(0, kNumericTypes);
    return [name = std::string(name), op](Inputs in, Outputs out, ExecContext &) {
        const Tensor &x = requireInput(in, 0, "X");
        dispatchTypes<float, double, std::int64_t, std::int32_t>(x.type(), name, [&](auto tag) {
            using T = typename decltype(tag)::type;
            unaryLoop<T, T>(x, makeOutput(out, 0, x.type(), x.shape()), [&](T v) { return static_cast<T>(op(v)); });
        });
    };
}

Kernel makeSqrt(const NodeContext &c)
{
    return floatUnary(c, "Sqrt", [](auto v) { return std::sqrt(v); });
}
Kernel makeReciprocal(const NodeContext &c)
{
    return floatUnary(c, "Reciprocal", [](auto v) { return decltype(v)(1) / v; });
}
Kernel makeExp(const NodeContext &c)
{
    return vectorUnary(c, "Exp", [](const auto &a) { return a.exp(); });
}
Kernel makeLog(const NodeContext &c)
{
    return floatUnary(c, "Log", [](auto v) { return std::log(v); });
}
Kernel makeErf(const NodeContext &c)
{
    return floatUnary(c, "Erf", [](auto v) { return std::erf(v); });
}
Kernel makeTanh(const NodeContext &c)
{
    return vectorUnary(c, "Tanh", [](const auto &a) { return a.tanh(); });
}
Kernel makeSin(const NodeContext &c)
{
    return floatUnary(c, "Sin", [](auto v) { return std::sin(v); });
}
Kernel makeCos(const NodeContext &c)
{
    return floatUnary(c, "Cos", [](auto v) { return std::cos(v); });
}
Kernel makeSigmoid(const NodeContext &c)
{
    // Stable on both sides: e = exp(-|x|) never overflows; 1 / (1 + e) for x >= 0, e / (1 + e) below (SiLU's
    // Sigmoid in a Llama export: Eigen's SIMD exp, not a libm call per element).
    return vectorUnary(c, "Sigmoid", [](const auto &a) {
        using Array = std::decay_t<decltype(a.eval())>;
        using T = typename Array::Scalar;
        const Array e = (-a.abs()).exp();
        return Array((a >= T(0)).select(T(1) / (T(1) + e), e / (T(1) + e)));
    });
}
Kernel makeFloor(const NodeContext &c)
{
    return floatUnary(c, "Floor", [](auto v) { return std::floor(v); });
}
Kernel makeCeil(const NodeContext &c)
{
    return floatUnary(c, "Ceil", [](auto v) { return std::ceil(v); });
}
Kernel makeNeg(const NodeContext &c)
{
    return numericUnary(c, "Neg", [](auto v) { return -v; });
}
Kernel makeAbs(const NodeContext &c)
{
    return numericUnary(c, "Abs", [](auto v) { return v < 0 ? -v : v; });
}
Kernel makeRelu(const NodeContext &c)
{
    return numericUnary(c, "Relu", [](auto v) { return v > 0 ? v : decltype(v)(0); });
}

// IsNaN(x): true where x is not a number (the NaN guard of exported attention masks).
Kernel makeIsNaN(const NodeContext &ctx)
{
    ctx.requireType(0, kFloatTypes);
    return [](Inputs in, Outputs out, ExecContext &) {
        const Tensor &x = requireInput(in, 0, "X");
        dispatchTypes<float, double>(x.type(), "IsNaN", [&](auto tag) {
            using T = typename decltype(tag)::type;
            unaryLoop<T, bool>(x, makeOutput(out, 0, DataType::Bool, x.shape()), [](T v) { return std::isnan(v); });
        });
    };
}

// IsInf(x): true where x is +inf (detect_positive, default 1) or -inf (detect_negative, default 1).
Kernel makeIsInf(const NodeContext &ctx)
{
    ctx.requireType(0, kFloatTypes);
    const bool positive = ctx.attributes.getInt("detect_positive", 1) != 0;
    const bool negative = ctx.attributes.getInt("detect_negative", 1) != 0;
    return [=](Inputs in, Outputs out, ExecContext &) {
        const Tensor &x = requireInput(in, 0, "X");
        dispatchTypes<float, double>(x.type(), "IsInf", [&](auto tag) {
            using T = typename decltype(tag)::type;
            unaryLoop<T, bool>(x, makeOutput(out, 0, DataType::Bool, x.shape()),
                               [=](T v) { return std::isinf(v) && (v > 0 ? positive : negative); });
        });
    };
}

Kernel makeNot(const NodeContext &ctx)
{
    ctx.requireType(0, {DataType::Bool});
    return [](Inputs in, Outputs out, ExecContext &) {
        const Tensor &x = requireInput(in, 0, "X");
        unaryLoop<bool, bool>(x, makeOutput(out, 0, DataType::Bool, x.shape()), [](bool v) { return !v; });
    };
}

// ---- binary ----

template<class Op> Kernel arithmetic(const NodeContext &ctx, std::string_view name, Op op)
{
    ctx.requireType(0, kNumericTypes);
    ctx.requireType(1, kNumericTypes);
    requireSameKnownTypes(ctx, 0, 1);
    return [name = std::string(name), op](Inputs in, Outputs out, ExecContext &) {
        const Tensor &a = requireInput(in, 0, "A");
        const Tensor &b = requireInput(in, 1, "B");
        requireSameType(a, b, name);
        out[0] = binaryOutput(a, b, a.type());
        dispatchTypes<float, double, std::int64_t, std::int32_t>(a.type(), name, [&](auto tag) {
            using T = typename decltype(tag)::type;
            binaryLoop<T, T, T>(a, b, out[0], [&](T x, T y) { return static_cast<T>(op(x, y)); });
        });
    };
}

Kernel makeAdd(const NodeContext &c)
{
    return arithmetic(c, "Add", [](auto x, auto y) { return x + y; });
}
Kernel makeSub(const NodeContext &c)
{
    return arithmetic(c, "Sub", [](auto x, auto y) { return x - y; });
}
Kernel makeMul(const NodeContext &c)
{
    return arithmetic(c, "Mul", [](auto x, auto y) { return x * y; });
}
Kernel makeDiv(const NodeContext &c)
{
    return arithmetic(c, "Div", [](auto x, auto y) {
        if constexpr (std::is_integral_v<decltype(x)>) {
            if (y == 0)
                throw Error("Div: integer division by zero");
        }
        return x / y;
    });
}

// Pow(X, Y): Y may have another numeric type than X; the result has X's type.
Kernel makePow(const NodeContext &ctx)
{
    ctx.requireType(0, kNumericTypes);
    ctx.requireType(1, kNumericTypes);
    return [](Inputs in, Outputs out, ExecContext &) {
        const Tensor &a = requireInput(in, 0, "X");
        const Tensor &b = requireInput(in, 1, "Y");
        out[0] = binaryOutput(a, b, a.type());
        dispatchTypes<float, double, std::int64_t, std::int32_t>(a.type(), "Pow", [&](auto ta) {
            using A = typename decltype(ta)::type;
            dispatchTypes<float, double, std::int64_t, std::int32_t>(b.type(), "Pow", [&](auto tb) {
                using B = typename decltype(tb)::type;
                binaryLoop<A, B, A>(a, b, out[0], [](A x, B y) {
                    // x² (RMSNorm's Pow(x, 2)) as one rounded product: the correctly rounded square.
                    if constexpr (std::is_floating_point_v<A>)
                        if (y == B(2))
                            return static_cast<A>(x * x);
                    if constexpr (std::is_same_v<A, float> && std::is_same_v<B, float>)
                        return std::pow(x, y);
                    else
                        return static_cast<A>(std::pow(static_cast<double>(x), static_cast<double>(y)));
                });
            });
        });
    };
}

template<class Op> Kernel comparison(const NodeContext &ctx, std::string_view name, bool allowBool, Op op)
{
    if (allowBool)
        ctx.requireType(0, kAllTypes);
    else
        ctx.requireType(0, kNumericTypes);
    requireSameKnownTypes(ctx, 0, 1);
    return [name = std::string(name), op](Inputs in, Outputs out, ExecContext &) {
        const Tensor &a = requireInput(in, 0, "A");
        const Tensor &b = requireInput(in, 1, "B");
        requireSameType(a, b, name);
        out[0] = binaryOutput(a, b, DataType::Bool);
        visitDataType(a.type(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            binaryLoop<T, T, bool>(a, b, out[0], op);
        });
    };
}

Kernel makeEqual(const NodeContext &c)
{
    return comparison(c, "Equal", true, [](auto x, auto y) { return x == y; });
}
Kernel makeLess(const NodeContext &c)
{
    return comparison(c, "Less", false, [](auto x, auto y) { return x < y; });
}
Kernel makeGreater(const NodeContext &c)
{
    return comparison(c, "Greater", false, [](auto x, auto y) { return x > y; });
}

Kernel makeLessOrEqual(const NodeContext &c)
{
    return comparison(c, "LessOrEqual", false, [](auto x, auto y) { return x <= y; });
}
Kernel makeGreaterOrEqual(const NodeContext &c)
{
    return comparison(c, "GreaterOrEqual", false, [](auto x, auto y) { return x >= y; });
}

template<class Op> Kernel logical(const NodeContext &ctx, Op op)
{
    ctx.requireType(0, {DataType::Bool});
    ctx.requireType(1, {DataType::Bool});
    return [op](Inputs in, Outputs out, ExecContext &) {
        const Tensor &a = requireInput(in, 0, "A");
        const Tensor &b = requireInput(in, 1, "B");
        out[0] = binaryOutput(a, b, DataType::Bool);
        binaryLoop<bool, bool, bool>(a, b, out[0], op);
    };
}

Kernel makeAnd(const NodeContext &c)
{
    return logical(c, [](bool x, bool y) { return x && y; });
}
Kernel makeOr(const NodeContext &c)
{
    return logical(c, [](bool x, bool y) { return x || y; });
}

// Where(C, X, Y) = C ? X : Y, all three broadcast.
Kernel makeWhere(const NodeContext &ctx)
{
    ctx.requireType(0, {DataType::Bool});
    ctx.requireType(1, kAllTypes);
    requireSameKnownTypes(ctx, 1, 2);
    return [](Inputs in, Outputs out, ExecContext &) {
        const Tensor &c = requireInput(in, 0, "condition");
        const Tensor &x = requireInput(in, 1, "X");
        const Tensor &y = requireInput(in, 2, "Y");
        requireSameType(x, y, "Where");
        Tensor &o = makeOutput(out, 0, x.type(), broadcastShapes(c.shape(), broadcastShapes(x.shape(), y.shape())));
        visitDataType(x.type(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            const bool *pc = c.data<bool>();
            const T *px = x.data<T>();
            const T *py = y.data<T>();
            T *po = o.mutableData<T>();
            forEachBroadcastRun<3>(o.shape(), {&c.shape(), &x.shape(), &y.shape()},
                                   [&](std::int64_t at, auto off, std::int64_t n, auto st) {
                                       for (std::int64_t i = 0; i < n; ++i)
                                           po[at + i] = pc[off[0] + i * st[0]] ? px[off[1] + i * st[1]]
                                                                               : py[off[2] + i * st[2]];
                                   });
        });
    };
}

// Max / Min over any number of inputs, broadcast; NaN propagates.
template<bool IsMax> Kernel extremum(const NodeContext &ctx)
{
    for (int i = 0; i < static_cast<int>(ctx.inputTypes.size()); ++i)
        ctx.requireType(i, kNumericTypes);
    requireSameKnownTypes(ctx, 0, static_cast<int>(ctx.inputTypes.size()) - 1);
    return [](Inputs in, Outputs out, ExecContext &) {
        const char *name = IsMax ? "Max" : "Min";
        Tensor acc = requireInput(in, 0, "data_0");
        for (std::size_t k = 1; k < in.size(); ++k) {
            const Tensor &b = requireInput(in, k, "data");
            requireSameType(acc, b, name);
            Tensor next = binaryOutput(acc, b, acc.type());
            dispatchTypes<float, double, std::int64_t, std::int32_t>(acc.type(), name, [&](auto tag) {
                using T = typename decltype(tag)::type;
                binaryLoop<T, T, T>(acc, b, next, [&](T x, T y) {
                    if constexpr (std::is_floating_point_v<T>) {
                        if (std::isnan(x) || std::isnan(y))
                            return std::numeric_limits<T>::quiet_NaN();
                    }
                    return IsMax ? (x < y ? y : x) : (y < x ? y : x);
                });
            });
            acc = std::move(next);
        }
        out[0] = acc;
    };
}

Kernel makeMax(const NodeContext &c)
{
    return extremum<true>(c);
}
Kernel makeMin(const NodeContext &c)
{
    return extremum<false>(c);
}

// Clip(x, min, max) = min(max(x, min), max); bounds are attributes before opset 11, inputs after.
Kernel makeClip(const NodeContext &ctx)
{
    ctx.requireType(0, kNumericTypes);
    const bool fromAttributes = ctx.version < 11;
    const float attrMin = ctx.attributes.getFloat("min", std::numeric_limits<float>::lowest());
    const float attrMax = ctx.attributes.getFloat("max", std::numeric_limits<float>::max());
    return [fromAttributes, attrMin, attrMax](Inputs in, Outputs out, ExecContext &) {
        const Tensor &x = requireInput(in, 0, "input");
        dispatchTypes<float, double, std::int64_t, std::int32_t>(x.type(), "Clip", [&](auto tag) {
            using T = typename decltype(tag)::type;
            T lo = std::numeric_limits<T>::lowest();
            T hi = std::numeric_limits<T>::max();
            if (fromAttributes) {
                lo = static_cast<T>(attrMin);
                hi = static_cast<T>(attrMax);
            } else {
                if (in.size() > 1 && in[1] && in[1]->size() > 0)
                    lo = in[1]->template data<T>()[0];
                if (in.size() > 2 && in[2] && in[2]->size() > 0)
                    hi = in[2]->template data<T>()[0];
            }
            unaryLoop<T, T>(x, makeOutput(out, 0, x.type(), x.shape()), [lo, hi](T v) {
                const T low = v < lo ? lo : v;
                return hi < low ? hi : low;
            });
        });
    };
}

template<class To, class From> To convertElement(From v)
{
    if constexpr (std::is_same_v<To, bool>) {
        return v != From(0);
    } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
        // Truncation toward zero like C and numpy; NaN and out-of-range values saturate.
        if (std::isnan(v))
            return To(0);
        if (v <= static_cast<From>(std::numeric_limits<To>::lowest()))
            return std::numeric_limits<To>::lowest();
        if (v >= static_cast<From>(std::numeric_limits<To>::max()))
            return std::numeric_limits<To>::max();
        return static_cast<To>(v);
    } else {
        return static_cast<To>(v);
    }
}

Kernel makeCast(const NodeContext &ctx)
{
    ctx.requireType(0, kAllTypes);
    const std::int64_t to = ctx.attributes.requireInt("to");
    const DataType target = fromOnnxDataType(static_cast<int>(to));
    if (target == DataType::Undefined)
        throw UnsupportedError(Kind::DataType, "Cast to " + onnxDataTypeName(static_cast<int>(to)) + " is not supported");
    return [target](Inputs in, Outputs out, ExecContext &) {
        const Tensor &x = requireInput(in, 0, "input");
        if (x.type() == target) {
            out[0] = x;
            return;
        }
        Tensor &o = makeOutput(out, 0, target, x.shape());
        visitDataType(x.type(), [&](auto from) {
            using F = typename decltype(from)::type;
            visitDataType(target, [&](auto toTag) {
                using T = typename decltype(toTag)::type;
                unaryLoop<F, T>(x, o, [](F v) { return convertElement<T>(v); });
            });
        });
    };
}

} // namespace

void registerElementwiseOperators(std::vector<OperatorSpec> &specs)
{
    specs.push_back({"Sqrt", {6, 13}, {}, makeSqrt});
    specs.push_back({"Reciprocal", {6, 13}, {}, makeReciprocal});
    specs.push_back({"Exp", {6, 13}, {}, makeExp});
    specs.push_back({"Log", {6, 13}, {}, makeLog});
    specs.push_back({"Erf", {9, 13}, {}, makeErf});
    specs.push_back({"Tanh", {6, 13}, {}, makeTanh});
    specs.push_back({"Sigmoid", {6, 13}, {}, makeSigmoid});
    specs.push_back({"Sin", {7}, {}, makeSin});
    specs.push_back({"Cos", {7}, {}, makeCos});
    specs.push_back({"IsNaN", {9, 13}, {}, makeIsNaN});
    specs.push_back({"IsInf", {10}, {"detect_negative", "detect_positive"}, makeIsInf});
    specs.push_back({"Floor", {6, 13}, {}, makeFloor});
    specs.push_back({"Ceil", {6, 13}, {}, makeCeil});
    specs.push_back({"Neg", {6, 13}, {}, makeNeg});
    specs.push_back({"Abs", {6, 13}, {}, makeAbs});
    specs.push_back({"Relu", {6, 13, 14}, {}, makeRelu});
    specs.push_back({"Not", {1}, {}, makeNot});
    specs.push_back({"Add", {7, 13, 14}, {}, makeAdd});
    specs.push_back({"Sub", {7, 13, 14}, {}, makeSub});
    specs.push_back({"Mul", {7, 13, 14}, {}, makeMul});
    specs.push_back({"Div", {7, 13, 14}, {}, makeDiv});
    specs.push_back({"Pow", {7, 12, 13, 15}, {}, makePow});
    specs.push_back({"Equal", {7, 11, 13}, {}, makeEqual});
    specs.push_back({"Less", {7, 9, 13}, {}, makeLess});
    specs.push_back({"Greater", {7, 9, 13}, {}, makeGreater});
    specs.push_back({"LessOrEqual", {12, 16}, {}, makeLessOrEqual});
    specs.push_back({"GreaterOrEqual", {12, 16}, {}, makeGreaterOrEqual});
    specs.push_back({"And", {7}, {}, makeAnd});
    specs.push_back({"Or", {7}, {}, makeOr});
    specs.push_back({"Where", {9, 16}, {}, makeWhere});
    specs.push_back({"Max", {8, 12, 13}, {}, makeMax});
    specs.push_back({"Min", {8, 12, 13}, {}, makeMin});
    specs.push_back({"Clip", {6, 11, 12, 13}, {"min", "max"}, makeClip});
    specs.push_back({"Cast", {6, 9, 13}, {"to"}, makeCast});
}

} // namespace specdec::nn
