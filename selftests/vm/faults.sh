#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# md RAID6 while ecdma's engine fails every 7th work request (debugfs fault
# injection): the dmaengine front must recompute each failed operation on
# the generic path, so fio verifies clean, the parity check finds no
# mismatch, and faults == fallbacks > 0 with no operation errors.  The
# degraded reads lose two disks with fuse on, so composed recovery chains
# (dma_fuse.c) fail and are recomputed too.  Then RAID6 and RAID5 while
# the engine and its fallback fail every request: md has no error path,
# so the front computes each operation on the CPU itself (stats/rescued),
# and data, check and degraded reads must all be right.
. /ecdma/lib.sh

dbg=/sys/kernel/debug/ecdma
ecdma_load || { ktap_fail load_ecdma; ktap_exit; }
echo on >"$ECDMA_DEV/fuse"
modprobe raid456 || { ktap_fail load_raid456; ktap_exit; }
[ -w "$dbg/fault_every_n" ] || { ktap_fail fault_knob_present; ktap_exit; }
if [ "$(cat $dbg/fault_every_n)" = 0 ] && [ "$(cat $dbg/fault_rate_ppm)" = 0 ]; then
	ktap_ok faults_off_by_default
else
	ktap_fail faults_off_by_default
fi

# member MiB: 16, divided by VM_SCALE (at least 4: 12 MiB of random writes
# are still hundreds of requests, every 7th of them failed); 64 with
# $ecdma_soak
size=$(vm_scaled 16 4)
[ -z "${ecdma_soak:-}" ] || size=64
brd_setup 8 "$size"
mdadm --create /dev/md0 --run --quiet --level=6 --raid-devices=8 --chunk=64 \
	--assume-clean --bitmap=none /dev/ram0 /dev/ram1 /dev/ram2 /dev/ram3 \
	/dev/ram4 /dev/ram5 /dev/ram6 /dev/ram7 2>/tmp/mdadm.log ||
	{ cat /tmp/mdadm.log; ktap_fail raid6_create; ktap_exit; }
ktap_ok raid6_create

f0=$(cat $dbg/faults_injected)
pq0=$(ecdma_ops pq)
echo 7 >$dbg/fault_every_n
ktap_check fio_verify_under_faults fio --name=f --filename=/dev/md0 \
	--rw=randwrite --bssplit=4k/40:64k/30:256k/20:1m/10 \
	--size=$((size * 6 / 2))M --ioengine=psync --direct=1 --eta=never \
	--verify=crc32c --do_verify=1 --verify_fatal=1 --output=/tmp/fio.log
mm=$(md_check md0)
[ "$mm" = 0 ] && ktap_ok "check_mismatch_0_under_faults" ||
	ktap_fail "check_mismatch_0_under_faults # mismatch_cnt=$mm"
# degraded reads reconstruct through the faulting engine too
mdadm /dev/md0 --fail /dev/ram2 --remove /dev/ram2 >/dev/null 2>&1
mdadm /dev/md0 --fail /dev/ram5 --remove /dev/ram5 >/dev/null 2>&1
fu0=$(ecdma_stat fused)
ktap_check degraded_verify_under_faults fio --name=f --filename=/dev/md0 \
	--rw=read --bssplit=4k/40:64k/30:256k/20:1m/10 \
	--size=$((size * 6 / 2))M --ioengine=psync --direct=1 --eta=never \
	--verify=crc32c --verify_only=1 --verify_fatal=1 --output=/tmp/fio.log
echo 0 >$dbg/fault_every_n
fu1=$(ecdma_stat fused)
[ "$fu1" -gt "$fu0" ] && ktap_ok "degraded_reads_composed # fused $fu0 -> $fu1" ||
	ktap_fail "degraded_reads_composed # fused $fu0 -> $fu1"
f1=$(cat $dbg/faults_injected)
faults=$(ecdma_stat faults)
fb=$(ecdma_stat fallbacks)
err=0
for op in memcpy xor xor_val pq pq_val interrupt; do
	err=$((err + $(ecdma_stat ${op}_errors)))
