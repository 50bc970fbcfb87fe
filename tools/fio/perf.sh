#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make perf: md RAID5/6 with and without ecdma, in boots of a pinned
# kernel (TCG), with the fio jobs of tools/fio/; results in build/perf/:
# samples.csv (every sample), table.txt, summary.txt (ratios), *.png,
# guest.log and console.log.
#
# Environment (defaults in brackets):
#   KVER            pinned kernel tag [6.12]
#   PERF_REPEATS    repeats of every point, configs interleaved, their
#                   order reversed in even repeats [4]
#   PERF_BOOTS      boots the repeats are shared out over, each with its
#                   disks written once first [as many as PERF_REPEATS]:
#                   md settles into one of two speeds per config for a
#                   whole boot on some cells (performance-history.rst,
#                   2026-12-03), which repeats in one boot cannot average
#   PERF_RUNTIME    seconds per fio sample [3]
#   PERF_ARRAYS     arrays [raid6-8 raid5-4]; PERF_FULL=1 adds raid6-4,
#                   raid6-16, raid5-8 and RAID6 4K random writes at
#                   rmw_level 1 (about three times as long)
#   PERF_WORKLOADS  [all of perf-guest.sh's but rand-write-4k-rmw1]
#   PERF_CONFIGS    [cpu ecdma cpu-gtc ecdma-gtc]; ecdma+<policy> sets
#                   the offload policy of one config (ecdma+always-gtc)
#   PERF_OFFLOAD    ecdma's offload policy for the ecdma configs [its default]
#   PERF_DISK_MIB   size of each brd member [64]
#   PERF_SYNC_S     seconds of md's own time per rebuild/check sample: a
#                   sample repeats the recovery or check until its passes
#                   add up to this [2]
#   PERF_FABRIC     1: also the fabric workloads (tools/fio/fabric-guest.sh):
#                   host-side throughput over NVMe/TCP and NVMe/RDMA of a
#                   RAID6 that nvmet exports in the guest, ecdma on the
#                   target against md's CPU path there (arrays
#                   nvmf-<transport>-raid6-8; about 4 min more); "only":
#                   those alone.  PERF_FABRIC_TRANSPORTS [tcp rdma],
#                   PERF_FABRIC_WORKLOADS, PERF_FABRIC_CONFIGS [cpu ecdma]
#   PERF_CLOCK      icount: the guest's clock counts the instructions it
#                   executes (QEMU -icount shift 0, 1 ns each; one host
#                   thread runs both vCPUs), so host load moves no sample
#                   and a ratio is one of CPU work, the whole guest's:
#                   the vCPUs do not run in parallel.  wall: the host's
#                   clock, a host thread per vCPU (parallel, but samples
#                   spread 20-50% on a 2-core host) [icount, wall with
#                   PERF_FABRIC; icount takes about 35 min against 14,
#                   but its cells repeat within a few percent]
#   PERF_ALT        another build of ecdma.ko for the same kernel (an older
#                   commit's build/<abi>/drivers/ecdma/ecdma.ko): configs
#                   named ecdma@alt[+policy][-gtc] load it instead of this
#                   tree's, in the same boot, interleaved with the others:
#                   PERF_CONFIGS="cpu ecdma+always ecdma@alt+always"
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
t0=$(date +%s)
kver=${KVER:-6.12}
out=$top/build/perf
arrays=${PERF_ARRAYS:-raid6-8 raid5-4}
workloads="seq-write rand-write-4k rand-write-64k seq-read degraded-1 degraded-2 rebuild-1 rebuild-2 check"
if [ -n "${PERF_FULL:-}" ]; then
	arrays=${PERF_ARRAYS:-raid6-4 raid6-8 raid6-16 raid5-4 raid5-8}
	workloads="$workloads rand-write-4k-rmw1"
fi
workloads=${PERF_WORKLOADS:-$workloads}
# the clock: vm.sh's arguments for it and summary.txt's first line
# (the fabric's workloads have run on the host's clock only)
clock=icount
[ -z "${PERF_FABRIC:-}" ] || clock=wall
clock=${PERF_CLOCK:-$clock}
case "$clock" in
icount)
	# one host thread runs the guest: room for a run beside a CI run
	# (testing.rst has the times)
	clk=(--icount 0 --timeout 9000)
	clk_line="clock: icount (guest time = instructions executed, 1 ns each; vCPUs in turn: CPU work, not parallelism)"
	;;
wall)
	clk=(--timeout 5400)
	clk_line="clock: wall (host time, a host thread per vCPU: parallel, host noise in every sample)"
	;;
