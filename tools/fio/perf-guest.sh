#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest half of "make perf" (tools/fio/perf.sh prepends the settings
# below and boots it with tools/testing/vm.sh): md RAID5/6 over brd, with
# md's own CPU path (ecdma not loaded) and with ecdma (loaded with its
# defaults), each at group_thread_cnt 0 and at the number of CPUs.  The
# configs are interleaved, repeat by repeat, so that whatever slows the
# host hits them all alike, in the given order in odd repeats and reversed
# in even ones: measured first or later in a repeat made md 3-9% faster or
# slower on its own (2026-11-29, performance-history.rst).  Every sample
# is one line
#   # PERF kernel,config,array,workload,repeat,mibps,cpu_s_per_gib,ops
# on the test output; ops is how many operations ecdma completed during
# the sample (0 without ecdma), the proof that it did the parity.
. /ecdma/lib.sh
: "${PERF_CONFIGS:=cpu ecdma cpu-gtc ecdma-gtc}"
: "${PERF_ARRAYS:=raid6-8 raid5-4}"
: "${PERF_WORKLOADS:=seq-write rand-write-4k rand-write-64k seq-read degraded-1 degraded-2 rebuild-1 rebuild-2 check}"
: "${PERF_REPEATS:=4}"		# even: each order as often
: "${PERF_REPEAT_FIRST:=1}"	# perf.sh shares the repeats out over boots
: "${PERF_RUNTIME:=3}"
: "${PERF_DISK_MIB:=64}"
: "${PERF_SYNC_S:=2}"		# seconds of md's time per rebuild/check sample
: "${PERF_OFFLOAD:=}"		# empty: ecdma's default policy
CHUNK=64
FIO=/ecdma/fio
kernel=$(uname -r)
ncpu=$(nproc)

# busy: jiffies (USER_HZ) all CPUs spent outside idle and iowait
busy() {
	awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat
}

# now: seconds since boot, 10 ms resolution
now() {
	cut -d' ' -f1 /proc/uptime
}

# ops: operations ecdma completed so far (every type, every channel)
ops() {
	t=0
	for op in memcpy xor xor_val pq pq_val; do
		t=$((t + $(ecdma_ops $op)))
	done
	echo $t
}

# sample <array> <workload> <repeat> <bytes> <seconds> <busy0> <busy1> <ops0>
sample() {
	awk -v k="$kernel" -v c="$cfg" -v a="$1" -v w="$2" -v r="$3" \
	    -v b="$4" -v s="$5" -v j="$(($7 - $6))" -v o="$(($(ops) - $8))" 'BEGIN {
		if (s <= 0 || b <= 0) { print "not ok 0 sample_" a "_" w " # no data"; exit }
		printf("# PERF %s,%s,%s,%s,%d,%.1f,%.3f,%d\n", k, c, a, w, r,
		       b / 1048576 / s, (j / 100) / (b / 1073741824), o)
	}'
	# what the offload policy did (guest.log only): decisions, trials
	[ -r /sys/devices/platform/ecdma/offload_state ] &&
		echo "# STATE $cfg,$1,$2,$3: $(cat /sys/devices/platform/ecdma/offload_state)"
	return 0
}

