#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# md RAID5/RAID6 over brd with ecdma providing the parity engine.
# For each array: create, fio write + verify, parity check (mismatch_cnt 0),
# fail one (RAID5) or two (RAID6) disks and verify the data in degraded mode
# (RAID6 of 6+ disks: through recovery chains composed into one WR each),
# re-add the disks, rebuild, check again, verify again.  Every phase also
# asserts that ecdma's counters for the operations md must have used moved,
# otherwise async_tx silently ran them on the CPU and the test proves nothing.
. /ecdma/lib.sh

ecdma_load || { ktap_fail "load_ecdma"; ktap_exit; }
# compose async_tx's recovery chains whatever the calibration found, so
# that RAID6's degraded reads go through dma_fuse.c
echo on >"$ECDMA_DEV/fuse"
modprobe raid456 || { ktap_fail "load_raid456"; ktap_exit; }

# expect_moved <tag> <before> <after> <what>
expect_moved() {
	if [ "$3" -gt "$2" ]; then
		ktap_ok "$1 # $4 ops $2 -> $3"
	else
		ktap_fail "$1 # $4 ops did not move ($2 -> $3)"
	fi
}

fio_job() {
	# fio_job <rw> <size> <bs> : sequential I/O on md0 with crc32c verify
	fio --name=md --filename=/dev/md0 --rw="$1" --size="$2" --bs="$3" \
		--ioengine=psync --direct=1 --eta=never --verify=crc32c \
		--do_verify=1 --verify_fatal=1 --output=/tmp/fio.log \
		>/dev/null 2>&1 || { cat /tmp/fio.log; return 1; }
}

fio_verify_only() {
	fio --name=md --filename=/dev/md0 --rw=read --size="$1" --bs="$2" \
		--ioengine=psync --direct=1 --eta=never --verify=crc32c \
		--verify_only=1 --verify_fatal=1 --output=/tmp/fio.log \
		>/dev/null 2>&1 || { cat /tmp/fio.log; return 1; }
}

# md_scenario <level> <disks> <chunk-KiB> <disk-MiB> [rmw_level]
md_scenario() {
	level=$1 ndisks=$2 chunk=$3 dsize=$(($4 / ${VM_SCALE:-1})) rmw=${5:-}
	[ "$dsize" -ge 4 ] || dsize=4
	tag="raid${level}_${ndisks}d_${chunk}k${rmw:+_rmw$rmw}"
	gen=$([ "$level" = 5 ] && echo xor || echo pq)
	val=$([ "$level" = 5 ] && echo xor_val || echo pq_val)
	data=$((ndisks - (level - 4)))
	# half the data space, less with VM_SCALE but at least 4 full stripes
	size=$((data * dsize * 512 / ${VM_SCALE:-1}))
	[ "$size" -ge $((4 * data * chunk)) ] || size=$((4 * data * chunk))
	size=${size}k

	brd_setup "$ndisks" "$dsize"
	devs=""
	i=0
	while [ $i -lt "$ndisks" ]; do
		devs="$devs /dev/ram$i"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086
	if ! mdadm --create /dev/md0 --run --quiet --level="$level" \
		--raid-devices="$ndisks" --chunk="$chunk" --assume-clean \
		--bitmap=none $devs 2>/tmp/mdadm.log; then
		cat /tmp/mdadm.log
		ktap_fail "${tag}_create"
		brd_teardown
		return
	fi
	ktap_ok "${tag}_create"
	[ -n "$rmw" ] && echo "$rmw" >/sys/block/md0/md/rmw_level

	b=$(ecdma_ops "$gen")
	ktap_check "${tag}_fio_write_verify" fio_job write "$size" 128k
	expect_moved "${tag}_write_offloaded" "$b" "$(ecdma_ops "$gen")" "$gen"

	b=$(ecdma_ops "$val")
	mm=$(md_check md0)
	[ "$mm" = 0 ] && ktap_ok "${tag}_check_mismatch_0" ||
		ktap_fail "${tag}_check_mismatch_0 # mismatch_cnt=$mm"
	expect_moved "${tag}_check_offloaded" "$b" "$(ecdma_ops "$val")" "$val"

	# degraded: lose the last disk (RAID5) or the first two (RAID6)
	if [ "$level" = 5 ]; then
		failed="/dev/ram$((ndisks - 1))"
	else
		failed="/dev/ram0 /dev/ram1"
	fi
	for d in $failed; do
		mdadm /dev/md0 --fail "$d" --remove "$d" >/dev/null 2>&1
	done
	b=$(ecdma_ops "$gen") bf=$(ecdma_stat fused)
	ktap_check "${tag}_degraded_verify" fio_verify_only "$size" 128k
	expect_moved "${tag}_degraded_offloaded" "$b" "$(ecdma_ops "$gen")" "$gen"
	# two data disks lost: async_tx's recovery chains, composed (fuse on);
	# five disks leave one data block, which async_tx recovers otherwise.
	# Behind an IOMMU (the simulator lanes) each operation maps its pages
	# anew, so a chain's links do not show as the same address: not composed
	if [ "$level" = 6 ] && [ "$ndisks" -gt 5 ] && [ "$(hwsim_stat iommu)" = 1 ]; then
		ktap_skip "${tag}_degraded_recovery_fused" "IOVAs differ per operation"
	elif [ "$level" = 6 ] && [ "$ndisks" -gt 5 ]; then
		expect_moved "${tag}_degraded_recovery_fused" "$bf" "$(ecdma_stat fused)" fused
	fi

	# re-add and rebuild
	for d in $failed; do
		mdadm --zero-superblock "$d" >/dev/null 2>&1
		mdadm /dev/md0 --add "$d" >/dev/null 2>&1
	done
	b=$(ecdma_ops "$gen")
	# md starts the recovery from its thread
	usleep 300000
	if md_wait_idle md0 && ! grep -q _ /proc/mdstat; then
		ktap_ok "${tag}_rebuild"
	else
		cat /proc/mdstat
		ktap_fail "${tag}_rebuild"
	fi
	expect_moved "${tag}_rebuild_offloaded" "$b" "$(ecdma_ops "$gen")" "$gen"
	mm=$(md_check md0)
	[ "$mm" = 0 ] && ktap_ok "${tag}_rebuilt_check_mismatch_0" ||
		ktap_fail "${tag}_rebuilt_check_mismatch_0 # mismatch_cnt=$mm"
	ktap_check "${tag}_rebuilt_verify" fio_verify_only "$size" 128k

	mdadm --stop /dev/md0 >/dev/null 2>&1
	brd_teardown
}

