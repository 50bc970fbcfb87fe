#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Every live sysfs tunable at each end of its accepted range (and back)
# under sustained parallel md load: a RAID-6 of 8 disks written by six
# 1 MiB sequential jobs (enough to exhaust the descriptor pools, the
# condition that hung md with inline_issue=0), a RAID-5 of 4 disks with
# random writes, both with group_thread_cnt, and a RAID-6 of 6 disks two
# of which are missing, with random writes (md computes the lost blocks:
# async_tx's recovery chains, the ones fuse composes), fio verifying all
# along.
# Each value must be accepted, md must keep going with ecdma carrying the
# parity (counters move in every phase), and at the end fio must have
# verified clean and both arrays check with mismatch_cnt 0.  The idle-only
# settings are refused with EBUSY under the load and change nothing.
. /ecdma/lib.sh
D=$ECDMA_DEV
# a phase holds its value for phase_s under the load, which runs all
# along; debug-sized data with VM_SCALE (the debug kernel)
phase_s=1
dsize=$((40 / ${VM_SCALE:-1}))
[ "$dsize" -ge 10 ] || dsize=10

# the counters the holds below wait on, read into $got without forking
read_ops() {
	ecdma_ops_sum
	got=$ECDMA_OPS
}
read_prep_full() {
	ecdma_stat_read prep_full
	got=$ECDMA_STAT
}

# hold_until <reader> <from> <ticks>: poll <reader> every 250 ms until
# $got passes <from>, at most <ticks> times and while fio runs; $w: the
# ticks it took
hold_until() {
	w=0
	$1
	while [ "$got" -le "$2" ] && [ $w -lt "$3" ] && kill -0 "$fpid" 2>/dev/null; do
		usleep 250000
		$1
		w=$((w + 1))
	done
}

# phase <attr> <value>: set it under load, hold it, check progress
phase() {
	name="load_$(echo "$1" | tr / _)_$2"
	ecdma_ops_sum
	o0=$ECDMA_OPS
	# stderr first, so that a refused write's message lands there
	if ! echo "$2" 2>/tmp/knob.err >"$D/$1"; then
		ktap_fail "$name # refused: $(cat /tmp/knob.err)"
		return
	fi
	sleep $phase_s
	if ! kill -0 "$fpid" 2>/dev/null; then
		ktap_fail "$name # fio ended early"
		return
	fi
	# stats/reset zeroes the counters: count from zero then
	[ "$1" = stats/reset ] && o0=0
	# held longer (up to 5 s) while nothing moved yet: a second under
	# this load is short on the debug kernel
	hold_until read_ops "$o0" 20
	o1=$got
	more=
	[ $w = 0 ] || more=", held $((w * 250)) ms more"
	[ "$o1" -gt "$o0" ] && ktap_ok "$name # ops $((o1 - o0))$more" ||
		ktap_fail "$name # no offloaded ops ($o0 -> $o1)"
}

# busy <attr> <value>: an idle-only setting is refused, nothing changes
busy() {
	before=$(cat "$D/$1")
	err=$( (echo "$2" >"$D/$1") 2>&1)
	after=$(cat "$D/$1")
	if echo "$err" | grep -q busy && [ "$before" = "$after" ]; then
		ktap_ok "load_refused_$(echo "$1" | tr / _)"
	else
		ktap_fail "load_refused_$(echo "$1" | tr / _) # err='$err' '$before' -> '$after'"
	fi
}

ecdma_load || { ktap_fail load_ecdma; ktap_exit; }
modprobe raid456 || { ktap_fail load_raid456; ktap_exit; }
brd_setup 16 $dsize
mdadm --create /dev/md0 --run --quiet --level=6 --raid-devices=8 --chunk=64 \
	--assume-clean --bitmap=none /dev/ram0 /dev/ram1 /dev/ram2 /dev/ram3 \
	/dev/ram4 /dev/ram5 /dev/ram6 /dev/ram7 2>/tmp/mdadm.log ||
	{ cat /tmp/mdadm.log; ktap_fail create_md0; ktap_exit; }
mdadm --create /dev/md1 --run --quiet --level=5 --raid-devices=4 --chunk=64 \
	--assume-clean --bitmap=none /dev/ram8 /dev/ram9 /dev/ram10 /dev/ram11 \
	2>/tmp/mdadm.log || { cat /tmp/mdadm.log; ktap_fail create_md1; ktap_exit; }
mdadm --create /dev/md2 --run --quiet --level=6 --raid-devices=6 --chunk=16 \
	--assume-clean --bitmap=none /dev/ram12 /dev/ram13 missing missing \
	/dev/ram14 /dev/ram15 2>/tmp/mdadm.log ||
	{ cat /tmp/mdadm.log; ktap_fail create_md2; ktap_exit; }
echo 0 >/sys/block/md0/md/rmw_level
echo 2 >/sys/block/md0/md/group_thread_cnt
echo 2 >/sys/block/md1/md/group_thread_cnt
ktap_ok arrays_created

