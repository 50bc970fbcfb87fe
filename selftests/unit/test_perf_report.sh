#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make perf's host half (tools/fio/report.sh) on a small samples.csv: the
# table, the summary and the plots are produced, the medians and spreads
# are those of the samples, and every ratio in the summary is a number.
# The guest half is selftests/vm/perf_smoke.sh.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$top/selftests/unit/ktap.sh"

echo "KTAP version 1"
# three repeats of two workloads, four configs; ecdma is 1.5x the CPU
# path at gtc 0 on seq-write, and its spread is 20%
{
	echo kernel,config,array,workload,repeat,mibps,cpu_s_per_gib,ops
	for r in 1 2 3; do
		echo "6.12.0,cpu,raid6-4,seq-write,$r,100.0,10.000,0"
		echo "6.12.0,ecdma,raid6-4,seq-write,$r,$((140 + 10 * r)).0,8.000,500"
		echo "6.12.0,cpu-gtc,raid6-4,seq-write,$r,200.0,12.000,0"
		echo "6.12.0,ecdma-gtc,raid6-4,seq-write,$r,200.0,12.000,700"
		echo "6.12.0,cpu,raid6-4,check,$r,300.0,2.000,0"
		echo "6.12.0,ecdma,raid6-4,check,$r,150.0,4.000,90"
		# ecdma ran no operation (auto kept md alone): md against md
		echo "6.12.0,cpu,raid6-4,seq-read,$r,1000.0,1.000,0"
		echo "6.12.0,ecdma,raid6-4,seq-read,$r,$((940 + 10 * r)).0,1.000,0"
		# fabric-guest.sh: host-side throughput, ecdma on the target
		echo "6.12.0,cpu,nvmf-tcp-raid6-8,seq-write,$r,40.0,30.000,0"
		echo "6.12.0,ecdma,nvmf-tcp-raid6-8,seq-write,$r,50.0,25.000,400"
		echo "6.12.0,cpu,nvmf-tcp-raid6-8,rand-write-4k,$r,10.0,90.000,0"
		echo "6.12.0,ecdma,nvmf-tcp-raid6-8,rand-write-4k,$r,8.0,95.000,300"
		echo "6.12.0,cpu,nvmf-rdma-raid6-8,seq-write,$r,20.0,40.000,0"
		echo "6.12.0,ecdma,nvmf-rdma-raid6-8,seq-write,$r,30.0,35.000,400"
	done
	# a host that halves in repeat 2, with one sample of it (ecdma's)
	# caught mid-change: per repeat, 0.98x, 0.75x, 0.98x (median 0.98x)
	# where the medians of the sides alone would say 150 / 200 = 0.75x
	echo "6.12.0,cpu-gtc,raid6-4,rand-write-4k,1,100.0,4.000,0"
	echo "6.12.0,ecdma-gtc,raid6-4,rand-write-4k,1,98.0,4.000,10"
	echo "6.12.0,cpu-gtc,raid6-4,rand-write-4k,2,200.0,4.000,0"
	echo "6.12.0,ecdma-gtc,raid6-4,rand-write-4k,2,150.0,4.000,10"
	echo "6.12.0,cpu-gtc,raid6-4,rand-write-4k,3,400.0,4.000,0"
	echo "6.12.0,ecdma-gtc,raid6-4,rand-write-4k,3,392.0,4.000,10"
} >"$work/samples.csv"

"$top/tools/fio/report.sh" "$work/samples.csv" "$work/out" >"$work/log" 2>&1
ok $? "report_runs"
for f in table.txt summary.txt medians.csv; do
	[ -s "$work/out/$f" ]
	ok $? "writes_$f"
done
if command -v gnuplot >/dev/null; then
	for f in throughput-raid6-4.png cpu-raid6-4.png throughput-nvmf-tcp-raid6-8.png; do
		[ "$(head -c 4 "$work/out/$f" 2>/dev/null | tail -c 3)" = PNG ]
		ok $? "plots_$f"
	done
else
	echo "ok $((n + 1)) plots # SKIP no gnuplot"
	n=$((n + 1))
