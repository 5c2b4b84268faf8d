#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Train a small causal character transformer on a corpus and export it as an ONNX model for specdec-lab.

    /usr/bin/python3 corpora/train/train_char_model.py --corpus-file /tmp/corpora/kjv.txt --corpus kjv \
        --out corpora/kjv/models/draft-small.onnx --layers 2 --d-model 64 --heads 4 --context 64 --steps 3000 --lr 3e-3

Uses Debian's python3-torch (1.13) and python3-onnx (1.12); neither is needed to run the app.

Data
- The vocabulary is the sorted set of distinct code points of the WHOLE corpus text (token id = rank), the
  same vocabulary the engine builds for an n-gram model of that corpus, so n-gram drafts and these models match.
- Held-out split (corpus_split.py, the same as ngram_perplexity.py's): --heldout-mode tail = the last --heldout
  fraction of the text from a line boundary (kjv); blocks = every 1/fraction-th poem (tang-song). Training
  windows are drawn only from the training text.
- Held-out perplexity is per character: every character of the held-out text is predicted once, with a
  context of at least context/2 + 1 characters (sliding windows with stride context/2; the context may reach
  back into the training text, as the n-gram evaluator's does).

Model (pre-LayerNorm GPT-style, hand-written attention so the export uses only plain ONNX operators)
- token embedding + learned position embedding (sliced to the actual sequence length)
- N blocks: x += Attn(LN(x)); x += MLP(LN(x)) with MLP = Linear(d, 4d), GELU (tanh form), Linear(4d, d)
- final LayerNorm, then the unembedding (tied to the token embedding plus a bias with --tie, else its own
  Linear); --unigram-bias starts the output bias at the log unigram frequencies
- causal mask: an additive constant buffer [context, context] (0 on/below the diagonal, -1e9 above), sliced to
  the sequence length at run time.

Export contract (docs/model-format.md)
- opset 17; input 0 "tokens" int64 [batch, sequence]; output 0 "logits" float32 [batch, sequence, vocab],
  batch and sequence dynamic; position t = logits of the token after position t.
- metadata_props: specdec.vocab (JSON array of single-character strings), specdec.context_length,
  specdec.corpus, specdec.description.
- Parity data next to the model: NAME.parity/input_0.pb (int64 [1, L], a held-out snippet) and
  NAME.parity/output_0.pb (float32 [1, L, vocab], the logits torch computed), TensorProtos.
- After export: onnx.checker (full), shape inference, the list of op types checked against the operators the
  C++ executor supports, and the exported graph run by a small numpy evaluator (onnx_numpy_eval.py) at several
  sequence lengths and batch sizes, compared with torch.
"""

import argparse
import json
import math
import os
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus_split import split_corpus  # noqa: E402

SUPPORTED_OPS = set("""Add Sub Mul Div Pow Sqrt Reciprocal Neg Abs Exp Log Erf Tanh Sigmoid Relu Clip Max Min Where
Equal Less Greater Not And Or Cast MatMul Gemm Softmax LogSoftmax ReduceMean ReduceSum ReduceMax Transpose Reshape
Flatten Squeeze Unsqueeze Concat Split Slice Gather Shape Size ConstantOfShape Constant Identity Dropout Expand Range
Trilu Tile CumSum LayerNormalization GRU LSTM""".split())


# ----------------------------------------------------------------------------------------------------- data

def load_corpus(path, heldout_fraction, heldout_mode):
    """Returns (text, vocab list, ids int64 array, split index): ids = training text then held-out text
    (corpus_split.split_corpus), split = the index of the first held-out character."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    vocab = sorted(set(text))
    index = {ch: i for i, ch in enumerate(vocab)}
    train, held = split_corpus(text, heldout_fraction, heldout_mode)
    both = train + held
    ids = np.fromiter((index[ch] for ch in both), dtype=np.int64, count=len(both))
    return text, vocab, ids, len(train)


# ---------------------------------------------------------------------------------------------------- model

class Block(nn.Module):
    def __init__(self, d, heads, dropout):
        super().__init__()
        self.heads = heads
        self.d = d
        self.hd = d // heads
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, 4 * d)
        self.fc2 = nn.Linear(4 * d, d)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, mask):
        b, t = x.shape[0], x.shape[1]
        d, h, hd = self.d, self.heads, self.hd
        qkv = self.qkv(self.ln1(x))
        q, k, v = qkv.split(d, dim=2)
        q = q.reshape(b, t, h, hd).transpose(1, 2)            # b h t hd
        k = k.reshape(b, t, h, hd).permute(0, 2, 3, 1)         # b h hd t
        v = v.reshape(b, t, h, hd).transpose(1, 2)             # b h t hd
        att = torch.matmul(q, k) * (1.0 / math.sqrt(hd)) + mask
        att = self.drop(torch.softmax(att, dim=-1))
        y = torch.matmul(att, v).transpose(1, 2).reshape(b, t, d)
        x = x + self.drop(self.proj(y))
        x = x + self.drop(self.fc2(F.gelu(self.fc1(self.ln2(x)), approximate="tanh")))
        return x


