#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Pacing (Documentation/design.rst, "Data flow"): a channel whose queue
# holds more than it drains in half a second refuses new async_tx work,
# so that md, waiting with preemption off for its newest descriptor, waits
# at most that long (async_tx_quiesce() panics after 5 s).  Here the engine
# is made slow (debugfs fault_delay_us: every work request waits 20 ms
# first, about 1 MB/s a channel, as on a starved host) under md load that
# queues several MiB: a RAID-6 of 6 written by a sequential and a random
# (read-modify-write: md quiesces) fio job, verifying.  Pacing must engage
# (stats/prep_paced moves), the queue must stay within its limit and one
# operation per CPU, fio must verify clean, the array check clean, and the
# work must have run on ecdma.  Without the refusal the queue grew to
# 4.1 MB against the 1 MiB limit (about 5 s of work at the rate measured).
. /ecdma/lib.sh
D=$ECDMA_DEV
dbg=/sys/kernel/debug/ecdma
ndisks=6
# the largest operation on this array: a P+Q over all its 4 KiB blocks
op_max=$((ndisks * 4096))
ncpu=$(nproc)

ecdma_load || { ktap_fail load_ecdma; ktap_exit; }
[ -w $dbg/fault_delay_us ] || { ktap_fail fault_delay_knob_present; ktap_exit; }
modprobe raid456 || { ktap_fail load_raid456; ktap_exit; }
brd_setup $ndisks 8
mdadm --create /dev/md0 --run --quiet --level=6 --raid-devices=$ndisks \
	--chunk=64 --assume-clean --bitmap=none /dev/ram0 /dev/ram1 /dev/ram2 \
	/dev/ram3 /dev/ram4 /dev/ram5 2>/tmp/mdadm.log ||
	{ cat /tmp/mdadm.log; ktap_fail create_md0; ktap_exit; }

so=$(cat $D/section_ops)
ii=$(cat $D/inline_issue)
nch=$(cat $D/channels)
pp0=$(ecdma_stat prep_paced)
ecdma_ops_sum
o0=$ECDMA_OPS
# one work request a section: each holds the CPU (preemption off) 20 ms;
# issue_pending leaves the work to the worker, so md queues what its
# stripe cache holds, and runs work inline only when prep refused or it
# waits.  At most 24 KiB per 20 ms, about 1.2 MB/s: the limit stays at its
# least (1 MiB, 500 ms of 2 MB/s) all along.
echo 1 >$D/section_ops
echo 0 >$D/inline_issue
echo 20000 >$dbg/fault_delay_us

fio --eta=never --ioengine=libaio --direct=1 --verify=crc32c \
	--verify_fatal=1 --output=/tmp/fio.pace.log \
	--name=seq --filename=/dev/md0 --rw=write --bs=1m --iodepth=4 \
	--size=3M \
	--name=rnd --filename=/dev/md0 --rw=randwrite --bs=4k --iodepth=16 \
	--offset=4M --size=1M --number_ios=48 \
	>/dev/null 2>&1 &
fpid=$!

# sample every channel's queue and limit while fio runs (the limit before
# and after the queue: it may move in between, when a window ends)
worst=0 over=0 n=0 qmax=0
while kill -0 $fpid 2>/dev/null && [ $n -lt 600 ]; do
	i=0
	while [ $i -lt "$nch" ]; do
		s=$D/stats/chan$i
		read -r l1 <$s/queue_limit
		read -r q <$s/queued_bytes
		read -r l2 <$s/queue_limit
		[ "$l2" -gt "$l1" ] && l1=$l2
		[ "$q" -gt $qmax ] && qmax=$q
		if [ "$q" -gt $((l1 + ncpu * op_max)) ]; then
			over=$((over + 1))
			[ "$q" -gt $worst ] && worst=$q wl=$l1
		fi
		i=$((i + 1))
	done
	n=$((n + 1))
	usleep 100000
done
wait $fpid
frc=$?
rates=
i=0
while [ $i -lt "$nch" ]; do
	rates="$rates $(cat $D/stats/chan$i/drain_rate)/$(cat $D/stats/chan$i/queue_limit)"
	i=$((i + 1))
done
echo 0 >$dbg/fault_delay_us
echo "$so" >$D/section_ops
echo "$ii" >$D/inline_issue
pp1=$(ecdma_stat prep_paced)
ecdma_ops_sum
o1=$ECDMA_OPS
ktap_diag "$n samples, largest queue $qmax bytes; drain_rate/queue_limit:$rates"

if [ $frc = 0 ] && [ "$(grep -c 'err= 0' /tmp/fio.pace.log)" = 2 ]; then
	ktap_ok "pace_fio_verify_clean"
else
	cat /tmp/fio.pace.log
	ktap_fail "pace_fio_verify_clean # rc $frc"
fi
[ "$pp1" -gt "$pp0" ] && ktap_ok "pace_engaged # prep_paced $pp0 -> $pp1" ||
	ktap_fail "pace_engaged # prep_paced $pp0 -> $pp1: the queue was never refused"
[ $over = 0 ] && ktap_ok "pace_queue_within_limit # largest $qmax" ||
	ktap_fail "pace_queue_within_limit # $over of $n samples over limit + $ncpu ops, worst $worst against $wl"
[ "$o1" -gt "$o0" ] && ktap_ok "pace_offloaded # ops $o0 -> $o1" ||
	ktap_fail "pace_offloaded # ops did not move ($o0 -> $o1)"
mm=$(md_check md0)
[ "$mm" = 0 ] && ktap_ok pace_check_mismatch_0 ||
	ktap_fail "pace_check_mismatch_0 # mismatch_cnt=$mm"
q=$(ecdma_stat queued_bytes)
ktap_check "pace_queue_empty_when_idle # $q" test "$q" = 0

mdadm --stop /dev/md0 >/dev/null 2>&1
brd_teardown
modprobe -r raid456
ktap_check ecdma_unloads modprobe -r ecdma
ktap_exit
