#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build ecdma (and the test modules) for one pinned kernel in a private
# output tree, so builds for several kernels (or several developers) never
# share object files.
#
# Usage: tools/testing/build.sh <kver-tag|abi|debug> [outdir] [kbuild args...]
#   outdir defaults to build/<abi>.  Prints nothing but kbuild's output;
#   exits non-zero on any compiler or sparse warning when W=1/C=1 are given.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
tag=${1:?usage: build.sh <kver> [outdir] [kbuild args]}
shift
if [ "$tag" = debug ]; then
	# the debug kernel (tools/testing/debug-kernel.sh builds it once, if
	# needed): its own O= tree
	dbg=$("$top/tools/testing/debug-kernel.sh") || exit 2
	abi=$(cat "$dbg/release")
	kdir=$dbg/build
else
	# shellcheck source=tools/testing/kernels.sh
	. "$top/tools/testing/kernels.sh"
	abi=$(kernel_abi "$tag")
	kdir=/usr/src/linux-headers-$abi
fi
out=${1:-$top/build/$abi}
[ $# -gt 0 ] && shift
[ -f "$kdir/Makefile" ] || { echo "build.sh: no headers for $abi in $kdir (run make deps)" >&2; exit 2; }

mkdir -p "$out"
# One build of a tree at a time: make check's static checks and its VM
# runs build the same trees side by side (vm.sh copies the modules out
# under a shared lock)
exec 9>"$out/.lock"
flock 9
# Mirror only the sources; keep objects of the previous build for speed.
srcs=(Kbuild VERSION drivers include)
[ -d "$top/selftests/kmod" ] && srcs+=(selftests/kmod)
tar -C "$top" -cf - --exclude='*.o' --exclude='*.ko' --exclude='*.cmd' \
	--exclude='*.mod' --exclude='*.mod.c' --exclude='*.order' \
	--exclude='*.symvers' "${srcs[@]}" | tar -C "$out" -xf -
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# every CPU: sparse (C=2) runs once per file, and make check builds for
# every pinned kernel before the first boot
jobs=-j$(nproc)
set +e
make -C "$kdir" M="$out" "$jobs" "$@" modules 2>&1 | tee "$log" |
	grep -v -E '^make\[|^  (CC|LD|MODPOST|CHECK|BTF)|Skipping BTF'
rc=${PIPESTATUS[0]}
set -e
if [ "$rc" -ne 0 ]; then
	echo "build.sh: build for $abi failed" >&2
	exit 1
fi
if grep -q -E 'warning:|error:' "$log"; then
	echo "build.sh: warnings in build for $abi" >&2
	exit 1
fi

# Test modules built from the kernel source package (never vendored):
# dmatest and raid6test are not enabled in Debian's kernels.  Built in their
# own kbuild pass without W=1/C=1: they are the kernel's code, not ours.
src=${ECDMA_CACHE:-$top/.cache}/linux-source
if [ -f "$src/drivers/dma/dmatest.c" ]; then
	mkdir -p "$out/ext"
	cp "$src/drivers/dma/dmatest.c" "$src/crypto/async_tx/raid6test.c" "$out/ext/"
	printf 'obj-m += dmatest.o raid6test.o\n' >"$out/ext/Kbuild"
	if ! make -C "$kdir" M="$out/ext" "$jobs" modules >"$log" 2>&1; then
		cat "$log" >&2
		echo "build.sh: dmatest/raid6test build for $abi failed" >&2
		exit 1
	fi
fi
