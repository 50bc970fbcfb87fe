#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The device-provider seam: md on ecdma_hwsim, a simulated EC engine that
# reaches memory only by its own DMA addresses (an IOVA when the guest has
# an IOMMU and QEMU's edu function, the simulator lanes; else dma-direct),
# completes from its interrupt and fails and resets as hardware does.
# ecdma's own front is out of async_tx's table, so md's work can only go
# through the simulator: its counters (sqes, irqs) prove it did, and no
# descriptor may reach an address that is not the device's (dma_faults 0).
#  - knobs refuse what md could not live with, and a front never takes a
#    provider of the other kind;
#  - RAID6 of 6 and RAID5 of 5: fio crc32c write and verify, check 0,
#    corruption found by a check (through the engine's validate), repair,
#    a degraded verify and a rebuild;
#  - under fio load: injected descriptor errors, a hung engine (watchdog
#    and reset), a slow engine, a fast one: every block verifies, check 0;
#  - unload refused while md holds the channels, clean once md is gone;
#  - hot removal: the driver unbound under fio load (the front finishes on
#    the CPU), every block verified, check 0, bound again.
. /ecdma/lib.sh

MIB=$(vm_scaled 24 8)
SIZE=$((MIB / 2))m

# fio_wv <name> <size> [bs]: random writes with crc32c, all read back
fio_wv() {
	if fio --name=md --filename=/dev/md0 --rw=randwrite --bs="${3:-16k}" \
		--size="$2" --ioengine=psync --direct=1 --eta=never \
		--verify=crc32c --do_verify=1 --verify_fatal=1 \
		--randseed="$(date +%s)" --output=/tmp/fio.log >/dev/null 2>&1; then
		ktap_ok "$1"
	else
		grep -m3 -i -E 'verify|error' /tmp/fio.log
		ktap_fail "$1"
	fi
}

# check <name> <want>: mismatch_cnt of a parity check
check() {
	local mm
	mm=$(md_check md0)
	[ "$mm" = "$2" ] && ktap_ok "$1 # mismatch_cnt $mm" ||
		ktap_fail "$1 # mismatch_cnt $mm, want $2"
}

# moved <name> <counter> <before>: a simulator counter grew
moved() {
	local now
	now=$(hwsim_stat "$2")
	[ "$now" -gt "$3" ] && ktap_ok "$1 # $2 $3 -> $now" ||
		ktap_fail "$1 # $2 did not move ($3 -> $now)"
}

# refused <name> <file> <value>: a store fails and the file keeps its value
refused() {
	local old
	old=$(cat "$2")
	if echo "$3" >"$2" 2>/dev/null; then
		ktap_fail "$1 # '$3' accepted"
	elif [ "$(cat "$2")" != "$old" ]; then
		ktap_fail "$1 # value changed to $(cat "$2")"
	else
		ktap_ok "$1"
	fi
}

modprobe ecdma || { ktap_fail load_ecdma; ktap_exit; }
hwsim_load || { ktap_fail load_hwsim; ktap_exit; }
echo always >"$ECDMA_DEV/offload"
ktap_diag "simulator at $HWSIM_DEV, provider $(cat "$HWSIM_DEV/hwsim/provider"), iommu $(hwsim_stat iommu)"
[ -z "${ECDMA_HWSIM:-}" ] || [ "$(hwsim_stat iommu)" = 1 ] ||
	ktap_fail "hwsim_behind_iommu # the simulator lane's device is not translated"
prov=$(cat "$HWSIM_DEV/hwsim/provider")
grep -q "^$prov " "$ECDMA_MAIN/providers" && ktap_ok hwsim_provider_registered ||
	ktap_fail hwsim_provider_registered

H=$HWSIM_DEV/hwsim
refused knob_latency_too_long $H/latency_us 100001
refused knob_throughput_too_low $H/throughput_mbs 5
refused knob_timeout_too_short $H/timeout_ms 50
refused knob_timeout_too_long $H/timeout_ms 2001
refused knob_error_every_word $H/error_every often
refused knob_hang_two $H/hang 2
if echo 0 >$H/reset 2>/dev/null; then ktap_fail knob_reset_zero; else ktap_ok knob_reset_zero; fi
refused knob_ec_engine_of_hwsim_name $H/ec_engine_of hwsim9
refused knob_ec_engine_of_blank $H/ec_engine_of "rxe 0"
refused knob_ec_engine_of_provider_taken $H/ec_engine_of cpu
# blocks are kernel addresses on ecdma's front, device addresses here
refused main_front_refuses_device_provider "$ECDMA_MAIN/chan0/provider" "$prov"
refused device_front_refuses_cpu_provider "$HWSIM_DEV/chan0/provider" cpu

modprobe raid456 || { ktap_fail load_raid456; ktap_exit; }
main_before=$(cat "$ECDMA_MAIN/stats/pq_ops")

# array <level> <disks>: on brd, assume-clean, then a resync-free start
array() {
	local i=0 devs=
	brd_setup "$2" "$MIB"
	while [ $i -lt "$2" ]; do
		devs="$devs /dev/ram$i"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086
	mdadm --create /dev/md0 --run --quiet --level="$1" --chunk=64 \
		--raid-devices="$2" --assume-clean $devs
}

teardown() {
	mdadm --stop /dev/md0 >/dev/null 2>&1
	brd_teardown
}

