#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A random-weight model of the shipped architecture (corpora/train/train_char_model.py's pre-LN GPT blocks) in
the decoder-with-past layout (export_with_past.py), for benchmarks of a memory-bound shape; no training.

    /usr/bin/python3 tests/onnx/make_random_model.py /tmp/large.onnx [--layers 8] [--d-model 512] [--heads 8]
        [--context 512] [--vocab-from corpora/kjv/models/target.onnx]

The vocabulary (specdec.vocab) is the one of --vocab-from; the weights are the training script's initialisation
(seeded), so the file runs everywhere a shipped model runs but predicts nothing. Keep the output out of git
(8 layers at d 512 is about 100 MB).
"""

import argparse
import json
import os
import sys

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "corpora", "train"))
from export_with_past import CharTransformerWithPast, empty_past  # noqa: E402
from train_char_model import CharTransformer  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--layers", type=int, default=8)
    ap.add_argument("--d-model", type=int, default=512)
    ap.add_argument("--heads", type=int, default=8)
    ap.add_argument("--context", type=int, default=512)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--vocab-from", default=os.path.join(here, "..", "..", "corpora", "kjv", "models", "target.onnx"))
    args = ap.parse_args()
    import onnx

    source = onnx.load(args.vocab_from)
    vocab = json.loads({p.key: p.value for p in source.metadata_props}["specdec.vocab"])
    torch.manual_seed(args.seed)
    base = CharTransformer(len(vocab), args.context, args.layers, args.d_model, args.heads, 0.0, False).eval()
    # random biases and LayerNorm parameters too, so that no weight is a trivial 0 or 1
    with torch.no_grad():
        for name, p in base.named_parameters():
            if name.endswith("bias") or ".ln" in name or name.startswith("ln_f"):
                p.add_(torch.randn_like(p) * 0.02)
    cached = CharTransformerWithPast(base).eval()
    past_names = [f"past_key_values.{i}.{kind}" for i in range(args.layers) for kind in ("key", "value")]
    present_names = [f"present.{i}.{kind}" for i in range(args.layers) for kind in ("key", "value")]
    dynamic = {"input_ids": {0: "batch", 1: "sequence"}, "logits": {0: "batch", 1: "sequence"}}
    dynamic.update({n: {0: "batch", 2: "past_sequence"} for n in past_names})
    dynamic.update({n: {0: "batch", 2: "total_sequence"} for n in present_names})
    torch.onnx.export(cached, (torch.tensor([[1, 2, 3]]), *empty_past(base, 1, 2)), args.out, opset_version=17,
                      input_names=["input_ids"] + past_names, output_names=["logits"] + present_names,
                      dynamic_axes=dynamic, do_constant_folding=True)
    m = onnx.load(args.out)
    params = sum(p.numel() for p in base.parameters())
    meta = {"specdec.vocab": json.dumps(vocab, ensure_ascii=False), "specdec.context_length": str(args.context),
            "specdec.description": f"random weights: {args.layers} layers, d={args.d_model}, {args.heads} heads, "
                                   f"context {args.context}, {params / 1e6:.2f}M params (a benchmark shape)"}
    del m.metadata_props[:]
    for k, v in meta.items():
        p = m.metadata_props.add()
        p.key, p.value = k, v
    onnx.save(m, args.out)
    print(f"wrote {args.out} ({os.path.getsize(args.out)} bytes, {params / 1e6:.2f}M params)")


if __name__ == "__main__":
    main()