*) echo "perf: PERF_CLOCK takes icount or wall, not '$clock'" >&2; exit 2 ;;
esac
repeats=${PERF_REPEATS:-4}
boots=${PERF_BOOTS:-$repeats}
[[ "${PERF_SYNC_S:-2}" =~ ^[0-9]+([.][0-9]+)?$ ]] || {
	echo "perf: PERF_SYNC_S (${PERF_SYNC_S}) is seconds, a number like 2 or 0.5" >&2
	exit 2
}
[[ "$repeats" =~ ^[1-9][0-9]*$ && "$boots" =~ ^[1-9][0-9]*$ ]] &&
	[ "$boots" -le "$repeats" ] || {
	echo "perf: PERF_BOOTS ($boots) takes 1 to PERF_REPEATS ($repeats)" >&2
	exit 2
}
alt=()
if [ -n "${PERF_ALT:-}" ]; then
	[ "$(modinfo -F name "$PERF_ALT" 2>/dev/null)" = ecdma ] || {
		echo "perf: PERF_ALT=$PERF_ALT is not a build of ecdma.ko" >&2
		exit 2
	}
	alt=(--copy "$PERF_ALT:/ecdma/alt/ecdma.ko")
	# shellcheck disable=SC2034 # settings() reads it through ${!v}
	PERF_ALT_DEPS=$(modinfo -F depends "$PERF_ALT" | tr , ' ')
fi
tools/testing/deps.sh --quiet
tools/testing/build.sh "$kver" >/dev/null
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# the guest scripts: the settings, then tools/fio/perf-guest.sh (and
# tools/fio/fabric-guest.sh)
# settings <first> <last>: the guest's settings for repeats first..last
settings() {
	echo '#!/bin/sh'
	printf 'PERF_ARRAYS=%q\nPERF_WORKLOADS=%q\n' "$arrays" "$workloads"
	printf 'PERF_REPEAT_FIRST=%d\nPERF_REPEATS=%d\n' "$1" "$2"
	for v in PERF_RUNTIME PERF_CONFIGS PERF_OFFLOAD PERF_DISK_MIB PERF_SYNC_S \
		PERF_FABRIC_TRANSPORTS PERF_FABRIC_WORKLOADS PERF_FABRIC_CONFIGS \
		PERF_ALT_DEPS; do
		[ -z "${!v:-}" ] || printf '%s=%q\n' "$v" "${!v}"
	done
}
if [ "${PERF_FABRIC:-}" != only ]; then
	echo "perf: kernel $kver, arrays: $arrays, clock: $clock, $repeats repeats in $boots boots" >&2
else
	boots=1
fi
[ -z "${PERF_FABRIC:-}" ] ||
	echo "perf: kernel $kver, NVMe-oF: ${PERF_FABRIC_TRANSPORTS:-tcp rdma}" >&2

# boot b runs repeats first..last of its share; the fabric's in the first
rc=0
echo kernel,config,array,workload,repeat,mibps,cpu_s_per_gib,ops >"$out/samples.csv"
: >"$out/guest.log"
: >"$out/console.log"
for b in $(seq 1 "$boots"); do
	guest=()
	if [ "${PERF_FABRIC:-}" != only ]; then
		{
			settings $(((b - 1) * repeats / boots + 1)) $((b * repeats / boots))
			sed 1d tools/fio/perf-guest.sh
		} >"$work/perf$b.sh"
		guest+=("$work/perf$b.sh")
	fi
	if [ -n "${PERF_FABRIC:-}" ] && [ "$b" = 1 ]; then
		{ settings 1 "$repeats"; sed 1d tools/fio/fabric-guest.sh; } >"$work/fabric.sh"
		guest+=("$work/fabric.sh")
	fi
	tools/testing/vm.sh --bench "${clk[@]}" --quiet --kernel "$kver" --mem 3072 \
		--test-timeout 4000 --out "$work/vm$b" ${alt[@]+"${alt[@]}"} \
		-- "${guest[@]}" >"$work/vm.txt" || rc=$?
	sed "s/^/boot $b: /" "$work/vm.txt"
	tr -d '\r' <"$work/vm$b/ktap.log" | sed -n 's/^# PERF //p' >>"$out/samples.csv"
	{ echo "# boot $b of $boots"; cat "$work/vm$b/ktap.log"; } >>"$out/guest.log"
	# the kernel's side, for a run that ended early (a panic powers QEMU off)
	{ echo "# boot $b of $boots"; cat "$work/vm$b/console.log"; } >>"$out/console.log"
done
n=$(($(wc -l <"$out/samples.csv") - 1))
if [ "$n" -le 0 ]; then
	echo "perf: no samples (see $out/guest.log)" >&2
	exit 1
fi
tools/fio/report.sh "$out/samples.csv" "$out"
{ echo "$clk_line"; cat "$out/summary.txt"; } >"$out/summary.tmp" &&
	mv "$out/summary.tmp" "$out/summary.txt"
cat "$out/summary.txt"
echo "perf: $n samples in $(($(date +%s) - t0)) s; $out/{samples.csv,table.txt,summary.txt,*.png}"
exit $rc
