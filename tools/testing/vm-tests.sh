#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the guest test suite (selftests/vm/tests.list) in QEMU for every
# pinned kernel with -cpu max (AVX2), plus one run with the plain qemu64 CPU
# so the scalar fallbacks are covered (selftests/vm/qemu64.list, the tests
# whose results depend on the algo), one boot with swiotlb=force where
# ecdma must refuse to load, and the whole suite once more on the debug
# kernel (tools/testing/debug-kernel.sh: lockdep, KASAN, kmemleak, DMA-API
# debugging, fault injection) with preempt=full, ending with a kmemleak
# scan.  The NVMe-oF scenarios (selftests/vm/fabric.list) run in a boot of
# their own on every pinned kernel with -cpu max.  Builds the modules (and
# the debug kernel, once) first.
#
# Usage: vm-tests.sh [--counts FILE] [run...]
#   a run is <kernel-tag>:<cpu>[:<kernel command line>], e.g. 6.1:max,
#   6.1:swiotlb, 6.12:fabric or debug:max:preempt=full; default: all of
#   the above
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
counts=
if [ "${1:-}" = --counts ]; then
	counts=$2
	shift 2
fi
mapfile -t tests < <(grep -v -E '^#|^$' selftests/vm/tests.list | sed 's|^|selftests/vm/|')
mapfile -t fabric < <(grep -v -E '^#|^$' selftests/vm/fabric.list | sed 's|^|selftests/vm/|')
mapfile -t scalar < <(grep -v -E '^#|^$' selftests/vm/qemu64.list | sed 's|^|selftests/vm/|')

runs=("$@")
if [ ${#runs[@]} -eq 0 ]; then
	mapfile -t tags < <(awk '!/^#/ && NF == 3 { print $1 }' tools/testing/kernels)
	for t in "${tags[@]}"; do
		runs+=("$t:max" "$t:fabric")
	done
	runs+=("${tags[0]}:qemu64" "${tags[0]}:swiotlb" "debug:max:preempt=full")
fi

rc=0
for r in "${runs[@]}"; do
	tag=${r%%:*}
	rest=${r#*:}
	cpu=${rest%%:*}
	append=
	[ "$rest" = "$cpu" ] || append=${rest#*:}
	t0=$(date +%s)
	if ! tools/testing/build.sh "$tag" >/dev/null; then
		echo "not ok build_$tag"
		[ -z "$counts" ] || echo "0 1 0" >>"$counts"
		rc=1
		continue
	fi
	echo "# VM run: kernel $tag, cpu $cpu${append:+, $append} (build $(($(date +%s) - t0)) s)"
	if [ "$cpu" = swiotlb ]; then
		# DMA bounce buffers forced: ecdma must refuse to register
		out=$(tools/testing/vm.sh --quiet --kernel "$tag" --append swiotlb=force \
			-- selftests/vm/refuse_swiotlb.sh)
	elif [ "$cpu" = fabric ]; then
		# NVMe-oF over tcp and Soft-RoCE, -cpu max (about 4 min on a
		# stock kernel; a stuck script is cut off after 10)
		tmo=1200
		[ "$tag" = debug ] && tmo=2400
		out=$(tools/testing/vm.sh --quiet --kernel "$tag" --cpu max \
			--timeout $tmo --test-timeout 600 --append "$append" -- "${fabric[@]}")
	elif [ "$cpu" = qemu64 ]; then
		# scalar fallbacks: the algo-dependent part of the suite
		out=$(tools/testing/vm.sh --quiet --kernel "$tag" --cpu qemu64 \
			--append "$append" -- "${scalar[@]}")
	elif [ "$tag" = debug ]; then
		out=$(tools/testing/vm.sh --quiet --kernel "$tag" --cpu "$cpu" \
			--timeout 2400 --append "$append" -- "${tests[@]}" \
			selftests/vm/kmemleak.sh)
	else
		out=$(tools/testing/vm.sh --quiet --kernel "$tag" --cpu "$cpu" \
			--append "$append" -- "${tests[@]}")
	fi
	vrc=$?
	printf '%s\n' "$out" | grep -v '^# ECDMA-COUNTS'
	[ -z "$counts" ] || printf '%s\n' "$out" | awk '/^# ECDMA-COUNTS/ { print $3, $4, $5 }' >>"$counts"
	[ $vrc = 0 ] || rc=1
done
exit $rc
