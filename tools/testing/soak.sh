#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make soak: the reliability scenarios of make check, long.  For every
# pinned kernel (-cpu max) boot the guest with ecdma_soak=<seconds> on the
# kernel command line (passed to the guest scripts' environment), which
# makes the EC verbs torture, the fault-injected RAID6, the CPU hotplug
# run and the md soak (RAID6 of 8 + RAID5 of 4, fio verify, disk
# fail/re-add, checks, injected engine faults) last that long and the
# load/unload cycles 100.  Prints KTAP per kernel and the soak figures:
# duration, ops offloaded, faults injected, mismatches.
#
# Usage: soak.sh [--minutes N] [kernel-tag...]   (default 10 minutes)
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
minutes=10
if [ "${1:-}" = --minutes ]; then
	minutes=$2
	shift 2
fi
secs=$((minutes * 60))
tags=("$@")
# shellcheck source=tools/testing/kernels.sh
. tools/testing/kernels.sh
[ ${#tags[@]} -gt 0 ] || mapfile -t tags < <(kernel_tags)
scripts=(badinput.sh torture.sh faults.sh hotplug.sh unload.sh soak_md.sh)

rc=0
for tag in "${tags[@]}"; do
	if ! tools/testing/build.sh "$tag" >/dev/null; then
		echo "not ok build_$tag"
		rc=1
		continue
	fi
	out=$(mktemp -d "${TMPDIR:-/tmp}/ecdma-soak.XXXXXX")
	echo "# soak: kernel $tag, ${minutes} min scenarios, logs in $out"
	tools/testing/vm.sh --kernel "$tag" --out "$out" \
		--timeout $((secs * 5 + 3600)) \
		--append "ecdma_soak=$secs ECDMA_TEST_TIMEOUT=$((secs * 3 + 900))" \
		-- "${scripts[@]/#/selftests/vm/}" >"$out/guest.txt"
	vrc=$?
	grep -E '^(not )?ok |^# console:|^# [^ ]+: [0-9]+ passed' "$out/guest.txt"
	grep -h '^ECDMA-SOAK' "$out/ktap.log" | tr -d '\r' | sed "s/^/# $tag: /"
	grep -h 'faults_injected .* -> ' "$out/ktap.log" | tr -d '\r' | sed "s/^# /# $tag: /"
	[ $vrc = 0 ] || rc=1
done
exit $rc
