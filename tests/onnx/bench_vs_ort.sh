#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The executor against ONNX Runtime, side by side in one run, one thread, on the six shipped models at their
# context length C, at 16 and at 5 tokens (and the kjv target at 1 token), and with the key/value cache
# (the models' decoder-with-past inputs): one decode step (past C-1, 1 token: "P+1") and one K + 1 = 5
# verification step (past C-5, 5 tokens). The kjv target also runs a batch of 4 windows of 16 tokens
# ("4x16"). Prints a Markdown table with ratios, then per model the cost of verification
# V(5) = T(5 new | past C-5) / T(1 new | past C-1) of both, and the batch's time per row against one row.
#
#   tests/onnx/bench_vs_ort.sh [--bench build/bin/onnx_bench] [--ort /tmp/ortbench] [--repeat 100] [--rounds 3]
#                              [--large MODEL.onnx] [--large-context 512] [--only-large]
#
# --large adds a memory-bound model (corpora/kjv/models/target-large.onnx when it is there; a random-weight one
# of the same shape from tests/onnx/make_random_model.py otherwise): cached steps of 1, 5 and 8 new tokens after
# a past of 128 and at its context length C (--large-context; P+1, P+5, P+8 with P + rows = 128 or C), on 1 and 2 threads of
# ours beside ORT's one thread, with V(5) and V(8) of each; --only-large skips the six shipped models.
#
# A benchmark tool only (not part of ctest, never a dependency of the app). The peer, ONNX Runtime 1.30's
# CPU provider as the npm package ships it, goes into a scratch folder outside the repository:
#   mkdir -p /tmp/ortbench && cd /tmp/ortbench && npm install --ignore-scripts onnxruntime-node@1.30.0
# (node and npm from Debian: apt-get install nodejs npm). ORT runs with intraOpNumThreads 1, sequential
# execution and all graph optimisations; both sides get token ids 0..L-1 (mod 7) as int64 [1, L] and report
# the median of --repeat timed runs after ten warm-up runs. The two sides alternate, model by model, --rounds times;
# each side's cell is the lowest of its round medians (on a shared, busy machine a round can land in a burst
# of other work, and alternating gives both sides the same chances). The CPU columns are the same for the
# process CPU time of a run (user + system), which leaves out the time spent waiting for a core on a busy
# machine. The best columns are the fastest single run of each side (the least disturbed by other work).
# Ratios below 1: the executor is faster.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bench=$root/build/bin/onnx_bench
ort=/tmp/ortbench
repeat=100
rounds=3
large=""
largeContext=512
onlyLarge=0
[ -f "$root/corpora/kjv/models/target-large.onnx" ] && large=$root/corpora/kjv/models/target-large.onnx
while [ $# -gt 0 ]; do
    case $1 in
        --large) large=$2; shift 2 ;;
        --large-context) largeContext=$2; shift 2 ;;
        --only-large) onlyLarge=1; shift ;;
        --bench) bench=$2; shift 2 ;;
        --ort) ort=$2; shift 2 ;;
        --repeat) repeat=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        *) echo "bench_vs_ort.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
[ -x "$bench" ] || { echo "bench_vs_ort.sh: $bench is missing (cmake --build build --target onnx_bench)" >&2; exit 1; }
[ -d "$ort/node_modules/onnxruntime-node" ] || {
    echo "bench_vs_ort.sh: no onnxruntime-node in $ort; see the header of this script for how to get it" >&2; exit 1; }

if [ "$onlyLarge" = 0 ]; then
# model, context length
models="kjv/target 128
kjv/draft-small 64
kjv/draft-tiny 32
tang-song/target 64
tang-song/draft-small 32
tang-song/draft-tiny 32"