fi
# median 160 of 150/160/170, spread (170 - 150) / 160 = 12.5%, flagged
grep -q 'ecdma .*seq-write *160.0 *1[23]% .*spread > 10%' "$work/out/table.txt"
ok $? "table_median_and_spread"
grep -q 'raid6-4 *seq-write *1.60x *1.00x *1.25x *1.00x' "$work/out/summary.txt"
ok $? "summary_ratios"
grep -q 'raid6-4 *check *0.50x *- *0.50x *-' "$work/out/summary.txt"
ok $? "summary_missing_config_is_a_dash"
# every ratio is a number (or a dash where a config did not run)
bad=$(awk '/^(raid|nvmf-[a-z]+-raid)/ { for (i = 3; i <= NF; i++)
	if ($i != "-" && $i !~ /^[0-9]+\.[0-9]+x$/) print $i }' "$work/out/summary.txt")
[ -z "$bad" ]
ok $? "summary_ratios_are_numbers${bad:+ # $bad}"
grep -q 'geomean 0.92x, worst 0.50x (raid6-4,check, its repeats 0% apart)' "$work/out/summary.txt"
ok $? "summary_geomean_and_worst"
# ratios are paired by repeat (the drifting host above), the worst cell
# says how far its repeats' ratios were apart: (0.98 - 0.75) / 0.98
grep -q 'raid6-4 *rand-write-4k *- *0.98x' "$work/out/summary.txt" &&
	grep -q 'group_thread_cnt = CPUs: geomean 0.99x, worst 0.98x (raid6-4,rand-write-4k, its repeats 23% apart)' \
		"$work/out/summary.txt"
ok $? "summary_ratios_paired_by_repeat"
# the cells where ecdma ran nothing are counted apart: the run's noise
grep -q '^  1 of 3 cells without an ecdma operation .*: geomean 0.96x, 0.96x-0.96x' "$work/out/summary.txt"
ok $? "summary_noise_of_cells_without_ops"
# the fabric arrays: in the table, out of the local geomean (above), a
# line per transport
grep -q 'nvmf-tcp-raid6-8 *rand-write-4k *0.80x *- *0.95x *-' "$work/out/summary.txt"
ok $? "summary_fabric_ratios"
grep -q '^nvmf-tcp host throughput.*geomean 1.00x, worst 0.80x (nvmf-tcp-raid6-8,rand-write-4k)' \
	"$work/out/summary.txt"
ok $? "summary_fabric_tcp_geomean"
grep -q '^nvmf-rdma host throughput.*geomean 1.50x, worst 1.50x' "$work/out/summary.txt"
ok $? "summary_fabric_rdma_geomean"
# The guest scripts' config order: as given in odd repeats, reversed in
# even ones, and an even number of repeats by default, so that no config
# is always measured first (the order alone moved md by 3-9%).  Their
# helper is run in busybox sh, the guest's shell.
sh=sh
command -v busybox >/dev/null && sh="busybox sh"
for g in perf-guest.sh fabric-guest.sh; do
	f=$top/tools/fio/$g
	sed -n '/^configs_of_repeat() {/,/^}/p' "$f" >"$work/order.sh"
	got=$(for r in 1 2 3 4; do
		$sh -c ". $work/order.sh; configs_of_repeat $r cpu ecdma cpu-gtc ecdma-gtc"
	done | tr '\n' '|')
	want='cpu ecdma cpu-gtc ecdma-gtc|ecdma-gtc cpu-gtc ecdma cpu|cpu ecdma cpu-gtc ecdma-gtc|ecdma-gtc cpu-gtc ecdma cpu|'
	reps=$(sed -n 's/^: "${PERF_REPEATS:=\([0-9]*\)}".*/\1/p' "$f")
	[ "$got" = "$want" ] && grep -q 'for cfg in $(configs_of_repeat "$r" ' "$f" &&
		[ -n "$reps" ] && [ $((reps % 2)) = 0 ]
	ok $? "${g%.sh}_order_alternates${got:+ # $got repeats $reps}"
