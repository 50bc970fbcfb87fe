# SPDX-License-Identifier: GPL-2.0
#
# Helpers of the differential md suite (selftests/vm/md_*.sh; busybox sh).
# Source after lib.sh.  Every scenario runs once per mode of $MD_MODES in
# one boot: "never" (ecdma out of async_tx's channel table: md alone, the
# control) and "always" (everything async_tx may offload goes to ecdma);
# a scenario that fails only with "always" is ecdma's.  Every block
# written is verified (fio crc32c); with "always" the ops the scenario
# uses must have moved on ecdma's counters.
#
# VM_SCALE (kernel command line, e.g. --append VM_SCALE=4 on the debug
# kernel): divides the data volumes, never below one stripe per path.

MD_MODES=${MD_MODES:-"never always"}
VM_SCALE=${VM_SCALE:-1}
# no sync progress for this long is a stall (seconds)
MD_STALL_S=${MD_STALL_S:-90}
MD=/dev/md0
MDS=/sys/block/md0/md

# md_sz <MiB>: a data volume in KiB, divided by VM_SCALE, at least 256 KiB
md_sz() {
	local s
	s=$(($1 * 1024 / VM_SCALE))
	[ "$s" -ge 256 ] || s=256
	echo "${s}k"
}

# md_field <name>: a name=value field of ecdma's offload_state
md_field() {
	tr ' ' '\n' <"$ECDMA_DEV/offload_state" | sed -n "s/^$1=//p"
}

# md_mode <mode>: set the offload mode and wait until async_tx's channel
# table says so (never: withdrawn; always: in)
md_mode() {
	local want w
	MODE=$1
	echo "$MODE" >"$ECDMA_DEV/offload"
	want=in
	[ "$MODE" = never ] && want=withdrawn
	w=0
	while [ "$(md_field table)" != $want ] && [ $w -lt 50 ]; do
		usleep 100000
		w=$((w + 1))
	done
	[ "$(md_field table)" = $want ] ||
		ktap_diag "mode $MODE: table $(md_field table), wanted $want"
}

# md_snap: remember ecdma's operation counters
md_snap() {
	local op
	for op in xor xor_val pq pq_val memcpy; do
		eval "md_o_$op=$(ecdma_ops $op)"
	done
}

# md_moved <name> <op>...: with "always", one of the ops must have moved
# since md_snap (else async_tx ran them on the CPU and nothing was tested)
md_moved() {
	local name=$1 d=0 what= op b n seen=
	shift
	for op in "$@"; do
		case " $seen " in *" $op "*) continue ;; esac
		seen="$seen $op"
		eval "b=\$md_o_$op"
		n=$(($(ecdma_ops "$op") - b))
		d=$((d + n))
		what="$what $op+$n"
	done
	if [ "$MODE" != always ]; then
		ktap_ok "${MODE}_${name}_offload # control:$what, table $(md_field table)"
	elif [ "$d" -gt 0 ]; then
		ktap_ok "${MODE}_${name}_offloaded #$what"
	else
		ktap_fail "${MODE}_${name}_offloaded # nothing moved:$what"
	fi
}

# md_devs <first> <count>: "/dev/ram<first> ... "
md_devs() {
	local i=$1 l=
	while [ "$i" -lt $(($1 + $2)) ]; do
		l="$l /dev/ram$i"
		i=$((i + 1))
	done
	echo $l
}

# md_create <name> <mdadm create args...>: md0, fully synced or clean
md_create() {
	local name=$1
	shift
	ktap_diag "$MODE $name: create at $(cut -d" " -f1 /proc/uptime) s"
	if mdadm --create $MD --run --quiet "$@" 2>/tmp/mdadm.log; then
		md_wait_sync "${name}_sync"
		return
	fi
	cat /tmp/mdadm.log
	ktap_fail "${MODE}_${name}_create"
	return 1
}

