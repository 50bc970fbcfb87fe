#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make demo: md RAID6 on ecdma.  Creates an 8-disk RAID6 over brd with
# ecdma loaded, runs fio with verification, shows md status and ecdma stats.
. /ecdma/lib.sh

echo "### modprobe ecdma raid456"
modprobe ecdma && modprobe raid456 || { ktap_fail demo_setup; ktap_exit; }
# The default policy, auto, declines while every CPU is busy (see the admin
# guide); the demo takes everything so that every operation shows.
echo "### echo always > $ECDMA_DEV/offload   (default: auto)"
echo always >"$ECDMA_DEV/offload"
ls /sys/class/dma/ 2>/dev/null | head -20

echo "### mdadm --create /dev/md0 --level=6 --raid-devices=8 (brd, 64 MiB each)"
brd_setup 8 64
mdadm --create /dev/md0 --run --level=6 --raid-devices=8 --chunk=64 \
	--assume-clean --bitmap=none /dev/ram[0-7] 2>&1
# RCW only: async_tx runs RAID6 read-modify-write on the CPU
echo 0 >/sys/block/md0/md/rmw_level
echo 4096 >/sys/block/md0/md/stripe_cache_size
cat /proc/mdstat

echo "### fio: 128 MiB sequential write + read-back verify (crc32c)"
fio --name=demo --filename=/dev/md0 --rw=write --bs=256k --size=128M \
	--ioengine=psync --direct=1 --eta=never --verify=crc32c \
	--do_verify=1 --verify_fatal=1 --group_reporting >/tmp/fio.log 2>&1
frc=$?
grep -E 'WRITE:|READ:|err=' /tmp/fio.log

echo "### parity check"
mm=$(md_check md0)
echo "mismatch_cnt=$mm"
mdadm --detail /dev/md0 | grep -E 'Raid Level|Array Size|State :|Active Devices'

[ $frc = 0 ] && ktap_ok demo_fio_verify || ktap_fail demo_fio_verify
[ "$mm" = 0 ] && ktap_ok demo_mismatch_0 || ktap_fail demo_mismatch_0
# the parity really ran on ecdma, not on async_tx's CPU fallback
pq=$(ecdma_ops pq)
[ "$pq" -gt 0 ] && ktap_ok "demo_parity_offloaded # pq ops $pq" ||
	ktap_fail "demo_parity_offloaded # pq ops $pq"
mdadm --stop /dev/md0 >/dev/null 2>&1

echo "### ecdmactl stats"
if command -v ecdmactl >/dev/null 2>&1; then
	ecdmactl stats
else
	for f in "$ECDMA_DEV"/stats/*_ops; do
		printf '%-28s %s\n' "$(basename "$f")" "$(cat "$f")"
	done
fi
ktap_exit