# run_fio <job> <array> <workload> <repeat>: one fio sample
run_fio() {
	o0=$(ops)
	b0=$(busy)
	DEV=/dev/md0 STRIPE=${stripe}k RUNTIME=$PERF_RUNTIME \
		fio $FIO_MEM --output-format=terse --terse-version=3 "$FIO/$1.fio" \
		>/tmp/fio.out 2>/tmp/fio.err
	b1=$(busy)
	# terse v3: 6 read KiB, 9 read ms, 47 write KiB, 50 write ms
	set -- "$2" "$3" "$4" $(awk -F';' '{ print ($6 + $47) * 1024,
		($9 > $50 ? $9 : $50) / 1000 }' /tmp/fio.out)
	if [ $# -ne 5 ]; then
		ktap_fail "fio_$2_$3 # $(head -c 300 /tmp/fio.err)"
		return 1
	fi
	sample "$1" "$2" "$3" "$4" "$5" "$b0" "$b1" "$o0"
}

# wait_sync: until md0 has no resync/recovery/check running
wait_sync() {
	i=0
	while [ "$(cat /sys/block/md0/md/sync_action)" != idle ] ||
	      grep -q recovery /proc/mdstat; do
		usleep 50000
		i=$((i + 1))
		[ $i -lt 12000 ] || return 1
	done
}

# md_sync_s <mark>: seconds md's sync pass(es) after the log line <mark>
# took, from its own log lines ("md: recovery of RAID array md0" ... "md:
# md0: recovery done."), first start to last end; empty when the log has
# neither.  A mark written to /dev/kmsg, not an uptime: the log's clock
# (sched_clock) and /proc/uptime's drift apart under TCG, by more than a
# short check takes on a loaded host
md_sync_s() {
	dmesg | awk -v mark="$1" '
	function ts(l) { sub(/^\[ */, "", l); sub(/\].*/, "", l); return l + 0 }
	index($0, mark) { on = 1; s = ""; e = ""; next }
	!on { next }
	/md: .* of RAID array md0/ && s == "" { s = ts($0) }
	/md: md0: .* done\./ { e = ts($0) }
	END { if (s != "" && e != "" && e > s) printf("%.6f\n", e - s) }'
}

# degrade <member>...: fail (if not yet), remove and wipe members, for a
# full recovery when they are added back
degrade() {
	for d in "$@"; do
		mdadm /dev/md0 --fail "$d" >/dev/null 2>&1
	done
	mdadm /dev/md0 --remove "$@" >/dev/null 2>&1
	mdadm --zero-superblock "$@" >/dev/null 2>&1
}

# timed_sync <array> <workload> <repeat> <bytes> <again> <command...>: start
# a recovery or check with the command and time it until md is idle; then
# run <again> (a command that puts the array back in the state the command
# expects, or :) and the command once more, until the passes add up to
# PERF_SYNC_S seconds.  The time is md's own (its log's timestamps), not
# the 50 ms polls'; a single pass of a 64 MiB member takes 0.2-0.8 s,
# where one 10 ms tick of the guest's clock was up to 5% and two repeats
# of such samples 3% apart (performance-history.rst, 2026-12-05)
timed_sync() {
	a=$1 w=$2 r=$3 bytes=$4 again=$5
	shift 5
	o0=$(ops)
	b0=$(busy)
	total=0 passes=0
	while :; do
		[ $passes = 0 ] || $again
		ts0=$(now)
		sync_n=$((sync_n + 1))
		mark="ecdma-perf: sync #$sync_n;"
		echo "$mark" >/dev/kmsg
		"$@"
		usleep 100000
		wait_sync || return 1
		ts1=$(now)
		s=$(md_sync_s "$mark")
		if [ -z "$s" ]; then
			echo "# SYNC $cfg,$a,$w,$r: no md log lines, the polls' time"
			s=$(awk -v a="$ts0" -v b="$ts1" 'BEGIN { print b - a }')
		fi
		total=$(awk -v a="$total" -v b="$s" 'BEGIN { print a + b }')
		passes=$((passes + 1))
		[ $passes -lt 32 ] || break
		awk -v a="$total" -v b="$PERF_SYNC_S" 'BEGIN { exit !(a < b) }' ||
			break
	done
	b1=$(busy)
	sample "$a" "$w" "$r" $((bytes * passes)) "$total" "$b0" "$b1" "$o0"
}

has() {
	case " $PERF_WORKLOADS " in *" $1 "*) return 0 ;; esac
	return 1
}