done
# md's own sync time (perf-guest.sh's md_sync_s): from the first "of RAID
# array md0" line after the given mark to the last "md0: ... done." line,
# in the log's microseconds; nothing without both.  Mark 1 must not match
# mark 10 (a substring match would start over there)
sed -n '/^md_sync_s() {/,/^}/p' "$top/tools/fio/perf-guest.sh" >"$work/sync.sh"
cat >"$work/dmesg.txt" <<'EOF2'
[    9.000000] ecdma-perf: sync #1;
[   10.000000] md: recovery of RAID array md0
[   11.000000] md: md0: recovery done.
[   20.200000] ecdma-perf: sync #10;
[   20.250000] md: recovery of RAID array md0
[   20.400000] md/raid:md0: device ram1 operational as raid disk 1
[   21.500500] md: md0: recovery done.
EOF2
got=$($sh -c "dmesg() { cat $work/dmesg.txt; }; . $work/sync.sh; md_sync_s 'ecdma-perf: sync #10;'")
one=$($sh -c "dmesg() { cat $work/dmesg.txt; }; . $work/sync.sh; md_sync_s 'ecdma-perf: sync #1;'")
none=$($sh -c "dmesg() { head -2 $work/dmesg.txt; }; . $work/sync.sh; md_sync_s 'ecdma-perf: sync #1;'")
[ "$got" = 1.250500 ] && [ "$one" = 11.500500 ] && [ -z "$none" ]
ok $? "md_sync_time_from_its_log # ${got:-none}, mark 1: ${one:-none}, without an end: ${none:-none}"
# a rebuild/check sample (perf-guest.sh's timed_sync): passes until md's
# times add up to PERF_SYNC_S, the state put back before every pass but
# the first, the bytes of all passes over their summed time; one pass
# with a target of 0
sed -n '/^timed_sync() {/,/^}/p' "$top/tools/fio/perf-guest.sh" >"$work/timed.sh"
stubs='ops() { echo 0; }; busy() { echo 0; }; now() { echo 1; }
usleep() { :; }; wait_sync() { :; }; md_sync_s() { echo 0.3; }
agains=0; again() { agains=$((agains + 1)); }
sample() { echo "$4 $5 $agains"; }; cfg=x; sync_n=0'
got=$($sh -c "$stubs; PERF_SYNC_S=2; . $work/timed.sh; timed_sync a w 1 100 again true")
one=$($sh -c "$stubs; PERF_SYNC_S=0; . $work/timed.sh; timed_sync a w 1 100 again true")
[ "$got" = "700 2.1 6" ] && [ "$one" = "100 0.3 0" ]
ok $? "sync_sample_passes_to_target # ${got:-none}; target 0: ${one:-none}"
# bad clock settings: a message and exit 2, nothing booted
out=$(PERF_SYNC_S=2s "$top/tools/fio/perf.sh" 2>&1)
rc=$?
[ $rc = 2 ] && case "$out" in *"PERF_SYNC_S (2s) is seconds"*) true ;; *) false ;; esac
ok $? "perf_rejects_bad_sync_s # rc $rc"
out=$(PERF_CLOCK=tsc "$top/tools/fio/perf.sh" 2>&1)
rc=$?
[ $rc = 2 ] && case "$out" in *"PERF_CLOCK takes icount or wall"*) true ;; *) false ;; esac
ok $? "perf_rejects_bad_clock # rc $rc"
# run-host.sh: a --hugepages directory that is no hugetlbfs mount is refused
out=$("$top/tools/fio/run-host.sh" --config cpu --hugepages "$work" /dev/null 2>&1)
rc=$?
[ $rc = 2 ] && case "$out" in *"not a hugetlbfs mount"*) true ;; *) false ;; esac
ok $? "run_host_rejects_bad_hugepages # rc $rc"
out=$("$top/tools/testing/vm.sh" --icount 11 /dev/null 2>&1)
rc=$?
[ $rc = 2 ] && case "$out" in *"--icount takes a shift"*) true ;; *) false ;; esac
ok $? "vm_rejects_bad_icount # rc $rc"
[ $failed = 0 ] || cat "$work/log" "$work/out/table.txt" "$work/out/summary.txt" | sed 's/^/# /'
ktap_end test_perf_report
