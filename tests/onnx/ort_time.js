// SPDX-License-Identifier: GPL-3.0-or-later
// The ONNX Runtime side of tests/onnx/bench_vs_ort.sh (a benchmark tool, not part of the app or of ctest).
//   node ort_time.js MODEL.onnx REPEAT SPEC1 [SPEC2 ...]
// A SPEC is L (a window of L tokens, empty past tensors) or P+S (a cached step: past tensors of P positions,
// zeros, and S new tokens). Times session.run on one thread (intraOpNumThreads 1, sequential; ORT_THREADS=N runs
// N intra-op threads) with token ids 0..S-1 (mod 7) as int64 [B, S], the inputs onnx_bench feeds, and prints "SPEC
// median_ms best_ms cpu_median_ms" per spec (cpu: the process's user + system time of a run).
const ort = require('onnxruntime-node');

function feedsFor(session, spec) {
    const batch = spec.includes('x') ? parseInt(spec, 10) : 1;
    const rest = spec.includes('x') ? spec.slice(spec.indexOf('x') + 1) : spec;
    const [past, length] = rest.includes('+') ? rest.split('+').map((x) => parseInt(x, 10)) : [0, parseInt(rest, 10)];
    const ids = BigInt64Array.from({length: batch * length}, (_, i) => BigInt(i % length % 7));
    const feeds = {};
    for (const meta of session.inputMetadata) {
        if (meta.name.startsWith('past_key_values.')) {
            // [batch, heads, past, head_dim] with the model's fixed heads and head_dim
            const dims = [batch, meta.shape[1], past, meta.shape[3]];
            feeds[meta.name] = new ort.Tensor('float32', new Float32Array(dims.reduce((a, b) => a * b, 1)), dims);
        } else if (meta.name === 'attention_mask') {
            feeds[meta.name] = new ort.Tensor('int64', new BigInt64Array(batch * (past + length)).fill(1n), [batch, past + length]);
        } else if (meta.name === 'position_ids') {
            feeds[meta.name] = new ort.Tensor('int64', BigInt64Array.from({length: batch * length}, (_, i) => BigInt(past + i % length)), [batch, length]);
        } else {
            feeds[meta.name] = new ort.Tensor('int64', ids, [batch, length]);
        }
    }
    return feeds;
}

async function main() {
    const [model, repeatText, ...specs] = process.argv.slice(2);
    const repeat = parseInt(repeatText, 10);
    const session = await ort.InferenceSession.create(model, {
        intraOpNumThreads: parseInt(process.env.ORT_THREADS || '1', 10),
        interOpNumThreads: 1,
        executionMode: 'sequential',
        graphOptimizationLevel: 'all',
    });
    for (const spec of specs) {
        const feeds = feedsFor(session, spec);
        for (let w = 0; w < 10; ++w)
            await session.run(feeds);
        const ms = [], cpu = [];
        for (let r = 0; r < repeat; ++r) {
            const c0 = process.cpuUsage();
            const t0 = process.hrtime.bigint();
            await session.run(feeds);
            ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
            const c = process.cpuUsage(c0);
            cpu.push((c.user + c.system) / 1e3);
        }
        ms.sort((a, b) => a - b);
        cpu.sort((a, b) => a - b);
        console.log(`${spec} ${ms[ms.length >> 1].toFixed(4)} ${ms[0].toFixed(4)} ${cpu[cpu.length >> 1].toFixed(4)}`);
    }
}

main().catch((e) => { console.error(`ort_time.js: ${e.message}`); process.exit(1); });
