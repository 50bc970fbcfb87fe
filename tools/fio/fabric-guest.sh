#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The fabric half of "make perf" (PERF_FABRIC=1; tools/fio/perf.sh prepends
# the settings below and boots it with tools/testing/vm.sh after
# perf-guest.sh): host-side throughput of an md RAID6 over brd that nvmet
# exports over NVMe/TCP and NVMe/RDMA (Soft-RoCE), target and host in the
# one guest.  The target computes parity on md's own CPU path (config
# "cpu", ecdma not loaded) or on ecdma (config "ecdma", its default policy
# or PERF_OFFLOAD); configs are interleaved repeat by repeat, reversed in
# even repeats (as perf-guest.sh: the order itself moved md).  The host
# runs the fio jobs of tools/fio/ on the namespace.  Samples, in
# perf-guest.sh's format, with the array named nvmf-<transport>-<array>:
#   # PERF kernel,config,array,workload,repeat,mibps,cpu_s_per_gib,ops
# CPU-seconds are the whole guest's (host, fabric and target); ops are the
# operations ecdma completed on the target during the sample.
. /ecdma/lib.sh
. /ecdma/fabric_lib.sh
: "${PERF_FABRIC_CONFIGS:=cpu ecdma}"
: "${PERF_FABRIC_ARRAY:=raid6-8}"
: "${PERF_FABRIC_TRANSPORTS:=tcp rdma}"
: "${PERF_FABRIC_WORKLOADS:=seq-write rand-write-4k rand-write-64k seq-read}"
: "${PERF_REPEATS:=4}"		# even: each order as often
: "${PERF_RUNTIME:=3}"
: "${PERF_DISK_MIB:=64}"
: "${PERF_OFFLOAD:=}"		# empty: ecdma's default policy
CHUNK=64
FIO=/ecdma/fio
kernel=$(uname -r)

# The helpers below are perf-guest.sh's (kept apart so that each script
# can change on its own).
# busy: jiffies (USER_HZ) all CPUs spent outside idle and iowait
busy() {
	awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat
}

# configs_of_repeat <r> <config>...: the configs in order (odd r) or reversed
configs_of_repeat() {
	local r=$1 c rev=
	shift
	[ $((r % 2)) = 1 ] && { echo "$@"; return; }
	for c in "$@"; do
		rev="$c $rev"
	done
	echo $rev
}

# ops: operations ecdma completed so far (every type, every channel)
ops() {
	t=0
	for op in memcpy xor xor_val pq pq_val; do
		t=$((t + $(ecdma_ops $op)))
	done
	echo $t
}

# run_fio <job> <dev> <array> <workload> <repeat>: one sample
run_fio() {
	o0=$(ops)
	b0=$(busy)
	DEV=$2 STRIPE=${stripe}k RUNTIME=$PERF_RUNTIME \
		fio $FIO_MEM --output-format=terse --terse-version=3 "$FIO/$1.fio" \
		>/tmp/fio.out 2>/tmp/fio.err
	b1=$(busy)
	# terse v3: 6 read KiB, 9 read ms, 47 write KiB, 50 write ms
	awk -F';' -v k="$kernel" -v c="$cfg" -v a="$3" -v w="$4" -v r="$5" \
	    -v j="$((b1 - b0))" -v o="$(($(ops) - o0))" '{
		b = ($6 + $47) * 1024; s = ($9 > $50 ? $9 : $50) / 1000
		if (s <= 0 || b <= 0) { print "not ok 0 sample_" a "_" w " # no data"; exit }
		printf("# PERF %s,%s,%s,%s,%d,%.1f,%.3f,%d\n", k, c, a, w, r,
		       b / 1048576 / s, (j / 100) / (b / 1073741824), o)
	}' /tmp/fio.out
	[ -s /tmp/fio.out ] || ktap_fail "fio_$3_$4 # $(head -c 300 /tmp/fio.err)"
}

