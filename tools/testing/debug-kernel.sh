#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (once) and locate the debug kernel of the VM suite: Debian's own
# linux-source-6.1, at the version pinned in tools/testing/kernels, from
# allnoconfig plus tools/testing/debug-kernel.config (lockdep, KASAN,
# kmemleak, DMA-API debugging, fault injection, ...), which the stock
# kernels lack.
#
# The result is cached outside the work tree, keyed by the source version
# and the config fragment, so a fresh clone (or CI with a warm cache)
# reuses it and a changed fragment rebuilds it:
#   ${ECDMA_DEBUG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ecdma}/debug-<ver>-<hash>/
#     src/    the kernel source      build/  its O= tree (KDIR for modules)
#     root/   boot/vmlinuz-<release> and lib/modules/<release>/ (for vm.sh)
#     release the kernel release string
#
# Usage: debug-kernel.sh [--path]   build if needed; print the directory
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
frag=$top/tools/testing/debug-kernel.config
# shellcheck source=tools/testing/kernels.sh
. "$top/tools/testing/kernels.sh"
srcver=$(kernel_ver 6.1)
base=${ECDMA_DEBUG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ecdma}
hash=$(cat "$frag" "$0" | sha256sum | cut -c1-12)
dir=$base/debug-$srcver-$hash

if [ -f "$dir/.done" ]; then
	echo "$dir"
	exit 0
fi
[ "${1:-}" != --path ] || { echo "debug-kernel.sh: not built: $dir" >&2; exit 1; }

log() { echo "debug-kernel: $*" >&2; }
t0=$(date +%s)
rm -rf "$dir"
mkdir -p "$dir/dl"
log "building $srcver into $dir (once; about 15 minutes on 2 CPUs)"

# The source: downloaded, never installed.
(cd "$dir/dl" && apt-get download -qq "linux-source-6.1=$srcver") >&2 ||
	{ apt-get update -qq >&2 && (cd "$dir/dl" && apt-get download -qq "linux-source-6.1=$srcver") >&2; }
dpkg-deb --fsys-tarfile "$dir"/dl/linux-source-6.1_*.deb |
	tar -x -C "$dir/dl" --wildcards './usr/src/linux-source-6.1.tar.*'
mkdir -p "$dir/src"
tar -xaf "$dir"/dl/usr/src/linux-source-6.1.tar.* -C "$dir/src" --strip-components=1
rm -rf "$dir/dl"

# The config: allnoconfig + the fragment; every line of it must stick.
kmake() { make -C "$dir/src" O="$dir/build" -j"$(nproc)" "$@"; }
kmake -s allnoconfig >&2
"$dir/src/scripts/kconfig/merge_config.sh" -m -O "$dir/build" \
	"$dir/build/.config" "$frag" >/dev/null
kmake -s olddefconfig >&2
missing=0
while read -r line; do
	case "$line" in
	CONFIG_*=*)
		grep -qxF "$line" "$dir/build/.config" && continue ;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }
		grep -q "^${opt%% *}=" "$dir/build/.config" || continue ;;
	*) continue ;;
	esac
	log "config did not take: $line"
	missing=1
done <"$frag"
[ $missing = 0 ] || { log "fix $frag"; exit 1; }

kmake bzImage modules >"$dir/build.log" 2>&1 || { tail -40 "$dir/build.log" >&2; exit 1; }
rel=$(kmake -s kernelrelease)
kmake -s INSTALL_MOD_PATH="$dir/root" modules_install >/dev/null
mkdir -p "$dir/root/boot"
cp "$dir/build/arch/x86/boot/bzImage" "$dir/root/boot/vmlinuz-$rel"
depmod -b "$dir/root" "$rel"
echo "$rel" >"$dir/release"
touch "$dir/root/.done" "$dir/.done"
# builds for older sources or fragments are of no use any more
for old in "$base"/debug-*; do
	[ "$old" = "$dir" ] || rm -rf "$old"
done
log "built $rel in $(($(date +%s) - t0)) s"
echo "$dir"
