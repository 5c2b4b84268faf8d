#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Recover the source of a network grown by `train_char_model.py --grow-from ... --steps 0` (Net2Net, readers
"first", no noise): the inverse of grow_into. Writes a checkpoint that `--init-from FILE.pt` resumes, so the
source can be trained further at its own (17x cheaper) size and grown again.

    /usr/bin/python3 corpora/train/shrink_grown.py --corpus-file /tmp/corpora/kjv.txt \
        --grown corpora/kjv/models/target-large.onnx --layers 4 --d-model 160 --heads 5 --out /tmp/src.pt

grow_into places old block i at i * L1 / L0, repeats every channel the old one writes (so the first d0 rows
are the old rows) and has every reader read only the first copy (the old columns, then zeros), so the source
is the first d0 rows and columns of the old blocks. The script checks that both networks compute the same
logits (max |diff| <= 1e-4 on held-out windows of the full context) before it writes anything."""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train_char_model import CharTransformer, load_corpus, rebuild_from_file  # noqa: E402


def shrink(big, small):
    """Copies the source's weights out of the grown `big` into `small` (same context and tie)."""
    d0, d1 = small.tok.weight.shape[1], big.tok.weight.shape[1]
    L0, L1 = len(small.blocks), len(big.blocks)
    if d1 % d0 or L1 % L0 or big.context != small.context or big.tie != small.tie:
        raise SystemExit(f"cannot shrink d {d1}, {L1} layers, context {big.context} into d {d0}, {L0} layers, "
                         f"context {small.context}")
    src = big.state_dict()
    out = dict(small.state_dict())
    out["tok.weight"] = src["tok.weight"][:, :d0]
    out["pos"] = src["pos"][:, :d0]
    out["ln_f.weight"], out["ln_f.bias"] = src["ln_f.weight"][:d0], src["ln_f.bias"][:d0]
    if small.tie:
        out["out_bias"] = src["out_bias"]
    else:
        out["head.weight"], out["head.bias"] = src["head.weight"][:, :d0], src["head.bias"]
    for i in range(L0):
        a, b = f"blocks.{i * L1 // L0}.", f"blocks.{i}."
        for ln in ("ln1", "ln2"):
            out[b + ln + ".weight"] = src[a + ln + ".weight"][:d0]
            out[b + ln + ".bias"] = src[a + ln + ".bias"][:d0]
        q, k, v = src[a + "qkv.weight"].split(d1, dim=0)
        out[b + "qkv.weight"] = torch.cat([w[:d0, :d0] for w in (q, k, v)])
        out[b + "qkv.bias"] = torch.cat([t[:d0] for t in src[a + "qkv.bias"].split(d1)])
        out[b + "proj.weight"] = src[a + "proj.weight"][:d0, :d0]
        out[b + "proj.bias"] = src[a + "proj.bias"][:d0]
        out[b + "fc1.weight"] = src[a + "fc1.weight"][:4 * d0, :d0]
        out[b + "fc1.bias"] = src[a + "fc1.bias"][:4 * d0]
        out[b + "fc2.weight"] = src[a + "fc2.weight"][:d0, :4 * d0]
        out[b + "fc2.bias"] = src[a + "fc2.bias"][:d0]
    small.load_state_dict({k: v.clone() for k, v in out.items()})


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus-file", required=True)
    ap.add_argument("--grown", required=True, help="a model grown by train_char_model.py --grow-from (.onnx)")
    ap.add_argument("--layers", type=int, required=True)
    ap.add_argument("--d-model", type=int, required=True)
    ap.add_argument("--heads", type=int, required=True)
    ap.add_argument("--out", required=True, help="checkpoint (.pt) for train_char_model.py --init-from")
    args = ap.parse_args()
    _, vocab, ids, split = load_corpus(args.corpus_file, 0.05, "tail")
    big, a = rebuild_from_file(args.grown, len(vocab))
    small = CharTransformer(len(vocab), a["context"], args.layers, args.d_model, args.heads, 0.0, a["tie"])
    shrink(big, small)
    small.eval()
    data = torch.from_numpy(ids)
    x = torch.stack([data[s:s + a["context"]] for s in range(split, split + 4 * 9973, 9973)])
    with torch.no_grad():
        diff = float((big(x) - small(x)).abs().max())
    print(f"shrunk network vs {args.grown}: max |logit diff| {diff:.2e} over {x.shape[0]} held-out windows of "
          f"{a['context']}", flush=True)
    if diff > 1e-4:
        raise SystemExit(f"{args.grown} was not grown with readers 'first' and no noise: the shrunk network differs")
    torch.save({"model": small.state_dict(), "step": 0}, args.out + ".tmp")
    os.replace(args.out + ".tmp", args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
