#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-md-long: md's full-speed reshape sequence of issue 59
# (selftests/vm/md_reshape.sh, MD_RESHAPE_ONLY=fast) ROUNDS times with
# ecdma ("always") and without ("never"), in one boot per kernel and TCG
# mode, two boots at a time.  A guest that stops is caught by vm.sh's
# stall watch (QEMU's state in stall.txt, then an NMI and the guest's
# report).  Logs in build/md-long/<kernel>-<tcg>/; a line per boot, then
# "N passed, N failed".
#
# Usage: tools/testing/md-long.sh [--rounds N] [--kernel TAG]... [--tcg MODE]...
#   --rounds N   sequences per mode and boot [10]
#   --kernel TAG a pinned kernel (repeatable; default: all of them)
#   --tcg MODE   multi, single (repeatable; default: multi)
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
rounds=10
kernels=()
tcgs=()
while [ $# -gt 0 ]; do
	case "$1" in
	--rounds) rounds=$2; shift 2 ;;
	--kernel) kernels+=("$2"); shift 2 ;;
	--tcg) tcgs+=("$2"); shift 2 ;;
	*) sed -n '/^# Usage/,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
	esac
done
case "$rounds" in
''|*[!0-9]*|0) echo "md-long.sh: --rounds takes a positive number, not '$rounds'" >&2; exit 2 ;;
esac
[ ${#kernels[@]} -gt 0 ] ||
	mapfile -t kernels < <(awk '!/^#/ && NF == 3 { print $1 }' tools/testing/kernels)
[ ${#tcgs[@]} -gt 0 ] || tcgs=(multi)

tools/testing/deps.sh --quiet
for k in "${kernels[@]}"; do
	tools/testing/build.sh "$k" >/dev/null
done

# one boot: ROUNDS sequences per mode, about 35 s each under TCG
boot() {
	local k=$1 tcg=$2 out=build/md-long/$1-$2
	mkdir -p "$out"
	tools/testing/vm.sh --kernel "$k" --cpu max --tcg "$tcg" \
		--timeout $((rounds * 200 + 600)) --test-timeout $((rounds * 200 + 300)) \
		--append "MD_RESHAPE_ONLY=fast MD_RESHAPE_ROUNDS=$rounds" \
		--out "$out" -- selftests/vm/md_reshape.sh >"$out/run.log" 2>&1
}

pass=0
fail=0
runs=()
for k in "${kernels[@]}"; do
	for t in "${tcgs[@]}"; do
		runs+=("$k:$t")
	done
done
i=0
while [ $i -lt ${#runs[@]} ]; do
	pids=()
	for r in "${runs[@]:$i:2}"; do
		boot "${r%%:*}" "${r#*:}" &
		pids+=($!)
	done
	for p in "${pids[@]}"; do
		wait "$p" || true
	done
	for r in "${runs[@]:$i:2}"; do
		out=build/md-long/${r%%:*}-${r#*:}
		reshaped=$(grep -c -E '^ok .*_fast_level_5to6_reshaped' "$out/ktap.log" || true)
		if tail -n 1 "$out/run.log" | grep -q ' 0 failed'; then
			echo "ok $r # $reshaped of $((2 * rounds)) conversions to RAID6: $(tail -n 1 "$out/run.log" | sed 's/^# //')"
			pass=$((pass + 1))
		else
			echo "not ok $r # $(tail -n 1 "$out/run.log" | sed 's/^# //'); logs in $out"
			grep -E '^not ok|guest stalled' "$out/run.log" | head -5 | sed 's/^/#   /'
			fail=$((fail + 1))
		fi
	done
	i=$((i + 2))
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