# md_fio <name> <write|verify|wv> <size> <offset> <seed> [bs]: random
# writes with crc32c headers, verification of such a pass (same
# arguments), or both in one fio run (wv: every block read back once all
# are written; a fio start costs about 0.6 s in a TCG guest); reports the
# blocks that read back wrong
md_fio() {
	local name=$1 what=$2 size=$3 off=$4 seed=$5 bs=${6:-16k} rc bad
	if [ "$what" = verify ]; then
		md_fio_verify "$name:$size:$off:$seed:$bs"
		return
	fi
	set -- --name=md --filename=$MD --rw=randwrite --bs="$bs" \
		--size="$size" --offset="$off" --randseed="$seed" \
		--ioengine=psync --direct=1 --eta=never --verify=crc32c \
		--verify_fatal=0 --verify_dump=0
	if [ "$what" = write ]; then
		fio "$@" --do_verify=0 --output=/tmp/fio.log >/dev/null 2>&1
		rc=$?
		[ $rc = 0 ] && return 0
		cat /tmp/fio.log
		ktap_fail "${MODE}_${name}_write # fio rc=$rc"
		return 1
	fi
	fio "$@" --do_verify=1 --continue_on_error=verify \
		--output=/tmp/fio.log >/tmp/fio.err 2>&1
	rc=$?
	bad=$(grep -c -E 'verify failed|bad (magic|header)' /tmp/fio.err /tmp/fio.log |
		awk -F: '{ s += $NF } END { print s + 0 }')
	if [ $rc = 0 ] && [ "$bad" = 0 ]; then
		ktap_ok "${MODE}_${name}_verify # $size at $off"
		return 0
	fi
	grep -m3 -h -E 'verify' /tmp/fio.err /tmp/fio.log
	ktap_fail "${MODE}_${name}_verify # $bad bad blocks, fio rc=$rc"
	return 1
}

