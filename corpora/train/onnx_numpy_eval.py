#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A small numpy evaluator for ONNX graphs, used to check exported models in Python (python3-onnx 1.12 has no
reference evaluator and Debian has no ONNX Runtime). It covers the operators torch exports for the models of
train_char_model.py plus a few common neighbours; it is a checking tool, not a runtime.

    /usr/bin/python3 corpora/train/onnx_numpy_eval.py MODEL.onnx PARITY_DIR   # compares with output_0.pb
"""

import sys

import numpy as np
import onnx
from onnx import numpy_helper

try:
    from math import erf as _erf
    _verf = np.vectorize(_erf, otypes=[np.float64])
except ImportError:  # pragma: no cover
    _verf = None


def _attrs(node):
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


def _axis(a, rank):
    return a + rank if a < 0 else a


def _layernorm(x, scale, bias=None, axis=-1, epsilon=1e-5, **_):
    axes = tuple(range(_axis(axis, x.ndim), x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    y = (x - mean) / np.sqrt(var + epsilon) * scale
    return y + bias if bias is not None else y


def _softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _slice(x, starts, ends, axes=None, steps=None):
    axes = range(len(starts)) if axes is None else [_axis(int(a), x.ndim) for a in axes]
    steps = [1] * len(starts) if steps is None else steps
    idx = [slice(None)] * x.ndim
    for s, e, a, st in zip(starts, ends, axes, steps):
        n = x.shape[a]
        s, e, st = int(s), int(e), int(st)
        s = max(min(s + n if s < 0 else s, n if st > 0 else n - 1), 0 if st > 0 else -1)
        e = max(min(e + n if e < 0 else e, n if st > 0 else n - 1), 0 if st > 0 else -1)
        idx[a] = slice(s, e if e >= 0 else None, st)
    return x[tuple(idx)]


def _reshape(x, shape, allowzero=0):
    shape = [int(s) for s in shape]
    if not allowzero:
        shape = [x.shape[i] if s == 0 else s for i, s in enumerate(shape)]
    return x.reshape(shape)


_DT = {onnx.TensorProto.FLOAT: np.float32, onnx.TensorProto.INT64: np.int64, onnx.TensorProto.INT32: np.int32,
       onnx.TensorProto.BOOL: np.bool_, onnx.TensorProto.DOUBLE: np.float64}


def _run_node(op, a, x):
    if op == "Identity" or op == "Dropout":
        return [x[0]]
    if op in ("Add", "Sub", "Mul", "Div", "Pow", "Equal", "Less", "Greater", "And", "Or", "Max", "Min"):
        f = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Pow": np.power, "Equal": np.equal,
             "Less": np.less, "Greater": np.greater, "And": np.logical_and, "Or": np.logical_or,
             "Max": np.maximum, "Min": np.minimum}.get(op)
        if op == "Div":
            r = (x[0] // x[1]) if np.issubdtype(x[0].dtype, np.integer) else x[0] / x[1]
        else:
            r = f(x[0], x[1])
        if op in ("Add", "Sub", "Mul", "Div", "Pow", "Max", "Min"):
            r = r.astype(x[0].dtype)
        return [r]
    unary = {"Sqrt": np.sqrt, "Tanh": np.tanh, "Exp": np.exp, "Log": np.log, "Neg": np.negative, "Abs": np.abs,
             "Reciprocal": np.reciprocal, "Relu": lambda v: np.maximum(v, 0), "Not": np.logical_not,
             "Sigmoid": lambda v: 1 / (1 + np.exp(-v))}
    if op in unary:
        return [unary[op](x[0]).astype(x[0].dtype)]
    if op == "Erf":
        return [_verf(x[0]).astype(x[0].dtype)]
    if op == "Cast":
        return [x[0].astype(_DT[a["to"]])]
    if op == "Constant":
        return [numpy_helper.to_array(a["value"])]
    if op == "Shape":
        return [np.array(x[0].shape, dtype=np.int64)]
    if op == "Gather":
        return [np.take(x[0], x[1], axis=a.get("axis", 0))]
    if op == "Unsqueeze":
        r = x[0]
        for ax in sorted(_axis(int(v), r.ndim + len(x[1])) for v in x[1]):
            r = np.expand_dims(r, ax)
        return [r]
    if op == "Squeeze":
        return [np.squeeze(x[0], axis=tuple(int(v) for v in x[1])) if len(x) > 1 else np.squeeze(x[0])]
    if op == "Concat":
        return [np.concatenate(x, axis=a["axis"])]
    if op == "Slice":
        return [_slice(*x)]
    if op == "Reshape":
        return [_reshape(x[0], x[1], a.get("allowzero", 0))]
    if op == "Transpose":
        return [np.transpose(x[0], a.get("perm"))]
    if op == "MatMul":
        return [np.matmul(x[0], x[1])]
    if op == "Gemm":
        A = x[0].T if a.get("transA", 0) else x[0]
        B = x[1].T if a.get("transB", 0) else x[1]
        r = a.get("alpha", 1.0) * (A @ B)
        if len(x) > 2:
            r = r + a.get("beta", 1.0) * x[2]
        return [r.astype(x[0].dtype)]
    if op == "Softmax":
        return [_softmax(x[0], a.get("axis", -1))]
    if op == "LogSoftmax":
        return [np.log(_softmax(x[0], a.get("axis", -1)))]
    if op == "LayerNormalization":
        return [_layernorm(*x, axis=a.get("axis", -1), epsilon=a.get("epsilon", 1e-5)).astype(x[0].dtype)]
    if op == "Split":
        ax = _axis(a.get("axis", 0), x[0].ndim)
        if len(x) > 1 and x[1] is not None:
            cuts = np.cumsum(x[1])[:-1]
        else:
            raise NotImplementedError("Split without sizes")
        return np.split(x[0], cuts, axis=ax)
    if op == "Where":
        return [np.where(x[0], x[1], x[2])]
    if op == "Expand":
        return [x[0] * np.ones([int(v) for v in x[1]], dtype=x[0].dtype)]
    if op == "Range":
        return [np.arange(x[0], x[1], x[2]).astype(x[0].dtype)]
    if op == "ConstantOfShape":
        v = numpy_helper.to_array(a["value"]) if "value" in a else np.zeros(1, np.float32)
        return [np.full([int(s) for s in x[0]], v.reshape(-1)[0], dtype=v.dtype)]
    if op == "Trilu":
        k = int(x[1]) if len(x) > 1 else 0
        return [np.triu(x[0], k) if a.get("upper", 1) else np.tril(x[0], k)]
    if op in ("ReduceMean", "ReduceSum", "ReduceMax"):
        axes = a.get("axes") if op != "ReduceSum" else (list(x[1]) if len(x) > 1 else None)
        f = {"ReduceMean": np.mean, "ReduceSum": np.sum, "ReduceMax": np.max}[op]
        return [f(x[0], axis=None if axes is None else tuple(int(v) for v in axes),
                  keepdims=bool(a.get("keepdims", 1))).astype(x[0].dtype)]
    raise NotImplementedError(f"operator {op} is not supported by onnx_numpy_eval")


def run(model, feeds):
    """Evaluates model (ModelProto) on feeds {input name: array}; returns the graph outputs in order."""
    env = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    env.update(feeds)
    for node in model.graph.node:
        ins = [env[n] if n else None for n in node.input]
        outs = _run_node(node.op_type, _attrs(node), ins)
        for name, v in zip(node.output, outs):
            env[name] = np.asarray(v)
    return [env[o.name] for o in model.graph.output]


def main():
    model = onnx.load(sys.argv[1])
    d = sys.argv[2]
    with open(f"{d}/input_0.pb", "rb") as f:
        x = numpy_helper.to_array(onnx.TensorProto.FromString(f.read()))
    with open(f"{d}/output_0.pb", "rb") as f:
        y = numpy_helper.to_array(onnx.TensorProto.FromString(f.read()))
    got = run(model, {model.graph.input[0].name: x})[0]
    print(f"{sys.argv[1]}: input {list(x.shape)}, output {list(got.shape)}, max |diff| {np.max(np.abs(got - y)):.3e}")


if __name__ == "__main__":
    main()
