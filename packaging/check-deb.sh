#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# check-deb.sh BUILD_DIR CHROOT_DIR: builds the .deb (cpack -G DEB in BUILD_DIR), runs lintian on it, then
# installs it with apt into a clean Debian 12 root (made with debootstrap from the Debian mirror when CHROOT_DIR
# does not exist yet; a root used before is first returned to its base set with purge + autoremove) and runs
# the installed programs from /. Needs root, debootstrap and lintian (Debian packages of the same names).
set -euo pipefail
build=$(cd "${1:?usage: check-deb.sh BUILD_DIR CHROOT_DIR}" && pwd)
root=${2:?usage: check-deb.sh BUILD_DIR CHROOT_DIR}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

(cd "$build" && cpack -G DEB > cpack.log) || { cat "$build/cpack.log"; exit 1; }
deb=$(ls -t "$build"/specdec-lab_*.deb | head -1)
echo "check-deb: $deb ($(du -h "$deb" | cut -f1))"
dpkg-deb -f "$deb" Depends Recommends
if command -v lintian > /dev/null; then
  lintian --tag-display-limit 0 "$deb" && echo "check-deb: lintian: no errors or warnings"
fi

if [[ ! -d "$root" ]]; then
  debootstrap --variant=minbase bookworm "$root" "$mirror" > "$build/debootstrap.log"
fi
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
trap 'umount "$root/dev" "$root/proc"' EXIT
cp "$deb" "$root/tmp/"
name=$(basename "$deb")
chroot "$root" /bin/bash -euc "
  export DEBIAN_FRONTEND=noninteractive
  apt-get purge -y -q specdec-lab > /dev/null 2>&1 || true
  apt-get autoremove --purge -y -q > /dev/null
  apt-get update -q > /dev/null
  cd /tmp && apt install -y ./$name > /tmp/apt-install.log 2>&1 || { tail -20 /tmp/apt-install.log; exit 1; }
  grep 'newly installed' /tmp/apt-install.log
  cd / && env -i PATH=/usr/bin:/bin HOME=/root specdec run --corpus kjv --tokens 50 | tail -2
  cd / && env -i PATH=/usr/bin:/bin HOME=/root specdec run --corpus kjv --target onnx:corpora/kjv/models/target.onnx \
      --draft onnx:corpora/kjv/models/draft-tiny.onnx --prompt 'And God said' --tokens 20 --temperature 0 | tail -1
  cd / && env -i PATH=/usr/bin:/bin HOME=/root QT_QPA_PLATFORM=offscreen specdec-lab --screenshot /tmp/x.png \
      --language zh_CN > /dev/null 2>&1
  test -s /tmp/x.png
"
cp "$root/tmp/x.png" "$build/check-deb-window.png"
echo "check-deb: PASS (the window, in Chinese: $build/check-deb-window.png)"
