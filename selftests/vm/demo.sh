#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make demo: md RAID6 on ecdma.  Creates an 8-disk RAID6 over brd with
# ecdma loaded, runs fio with verification, exports the array over NVMe/TCP
# and runs fio through the fabric, shows md status and ecdma stats.
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

# The same array exported over NVMe/TCP and used by a host: target and
# host are this one guest, talking over the loopback.
run() {
	echo "+ $*"
	"$@"
}
# put <value> <file>: echo value > file, shown
put() {
	echo "+ echo $1 > $2"
	echo "$1" >"$2"
}
echo "### NVMe-oF target: export /dev/md0 over NVMe/TCP (nvmet, configfs)"
NQN=nqn.2026-01.io.ecdma:demo
S=/sys/kernel/config/nvmet/subsystems/$NQN
P=/sys/kernel/config/nvmet/ports/1
run modprobe -a nvmet nvmet-tcp nvme-tcp
run mount -t configfs none /sys/kernel/config
/usr/sbin/ip link set lo up
run mkdir "$S" "$S/namespaces/1" "$P"
put 1 "$S/attr_allow_any_host"
put /dev/md0 "$S/namespaces/1/device_path"
put 1 "$S/namespaces/1/enable"
put tcp "$P/addr_trtype"
put ipv4 "$P/addr_adrfam"
put 127.0.0.1 "$P/addr_traddr"
put 4420 "$P/addr_trsvcid"
run ln -s "$S" "$P/subsystems/$NQN"
echo "### NVMe-oF host: connect"
run nvme connect -t tcp -a 127.0.0.1 -s 4420 -n "$NQN"
i=0
while [ ! -b /dev/nvme0n1 ] && [ $i -lt 100 ]; do
	usleep 100000
	i=$((i + 1))
done
run nvme list
echo "### fio through the fabric: 64 MiB random 128K writes + verify (crc32c);"
echo "### ecdma on the target side, per second:"
pq0=$(ecdma_ops pq)
if command -v ecdmactl >/dev/null 2>&1; then
	ecdmactl watch -i 2 &
	wpid=$!
fi
fio --name=fabric --filename=/dev/nvme0n1 --rw=randwrite --bs=128k --size=64M \
	--ioengine=libaio --iodepth=8 --direct=1 --eta=never --verify=crc32c \
	--do_verify=1 --verify_fatal=1 --group_reporting >/tmp/fio.log 2>&1
frc=$?
[ -n "${wpid:-}" ] && kill "$wpid" && wait "$wpid" 2>/dev/null
grep -E 'WRITE:|READ:|err=' /tmp/fio.log
pq1=$(ecdma_ops pq)
echo "ecdma pq_ops on the target: $pq0 -> $pq1"
[ $frc = 0 ] && ktap_ok demo_fabric_fio_verify || ktap_fail demo_fabric_fio_verify
[ "$pq1" -gt "$pq0" ] && ktap_ok "demo_fabric_parity_offloaded # pq ops $pq0 -> $pq1" ||
	ktap_fail "demo_fabric_parity_offloaded # pq ops $pq0 -> $pq1"
run nvme disconnect -n "$NQN"
rm "$P/subsystems/$NQN"
rmdir "$P"
echo 0 >"$S/namespaces/1/enable"
rmdir "$S/namespaces/1" "$S"
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