# defaults, to come back to
ii=$(cat $D/inline_issue)
wb=$(cat $D/worker_budget)
ib=$(cat $D/inline_budget)
so=$(cat $D/section_ops)
nt=$(cat $D/nt_threshold)
ms=$(cat $D/max_src)
nch=$(cat $D/channels)
ncpu=$(nproc)

# runs until stopped after the last phase (SIGINT: fio exits 128 then);
# at nice 19, so that this script's own steps are not queued behind
# fio's eight processes (on the debug kernel a one-second phase took
# six to fifteen): the load still has every CPU while a phase holds
# shellcheck disable=SC2016
sh -c 'renice -n 19 -p $$ >/dev/null; exec "$@"' nice19 \
	fio --eta=never --ioengine=libaio --direct=1 --verify=crc32c \
	--verify_fatal=1 --verify_backlog=64 --time_based --runtime=3600 \
	--output=/tmp/fio.knobs.log \
	--name=seq --filename=/dev/md0 --rw=write --bs=1m --iodepth=4 \
	--numjobs=6 --size=$((dsize - 1))M --offset_increment=${dsize}M \
	--name=rnd --filename=/dev/md1 --rw=randwrite --iodepth=16 \
	--bssplit=4k/40:16k/40:64k/20 --size=$((dsize * 3 - 1))M \
	--name=deg --filename=/dev/md2 --rw=randwrite --bs=16k --iodepth=2 \
	--size=$((dsize * 4 - 1))M \
	>/dev/null 2>&1 &
fpid=$!
# fio lays out and starts its eight jobs slowly on a debug kernel: the
# phases begin once ecdma is carrying the load (a phase that starts
# before then would see no operations and prove nothing)
w=0
ecdma_ops_sum
while [ $ECDMA_OPS -lt 1000 ] && [ $w -lt 120 ] && kill -0 "$fpid" 2>/dev/null; do
	sleep 1
	w=$((w + 1))
	ecdma_ops_sum
done
ktap_diag "load flowing after ${w} s: $ECDMA_OPS ops"

# Pools grow to desc_max descriptors a channel (4096), more than this
# load keeps in flight.  desc_max at its least (32) shrinks them under the
# load, and where fail_function exists growing a pool fails too, so the
# pools run dry, exactly as when they are full.
# Quiet first: fail_function's defaults (verbose 2, times 1) would dump
# the stack of the first failure on the console under this load.
FF=/sys/kernel/debug/fail_function
ff=
if [ -d $FF ]; then
	echo 0 >$FF/verbose
	echo 0 >$FF/interval
	echo -1 >$FF/times
	echo 100 >$FF/probability
fi
if [ -d $FF ] && echo ecdma_desc_new >$FF/inject 2>/dev/null; then
	ff=" (pool growth failed by fail_function)"
fi
dm=$(cat $D/desc_max)
phase desc_max 32
pf0=$(ecdma_stat prep_full)
cr0=$(ecdma_stat cb_released)
phase inline_issue 0
# hold it: pools run dry here, and that used to hang md.  At least 3 s,
# and on until a pool has run dry (up to 60 s): how many descriptors
# this load keeps in flight depends on the host's speed, and on a slow
# one (the debug kernel on a loaded CI machine) 3 s were not enough
sleep 3
hold_until read_prep_full "$pf0" $(((60 - 3) * 4))
pf1=$got
held=$((3 + w / 4))
[ -z "$ff" ] || echo >$FF/inject
phase desc_max "$dm"
[ "$pf1" -gt "$pf0" ] &&
	ktap_ok "inline_issue_0_pools_ran_dry # prep_full +$((pf1 - pf0)), cb_released +$(($(ecdma_stat cb_released) - cr0)) in ${held} s$ff" ||
	ktap_fail "inline_issue_0_pools_ran_dry # prep_full $pf0 -> $pf1 in ${held} s$ff: the load never exhausted a pool"
phase inline_issue 1
phase worker_budget 4096
phase worker_budget 16777216
phase worker_budget "$wb"
phase inline_budget 4096
phase inline_budget 16777216
phase inline_budget "$ib"
phase section_ops 1
phase section_ops 4096
phase section_ops "$so"
phase nt_threshold 0
phase nt_threshold 1073741824
phase nt_threshold "$nt"
phase pq_path gf
phase pq_path lib
phase pq_path auto
phase xor_path gf
phase xor_path lib
phase xor_path auto
phase max_src 2
phase max_src "$ms"
phase stats/reset 1
# fuse off: no chain composed once the chains posted before it completed
# (two readings a phase apart agree); on: composed again; then auto (the
# calibration's verdict at load)
read_fused() {
	ecdma_stat_read fused
	got=$ECDMA_STAT
}
phase fuse off
read_fused
f0=$got
sleep $phase_s
read_fused
[ "$got" = "$f0" ] && ktap_ok "load_fuse_off_composes_nothing # fused $f0" ||
	ktap_fail "load_fuse_off_composes_nothing # fused $f0 -> $got"
