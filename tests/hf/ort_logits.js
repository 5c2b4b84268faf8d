// SPDX-License-Identifier: GPL-3.0-or-later
// ONNX Runtime's side of tests/hf/check_ort.py (a peer check, not part of ctest):
//   node ort_logits.js MODEL.onnx OUT.bin ID1,ID2,...
// Runs the decoder-with-past graph on the ids twice and writes both logits [T, V] as float32 to OUT.bin, one after
// the other: uncached (one call on an empty past: attention_mask ones, position_ids 0..T-1, use_cache_branch false
// for a merged decoder), then cached (3 ids, 1, then 5 at a time, each call fed the presents of the one before).
const fs = require('fs');
const ort = require('onnxruntime-node');

function feedsFor(session, ids, from, to, past) {
    const feeds = {};
    const n = to - from;
    for (const meta of session.inputMetadata) {
        if (meta.name.startsWith('past_key_values.')) {
            const present = past && past['present.' + meta.name.slice('past_key_values.'.length)];
            feeds[meta.name] = present || new ort.Tensor('float32', new Float32Array(0), [1, meta.shape[1], 0, meta.shape[3]]);
        } else if (meta.name === 'attention_mask') {
            feeds[meta.name] = new ort.Tensor('int64', new BigInt64Array(to).fill(1n), [1, to]);
        } else if (meta.name === 'position_ids') {
            feeds[meta.name] = new ort.Tensor('int64', BigInt64Array.from({length: n}, (_, i) => BigInt(from + i)), [1, n]);
        } else if (meta.name === 'use_cache_branch') {
            feeds[meta.name] = new ort.Tensor('bool', [from > 0], [1]);
        } else {
            feeds[meta.name] = new ort.Tensor('int64', BigInt64Array.from(ids.slice(from, to)), [1, n]);
        }
    }
    return feeds;
}

async function main() {
    const [model, out, idsText] = process.argv.slice(2);
    const ids = idsText.split(',').map((x) => BigInt(x));
    const T = ids.length;
    const session = await ort.InferenceSession.create(model, {intraOpNumThreads: 1, interOpNumThreads: 1});
    const whole = await session.run(feedsFor(session, ids, 0, T, null));
    const parts = [Buffer.from(whole.logits.data.buffer, whole.logits.data.byteOffset, whole.logits.data.byteLength)];
    let past = null;
    for (let at = 0, call = 0; at < T; ++call) {
        const to = Math.min(T, at + (call === 0 ? 3 : call === 1 ? 1 : 5));
        past = await session.run(feedsFor(session, ids, at, to, past));
        parts.push(Buffer.from(past.logits.data.buffer, past.logits.data.byteOffset, past.logits.data.byteLength));
        at = to;
    }
    fs.writeFileSync(out, Buffer.concat(parts));
}

main().catch((e) => {
    console.error(e.message);
    process.exit(1);
});
