#!/usr/bin/env bash
# Trains the six shipped models with the exact parameters used for the files in corpora/*/models/.
# Documentation of how they were made; nobody runs it in CI. Total training time ~1 hour on one core.
#   corpora/train/train_all.sh [MODEL...]     MODEL = kjv/target kjv/draft-small ... (default: all six)
# Needs Debian's python3-torch and python3-onnx. Debian's torch 1.13 calls the reference BLAS (~5 GFLOPS);
# with OpenBLAS it trains ~12x faster. Either install libopenblas0-pthread, or unpack it without installing:
#   apt-get download libopenblas0-pthread && dpkg -x libopenblas0-pthread_*.deb /tmp/openblas
#   OPENBLAS_DIR=/tmp/openblas/usr/lib/x86_64-linux-gnu/openblas-pthread corpora/train/train_all.sh
# Training is deterministic for a given seed on one thread (the numbers in corpora/README.md came from this).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
corpora=$(dirname "$here")
work=${CORPUS_DIR:-/tmp/corpora}
if [[ -n "${OPENBLAS_DIR:-}" ]]; then export LD_LIBRARY_PATH="$OPENBLAS_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"; fi
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1

for c in kjv tang-song; do
  [[ -s "$work/$c.txt" ]] || "$corpora/build-corpus.sh" "$c" "$work/$c.txt"
done

train() { # corpus model args...
  local corpus=$1 model=$2; shift 2
  echo "=== $corpus/$model"
  nice -n 10 /usr/bin/python3 "$here/train_char_model.py" --corpus-file "$work/$corpus.txt" --corpus "$corpus" \
    --out "$corpora/$corpus/models/$model.onnx" --threads 1 --seed 1 "$@"
}

declare -A cmd
cmd[kjv/target]="--layers 4 --d-model 160 --heads 5 --context 128 --batch 32 --steps 100000 --time-budget 2100 --lr 2.5e-3 --warmup 100 --eval-every 250"
cmd[kjv/draft-small]="--layers 2 --d-model 96 --heads 4 --context 64 --batch 32 --steps 3000 --lr 3e-3 --warmup 100 --eval-every 500"
cmd[kjv/draft-tiny]="--layers 1 --d-model 64 --heads 4 --context 32 --batch 64 --steps 4000 --lr 3e-3 --warmup 100 --eval-every 500"
cmd[tang-song/target]="--heldout-mode blocks --layers 4 --d-model 192 --heads 6 --context 64 --batch 32 --steps 500 --lr 1e-3 --warmup 50 --dropout 0.3 --weight-decay 0.1 --tie --eval-every 50 --eval-chars 2000"
cmd[tang-song/draft-small]="--heldout-mode blocks --layers 2 --d-model 96 --heads 4 --context 32 --batch 32 --steps 1500 --lr 2e-3 --warmup 50 --dropout 0.2 --weight-decay 0.1 --tie --eval-every 100 --eval-chars 2000"
cmd[tang-song/draft-tiny]="--heldout-mode blocks --layers 1 --d-model 64 --heads 4 --context 32 --batch 32 --steps 1500 --lr 3e-3 --warmup 50 --dropout 0.1 --weight-decay 0.1 --tie --eval-every 100 --eval-chars 2000"

models=("$@")
[[ ${#models[@]} -gt 0 ]] || models=(kjv/target kjv/draft-small kjv/draft-tiny tang-song/target tang-song/draft-small tang-song/draft-tiny)
for m in "${models[@]}"; do
  [[ -n "${cmd[$m]:-}" ]] || { echo "unknown model $m" >&2; exit 1; }
  # shellcheck disable=SC2086
  train "${m%%/*}" "${m#*/}" ${cmd[$m]}
done
