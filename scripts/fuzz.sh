#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the fuzz preset and runs a libFuzzer target of tests/fuzz for a number of seconds.
#   scripts/fuzz.sh TARGET|all [SECONDS=600] [extra libFuzzer flags...]
# TARGET: corpus, onnx, session, spec, vocab, tokenizer, hfconfig. New inputs: build-fuzz/tests/fuzz/work/TARGET/;
# crashes: build-fuzz/crash-*. A target's dictionary, tests/fuzz/TARGET.dict, is passed when it exists.
# Runs at nice 10 on one core.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${1:?usage: scripts/fuzz.sh TARGET|all [SECONDS] [libFuzzer flags]}"
seconds="${2:-600}"
shift $(( $# >= 2 ? 2 : 1 ))
if [ ! -f build-fuzz/CMakeCache.txt ]; then cmake --preset fuzz; fi
cmake --build --preset fuzz -j "${SPECDEC_JOBS:-2}"
targets=("$target")
[ "$target" = all ] && targets=(corpus onnx session spec vocab tokenizer hfconfig)
for t in "${targets[@]}"; do
  work="build-fuzz/tests/fuzz/work/$t"
  mkdir -p "$work"
  dict=()
  [ -f "tests/fuzz/$t.dict" ] && dict=(-dict="../tests/fuzz/$t.dict")
  echo "== fuzz_$t for ${seconds}s"
  (cd build-fuzz && nice -n 10 "bin/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
     -print_final_stats=1 "${dict[@]}" "$@" "../$work" "../tests/fuzz/corpus/$t")
done
