#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the guest test suite (selftests/vm/tests.list) in QEMU for every
# pinned kernel with -cpu max (AVX2), plus one run with the plain qemu64 CPU
# so the scalar fallbacks are covered, and one boot with swiotlb=force where
# ecdma must refuse to load.  Builds the modules first.
#
# Usage: vm-tests.sh [--counts FILE] [kernel-tag...]
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
counts=
if [ "${1:-}" = --counts ]; then
	counts=$2
	shift 2
fi
tags=("$@")
[ ${#tags[@]} -gt 0 ] || mapfile -t tags < <(awk '!/^#/ && NF == 3 { print $1 }' tools/testing/kernels)
mapfile -t tests < <(grep -v -E '^#|^$' selftests/vm/tests.list | sed 's|^|selftests/vm/|')

runs=()
for t in "${tags[@]}"; do
	runs+=("$t:max")
done
runs+=("${tags[0]}:qemu64" "${tags[0]}:swiotlb")

rc=0
for r in "${runs[@]}"; do
	tag=${r%%:*}
	cpu=${r#*:}
	if ! tools/testing/build.sh "$tag" >/dev/null; then
		echo "not ok build_$tag"
		[ -z "$counts" ] || echo "0 1 0" >>"$counts"
		rc=1
		continue
	fi
	echo "# VM run: kernel $tag, cpu $cpu"
	if [ "$cpu" = swiotlb ]; then
		# DMA bounce buffers forced: ecdma must refuse to register
		out=$(tools/testing/vm.sh --quiet --kernel "$tag" --append swiotlb=force \
			-- selftests/vm/refuse_swiotlb.sh)
	else
		out=$(tools/testing/vm.sh --quiet --kernel "$tag" --cpu "$cpu" -- "${tests[@]}")
	fi
	vrc=$?
	printf '%s\n' "$out" | grep -v '^# ECDMA-COUNTS'
	[ -z "$counts" ] || printf '%s\n' "$out" | awk '/^# ECDMA-COUNTS/ { print $3, $4, $5 }' >>"$counts"
	[ $vrc = 0 ] || rc=1
done
exit $rc
