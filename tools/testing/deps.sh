#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install everything ecdma's build, tests, demo and benchmark need on a
# Debian 12 machine.  Idempotent: only what is missing is installed or
# downloaded.  Kernel images and the kernel source are *downloaded and
# unpacked* into $ECDMA_CACHE (never installed): the host kernel is
# irrelevant, tests boot the pinned kernels in QEMU.
#
# The kernels are pinned by exact version (tools/testing/kernels).  Debian's
# security archive replaces them as updates come: a pin the archive no
# longer has falls back to the newest image of the same series, with a
# line saying so, recorded in $ECDMA_CACHE/kernels.resolved for every
# other script (tools/testing/kernels.sh); the pin stays the preferred
# version.
#
# Usage: tools/testing/deps.sh [--quiet]
#        tools/testing/deps.sh --resolve [PINS]   print the resolution of
#                 PINS (default tools/testing/kernels), install nothing
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${ECDMA_CACHE:-$top/.cache}
pins=$top/tools/testing/kernels
quiet=${1:-}
resolve_only=
if [ "$quiet" = --resolve ]; then
	resolve_only=1
	pins=${2:-$pins}
fi

log() { [ "$quiet" = --quiet ] || echo "deps: $*"; }

sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo

apt_updated=
apt_update() {
	[ -n "$apt_updated" ] && return
	log "apt-get update"
	$sudo apt-get update -qq
	apt_updated=1
}

# in_archive <package> <version>: the archive (apt's lists) has it
in_archive() {
	apt-cache madison "$1" 2>/dev/null |
		awk -F'|' '{ gsub(/ /, "", $2); print $2 }' | grep -qxF "$2"
}

# newest <tag>: "abi version" of the newest amd64 image of the series
# that has its headers at that version
newest() {
	local re pkgs pkg v
	re="^linux-image-${1//./\\.}\\.[0-9]+(-[0-9]+)?(\\+deb[0-9]+)?-amd64\$"
	mapfile -t pkgs < <(apt-cache pkgnames "linux-image-$1." | grep -E "$re")
	[ ${#pkgs[@]} -gt 0 ] || return 1
	# "version package", newest first
	apt-cache madison "${pkgs[@]}" |
		awk -F'|' '{ gsub(/ /, ""); print $2, $1 }' | sort -rV |
		while read -r v pkg; do
			in_archive "linux-headers-${pkg#linux-image-}" "$v" || continue
			echo "${pkg#linux-image-} $v"
			return 0
		done
}

# resolve: "tag abi version" per pin: the pin when this machine or the
# archive has it, else the newest of its series (with a line on stderr)
resolve() {
	local tag abi ver nabi nver
	while read -r tag abi ver; do
		if { [ -f "$cache/kernel-$abi/.done" ] &&
		     dpkg-query -W -f='${Version}' "linux-headers-$abi" 2>/dev/null |
		     grep -qxF "$ver"; } ||
		   { in_archive "linux-image-$abi" "$ver" &&
		     in_archive "linux-headers-$abi" "$ver"; }; then
			echo "$tag $abi $ver"
			continue
		fi
		if read -r nabi nver < <(newest "$tag"); then
			echo "deps: linux-image-$abi=$ver is not in Debian's archive any more; falling back to linux-image-$nabi=$nver, the newest $tag it has (the pin in tools/testing/kernels stays the preferred version)" >&2
			echo "$tag $nabi $nver"
		else
			echo "deps: no linux-image-$tag.* in the archive for the pin $abi=$ver" >&2
			return 1
		fi
	done < <(awk '!/^#/ && NF == 3 { print $1, $2, $3 }' "$pins")
}

if [ -n "$resolve_only" ]; then
	resolve
	exit
fi

# A pin apt does not know may only need fresh lists.
while read -r tag abi ver; do
	in_archive "linux-image-$abi" "$ver" || [ -f "$cache/kernel-$abi/.done" ] ||
		apt_update
done < <(awk '!/^#/ && NF == 3 { print $1, $2, $3 }' "$pins")
mkdir -p "$cache"
# a name of its own: two runs sharing one cache (two make perf side by
# side) raced on a fixed one, and the loser's mv failed
resolved=$(mktemp "$cache/kernels.resolved.XXXXXX")
resolve >"$resolved" || { rm -f "$resolved"; exit 1; }
chmod 644 "$resolved"
mv "$resolved" "$cache/kernels.resolved"
# shellcheck source=tools/testing/kernels.sh
. "$top/tools/testing/kernels.sh"

pkgs=(qemu-system-x86 busybox-static mdadm fio nvme-cli kmod cpio sparse
      gcc make perl bc flex bison libelf-dev libssl-dev dwarves
      libisal-dev rdma-core ibverbs-utils iproute2 gnuplot-nox
      python3 xz-utils zstd openssl
      debhelper dh-dkms dkms lintian python3-docutils)
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
srcver=$(kernel_ver 6.1)
src=$cache/linux-source
if [ "$(cat "$src/.done" 2>/dev/null)" != "$srcver" ]; then
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
	echo "$srcver" >"$src/.done"
fi
log "ready (cache: $cache)"
