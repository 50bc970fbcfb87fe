#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make perf's fabric runner (tools/fio/fabric-guest.sh) on the smallest
# matrix: RAID6 over 8 small disks exported over tcp and rdma, one
# sequential write per transport, the target's md CPU path against ecdma
# (offload "always"), one repeat.  Proves the pipeline PERF_FABRIC relies
# on: every sample has a positive throughput and a CPU cost, the ecdma
# samples show ecdma's counters moving and the cpu ones do not, and the
# runner leaves nothing loaded.  It measures nothing worth reading.
. /ecdma/lib.sh
. /ecdma/fabric_lib.sh
PERF_FABRIC_CONFIGS="cpu ecdma" PERF_FABRIC_WORKLOADS=seq-write \
	PERF_REPEATS=1 PERF_RUNTIME=2 PERF_DISK_MIB=8 PERF_OFFLOAD=always \
	sh /ecdma/fio/fabric-guest.sh >/tmp/perf.out 2>&1
rc=$?
grep -v '^ok ' /tmp/perf.out | sed 's/^/# /'
ktap_check "runner_passed # rc $rc" [ $rc = 0 ]

# field <config> <array> <n>: the n-th field of that sample
field() {
	sed -n "s/^# PERF //p" /tmp/perf.out |
		awk -F, -v c="$1" -v a="$2" -v n="$3" '$2 == c && $3 == a && $4 == "seq-write" { print $n }'
}
for tr in tcp rdma; do
	a=nvmf-$tr-raid6-8
	for c in cpu ecdma; do
		v=$(field $c $a 6)
		ktap_check "${c}_${tr}_throughput # ${v:-none} MiB/s" \
			awk -v v="${v:-0}" 'BEGIN { exit !(v > 0) }'
		v=$(field $c $a 7)
		ktap_check "${c}_${tr}_cpu_cost # ${v:-none} CPU-s/GiB" \
			awk -v v="${v:-x}" 'BEGIN { exit !(v ~ /^[0-9.]+$/) }'
	done
	ktap_check "ecdma_${tr}_did_the_parity # $(field ecdma $a 8) ops" \
		[ "$(field ecdma $a 8)" -gt 0 ]
	ktap_check "cpu_${tr}_without_ecdma # $(field cpu $a 8) ops" \
		[ "$(field cpu $a 8)" = 0 ]
done
fab_finish
ktap_exit