# member MiB (divided by VM_SCALE): a few hundred stripes per path
md_scenario 5 4 64 16
md_scenario 5 17 4 4
md_scenario 6 5 512 16 0
md_scenario 6 8 64 8 1
md_scenario 6 18 128 4 0

# The offload policy: "never" declines (async_tx computes on md's own CPU,
# nothing but the GF products of recovery reaches ecdma) and md stays
# correct; "auto" (the default) switches between accepting and declining
# every 10 ms and md stays correct through it.
md_policy() {
	echo "$1" >"$ECDMA_DEV/offload"
	sleep 1
	psize=$((24 / ${VM_SCALE:-1}))
	brd_setup 8 $((psize / 3 + 2))
	mdadm --create /dev/md0 --run --quiet --level=6 --raid-devices=8 \
		--chunk=64 --assume-clean --bitmap=none /dev/ram0 /dev/ram1 \
		/dev/ram2 /dev/ram3 /dev/ram4 /dev/ram5 /dev/ram6 /dev/ram7 \
		2>/tmp/mdadm.log || { cat /tmp/mdadm.log; ktap_fail "policy_$1_create"; return; }
	echo 0 >/sys/block/md0/md/rmw_level
	w0=$(($(ecdma_ops pq) + $(ecdma_ops memcpy)))
	c0=$(ecdma_ops memcpy)
	ktap_check "policy_$1_fio_write_verify" fio_job write ${psize}M 128k
	w1=$(($(ecdma_ops pq) + $(ecdma_ops memcpy)))
	c1=$(ecdma_ops memcpy)
	# neither policy takes md's page copies (async_memcpy computes them)
	[ "$c1" -eq "$c0" ] && grep -q 'copies=0' "$ECDMA_DEV/offload_state" &&
		ktap_ok "policy_$1_copies_declined" ||
		ktap_fail "policy_$1_copies_declined # memcpy ops $c0 -> $c1, $(cat "$ECDMA_DEV/offload_state")"
	mm=$(md_check md0)
	[ "$mm" = 0 ] && ktap_ok "policy_$1_check_mismatch_0" ||
		ktap_fail "policy_$1_check_mismatch_0 # mismatch_cnt=$mm"
	mdadm /dev/md0 --fail /dev/ram2 --remove /dev/ram2 >/dev/null 2>&1
	mdadm /dev/md0 --fail /dev/ram5 --remove /dev/ram5 >/dev/null 2>&1
	ktap_check "policy_$1_degraded_verify" fio_verify_only ${psize}M 128k
	if [ "$1" = never ]; then
		[ "$w1" -eq "$w0" ] && ktap_ok "policy_never_write_declined" ||
			ktap_fail "policy_never_write_declined # $((w1 - w0)) ops came"
		grep -q '^decline' "$ECDMA_DEV/offload_state" &&
			ktap_ok "policy_never_state # $(cat "$ECDMA_DEV/offload_state")" ||
			ktap_fail "policy_never_state # $(cat "$ECDMA_DEV/offload_state")"
	else
		st=$(cat "$ECDMA_DEV/offload_state")
		ktap_ok "policy_$1_state # write ops $((w1 - w0)), $st"
	fi
	mdadm --stop /dev/md0 >/dev/null 2>&1
	brd_teardown
}
md_policy never
md_policy auto
echo always >"$ECDMA_DEV/offload"

# Pacing (pace.sh): reported, not asserted.  On a quiet host no channel
# here holds half a second of its work (prep_paced 0 in the runs of
# 2026-12-05, limits of 62-250 MB a channel); a host that starves the
# guest may make one do so, and then pacing engages as it should.
lim=
for c in "$ECDMA_DEV"/stats/chan*; do
	lim="$lim $(cat "$c/drain_rate")/$(cat "$c/queue_limit")"
done
ktap_diag "prep_paced $(ecdma_stat prep_paced); drain_rate/queue_limit:$lim"
modprobe -r raid456
modprobe -r ecdma
ktap_exit