# md_fio_verify <name:size:offset:seed[:bs]>...: md_fio's verify of
# several regions (each as md_fio wrote it) in one fio run, a job per
# region after the global options; each region passes or fails on its
# own, by its job's error count (with continue_on_error fio counts every
# block that read back wrong and still exits 0)
md_fio_verify() {
	local r name size off seed bs rc errs fail=0
	set -- "$@" --filename=$MD --rw=randwrite --ioengine=psync --direct=1 \
		--eta=never --verify=crc32c --verify_fatal=0 --verify_dump=0 \
		--verify_only=1 --continue_on_error=verify
	# each region from the front to a job at the back
	while [ "${1#--}" = "$1" ]; do
		r=$1
		name=${r%%:*} r=${r#*:}
		size=${r%%:*} r=${r#*:}
		off=${r%%:*} r=${r#*:}
		seed=${r%%:*} bs=16k
		[ "$r" = "$seed" ] || bs=${r#*:}
		shift
		set -- "$@" --name="$name" --size="$size" --offset="$off" \
			--randseed="$seed" --bs="$bs"
	done
	fio "$@" --output=/tmp/fio.log >/tmp/fio.err 2>&1
	rc=$?
	for r in "$@"; do
		case $r in
		--name=*) name=${r#--name=} ;;
		--size=*) size=${r#--size=} ;;
		--offset=*)
			off=${r#--offset=}
			# "errors : total=N" in the job's own section
			errs=$(awk -v j="$name:" '
				$1 == j && /groupid=/ { job = 1; next }
				/groupid=/ { job = 0 }
				job && $1 == "errors" {
					sub(/.*total=/, ""); sub(/,.*/, ""); print; exit
				}' /tmp/fio.log)
			if [ $rc = 0 ] && [ "$errs" = 0 ]; then
				ktap_ok "${MODE}_${name}_verify # $size at $off"
			else
				ktap_fail "${MODE}_${name}_verify # ${errs:-?} bad blocks, fio rc=$rc"
				fail=1
			fi
			;;
		esac
	done
	[ $fail = 0 ] && return 0
	grep -m3 -h -E 'verify' /tmp/fio.err /tmp/fio.log
	return 1
}

# md_check <name> [want]: a parity check finds <want> (0) mismatches
md_check() {
	local name=$1 want=${2:-0} mm
	echo check >$MDS/sync_action
	usleep 200000
	md_wait_sync "${name}_check" || return 1
	mm=$(cat $MDS/mismatch_cnt)
	[ "$mm" = "$want" ] && ktap_ok "${MODE}_${name}_check # mismatch_cnt $mm" ||
		ktap_fail "${MODE}_${name}_check # mismatch_cnt $mm, want $want"
}

# md_dump: state for a stall or a failure
md_dump() {
	local f
	cat /proc/mdstat
	for f in sync_action sync_completed sync_speed array_state degraded \
		reshape_position journal_mode stripe_cache_active level layout \
		sync_min sync_max; do
		[ -r $MDS/$f ] && ktap_diag "md $f: $(cat $MDS/$f)"
	done
	ktap_diag "ecdma queue_depth $(ecdma_stat queue_depth) prep_full $(ecdma_stat prep_full) unacked_held $(ecdma_stat unacked_held)"
	ktap_diag "ecdma offload_state $(cat "$ECDMA_DEV/offload_state")"
	echo w >/proc/sysrq-trigger
	ps | grep -v -E ' \[.*\]$' | sed 's/^/# /'
	# md's threads, blocked or not (sysrq w skips TASK_IDLE waits)
	for p in /proc/[0-9]*; do
		case "$(cat $p/comm 2>/dev/null)" in
		md*|kworker*ecdma*|ecdma*)
			ktap_diag "task $(cat $p/comm) $(sed -n 's/^State:\t//p' $p/status) wchan $(cat $p/wchan 2>/dev/null)"
			sed 's/^/#   /' $p/stack 2>/dev/null
			;;
		esac
	done
	# what raid456's stripe handling does meanwhile (its pr_debug)
	dyn=/sys/kernel/debug/dynamic_debug/control
	if [ -w $dyn ]; then
		echo 'module raid456 +p' >$dyn
		sleep 1
		echo 'module raid456 -p' >$dyn
	fi
	dmesg | tail -120 | sed 's/^/# /'
}

# md_wait_sync <name> [rebuilt]: wait for resync/recovery/reshape/check to
# end (with "rebuilt": also for no member to be missing, as a recovery md
# has not started yet is none); a stall (no progress for MD_STALL_S) dumps
# the state and fails
md_wait_sync() {
	local last= still=0 act pos
	while :; do
		act=$(cat $MDS/sync_action 2>/dev/null || echo idle)
		[ "$act" = idle ] && ! grep -q -E 'resync|recovery|reshape|check' /proc/mdstat &&
			{ [ "${2:-}" != rebuilt ] || [ "$(cat $MDS/degraded)" = 0 ]; } &&
			return 0
		pos="$act $(cat $MDS/sync_completed 2>/dev/null) $(cat $MDS/reshape_position 2>/dev/null)"
		if [ "$pos" = "$last" ]; then
			still=$((still + 1))
		else
			still=0
			last=$pos
		fi
		if [ $still -ge $((MD_STALL_S * 5)) ]; then
			ktap_diag "stall: no progress for ${MD_STALL_S} s at $pos"
			md_dump
			ktap_fail "${MODE}_${1}_no_stall"
			return 1
		fi
		usleep 200000
	done
}

# md_stop: stop md0 (waits for it to go)
md_stop() {
	local w=0
	mdadm --stop $MD >/dev/null 2>&1
	while [ -e $MDS ] && [ $w -lt 50 ]; do
		usleep 100000
		w=$((w + 1))
	done
}

# md_suite_begin: ecdma and raid456 loaded, every mode's control ready
md_suite_begin() {
	ecdma_modprobe || { ktap_fail load_ecdma; ktap_exit; }
	modprobe raid456 || { ktap_fail load_raid456; ktap_exit; }
	echo 100000 >/proc/sys/dev/raid/speed_limit_min
}

# md_suite_end: unload; ecdma must go cleanly
md_suite_end() {
	echo always >"$ECDMA_DEV/offload"
	modprobe -r raid456
	ktap_check ecdma_unloads modprobe -r ecdma
	ktap_exit
}
