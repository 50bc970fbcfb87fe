#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Write ecdma's DKMS source tree: what dkms builds from (Kbuild, VERSION,
# drivers/ecdma, include/ecdma; no test module, no tool) and its dkms.conf,
# dkms.conf.in with the version of VERSION.  make dkms-src, make
# dkms-install and the Debian package (tools/packaging/debian/rules) use it.
#
# Usage: dkms-src.sh [--conf FILE] DIR
#        dkms-src.sh --version         print the version
#   --conf FILE  write dkms.conf to FILE instead of DIR/dkms.conf (the
#                Debian build: dh_dkms installs it from there)
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
version=$(sed -n '/^[^#]/{p;q}' "$top/VERSION")
[ -n "$version" ] || { echo "dkms-src.sh: no version in $top/VERSION" >&2; exit 2; }

conf=
case "${1:-}" in
--version) echo "$version"; exit 0 ;;
--conf) conf=${2:?--conf takes a file}; shift 2 ;;
esac
dir=${1:?usage: dkms-src.sh [--conf FILE] DIR}
conf=${conf:-$dir/dkms.conf}

# a previous tree of ours is replaced; anything else is left alone
if [ -e "$dir" ] && [ -n "$(ls -A "$dir")" ] && [ ! -f "$dir/Kbuild" ]; then
	echo "dkms-src.sh: $dir exists and is not a DKMS tree of ecdma" >&2
	exit 2
fi
rm -rf "$dir"
mkdir -p "$dir/drivers/ecdma" "$dir/include"

cp "$top/Kbuild" "$top/VERSION" "$dir/"
cp "$top/drivers/ecdma/Kbuild" "$dir/drivers/ecdma/"
# the sources only, not what an in-tree build left beside them
for f in "$top"/drivers/ecdma/*.[ch]; do
	case "$f" in
	*.mod.c) ;;
	*) cp "$f" "$dir/drivers/ecdma/" ;;
	esac
done
cp -r "$top/include/ecdma" "$dir/include/"
mkdir -p "$(dirname "$conf")"
sed "s/@VERSION@/$version/g" "$top/dkms.conf.in" >"$conf"
