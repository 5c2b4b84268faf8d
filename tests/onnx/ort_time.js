// SPDX-License-Identifier: GPL-3.0-or-later
// The ONNX Runtime side of tests/onnx/bench_vs_ort.sh (a benchmark tool, not part of the app or of ctest).
//   node ort_time.js MODEL.onnx REPEAT L1 [L2 ...]
// Times session.run on one thread (intraOpNumThreads 1, sequential) with token ids 0..L-1 (mod 7) as int64
// [1, L], the input onnx_bench feeds, and prints "L median_ms best_ms cpu_median_ms" per length (cpu: the
// process's user + system time of a run).
const ort = require('onnxruntime-node');

async function main() {
    const [model, repeatText, ...lengths] = process.argv.slice(2);
    const repeat = parseInt(repeatText, 10);
    const session = await ort.InferenceSession.create(model, {
        intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all',
    });
    for (const text of lengths) {
        const length = parseInt(text, 10);
        const ids = BigInt64Array.from({length}, (_, i) => BigInt(i % 7));
        const feeds = {[session.inputNames[0]]: new ort.Tensor('int64', ids, [1, length])};
        for (let w = 0; w < 3; ++w)
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
        console.log(`${length} ${ms[ms.length >> 1].toFixed(4)} ${ms[0].toFixed(4)} ${cpu[cpu.length >> 1].toFixed(4)}`);
    }
}

main().catch((e) => { console.error(`ort_time.js: ${e.message}`); process.exit(1); });
