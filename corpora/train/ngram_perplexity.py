#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Held-out per-character perplexity of interpolated modified Kneser-Ney character n-grams (Chen & Goodman 1998).

    /usr/bin/python3 corpora/train/ngram_perplexity.py /tmp/corpora/kjv.txt [--orders 2-8] [--heldout 0.05]

The split is the one train_char_model.py uses (corpus_split.py: --heldout-mode tail = the last --heldout
fraction of the text from a line boundary; blocks = every 1/fraction-th blank-line-separated block); counts come
only from the training text. The vocabulary is the sorted set of
distinct code points of the whole corpus (the one the engine and the ONNX models use), and the lowest order is
interpolated with the uniform distribution over it, so characters never seen in training still get probability.
Every held-out character is predicted once from the N-1 characters before it (which may reach back into the
training text, as the neural evaluator's context does).

Model of order N (interpolated, modified KN with three discounts per order):
  P_k(w | h) = max(a_k(hw) - D_k(a_k(hw)), 0) / S_k(h) + gamma_k(h) * P_{k-1}(w | h')      if S_k(h) > 0
             = P_{k-1}(w | h')                                                                otherwise
  gamma_k(h) = (D_k1 N1(h.) + D_k2 N2(h.) + D_k3 N3+(h.)) / S_k(h),   S_k(h) = sum_w a_k(hw)
  a_N = raw counts; a_k (k < N) = continuation counts N1+(. hw); P_0 = 1 / |V|.
  D_k1 = 1 - 2Y n2/n1, D_k2 = 2 - 3Y n3/n2, D_k3+ = 3 - 4Y n4/n3, Y = n1 / (n1 + 2 n2), from the counts-of-counts
  n1..n4 of a_k.

Implementation: n-grams are numbered by order: the id of the k-gram ending at position j is
rank_{k-1}[j-1] * |V| + token[j] (rank = index among the distinct (k-1)-grams of the training text), which fits
in int64 for any vocabulary; counting and lookup are numpy sorts and searchsorted.
"""

import argparse
import math
import sys

import os

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus_split import split_corpus  # noqa: E402




def discounts(counts):
    n = [int(np.sum(counts == i)) for i in range(1, 5)]
    if min(n) == 0:
        return np.array([0.0, 0.5, 1.0, 1.5])
    y = n[0] / (n[0] + 2 * n[1])
    d = [1 - 2 * y * n[1] / n[0], 2 - 3 * y * n[2] / n[1], 3 - 4 * y * n[3] / n[2]]
    d = [min(max(v, 0.0), float(i + 1)) for i, v in enumerate(d)]
    return np.array([0.0] + d)  # index by min(count, 3)


class Tables:
    """Per order k = 1..N: the distinct k-grams of the training text (sorted ids), their raw counts, the rank
    of their context ((k-1)-gram) and of their suffix (the k-1 last tokens), and the held-out ranks."""

    def __init__(self, train, held, vocab_size, max_order):
        V = vocab_size
        self.V = V
        self.uniq, self.count, self.ctx, self.suffix = [None], [None], [None], [None]
        n = len(train)
        prev_rank = np.zeros(n, dtype=np.int64)       # rank of the 0-gram ending at j: always 0
        # held-out: positions of the whole text (context may reach into the training text)
        full = np.concatenate([train, held])
        hpos = np.arange(len(train), len(full))        # positions whose token is predicted
        self.hrank = [np.zeros(len(hpos), dtype=np.int64)]  # rank of the k-gram ending at hpos (0-gram: 0)
        self.hctx = [None]                                  # rank of the (k-1)-gram ending at hpos-1
        # ranks of the (k-1)-gram ending at every position of the full text (-1: unseen in training)
        full_prev = np.zeros(len(full), dtype=np.int64)
        for k in range(1, max_order + 1):
            # training k-grams end at j = k-1 .. n-1
            j = np.arange(k - 1, n)
            ctx = prev_rank[j - 1] if k > 1 else np.zeros(len(j), dtype=np.int64)
            ids = ctx * V + train[j]
            uniq, first, inv, cnt = np.unique(ids, return_index=True, return_inverse=True, return_counts=True)
            rank = np.full(n, -1, dtype=np.int64)
            rank[j] = inv
            self.uniq.append(uniq)
            self.count.append(cnt.astype(np.int64))
            self.ctx.append(uniq // V)
            # suffix (k-1)-gram of this k-gram = the (k-1)-gram ending at the same position
            self.suffix.append(prev_rank[j[first]] if k > 1 else np.zeros(len(uniq), dtype=np.int64))
            # full-text ranks of k-grams (for held-out lookups)
            fj = np.arange(k - 1, len(full))
            fctx = full_prev[fj - 1] if k > 1 else np.zeros(len(fj), dtype=np.int64)
            fids = fctx * V + full[fj]
            pos = np.searchsorted(uniq, fids)
            pos_c = np.minimum(pos, len(uniq) - 1)
            found = (fctx >= 0) & (uniq[pos_c] == fids)
            new_full = np.full(len(full), -1, dtype=np.int64)
            new_full[fj] = np.where(found, pos_c, -1)
            self.hctx.append(full_prev[hpos - 1] if k > 1 else np.zeros(len(hpos), dtype=np.int64))
            self.hrank.append(new_full[hpos])
            full_prev = new_full
            prev_rank = rank
        self.max_order = max_order
        # continuation counts for orders < max_order: a_k(u) = number of distinct (k+1)-grams whose suffix is u
        self.cont = [None]
        for k in range(1, max_order):
            self.cont.append(np.bincount(self.suffix[k + 1], minlength=len(self.uniq[k])).astype(np.int64))
        self.cont.append(None)

    def order_stats(self, k, a):
        """Context statistics of order k for counts a (per distinct k-gram)."""
        n_ctx = len(self.uniq[k - 1]) if k > 1 else 1
        D = discounts(a[a > 0])
        S = np.bincount(self.ctx[k], weights=a, minlength=n_ctx)
        capped = np.minimum(a, 3)
        G = np.zeros(n_ctx)
        for c in (1, 2, 3):
            G += D[c] * np.bincount(self.ctx[k], weights=(capped == c).astype(np.float64), minlength=n_ctx)
        return D, S, G

    def log_prob(self, order):
        """Natural-log probabilities of every held-out character under the order-`order` model."""
        p = np.full(len(self.hrank[0]), 1.0 / self.V)
        for k in range(1, order + 1):
            a = self.count[k] if k == order else self.cont[k]
            D, S, G = self.order_stats(k, a.astype(np.float64))
            hctx = self.hctx[k]
            hr = self.hrank[k]
            hc = np.maximum(hctx, 0)
            s = np.where(hctx >= 0, S[hc], 0.0)             # unseen context: back off entirely
            ahw = np.where(hr >= 0, a[np.maximum(hr, 0)], 0.0)
            disc = D[np.minimum(ahw, 3).astype(np.int64)]
            use = s > 0
            ssafe = np.where(use, s, 1.0)
            g = np.where(use, G[hc], 0.0)
            p = np.where(use, np.maximum(ahw - disc, 0.0) / ssafe + g / ssafe * p, p)
        return np.log(p)

    def dense_probs(self, order):
        """The full order-`order` distribution at every held-out position: float32 [positions, V] (rows sum to 1).
        The same recursion as log_prob, for every w at once: each order adds the discounted counts of the
        successors its context has seen, and scales the lower order by gamma."""
        H = len(self.hrank[0])
        p = np.full((H, self.V), 1.0 / self.V, dtype=np.float64)
        for k in range(1, order + 1):
            a = (self.count[k] if k == order else self.cont[k]).astype(np.float64)
            D, S, G = self.order_stats(k, a)
            hctx = self.hctx[k]
            hc = np.maximum(hctx, 0)
            s = np.where(hctx >= 0, S[hc], 0.0)
            use = s > 0
            ssafe = np.where(use, s, 1.0)
            # scale the lower order by gamma where the context was seen (elsewhere: back off entirely)
            p *= np.where(use, G[hc] / ssafe, 1.0)[:, None]
            # successors of each context: k-grams are sorted by id = ctx * V + w, so by context
            lo = np.searchsorted(self.ctx[k], hc, side="left")
            hi = np.searchsorted(self.ctx[k], hc, side="right")
            n = np.where(use, hi - lo, 0)
            rows = np.repeat(np.arange(H), n)
            starts = np.repeat(lo - np.concatenate([[0], np.cumsum(n)[:-1]]), n)
            entry = np.arange(len(rows)) + starts
            w = self.uniq[k][entry] % self.V
            add = np.maximum(a[entry] - D[np.minimum(a[entry], 3).astype(np.int64)], 0.0) / ssafe[rows]
            np.add.at(p, (rows, w), add)
        return p.astype(np.float32)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus_file")
    ap.add_argument("--orders", default="2-8", help="range of orders, e.g. 2-8")
    ap.add_argument("--heldout", type=float, default=0.05)
    ap.add_argument("--heldout-mode", choices=["tail", "blocks"], default="tail")
    args = ap.parse_args()
    with open(args.corpus_file, encoding="utf-8") as f:
        text = f.read()
    vocab = sorted(set(text))
    index = {ch: i for i, ch in enumerate(vocab)}
    train, held = split_corpus(text, args.heldout, args.heldout_mode)
    ids = np.fromiter((index[ch] for ch in train + held), dtype=np.int64, count=len(text))
    split = len(train)
    lo, hi = (int(v) for v in args.orders.split("-"))
    tables = Tables(ids[:split], ids[split:], len(vocab), hi)
    print(f"{args.corpus_file}: {len(text)} chars, vocab {len(vocab)}, train {split}, held-out {len(text) - split}")
    best = None
    for order in range(lo, hi + 1):
        lp = tables.log_prob(order)
        nll = -float(lp.mean())
        ppl = math.exp(nll)
        print(f"order {order}: held-out ppl {ppl:.4f}  ({nll / math.log(2):.4f} bits/char)", flush=True)
        if best is None or ppl < best[1]:
            best = (order, ppl)
    print(f"best: order {best[0]}, ppl {best[1]:.4f}")


if __name__ == "__main__":
    sys.exit(main())
