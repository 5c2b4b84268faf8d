#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# test_install.sh BUILD_DIR SOURCE_DIR: installs the build into a temporary prefix and runs the installed programs
# from / with no help from the build or source tree: the CLI on a built corpus and on the shipped ONNX models
# (named relative to the data directory), and a window screenshot. Checks the standard places are filled and,
# when the validators are installed, that the installed .desktop and metainfo files pass them.
set -euo pipefail
build=$(cd "${1:?usage: test_install.sh BUILD_DIR SOURCE_DIR}" && pwd)
source=$(cd "${2:?usage: test_install.sh BUILD_DIR SOURCE_DIR}" && pwd)
prefix="$build/install-test"
out="$build/install-test-out"
rm -rf "$prefix" "$out"
mkdir -p "$out"
fail() { echo "test_install: FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" > "$out/install.log" || fail "cmake --install (see $out/install.log)"

id=io.github.specdeclab.specdec_lab
for f in bin/specdec bin/specdec-lab \
         share/specdec-lab/corpora/kjv.txt share/specdec-lab/corpora/tang-song.txt \
         share/specdec-lab/corpora/kjv/models/target.onnx share/specdec-lab/corpora/tang-song/models/draft-tiny.onnx \
         share/specdec-lab/translations/specdec-lab_zh_CN.qm \
         share/applications/$id.desktop share/icons/hicolor/scalable/apps/$id.svg share/metainfo/$id.metainfo.xml \
         share/doc/specdec-lab/README.md share/doc/specdec-lab/docs/user-guide.md share/specdec-lab/docs/images/dice.png share/man/man1/specdec.1.gz; do
  [[ -s "$prefix/$f" ]] || fail "$prefix/$f was not installed"
done
if [[ -d "$source/lessons" ]]; then
  [[ -d "$prefix/share/specdec-lab/lessons" ]] || fail "lessons/ was not installed"
fi
[[ -z $(find "$prefix" -name '*.parity') ]] || fail "the models' parity data (for tests) was installed"
# The one link: the doc folder's docs/ is the program's (relative, so it holds in a package too).
[[ $(readlink "$prefix/share/doc/specdec-lab/docs") == ../../specdec-lab/docs ]] || fail "share/doc/specdec-lab/docs"
links=$(find "$prefix" -type l ! -path "$prefix/share/doc/specdec-lab/docs")
[[ -z $links ]] || fail "the install holds symbolic links: $(echo "$links" | head -3)"
# No data folder of the source or build tree compiled into the programs (other paths may be there in a debug
# or sanitizer build: __FILE__ of assertions, debug information).
for exe in specdec specdec-lab; do
  for dir in "$source" "$build"; do
    for data in corpora lessons docs translations; do
      ! grep -q -a -F "$dir/$data" "$prefix/bin/$exe" || fail "bin/$exe holds the path $dir/$data"
    done
  done
done

# Run from /, with a clean environment: only the installed data directory can be found.
run() { (cd / && env -i PATH=/usr/bin:/bin HOME="$out" QT_QPA_PLATFORM=offscreen "$@"); }
run "$prefix/bin/specdec" run --corpus kjv --tokens 50 > "$out/run.txt" 2>&1 || { cat "$out/run.txt"; fail "specdec run --corpus kjv"; }
grep -q "^rounds [0-9]*, target calls" "$out/run.txt" || { cat "$out/run.txt"; fail "specdec run printed no statistics"; }
run "$prefix/bin/specdec" run --corpus kjv --target onnx:corpora/kjv/models/draft-small.onnx \
    --draft onnx:corpora/kjv/models/draft-tiny.onnx --prompt "And God said" --tokens 12 --temperature 0 --json > "$out/onnx.json" 2>&1 \
  || { cat "$out/onnx.json"; fail "specdec run with the shipped ONNX models"; }
grep -q -F "$prefix/share/specdec-lab/corpora/kjv/models/draft-small.onnx" "$out/onnx.json" \
  || { cat "$out/onnx.json"; fail "the ONNX target was not the installed model"; }
run "$prefix/bin/specdec-lab" --screenshot "$out/window.png" --size 800x600 > "$out/gui.txt" 2>&1 \
  || { cat "$out/gui.txt"; fail "specdec-lab --screenshot"; }
[[ $(head -c 8 "$out/window.png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || fail "no PNG screenshot"
# A lesson's screenshot, as scripts/classroom-screenshots.sh makes them (its "your session is kept" notice is no error).
run "$prefix/bin/specdec-lab" --presenter --stage round --lesson "$prefix/share/specdec-lab/lessons/00-classic-demo.lesson.json" \
    --rounds 2 --phase dice --screenshot "$out/lesson.png" --size 800x600 > "$out/lesson.txt" 2>&1 \
  || { cat "$out/lesson.txt"; fail "specdec-lab --lesson ... --screenshot"; }
[[ $(head -c 8 "$out/lesson.png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || fail "no PNG screenshot of a lesson"

if command -v desktop-file-validate > /dev/null; then
  desktop-file-validate "$prefix/share/applications/$id.desktop" || fail "desktop-file-validate"
fi
if command -v appstreamcli > /dev/null; then
  appstreamcli validate --no-net "$prefix/share/metainfo/$id.metainfo.xml" || fail "appstreamcli validate"
fi
echo "test_install: PASS ($(du -sh "$prefix" | cut -f1) installed in $prefix)"
