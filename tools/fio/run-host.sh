#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The fio jobs of make perf on a real machine, against md arrays you name.
# Run it once in each state you want to compare and give each run its
# --config label: e.g. before loading ecdma (--config cpu) and after
# "modprobe ecdma" (--config ecdma).  Samples go to one CSV; the table,
# the ratios ecdma/cpu and the plots are rebuilt from all of it each time.
#
#   run-host.sh [options] /dev/mdX [/dev/mdY ...]
#     --config NAME     label of this state (cpu, ecdma, ...) [required]
#     --destroy-data    run the write jobs (they overwrite the arrays!);
#                       without it only sequential reads run
#     --gtc             also measure with md's group_thread_cnt = CPUs
#                       (labels NAME-gtc; the old value is put back)
#     --repeats N       repeats of every job [3]
#     --runtime S       seconds per job [30]
#     --hugepages DIR   fio's buffers on the hugetlbfs mount DIR, with at
#                       least 4 free 2 MiB pages (you mount it and reserve
#                       them: mount -t hugetlbfs none DIR; echo 8 >
#                       /proc/sys/vm/nr_hugepages).  Without it fio's
#                       buffer gets a transparent huge page or not by
#                       where it lands, which moved md's reads by up to
#                       30% between runs (performance-history.rst,
#                       2026-12-05): use it, or compare many repeats
#     --out DIR         results [build/perf-host]
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
usage() {
	sed -n '/^#   run-host.sh/,/^#     --out/p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}
die() {
	echo "run-host.sh: $*" >&2
	exit 2
}

cfg= destroy= gtc= repeats=3 runtime=30 out=$top/build/perf-host huge=
arrays=()
while [ $# -gt 0 ]; do
	case "$1" in
	--config) [ $# -ge 2 ] || usage; cfg=$2; shift 2 ;;
	--destroy-data) destroy=1; shift ;;
	--gtc) gtc=1; shift ;;
	--repeats) [ $# -ge 2 ] || usage; repeats=$2; shift 2 ;;
	--runtime) [ $# -ge 2 ] || usage; runtime=$2; shift 2 ;;
	--out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
	--hugepages) [ $# -ge 2 ] || usage; huge=$2; shift 2 ;;
	-h|--help) usage ;;
	-*) die "unknown option $1" ;;
	*) arrays+=("$1"); shift ;;
	esac
done
[ -n "$cfg" ] || die "--config NAME is required (e.g. cpu before loading ecdma, ecdma after)"
[[ $cfg =~ ^[A-Za-z0-9_.-]+$ ]] || die "--config: letters, digits, . _ - only"
[[ $repeats =~ ^[1-9][0-9]*$ ]] || die "--repeats: a positive integer"
[[ $runtime =~ ^[1-9][0-9]*$ ]] || die "--runtime: a positive integer (seconds)"
[ ${#arrays[@]} -gt 0 ] || die "name at least one md array (e.g. /dev/md0)"
mem=()
if [ -n "$huge" ]; then
	huge=$(readlink -f "$huge") || die "--hugepages: no such directory"
	awk -v d="$huge" '$2 == d && $3 == "hugetlbfs" { f = 1 } END { exit !f }' \
		/proc/mounts || die "--hugepages $huge: not a hugetlbfs mount"
	# a job's buffer is iodepth x bs: 7 MiB at most (tools/fio/*.fio)
	[ "$(awk '/^HugePages_Free:/ { print $2 }' /proc/meminfo)" -ge 4 ] ||
		die "--hugepages: fewer than 4 free huge pages (/proc/sys/vm/nr_hugepages)"
	mem=(--mem="mmaphuge:$huge/ecdma-run-host.$$")
	trap 'rm -f "$huge/ecdma-run-host.$$"' EXIT
fi
command -v fio >/dev/null || die "fio is not installed"
for a in "${arrays[@]}"; do
	[ -b "$a" ] || die "$a: not a block device"
	md=$(basename "$(readlink -f "$a")")
	lvl=$(cat "/sys/block/$md/md/level" 2>/dev/null) || die "$a: not an md array"
	case "$lvl" in
	raid5|raid6) ;;
	*) die "$a: $lvl; only raid5 and raid6 arrays" ;;
	esac
