#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The offload policy's trials ("auto", policy.c): under md load, ecdma
# leaves async_tx's channel table and comes back, in slots of 250 ms, and
# keeps whichever moved more I/O; "never" leaves it while it is set.
# Asserted here, under sustained RAID5 writes: out of the table
# ("never") next to nothing reaches ecdma (md computes by itself, without
# warnings), against "always" under the same 4 KiB random writes; under
# full-stripe writes trials run and switch the table; the data and the parity stay right through the switches;
# "always" puts the device back in the table; trials come less often
# while their verdict repeats.  With the default trial_budget a new load
# runs as md alone for its first seconds (no trial).  Without I/O from
# above (a check) trials are judged by md's member I/O; without any, auto
# rests out of the table.  ecdma unloads cleanly.
# Which state a trial keeps depends on the host: not asserted.
. /ecdma/lib.sh

D=$ECDMA_DEV
modprobe ecdma || { ktap_fail load_ecdma; ktap_exit; }
modprobe raid456 || { ktap_fail load_raid456; ktap_exit; }
echo auto >"$D/offload"

# ops: every operation type ecdma completed so far
ops() {
	echo $(($(ecdma_ops xor) + $(ecdma_ops xor_val) + $(ecdma_ops pq) +
		$(ecdma_ops pq_val) + $(ecdma_ops memcpy)))
}

# field <name>: a name=value field of offload_state
field() {
	tr ' ' '\n' <"$D/offload_state" | sed -n "s/^$1=//p"
}

# fio_stop <name> <note>: stop the background fio $fpid (SIGINT: fio ends
# its jobs and reports) or collect it if it ended; ok when its log
# /tmp/fio-<name>.log shows no job error
fio_stop() {
	local rc
	kill -INT "$fpid" 2>/dev/null
	wait "$fpid"
	rc=$?
	grep -q 'err= 0:' "/tmp/fio-$1.log" && ! grep -q 'err= [1-9]' "/tmp/fio-$1.log" &&
		ktap_ok "trials_fio_$1 # $2" ||
		{ cat "/tmp/fio-$1.log"; ktap_fail "trials_fio_$1 # rc=$rc"; }
}

# 256 MiB members (64 on the debug kernel, VM_SCALE=4): a check of them
# lasts 2-3 s unthrottled (below); brd allocates only what is written
scale=${VM_SCALE:-1}
msize=$((256 / scale))
[ $msize -ge 64 ] || msize=64
brd_setup 4 $msize
mdadm --create /dev/md0 --run --quiet --level=5 --raid-devices=4 \
	--chunk=64 --assume-clean --bitmap=none /dev/ram0 /dev/ram1 \
	/dev/ram2 /dev/ram3 2>/tmp/mdadm.log ||
	{ cat /tmp/mdadm.log; ktap_fail raid5_create; ktap_exit; }
echo 4096 >/sys/block/md0/md/stripe_cache_size

# 4K random writes (read-modify-write stripes: XOR, which only leaving
# the table can decline), in two phases under the one load:
#  - "always": the device in the table, the operations per second it gets;
#  - "never": out of the table from the next slot on, where what still
#    reaches ecdma are stragglers only (a chain begun in the table: async_tx
#    keeps a dependent operation on its parent's channel; a task preempted
#    between finding the channel and preparing, preempt=full).
# fio runs until both were measured, a minute at most.
s0=$(field table_switches)
t0=$(field trials)
echo always >"$D/offload"
fio --name=rmw --filename=/dev/md0 --rw=randwrite --bs=4k --size=96M \
	--ioengine=libaio --iodepth=16 --direct=1 --time_based --runtime=60 \
	--eta=never --output=/tmp/fio-rmw.log >/dev/null 2>&1 &
fpid=$!
# until the load flows (fio starts slowly on the debug kernel)
f0=$(ops) w=0
while [ $(($(ops) - f0)) -lt 50 ] && [ $w -lt 50 ] && kill -0 "$fpid" 2>/dev/null; do
	usleep 200000
	w=$((w + 1))
done
a0=$(ops)
sleep 2
a1=$(ops)
echo never >"$D/offload"
waited=0
while [ "$(field table)" != withdrawn ] && [ $waited -lt 30 ]; do
	usleep 100000
	waited=$((waited + 1))
