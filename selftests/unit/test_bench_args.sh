#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench's knobs reject what they do not take, before any work: the
# bench's BENCH_REPS and BENCH_TURN_MS (a message naming the variable,
# exit 1, no bench.csv written) and abtest's -k (usage, exit 2).  Builds
# the bench (tools/bench, ~15 s from clean; its deps come from deps.sh).
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/bench
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$top/selftests/unit/ktap.sh"

echo "KTAP version 1"
if ! make -s -C "$top/tools/bench" build "$out/abtest" >"$work/build.log" 2>&1; then
	sed 's/^/# /' "$work/build.log"
	ok 1 "bench_builds"
	ktap_end test_bench_args
	exit 1
fi

# <variable> <value> <range in the message>
while read -r var val want; do
	rm -f "$work/bench.csv"
	# a bench that took the value would run for minutes: stop it
	timeout 5 env "$var=$val" "$out/bench" "$work" >"$work/out" 2>&1
	rc=$?
	[ $rc = 1 ] && [ ! -e "$work/bench.csv" ] &&
		grep -q "$var=$val: want an integer from $want" "$work/out"
	ok $? "bench_rejects_${var}_'$val' # rc $rc"
done <<'EOF'
BENCH_REPS 0 3 to 21
BENCH_REPS 22 3 to 21
BENCH_REPS abc 3 to 21
BENCH_REPS 7x 3 to 21
BENCH_TURN_MS 0 1 to 1000
BENCH_TURN_MS 1001 1 to 1000
BENCH_TURN_MS -6 1 to 1000
EOF

for k in 0,4 4 4,10x 4,33 ,; do
	timeout 5 "$out/abtest" -k "$k" /nonexistent.so /nonexistent.so >"$work/out" 2>&1
	rc=$?
	[ $rc = 2 ] && grep -q '^usage: abtest .*-k k1,k2' "$work/out"
	ok $? "abtest_rejects_k_'$k' # rc $rc"
done

ktap_end test_bench_args
