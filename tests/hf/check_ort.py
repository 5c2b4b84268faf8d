#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The test folders of tests/data/hf under ONNX Runtime (npm onnxruntime-node, a peer, not a dependency): each
graph's distributions at the reference tokens (200) against PyTorch's, over the tokenizer's ids, uncached (one call)
and cached (3, 1, then 5 tokens a call on the presents).

    NODE_PATH=/path/to/node_modules /usr/bin/python3 tests/hf/check_ort.py [tests/data/hf]
"""

import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
REFERENCE = {"gpt2-merged": "gpt2-op14", "llama-op17-external": "llama-op17"}


def graph_of(folder):
    for name in ("onnx/model.onnx", "model.onnx", "decoder_model_merged.onnx"):
        if os.path.exists(os.path.join(folder, name)):
            return os.path.join(folder, name)
    raise SystemExit(folder + ": no graph")


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "data", "hf")
    worst = 0.0
    for name in sorted(os.listdir(root)):
        folder = os.path.join(root, name)
        if not os.path.isdir(folder):
            continue
        ref = os.path.join(root, REFERENCE.get(name, name), "reference")
        tokens = numpy_helper.to_array(onnx.load_tensor(os.path.join(ref, "tokens.pb")))[0]
        probs = numpy_helper.to_array(onnx.load_tensor(os.path.join(ref, "probs.pb"))).astype(np.float64)
        with open(os.path.join(folder, "tokenizer.json"), encoding="utf-8") as f:
            tok = json.load(f)
        n = len(tok["model"]["vocab"]) + len(tok["added_tokens"])
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "logits.bin")
            subprocess.run(["node", os.path.join(HERE, "ort_logits.js"), graph_of(folder), out,
                            ",".join(str(int(t)) for t in tokens)], check=True)
            both = np.fromfile(out, dtype=np.float32).reshape(2, len(tokens), -1).astype(np.float64)[:, :, :n]
        q = probs[:, :n] / probs[:, :n].sum(-1, keepdims=True)
        diffs = []
        for logits in both:  # uncached, then cached
            p = np.exp(logits - logits.max(-1, keepdims=True))
            p /= p.sum(-1, keepdims=True)
            diffs.append(float(np.abs(p - q).max()))
        worst = max(worst, *diffs)
        print(f"{name}: ONNX Runtime vs PyTorch, max |p - p_torch| over {len(tokens)} positions: "
              f"uncached {diffs[0]:.2e}, cached {diffs[1]:.2e}")
    print(f"worst {worst:.2e}")
    return 0 if worst < 1e-4 else 1


if __name__ == "__main__":
    sys.exit(main())
