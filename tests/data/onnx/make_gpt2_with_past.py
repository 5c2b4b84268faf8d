#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A held-out model for the decoder-with-past layout: a small GPT-2 (Radford et al. 2019) written here from
the paper's description, NOT the shipped models' architecture, with random weights, exported by PyTorch
with the HF/Optimum input and output names, and PyTorch's own distributions as the reference.

    /usr/bin/python3 tests/data/onnx/make_gpt2_with_past.py tests/data/onnx

Writes gpt2_with_past.onnx (< 1 MB) and gpt2_with_past.reference/{tokens,probs,probs_k4}.pb:
tokens int64 [1, T]; probs float64 [T, V] = softmax of the logits of the uncached forward over all T tokens
(row t: the next-token distribution after tokens 0..t); probs_k4 the same from the cached forward fed 1 token,
then 5 at a time (each call's rows). The test (tests/onnx/test_onnx_kv_cache.cpp) runs without torch.

What differs from corpora/train/train_char_model.py's model: fused c_attn weights stored as [d, 3d] (GPT-2's
Conv1D, x @ W + b), position embeddings looked up by the position_ids input, the attention_mask input turned
into an additive (1 - mask) * -1e4 bias broadcast over heads and queries, a causal mask built per call with
plain arithmetic (key index < past + query index + 1), GELU written as 0.5 x (1 + tanh(...)), tied lm_head
without bias, eps 1e-5, and heads of 8 dimensions.
"""

import math
import os
import sys

import numpy as np
import torch
import torch.nn as nn

VOCAB = list(" abcdefghijklmnopqrstuvwxyz.,;:!?'\n")
CONTEXT = 48
D, HEADS, LAYERS = 32, 4, 2


class Conv1D(nn.Module):
    """GPT-2's linear layer: weight [in, out], y = x @ W + b."""

    def __init__(self, nin, nout):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(nin, nout) * 0.2)
        self.bias = nn.Parameter(torch.randn(nout) * 0.05)

    def forward(self, x):
        return torch.matmul(x, self.weight) + self.bias


def gelu_new(x):
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


class Gpt2Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln_1 = nn.LayerNorm(D, eps=1e-5)
        self.c_attn = Conv1D(D, 3 * D)
        self.c_proj = Conv1D(D, D)
        self.ln_2 = nn.LayerNorm(D, eps=1e-5)
        self.c_fc = Conv1D(D, 4 * D)
        self.mlp_proj = Conv1D(4 * D, D)

    def forward(self, x, bias, past_k, past_v):
        b, t = x.shape[0], x.shape[1]
        hd = D // HEADS
        q, k, v = self.c_attn(self.ln_1(x)).split(D, dim=2)
        split = lambda y: y.view(b, t, HEADS, hd).permute(0, 2, 1, 3)  # noqa: E731
        q, k, v = split(q), torch.cat((past_k, split(k)), dim=-2), torch.cat((past_v, split(v)), dim=-2)
        w = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(hd) + bias
        a = torch.matmul(torch.softmax(w, dim=-1), v).permute(0, 2, 1, 3).reshape(b, t, D)
        x = x + self.c_proj(a)
        x = x + self.mlp_proj(gelu_new(self.c_fc(self.ln_2(x))))
        return x, k, v


class Gpt2WithPast(nn.Module):
    """flaw: None, or a deliberate break of the layout that the engine's load check must catch:
    "present" (present.{i} holds only this call's keys/values) or "ignores_past" (attention skips the past)."""

    def __init__(self, flaw=None):
        super().__init__()
        self.flaw = flaw
        self.wte = nn.Parameter(torch.randn(len(VOCAB), D) * 0.5)
        self.wpe = nn.Parameter(torch.randn(CONTEXT, D) * 0.1)
        self.h = nn.ModuleList(Gpt2Block() for _ in range(LAYERS))
        self.ln_f = nn.LayerNorm(D, eps=1e-5)

    def forward(self, input_ids, attention_mask, position_ids, *past):
        t = input_ids.shape[1]
        total = attention_mask.shape[1]
        p = total - t
        x = self.wte[input_ids] + self.wpe[position_ids]
        query = torch.arange(t)[:, None] + p
        key = torch.arange(total)[None, :]
        causal = (key < query + 1).float()
        allowed = causal[None, None] * attention_mask[:, None, None, :].float()
        bias = (1.0 - allowed) * -1e4
        presents = []
        for i, block in enumerate(self.h):
            pk, pv = past[2 * i], past[2 * i + 1]
            if self.flaw == "ignores_past":
                pk, pv, b = pk[:, :, :0], pv[:, :, :0], bias[:, :, :, p:]
            else:
                b = bias
            x, k, v = block(x, b, pk, pv)
            if self.flaw == "ignores_past":  # the presents still grow; only the attention skips the past
                k, v = torch.cat((past[2 * i], k), dim=-2), torch.cat((past[2 * i + 1], v), dim=-2)
            if self.flaw == "present":
                k, v = k[:, :, p:], v[:, :, p:]
            presents += [k, v]
        logits = torch.matmul(self.ln_f(x), self.wte.t())
        return (logits, *presents)