# Chains come only from the degraded array's stripes whose lost blocks a
# write needs: a few a second on the stock kernels, and on the debug
# kernel of a loaded CI host none in 6 s (2026-11-30).  So held until one
# is composed, up to 60 s, as the pools above.
phase fuse on
hold_until read_fused "$f0" 240
more="the phase and $((w * 250)) ms more"
[ "$got" -gt "$f0" ] && ktap_ok "load_fuse_on_composes # fused $f0 -> $got in $more" ||
	ktap_fail "load_fuse_on_composes # fused $f0 -> $got in $more: no recovery chain composed"
phase fuse auto
i=0
while [ $i -lt "$nch" ]; do
	c=$(cat $D/chan$i/cpu)
	phase chan$i/cpu $(((i + 1) % ncpu))
	phase chan$i/cpu -1
	phase chan$i/cpu "$c"
	i=$((i + 1))
done
# The offload policy.  never: async_tx asks and is told no, and the
# device leaves async_tx's channel table, so md computes everything on its
# own CPUs (XOR too; policy_trials.sh measures what still comes).  auto:
# decided by the CPUs' idle time every 10 ms and by trials in and out of
# the table.
echo never >$D/offload
sleep 1
o0=$(($(ecdma_ops pq) + $(ecdma_ops memcpy)))
sleep $phase_s
o1=$(($(ecdma_ops pq) + $(ecdma_ops memcpy)))
st=$(cat $D/offload_state)
[ "$o1" -eq "$o0" ] && kill -0 "$fpid" 2>/dev/null &&
	case "$st" in *table=withdrawn*) true ;; *) false ;; esac &&
	ktap_ok "load_offload_never_declines # $st" ||
	ktap_fail "load_offload_never_declines # ops $o0 -> $o1, $st"
echo auto >$D/offload
sleep $phase_s
kill -0 "$fpid" 2>/dev/null && ktap_ok "load_offload_auto # $(cat $D/offload_state)" ||
	ktap_fail "load_offload_auto # fio ended early"
# trial_budget under "auto": 100 (a trial whenever one is due: the table
# switches under the load), 0 (no trials), back to the default; md's
# data is verified and checked at the end like every other phase's
tb=$(cat $D/trial_budget)
for b in 100 0 "$tb"; do
	if ! echo "$b" 2>/tmp/knob.err >$D/trial_budget; then
		ktap_fail "load_trial_budget_$b # refused: $(cat /tmp/knob.err)"
		continue
	fi
	sleep $((phase_s * 2))
	kill -0 "$fpid" 2>/dev/null && ktap_ok "load_trial_budget_$b # $(cat $D/offload_state)" ||
		ktap_fail "load_trial_budget_$b # fio ended early"
done
phase offload always
# all at their harshest at once, inline_issue 0 included
echo 0 >$D/inline_issue
echo 32 >$D/desc_max
echo 4096 >$D/worker_budget
echo 4096 >$D/inline_budget
phase section_ops 1
echo "$ii" >$D/inline_issue
echo "$dm" >$D/desc_max
echo "$wb" >$D/worker_budget
echo "$ib" >$D/inline_budget
echo "$so" >$D/section_ops

busy channels 3
busy algo generic
busy caps/enable_xor 0

# stop fio; a wedged array would keep it from ending
kill -INT $fpid 2>/dev/null
waited=0
while kill -0 $fpid 2>/dev/null && [ $waited -lt 120 ]; do
	sleep 1
	waited=$((waited + 1))
done
wait $fpid
frc=$?
# every job ended without an error (verify errors included)
jobs_ok=$(grep -c 'err= 0' /tmp/fio.knobs.log)
if [ $waited -ge 120 ]; then
	ktap_fail "fio_stopped # still running $waited s after SIGINT"
elif { [ $frc = 0 ] || [ $frc = 128 ]; } && [ "$jobs_ok" = 8 ]; then
	ktap_ok "fio_verify_clean_under_every_setting # rc $frc"
else
	cat /tmp/fio.knobs.log
	ktap_fail "fio_verify_clean_under_every_setting # rc $frc, $jobs_ok of 8 jobs clean"
fi
mm0=$(md_check md0)
mm1=$(md_check md1)
[ "$mm0" = 0 ] && [ "$mm1" = 0 ] && ktap_ok check_mismatch_0 ||
	ktap_fail "check_mismatch_0 # md0 $mm0 md1 $mm1"
# md2 has no redundancy left to check: fio's verify read every block back
ktap_diag "errors: memcpy $(ecdma_stat memcpy_errors) xor $(ecdma_stat xor_errors) pq $(ecdma_stat pq_errors)"
# pacing may engage in the harshest phases (since the stats/reset phase)
ktap_diag "prep_paced $(ecdma_stat prep_paced) prep_full $(ecdma_stat prep_full)"
mdadm --stop /dev/md0 /dev/md1 /dev/md2 >/dev/null 2>&1
brd_teardown
modprobe -r raid456
ktap_check ecdma_unloads modprobe -r ecdma
ktap_exit
