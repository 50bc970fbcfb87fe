#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install everything ecdma's build, tests, demo and benchmark need on a
# Debian 12 machine.  Idempotent: only what is missing is installed or
# downloaded.  Kernel images and the kernel source are *downloaded and
# unpacked* into $ECDMA_CACHE (never installed): the host kernel is
# irrelevant, tests boot the pinned kernels in QEMU.
#
# Usage: tools/testing/deps.sh [--quiet]
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${ECDMA_CACHE:-$top/.cache}
kernels=$top/tools/testing/kernels
quiet=${1:-}

log() { [ "$quiet" = --quiet ] || echo "deps: $*"; }

# tag -> "abi version"
kernel_lines() { awk '!/^#/ && NF == 3 { print $1, $2, $3 }' "$kernels"; }

sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo

pkgs=(qemu-system-x86 busybox-static mdadm fio nvme-cli kmod cpio sparse
      gcc make perl bc flex bison libelf-dev libssl-dev dwarves
      libisal-dev rdma-core ibverbs-utils iproute2 gnuplot-nox
      python3 xz-utils zstd)
while read -r tag abi ver; do
	pkgs+=("linux-headers-$abi=$ver")
done < <(kernel_lines)

missing=()
for p in "${pkgs[@]}"; do
	name=${p%%=*}
	want=${p#*=}
	[ "$want" = "$p" ] && want=
	have=$(dpkg-query -W -f='${Status} ${Version}' "$name" 2>/dev/null || true)
	case "$have" in
	"install ok installed $want"*) ;;
	"install ok installed "*) [ -z "$want" ] || missing+=("$p") ;;
	*) missing+=("$p") ;;
	esac
done

apt_updated=
apt_update() {
	[ -n "$apt_updated" ] && return
	log "apt-get update"
	$sudo apt-get update -qq
	apt_updated=1
}

if [ ${#missing[@]} -gt 0 ]; then
	apt_update
	log "installing: ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
		--no-install-recommends "${missing[@]}" >/dev/null
fi

# Download + unpack (never install) a package into $cache/<dir>.
fetch() {
	local pkg=$1 ver=$2 dir=$3
	[ -f "$dir/.done" ] && return
	rm -rf "$dir" "$cache/dl"
	mkdir -p "$dir" "$cache/dl"
	apt_update
	log "downloading $pkg=$ver"
	(cd "$cache/dl" && apt-get download -qq "$pkg=$ver")
	dpkg-deb -x "$cache"/dl/*.deb "$dir"
	rm -rf "$cache/dl"
	touch "$dir/.done"
}

mkdir -p "$cache"
while read -r tag abi ver; do
	fetch "linux-image-$abi" "$ver" "$cache/kernel-$abi"
	# depmod so modprobe can resolve dependencies inside the unpacked tree
	if [ ! -f "$cache/kernel-$abi/lib/modules/$abi/modules.dep" ]; then
		depmod -b "$cache/kernel-$abi" "$abi"
	fi
done < <(kernel_lines)

# linux-source-6.1: only the files we build or run from it.
read -r _ _ srcver < <(kernel_lines | awk '$1 == "6.1"')
src=$cache/linux-source
if [ ! -f "$src/.done" ]; then
	rm -rf "$src" "$cache/srcpkg"
	fetch linux-source-6.1 "$srcver" "$cache/srcpkg"
	mkdir -p "$src"
	log "extracting files from linux-source-6.1"
	tar -xaf "$cache"/srcpkg/usr/src/linux-source-6.1.tar.* -C "$src" \
		--strip-components=1 \
		linux-source-6.1/drivers/dma/dmatest.c \
		linux-source-6.1/drivers/dma/dmaengine.h \
		linux-source-6.1/crypto/async_tx/raid6test.c \
		linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch \
		linux-source-6.1/lib/raid6 \
		linux-source-6.1/include/linux/raid/pq.h \
		linux-source-6.1/crypto/xor.c \
		linux-source-6.1/arch/x86/include/asm/xor.h \
		linux-source-6.1/arch/x86/include/asm/xor_avx.h \
		linux-source-6.1/arch/x86/include/asm/xor_64.h \
		linux-source-6.1/include/asm-generic/xor.h
	rm -rf "$cache/srcpkg"
	touch "$src/.done"
fi
log "ready (cache: $cache)"
