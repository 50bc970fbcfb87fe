#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make perf's guest runner (tools/fio/perf-guest.sh) on the smallest
# matrix: RAID6 over 4 small disks, a sequential write and a check, md's
# CPU path against ecdma (offload "always", so that ecdma surely takes
# the parity), one repeat.  Proves the pipeline make perf relies on: each
# config yields a positive throughput and a CPU cost, and the ecdma
# config's sample shows ecdma's counters moving while the cpu one's
# does not, and check's time came from md's log.  It measures nothing
# worth reading.
. /ecdma/lib.sh
# half the members with VM_SCALE (the debug kernel): the same pipeline
disk=16
[ "${VM_SCALE:-1}" -gt 1 ] && disk=8
# PERF_SYNC_S=0: one pass per check sample (the pipeline, not a measure;
# 2 s of passes made this test four times as long)
PERF_CONFIGS="cpu ecdma" PERF_ARRAYS=raid6-4 PERF_WORKLOADS="seq-write check" \
	PERF_REPEATS=1 PERF_RUNTIME=2 PERF_DISK_MIB=$disk PERF_OFFLOAD=always \
	PERF_SYNC_S=0 \
	sh /ecdma/fio/perf-guest.sh >/tmp/perf.out 2>&1
rc=$?
grep -v '^ok ' /tmp/perf.out | sed 's/^/# /'
ktap_check "runner_passed # rc $rc" [ $rc = 0 ]

# field <config> <workload> <n>: the n-th field of that sample
field() {
	sed -n "s/^# PERF //p" /tmp/perf.out |
		awk -F, -v c="$1" -v w="$2" -v n="$3" '$2 == c && $4 == w { print $n }'
}
for c in cpu ecdma; do
	for w in seq-write check; do
		v=$(field $c $w 6)
		ktap_check "${c}_${w}_throughput # ${v:-none} MiB/s" \
			awk -v v="${v:-0}" 'BEGIN { exit !(v > 0) }'
		v=$(field $c $w 7)
		ktap_check "${c}_${w}_cpu_cost # ${v:-none} CPU-s/GiB" \
			awk -v v="${v:-x}" 'BEGIN { exit !(v ~ /^[0-9.]+$/) }'
	done
done
ktap_check "ecdma_did_the_parity # $(field ecdma seq-write 8) ops" \
	[ "$(field ecdma seq-write 8)" -gt 0 ]
ktap_check "cpu_config_without_ecdma # $(field cpu seq-write 8) ops" \
	[ "$(field cpu seq-write 8)" = 0 ]
# check's time is md's own, from its log lines (timed_sync's md_sync_s)
ktap_check "sync_time_from_md_log # $(grep -c '^# SYNC' /tmp/perf.out) polled" \
	sh -c "! grep -q '^# SYNC' /tmp/perf.out"
ktap_check ecdma_unloaded sh -c "! grep -q '^ecdma ' /proc/modules"
ktap_exit