declare -A cells
echo "| model (tokens) | ONNX Runtime median | ours median | ours / ORT | ORT CPU median | ours CPU median | ours / ORT (CPU) | ORT best | ours best | ours / ORT (best) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
while read -r model context; do
    file=$root/corpora/${model%%/*}/models/${model#*/}.onnx
    lengths="$context 16 5 $((context - 1))+1 $((context - 5))+5"
    [ "$model" = kjv/target ] && lengths="$lengths 1 4x16"
    ortOut="" oursOut=""
    for ((r = 0; r < rounds; ++r)); do
        ortOut+=$(cd "$ort" && NODE_PATH="$ort/node_modules" node "$here/ort_time.js" "$file" "$repeat" $lengths)$'\n'
        oursOut+=$("$bench" "$file" --lengths "${lengths// /,}" --threads 1 --repeat "$repeat")$'\n'
    done
    for L in $lengths; do
        o=$(awk -v L="$L" '$1 == L && (m == "" || $2 < m) { m = $2 } END { print m }' <<<"$ortOut")
        s=$(awk -v L="$L" '$4 == L && (m == "" || $8 < m) { m = $8 } END { print m }' <<<"$oursOut")
        oc=$(awk -v L="$L" '$1 == L && (m == "" || $4 < m) { m = $4 } END { print m }' <<<"$ortOut")
        sc=$(awk -v L="$L" '$4 == L && (m == "" || $15 < m) { m = $15 } END { print m }' <<<"$oursOut")
        ob=$(awk -v L="$L" '$1 == L && (m == "" || $3 < m) { m = $3 } END { print m }' <<<"$ortOut")
        sb=$(awk -v L="$L" '$4 == L && (m == "" || $11 < m) { m = $11 } END { print m }' <<<"$oursOut")
        case $L in
            *x*) label="batch ${L%%x*} x ${L#*x}" ;;
            *+*) label="cached, past ${L%%+*} + ${L#*+}" ;;
            *) label=$L ;;
        esac
        cells["$model $L"]="$o $s $oc $sc $ob $sb"
        awk -v m="$model" -v L="$label" -v o="$o" -v s="$s" -v oc="$oc" -v sc="$sc" -v ob="$ob" -v sb="$sb" 'BEGIN {
            printf "| %s (%s) | %.3f ms | %.3f ms | %.2f | %.3f ms | %.3f ms | %.2f | %.3f ms | %.3f ms | %.2f |\n",
                m, L, o, s, s / o, oc, sc, sc / oc, ob, sb, sb / ob }'
    done
done <<<"$models"

echo
echo "| model | V(5) ONNX Runtime | V(5) ours | V(5) ONNX Runtime (CPU) | V(5) ours (CPU) | V(5) ONNX Runtime (best) | V(5) ours (best) |"
echo "|---|---:|---:|---:|---:|---:|---:|"
while read -r model context; do
    read -r o1 s1 oc1 sc1 ob1 sb1 <<<"${cells["$model $((context - 1))+1"]}"
    read -r o5 s5 oc5 sc5 ob5 sb5 <<<"${cells["$model $((context - 5))+5"]}"
    awk -v m="$model" -v o1="$o1" -v s1="$s1" -v o5="$o5" -v s5="$s5" -v oc1="$oc1" -v sc1="$sc1" -v oc5="$oc5" \
        -v sc5="$sc5" -v ob1="$ob1" -v sb1="$sb1" -v ob5="$ob5" -v sb5="$sb5" 'BEGIN {
        printf "| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", m, o5 / o1, s5 / s1, oc5 / oc1, sc5 / sc1, ob5 / ob1, sb5 / sb1 }'
done <<<"$models"

echo
read -r o16 s16 oc16 sc16 ob16 sb16 <<<"${cells["kjv/target 16"]}"
read -r ob sb ocb scb obb sbb <<<"${cells["kjv/target 4x16"]}"
awk -v o16="$o16" -v s16="$s16" -v ob="$ob" -v sb="$sb" -v oc16="$oc16" -v sc16="$sc16" -v ocb="$ocb" -v scb="$scb" \
    -v ob16="$ob16" -v sb16="$sb16" -v obb="$obb" -v sbb="$sbb" 'BEGIN {
    printf "kjv target, a batch of 4 x 16 tokens, time per row / time of one row of 16: ONNX Runtime %.2f, ours %.2f (CPU: %.2f, %.2f; best: %.2f, %.2f)\n",
        ob / 4 / o16, sb / 4 / s16, ocb / 4 / oc16, scb / 4 / sc16, obb / 4 / ob16, sbb / 4 / sb16 }'
