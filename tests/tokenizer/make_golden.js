#!/usr/bin/env node
// SPDX-License-Identifier: GPL-3.0-or-later
// Writes the golden ids of the tokenizer tests: each tokenizer of DEST (fetch-tokenizers.sh) encodes
// DEST/test-text.txt with Hugging Face `tokenizers` itself (the Rust library, 0.22, through npm's
// @anush008/tokenizers binding), add_special_tokens on; the ids go to OUT/NAME.ids (one per line) and
// OUT/manifest.json records the text's SHA-256 and, per tokenizer, the count and the SHA-256 of HF's decode.
// Re-run it whenever the text or the files change:  node make_golden.js DEST tests/data/tokenizers/golden
'use strict';
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');

const [dest, out] = process.argv.slice(2);
if (!dest || !out) {
  console.error('usage: make_golden.js DEST OUT_DIR');
  process.exit(2);
}
const { Tokenizer } = require(path.resolve(dest, 'node_modules/@anush008/tokenizers'));
const sha256 = (data) => crypto.createHash('sha256').update(data).digest('hex');

const cases = [
  '', ' ', 'a', '  ', 'next\u0085line \u0085\u0085 x', 'mongolian\u180evowel \u180e x', 'tab\vvertical\v\v y',
  'nbsp\u00a0\u00a0z', '   leading', 'trailing   ', 'IT\'S it\'s It\'S DON\'T', '你好，世界', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  '👨‍👩‍👧‍👦🏳️‍🌈', 'Cafe\u0301 \u212b', 'ﬁ①ｆ', '12345678901234567890', 'a\r\n\r\nb', '\n\n\n', '\t\t x',
  '<|endoftext|>x<|im_start|> <s> <bos>', 'ΣΑΣ σας', '鑫龘靐',
];

(async () => {
  const text = fs.readFileSync(path.join(dest, 'test-text.txt'), 'utf8');
  const manifest = { peer: 'huggingface tokenizers 0.22.2 (npm @anush008/tokenizers 0.6.0)',
                     text_sha256: sha256(Buffer.from(text, 'utf8')), text_bytes: Buffer.byteLength(text), tokenizers: {} };
  fs.mkdirSync(out, { recursive: true });
  for (const name of ['gpt2', 'llama3', 'qwen3', 'mixtral', 'gemma3']) {
    const tokenizer = Tokenizer.fromFile(path.join(dest, name, 'tokenizer.json'));
    const start = process.hrtime.bigint();
    const encoding = await tokenizer.encode(text, null, { addSpecialTokens: true });
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const ids = encoding.getIds();
    const decoded = await tokenizer.decode(ids, false);
    fs.writeFileSync(path.join(out, `${name}.ids`), ids.join('\n') + '\n');
    manifest.tokenizers[name] = { ids: ids.length, decoded_sha256: sha256(Buffer.from(decoded, 'utf8')),
                                  decode_is_text: decoded === text };
    console.log(`${name}: ${ids.length} ids in ${seconds.toFixed(2)} s, decode ${decoded === text ? '=' : '!='} text`);
  }
  // Short cases, encoded one by one (add_special_tokens off): the places where engines differ.
  manifest.cases = cases.map((text) => ({ text, ids: {} }));
  for (const name of ['gpt2', 'llama3', 'qwen3', 'mixtral', 'gemma3']) {
    const tokenizer = Tokenizer.fromFile(path.join(dest, name, 'tokenizer.json'));
    for (const c of manifest.cases)
      c.ids[name] = (await tokenizer.encode(c.text, null, { addSpecialTokens: false })).getIds();
  }
  fs.writeFileSync(path.join(out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
})();
