#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Hugging Face model folders for the tests, made without downloading anything: small GPT-2, Llama and Qwen2
decoders written here after the structure of Hugging Face transformers' modelling code (read, not copied),
random weights, exported with torch.onnx the way Optimum's `--task text-generation-with-past` exports them
(names, dynamic axes, an empty past on the first call), and PyTorch's own distributions as the reference.

    /usr/bin/python3 tests/hf/make_models.py tests/data/hf

Each folder holds config.json, generation_config.json, tokenizer.json (one small byte-level BPE learnt here from
tests/data/tiny-en.txt, shared by every folder), model.onnx and reference/{tokens,probs}.pb:
tokens int64 [1, T]; probs float32 [T, V] the softmax of the uncached forward over all T tokens (the generator
checks that the cached forward, fed 3 tokens, then 1, then 5 at a time, gives the same within 1e-5). The C++
tests read them without torch.

Where the families differ in the graph they export (what the executor must run):
- gpt2: learnt positions, Conv1D [in, out] weights, fused c_attn split in three, the causal mask as a slice of a
  lower-triangular bool buffer and Where(mask, scores, finfo.min), the padding mask as (1 - mask) * finfo.min,
  GELU in its tanh form, LayerNorm (LayerNormalization at opset 17, decomposed at 14), tied lm_head.
- llama: RMSNorm (Pow, ReduceMean, Add, Sqrt, Div), rotary embeddings (inv_freq x position_ids, Cos, Sin, the
  rotate-half as Slice, Neg, Concat), grouped-query attention (kv heads < heads, repeat_kv as Expand + Reshape),
  SiLU as Sigmoid * Mul, the causal mask of `_update_causal_mask` (a full finfo.min matrix, Trilu, Range compared
  with cache positions, a padding mask written in place: ScatterND), untied lm_head.
- qwen2: Llama's blocks with biases on q, k and v, the mask as masking_utils builds it (kv_idx <= q_idx: Range,
  LessOrEqual, And with the padding mask, Where) with the NaN guard of fully masked rows (IsNaN, Where), and a
  vocabulary padded beyond the tokenizer's size (as Qwen's 151,936 logits for 151,669 tokens).
- llama-op17-external: llama-op17 laid out as Optimum writes models over 2 GB: onnx/model.onnx with every
  initializer in onnx/model.onnx_data (external data); its reference is llama-op17's.
- gpt2-merged: gpt2-op14 as Optimum's legacy decoder_model_merged.onnx (a top-level If on use_cache_branch, the
  decoder with past in one branch, without in the other); its reference is gpt2-op14's.
- gpt2-op18: the opset-14 GPT-2 rewritten to opset 18 (ReduceMean's axes an input, Split by num_outputs), which
  torch 1.13 cannot export itself.
"""

import collections
import json
import math
import os
import re
import sys

import numpy as np
import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
MERGES = 48
POSITIONS = 256  # every folder's context: a 200-token reference run fits, and the tests pass it
REFERENCE_TOKENS = 200
MIN = torch.finfo(torch.float32).min


# ---------------------------------------------------------------- tokenizer


def byte_alphabet():
    """GPT-2's byte -> printable character table."""
    keep = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), 256))
    chars, extra = {}, 0
    for b in range(256):
        if b in keep:
            chars[b] = chr(b)
        else:
            chars[b] = chr(256 + extra)
            extra += 1
    return chars


