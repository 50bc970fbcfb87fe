#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The pinned kernels' fallback (tools/testing/deps.sh --resolve): a pin the
# archive carries resolves to itself; a pin to a version or an ABI it does
# not carry falls back to the newest image of the same series, with a line
# saying so; the scripts then read the resolution (tools/testing/kernels.sh).
# Needs apt's package lists (deps.sh has run); skipped without them.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$top/selftests/unit/ktap.sh"

# has <package> <version>: apt knows that version
has() {
	apt-cache madison "$1" 2>/dev/null |
		awk -F'|' '{ gsub(/ /, "", $2); print $2 }' | grep -qxF "$2"
}

echo "KTAP version 1"
pin=$(awk '!/^#/ && $1 == "6.1" { print $1, $2, $3 }' "$top/tools/testing/kernels")
read -r _ abi ver <<<"$pin"
if ! apt-cache madison "linux-image-$abi" 2>/dev/null | grep -q .; then
	echo "ok 1 kernel_pins # SKIP no apt package lists for linux-image-$abi"
	echo "1..1"
	exit 0
fi

# the real pins resolve to themselves while the archive has them
"$top/tools/testing/deps.sh" --resolve >"$work/real" 2>"$work/real.err"
ok $? resolve_real_pins
if has "linux-image-$abi" "$ver"; then
	diff -u <(awk '!/^#/ && NF == 3 { print $1, $2, $3 }' "$top/tools/testing/kernels") \
		"$work/real" >/dev/null && [ ! -s "$work/real.err" ]
	ok $? real_pins_unchanged
fi

# a version the archive never had, and an ABI it never had
printf '6.1 %s 6.1.999-9\n6.12 6.12.1+deb12-amd64 6.12.1-1~deb12u1\n' "$abi" >"$work/pins"
"$top/tools/testing/deps.sh" --resolve "$work/pins" >"$work/out" 2>"$work/err"
ok $? resolve_missing_pins
sed 's/^/# /' "$work/err"
grep -q "linux-image-$abi=6.1.999-9 is not in Debian's archive any more; falling back to linux-image-6\.1\." "$work/err" &&
	grep -q "linux-image-6.12.1+deb12-amd64=6.12.1-1~deb12u1 is not in Debian's archive any more; falling back to linux-image-6\.12\." "$work/err"
ok $? fallback_says_so
fb=0
while read -r tag a v; do
	# a real image and headers of the same series, at a version they have
	case "$a" in "$tag".*-amd64) ;; *) fb=1 ;; esac
	has "linux-image-$a" "$v" && has "linux-headers-$a" "$v" || fb=1
	[ "$v" != 6.1.999-9 ] && [ "$v" != 6.12.1-1~deb12u1 ] || fb=1
done <"$work/out"
[ "$(wc -l <"$work/out")" = 2 ] || fb=1
ok $fb fallback_is_newest_of_series

# the scripts read the resolution
cp "$work/out" "$work/kernels.resolved"
got=$(ECDMA_CACHE=$work bash -c ". '$top/tools/testing/kernels.sh'; kernel_abi 6.12")
[ "$got" = "$(awk '$1 == "6.12" { print $2 }' "$work/out")" ]
ok $? scripts_use_resolution

# a series the archive has nothing of fails
printf '5.99 5.99.0-1-amd64 5.99.1-1\n' >"$work/none"
! "$top/tools/testing/deps.sh" --resolve "$work/none" >/dev/null 2>"$work/err" &&
	grep -q "no linux-image-5.99" "$work/err"
ok $? unknown_series_fails

ktap_end test_kernel_pins
