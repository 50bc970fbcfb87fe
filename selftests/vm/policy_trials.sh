#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The offload policy's trials ("auto", policy.c): under md load with I/O
# from above, ecdma leaves async_tx's channel table and comes back, in
# slots of 250 ms, and keeps whichever moved more I/O.  Asserted here:
# trials run and switch the table under sustained RAID5 random writes
# with data verification; while out of the table next to nothing reaches
# ecdma (md computes by itself, without warnings); the data and
# the parity stay right through the switches; "always" puts the device
# back in the table; without I/O from above (a check) it stays in the
# table and the check is offloaded; ecdma unloads cleanly afterwards.
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

brd_setup 4 64
mdadm --create /dev/md0 --run --quiet --level=5 --raid-devices=4 \
	--chunk=64 --assume-clean --bitmap=none /dev/ram0 /dev/ram1 \
	/dev/ram2 /dev/ram3 2>/tmp/mdadm.log ||
	{ cat /tmp/mdadm.log; ktap_fail raid5_create; ktap_exit; }
echo 4096 >/sys/block/md0/md/stripe_cache_size

# 4K random writes for 8 s (read-modify-write stripes: XOR, which only
# leaving the table can decline)
s0=$(field table_switches)
t0=$(field trials)
fio --name=trials --filename=/dev/md0 --rw=randwrite --bs=4k --size=96M \
	--ioengine=libaio --iodepth=16 --direct=1 --time_based --runtime=8 \
	--eta=never --output=/tmp/fio-trials.log >/dev/null 2>&1 &
fpid=$!
# Sample every 100 ms.  From the third sample of one period out of the
# table on (table=withdrawn, table_switches unchanged: the rebalance is
# done), operations reaching ecdma are stragglers only: a chain begun in
# the table (async_tx keeps a dependent operation on its parent's
# channel), or a task preempted between finding the channel and
# preparing (preempt=full).  Compare with the sample pairs in the table.
out_n=0 out_ops=0 in_n=0 in_ops=0 run=0 prev_st="" prev_sw="" prev_ops=""
while kill -0 "$fpid" 2>/dev/null; do
	st=$(field table)
	sw=$(field table_switches)
	o=$(ops)
	if [ "$st" = "$prev_st" ] && [ "$sw" = "$prev_sw" ]; then
		run=$((run + 1))
	else
		run=1
	fi
	if [ $run -ge 3 ] && [ "$st" = withdrawn ]; then
		out_n=$((out_n + 1))
		out_ops=$((out_ops + o - prev_ops))
	elif [ $run -ge 2 ] && [ "$st" = in ]; then
		in_n=$((in_n + 1))
		in_ops=$((in_ops + o - prev_ops))
	fi
	prev_st=$st
	prev_sw=$sw
	prev_ops=$o
	usleep 100000
done
wait "$fpid"
frc=$?
[ $frc -eq 0 ] && ktap_ok trials_fio_randwrite ||
	{ cat /tmp/fio-trials.log; ktap_fail "trials_fio_randwrite # rc=$frc"; }
s1=$(field table_switches)
t1=$(field trials)
[ "$t1" -gt "$t0" ] && ktap_ok "trials_ran # $t0 -> $t1, $(cat "$D/offload_state")" ||
	ktap_fail "trials_ran # $t0 -> $t1, $(cat "$D/offload_state")"
[ $((s1 - s0)) -ge 2 ] && ktap_ok "trials_switched_table # $s0 -> $s1" ||
	ktap_fail "trials_switched_table # $s0 -> $s1"
# out of the table: under 5% of the operations per sample pair in it
msg="out: $out_ops ops in $out_n sample pairs, in: $in_ops in $in_n"
[ "$out_n" -gt 0 ] && [ "$in_n" -gt 0 ] && [ "$in_ops" -gt 0 ] &&
	[ $((out_ops * in_n * 20)) -lt $((in_ops * out_n)) ] &&
	ktap_ok "withdrawn_gets_next_to_nothing # $msg" ||
	ktap_fail "withdrawn_gets_next_to_nothing # $msg"
# the data through the switches: random writes, then read back, verified
fio --name=verify --filename=/dev/md0 --rw=randwrite --bs=4k --size=32M \
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
fio --name=after --filename=/dev/md0 --rw=randwrite --bs=4k --size=16M \
	--ioengine=libaio --iodepth=16 --direct=1 --eta=never \
	--output=/tmp/fio-after.log >/dev/null 2>&1
x1=$(ecdma_ops xor)
[ "$x1" -gt "$x0" ] && ktap_ok "always_offloads # xor ops $x0 -> $x1" ||
	ktap_fail "always_offloads # xor ops $x0 -> $x1"

# "auto" without I/O from above: a check stays in the table (offloaded)
echo auto >"$D/offload"
sleep 1
v0=$(ecdma_ops xor_val)
mm=$(md_check md0)
v1=$(ecdma_ops xor_val)
[ "$mm" = 0 ] && [ "$(field table)" = in ] && [ "$v1" -gt "$v0" ] &&
	ktap_ok "auto_check_in_table # xor_val ops $v0 -> $v1" ||
	ktap_fail "auto_check_in_table # mismatch_cnt=$mm xor_val ops $v0 -> $v1, $(cat "$D/offload_state")"

mdadm --stop /dev/md0 >/dev/null 2>&1
brd_teardown
echo always >"$D/offload"
modprobe -r raid456
modprobe -r ecdma && ktap_ok unload_after_trials || ktap_fail unload_after_trials
[ -d "$D" ] && ktap_fail "device_gone # $D still there" || ktap_ok device_gone
ktap_exit