# config_enter <cfg>: load (or not) ecdma, and raid456
config_enter() {
	case "$1" in
	ecdma*)
		modprobe ecdma || return 1
		[ -z "$PERF_OFFLOAD" ] || echo "$PERF_OFFLOAD" >"$ECDMA_DEV/offload"
		;;
	esac
	modprobe raid456
}

config_leave() {
	modprobe -r raid456
	modprobe -r ecdma 2>/dev/null
	return 0
}

# one_config <repeat>: the array, exported on both ports, each transport
# connected in turn and measured
one_config() {
	# shellcheck disable=SC2086
	mdadm --create /dev/md0 --run --quiet --level="$level" \
		--raid-devices="$n" --chunk=$CHUNK --assume-clean --bitmap=none \
		$devs 2>/tmp/mdadm.err || { ktap_diag "$(cat /tmp/mdadm.err)"; return 1; }
	echo 4096 >/sys/block/md0/md/stripe_cache_size
	[ "$level" = 6 ] && echo 0 >/sys/block/md0/md/rmw_level
	fab_subsys md0 /dev/md0 || return 1
	for tr in $PERF_FABRIC_TRANSPORTS; do
		svc=4420
		[ "$tr" = rdma ] && svc=4421
		fab_port $svc "$tr" $svc && fab_port_link $svc md0 || return 1
	done
	for tr in $PERF_FABRIC_TRANSPORTS; do
		svc=4420
		[ "$tr" = rdma ] && svc=4421
		# the previous transport's controller is gone before this
		# connects (below); a host beside other boots can take a
		# minute over either
		c=$(fab_connect "$tr" $svc md0) ||
			{ ktap_fail "connect_${tr}_${cfg}_$1"; continue; }
		if d=$(fab_wait_dev md0 120); then
			for w in $PERF_FABRIC_WORKLOADS; do
				run_fio "$w" "$d" "nvmf-$tr-$PERF_FABRIC_ARRAY" "$w" "$1"
			done
		else
			ktap_fail "namespace_${tr}_${cfg}_$1"
		fi
		fab_disconnect "$c"
		fab_wait_state "$c" gone 120 ||
			ktap_diag "$c still $(fab_ctrl_state "$c") 120 s after its delete"
	done
	fab_target_clear
	mdadm --stop /dev/md0 >/dev/null 2>&1
	for d in $devs; do
		mdadm --zero-superblock "$d" >/dev/null 2>&1
	done
}

level=${PERF_FABRIC_ARRAY%%-*}
level=${level#raid}
n=${PERF_FABRIC_ARRAY#*-}
[ "$level" = 5 ] && stripe=$(((n - 1) * CHUNK)) || stripe=$(((n - 2) * CHUNK))
devs=
i=0
while [ $i -lt "$n" ]; do
	devs="$devs /dev/ram$i"
	i=$((i + 1))
done
rdma=
case " $PERF_FABRIC_TRANSPORTS " in *" rdma "*) rdma=rdma ;; esac
fab_setup $rdma || { ktap_fail fabric_setup; fab_teardown; ktap_exit; }
brd_setup "$n" "$PERF_DISK_MIB" || { ktap_fail brd; ktap_exit; }
fio_mem_setup
brd_write_once "$n" "$PERF_DISK_MIB"
config_leave
t0=$(cut -d' ' -f1 /proc/uptime)
r=1
while [ $r -le "$PERF_REPEATS" ]; do
	for cfg in $(configs_of_repeat "$r" $PERF_FABRIC_CONFIGS); do
		if ! config_enter "$cfg"; then
			ktap_fail "config_${cfg}_$r"
			config_leave
			continue
		fi
		one_config "$r" || ktap_fail "array_${cfg}_$r"
		config_leave
	done
	ktap_ok "fabric_repeat_$r # $(awk -v a="$t0" '{ printf("%.0f", $1 - a) }' /proc/uptime) s so far"
	r=$((r + 1))
done
ktap_diag "fabric retries: $(fab_retries)"
fab_teardown
fio_mem_teardown
brd_teardown
ktap_exit