def make_tokenizer(text):
    """A GPT-2-style byte-level BPE: 256 byte tokens, MERGES merges learnt on `text`, <|endoftext|>."""
    alphabet = byte_alphabet()
    words = collections.Counter(re.findall(r" ?[A-Za-z]+| ?[0-9]+| ?[^\sA-Za-z0-9]+|\s+", text))
    seqs = {w: [alphabet[b] for b in w.encode("utf-8")] for w in words}
    vocab = {alphabet[b]: i for i, b in enumerate(sorted(alphabet, key=lambda b: b))}
    merges = []
    for _ in range(MERGES):
        pairs = collections.Counter()
        for w, n in words.items():
            s = seqs[w]
            for a, b in zip(s, s[1:]):
                pairs[(a, b)] += n
        if not pairs:
            break
        (a, b), _ = max(pairs.items(), key=lambda kv: (kv[1], kv[0]))
        merges.append(f"{a} {b}")
        vocab[a + b] = len(vocab)
        for w in seqs:
            s, out, i = seqs[w], [], 0
            while i < len(s):
                if i + 1 < len(s) and s[i] == a and s[i + 1] == b:
                    out.append(a + b)
                    i += 2
                else:
                    out.append(s[i])
                    i += 1
            seqs[w] = out
    eos = len(vocab)
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [{"id": eos, "content": "<|endoftext|>", "single_word": False, "lstrip": False,
                          "rstrip": False, "normalized": False, "special": True}],
        "normalizer": None,
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True},
        "post_processor": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": False, "use_regex": True},
        "decoder": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True},
        "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": "",
                  "end_of_word_suffix": "", "fuse_unk": False, "byte_fallback": False, "vocab": vocab,
                  "merges": merges},
    }, eos + 1


# ---------------------------------------------------------------- GPT-2


class Conv1D(nn.Module):
    """GPT-2's linear layer: weight [in, out], y = x W + b."""

    def __init__(self, nin, nout):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(nin, nout) * 0.2)
        self.bias = nn.Parameter(torch.randn(nout) * 0.05)

    def forward(self, x):
        return torch.matmul(x, self.weight) + self.bias


def gelu_new(x):
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


