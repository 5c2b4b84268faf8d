#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Renders docs/classroom.md's screenshots with specdec-lab's own flags, the way a teacher would script them:
# presenter mode at one projector size, in English and Chinese — the classic demo at its dice phase, the same
# phase with "predict before reveal" (lesson 5 at T = 1, round 5: the first test with its '?'), and quiz question 9 —
# and, to look at or print, the handout of the classic demo and the quiz sheet in both languages.
#
#   scripts/classroom-screenshots.sh [BUILD_DIR] [OUT_DIR] [WxH] [PDF_DIR]
#
# Defaults: build, docs/images, 1280x720, BUILD_DIR/classroom (the PDFs: classroom-handout-LANG.pdf and
# classroom-quiz-sheet-LANG.pdf; docs/ keeps only the PNGs). Another size (1366x768) names its PNGs
# …-LANG-1366x768.png. Offscreen; the user's settings are neither read nor written (automated runs use a
# throwaway settings file).
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
out=${2:-docs/images}
size=${3:-1280x720}
pdf=${4:-$build/classroom}
app="$build/bin/specdec-lab"
[ -x "$app" ] || { echo "classroom-screenshots: $app not found (build specdec-lab first)" >&2; exit 1; }
mkdir -p "$out" "$pdf"
export QT_QPA_PLATFORM=offscreen
suffix=""
[ "$size" = 1280x720 ] || suffix="-$size"
for lang in en zh_CN; do
    "$app" --presenter --lesson lessons/00-classic-demo.lesson.json --rounds 3 --phase dice --size "$size" \
        --language "$lang" --screenshot "$out/classroom-presenter-round-$lang$suffix.png"
    "$app" --presenter --predict --lesson lessons/05-sampling-breaks.lesson.json --rounds 5 --phase dice \
        --size "$size" --language "$lang" --screenshot "$out/classroom-presenter-predict-$lang$suffix.png"
    "$app" --presenter --lesson lessons/00-classic-demo.lesson.json --rounds 3 --quiz 9 --size "$size" \
        --language "$lang" --screenshot "$out/classroom-presenter-quiz-$lang$suffix.png"
    if [ -z "$suffix" ]; then # the handout is the normal window's round view, at the size of a laptop
        "$app" --lesson lessons/00-classic-demo.lesson.json --rounds 3 --phase commit --size 1600x1000 \
            --language "$lang" --handout "$pdf/classroom-handout-$lang.pdf" \
            --quiz-sheet "$pdf/classroom-quiz-sheet-$lang.pdf"
    fi
    echo "classroom-screenshots: $lang done ($size)"
done
