#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Encoding speed, ours against the peers, same text, same machine, one run each (not a test: numbers to read).
# usage: tests/tokenizer/bench.sh [BUILD_DIR=build] [FILE=BUILD_DIR/corpora/kjv.txt]
# Needs the fixture's files (ctest -R tokenizer_files, or tests/tokenizer/fetch-tokenizers.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
file=${2:-$build/corpora/kjv.txt}
dest=$build/tokenizers
echo "encoding $file ($(stat -c %s "$file") bytes)"
for name in gpt2 llama3 qwen3 mixtral gemma3; do
  echo "$name:"
  echo "  specdec tokenize (C++):    $("$build/bin/specdec" tokenize --tokenizer "$dest/$name" --file "$file" --stats)"
  # The JavaScript port merges a SentencePiece file's whole text as one word: it is cut off after 5 minutes.
  timeout 300 node "$here/bench_peer.js" "$dest" "$name" "$file" || echo "  (a peer did not finish in 300 s)"
done