done
# a caps store of the value a cap has changes nothing: the device stays
# out of async_tx's table (caps/ops without async_tx)
echo 1 >"$D/caps/enable_xor"
ops_now="table $(field table), caps/ops: $(cat "$D/caps/ops")"
case " $ops_now " in
*" async_tx "*) ktap_fail "caps_store_keeps_withdrawn # $ops_now" ;;
*) ktap_ok "caps_store_keeps_withdrawn # $ops_now" ;;
esac
usleep 300000
n0=$(ops)
sleep 2
n1=$(ops)
nst=$(cat "$D/offload_state")
alive=0
kill -0 "$fpid" 2>/dev/null && alive=1
fio_stop rmw "fio running $alive"

# "auto" under full-stripe writes (192 KiB: 3 data chunks, XOR).  With
# the default trial_budget (2% of a kind's load time) a kind of load
# never judged runs as md alone for 12.5 s before its first trial: for
# 3 s from the first slot the policy saw the load (load=write) no trial
# starts and the device stays out of the table.  Then trial_budget=100
# (a trial whenever one is due): trials run and switch the table.  Full
# stripes move six times the sectors of 4 KiB read-modify-writes per XOR:
# a slow debug kernel moved 4 KiB random writes at about 150 KiB/s, under
# what a trial judges (ECDMA_TRIAL_MIN_IO), and saw no trial at all.  fio
# runs until the trials were followed (below), two minutes at most.
echo auto >"$D/offload"
budget=$(cat "$D/trial_budget")
fio --name=trials --filename=/dev/md0 --rw=write --bs=192k --size=96M \
	--ioengine=libaio --iodepth=8 --direct=1 --time_based --runtime=120 \
	--eta=never --output=/tmp/fio-write.log >/dev/null 2>&1 &
fpid=$!
# Samples fork nothing but usleep: a slow debug kernel forks in tens of
# ms, and a sample must not miss a trial (1 s).
now() {
	read -r up _ </proc/uptime
	up=${up%.*}
}
state() {
	read -r st <"$D/offload_state"
	for f in $st; do
		case $f in
		trials=*) t=${f#trials=} ;;
		kept=*) k=${f#kept=} ;;
		trial_every_ms=*) e=${f#trial_every_ms=} ;;
		table=*) tb=${f#table=} ;;
		load=*) ld=${f#load=} ;;
		thin=*) th=${f#thin=} ;;
		esac
	done
}
state
t0=$t
now
end=$((up + 40)) since= out=1
while kill -0 "$fpid" 2>/dev/null && [ "$up" -lt $end ]; do
	state
	[ "$tb" = withdrawn ] || out=0
	if [ -z "$since" ] && [ "$ld" = write ]; then
		since=$up
		end=$((up + 4))
	fi
	usleep 100000
	now
done
msg="budget $budget, load seen ${since:+$((up - since)) s}, trials $t0 -> $t, $st"
[ -n "$since" ] && [ "$t" = "$t0" ] && [ $out = 1 ] &&
	ktap_ok "new_load_runs_as_md_alone # $msg" ||
	ktap_fail "new_load_runs_as_md_alone # $msg"
