#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds one corpus of corpora/manifest.tsv into a UTF-8 text file.
#   build-corpus.sh NAME OUTPUT
# tang-song: the fortunes-zh poems with the ANSI colour escapes and the '%' separators removed; one poem per
#            block (title, author, lines), blocks separated by a blank line.
# kjv:       every verse printed by the bible program, one per line, with its reference ("Ge1:1 ") removed.
# The output is written to a temporary file and renamed, so a failed build never leaves a half-written corpus.
set -euo pipefail
name=${1:?usage: build-corpus.sh NAME OUTPUT}
out=${2:?usage: build-corpus.sh NAME OUTPUT}
mkdir -p "$(dirname "$out")"
tmp=$(mktemp "$out.XXXXXX")
trap 'rm -f "$tmp"' EXIT

case "$name" in
  tang-song)
    for f in /usr/share/games/fortunes/tang300.u8 /usr/share/games/fortunes/song100.u8; do
      [[ -r "$f" ]] || { echo "build-corpus: $f is missing (install package fortunes-zh)" >&2; exit 1; }
    done
    cat /usr/share/games/fortunes/tang300.u8 /usr/share/games/fortunes/song100.u8 \
      | sed -e 's/\x1b\[[0-9;]*m//g' -e 's/[[:space:]]*$//' \
      | awk 'BEGIN { blank = 1 }
             /^%$/ { if (!blank) { print ""; blank = 1 } next }
             /^$/  { next }
             { print; blank = 0 }' > "$tmp"
    ;;
  kjv)
    command -v bible >/dev/null || { echo "build-corpus: the bible program is missing (install package bible-kjv)" >&2; exit 1; }
    bible -f "Gen1:1-Rev22:21" | sed -n -e 's/^[^ ]*[0-9]:[0-9]* //p' > "$tmp"
    ;;
  *)
    echo "build-corpus: unknown corpus '$name' (known: $(grep -v '^#' "$(dirname "$0")/manifest.tsv" | cut -f1 | tr '\n' ' '))" >&2
    exit 1
    ;;
esac

[[ -s "$tmp" ]] || { echo "build-corpus: $name came out empty" >&2; exit 1; }
chmod 644 "$tmp"
mv "$tmp" "$out"
trap - EXIT
