#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# md soak: a RAID6 array of 8 disks and a RAID5 array of 4 at the same time,
# each with fio verify running (mixed sequential and random, 4K-1M blocks),
# while md0 loses one disk and rebuilds, then two disks and rebuilds, and md1
# runs parity checks.  At the end both arrays must check with mismatch_cnt
# 0, fio must have verified clean, and ecdma must have carried the parity.
# Short by default (~1 min); $ecdma_soak seconds from the kernel command
# line make it long (make soak).
. /ecdma/lib.sh

dur=45
# debug-sized members with VM_SCALE (the debug kernel): the same 45 s of
# load, rebuilds and checks, over less data per rebuild and check
dsize=$((24 / ${VM_SCALE:-1}))
[ "$dsize" -ge 8 ] || dsize=8
if [ -n "${ecdma_soak:-}" ]; then
	dur=$ecdma_soak
	dsize=64
fi
ecdma_load || { ktap_fail load_ecdma; ktap_exit; }
modprobe raid456 || { ktap_fail load_raid456; ktap_exit; }
echo 100000 >/proc/sys/dev/raid/speed_limit_min
brd_setup 12 "$dsize"
mdadm --create /dev/md0 --run --quiet --level=6 --raid-devices=8 --chunk=64 \
	--assume-clean --bitmap=none /dev/ram0 /dev/ram1 /dev/ram2 /dev/ram3 \
	/dev/ram4 /dev/ram5 /dev/ram6 /dev/ram7 2>/tmp/mdadm.log ||
	{ cat /tmp/mdadm.log; ktap_fail create_md0; ktap_exit; }
mdadm --create /dev/md1 --run --quiet --level=5 --raid-devices=4 --chunk=128 \
	--assume-clean --bitmap=none /dev/ram8 /dev/ram9 /dev/ram10 /dev/ram11 \
	2>/tmp/mdadm.log || { cat /tmp/mdadm.log; ktap_fail create_md1; ktap_exit; }
ktap_ok arrays_created

# a low rate of injected engine faults all along: every one recomputed
dbg=/sys/kernel/debug/ecdma
f0=$(cat $dbg/faults_injected 2>/dev/null || echo 0)
echo 97 >$dbg/fault_every_n 2>/dev/null
ecdma_ops_sum
ops0=$ECDMA_OPS
half0=$((dsize * 6 / 2))M
half1=$((dsize * 3 / 2))M
# md0: random mixed sizes on the first half, sequential 1M on the second;
# md1: random mixed sizes
fio --eta=never --ioengine=psync --direct=1 --verify=crc32c --verify_fatal=1 \
	--verify_backlog=32 --time_based --runtime="$dur" \
	--output=/tmp/fio.soak.log \
	--name=r0 --filename=/dev/md0 --rw=randwrite --size=$half0 \
	--bssplit=4k/40:16k/20:64k/20:256k/10:1m/10 \
	--name=s0 --filename=/dev/md0 --rw=write --bs=1m --offset=$half0 \
	--size=$half0 \
	--name=r1 --filename=/dev/md1 --rw=randwrite --size=$half1 \
	--bssplit=4k/50:64k/30:1m/20 >/dev/null 2>&1 &
fpid=$!

start=$(date +%s)
checks=0
rebuilds=0
phase=0
bad=0
while kill -0 $fpid 2>/dev/null; do
	case $phase in
	0) fail="/dev/ram3" ;;
	1) fail="/dev/ram1 /dev/ram6" ;;
	*) fail= ;;
	esac
	if [ -n "$fail" ]; then
		for d in $fail; do
			mdadm /dev/md0 --fail $d --remove $d >/dev/null 2>&1 || bad=1
		done
		sleep 2
		for d in $fail; do
			mdadm --zero-superblock $d >/dev/null 2>&1
			mdadm /dev/md0 --add $d >/dev/null 2>&1 || bad=1
		done
		sleep 1
		md_wait_idle md0 || bad=1
		rebuilds=$((rebuilds + 1))
		phase=$((phase + 1))
		[ -z "${ecdma_soak:-}" ] || [ $phase -lt 2 ] || phase=0
	fi
	mm=$(md_check md1)
	checks=$((checks + 1))
	[ "$mm" = 0 ] || { ktap_diag "md1 check $checks: mismatch_cnt $mm"; bad=1; }
	[ $(($(date +%s) - start)) -lt $((dur + 30)) ] || break
	sleep 1
done
if wait $fpid; then
	ktap_ok "fio_verify_clean_during_soak"
else
	cat /tmp/fio.soak.log
	ktap_fail "fio_verify_clean_during_soak"
fi
[ $bad = 0 ] && ktap_ok "disk_fail_readd_and_checks # rebuilds $rebuilds checks $checks" ||
	ktap_fail "disk_fail_readd_and_checks # rebuilds $rebuilds checks $checks"
if grep -q _ /proc/mdstat; then
	cat /proc/mdstat
	ktap_fail arrays_complete
else
	ktap_ok arrays_complete
fi
echo 0 >$dbg/fault_every_n 2>/dev/null
faults=$(($(cat $dbg/faults_injected 2>/dev/null || echo 0) - f0))
[ "$(ecdma_stat faults)" = "$(ecdma_stat fallbacks)" ] &&
	ktap_ok "faults_recomputed # injected $faults" ||
	ktap_fail "faults_recomputed # faults $(ecdma_stat faults) fallbacks $(ecdma_stat fallbacks)"
mm0=$(md_check md0)
mm1=$(md_check md1)
[ "$mm0" = 0 ] && [ "$mm1" = 0 ] && ktap_ok "final_check_mismatch_0" ||
	ktap_fail "final_check_mismatch_0 # md0 $mm0 md1 $mm1"
ecdma_ops_sum
ops=$ECDMA_OPS
ktap_diag "soak: ${dur}s, ops offloaded $((ops - ops0)), faults $faults, mismatch md0 $mm0 md1 $mm1, rebuilds $rebuilds, checks $checks"
echo "ECDMA-SOAK duration=$dur ops=$((ops - ops0)) faults=$faults mismatch=$((mm0 + mm1)) rebuilds=$rebuilds checks=$checks"
[ $ops -gt $ops0 ] && ktap_ok soak_offloaded || ktap_fail soak_offloaded
mdadm --stop /dev/md0 /dev/md1 >/dev/null 2>&1
brd_teardown
modprobe -r raid456
ktap_check ecdma_unloads modprobe -r ecdma
ktap_exit
