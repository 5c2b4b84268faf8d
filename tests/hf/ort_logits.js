// SPDX-License-Identifier: GPL-3.0-or-later
// ONNX Runtime's side of tests/hf/check_ort.py (a peer check, not part of ctest):
//   node ort_logits.js MODEL.onnx OUT.bin ID1,ID2,...
// Runs the decoder-with-past graph once on the ids with empty past tensors (attention_mask ones, position_ids
// 0..T-1, use_cache_branch false for a merged decoder) and writes the logits [T, V] as float32 to OUT.bin.
const fs = require('fs');
const ort = require('onnxruntime-node');

async function main() {
    const [model, out, idsText] = process.argv.slice(2);
    const ids = idsText.split(',').map((x) => BigInt(x));
    const T = ids.length;
    const session = await ort.InferenceSession.create(model, {intraOpNumThreads: 1, interOpNumThreads: 1});
    const feeds = {};
    for (const meta of session.inputMetadata) {
        if (meta.name.startsWith('past_key_values.')) {
            const dims = [1, meta.shape[1], 0, meta.shape[3]];
            feeds[meta.name] = new ort.Tensor('float32', new Float32Array(0), dims);
        } else if (meta.name === 'attention_mask') {
            feeds[meta.name] = new ort.Tensor('int64', new BigInt64Array(T).fill(1n), [1, T]);
        } else if (meta.name === 'position_ids') {
            feeds[meta.name] = new ort.Tensor('int64', BigInt64Array.from({length: T}, (_, i) => BigInt(i)), [1, T]);
        } else if (meta.name === 'use_cache_branch') {
            feeds[meta.name] = new ort.Tensor('bool', [false], [1]);
        } else {
            feeds[meta.name] = new ort.Tensor('int64', BigInt64Array.from(ids), [1, T]);
        }
    }
    const result = await session.run(feeds, ['logits']);
    fs.writeFileSync(out, Buffer.from(result.logits.data.buffer));
}

main().catch((e) => {
    console.error(e.message);
    process.exit(1);
});
