#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Forward-pass speed of the specdec ONNX executor against PyTorch (CPU, one thread), same network and weights.

    /usr/bin/python3 tests/onnx/bench_vs_torch.py --bench build/bin/onnx_bench [--layers 4 --d-model 256 ...]

Builds corpora/train's CharTransformer with random weights, exports it (opset 17, dynamic batch and sequence
axes), times torch's forward over the full context with torch.set_num_threads(1), runs onnx_bench on the
exported file with --threads 1, and prints both times and the ratio torch / executor (> 1: executor faster).
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "corpora", "train"))
from train_char_model import CharTransformer  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", required=True, help="path of the onnx_bench executable")
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--d-model", type=int, default=256)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--context", type=int, default=256)
    ap.add_argument("--vocab", type=int, default=80)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()

    torch.manual_seed(0)
    torch.set_num_threads(args.threads)
    model = CharTransformer(args.vocab, args.context, args.layers, args.d_model, args.heads, 0.0, False).eval()
    params = sum(p.numel() for p in model.parameters())
    tokens = (torch.arange(args.context, dtype=torch.int64) % 7)[None, :]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bench.onnx")
        torch.onnx.export(model, (tokens[:, :16],), path, opset_version=17, input_names=["tokens"],
                          output_names=["logits"],
                          dynamic_axes={"tokens": {0: "batch", 1: "sequence"}, "logits": {0: "batch", 1: "sequence"}})
        with torch.no_grad():
            model(tokens)
            times = []
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                model(tokens)
                times.append((time.perf_counter() - t0) * 1000)
        times.sort()
        torch_ms = times[len(times) // 2]
        out = subprocess.run([args.bench, path, "--length", str(args.context), "--threads", str(args.threads),
                              "--repeat", str(args.repeat)], check=True, capture_output=True, text=True).stdout
    print(f"network: {args.layers} layers, d_model {args.d_model}, {args.heads} heads, context {args.context}, "
          f"vocab {args.vocab}, {params / 1e6:.2f}M parameters; threads {args.threads}")
    print(f"pytorch {torch.__version__}: median {torch_ms:.3f} ms, best {times[0]:.3f} ms")
    print(out.strip())
    ours = float(out.split("median ")[1].split(" ms")[0])
    print(f"ratio pytorch / executor (median): {torch_ms / ours:.2f}")


if __name__ == "__main__":
    main()