fi

# The memory-bound model: cached steps of 1, 5 and 8 new tokens after 128 - rows and C - rows past positions,
# ours on 1 and 2 threads (runs of the specs take turns in one process), ORT on one thread; CPU-time medians
# (the lowest of the rounds), the load average beside each round.
if [ -n "$large" ]; then
    [ -f "$large" ] || { echo "bench_vs_ort.sh: $large is missing" >&2; exit 1; }
    large=$(cd "$(dirname "$large")" && pwd)/$(basename "$large") # (ORT's side runs in its own folder)
    C=$largeContext
    specs="127+1 123+5 120+8 $((C - 1))+1 $((C - 5))+5 $((C - 8))+8"
    ortOut="" ours1="" ours2="" loads=""
    for ((r = 0; r < rounds; ++r)); do
        loads+="$(cut -d' ' -f1 /proc/loadavg) "
        ortOut+=$(cd "$ort" && NODE_PATH="$ort/node_modules" node "$here/ort_time.js" "$large" "$repeat" $specs)$'\n'
        ours1+=$("$bench" "$large" --lengths "${specs// /,}" --threads 1 --repeat "$repeat")$'\n'
        ours2+=$("$bench" "$large" --lengths "${specs// /,}" --threads 2 --repeat "$repeat")$'\n'
    done
    echo
    echo "$(basename "$large") (context $C), load average at the rounds' starts: $loads"
    echo
    echo "| cached step | ORT CPU (1 thread) | ours CPU, 1 thread | ours / ORT | ours wall, 2 threads | ours CPU, 2 threads |"
    echo "|---|---:|---:|---:|---:|---:|"
    declare -A o1 s1 w2 s2
    for L in $specs; do
        o1[$L]=$(awk -v L="$L" '$1 == L && (m == "" || $4 < m) { m = $4 } END { print m }' <<<"$ortOut")
        s1[$L]=$(awk -v L="$L" '$4 == L && (m == "" || $15 < m) { m = $15 } END { print m }' <<<"$ours1")
        w2[$L]=$(awk -v L="$L" '$4 == L && (m == "" || $8 < m) { m = $8 } END { print m }' <<<"$ours2")
        s2[$L]=$(awk -v L="$L" '$4 == L && (m == "" || $15 < m) { m = $15 } END { print m }' <<<"$ours2")
        awk -v L="$L" -v o="${o1[$L]}" -v s="${s1[$L]}" -v w="${w2[$L]}" -v c="${s2[$L]}" 'BEGIN {
            printf "| past %s + %s | %.2f ms | %.2f ms | %.2f | %.2f ms | %.2f ms |\n", substr(L, 1, index(L, "+") - 1),
                substr(L, index(L, "+") + 1), o, s, s / o, w, c }'
    done
    echo
    echo "| past + rows = | V(5) ORT | V(8) ORT | V(5) ours, 1 thread | V(8) ours, 1 thread | V(5), V(8) ours, 2 threads (wall) | V(5), V(8) ours, 2 threads (CPU) |"
    echo "|---|---:|---:|---:|---:|---:|---:|"
    for end in 128 "$C"; do
        one=$((end - 1))+1 five=$((end - 5))+5 eight=$((end - 8))+8
        awk -v e="$end" -v a="${o1[$one]}" -v b="${o1[$five]}" -v c="${o1[$eight]}" -v d="${s1[$one]}" \
            -v f="${s1[$five]}" -v g="${s1[$eight]}" -v h="${w2[$one]}" -v i="${w2[$five]}" -v j="${w2[$eight]}" \
            -v k="${s2[$one]}" -v l="${s2[$five]}" -v n="${s2[$eight]}" 'BEGIN {
            printf "| %s | %.2f | %.2f | %.2f | %.2f | %.2f, %.2f | %.2f, %.2f |\n", e, b / a, c / a, f / d, g / d, i / h,
                j / h, l / k, n / k }'
    done
fi