done
ktap_diag "faults_injected $f0 -> $f1, stats/faults $faults, fallbacks $fb, errors $err, pq_ops $pq0 -> $(ecdma_ops pq)"
[ "$f1" -gt "$f0" ] && ktap_ok faults_injected || ktap_fail faults_injected
[ "$faults" -gt 0 ] && [ "$faults" = "$fb" ] && ktap_ok faults_all_recomputed ||
	ktap_fail "faults_all_recomputed # faults $faults fallbacks $fb"
[ "$err" = 0 ] && ktap_ok no_operation_errors || ktap_fail "no_operation_errors # $err"
[ "$(ecdma_ops pq)" -gt "$pq0" ] && ktap_ok pq_offloaded || ktap_fail pq_offloaded

mdadm --stop /dev/md0 >/dev/null 2>&1
brd_teardown

# all_fail <level> <disks>: the engine and its fallback fail every work
# request (fault_every_n 1): each operation md gave ecdma is computed by
# the front on the CPU (stats/rescued), none completes undone; every
# block verifies, check finds nothing, the degraded array reads back right
all_fail() {
	local t=r$1_all_fail n=$2 mib r0 e0 e1 op
	mib=$(vm_scaled 24 6)
	brd_setup "$n" 16
	# shellcheck disable=SC2046
	mdadm --create /dev/md0 --run --quiet --level="$1" --raid-devices="$n" \
		--chunk=64 --assume-clean --bitmap=none \
		$(i=0; while [ $i -lt "$n" ]; do echo /dev/ram$i; i=$((i + 1)); done) \
		2>/tmp/mdadm.log || { cat /tmp/mdadm.log; ktap_fail "${t}_create"; brd_teardown; return; }
	r0=$(ecdma_stat rescued)
	e0=0
	for op in memcpy xor xor_val pq pq_val interrupt; do
		e0=$((e0 + $(ecdma_stat ${op}_errors)))
	done
	echo 1 >$dbg/fault_every_n
	ktap_check "${t}_fio_verify" fio --name=f --filename=/dev/md0 \
		--rw=randwrite --bs=16k --size=${mib}M --ioengine=psync \
		--direct=1 --eta=never --verify=crc32c --do_verify=1 \
		--verify_fatal=1 --output=/tmp/fio.log
	mm=$(md_check md0)
	[ "$mm" = 0 ] && ktap_ok "${t}_check_mismatch_0" ||
		ktap_fail "${t}_check_mismatch_0 # mismatch_cnt=$mm"
	mdadm /dev/md0 --fail /dev/ram1 --remove /dev/ram1 >/dev/null 2>&1
	ktap_check "${t}_degraded_verify" fio --name=f --filename=/dev/md0 \
		--rw=randwrite --bs=16k --size=${mib}M --ioengine=psync \
		--direct=1 --eta=never --verify=crc32c --verify_only=1 \
		--verify_fatal=1 --output=/tmp/fio.log
	echo 0 >$dbg/fault_every_n
	e1=0
	for op in memcpy xor xor_val pq pq_val interrupt; do
		e1=$((e1 + $(ecdma_stat ${op}_errors)))
	done
	[ "$(ecdma_stat rescued)" -gt "$r0" ] && [ "$e1" = "$e0" ] &&
		ktap_ok "${t}_computed_by_the_front # rescued $r0 -> $(ecdma_stat rescued), errors $e0 -> $e1" ||
		ktap_fail "${t}_computed_by_the_front # rescued $r0 -> $(ecdma_stat rescued), errors $e0 -> $e1"
	mdadm --stop /dev/md0 >/dev/null 2>&1
	brd_teardown
}
all_fail 6 6
all_fail 5 5

modprobe -r raid456
ktap_check ecdma_unloads modprobe -r ecdma
ktap_exit
