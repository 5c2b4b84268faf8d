#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Re-renders the screenshots of docs/images/ from the current window, offscreen: the main window at 1600x1000
# and 1280x720 in English and Chinese, the presenter mode, and the classroom's arena, lab and theory explorer
# at the size they open with on a 1280x720 screen, and a subword session (Qwen3's and Mixtral's tokenizer.json). PNGs are reduced to 256 colours (ImageMagick) to stay small.
# Usage: scripts/docs-screenshots.sh [BUILD_DIR]   (needs specdec-lab and classroom_screenshots built)
set -eu
build=${1:-build}
out=docs/images
lab=$build/bin/specdec-lab
export QT_QPA_PLATFORM=offscreen
shot() { # shot FILE ARGS...: one main-window screenshot
    file=$1
    shift
    "$lab" --screenshot "$out/$file" "$@"
}

# The user guide's phases at 1600x1000, in each guide's language.
for lang in en zh_CN; do
    sfx=$([ "$lang" = en ] && echo "" || echo "-zh_CN")
    shot "draft$sfx.png" --rounds 12 --phase draft --size 1600x1000 --language "$lang"
    shot "dice$sfx.png" --rounds 12 --phase dice --card 2 --size 1600x1000 --language "$lang"
    shot "residual$sfx.png" --rounds 12 --phase residual --size 1600x1000 --language "$lang"
    shot "bonus$sfx.png" --draft same --rounds 12 --phase bonus --card 5 --size 1600x1000 --language "$lang"
    shot "greedy$sfx.png" --temperature 0 --rounds 12 --phase dice --card 2 --size 1600x1000 --language "$lang"
    [ "$lang" = en ] && shot many-rounds.png --rounds 150 --phase commit --size 1600x1000 --language en
    # A 720p projector: the compact layout.
    shot "window-1280x720-$lang.png" --rounds 12 --phase dice --card 2 --size 1280x720 --language "$lang"
done
shot tang-song-zh.png --corpus tang-song --prompt "床前明月光，" --rounds 12 --phase dice --card 2 --size 1600x1000 \
    --language zh_CN

# Subword tokens (the user guide's "Subword tokens"), with the tokenizer.json files of ctest's tokenizer_files
# fixture (tests/tokenizer/fetch-tokenizers.sh BUILD_DIR/tokenizers BUILD_DIR/corpora).
tok=$build/tokenizers
if [ -f "$tok/qwen3/tokenizer.json" ] && [ -f "$tok/mixtral/tokenizer.json" ]; then
    qwen3="--corpus kjv --tokenizer $tok/qwen3/tokenizer.json --target ngram:4 --draft ngram:2"
    for lang in en zh_CN; do
        for size in 1280x720 1600x1000; do
            # shellcheck disable=SC2086 # $qwen3 is several arguments
            shot "subword-$size-$lang.png" $qwen3 --prompt "And God said" --k 4 --seed 3 --rounds 3 --phase dice \
                --size "$size" --language "$lang"
        done
    done
    # shellcheck disable=SC2086
    shot subword-tree-1280x720-en.png $qwen3 --prompt "And God said" --tree 3,2,1 --seed 3 --rounds 2 --phase dice \
        --size 1280x720 --language en
    shot subword-bytes-1600x1000-zh_CN.png --corpus tang-song --tokenizer "$tok/mixtral/tokenizer.json" \
        --target ngram:4 --draft ngram:2 --prompt "床前明月光，" --k 4 --seed 1 --rounds 4 --phase dice --size 1600x1000 \
        --language zh_CN
else
    echo "docs-screenshots: no tokenizer files in $tok (tests/tokenizer/fetch-tokenizers.sh): subword-*.png kept" >&2
fi

# Presenter mode (docs/classroom.md).
for lang in en zh_CN; do
    shot "classroom-presenter-round-$lang.png" --presenter --lesson lessons/00-classic-demo.lesson.json --rounds 3 \
        --phase dice --size 1280x720 --language "$lang"
    shot "classroom-presenter-quiz-$lang.png" --presenter --lesson lessons/00-classic-demo.lesson.json --rounds 3 \
        --phase dice --quiz 9 --size 1280x720 --language "$lang"
done

# The classroom's tool windows; the window's translations come from the build tree.
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
mkdir "$data/translations"
cp "$build"/app/gui/specdec-lab_*.qm "$data/translations/"
for lang in en zh_CN; do
    SPECDEC_DATA_DIR=$data "$build/bin/classroom_screenshots" "$data" --size 1280x720 --language "$lang" >/dev/null
    for tool in arena lab theory; do
        cp "$data/classroom-$tool-1280x720-$lang.png" "$out/"
    done
done

for f in "$out"/*.png; do
    convert "$f" -strip -colors 256 "PNG8:$f"
done