class CharTransformer(nn.Module):
    def __init__(self, vocab_size, context, layers, d, heads, dropout, tie):
        super().__init__()
        self.context = context
        self.tok = nn.Embedding(vocab_size, d)
        self.pos = nn.Parameter(torch.zeros(context, d))
        self.drop = nn.Dropout(dropout)
        self.blocks = nn.ModuleList(Block(d, heads, dropout) for _ in range(layers))
        self.ln_f = nn.LayerNorm(d)
        self.tie = tie
        self.head = None if tie else nn.Linear(d, vocab_size)
        self.out_bias = nn.Parameter(torch.zeros(vocab_size)) if tie else None
        # --unigram-mix: p = (1 - lam) softmax(logits) + lam u, u = a fixed unigram distribution, lam learned;
        # the output is then log p (valid logits). Guards rare characters against an overconfident softmax.
        self.mix_logit = None
        self.register_buffer("unigram", torch.full((vocab_size,), 1.0 / vocab_size))
        mask = torch.full((context, context), -1e9).triu(1)
        self.register_buffer("mask", mask, persistent=False)
        self.apply(self._init)
        nn.init.normal_(self.pos, std=0.02)
        for blk in self.blocks:  # GPT-2 style scaled init of the residual projections
            nn.init.normal_(blk.proj.weight, std=0.02 / math.sqrt(2 * layers))
            nn.init.normal_(blk.fc2.weight, std=0.02 / math.sqrt(2 * layers))

    @staticmethod
    def _init(m):
        if isinstance(m, nn.Linear):
            nn.init.normal_(m.weight, std=0.02)
            nn.init.zeros_(m.bias)
        elif isinstance(m, nn.Embedding):
            nn.init.normal_(m.weight, std=0.02)

    def forward(self, tokens):
        t = tokens.shape[1]
        x = self.drop(self.tok(tokens) + self.pos[:t])
        mask = self.mask[:t, :t]
        for blk in self.blocks:
            x = blk(x, mask)
        x = self.ln_f(x)
        z = torch.matmul(x, self.tok.weight.t()) + self.out_bias if self.tie else self.head(x)
        if self.mix_logit is None:
            return z
        lam = torch.sigmoid(self.mix_logit)
        return torch.log((1.0 - lam) * torch.softmax(z, dim=-1) + lam * self.unigram)


def count_params(model):
    return sum(p.numel() for p in model.parameters())


# ------------------------------------------------------------------------------------------------- training

def lr_at(step, steps, lr, warmup, decay_start=None):
    """Linear warmup, then either a cosine decay to lr/10 at `steps`, or (decay_start set) a constant lr until
    decay_start followed by a linear decay to lr/10 at `steps` (warmup-stable-decay)."""
    if step < warmup:
        return lr * (step + 1) / warmup
    if decay_start is not None:
        if step < decay_start:
            return lr
        return lr * (1.0 - 0.9 * (step - decay_start) / max(1, steps - decay_start))
    progress = (step - warmup) / max(1, steps - warmup)
    return lr * (0.1 + 0.9 * 0.5 * (1.0 + math.cos(math.pi * progress)))


@torch.no_grad()
def heldout_nll(model, ids, split, context, limit=None, batch=32):
    """Mean negative log-likelihood (nats) per held-out character; see the module docstring."""
    model.eval()
    end = len(ids) if limit is None else min(len(ids), split + limit)
    half = context // 2
    starts = list(range(split - 1 - half, end - 1 - half, half))  # window a: inputs ids[a:a+context]
    total, count = 0.0, 0
    data = torch.from_numpy(ids)
    for i in range(0, len(starts), batch):
        group = starts[i:i + batch]
        lens = [min(context, end - 1 - a) for a in group]
        L = max(lens)
        x = torch.stack([F.pad(data[a:a + L], (0, L - len(data[a:a + L]))) for a in group])
        logp = torch.log_softmax(model(x), dim=-1)
        for r, a in enumerate(group):
            lo = max(half, split - 1 - a)          # first scored input position in this window
            hi = lens[r]                           # scored positions p in [lo, hi): target ids[a+p+1]
            if hi <= lo:
                continue
            tgt = data[a + 1 + lo:a + 1 + hi]
            total -= logp[r, torch.arange(lo, hi), tgt].sum().item()
            count += hi - lo
    model.train()
    return total / count, count


def load_onnx_weights(model, path):
    """Copies the weights of a model exported by this script back into `model` (same architecture): named
    initializers map to parameters directly; a MatMul by an initializer in node /<module path>/MatMul holds the
    transposed weight of that Linear. Files re-exported by export_with_past.py (the decoder-with-past layout)
    name the same weights under "base."."""
    import onnx
    from onnx import numpy_helper
    m = onnx.load(path)
    unprefix = lambda n: n[len("base."):] if n.startswith("base.") else n  # noqa: E731
    # A float16 initializer X_fp16 read by Cast(to=float) -> X (export_with_past.py --float16) stands for X.
    casts = {n.input[0]: n.output[0] for n in m.graph.node if n.op_type == "Cast"}
    stored = {t.name: casts.get(t.name, t.name) if t.data_type == onnx.TensorProto.FLOAT16 else t.name
              for t in m.graph.initializer}
    inits = {unprefix(stored[t.name]): numpy_helper.to_array(t).astype(np.float32) for t in m.graph.initializer}
    by_value = {stored[t.name]: unprefix(stored[t.name]) for t in m.graph.initializer}
    state = model.state_dict()
    loaded = set()
    for name, value in inits.items():
        if name in state:
            state[name] = torch.from_numpy(value.copy())
            loaded.add(name)
    for node in m.graph.node:
        if node.op_type == "MatMul" and node.input[1] in by_value and node.name.endswith("/MatMul"):
            key = unprefix(node.name.strip("/").rsplit("/", 1)[0].replace("/", ".") + ".weight")
            if key in state:
                state[key] = torch.from_numpy(inits[by_value[node.input[1]]].T.copy())
                loaded.add(key)
    missing = [k for k in state if k not in loaded and k not in ("mask", "unigram")]
    if missing:
        raise SystemExit(f"--init-from {path}: no weights for {missing}")
    model.load_state_dict(state)
    print(f"initialised from {path}", flush=True)


