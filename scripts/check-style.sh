#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Reports where the tree differs from .clang-format (and, with --tidy, what .clang-tidy finds). It never
# rewrites a file unless asked: scripts/check-style.sh --fix FILE... formats those files in place.
#   scripts/check-style.sh                 files changed against main (committed or not)
#   scripts/check-style.sh --all           every C++ file of engine/ session/ widgets/ app/ tests/
#   scripts/check-style.sh FILE...         these files
#   scripts/check-style.sh --tidy FILE...  clang-tidy on these files (needs build/compile_commands.json)
# Exit status 1 when a file differs (or clang-tidy reports), 0 when clean.
set -euo pipefail
cd "$(dirname "$0")/.."
format="${CLANG_FORMAT:-clang-format}"
tidy="${CLANG_TIDY:-clang-tidy}"
mode=changed
case "${1:-}" in
  --all) mode=all; shift ;;
  --fix) mode=fix; shift ;;
  --tidy) mode=tidy; shift ;;
esac
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  if [ "$mode" = all ] || [ "$mode" = tidy ]; then
    mapfile -t files < <(git ls-files 'engine/*.cpp' 'engine/*.h' 'session/*.cpp' 'session/*.h' 'widgets/*.cpp' 'widgets/*.h' 'app/*.cpp' 'app/*.h' 'tests/*.cpp' 'tests/*.h')
  else
    base=$(git merge-base HEAD main 2>/dev/null || echo HEAD)
    mapfile -t files < <({ git diff --name-only "$base"; git ls-files --others --exclude-standard; } | grep -E '\.(cpp|h)$' | sort -u | while read -r f; do [ -f "$f" ] && echo "$f"; done)
  fi
fi
[ ${#files[@]} -eq 0 ] && { echo "check-style: no C++ files to check"; exit 0; }
status=0
case "$mode" in
  fix)
    "$format" -i "${files[@]}" ;;
  tidy)
    [ -f build/compile_commands.json ] || { echo "check-style: configure build/ first (cmake -S . -B build)"; exit 2; }
    "$tidy" -p build --quiet "${files[@]}" || status=1 ;;
  *)
    differing=0
    for f in "${files[@]}"; do
      if ! diff -u "$f" <("$format" --style=file "$f") > /tmp/check-style.$$ 2>&1; then
        differing=$((differing + 1))
        echo "== $f: $(grep -c '^+[^+]' /tmp/check-style.$$ || true) lines differ from .clang-format"
        [ -n "${VERBOSE:-}" ] && cat /tmp/check-style.$$
      fi
    done
    rm -f /tmp/check-style.$$
    echo "check-style: ${differing} of ${#files[@]} files differ (VERBOSE=1 shows the diffs; --fix FILE... applies them)"
    [ "$differing" -eq 0 ] || status=1 ;;
esac
exit $status
