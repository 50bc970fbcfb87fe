#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: install what is missing, then static checks, userspace unit
# tests (ASan/UBSan), the module signing test (host) and the VM suites on
# every pinned kernel.  Every stage
# prints KTAP; what failed is repeated at the end, before the last line,
# "N passed, N failed, N skipped".
#
# check.sh --quick (make check-quick, the edit loop): static checks on the
# first pinned kernel, the unit tests and its -cpu max lane with half the
# data (VM_SCALE=2) and the md suite's ecdma runs only (MD_MODES=always).
# Both run the static checks and the unit tests beside the VM lanes.
# CHECK_FAIL_FAST=1 stops at the first failing stage or lane, the static
# checks and unit tests then before the lanes (local use; ignored when
# CI=true).
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
counts=$(mktemp)
failures=$(mktemp)
trap 'rm -f "$counts" "$failures"' EXIT
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
	# one write: a stage beside the VM lanes may append at the same time
	if [ "$rc" != 0 ] || grep -q '^ *not ok' "$log"; then
		printf '# ---- %s failed:\n%s\n' "$1" \
			"$(grep -B8 '^ *not ok' "$log" | tail -60)" >>"$failures"
	fi
	rm -f "$log"
}

quick=
[ "${1:-}" = --quick ] && quick=1
export CHECK_FAIL_FAST=${CHECK_FAIL_FAST:-}
[ "${CI:-}" != true ] || CHECK_FAIL_FAST=

# stop here (CHECK_FAIL_FAST) once something failed
fail_fast() {
	[ -n "$CHECK_FAIL_FAST" ] && [ -s "$failures" ] || return 1
	echo "# CHECK_FAIL_FAST: stopping after the first failure"
}

stage deps
if ! tools/testing/deps.sh --quiet; then
	echo "not ok 1 deps"
	echo "0 passed, 1 failed"
	exit 1
fi

# shellcheck source=tools/testing/kernels.sh
. tools/testing/kernels.sh
first=$(kernel_tags | head -1)

# beside <title> <command...>: run a stage in the background, beside the
# VM lanes, its output kept for the end.  The lanes leave a host CPU idle
# part of the time (--quick's one lane about one CPU, make check's lanes
# about a sixth of both while they wait on md, fio and the fabric), and
# the first boots need not wait for the static checks: a lane's module
# build and static.sh's share the tree (build.sh takes turns, W=1 both).
# At nice 10: in one session (one autogroup) the lanes and the debug
# kernel's build, the longest path, come first; nothing here is timed
besides=()
beside() {
	local log title=$1
	shift
	log=$(mktemp)
	(
		renice -n 10 -p "$BASHPID" >/dev/null
		run_stage "$@"
	) >"$log" 2>&1 &
	besides+=("$!:$log:$title")
}

if [ -z "$CHECK_FAIL_FAST" ]; then
	beside "static checks" tools/testing/static.sh ${quick:+"$first"}
	[ ! -f selftests/unit/Makefile ] ||
		beside "userspace unit tests (ASan/UBSan)" make -s -j"$(nproc)" -C selftests/unit run
	# about 10 s: the first kernel's W=1 tree is the lanes' and static's
	beside "module signing (host)" tools/testing/sign-test.sh "$first"
else
	# first failure first: each stage before the lanes
	stage "static checks"
	run_stage tools/testing/static.sh ${quick:+"$first"}
	if [ -f selftests/unit/Makefile ]; then
		stage "userspace unit tests (ASan/UBSan)"
		fail_fast || run_stage make -s -j"$(nproc)" -C selftests/unit run
	fi
	stage "module signing (host)"
	fail_fast || run_stage tools/testing/sign-test.sh "$first"
fi

stage "VM tests"
fail_fast && set -- skip
# the guest runs the control tool: build it first (vm.sh copies it in)
if ! make -s -C tools/ecdmactl; then
	echo "not ok 1 ecdmactl_build"
	echo "0 1 0" >>"$counts"
fi
if [ "${1:-}" != skip ]; then
	# quick: md's control runs (md alone) and full-size data are left
	# to make check
	tools/testing/vm-tests.sh --counts "$counts" --failures "$failures" \
		${quick:+"$first:max:VM_SCALE=2 MD_MODES=always"}
	vrc=$?
	# a failing lane is counted by its own tests; the runner itself
	# failing (a bug in it, a signal) must not pass for a clean run
	if [ $vrc != 0 ] && [ ! -s "$failures" ]; then
		echo "not ok 1 vm_tests_runner # vm-tests.sh exited $vrc"
		echo "0 1 0" >>"$counts"
		echo "# vm-tests.sh exited $vrc without a failing lane" >>"$failures"
	fi
fi

for b in ${besides[@]+"${besides[@]}"}; do
	wait "${b%%:*}"
	b=${b#*:}
	stage "${b#*:}, run beside the VM tests"
	cat "${b%%:*}"
	rm -f "${b%%:*}"
done

stage "done"
if [ -s "$failures" ]; then
	echo "# ==== what failed (details above)"
	cat "$failures"
fi
awk '{ p += $1; f += $2; s += $3 }
     END { printf("%d passed, %d failed, %d skipped\n", p, f, s); exit(f ? 1 : 0) }' "$counts"
