#!/usr/bin/env node
// SPDX-License-Identifier: GPL-3.0-or-later
// Writes the tokenizer test text (>= 200 KB), deterministically: lines of the kjv and tang-song corpora
// (build/corpora/*.txt) interleaved with sections made here -- English and Chinese prose, code, numbers of every
// length, contractions in both cases, runs of spaces, tabs, \r\n, vertical tab, U+0085 and other odd spaces,
// emoji and ZWJ sequences, combining marks, text that NFC changes -- and every special token of each tokenizer
// file given. usage: make_text.js CORPORA_DIR OUT.txt TOKENIZER.json...
'use strict';
const fs = require('fs');

const [corporaDir, outPath, ...tokenizerFiles] = process.argv.slice(2);
if (!corporaDir || !outPath) {
  console.error('usage: make_text.js CORPORA_DIR OUT.txt TOKENIZER.json...');
  process.exit(2);
}

// A small linear congruential generator: the same text on every machine.
let seed = 20251203;
function random() {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return seed / 4294967296;
}
function pick(list) { return list[Math.floor(random() * list.length)]; }

function lines(name) {
  return fs.readFileSync(`${corporaDir}/${name}.txt`, 'utf8').split('\n').filter((l) => l.length > 0);
}
const kjv = lines('kjv');
const tang = lines('tang-song');

const specials = [];
for (const file of tokenizerFiles) {
  const json = JSON.parse(fs.readFileSync(file, 'utf8'));
  for (const token of json.added_tokens || [])
    if (token.special && !specials.includes(token.content)) specials.push(token.content);
}

const numbers = [];
for (let length = 1; length <= 40; ++length) {
  let digits = '';
  for (let k = 0; k < length; ++k) digits += String((k * 7 + length * 3) % 10);
  numbers.push(digits, '-' + digits, digits + '.' + digits.slice(0, 3), '0x' + digits.slice(0, 8) + 'ff');
}
numbers.push('1,000,000', '3.14159', '6.02e23', '1e-9', '2025-12-03', '12:20', '٣٤٥', '１２３', '½', 'Ⅻ', '²³');

const sections = [
  // English prose and contractions in both cases.
  "It's a truth universally acknowledged, that a single man in possession of a good fortune must be in want of a wife.",
  "I'm sure you'll agree: we've been told they'd come, and he's said she'll stay; don't worry, it isn't over.",
  "IT'S LOUD. I'M HERE! WE'VE WON? THEY'D KNOW. HE'S GONE; SHE'LL SEE; DON'T; ISN'T; Y'ALL'RE.",
  "It'S mIxEd: I'm, I'M, i'M; You'Re; they'lL; we'Ve; 'tis; rock 'n' roll; O'Neil's cafe.",
  // Chinese prose.
  '我们在学习推测解码：小模型先写草稿，大模型一次验证几个词。今天天气很好，我们去公园散步吧。',
  '《静夜思》床前明月光，疑是地上霜。举头望明月，低头思故乡。——李白（701年—762年）',
  '中文标点：，。！？；：「」『』（）【】〈〉……——、 全角空格　之后。混合English与中文123个字。',
  // Code.
  'int main(int argc, char **argv) {\n    for (int i = 0; i < argc; ++i) printf("%s\\n", argv[i]);\n    return 0;\n}',
  'def f(x):\n\tif x <= 0:\n\t\treturn [i ** 2 for i in range(10)]\n\treturn {"key": x, \'other\': None}\r\n',
  'const re = /^(?:[a-z0-9!#$%&\'*+/=?^_`{|}~-]+)@example\\.com$/i; // e-mail\n<div class="a">&amp;&lt;&gt;</div>',
  '{"ids": [1, 2, 3], "pieces": ["\\u0120the", "\\u2581of"], "nested": {"a": [true, false, null]}}',
  // Whitespace of every kind.
  'a b  c   d    e     f      g       h        i         j          k',
  'tabs\there\t\tand\t\t\tthere \t mixed\t \t',
  'windows\r\nline\r\n\r\nends\r\r\n',
  'vertical\vtab\v\vand form\ffeed',
  'next\u0085line and\u0085\u0085 again \u0085',
  'nbsp\u00a0and\u00a0\u00a0ideographic\u3000space, em\u2003space, thin\u2009space, line\u2028separator, para\u2029graph',
  'mongolian\u180evowel separator, zero\u200bwidth, bom\ufeffinside, narrow\u202fnbsp',
  '   leading spaces and trailing spaces   ',
  '\n\n\n\nfour newlines then text\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n end',
  // Emoji, ZWJ sequences, flags, skin tones, variation selectors.
  'emoji 😀 😂 🤖 👍🏽 👩🏿‍🔬 👨‍👩‍👧‍👦 🏳️‍🌈 🏴‍☠️ 🇨🇳 🇺🇸 ❤️ ✌︎ 🫠 🧑‍🤝‍🧑',
  // Combining marks and text NFC changes.
  'combining: e\u0301 a\u0300 o\u0308 n\u0303 c\u0327; zalgo: Z\u0351\u0352\u0353a\u0354\u0355l\u0356g\u0357o',
  'NFC changes: Cafe\u0301 re\u0301sume\u0301 \u212bngstr\u00f6m \u2126hm \u1100\u1161\u11a8 \u0041\u030a',
  'NFKC: ﬁnance ﬀ ①②③ ｆｕｌｌｗｉｄｔｈ ㍻ ™ ℌ ⁵ ｶﾀｶﾅ',
  // Other scripts.
  'Ελληνικά: ΣΟΦΟΣ σοφός ς; Русский текст, ёлка; العربية نص; हिन्दी पाठ; 日本語のテキスト、カタカナ; 한국어 텍스트',
  'Turkish İstanbul ıi; German Straße STRASSE; Kelvin \u212a; long s \u017f; Ǆ ǅ ǆ',
];

const parts = [];
let size = 0;
let k = 0;
let t = 0;
let s = 0;
let n = 0;
let sp = 0;
while (size < 240 * 1024) {
  const chunk = [];
  for (let i = 0; i < 12; ++i) chunk.push(kjv[(k = (k + 97) % kjv.length)]);
  for (let i = 0; i < 4; ++i) chunk.push(tang[(t = (t + 31) % tang.length)]);
  chunk.push(sections[s++ % sections.length]);
  chunk.push(numbers.slice(n % numbers.length, (n % numbers.length) + 9).join(' '));
  n += 9;
  if (specials.length > 0) {
    const special = specials[sp++ % specials.length];
    chunk.push(`before${special}after ${special} ${pick(['x', ' y', '\n', '中'])}${special}${special}`);
  }
  const separators = ['\n', '\n\n', ' ', '  \n', '\r\n', '\t'];
  const text = chunk.map((line) => line + pick(separators)).join('');
  parts.push(text);
  size += Buffer.byteLength(text, 'utf8');
}
// Every special token once more, side by side and in text.
parts.push(specials.join(' ') + '\n' + specials.join('') + '\n');
fs.writeFileSync(outPath, parts.join(''));
console.log(`make_text: ${outPath}: ${Buffer.byteLength(parts.join(''), 'utf8')} bytes, ${specials.length} special tokens`);