# config_enter <cfg>: load (or not) ecdma and raid456.  A config is
# cpu, ecdma or ecdma@alt (PERF_ALT's build of ecdma.ko, in
# /ecdma/alt/: an A/B of two versions in one boot), then optionally
# +<offload policy> (ecdma+always), then optionally -gtc
# (group_thread_cnt = CPUs, see one_array)
config_enter() {
	case "$1" in
	ecdma*)
		case "$1" in
		ecdma@alt*)
			# shellcheck disable=SC2086
			modprobe -a $PERF_ALT_DEPS &&
				insmod /ecdma/alt/ecdma.ko || return 1
			;;
		*)
			modprobe ecdma || return 1
			;;
		esac
		pol=${1%-gtc}
		pol=${pol#ecdma}
		pol=${pol#@alt}
		pol=${pol#+}
		pol=${pol:-$PERF_OFFLOAD}
		[ -z "$pol" ] || echo "$pol" >"$ECDMA_DEV/offload" || return 1
		;;
	esac
	modprobe raid456
}

config_leave() {
	modprobe -r raid456
	modprobe -r ecdma 2>/dev/null
	return 0
}

# one_array <array> <repeat>: create it, run the workloads, stop it
one_array() {
	level=${1%%-*}
	level=${level#raid}
	n=${1#*-}
	[ "$level" = 5 ] && data=$((n - 1)) || data=$((n - 2))
	stripe=$((data * CHUNK))
	member=$((PERF_DISK_MIB * 1048576))
	devs=
	i=0
	while [ $i -lt "$n" ]; do
		devs="$devs /dev/ram$i"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086
	mdadm --create /dev/md0 --run --quiet --level="$level" \
		--raid-devices="$n" --chunk=$CHUNK --assume-clean --bitmap=none \
		$devs 2>/tmp/mdadm.err || { ktap_diag "$(cat /tmp/mdadm.err)"; return 1; }
	echo 4096 >/sys/block/md0/md/stripe_cache_size
	[ "$level" = 6 ] && echo 0 >/sys/block/md0/md/rmw_level
	case "$cfg" in
	*-gtc) echo "$ncpu" >/sys/block/md0/md/group_thread_cnt ;;
	esac
	has seq-write && run_fio seq-write "$1" seq-write "$2"
	has rand-write-4k && run_fio rand-write-4k "$1" rand-write-4k "$2"
	has rand-write-64k && run_fio rand-write-64k "$1" rand-write-64k "$2"
	if [ "$level" = 6 ] && has rand-write-4k-rmw1; then
		echo 1 >/sys/block/md0/md/rmw_level
		run_fio rand-write-4k "$1" rand-write-4k-rmw1 "$2"
		echo 0 >/sys/block/md0/md/rmw_level
	fi
	has seq-read && run_fio seq-read "$1" seq-read "$2"
	mdadm /dev/md0 --fail /dev/ram0 >/dev/null 2>&1
	has degraded-1 && run_fio seq-read "$1" degraded-1 "$2"
	if [ "$level" = 6 ]; then
		mdadm /dev/md0 --fail /dev/ram1 >/dev/null 2>&1
		has degraded-2 && run_fio seq-read "$1" degraded-2 "$2"
		degrade /dev/ram0 /dev/ram1
		# both back at once: one recovery pass rebuilds the two
		if has rebuild-2; then
			timed_sync "$1" rebuild-2 "$2" $((2 * member)) \
				"degrade /dev/ram0 /dev/ram1" \
				mdadm /dev/md0 --add /dev/ram0 /dev/ram1
		else
			mdadm /dev/md0 --add /dev/ram0 /dev/ram1 >/dev/null 2>&1
			wait_sync
		fi
	fi
	degrade /dev/ram0
	if has rebuild-1; then
		timed_sync "$1" rebuild-1 "$2" "$member" "degrade /dev/ram0" \
			mdadm /dev/md0 --add /dev/ram0
	else
		mdadm /dev/md0 --add /dev/ram0 >/dev/null 2>&1
		wait_sync
	fi
	# check reads every member: the bytes are the array's raw capacity
	has check && timed_sync "$1" check "$2" $((n * member)) : \
		sh -c 'echo check >/sys/block/md0/md/sync_action'
	mdadm --stop /dev/md0 >/dev/null 2>&1
	for d in $devs; do
		mdadm --zero-superblock "$d" >/dev/null 2>&1
	done
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

most=0
for a in $PERF_ARRAYS; do
	[ "${a#*-}" -gt $most ] && most=${a#*-}
done
brd_setup "$most" "$PERF_DISK_MIB" || { ktap_fail brd; ktap_exit; }
fio_mem_setup
brd_write_once "$most" "$PERF_DISK_MIB"
config_leave
t0=$(now)
r=$PERF_REPEAT_FIRST
while [ $r -le "$PERF_REPEATS" ]; do
	for cfg in $(configs_of_repeat "$r" $PERF_CONFIGS); do
		if ! config_enter "$cfg"; then
			ktap_fail "config_${cfg}_$r"
			config_leave
			continue
		fi
		for a in $PERF_ARRAYS; do
			one_array "$a" "$r" || ktap_fail "array_${a}_${cfg}_$r"
		done
		config_leave
	done
	ktap_ok "repeat_$r # $(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf("%.0f", b - a) }') s so far"
	r=$((r + 1))
done
fio_mem_teardown
brd_teardown
ktap_exit
