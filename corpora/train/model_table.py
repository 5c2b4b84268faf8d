#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Prints the markdown table of corpora/README.md from the shipped models' metadata (specdec.training).

    /usr/bin/python3 corpora/train/model_table.py corpora/*/models/*.onnx
"""
import json
import os
import sys

import onnx


def main():
    print("| model | architecture | context | params | file | train time | final train loss | held-out ppl (bits/char) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for path in sys.argv[1:]:
        m = onnx.load(path, load_external_data=False)
        meta = {p.key: p.value for p in m.metadata_props}
        s = json.loads(meta["specdec.training"])
        a = s["args"]
        arch = f"{a['layers']}L d{a['d_model']} h{a['heads']}" + (" tied" if a["tie"] else "") + \
            (f" drop {a['dropout']}" if a["dropout"] else "")
        print(f"| {meta['specdec.corpus']}/{os.path.basename(path)} | {arch} | {meta['specdec.context_length']} | "
              f"{s['params']:,} | {os.path.getsize(path) / 1e6:.2f} MB | {s['train_seconds'] / 60:.1f} min | "
              f"{s['final_train_loss']:.3f} | {s['heldout_ppl']:.3f} ({s['heldout_bits_per_char']:.3f}) |")


if __name__ == "__main__":
    main()