def rebuild_from_file(path, vocab_size):
    """A model this script exported (.onnx, either layout), rebuilt in PyTorch from its `specdec.training`
    metadata and weights, in eval mode. Returns (model, args of its training run)."""
    import onnx
    meta = {p.key: p.value for p in onnx.load(path, load_external_data=False).metadata_props}
    a = json.loads(meta["specdec.training"])["args"]
    if a.get("unigram_mix"):
        raise SystemExit(f"{path}: models with --unigram-mix are not supported")
    model = CharTransformer(vocab_size, a["context"], a["layers"], a["d_model"], a["heads"], 0.0, a["tie"])
    load_onnx_weights(model, path)
    model.eval()
    return model, a


def extend_positions(old, context, mode):
    """The position table [C, d] extended to `context` rows (rows 0..C-1 kept). Positions past C were never
    trained, so they are initialised from trained rows (--pos-init):
      tile:   row p >= C copies row C/2 + (p - C) mod (C/2): the second half of the table repeated, so a query
              and its recent keys keep (except across a seam) the offsets they had inside that half;
      last:   row p >= C copies row C - 1 (every far position looks like the last trained one);
      mean:   row p >= C is the mean of rows C/2..C-1 (no position signal past C)."""
    C, d = old.shape
    if context <= C:
        return old[:context].clone()
    new = torch.empty(context, d, dtype=old.dtype)
    new[:C] = old
    far = torch.arange(C, context)
    if mode == "tile":
        half = C // 2
        new[C:] = old[half + (far - C) % half]
    elif mode == "last":
        new[C:] = old[C - 1]
    elif mode == "mean":
        new[C:] = old[C // 2:].mean(0)
    else:
        raise SystemExit(f"--pos-init: unknown mode {mode}")
    return new


@torch.no_grad()
def grow_into(model, src, pos_init, noise, seed, readers="first"):
    """Net2Net (Chen, Goodfellow & Shlens 2016) growth of `src` into the wider, deeper, longer `model`, so that
    `model` computes the same logits as `src` (up to rounding) on every window src could read:
    - width: d_model, the MLP width and the number of heads grow by the same integer factor r; every residual
      channel i of the new model is a copy of old channel i mod d (so LayerNorm's mean and variance, and
      hence its output, are the old ones repeated r times); the query/key/value heads are the old heads
      repeated r times (head size unchanged); every weight that writes a repeated vector repeats its rows;
      a weight that reads one (--grow-readers) either reads only the first copy (first: the other copies'
      columns are zero, so the grown weights are the old values or 0 and float16 holds them exactly; the
      copies still diverge, because their readers differ) or all copies divided by r (spread);
    - depth: the old blocks keep their order; the new blocks are interleaved after them (old block i is
      block i * L' / L) and start as identities: their output projections (proj, fc2) are zero, so x += 0;
    - context: the position table is extended (extend_positions);
    - `noise` (relative): every grown matrix gets Gaussian noise of `noise` times its own std, which breaks
      the symmetry between the copies (without it they would receive identical gradients forever)."""
    d0, d1 = src.tok.weight.shape[1], model.tok.weight.shape[1]
    L0, L1 = len(src.blocks), len(model.blocks)
    h0, h1 = src.blocks[0].heads, model.blocks[0].heads
    if d1 % d0 or h1 * d0 != h0 * d1 or L1 < L0 or src.tie != model.tie:
        raise SystemExit(f"--grow-from: cannot grow d {d0}, {h0} heads, {L0} layers into d {d1}, {h1} heads, "
                         f"{L1} layers (d and heads must grow by the same integer factor, layers must not shrink)")
    r = d1 // d0
    gen = torch.Generator().manual_seed(seed)

    def rep(n_new, n_old):  # index of the old channel each new channel copies
        return torch.arange(n_new) % n_old

    def widen(w, rows, cols):
        """w [out0, in0] -> [out1, in1]: rows repeated (writers); columns for the repeated input (readers)."""
        out = w
        if rows:
            out = out[rep(out.shape[0] * r, out.shape[0])]
        if cols and readers == "first":
            out = torch.cat([out, torch.zeros(out.shape[0], out.shape[1] * (r - 1), dtype=out.dtype)], dim=1)
        elif cols:
            out = out[:, rep(out.shape[1] * r, out.shape[1])] / r
        return out.clone()

    def jitter(t):
        if noise > 0 and t.numel() > 1:
            t += torch.randn(t.shape, generator=gen) * (noise * float(t.std()))
        return t

    dst = dict(model.state_dict())
    out = {}
    out["tok.weight"] = jitter(widen(src.tok.weight, False, False)[:, rep(d1, d0)].clone())
    out["pos"] = jitter(extend_positions(src.pos, model.context, pos_init)[:, rep(d1, d0)].clone())
    out["ln_f.weight"] = src.ln_f.weight[rep(d1, d0)].clone()
    out["ln_f.bias"] = src.ln_f.bias[rep(d1, d0)].clone()
    if model.tie:
        out["out_bias"] = src.out_bias.clone()
    else:
        out["head.weight"] = jitter(widen(src.head.weight, False, True))
        out["head.bias"] = src.head.bias.clone()
    place = [i * L1 // L0 for i in range(L0)]
    for j in range(L1):
        pre = f"blocks.{j}."
        if j not in place:  # a new identity block: fresh readers, zero writers
            for name in ("proj.weight", "proj.bias", "fc2.weight", "fc2.bias"):
                out[pre + name] = torch.zeros_like(dst[pre + name])
            continue
        b = src.blocks[place.index(j)]
        for ln in ("ln1", "ln2"):
            out[pre + ln + ".weight"] = getattr(b, ln).weight[rep(d1, d0)].clone()
            out[pre + ln + ".bias"] = getattr(b, ln).bias[rep(d1, d0)].clone()
        # qkv: [3 d0, d0] -> [3 d1, d1]: each of q, k, v repeated (the heads repeated), the input divided by r.
        q, k, v = b.qkv.weight.split(d0, dim=0)
        out[pre + "qkv.weight"] = jitter(torch.cat([widen(w, True, True) for w in (q, k, v)]))
        out[pre + "qkv.bias"] = torch.cat([t[rep(d1, d0)] for t in b.qkv.bias.split(d0)]).clone()
        out[pre + "proj.weight"] = jitter(widen(b.proj.weight, True, True))
        out[pre + "proj.bias"] = b.proj.bias[rep(d1, d0)].clone()
        out[pre + "fc1.weight"] = jitter(widen(b.fc1.weight, True, True))
        out[pre + "fc1.bias"] = b.fc1.bias[rep(4 * d1, 4 * d0)].clone()
        out[pre + "fc2.weight"] = jitter(widen(b.fc2.weight, True, True))
        out[pre + "fc2.bias"] = b.fc2.bias[rep(d1, d0)].clone()
    for name, value in out.items():
        if dst[name].shape != value.shape:
            raise SystemExit(f"--grow-from: {name} grown to {list(value.shape)}, the model has {list(dst[name].shape)}")
        dst[name] = value
    model.load_state_dict(dst)
    print(f"grown from d {d0}, {h0} heads, {L0} layers, context {src.context} to d {d1}, {h1} heads, {L1} layers, "
          f"context {model.context} (old blocks at {place}, positions past {src.context}: {pos_init}, "
          f"noise {noise})", flush=True)


def with_soft_targets(loss, logits, soft, weight):
    """(1 - weight) * loss + weight * the cross-entropy of `logits` against the distributions `soft`."""
    soft_ce = -(soft * F.log_softmax(logits, dim=-1)).sum(-1).mean()
    return (1 - weight) * loss + weight * soft_ce


def ngram_teacher(train, vocab_size, order, folds):
    """Cross-fitted Kneser-Ney distributions for distillation: the training text is cut into `folds` pieces and
    the rows of each piece come from an order-`order` KN model trained on the other pieces, so the teacher
    never saw the character it predicts. float32 tensor [len(train), V]; row j predicts train[j]."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from ngram_perplexity import Tables
    n = len(train)
    cuts = [round(n * f / folds) for f in range(folds + 1)]
    rows = []
    nll = 0.0
    for f in range(folds):
        piece = train[cuts[f]:cuts[f + 1]]
        rest = np.concatenate([train[:cuts[f]], train[cuts[f + 1]:]])
        p = Tables(rest, piece, vocab_size, order).dense_probs(order)
        nll -= float(np.log(p[np.arange(len(piece)), piece]).sum())
        rows.append(p)
    print(f"n-gram teacher: order {order}, {folds} folds, cross-fitted ppl on the training text "
          f"{math.exp(nll / n):.2f}", flush=True)
    return torch.from_numpy(np.concatenate(rows))


def load_guide(path, vocab_size):
    """A model this script exported, rebuilt in PyTorch from its `specdec.training` metadata and weights, in
    eval mode: the target a draft is distilled from."""
    import onnx
    meta = {p.key: p.value for p in onnx.load(path, load_external_data=False).metadata_props}
    a = json.loads(meta["specdec.training"])["args"]
    if a.get("unigram_mix"):
        raise SystemExit(f"--distill-from {path}: models with --unigram-mix are not supported")
    guide = CharTransformer(vocab_size, a["context"], a["layers"], a["d_model"], a["heads"], 0.0, a["tie"])
    load_onnx_weights(guide, path)
    guide.eval()
    for p in guide.parameters():
        p.requires_grad_(False)
    print(f"distilling from {path}: {a['layers']} layers, d {a['d_model']}, context {a['context']}", flush=True)
    return guide


@torch.no_grad()
def nll_by_position(model, ids, split, bands, windows=64):
    """Mean held-out NLL (nats) of `model` over the positions of each band [lo, hi) of full-context windows:
    `windows` windows of model.context characters spread evenly over the held-out text."""
    model.eval()
    C = model.context
    starts = np.linspace(split, len(ids) - C - 1, windows).astype(np.int64)
    data = torch.from_numpy(ids)
    total = torch.zeros(C, dtype=torch.float64)
    for i in range(0, windows, 8):
        x = torch.stack([data[a:a + C] for a in starts[i:i + 8]])
        y = torch.stack([data[a + 1:a + C + 1] for a in starts[i:i + 8]])
        logp = torch.log_softmax(model(x), dim=-1)
        total -= logp.gather(2, y[:, :, None])[:, :, 0].double().sum(0)
    model.train()
    return [float(total[lo:hi].mean()) / windows for lo, hi in bands]


def grow_checked(model, args, ids, split):
    """--grow-from: grows the source model into `model` (grow_into) and checks, before any training, that the
    grown network computes the source's logits on held-out windows of the source's context (max |diff| <= 1e-4;
    first without noise, then reported with it). --pos-init compare measures each position initialisation
    (held-out NLL at positions < C and C..context-1 of full windows) and uses the best."""
    src, _ = rebuild_from_file(args.grow_from, model.tok.weight.shape[0])
    C = src.context
    data = torch.from_numpy(ids)
    x = torch.stack([data[a:a + C] for a in range(split, split + 8 * 997, 997)])
    with torch.no_grad():
        ref = src(x)
    if args.pos_init == "compare" and model.context <= C:
        args.pos_init = "tile"  # no new positions: nothing to compare
    modes = ["tile", "last", "mean"] if args.pos_init == "compare" else [args.pos_init]
    best = None
    for mode in modes:
        grow_into(model, src, mode, 0.0, args.seed, args.grow_readers)
        with torch.no_grad():
            diff = float((model(x) - ref).abs().max())
        print(f"grown network vs {args.grow_from}: max |logit diff| {diff:.2e} over {x.shape[0]} held-out windows "
              f"of {C}", flush=True)
        if diff > 1e-4:
            raise SystemExit("--grow-from: the grown network does not compute the source's function")
        if model.context > C:
            near, far = nll_by_position(model, ids, split, [(0, C), (C, model.context)])
            print(f"  --pos-init {mode}: held-out nll {near:.4f} nats at positions 0..{C - 1}, {far:.4f} at "
                  f"{C}..{model.context - 1}", flush=True)
            if best is None or far < best[1]:
                best = (mode, far)
    if best is not None:
        args.pos_init = best[0]
    if args.grow_noise > 0 or len(modes) > 1:
        grow_into(model, src, args.pos_init, args.grow_noise, args.seed, args.grow_readers)
        with torch.no_grad():
            diff = float((model(x) - ref).abs().max())
        print(f"with --pos-init {args.pos_init} and noise {args.grow_noise}: max |logit diff| {diff:.2e}", flush=True)


def train(args, vocab, ids, split):
    torch.manual_seed(args.seed)
    model = CharTransformer(len(vocab), args.context, args.layers, args.d_model, args.heads, args.dropout, args.tie)
    if args.init_from.endswith(".pt"):
        model.load_state_dict(torch.load(args.init_from)["model"])
        print(f"initialised from checkpoint {args.init_from}", flush=True)
    elif args.init_from:
        load_onnx_weights(model, args.init_from)
    if args.grow_from:
        if args.init_from:
            raise SystemExit("--grow-from and --init-from exclude each other (resume a grown run with --init-from CKPT.pt)")
        grow_checked(model, args, ids, split)
    if args.unigram_bias:
        # Start from the unigram distribution of the training text (add-0.5 smoothed): the output bias holds
        # log p(w), so rare characters start with their frequency instead of 1/|V|.
        counts = np.bincount(ids[:split], minlength=len(vocab)).astype(np.float64) + 0.5
        bias = torch.from_numpy(np.log(counts / counts.sum()).astype(np.float32))
        with torch.no_grad():
            (model.out_bias if args.tie else model.head.bias).copy_(bias)
    if args.unigram_mix:
        counts = np.bincount(ids[:split], minlength=len(vocab)).astype(np.float64) + 0.5
        model.unigram.copy_(torch.from_numpy((counts / counts.sum()).astype(np.float32)))
        model.mix_logit = nn.Parameter(torch.tensor(math.log(args.unigram_mix / (1 - args.unigram_mix))))
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2 and n != "pos"]
    no_decay = [p for n, p in model.named_parameters() if p.dim() < 2]
    # The position table has its own group: --pos-lr-scale lets new positions (a grown context) learn faster
    # than the weights the grown function keeps.
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": args.weight_decay},
                             {"params": no_decay, "weight_decay": 0.0},
                             {"params": [model.pos], "weight_decay": 0.0, "lr_scale": args.pos_lr_scale}],
                            lr=args.lr, betas=(0.9, 0.98))
    gen = torch.Generator().manual_seed(args.seed)
    train_ids = torch.from_numpy(ids[:split])
    teacher = ngram_teacher(ids[:split], len(vocab), args.teacher_ngram, args.teacher_folds) if args.teacher_ngram else None
    guide = load_guide(args.distill_from, len(vocab)) if args.distill_from else None
    # With a guide model, each window is as long as the longer of the two contexts: the guide scores it whole
    # and the student reads its last `context` characters, so the guide's rows carry its own full context.
    # --guide-context shortens the guide's window (its cost grows with it; a guide of 22 M parameters over
    # windows of 512 would take most of a CPU step).
    guide_span = min(args.guide_context or guide.context, guide.context) if guide is not None else 0
    span = max(args.context, guide_span)
    n_windows = split - span - 1
    offsets = torch.arange(span + 1)
    print(f"params {count_params(model)}  vocab {len(vocab)}  train chars {split}  held-out chars {len(ids) - split}",
          flush=True)
    t0 = time.time()
    smooth = None
    log = []
    step = 0
    while step < args.steps:
        if args.time_budget and args.decay_start is None and time.time() - t0 >= 0.7 * args.time_budget:
            # Time-budgeted run: start the decay now and give it 3/7 of the steps done so far. The schedule is
            # then fixed; rerunning with the printed --steps/--decay-start reproduces this run exactly.
            args.decay_start = step
            args.steps = step + max(1, round(step * 3 / 7))
            print(f"time budget: decay from step {args.decay_start} to {args.steps} "
                  f"(reproduce with --steps {args.steps} --decay-start {args.decay_start})", flush=True)
        for g in opt.param_groups:
            decay_start = args.decay_start
            if decay_start is None and args.time_budget:
                decay_start = args.steps  # constant lr until the budget decides where the decay starts
            g["lr"] = lr_at(step, args.steps, args.lr, args.warmup, decay_start) * g.get("lr_scale", 1.0)
        starts = torch.randint(0, n_windows, (args.batch,), generator=gen)
        chunk = train_ids[starts[:, None] + offsets]
        x, y = chunk[:, span - args.context:-1], chunk[:, span - args.context + 1:]
        logits = model(x)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1),
                               label_smoothing=args.label_smoothing)
        if teacher is not None:
            # Distillation: also match the n-gram's smoothed distribution at each target position.
            soft = teacher[starts[:, None] + offsets[span - args.context + 1:]]
            loss = with_soft_targets(loss, logits, soft, args.teacher_weight)
        if guide is not None:
            # Distillation from the target the draft will serve (DistillSpec, Zhou et al. 2023): match its
            # distribution at every position, so the draft proposes what the target would accept.
            with torch.no_grad():
                soft = F.softmax(guide(chunk[:, :-1])[:, span - args.context:], dim=-1)
            loss = with_soft_targets(loss, logits, soft, args.distill_weight)
            if args.distill_tv:
                # The total variation to the guide: 1 - the acceptance at T = 1 of a draft sampling q against
                # p, the quantity speculative sampling pays for (DistillSpec's TVD objective).
                tv = 0.5 * (F.softmax(logits, dim=-1) - soft).abs().sum(-1).mean()
                loss = loss + args.distill_tv * tv
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        smooth = loss.item() if smooth is None else 0.98 * smooth + 0.02 * loss.item()
        if (step + 1) % args.log_every == 0 or step == 0:
            msg = f"step {step + 1:6d}  loss {loss.item():.4f}  smoothed {smooth:.4f}  {time.time() - t0:7.1f}s"
            if args.eval_every and (step + 1) % args.eval_every == 0:
                nll, _ = heldout_nll(model, ids, split, args.context, limit=args.eval_chars)
                msg += f"  held-out(first {args.eval_chars}) ppl {math.exp(nll):.3f}"
            print(msg, flush=True)
            log.append((step + 1, smooth))
            if args.checkpoint:  # weights only; export a partial run with --init-from CKPT.pt --steps 0
                torch.save({"model": model.state_dict(), "step": step + 1}, args.checkpoint + ".tmp")
                os.replace(args.checkpoint + ".tmp", args.checkpoint)
        step += 1
    train_time = time.time() - t0
    if args.float16_weights:
        # The weights as a float16 file stores them (export_with_past.py --float16): every figure below, the
        # export and its parity data are then those of the shipped values.
        with torch.no_grad():
            for p in model.parameters():
                p.copy_(p.half().float())
    # Final training loss: mean over the last 50 steps, measured in eval mode (no dropout) on fresh batches.
    model.eval()
    with torch.no_grad():
        losses = []
        for _ in range(10):
            starts = torch.randint(0, n_windows, (args.batch,), generator=gen)
            chunk = train_ids[starts[:, None] + offsets][:, span - args.context:]
            logits = model(chunk[:, :-1])
            losses.append(F.cross_entropy(logits.reshape(-1, logits.shape[-1]), chunk[:, 1:].reshape(-1)).item())
    model.train()
    final = float(np.mean(losses))
    return model, train_time, final if smooth is None else smooth, final


# --------------------------------------------------------------------------------------------------- export

def inline_identities(m):
    """torch.onnx.export stores equal initializers once and reads the copies through Identity nodes (a grown
    model's new blocks start with equal LayerNorm weights and zero projections). Each such Identity becomes an
    initializer of its own again, under the name the graph reads: the weights stay constants an executor packs
    at load, and load_onnx_weights finds every parameter by name."""
    from onnx import numpy_helper
    inits = {t.name: t for t in m.graph.initializer}
    kept, added = [], 0
    for n in m.graph.node:
        if n.op_type == "Identity" and n.input[0] in inits:
            m.graph.initializer.append(numpy_helper.from_array(numpy_helper.to_array(inits[n.input[0]]), n.output[0]))
            added += 1
        else:
            kept.append(n)
    if added:
        del m.graph.node[:]
        m.graph.node.extend(kept)
        print(f"{added} shared initializers stored under their own names (no Identity nodes)")


def export(model, args, vocab, ids, split, stats):
    import onnx
    from onnx import numpy_helper
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import onnx_numpy_eval

    model.eval()
    out = args.out
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    dummy = torch.from_numpy(ids[split:split + min(16, args.context)].copy())[None, :]
    torch.onnx.export(model, (dummy,), out, opset_version=17, input_names=["tokens"], output_names=["logits"],
                      dynamic_axes={"tokens": {0: "batch", 1: "sequence"}, "logits": {0: "batch", 1: "sequence"}},
                      do_constant_folding=True)
    m = onnx.load(out)
    inline_identities(m)
    meta = {
        "specdec.vocab": json.dumps(vocab, ensure_ascii=False),
        "specdec.context_length": str(args.context),
        "specdec.corpus": args.corpus,
        "specdec.description": args.description or
        (f"{args.layers}-layer causal char transformer, d={args.d_model}, {args.heads} heads, "
         f"context {args.context}, {count_params(model) / 1e6:.2f}M params"
         + (", tied embedding" if args.tie else "")
         + (f", grown (Net2Net) from {os.path.basename(args.grow_from)}; learned absolute positions: past "
            f"{args.context} tokens the cache refills from a new window start" if args.grow_from else "")),
        "specdec.training": json.dumps(stats, ensure_ascii=False),
    }
    del m.metadata_props[:]
    for k, v in meta.items():
        p = m.metadata_props.add()
        p.key, p.value = k, v
    m.producer_name = "specdec-lab corpora/train/train_char_model.py"
    m.doc_string = meta["specdec.description"]
    onnx.save(m, out)

    # Checks: full checker, strict shape inference, operator list.
    onnx.checker.check_model(out, full_check=True)
    inferred = onnx.shape_inference.infer_shapes(m, check_type=True, strict_mode=True)
    ops = sorted({n.op_type for n in m.graph.node})
    bad = [o for o in ops if o not in SUPPORTED_OPS]
    print("opset", [(o.domain or "ai.onnx", o.version) for o in m.opset_import])
    print("ops", " ".join(ops))
    print("output shape", [d.dim_param or d.dim_value for d in inferred.graph.output[0].type.tensor_type.shape.dim])
    if bad:
        raise SystemExit(f"unsupported operators in the exported graph: {bad}")

    # The exported graph run by the numpy evaluator against torch at several lengths and batch sizes.
    rng = np.random.default_rng(args.seed)
    worst = 0.0
    for b, L in [(1, 1), (1, 2), (2, 7), (1, min(32, args.context)), (3, args.context // 2 + 1), (1, args.context)]:
        a = int(rng.integers(split, len(ids) - L - 1))
        x = np.stack([ids[a + 3 * r:a + 3 * r + L] for r in range(b)])
        with torch.no_grad():
            ref = model(torch.from_numpy(x)).numpy()
            full = model(torch.from_numpy(np.stack([ids[a + 3 * r:a + 3 * r + args.context] for r in range(b)])))
        got = onnx_numpy_eval.run(m, {"tokens": x})[0]
        err = float(np.max(np.abs(got - ref)))
        causal = float(np.max(np.abs(full.numpy()[:, :L] - ref)))
        worst = max(worst, err)
        print(f"  numpy eval vs torch: batch {b} length {L:4d}  max |diff| {err:.2e}   causal check {causal:.2e}")
        if err > 1e-3 or causal > 1e-3:
            raise SystemExit("exported graph disagrees with torch")

    # Parity data (held-out snippet), for the C++ parity test.
    pdir = os.path.splitext(out)[0] + ".parity"
    os.makedirs(pdir, exist_ok=True)
    L = min(args.parity_length, args.context)
    x = ids[split + 1000:split + 1000 + L][None, :].copy()
    with torch.no_grad():
        y = model(torch.from_numpy(x)).numpy().astype(np.float32)
    with open(os.path.join(pdir, "input_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(x.astype(np.int64), "tokens").SerializeToString())
    with open(os.path.join(pdir, "output_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(y, "logits").SerializeToString())
    print(f"parity data: {pdir}/input_0.pb [1, {L}] ({''.join(vocab[i] for i in x[0])!r}), output_0.pb {list(y.shape)}")
    return ops


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus-file", required=True, help="corpus text built by corpora/build-corpus.sh")
    ap.add_argument("--corpus", required=True, help="corpus name for the metadata (kjv, tang-song)")
    ap.add_argument("--out", required=True, help="output .onnx path")
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--d-model", type=int, default=256)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--context", type=int, default=128)
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--warmup", type=int, default=100)
    ap.add_argument("--decay-start", type=int, default=None,
                    help="constant lr until this step, then linear decay to lr/10 at --steps (default: cosine)")
    ap.add_argument("--time-budget", type=float, default=0.0,
                    help="seconds: --steps is a maximum; the decay starts at 70%% of the budget (see --decay-start)")
    ap.add_argument("--weight-decay", type=float, default=0.01)
    ap.add_argument("--dropout", type=float, default=0.0)
    ap.add_argument("--tie", action="store_true",
                    help="tie the unembedding to the token embedding (plus an output bias)")
    ap.add_argument("--unigram-bias", action="store_true",
                    help="initialise the output bias to the log unigram frequencies of the training text")
    ap.add_argument("--label-smoothing", type=float, default=0.0)
    ap.add_argument("--teacher-ngram", type=int, default=0,
                    help="distil from a cross-fitted Kneser-Ney n-gram of this order (0: off)")
    ap.add_argument("--teacher-weight", type=float, default=0.5, help="weight of the n-gram teacher's loss")
    ap.add_argument("--teacher-folds", type=int, default=5)
    ap.add_argument("--distill-from", default="",
                    help="a target model (.onnx exported by this script) whose distributions the model learns to match")
    ap.add_argument("--distill-weight", type=float, default=0.5, help="weight of the --distill-from loss")
    ap.add_argument("--distill-tv", type=float, default=0.0,
                    help="weight of the total variation to the --distill-from distributions, added to the loss")
    ap.add_argument("--guide-context", type=int, default=0,
                    help="--distill-from: the guide reads windows of this many characters (0: its own context)")
    ap.add_argument("--unigram-mix", type=float, default=0.0,
                    help="mix the output with the training unigram distribution; initial weight (learned)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--init-from", default="",
                    help="continue from the weights of a model this script exported (.onnx) or of a --checkpoint (.pt)")
    ap.add_argument("--grow-from", default="",
                    help="a smaller model this script exported (.onnx): grow it function-preservingly (Net2Net) into "
                         "--layers/--d-model/--heads/--context before training")
    ap.add_argument("--pos-init", choices=["tile", "last", "mean", "compare"], default="compare",
                    help="--grow-from to a longer context: how the new position rows start (compare: measure all, "
                         "keep the best on held-out positions past the old context)")
    ap.add_argument("--grow-readers", choices=["first", "spread"], default="first",
                    help="--grow-from: a weight reading a repeated vector reads its first copy (exact in float16) "
                         "or every copy divided by the factor")
    ap.add_argument("--grow-noise", type=float, default=0.0,
                    help="--grow-from: relative Gaussian noise on the grown matrices (symmetry breaking)")
    ap.add_argument("--pos-lr-scale", type=float, default=1.0,
                    help="learning rate of the position table relative to --lr")
    ap.add_argument("--checkpoint", default="",
                    help="save the weights (torch state_dict, .pt) here at every log step")
    ap.add_argument("--heldout", type=float, default=0.05, help="held-out fraction of the text")
    ap.add_argument("--heldout-mode", choices=["tail", "blocks"], default="tail",
                    help="tail: the end of the text; blocks: every 1/fraction-th blank-line-separated block")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--log-every", type=int, default=50)
    ap.add_argument("--eval-every", type=int, default=0, help="held-out check every N steps (0: only at the end)")
    ap.add_argument("--eval-chars", type=int, default=20000)
    ap.add_argument("--parity-length", type=int, default=32)
    ap.add_argument("--float16-weights", action="store_true",
                    help="round the trained weights to float16 values before the final evaluation and the export")
    ap.add_argument("--eval-contexts", type=lambda v: [int(c) for c in v.split(",") if c], default=[],
                    help="also evaluate the held-out text with these shorter windows (e.g. 128)")
    ap.add_argument("--final-eval-chars", type=int, default=0,
                    help="evaluate only the first N held-out characters at the end (0: all; for trying the pipeline)")
    ap.add_argument("--description", default="")
    args = ap.parse_args()

    torch.set_num_threads(args.threads)
    torch.use_deterministic_algorithms(True)
    text, vocab, ids, split = load_corpus(args.corpus_file, args.heldout, args.heldout_mode)
    print(f"corpus {args.corpus}: {len(text)} chars, vocab {len(vocab)}, split at {split}", flush=True)
    model, train_time, smooth, final_loss = train(args, vocab, ids, split)
    t0 = time.time()
    evaluated = model
    if args.grow_from and args.steps == 0 and args.grow_readers == "first" and args.grow_noise == 0:
        # Grown without training: the same function as its source (which float16 also holds exactly), so the
        # held-out text is scored by the source, 17x cheaper for 8 layers at d 480 from 4 at d 160; checked here.
        evaluated, _ = rebuild_from_file(args.grow_from, len(vocab))
        if args.float16_weights:
            with torch.no_grad():
                for p in evaluated.parameters():
                    p.copy_(p.half().float())
        data = torch.from_numpy(ids)
        x = torch.stack([data[a:a + args.context] for a in range(split, split + 4 * 9973, 9973)])
        with torch.no_grad():
            diff = float((model(x) - evaluated(x)).abs().max())
        print(f"held-out scored by {args.grow_from} (the same function: max |logit diff| {diff:.2e} on 4 held-out "
              f"windows of {args.context})", flush=True)
        if diff > 1e-4:
            raise SystemExit("the grown network does not compute its source's function")
        args.heldout_scored_by_source = f"{args.grow_from} (same function, max |logit diff| {diff:.1e})"
    nll, n = heldout_nll(evaluated, ids, split, args.context, limit=args.final_eval_chars or None)
    eval_time = time.time() - t0
    shorter = {}
    for c in args.eval_contexts:  # the same evaluator with shorter windows, for comparison with other models
        c_nll, c_n = heldout_nll(evaluated, ids, split, c, limit=args.final_eval_chars or None)
        shorter[str(c)] = {"heldout_chars": c_n, "heldout_nll": round(c_nll, 4), "heldout_ppl": round(math.exp(c_nll), 4),
                           "heldout_bits_per_char": round(c_nll / math.log(2), 4)}
        print(f"held-out at context {c}: {c_n} chars, nll {c_nll:.4f} nats, ppl {math.exp(c_nll):.4f}, "
              f"{c_nll / math.log(2):.4f} bits/char")
    stats = {
        "params": count_params(model),
        "train_seconds": round(train_time, 1),
        "final_train_loss": round(final_loss, 4),
        "final_train_loss_smoothed_with_dropout": round(smooth, 4),
        "heldout_chars": n,
        "heldout_nll": round(nll, 4),
        "heldout_ppl": round(math.exp(nll), 4),
        "heldout_bits_per_char": round(nll / math.log(2), 4),
        "args": {k: v for k, v in vars(args).items() if k not in ("corpus_file", "out", "threads", "checkpoint")},
    }
    if shorter:
        stats["heldout_at_context"] = shorter
    print(f"final training loss {final_loss:.4f} (eval mode; smoothed training loss {smooth:.4f})")
    print(f"held-out: {n} chars, nll {nll:.4f} nats, ppl {math.exp(nll):.4f}, "
          f"{nll / math.log(2):.4f} bits/char (eval {eval_time:.0f}s)")
    print(f"training time {train_time:.1f}s")
    ops = export(model, args, vocab, ids, split, stats)
    stats["ops"] = ops
    stats["file_bytes"] = os.path.getsize(args.out)
    print("STATS " + json.dumps(stats, ensure_ascii=False))


if __name__ == "__main__":
    main()
