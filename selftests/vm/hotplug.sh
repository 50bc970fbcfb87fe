#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# CPU hotplug under load: fio verify on a RAID5 and a RAID6 array and the
# EC verbs torture module (a calc bound to the last CPU) run while CPU 1 is
# taken offline and brought back again and again.  Nothing may be lost or
# stuck: fio verifies clean, the torture passes, mismatch_cnt stays 0.
. /ecdma/lib.sh

cpu=/sys/devices/system/cpu/cpu1/online
[ -w $cpu ] || { ktap_skip cpu_hotplug "no hot-pluggable cpu1"; ktap_exit; }
ecdma_load || { ktap_fail load_ecdma; ktap_exit; }
modprobe raid456 || { ktap_fail load_raid456; ktap_exit; }
# 18 s of load with CPU 1 going off and on every half second: as many
# transitions (12-13 on a stock kernel) as 30 s with 1 s pauses had
dur=18
[ -n "${ecdma_soak:-}" ] && dur=$((ecdma_soak / 3))

brd_setup 9 16
mdadm --create /dev/md0 --run --quiet --level=5 --raid-devices=4 --chunk=64 \
	--assume-clean --bitmap=none /dev/ram0 /dev/ram1 /dev/ram2 /dev/ram3 \
	2>/tmp/mdadm.log || { cat /tmp/mdadm.log; ktap_fail create; ktap_exit; }
mdadm --create /dev/md1 --run --quiet --level=6 --raid-devices=5 --chunk=32 \
	--assume-clean --bitmap=none /dev/ram4 /dev/ram5 /dev/ram6 /dev/ram7 \
	/dev/ram8 2>/tmp/mdadm.log || { cat /tmp/mdadm.log; ktap_fail create; ktap_exit; }
ktap_ok arrays_created

x0=$(ecdma_ops xor)
p0=$(ecdma_ops pq)
for md in md0 md1; do
	fio --name=$md --filename=/dev/$md --rw=randwrite \
		--bssplit=4k/50:64k/30:512k/20 --size=24M --ioengine=psync \
		--direct=1 --eta=never --time_based --runtime="$dur" \
		--verify=crc32c --verify_backlog=16 --verify_fatal=1 \
		--output=/tmp/fio.$md.log >/dev/null 2>&1 &
	eval "pid_$md=\$!"
done
dmesg -c >/dev/null
modprobe ecdma_torture duration_s="$dur" threads=3 calcs=4 &
tpid=$!

i=0
end=$(($(date +%s) + dur))
bad=0
while [ "$(date +%s)" -lt "$end" ]; do
	echo 0 >$cpu || bad=1
	usleep 500000
	echo 1 >$cpu || bad=1
	usleep 500000
	i=$((i + 1))
done
echo 1 >$cpu
[ $bad = 0 ] && [ $i -gt 0 ] && ktap_ok "cpu1_offline_online_cycles # $i" ||
	ktap_fail "cpu1_offline_online_cycles # $i bad=$bad"

for md in md0 md1; do
	eval "pid=\$pid_$md"
	if wait "$pid"; then
		ktap_ok "${md}_fio_verify_during_hotplug"
	else
		cat /tmp/fio.$md.log
		ktap_fail "${md}_fio_verify_during_hotplug"
	fi
done
wait $tpid
trc=$?
summary=$(dmesg | sed -n 's/.*ecdma_torture: \([0-9]* passed, [0-9]* failed\)$/\1/p')
[ $trc = 0 ] && ktap_ok "torture_during_hotplug # $summary" ||
	ktap_fail "torture_during_hotplug # rc=$trc $summary"
rmmod ecdma_torture 2>/dev/null
[ "$(ecdma_ops xor)" -gt "$x0" ] && [ "$(ecdma_ops pq)" -gt "$p0" ] &&
	ktap_ok offloaded_during_hotplug || ktap_fail offloaded_during_hotplug
for md in md0 md1; do
	mm=$(md_check $md)
	[ "$mm" = 0 ] && ktap_ok "${md}_check_mismatch_0" ||
		ktap_fail "${md}_check_mismatch_0 # mismatch_cnt=$mm"
done
mdadm --stop /dev/md0 /dev/md1 >/dev/null 2>&1
brd_teardown
modprobe -r raid456
ktap_check ecdma_unloads modprobe -r ecdma
ktap_exit
