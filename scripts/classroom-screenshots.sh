#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Renders docs/classroom.md's screenshots with specdec-lab's own flags, the way a teacher would script them:
# presenter mode at one projector size, in English and Chinese, every stage (--stage):
#   round          the classic demo at its dice phase
#   predict        the same phase with "predict before reveal" (lesson 5 at T = 1: the first test with its '?')
#   tree           lesson 6's token tree at its dice phase (the round stage of a tree round)
#   distributions  the classic demo's distributions at the dice phase
#   plots          lesson 2's live plots after 30 rounds
#   numbers        lesson 2's theory panel after 30 rounds
#   lab            lesson 5's lossless lab, its 100,000 samples run
#   arena          lesson 6's arena: a chain and two token trees, 12 rounds each
#   theory         lesson 4's theory explorer (α = 0.9, K = 8, c = 0.8)
#   quiz           quiz question 9
#   race           lesson 7's race (kjv target-large + draft-small, T = 0), run to its end: classroom-race-WxH-LANG.png
# and, to look at or print, the handout of the classic demo and the quiz sheet in both languages.
#
#   scripts/classroom-screenshots.sh [BUILD_DIR] [OUT_DIR] [WxH] [PDF_DIR]
#
# Defaults: build, docs/images, 1280x720, BUILD_DIR/classroom (the PDFs: classroom-handout-LANG.pdf and
# classroom-quiz-sheet-LANG.pdf; docs/ keeps only the PNGs). The PNGs are classroom-presenter-STAGE-LANG.png;
# another size (1366x768) names them …-LANG-1366x768.png. Offscreen; the user's settings are neither read nor
# written (automated runs use a throwaway settings file).
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
shot() { # shot STAGE NAME LESSON [more options]
    stage=$1 name=$2 lesson=$3
    shift 3
    "$app" --presenter --stage "$stage" --lesson "lessons/$lesson" --size "$size" --language "$lang" "$@" \
        --screenshot "$out/classroom-presenter-$name-$lang$suffix.png"
}
for lang in en zh_CN; do
    shot round round 00-classic-demo.lesson.json --rounds 3 --phase dice
    shot round predict 05-sampling-breaks.lesson.json --predict --rounds 5 --phase dice
    shot round tree 06-token-trees.lesson.json --rounds 3 --phase dice
    shot distributions distributions 00-classic-demo.lesson.json --rounds 3 --phase dice
    shot plots plots 02-smallest-draft-best.lesson.json --rounds 30 --phase commit
    shot numbers numbers 02-smallest-draft-best.lesson.json --rounds 30 --phase commit
    shot lab lab 05-sampling-breaks.lesson.json --rounds 4 --phase dice
    shot arena arena 06-token-trees.lesson.json --rounds 12 --phase commit
    shot theory theory 04-speculation-free.lesson.json --rounds 3
    shot quiz quiz 00-classic-demo.lesson.json --rounds 3 --quiz 9
    "$app" --presenter --stage race --lesson lessons/07-pass-not-free.lesson.json --rounds 1 --size "$size" \
        --language "$lang" --screenshot "$out/classroom-race-$size-$lang.png"
    if [ -z "$suffix" ]; then # the handout is the normal window's round view, at the size of a laptop
        "$app" --lesson lessons/00-classic-demo.lesson.json --rounds 3 --phase commit --size 1600x1000 \
            --language "$lang" --handout "$pdf/classroom-handout-$lang.pdf" \
            --quiz-sheet "$pdf/classroom-quiz-sheet-$lang.pdf"
    fi
    echo "classroom-screenshots: $lang done ($size)"
done