class Gpt2Attention(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.heads, self.dim = c["n_head"], c["n_embd"]
        n = c["n_positions"]
        self.register_buffer("bias", torch.tril(torch.ones(n, n, dtype=torch.bool)).view(1, 1, n, n))
        self.c_attn = Conv1D(self.dim, 3 * self.dim)
        self.c_proj = Conv1D(self.dim, self.dim)

    def split_heads(self, x):
        return x.view(x.size()[:-1] + (self.heads, self.dim // self.heads)).permute(0, 2, 1, 3)

    def forward(self, x, past_k, past_v, attention_mask):
        q, k, v = self.c_attn(x).split(self.dim, dim=2)
        q, k, v = self.split_heads(q), self.split_heads(k), self.split_heads(v)
        k, v = torch.cat((past_k, k), dim=-2), torch.cat((past_v, v), dim=-2)
        w = torch.matmul(q, k.transpose(-1, -2)) / torch.full([], v.size(-1) ** 0.5, dtype=w_dtype())
        ql, kl = q.size(-2), k.size(-2)
        causal = self.bias[:, :, kl - ql:kl, :kl]
        w = torch.where(causal, w, torch.full([], MIN, dtype=w.dtype))
        w = torch.softmax(w + attention_mask, dim=-1)
        a = torch.matmul(w, v).permute(0, 2, 1, 3).contiguous()
        return self.c_proj(a.view(a.size()[:-2] + (self.dim,))), k, v


def w_dtype():
    return torch.float32


class Gpt2Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        d = c["n_embd"]
        self.ln_1 = nn.LayerNorm(d, eps=c["layer_norm_epsilon"])
        self.attn = Gpt2Attention(c)
        self.ln_2 = nn.LayerNorm(d, eps=c["layer_norm_epsilon"])
        self.c_fc = Conv1D(d, 4 * d)
        self.c_proj = Conv1D(4 * d, d)

    def forward(self, x, pk, pv, mask):
        a, k, v = self.attn(self.ln_1(x), pk, pv, mask)
        x = x + a
        return x + self.c_proj(gelu_new(self.c_fc(self.ln_2(x)))), k, v


class Gpt2(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c = c
        self.wte = nn.Embedding(c["vocab_size"], c["n_embd"])
        self.wpe = nn.Embedding(c["n_positions"], c["n_embd"])
        nn.init.normal_(self.wte.weight, std=0.5)
        nn.init.normal_(self.wpe.weight, std=0.1)
        self.h = nn.ModuleList(Gpt2Block(c) for _ in range(c["n_layer"]))
        self.ln_f = nn.LayerNorm(c["n_embd"], eps=c["layer_norm_epsilon"])

    def forward(self, input_ids, attention_mask, position_ids, *past):
        x = self.wte(input_ids) + self.wpe(position_ids)
        mask = attention_mask.view(input_ids.shape[0], -1)[:, None, None, :].to(torch.float32)
        mask = (1.0 - mask) * MIN
        presents = []
        for i, block in enumerate(self.h):
            x, k, v = block(x, past[2 * i], past[2 * i + 1], mask)
            presents += [k, v]
        return (torch.matmul(self.ln_f(x), self.wte.weight.t()), *presents)


# ---------------------------------------------------------------- Llama and Qwen2


class RmsNorm(nn.Module):
    def __init__(self, d, eps):
        super().__init__()
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(d))
        self.eps = eps

    def forward(self, x):
        variance = x.pow(2).mean(-1, keepdim=True)
        return self.weight * (x * torch.rsqrt(variance + self.eps))


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def repeat_kv(x, n_rep):
    b, kv, s, d = x.shape
    if n_rep == 1:
        return x
    return x[:, :, None, :, :].expand(b, kv, n_rep, s, d).reshape(b, kv * n_rep, s, d)


def linear(nin, nout, bias):
    layer = nn.Linear(nin, nout, bias=bias)
    nn.init.normal_(layer.weight, std=0.2)
    if bias:
        nn.init.normal_(layer.bias, std=0.05)
    return layer


class LlamaAttention(nn.Module):
    def __init__(self, c, qkv_bias):
        super().__init__()
        d = c["hidden_size"]
        self.heads, self.kv_heads = c["num_attention_heads"], c["num_key_value_heads"]
        self.head_dim = d // self.heads
        self.q_proj = linear(d, self.heads * self.head_dim, qkv_bias)
        self.k_proj = linear(d, self.kv_heads * self.head_dim, qkv_bias)
        self.v_proj = linear(d, self.kv_heads * self.head_dim, qkv_bias)
        self.o_proj = linear(self.heads * self.head_dim, d, False)

    def forward(self, x, cos, sin, mask, pk, pv):
        b, t, _ = x.shape
        q = self.q_proj(x).view(b, t, -1, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(b, t, -1, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(b, t, -1, self.head_dim).transpose(1, 2)
        cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        k, v = torch.cat((pk, k), dim=-2), torch.cat((pv, v), dim=-2)
        rep = self.heads // self.kv_heads
        w = torch.matmul(q, repeat_kv(k, rep).transpose(2, 3)) / math.sqrt(self.head_dim)
        w = torch.softmax(w + mask[:, :, :, :k.shape[-2]], dim=-1, dtype=torch.float32)
        a = torch.matmul(w, repeat_kv(v, rep)).transpose(1, 2).contiguous().reshape(b, t, -1)
        return self.o_proj(a), k, v


class LlamaBlock(nn.Module):
    def __init__(self, c, qkv_bias):
        super().__init__()
        d, m = c["hidden_size"], c["intermediate_size"]
        self.input_layernorm = RmsNorm(d, c["rms_norm_eps"])
        self.self_attn = LlamaAttention(c, qkv_bias)
        self.post_attention_layernorm = RmsNorm(d, c["rms_norm_eps"])
        self.gate_proj, self.up_proj, self.down_proj = linear(d, m, False), linear(d, m, False), linear(m, d, False)

    def forward(self, x, cos, sin, mask, pk, pv):
        a, k, v = self.self_attn(self.input_layernorm(x), cos, sin, mask, pk, pv)
        x = x + a
        h = self.post_attention_layernorm(x)
        return x + self.down_proj(nn.functional.silu(self.gate_proj(h)) * self.up_proj(h)), k, v


def llama_mask(attention_mask, t, past):
    """transformers' `_update_causal_mask` (eager): finfo.min above the diagonal of the cache positions, then
    the padding of attention_mask written into its first columns."""
    total = attention_mask.shape[-1]
    cache_position = torch.arange(past, past + t)
    mask = torch.full((t, total), MIN, dtype=torch.float32)
    mask = torch.triu(mask, diagonal=1)
    mask = mask * (torch.arange(total) > cache_position.reshape(-1, 1))
    mask = mask[None, None, :, :].expand(attention_mask.shape[0], 1, -1, -1).clone()
    padding = mask[:, :, :, :total] + attention_mask[:, None, None, :].to(torch.float32)
    padding = padding == 0
    mask[:, :, :, :total] = mask[:, :, :, :total].masked_fill(padding, MIN)
    return mask


def qwen2_mask(attention_mask, t, past):
    """masking_utils' causal mask: key index <= query position, and the padding mask, as an additive bias; rows
    with no visible key become 0 rather than NaN (the guard of the sdpa path)."""
    total = attention_mask.shape[-1]
    q_idx = torch.arange(past, past + t)[:, None]
    kv_idx = torch.arange(total)[None, :]
    allowed = (kv_idx <= q_idx)[None, None] & attention_mask[:, None, None, :].bool()
    bias = torch.where(allowed, torch.zeros([]), torch.full([], MIN))
    return torch.where(torch.isnan(bias), torch.zeros([]), bias)


class LlamaLike(nn.Module):
    """Llama (qkv_bias False, llama_mask) or Qwen2 (qkv_bias True, qwen2_mask)."""

    def __init__(self, c, family):
        super().__init__()
        self.c, self.family = c, family
        d = c["hidden_size"]
        self.embed_tokens = nn.Embedding(c["vocab_size"], d)
        nn.init.normal_(self.embed_tokens.weight, std=0.5)
        self.layers = nn.ModuleList(LlamaBlock(c, family == "qwen2") for _ in range(c["num_hidden_layers"]))
        self.norm = RmsNorm(d, c["rms_norm_eps"])
        self.lm_head = linear(d, c["vocab_size"], False)
        hd = d // c["num_attention_heads"]
        inv_freq = 1.0 / (c["rope_theta"] ** (torch.arange(0, hd, 2, dtype=torch.int64).float() / hd))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def forward(self, input_ids, attention_mask, position_ids, *past):
        x = self.embed_tokens(input_ids)
        t, p = input_ids.shape[1], past[0].shape[2]
        freqs = (self.inv_freq[None, :, None].float() @ position_ids[:, None, :].float()).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        cos, sin = emb.cos(), emb.sin()
        mask = (llama_mask if self.family == "llama" else qwen2_mask)(attention_mask, t, p)
        presents = []
        for i, layer in enumerate(self.layers):
            x, k, v = layer(x, cos, sin, mask, past[2 * i], past[2 * i + 1])
            presents += [k, v]
        return (self.lm_head(self.norm(x)), *presents)


# ---------------------------------------------------------------- configurations


def config(family, vocab, size):
    """config.json as transformers writes it for the family; size "small" or "large" (the speculative pair)."""
    d, layers = (16, 2) if size == "small" else (16, 3)
    if family == "gpt2":
        return {"architectures": ["GPT2LMHeadModel"], "model_type": "gpt2", "vocab_size": vocab, "n_embd": d,
                "n_layer": layers, "n_head": 4, "n_positions": POSITIONS, "n_ctx": POSITIONS,
                "layer_norm_epsilon": 1e-5,
                "activation_function": "gelu_new", "bos_token_id": vocab - 1, "eos_token_id": vocab - 1,
                "tie_word_embeddings": True, "torch_dtype": "float32"}
    heads, kv = (4, 2) if family == "llama" else (4, 1)
    return {"architectures": ["LlamaForCausalLM" if family == "llama" else "Qwen2ForCausalLM"],
            "model_type": family, "vocab_size": vocab + (0 if family == "llama" else 15), "hidden_size": d,
            "intermediate_size": 2 * d, "num_hidden_layers": layers, "num_attention_heads": heads,
            "num_key_value_heads": kv, "max_position_embeddings": POSITIONS, "rms_norm_eps": 1e-6,
            "rope_theta": 10000.0, "hidden_act": "silu", "tie_word_embeddings": False,
            "bos_token_id": vocab - 1, "eos_token_id": vocab - 1, "torch_dtype": "float32"}


def layout(c):
    if c["model_type"] == "gpt2":
        return c["n_layer"], c["n_head"], c["n_embd"] // c["n_head"]
    return c["num_hidden_layers"], c["num_key_value_heads"], c["hidden_size"] // c["num_attention_heads"]


def empty_past(c, length=0):
    layers, kv, hd = layout(c)
    return [torch.zeros(1, kv, length, hd) for _ in range(2 * layers)]


def run(model, ids, past, p):
    t = ids.shape[1]
    return model(ids, torch.ones(1, p + t, dtype=torch.int64), torch.arange(p, p + t)[None, :], *past)


def export(model, c, path, opset):
    import onnx
    layers = layout(c)[0]
    past = [f"past_key_values.{i}.{k}" for i in range(layers) for k in ("key", "value")]
    present = [f"present.{i}.{k}" for i in range(layers) for k in ("key", "value")]
    dynamic = {"input_ids": {0: "batch_size", 1: "sequence_length"},
               "attention_mask": {0: "batch_size", 1: "past_sequence_length + sequence_length"},
               "position_ids": {0: "batch_size", 1: "sequence_length"},
               "logits": {0: "batch_size", 1: "sequence_length"}}
    dynamic.update({n: {0: "batch_size", 2: "past_sequence_length"} for n in past})
    dynamic.update({n: {0: "batch_size", 2: "past_sequence_length + sequence_length"} for n in present})
    # Optimum traces with a non-empty past (2 positions) and 2 new tokens, so no size is folded to a constant.
    with torch.no_grad():
        torch.onnx.export(model, (torch.tensor([[1, 2]]), torch.ones(1, 4, dtype=torch.int64),
                                  torch.tensor([[2, 3]]), *empty_past(c, 2)),
                          path, opset_version=opset, do_constant_folding=True,
                          input_names=["input_ids", "attention_mask", "position_ids"] + past,
                          output_names=["logits"] + present, dynamic_axes=dynamic)
    return onnx.load(path)


def float16_weights(m):
    """Every float initializer stored as float16 and read through Cast(to=FLOAT): the fp16-weights variant."""
    import onnx
    from onnx import helper, numpy_helper
    casts = []
    for init in m.graph.initializer:
        if init.data_type != onnx.TensorProto.FLOAT or int(np.prod(init.dims)) < 16:
            continue  # weights only (scalars and inv_freq stay float32, as PyTorch's reference keeps them)
        a = numpy_helper.to_array(init).astype(np.float16)
        name = init.name
        init.CopyFrom(numpy_helper.from_array(a, name + "_fp16"))
        casts.append(helper.make_node("Cast", [name + "_fp16"], [name], to=onnx.TensorProto.FLOAT,
                                      name="Cast_" + name))
    nodes = casts + list(m.graph.node)
    del m.graph.node[:]
    m.graph.node.extend(nodes)
    return m


def as_opset18(m):
    """The opset-18 form of an opset-14/17 export, as exporters write it at 18: ReduceMean's axes an input, Split by
    num_outputs where its parts are equal (torch 1.13 cannot export opset 18 itself)."""
    import onnx
    from onnx import helper, numpy_helper
    consts = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    for n in m.graph.node:
        if n.op_type == "Constant":
            consts[n.output[0]] = numpy_helper.to_array(n.attribute[0].t)
    extra = []
    for n in m.graph.node:
        if n.op_type == "ReduceMean":
            axes = [a for a in n.attribute if a.name == "axes"][0]
            name = n.name + "_axes"
            extra.append(numpy_helper.from_array(np.array(list(axes.ints), dtype=np.int64), name))
            n.attribute.remove(axes)
            n.input.append(name)
        elif n.op_type == "Split" and len(n.input) == 2 and n.input[1] in consts:
            parts = consts[n.input[1]]
            if len(set(parts.tolist())) == 1:
                del n.input[1]
                n.attribute.append(helper.make_attribute("num_outputs", len(n.output)))
    m.graph.initializer.extend(extra)
    for o in m.opset_import:
        if o.domain in ("", "ai.onnx"):
            o.version = 18
    m.ir_version = 8
    return m


def reference(model, c, tokens):
    with torch.no_grad():
        full = torch.softmax(run(model, tokens, empty_past(c), 0)[0][0].double(), dim=-1)
        rows, past, p, T = [], empty_past(c), 0, tokens.shape[1]
        chunks = [3, 1] + [5] * T
        for chunk in chunks:
            chunk = min(chunk, T - p)
            if chunk <= 0:
                break
            o = run(model, tokens[:, p:p + chunk], past, p)
            past, p = list(o[1:]), p + chunk
            rows.append(torch.softmax(o[0][0].double(), dim=-1))
        cached = torch.cat(rows)
    diff = float((cached - full).abs().max())
    assert diff < 1e-5, diff
    return full, cached


def write_folder(out, name, model, c, tokenizer, opset, tokens, fp16=False):
    import onnx
    from onnx import numpy_helper
    folder = os.path.join(out, name)
    os.makedirs(os.path.join(folder, "reference"), exist_ok=True)
    path = os.path.join(folder, "model.onnx")
    m = export(model, c, path, 14 if opset == 18 else opset)
    if opset == 18:
        m = as_opset18(m)
    if fp16:
        m = float16_weights(m)
    onnx.save(m, path)
    if opset < 18:  # ONNX 1.12's checker does not know opset 18
        onnx.checker.check_model(path)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(c, f, indent=2)
    with open(os.path.join(folder, "generation_config.json"), "w") as f:
        json.dump({"bos_token_id": c["bos_token_id"], "eos_token_id": c["eos_token_id"], "do_sample": False}, f,
                  indent=2)
    with open(os.path.join(folder, "tokenizer.json"), "w") as f:
        json.dump(tokenizer, f, ensure_ascii=False)
    if fp16:  # the reference is PyTorch on the rounded weights
        with torch.no_grad():
            for p in model.parameters():
                p.copy_(p.half().float())
    full, cached = reference(model, c, tokens)
    for key, array in {"tokens": tokens.numpy().astype(np.int64), "probs": full.numpy().astype(np.float32)}.items():
        with open(os.path.join(folder, "reference", key + ".pb"), "wb") as f:
            f.write(numpy_helper.from_array(array, key).SerializeToString())
    ops = sorted({n.op_type for n in m.graph.node})
    print(f"{name}: opset {opset}, {os.path.getsize(path)} bytes, ops {' '.join(ops)}")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "data", "hf")
    torch.set_num_threads(1)
    with open(os.path.join(HERE, "..", "data", "tiny-en.txt"), encoding="utf-8") as f:
        text = f.read()
    tokenizer, vocab = make_tokenizer(text)
    rng = np.random.default_rng(26)
    tokens = torch.from_numpy(rng.integers(0, vocab - 1, (1, REFERENCE_TOKENS)))
    plan = [("gpt2-op14", "gpt2", "small", 14, False), ("gpt2-op17", "gpt2", "small", 17, False),
            ("llama-op17", "llama", "small", 17, False), ("llama-large-op17", "llama", "large", 17, False),
            ("qwen2-op14-fp16", "qwen2", "small", 14, True), ("gpt2-op18", "gpt2", "small", 18, False)]
    models = {}
    for i, (name, family, size, opset, fp16) in enumerate(plan):
        torch.manual_seed(100 + i)
        c = config(family, vocab, size)
        model = (Gpt2(c) if family == "gpt2" else LlamaLike(c, family)).eval()
        if name == "llama-large-op17":
            # The target of the speculative pair: llama-op17 with a third layer whose output is damped, so the
            # small model drafts it well (random weights alone accept almost nothing).
            small = models["llama-op17"]
            model.load_state_dict(small.state_dict(), strict=False)
            with torch.no_grad():
                model.layers[2].self_attn.o_proj.weight.mul_(0.3)
                model.layers[2].down_proj.weight.mul_(0.3)
        models[name] = model
        write_folder(out, name, model, c, tokenizer, opset, tokens, fp16)
    write_external(out, "llama-op17", "llama-op17-external")
    write_merged(out, "gpt2-op14", "gpt2-merged", models["gpt2-op14"])


class WithoutPast(nn.Module):
    """The decoder without past of Optimum's merged export: the same model on an empty past."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids, attention_mask, position_ids):
        return self.model(input_ids, attention_mask, position_ids, *empty_past(self.model.c))


def write_merged(out, source, name, model):
    """`source`'s model as Optimum's legacy decoder_model_merged.onnx: one top-level If on the bool input
    use_cache_branch, the decoder with past in its then-branch, the decoder without past in its else-branch (each
    branch's values renamed apart, its initializers inside it). Its reference is `source`'s."""
    import shutil
    import tempfile
    import onnx
    from onnx import helper
    folder = os.path.join(out, name)
    os.makedirs(folder, exist_ok=True)
    for f in ("config.json", "generation_config.json", "tokenizer.json"):
        shutil.copy(os.path.join(out, source, f), os.path.join(folder, f))
    c = model.c
    layers = layout(c)[0]
    present = [f"present.{i}.{k}" for i in range(layers) for k in ("key", "value")]
    with tempfile.TemporaryDirectory() as tmp:
        with_past = export(model, c, os.path.join(tmp, "with_past.onnx"), 14)
        with torch.no_grad():
            torch.onnx.export(WithoutPast(model), (torch.tensor([[1, 2]]), torch.ones(1, 2, dtype=torch.int64),
                                                   torch.tensor([[0, 1]])),
                              os.path.join(tmp, "no_past.onnx"), opset_version=14, do_constant_folding=True,
                              input_names=["input_ids", "attention_mask", "position_ids"],
                              output_names=["logits"] + present,
                              dynamic_axes={"input_ids": {0: "batch_size", 1: "sequence_length"},
                                            "attention_mask": {0: "batch_size", 1: "sequence_length"},
                                            "position_ids": {0: "batch_size", 1: "sequence_length"},
                                            "logits": {0: "batch_size", 1: "sequence_length"}})
        no_past = onnx.load(os.path.join(tmp, "no_past.onnx"))

    def branch(g, suffix, outer):
        """g as a subgraph: no inputs (it reads the outer graph's), every value it defines renamed with suffix."""
        b = onnx.GraphProto()
        b.CopyFrom(g)
        b.name = g.name + suffix
        defined = {i.name for i in b.initializer} | {o for n in b.node for o in n.output if o}
        rename = {v: v + suffix for v in defined if v not in outer}
        for i in b.initializer:
            i.name = rename.get(i.name, i.name)
        for n in b.node:
            n.name = n.name + suffix
            for k, v in enumerate(n.input):
                n.input[k] = rename.get(v, v)
            for k, v in enumerate(n.output):
                n.output[k] = rename.get(v, v)
        for o in b.output:
            o.name = rename.get(o.name, o.name)
        del b.input[:]
        del b.value_info[:]
        return b

    outer = {i.name for i in with_past.graph.input}
    then_branch = branch(with_past.graph, "_with_past", outer)
    else_branch = branch(no_past.graph, "_no_past", outer)
    cond = helper.make_tensor_value_info("use_cache_branch", onnx.TensorProto.BOOL, [1])
    node = helper.make_node("If", ["use_cache_branch"], [o.name for o in with_past.graph.output], name="optimum::if",
                            then_branch=then_branch, else_branch=else_branch)
    graph = helper.make_graph([node], "merged", list(with_past.graph.input) + [cond], list(with_past.graph.output))
    merged = helper.make_model(graph, opset_imports=list(with_past.opset_import), ir_version=with_past.ir_version)
    path = os.path.join(folder, "decoder_model_merged.onnx")
    onnx.save(merged, path)
    onnx.checker.check_model(path)
    print(f"{name}: decoder_model_merged.onnx {os.path.getsize(path)} bytes")

def write_external(out, source, name):
    """`source` as Optimum lays out a model over 2 GB: onnx/model.onnx with every initializer in
    onnx/model.onnx_data (its reference stays in `source`)."""
    import shutil
    import onnx
    folder = os.path.join(out, name)
    os.makedirs(os.path.join(folder, "onnx"), exist_ok=True)
    for f in ("config.json", "generation_config.json", "tokenizer.json"):
        shutil.copy(os.path.join(out, source, f), os.path.join(folder, f))
    m = onnx.load(os.path.join(out, source, "model.onnx"))
    data = os.path.join(folder, "onnx", "model.onnx_data")
    if os.path.exists(data):
        os.remove(data)
    onnx.save_model(m, os.path.join(folder, "onnx", "model.onnx"), save_as_external_data=True,
                    all_tensors_to_one_file=True, location="model.onnx_data", size_threshold=0)
    print(f"{name}: onnx/model.onnx {os.path.getsize(os.path.join(folder, 'onnx', 'model.onnx'))} bytes, "
          f"onnx/model.onnx_data {os.path.getsize(data)} bytes")


if __name__ == "__main__":
    main()