echo 100 >"$D/trial_budget"
# Follow auto's trials while the load lasts: from each verdict (kept moved
# or not) the pace the next trial must come at: the usual 4 s after the
# load's first trial or a changed verdict, doubled while the verdict
# repeats, up to 16 s in the table and 64 s out of it.  A slot without
# load (a slow host's lull) keeps the pace: it is the load kind's own,
# and so does a trial that judged nothing (thin= counts them: a slot out
# of the table without load), seen here beside three other boots.
# Only samples taken while fio runs are compared.  Two trials and a
# second after the second (its pace) are enough, about 7 s; the load
# stops then, or after 60 s on a slow host.
state
pt=$t pk=$k pth=$th prev= every=0 seen=0 pace_ok=1 pace= badt= repeats=0 lulls=0
thins=0
now
end=$((up + 60)) last=$up
while kill -0 "$fpid" 2>/dev/null && [ "$up" -lt $end ] &&
	! { [ $seen -ge 2 ] && [ "$up" -gt $((last + 1)) ]; }; do
	state
	kill -0 "$fpid" 2>/dev/null || break
	if [ "$t" != "$pt" ] && [ "$th" != "$pth" ]; then
		# a trial that judged nothing: verdict and pace kept
		thins=$((thins + 1))
	elif [ "$t" != "$pt" ]; then
		# a trial (1 s) ended since the last sample (0.1 s ago)
		v=$((k - pk))
		if [ "$every" -gt 0 ] && [ "$v" = "$prev" ]; then
			every=$((every * 2))
			cap=$((v ? 16000 : 64000))
			[ $every -gt $cap ] && every=$cap
			repeats=$((repeats + 1))
		else
			every=4000
		fi
		prev=$v seen=$((seen + 1)) last=$up
	elif [ $seen -gt 0 ] && [ "$e" = 0 ]; then
		# a slot with too little I/O to judge (a slow host, the
		# debug kernel): no load kind now, its pace kept
		lulls=$((lulls + 1))
	elif [ $seen -gt 0 ] && [ "$e" != "$every" ]; then
		[ "$badt" = "$t" ] || pace="$pace after trial $t: every_ms $e, want $every;"
		pace_ok=0 badt=$t
	fi
	pt=$t pk=$k pth=$th
	usleep 100000
	now
done
fio_stop write "auto followed $((up + 60 - end)) s"
# out of the table: under 5% of what the same 2 s brought in it
msg="always: $((a1 - a0)) ops in 2 s, never: $((n1 - n0)) in 2 s, fio running $alive, $nst"
case "$nst" in *table=withdrawn*) out=1 ;; *) out=0 ;; esac
[ $out = 1 ] && [ $alive = 1 ] && [ $((a1 - a0)) -gt 0 ] &&
	[ $(((n1 - n0) * 20)) -lt $((a1 - a0)) ] &&
	ktap_ok "never_withdrawn_gets_next_to_nothing # $msg" ||
	ktap_fail "never_withdrawn_gets_next_to_nothing # $msg"
msg="$seen trials, $repeats repeating the verdict, $lulls lulls, $thins judging nothing, last pace ${every} ms"
# A host too slow for fio to feed a slot judges nothing: no back-off to
# check (the unit tests drive it, test_trial), said so, not passed
if [ $pace_ok != 1 ]; then
	ktap_fail "trials_back_off_while_verdict_repeats # $msg:$pace"
elif [ $repeats = 0 ]; then
	ktap_skip "trials_back_off_while_verdict_repeats" "no verdict repeated in 60 s: $msg"
else
	ktap_ok "trials_back_off_while_verdict_repeats # $msg"
fi
s1=$(field table_switches)
t1=$(field trials)
[ "$t1" -gt "$t0" ] && ktap_ok "trials_ran # $t0 -> $t1, $(cat "$D/offload_state")" ||
	ktap_fail "trials_ran # $t0 -> $t1, $(cat "$D/offload_state")"
# never's two switches, and the trials' at least two more
[ $((s1 - s0)) -ge 4 ] && ktap_ok "trials_switched_table # $s0 -> $s1" ||
	ktap_fail "trials_switched_table # $s0 -> $s1"
# the data through the switches: random writes, then read back, verified
# (debug-sized with VM_SCALE: the debug kernel still switches many times)
fio --name=verify --filename=/dev/md0 --rw=randwrite --bs=4k \
	--size=$((32 / scale))M \
	--ioengine=libaio --iodepth=16 --direct=1 --verify=crc32c \
	--verify_fatal=1 --eta=never --output=/tmp/fio-verify.log \
	>/dev/null 2>&1 && ktap_ok "trials_fio_write_verify # $(field table_switches) switches" ||
	{ cat /tmp/fio-verify.log; ktap_fail trials_fio_write_verify; }
mm=$(md_check md0)
[ "$mm" = 0 ] && ktap_ok trials_check_mismatch_0 ||
	ktap_fail "trials_check_mismatch_0 # mismatch_cnt=$mm"