done
loaded=no
grep -q '^ecdma ' /proc/modules && loaded=yes
echo "run-host.sh: config $cfg (ecdma loaded: $loaded), fio buffers: ${huge:-not on huge pages (--hugepages)}" >&2

jobs=(seq-read)
[ -n "$destroy" ] && jobs=(seq-write rand-write-4k rand-write-64k seq-read)
mkdir -p "$out"
csv=$out/samples.csv
[ -s "$csv" ] || echo kernel,config,array,workload,repeat,mibps,cpu_s_per_gib,ops >"$csv"

busy() {
	awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat
}
ops() {
	local t=0 op
	for op in memcpy xor xor_val pq pq_val; do
		t=$((t + $(cat /sys/devices/platform/ecdma/stats/${op}_ops 2>/dev/null || echo 0)))
	done
	echo $t
}

# one <array> <label> <job> <repeat>
one() {
	local md dev=$1 label=$2 job=$3 r=$4 b0 b1 o0 res
	md=$(basename "$(readlink -f "$dev")")
	local chunk data level n
	chunk=$(($(cat "/sys/block/$md/md/chunk_size") / 1024))
	n=$(cat "/sys/block/$md/md/raid_disks")
	level=$(cat "/sys/block/$md/md/level")
	data=$((n - 1))
	[ "$level" = raid6 ] && data=$((n - 2))
	o0=$(ops)
	b0=$(busy)
	res=$(DEV=$dev STRIPE=$((data * chunk))k RUNTIME=$runtime \
		fio "${mem[@]}" --output-format=terse --terse-version=3 \
			"$top/tools/fio/$job.fio" |
		awk -F';' '{ print ($6 + $47) * 1024, ($9 > $50 ? $9 : $50) / 1000 }')
	b1=$(busy)
	# shellcheck disable=SC2086
	set -- $res
	awk -v k="$(uname -r)" -v c="$label" -v a="$md-$level-$n" -v w="$job" \
	    -v r="$r" -v b="$1" -v s="$2" -v j="$((b1 - b0))" -v o="$(($(ops) - o0))" \
	    -v hz="$(getconf CLK_TCK)" 'BEGIN {
		if (s > 0 && b > 0)
			printf("%s,%s,%s,%s,%d,%.1f,%.3f,%d\n", k, c, a, w, r,
			       b / 1048576 / s, (j / hz) / (b / 1073741824), o)
	}' | tee -a "$csv"
}

declare -A gtc_old
for r in $(seq "$repeats"); do
	for mode in plain ${gtc:+gtc}; do
		label=$cfg
		for a in "${arrays[@]}"; do
			md=$(basename "$(readlink -f "$a")")
			f=/sys/block/$md/md/group_thread_cnt
			[ -n "${gtc_old[$md]:-}" ] || gtc_old[$md]=$(cat "$f")
			if [ "$mode" = gtc ]; then
				nproc >"$f"
				label=$cfg-gtc
			else
				echo "${gtc_old[$md]}" >"$f"
			fi
		done
		for a in "${arrays[@]}"; do
			for j in "${jobs[@]}"; do
				one "$a" "$label" "$j" "$r"
			done
		done
	done
done
for md in "${!gtc_old[@]}"; do
	echo "${gtc_old[$md]}" >"/sys/block/$md/md/group_thread_cnt"
done
"$top/tools/fio/report.sh" "$csv" "$out"
cat "$out/summary.txt"
echo "run-host.sh: $out/{samples.csv,table.txt,summary.txt,*.png}" >&2
