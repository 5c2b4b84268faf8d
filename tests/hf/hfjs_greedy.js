// SPDX-License-Identifier: GPL-3.0-or-later
// A second peer on the test folders (not part of ctest): Hugging Face's own transformers.js (npm
// @huggingface/transformers, offline: env.allowRemoteModels = false) generates greedily from each folder of
// tests/data/hf, and `specdec run --mode autoregressive --temperature 0` must write the same token ids.
//   NODE_PATH=/path/to/node_modules node tests/hf/hfjs_greedy.js build/bin/specdec [TOKENS=200] [tests/data/hf]
// transformers.js reads a folder as the Hub lays it out (onnx/model.onnx, tokenizer_config.json): each folder is
// copied into that layout in a temporary directory; the merged decoder is its onnx/decoder_model_merged.onnx.
// transformers.js stops at generation_config.json's eos_token_id, so the comparison is over its continuation;
// it is told not to draw the padding logits beyond the tokenizer's ids, which specdec never draws.
const fs = require('fs');
const os = require('os');
const path = require('path');
const {execFileSync} = require('child_process');
const {env, AutoModelForCausalLM, AutoTokenizer} = require('@huggingface/transformers');

const PROMPT = 'And God said';

function hubLayout(folder, root, name) {
    const dir = path.join(root, name);
    fs.mkdirSync(path.join(dir, 'onnx'), {recursive: true});
    for (const f of ['config.json', 'generation_config.json', 'tokenizer.json'])
        fs.copyFileSync(path.join(folder, f), path.join(dir, f));
    if (!fs.existsSync(path.join(folder, 'tokenizer_config.json')))
        fs.writeFileSync(path.join(dir, 'tokenizer_config.json'), '{}');
    let file = 'model';
    if (fs.existsSync(path.join(folder, 'onnx', 'model.onnx'))) {
        for (const f of fs.readdirSync(path.join(folder, 'onnx')))
            fs.copyFileSync(path.join(folder, 'onnx', f), path.join(dir, 'onnx', f));
    } else if (fs.existsSync(path.join(folder, 'model.onnx'))) {
        fs.copyFileSync(path.join(folder, 'model.onnx'), path.join(dir, 'onnx', 'model.onnx'));
    } else {
        fs.copyFileSync(path.join(folder, 'decoder_model_merged.onnx'),
                        path.join(dir, 'onnx', 'decoder_model_merged.onnx'));
        file = 'decoder_model_merged';
    }
    return file;
}

async function main() {
    const [specdec, tokensText = '200', rootArg] = process.argv.slice(2);
    if (!specdec)
        throw new Error('usage: node hfjs_greedy.js SPECDEC [TOKENS] [FOLDERS]');
    const tokens = Number(tokensText);
    const root = rootArg || path.join(__dirname, '..', 'data', 'hf');
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hfjs-'));
    env.allowRemoteModels = false;
    env.localModelPath = tmp + path.sep;
    let failed = 0;
    try {
        for (const name of fs.readdirSync(root).sort()) {
            const folder = path.join(root, name);
            if (!fs.existsSync(path.join(folder, 'config.json')))
                continue;
            const file = hubLayout(folder, tmp, name);
            const tokenizer = await AutoTokenizer.from_pretrained(name);
            const model = await AutoModelForCausalLM.from_pretrained(name, {dtype: 'fp32', model_file_name: file});
            const input = tokenizer(PROMPT);
            // Logits beyond the tokenizer's ids are padding (Qwen2's vocab_size above its tokenizer): specdec never
            // draws them; transformers.js is told not to with bad_words_ids.
            const config = JSON.parse(fs.readFileSync(path.join(folder, 'config.json'), 'utf8'));
            const json = JSON.parse(fs.readFileSync(path.join(folder, 'tokenizer.json'), 'utf8'));
            const known = Object.keys(json.model.vocab).length + json.added_tokens.length;
            const padding = Array.from({length: Math.max(0, config.vocab_size - known)}, (_, i) => [known + i]);
            const out = await model.generate({...input, max_new_tokens: tokens, do_sample: false,
                                              ...(padding.length ? {bad_words_ids: padding} : {})});
            const all = Array.from(out.data, Number);
            const theirs = all.slice(input.input_ids.dims[1]);
            const report = JSON.parse(execFileSync(specdec, ['run', '--target', 'hf:' + folder, '--mode', 'autoregressive',
                                                             '--temperature', '0', '--prompt', PROMPT, '--tokens',
                                                             String(tokens), '--json'],
                                                   {encoding: 'utf8'}));
            const ours = report.token_ids;
            // transformers.js ends at the EOS token (kept); specdec writes every token asked for.
            const same = theirs.every((t, i) => t === ours[i]);
            const eos = theirs.length < tokens ? ` (transformers.js stopped at EOS after ${theirs.length})` : '';
            console.log(`${name}: ${same ? 'same' : 'DIFFERENT'} ${theirs.length} greedy tokens${eos}`);
            if (!same) {
                failed++;
                console.log(`  transformers.js ${theirs.join(',')}\n  specdec         ${ours.join(',')}`);
            }
            await model.dispose();
        }
    } finally {
        fs.rmSync(tmp, {recursive: true, force: true});
    }
    return failed;
}

main().then((failed) => process.exit(failed ? 1 : 0), (e) => {
    console.error(e.message);
    process.exit(1);
});
