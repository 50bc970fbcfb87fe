#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: install what is missing, then static checks, userspace unit
# tests (ASan/UBSan) and the VM suites on every pinned kernel.  Every stage
# prints KTAP; the last line is "N passed, N failed, N skipped".
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
counts=$(mktemp)
trap 'rm -f "$counts"' EXIT
t0=$(date +%s)

stage() {
	echo "# ---- $1 ($(($(date +%s) - t0)) s)"
}

# run_stage <command...>: show its KTAP, count its leaf results; a command
# that fails without printing any "not ok" still counts as one failure.
run_stage() {
	local log rc
	log=$(mktemp)
	"$@" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	awk -v rc="$rc" '/^ *(not )?ok [0-9]+/ {
		if ($0 ~ /# *SKIP/) s++; else if ($0 ~ /^ *not ok/) f++; else p++
	} END { if (rc != 0 && f == 0) f = 1; print p + 0, f + 0, s + 0 }' "$log" >>"$counts"
	rm -f "$log"
}

stage deps
if ! tools/testing/deps.sh --quiet; then
	echo "not ok 1 deps"
	echo "0 passed, 1 failed"
	exit 1
fi

stage "static checks"
run_stage tools/testing/static.sh

if [ -f selftests/unit/Makefile ]; then
	stage "userspace unit tests (ASan/UBSan)"
	run_stage make -s -C selftests/unit run
fi

stage "VM tests"
# the guest runs the control tool: build it first (vm.sh copies it in)
if ! make -s -C tools/ecdmactl; then
	echo "not ok 1 ecdmactl_build"
	echo "0 1 0" >>"$counts"
fi
tools/testing/vm-tests.sh --counts "$counts"

stage done
awk '{ p += $1; f += $2; s += $3 }
     END { printf("%d passed, %d failed, %d skipped\n", p, f, s); exit(f ? 1 : 0) }' "$counts"