# "always": back in the table within a slot or two, and offloading
echo always >"$D/offload"
sleep 1
[ "$(field table)" = in ] && ktap_ok "always_in_table # $(cat "$D/offload_state")" ||
	ktap_fail "always_in_table # $(cat "$D/offload_state")"
x0=$(ecdma_ops xor)
fio --name=after --filename=/dev/md0 --rw=randwrite --bs=4k \
	--size=$((16 / scale))M \
	--ioengine=libaio --iodepth=16 --direct=1 --eta=never \
	--output=/tmp/fio-after.log >/dev/null 2>&1
x1=$(ecdma_ops xor)
[ "$x1" -gt "$x0" ] && ktap_ok "always_offloads # xor ops $x0 -> $x1" ||
	ktap_fail "always_offloads # xor ops $x0 -> $x1"

# "auto" without I/O from above (a check): trials judged by the sectors
# md sends to its members (trial_by=md), a check at a time until one ran
# with check I/O in its "in" slots and ecdma validated some of it; every
# check finds the parity right.  The check runs unthrottled, 2-3 s on
# these members: md's throttle (sync_speed_max) sleeps 250 ms whenever
# the check runs ahead of it, so a throttled check moves in bursts and
# leaves whole slots empty, in or out of the table alike (measured on
# 6.12: 32288-sector steps with 0.5-1 s gaps in every mode), and a
# trial compares noise.  Up to 20 checks: while the verdict repeats,
# trials of this kind come after 4, 8, 16, then 32 s.
echo auto >"$D/offload"
sleep 1
t0=$(field trials)
v0=$(ecdma_ops xor_val)
n=0 bad=0 seen=
judged() {
	[ "$(field trials)" -gt "$t0" ] && [ "$(field trial_by)" = md ] &&
		[ "$(field last_trial_io | cut -d/ -f1)" -gt 0 ]
}
while [ $n -lt 20 ]; do
	mm=$(md_check md0)
	n=$((n + 1))
	[ "$mm" = 0 ] || bad=$((bad + 1))
	judged && [ "$(ecdma_ops xor_val)" -gt "$v0" ] && seen=1 && break
	ktap_diag "check $n: xor_val $(ecdma_ops xor_val), $(cat "$D/offload_state")"
done
v1=$(ecdma_ops xor_val)
msg="$n checks, $bad with mismatches, xor_val ops $v0 -> $v1, $(cat "$D/offload_state")"
# judged as the loop saw it: read again, the next trial may have begun
# (6.1, 2026-11-28: the loop ended on a judged trial and a validated
# check, then the same condition read once more failed, though the state
# printed with it met it)
[ -n "$seen" ] && [ $bad = 0 ] &&
	ktap_ok "auto_check_trials_by_md_io # $msg" ||
	ktap_fail "auto_check_trials_by_md_io # $msg"

# "auto" with nothing to judge rests out of the table (async_tx still
# holds the channels: raid456 is loaded), so the next load starts as md
# alone: within a trial (1 s) and a slot of the last check, even when
# the check ended during a trial (5 s allows for a slow host's timers);
# and it stays there, no trial starting, for 2 s of idle
rest() {
	[ "$(field table)" = withdrawn ] && [ "$(field trial_slot)" = 0 ]
}
w=0
while ! rest && [ $w -lt 50 ]; do
	sleep 0.1
	w=$((w + 1))
done
t0=$(field trials)
n=0
while rest && [ $n -lt 20 ]; do
	sleep 0.1
	n=$((n + 1))
done
st=$(cat "$D/offload_state")
rest && [ $n = 20 ] && [ "$(field trials)" = "$t0" ] &&
	ktap_ok "auto_idle_rests_out_of_table # after ${w}00 ms, $st" ||
	ktap_fail "auto_idle_rests_out_of_table # after ${w}00 ms, held ${n}00 ms, $st"

mdadm --stop /dev/md0 >/dev/null 2>&1
brd_teardown
echo always >"$D/offload"
modprobe -r raid456
modprobe -r ecdma && ktap_ok unload_after_trials || ktap_fail unload_after_trials
[ -d "$D" ] && ktap_fail "device_gone # $D still there" || ktap_ok device_gone
ktap_exit
