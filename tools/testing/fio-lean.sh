#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A lean fio for the guest.  Debian's fio links the libraries of its
# engines (Ceph RBD and RADOS, GlusterFS, NBD, PMEM, RDMA), which bring
# dozens more, all bound at start (BIND_NOW): the page faults of loading
# them are most of a fio start in a TCG guest, several seconds on the
# debug kernel, and the tests start fio hundreds of times
# (Documentation/testing.rst has the numbers).  The guest tests use the
# psync and libaio engines only, so for every engine library this writes
# a stub of the same soname that defines, with the same versions, exactly
# the symbols fio imports from it; each aborts with a message if it is
# ever called.  fio keeps libc, libm, libz, libaio and libnuma, and the
# code of every engine the tests run is Debian's own.
#
# Usage: fio-lean.sh <fio> <dir>
#   writes <dir>/fio (a copy), <dir>/keep (the real libraries' paths, one
#   a line) and <dir>/lib*.so.* (the stubs); exit status 1 when it cannot
#   (no compiler, an unexpected symbol): vm.sh then copies fio whole.
set -euo pipefail

fio=$1
dir=$2
# the libraries fio's own code needs
keep_re='^(libc|libm|libz|libaio|libnuma)\.so\.'

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$dir" "$tmp/out"

# fio's imports: name, version ("Base" when unversioned)
objdump -T "$fio" | awk '$3 == "*UND*" {
	v = $(NF - 1); gsub(/[()]/, "", v); print $NF, v }' >"$tmp/imports"

# the loader itself, then the real libraries kept
readelf -l "$fio" | sed -n 's/.*interpreter: \(.*\)\]/\1/p' >"$tmp/keep"
for soname in $(readelf -d "$fio" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
	path=$(ldd "$fio" | awk -v s="$soname" '$1 == s { print $3 }')
	[ -n "$path" ] || { echo "fio-lean.sh: $soname not found" >&2; exit 1; }
	if [[ $soname =~ $keep_re ]]; then
		echo "$path" >>"$tmp/keep"
		continue
	fi
	# what the library defines: name, kind (F function, O object), size
	objdump -T "$path" | awk '$4 != "*UND*" && NF >= 6 && $3 ~ /^D?[FO]$/ {
		print $NF, substr($3, length($3)), $(NF - 2) }' |
		sort -u -k1,1 >"$tmp/defs"
	c=$tmp/$soname.c
	vs=$tmp/$soname.map
	cat >"$c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
static void stub(const char *f)
{
	fprintf(stderr, "fio: %s: an engine library the ecdma guest leaves out\n", f);
	abort();
}
EOF
	: >"$tmp/vers"
	while read -r name ver; do
		def=$(awk -v n="$name" '$1 == n { print $2, $3; exit }' "$tmp/defs")
		[ -n "$def" ] || continue
		read -r kind size <<<"$def"
		if [ "$kind" = F ]; then
			echo "void $name(void) { stub(\"$name\"); }" >>"$c"
		else
			echo "char ${name}[$((16#$size))];" >>"$c"
		fi
		echo "$ver $name" >>"$tmp/vers"
	done <"$tmp/imports"
	[ -s "$tmp/vers" ] || { echo "fio-lean.sh: nothing of $soname imported" >&2; exit 1; }
	# a version node per version fio needs; unversioned imports go to
	# the first (a versioned definition satisfies an unversioned use)
	if grep -q -v '^Base ' "$tmp/vers"; then
		first=$(grep -v '^Base ' "$tmp/vers" | head -1 | cut -d' ' -f1)
		sed -i "s/^Base /$first /" "$tmp/vers"
		cut -d' ' -f1 "$tmp/vers" | sort -u | while read -r v; do
			echo "$v { global: $(awk -v v="$v" '$1 == v { printf "%s; ", $2 }' "$tmp/vers") };"
		done >"$vs"
		echo "LOCAL_STUB { local: *; };" >>"$vs"
	else
		echo "{ global: $(awk '{ printf "%s; ", $2 }' "$tmp/vers") local: *; };" >"$vs"
	fi
	gcc -shared -fPIC -O1 -w -o "$tmp/out/$soname" "$c" \
		-Wl,-soname,"$soname" -Wl,--version-script="$vs"
done

cp -L "$fio" "$tmp/out/fio"
cp "$tmp/keep" "$tmp/out/keep"
cp "$tmp"/out/* "$dir/"
# the loader must accept the result: fio runs against the stubs here
LD_LIBRARY_PATH=$dir "$dir/fio" --version >/dev/null ||
	{ echo "fio-lean.sh: the lean fio does not start" >&2; exit 1; }
