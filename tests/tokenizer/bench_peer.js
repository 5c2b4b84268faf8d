#!/usr/bin/env node
// SPDX-License-Identifier: GPL-3.0-or-later
// The peers' encoding speed on a file, one run each: Hugging Face tokenizers (Rust, via @anush008/tokenizers)
// and @lenml/tokenizers (JavaScript, a transformers.js port), and how many ids the port gets differently.
// usage: bench_peer.js DEST TOKENIZER_NAME FILE
'use strict';
const fs = require('fs');
const path = require('path');

const [dest, name, file] = process.argv.slice(2);
const text = fs.readFileSync(file, 'utf8');
const json = path.join(dest, name, 'tokenizer.json');

(async () => {
  const { Tokenizer } = require(path.resolve(dest, 'node_modules/@anush008/tokenizers'));
  const hf = Tokenizer.fromFile(json);
  let start = process.hrtime.bigint();
  const hfIds = (await hf.encode(text, null, { addSpecialTokens: true })).getIds();
  let seconds = Number(process.hrtime.bigint() - start) / 1e9;
  console.log(`  HF tokenizers 0.22 (Rust): ${hfIds.length} tokens in ${seconds.toFixed(3)} s: ` +
              `${Math.round(hfIds.length / seconds)} tokens/s`);

  const { TokenizerLoader } = require(path.resolve(dest, 'node_modules/@lenml/tokenizers'));
  const config = path.join(dest, name, 'tokenizer_config.json');
  const lenml = TokenizerLoader.fromPreTrained({
    tokenizerJSON: JSON.parse(fs.readFileSync(json, 'utf8')),
    tokenizerConfig: fs.existsSync(config) ? JSON.parse(fs.readFileSync(config, 'utf8')) : {},
  });
  start = process.hrtime.bigint();
  const jsIds = lenml.encode(text);
  seconds = Number(process.hrtime.bigint() - start) / 1e9;
  let same = 0;
  while (same < jsIds.length && same < hfIds.length && jsIds[same] === hfIds[same]) ++same;
  console.log(`  @lenml/tokenizers (JS):    ${jsIds.length} tokens in ${seconds.toFixed(3)} s: ` +
              `${Math.round(jsIds.length / seconds)} tokens/s` +
              (same === hfIds.length && jsIds.length === hfIds.length ? ', ids = HF' : `, first id != HF at ${same}`));
})();
