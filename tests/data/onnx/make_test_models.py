#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Makes the small ONNX models of tests/onnx (committed; rerun only to change them).

    /usr/bin/python3 tests/data/onnx/make_test_models.py

Needs Debian's python3-torch and python3-onnx. Writes, next to this script:
- tiny_transformer.onnx   causal char transformer (corpora/train's CharTransformer, random weights, 2 layers,
                          d 16, context 8) with a vocabulary that exercises JSON escapes and astral characters;
                          tiny_transformer.parity/{input_0,output_0}.pb: tokens and torch's logits
- tiny_gru.onnx           Embedding -> GRU -> Linear character model (context 16) + tiny_gru.parity/
- noncausal.onnx          the transformer without its mask (every position sees the whole window)
- last_position.onnx      logits only for the last position: [batch, vocab]
- unsupported_op.onnx     a graph with an Einsum node, which the executor does not implement
"""
import json
import os
import sys

import numpy as np
import torch
import torch.nn as nn
import onnx
from onnx import helper, numpy_helper, TensorProto

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "..", "corpora", "train"))
from train_char_model import CharTransformer  # noqa: E402

VOCAB = ["\n", " ", "\"", "\\", "a", "b", "c", "é", "中", "文", "\U0001F600", "/"]


def add_metadata(path, context, description):
    m = onnx.load(path)
    del m.metadata_props[:]
    for k, v in {"specdec.vocab": json.dumps(VOCAB, ensure_ascii=True),
                 "specdec.context_length": str(context),
                 "specdec.corpus": "test",
                 "specdec.description": description}.items():
        p = m.metadata_props.add()
        p.key, p.value = k, v
    onnx.save(m, path)
    onnx.checker.check_model(path)


def export(model, path, context, description, parity=True):
    model.eval()
    dummy = torch.tensor([[4, 5, 6]], dtype=torch.int64)
    torch.onnx.export(model, (dummy,), path, opset_version=17, input_names=["tokens"], output_names=["logits"],
                      dynamic_axes={"tokens": {0: "batch", 1: "sequence"}, "logits": {0: "batch", 1: "sequence"}})
    add_metadata(path, context, description)
    if parity:
        pdir = os.path.splitext(path)[0] + ".parity"
        os.makedirs(pdir, exist_ok=True)
        x = torch.tensor([[8, 9, 1, 4, 5, 10, 0, 3][:context]], dtype=torch.int64)
        with torch.no_grad():
            y = model(x).numpy().astype(np.float32)
        with open(os.path.join(pdir, "input_0.pb"), "wb") as f:
            f.write(numpy_helper.from_array(x.numpy(), "tokens").SerializeToString())
        with open(os.path.join(pdir, "output_0.pb"), "wb") as f:
            f.write(numpy_helper.from_array(y, "logits").SerializeToString())


class CharGru(nn.Module):
    def __init__(self, vocab, d):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.gru = nn.GRU(d, d, batch_first=True)
        self.head = nn.Linear(d, vocab)

    def forward(self, tokens):
        y, _ = self.gru(self.tok(tokens))
        return self.head(y)


class LastPosition(nn.Module):
    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def forward(self, tokens):
        return self.inner(tokens)[:, -1, :]


def main():
    torch.manual_seed(7)
    V = len(VOCAB)
    transformer = CharTransformer(V, 8, 2, 16, 2, 0.0, False)
    with torch.no_grad():  # larger weights than the training init, so that positions differ visibly
        for p in transformer.parameters():
            p.mul_(20.0)
    export(transformer, os.path.join(here, "tiny_transformer.onnx"), 8, "tiny causal transformer for tests")

    gru = CharGru(V, 8)
    export(gru, os.path.join(here, "tiny_gru.onnx"), 16, "tiny GRU character model for tests")

    noncausal = CharTransformer(V, 8, 1, 16, 2, 0.0, False)
    noncausal.mask.zero_()
    with torch.no_grad():
        for p in noncausal.parameters():
            p.mul_(20.0)
    export(noncausal, os.path.join(here, "noncausal.onnx"), 8, "attends to later positions", parity=False)

    last = LastPosition(CharTransformer(V, 8, 1, 16, 2, 0.0, False))
    last.eval()
    torch.onnx.export(last, (torch.tensor([[4, 5, 6]]),), os.path.join(here, "last_position.onnx"), opset_version=17,
                      input_names=["tokens"], output_names=["logits"],
                      dynamic_axes={"tokens": {0: "batch", 1: "sequence"}, "logits": {0: "batch"}})
    add_metadata(os.path.join(here, "last_position.onnx"), 8, "logits of the last position only")

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 2])
    node = helper.make_node("Einsum", ["x", "x"], ["y"], name="outer_product", equation="ij,kj->ik")
    graph = helper.make_graph([node], "unsupported", [x], [y])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="make_test_models.py")
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(here, "unsupported_op.onnx"))
    for f in sorted(os.listdir(here)):
        print(f, os.path.getsize(os.path.join(here, f)) if os.path.isfile(os.path.join(here, f)) else "dir")


if __name__ == "__main__":
    main()
