#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Re-export a model made by train_char_model.py in the HF/Optimum "decoder with past" layout, from its own
weights (no training), so that the engine can decode it with a key/value cache.

    /usr/bin/python3 corpora/train/export_with_past.py corpora/kjv/models/target.onnx [--out OUT.onnx]

Without --out the file is replaced in place (same weights, same metadata) and its parity data regenerated.

Layout (docs/model-format.md, section 1b)
- inputs: input_ids int64 [batch, sequence]; past_key_values.{i}.key / .value float32
  [batch, heads, past, head_dim] for each layer i (past may be 0).
- outputs: logits float32 [batch, sequence, vocab]; present.{i}.key / .value float32
  [batch, heads, past + sequence, head_dim] = the past with this call's keys/values appended.
- positions past .. past + sequence - 1 of the model's position table; the causal mask row of position
  past + t covers keys 0 .. past + t.

Checks after export: the ONNX checker (full), the operator list, and in PyTorch the cached forward (a prefix
then one token at a time, and then K + 1 at a time) against the uncached forward of the original module at
every position of a 300-token run of windows (max |diff| of the softmax <= 1e-5).
"""

import argparse
import json
import math
import os
import sys
import types

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train_char_model import SUPPORTED_OPS, CharTransformer, inline_identities, load_onnx_weights  # noqa: E402


class CharTransformerWithPast(nn.Module):
    """The forward of CharTransformer with a key/value cache: same parameters, same arithmetic per position."""

    def __init__(self, base):
        super().__init__()
        self.base = base
        # Each block is called as itself (its forward replaced), so that the exported node names keep the module
        # paths (/base/blocks.0/qkv/MatMul) that train_char_model.load_onnx_weights reads the weights back by.
        for blk in base.blocks:
            blk.forward = types.MethodType(CharTransformerWithPast.block, blk)

    @staticmethod
    def block(blk, x, mask, past_k=None, past_v=None):
        if past_k is None:  # the original module's own forward (the uncached reference)
            return type(blk).forward(blk, x, mask)
        b, t = x.shape[0], x.shape[1]
        d, h, hd = blk.d, blk.heads, blk.hd
        q, k, v = blk.qkv(blk.ln1(x)).split(d, dim=2)
        q = q.reshape(b, t, h, hd).transpose(1, 2)                     # b h t hd
        k = torch.cat([past_k, k.reshape(b, t, h, hd).transpose(1, 2)], dim=2)  # b h (past + t) hd
        v = torch.cat([past_v, v.reshape(b, t, h, hd).transpose(1, 2)], dim=2)
        att = torch.matmul(q, k.transpose(2, 3)) * (1.0 / math.sqrt(hd)) + mask
        y = torch.matmul(torch.softmax(att, dim=-1), v).transpose(1, 2).reshape(b, t, d)
        x = x + blk.proj(y)
        x = x + blk.fc2(F.gelu(blk.fc1(blk.ln2(x)), approximate="tanh"))
        return x, k, v

    def forward(self, input_ids, *past):
        m = self.base
        p = past[0].shape[2]
        t = input_ids.shape[1]
        x = m.tok(input_ids) + m.pos[p:p + t]
        mask = m.mask[p:p + t, :p + t]
        presents = []
        for i, blk in enumerate(m.blocks):
            x, k, v = blk(x, mask, past[2 * i], past[2 * i + 1])
            presents += [k, v]
        x = m.ln_f(x)
        z = torch.matmul(x, m.tok.weight.t()) + m.out_bias if m.tie else m.head(x)
        if m.mix_logit is not None:
            lam = torch.sigmoid(m.mix_logit)
            z = torch.log((1.0 - lam) * torch.softmax(z, dim=-1) + lam * m.unigram)
        return (z, *presents)


def rebuild(path):
    """The PyTorch module of a model file exported by train_char_model.py (from its specdec.training args)."""
    import onnx
    model_proto = onnx.load(path)
    meta = {p.key: p.value for p in model_proto.metadata_props}
    a = json.loads(meta["specdec.training"])["args"]
    vocab = json.loads(meta["specdec.vocab"])
    base = CharTransformer(len(vocab), a["context"], a["layers"], a["d_model"], a["heads"], 0.0, a["tie"])
    if a.get("unigram_mix"):
        base.mix_logit = nn.Parameter(torch.tensor(0.0))
    load_onnx_weights(base, path)
    base.eval()
    return base, model_proto, vocab, a


def empty_past(base, batch=1, length=0):
    hd = base.blocks[0].hd
    return [torch.zeros(batch, blk.heads, length, hd) for blk in base.blocks for _ in (0, 1)]


def softmax(z):
    return torch.softmax(z.double(), dim=-1)


@torch.no_grad()
def check_parity(base, cached, tokens, k):
    """Max |p_cached - p_uncached| over every position of `tokens` (windows of the context, the engine's rule:
    start(L) = ceil((L - C) / S) S past the context), decoding one position at a time and K + 1 at a time."""
    C = base.context
    S = max(1, C // 4)
    n = len(tokens)
    worst = 0.0
    for step in (1, k + 1):
        start, past, fed = 0, empty_past(base), 0
        L = 1
        while L <= n:
            rows = list(range(L, min(n, L + step - 1) + 1))
            for Lr in rows:
                s = 0 if Lr <= C else (Lr - C + S - 1) // S * S
                if s != start:           # the window moved: refill the cache from the new start
                    start, past, fed = s, empty_past(base), s
                new = torch.tensor(tokens[fed:Lr])[None, :]
                out = cached(new, *past)
                past, fed = list(out[1:]), Lr
                ref = base(torch.tensor(tokens[s:Lr])[None, :])[0, -1]
                worst = max(worst, float((softmax(out[0][0, -1]) - softmax(ref)).abs().max()))
            L = rows[-1] + 1
    return worst


def store_float16(m):
    """Every float32 initializer of more than one element whose values float16 holds exactly (the rounded
    weights; not the -1e9 mask) becomes a float16 initializer NAME_fp16 read by a Cast(to=float) node whose
    output is NAME, placed first: ONNX Runtime computes in float32 from the same values, and the specdec
    executor folds each Cast at load (the weights are widened once, exactly)."""
    import onnx
    from onnx import helper, numpy_helper
    kept, casts, saved = [], [], 0
    for t in m.graph.initializer:
        x = numpy_helper.to_array(t)
        if t.data_type == onnx.TensorProto.FLOAT and x.size > 1 and np.array_equal(
                x.astype(np.float16).astype(np.float32), x):
            kept.append(numpy_helper.from_array(x.astype(np.float16), t.name + "_fp16"))
            casts.append(helper.make_node("Cast", [t.name + "_fp16"], [t.name], name=f"/fp16/{t.name}/Cast",
                                          to=onnx.TensorProto.FLOAT))
            saved += x.size * 2
        else:
            kept.append(t)
    del m.graph.initializer[:]
    m.graph.initializer.extend(kept)
    nodes = list(m.graph.node)
    del m.graph.node[:]
    m.graph.node.extend(casts + nodes)
    print(f"float16 storage: {len(casts)} initializers, {saved / 1e6:.1f} MB saved")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model", help="a .onnx file exported by train_char_model.py (single-input layout)")
    ap.add_argument("--out", default="", help="output path (default: replace the input file)")
    ap.add_argument("--parity-length", type=int, default=32)
    ap.add_argument("--check-length", type=int, default=300)
    ap.add_argument("--float16", action="store_true",
                    help="store the weights as float16 initializers, each read by a Cast to float (the weights are "
                         "first rounded to float16, so the file holds them exactly and the checks use them)")
    args = ap.parse_args()
    import onnx
    from onnx import numpy_helper

    torch.set_num_threads(1)
    base, proto, vocab, a = rebuild(args.model)
    if [i.name for i in proto.graph.input] != ["tokens"]:
        raise SystemExit(f"{args.model}: not a single-input model of train_char_model.py")
    parity_dir = os.path.splitext(args.model)[0] + ".parity"
    if args.float16:
        with torch.no_grad():
            moved = 0.0
            for p in base.parameters():
                rounded = p.half().float()
                moved = max(moved, float((rounded - p).abs().max()))
                p.copy_(rounded)
        print(f"weights rounded to float16 (largest change {moved:.2e})")
    cached = CharTransformerWithPast(base).eval()
    layers = len(base.blocks)
    out = args.out or args.model
    tmp = out + ".tmp"

    rng = np.random.default_rng(7)
    dummy_ids = torch.from_numpy(rng.integers(0, len(vocab), (1, 3)))
    dummy_past = empty_past(base, 1, 2)
    past_names = [f"past_key_values.{i}.{kind}" for i in range(layers) for kind in ("key", "value")]
    present_names = [f"present.{i}.{kind}" for i in range(layers) for kind in ("key", "value")]
    dynamic = {"input_ids": {0: "batch", 1: "sequence"}, "logits": {0: "batch", 1: "sequence"}}
    dynamic.update({n: {0: "batch", 2: "past_sequence"} for n in past_names})
    dynamic.update({n: {0: "batch", 2: "total_sequence"} for n in present_names})
    torch.onnx.export(cached, (dummy_ids, *dummy_past), tmp, opset_version=17,
                      input_names=["input_ids"] + past_names, output_names=["logits"] + present_names,
                      dynamic_axes=dynamic, do_constant_folding=True)
    m = onnx.load(tmp)
    inline_identities(m)
    del m.metadata_props[:]
    for p in proto.metadata_props:
        q = m.metadata_props.add()
        q.key, q.value = p.key, p.value
    if args.float16:
        store_float16(m)
    m.producer_name = "specdec-lab corpora/train/export_with_past.py"
    m.doc_string = proto.doc_string
    onnx.save(m, tmp)
    onnx.checker.check_model(tmp, full_check=True)
    ops = sorted({n.op_type for n in m.graph.node})
    bad = [o for o in ops if o not in SUPPORTED_OPS]
    if bad:
        os.remove(tmp)
        raise SystemExit(f"unsupported operators in the exported graph: {bad}")
    print("ops", " ".join(ops))

    # Cached vs uncached in PyTorch, past the context too.
    tokens = [int(t) for t in rng.integers(0, len(vocab), args.check_length)]
    parity_input = os.path.join(parity_dir, "input_0.pb")
    if os.path.exists(parity_input):   # a held-out snippet: repeat it to the check length
        snippet = [int(t) for t in numpy_helper.to_array(onnx.load_tensor(parity_input)).reshape(-1)]
        tokens = (snippet * (args.check_length // len(snippet) + 1))[:args.check_length]
    worst = check_parity(base, cached, tokens, 4)
    print(f"cached vs uncached softmax, {len(tokens)} positions: max |diff| {worst:.2e}")
    if worst > 1e-5:
        os.remove(tmp)
        raise SystemExit("the cached forward disagrees with the uncached one")
    os.replace(tmp, out)

    # Parity data: the same held-out snippet, logits from the cached module with an empty past.
    pdir = os.path.splitext(out)[0] + ".parity"
    os.makedirs(pdir, exist_ok=True)
    if os.path.exists(parity_input):
        x = numpy_helper.to_array(onnx.load_tensor(parity_input)).astype(np.int64)
    else:
        x = np.array([tokens[:min(args.parity_length, base.context)]], dtype=np.int64)
    with torch.no_grad():
        y = cached(torch.from_numpy(x), *empty_past(base))[0].numpy().astype(np.float32)
    with open(os.path.join(pdir, "input_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(x, "input_ids").SerializeToString())
    with open(os.path.join(pdir, "output_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(y, "logits").SerializeToString())
    print(f"wrote {out} ({os.path.getsize(out)} bytes, {layers} layers) and {pdir}/")


if __name__ == "__main__":
    main()