for lv in 6:6 5:5; do
	level=${lv%:*} n=${lv#*:}
	t=raid${level}_${n}d
	array "$level" "$n" || { ktap_fail "${t}_create"; continue; }
	s=$(hwsim_stat sqes) i=$(hwsim_stat irqs)
	fio_wv "${t}_write_verify" $SIZE
	moved "${t}_through_engine" sqes "$s"
	moved "${t}_interrupts" irqs "$i"
	check "${t}_check" 0
	# a data page of row 1 on member 0 smashed: a check finds it
	off=$(cat /sys/block/md0/md/dev-ram0/offset)
	dd if=/dev/urandom of=/dev/ram0 bs=4096 count=1 \
		seek=$((off / 8 + 16 + 3)) oflag=direct 2>/dev/null
	check "${t}_corruption_found" 8
	echo repair >/sys/block/md0/md/sync_action
	usleep 200000
	md_wait_idle md0
	check "${t}_repaired" 0
	# degraded: reads of the missing member reconstructed by the engine
	mdadm /dev/md0 --fail /dev/ram1 --remove /dev/ram1 >/dev/null 2>&1
	s=$(hwsim_stat sqes)
	fio_wv "${t}_degraded_write_verify" 4m
	moved "${t}_degraded_through_engine" sqes "$s"
	mdadm --zero-superblock /dev/ram1 >/dev/null 2>&1
	mdadm /dev/md0 --add /dev/ram1 >/dev/null 2>&1
	usleep 500000
	md_wait_idle md0 && ktap_ok "${t}_rebuilt" || ktap_fail "${t}_rebuilt"
	check "${t}_rebuilt_check" 0
	teardown
done

# Faults as hardware has them, each under fio load on a RAID6
array 6 6 || ktap_fail faults_create
fb=$(ecdma_stat fallbacks)
e=$(hwsim_stat desc_errors)
echo 7 >$H/error_every
fio_wv fault_desc_errors_verify $SIZE
echo 0 >$H/error_every
moved fault_desc_errors_injected desc_errors "$e"
ecdma_stat_read fallbacks
[ "$ECDMA_STAT" -gt "$fb" ] && ktap_ok "fault_desc_errors_recomputed # fallbacks $fb -> $ECDMA_STAT" ||
	ktap_fail "fault_desc_errors_recomputed # fallbacks $fb -> $ECDMA_STAT"

r=$(hwsim_stat resets) to=$(hwsim_stat timeouts)
echo 1 >$H/hang
fio_wv fault_hang_verify 4m
moved fault_hang_timed_out timeouts "$to"
moved fault_hang_reset resets "$r"
[ "$(cat $H/hang)" = 0 ] && ktap_ok fault_hang_cleared_by_reset ||
	ktap_fail fault_hang_cleared_by_reset

r=$(hwsim_stat resets)
( usleep 300000; echo 1 >$H/reset ) &
fio_wv fault_reset_under_load_verify 4m
wait
moved fault_reset_under_load resets "$r"

echo 20 >$H/throughput_mbs
echo 2000 >$H/latency_us
fio_wv engine_slow_verify 2m
echo 0 >$H/throughput_mbs
echo 0 >$H/latency_us
fio_wv engine_fast_verify 4m
echo 20 >$H/latency_us
check faults_check 0

# dmaengine holds the driver's module while async_tx holds its channels
if rmmod ecdma_hwsim 2>/dev/null; then
	ktap_fail "unload_refused_under_md # unloaded with md0 running"
else
	ktap_ok unload_refused_under_md
	fio_wv unload_refused_array_fine 2m
fi

# Hot removal: the simulator unbound under fio; the front lets the engine
# finish what it holds and carries on with the CPU provider for the
# chains md still runs on its channels
f=$(hwsim_stat dma_faults)
[ "$f" = 0 ] && ktap_ok "hwsim_no_dma_fault_before_unbind # $(hwsim_stat sqes) descriptors" ||
	ktap_fail "hwsim_no_dma_fault_before_unbind # $f"
drv=$(readlink -f "$HWSIM_DEV/driver")
name=$(basename "$HWSIM_DEV")
dmesg -c >/dev/null
( usleep 300000; echo "$name" >"$drv/unbind" ) &
fio_wv unbind_under_load_verify 8m
wait
[ -d "$HWSIM_DEV/hwsim" ] && ktap_fail "unbound # $name still bound" ||
	ktap_ok "unbound # $name"
dmesg | grep -q "engine gone: .* on the CPU provider" &&
	ktap_ok unbind_channels_failed_over || ktap_fail unbind_channels_failed_over
fio_wv after_unbind_verify 4m
check after_unbind_check 0
echo "$name" >"$drv/bind" && [ -d "$HWSIM_DEV/hwsim" ] &&
	ktap_ok "bound_again # $(cat "$HWSIM_DEV/hwsim/provider")" ||
	ktap_fail bound_again
teardown

main_after=$(cat "$ECDMA_MAIN/stats/pq_ops")
[ "$main_after" = "$main_before" ] && ktap_ok "main_front_idle # pq_ops $main_after" ||
	ktap_fail "main_front_idle # ecdma's own front took work: pq_ops $main_before -> $main_after"

modprobe -r raid456
if [ -n "${ECDMA_HWSIM:-}" ]; then
	modprobe -r ecdma
else
	hwsim_unload
	modprobe -r ecdma
fi
lsmod | grep -q '^ecdma_hwsim ' && ktap_fail unload_after_md || ktap_ok unload_after_md
ktap_exit
