#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the engine, the CLI and the tests with a sanitizer preset of CMakePresets.json and runs ctest.
#   scripts/sanitize.sh [asan|tsan|gui] [ctest arguments...]     (default: asan)
# asan and tsan leave the GUI out (SPECDEC_GUI=OFF): sessions and models go through app/core and the engine,
# tested there, and the window would double the build time on CI. gui builds everything with ASan + UBSan
# (build-asan-gui/) and runs the window's suites (test_gui_*, test_frame) offscreen.
# The corpora (kjv, tang-song) are built in the preset's build folder like in the normal build.
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-asan}"
shift || true
jobs="${SPECDEC_JOBS:-2}"
cmake --preset "$preset"
cmake --build --preset "$preset" -j "$jobs"
ctest --preset "$preset" -j "$jobs" "$@"