def empty(batch=1, length=0):
    return [torch.zeros(batch, HEADS, length, D // HEADS) for _ in range(2 * LAYERS)]


def run(model, ids, past, p):
    t = ids.shape[1]
    mask = torch.ones(1, p + t, dtype=torch.int64)
    pos = torch.arange(p, p + t)[None, :]
    return model(ids, mask, pos, *past)


def export(model, path):
    import json
    import onnx
    past_names = [f"past_key_values.{i}.{k}" for i in range(LAYERS) for k in ("key", "value")]
    present_names = [f"present.{i}.{k}" for i in range(LAYERS) for k in ("key", "value")]
    dynamic = {"input_ids": {0: "batch_size", 1: "sequence_length"},
               "attention_mask": {0: "batch_size", 1: "past_sequence_length + sequence_length"},
               "position_ids": {0: "batch_size", 1: "sequence_length"},
               "logits": {0: "batch_size", 1: "sequence_length"}}
    dynamic.update({n: {0: "batch_size", 2: "past_sequence_length"} for n in past_names})
    dynamic.update({n: {0: "batch_size", 2: "past_sequence_length + 1"} for n in present_names})
    ids = torch.tensor([[1, 2, 3]])
    with torch.no_grad():
        torch.onnx.export(model, (ids, torch.ones(1, 5, dtype=torch.int64), torch.tensor([[2, 3, 4]]), *empty(1, 2)),
                          path, opset_version=14, do_constant_folding=True,
                          input_names=["input_ids", "attention_mask", "position_ids"] + past_names,
                          output_names=["logits"] + present_names, dynamic_axes=dynamic)
    m = onnx.load(path)
    for key, value in {"specdec.vocab": json.dumps(VOCAB), "specdec.context_length": str(CONTEXT),
                       "specdec.description": "held-out GPT-2-style test model (random weights)"}.items():
        q = m.metadata_props.add()
        q.key, q.value = key, value
    onnx.save(m, path)
    onnx.checker.check_model(path, full_check=True)
    print("ops", " ".join(sorted({n.op_type for n in m.graph.node})), os.path.getsize(path), "bytes")


def main():
    from onnx import numpy_helper
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    torch.manual_seed(20231)
    torch.set_num_threads(1)
    model = Gpt2WithPast().eval()
    export(model, os.path.join(out_dir, "gpt2_with_past.onnx"))
    for flaw in ("present", "ignores_past"):
        broken = Gpt2WithPast(flaw).eval()
        broken.load_state_dict(model.state_dict())
        export(broken, os.path.join(out_dir, f"gpt2_bad_{flaw}.onnx"))

    rng = np.random.default_rng(5)
    T = CONTEXT
    tokens = torch.from_numpy(rng.integers(0, len(VOCAB), (1, T)))
    with torch.no_grad():
        full = torch.softmax(run(model, tokens, empty(), 0)[0][0].double(), dim=-1)
        rows, past, p = [], empty(), 0
        for chunk in [1] + [5] * ((T - 1 + 4) // 5):
            chunk = min(chunk, T - p)
            if chunk <= 0:
                break
            o = run(model, tokens[:, p:p + chunk], past, p)
            past, p = list(o[1:]), p + chunk
            rows.append(torch.softmax(o[0][0].double(), dim=-1))
        cached = torch.cat(rows)
    diff = float((cached - full).abs().max())
    print(f"PyTorch cached vs uncached: max |diff| {diff:.2e}")
    assert diff < 1e-5
    ref = os.path.join(out_dir, "gpt2_with_past.reference")
    os.makedirs(ref, exist_ok=True)
    for name, array in {"tokens": tokens.numpy().astype(np.int64), "probs": full.numpy(),
                        "probs_k4": cached.numpy()}.items():
        with open(os.path.join(ref, name + ".pb"), "wb") as f:
            f.write(numpy_helper.from_array(array, name).SerializeToString())


if __name__ == "__main__":
    main()
