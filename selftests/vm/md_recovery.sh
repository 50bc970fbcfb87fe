#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# md's recovery paths that only ran synchronously on x86 for years, md
# alone ("never") against ecdma ("always") in one boot (md_lib.sh), each
# a row of Documentation/driver-api/md-async-tx.rst:
#  - a dirty RAID5 with PPL assembled (PPL recovery, ppl_xor(): with the
#    offload and no guard, kernel BUG in async_tx_quiesce(), the array
#    never comes up);
#  - a degraded RAID5 with PPL whose last write was a reconstruct-write
#    computing the missing block, assembled dirty: the partial parity md
#    logged must include the computed block (with the callback after md
#    built it, one block of the missing member reads back wrong);
#  - a reshape of a RAID5 with PPL under writes (PPL off for it, on after).
# Write-journal recovery (write-through, write-back, RAID5 and RAID6,
# clean and degraded) is md_journal.sh's.  Every block written verifies,
# check finds nothing, and with "always" the guard that makes each path
# safe acted (md_guards, stats/cb_at_submit) and ecdma's counters moved.
. /ecdma/lib.sh
. /ecdma/md_lib.sh

export MDADM_NO_SYSTEMCTL=1

# guard_hits: the ppl_xor guard's count (md_guards: "ppl_xor <state> <n>")
guard_hits() {
	awk '$1 == "ppl_xor" { print $NF }' "$ECDMA_DEV/md_guards"
}

# crash_assemble <name> <members>: images of ram0..members-1 taken while
# the array runs (nothing in flight, the superblock dirty), md0 stopped,
# the images written back, assembled as after a crash
crash_assemble() {
	local i=0
	while [ $i -lt "$2" ]; do
		dd if=/dev/ram$i of=/tmp/img$i bs=1M iflag=direct 2>/dev/null
		i=$((i + 1))
	done
	md_stop
	i=0
	while [ $i -lt "$2" ]; do
		dd if=/tmp/img$i of=/dev/ram$i bs=1M oflag=direct 2>/dev/null
		rm -f /tmp/img$i
		i=$((i + 1))
	done
	# shellcheck disable=SC2046
	if mdadm --assemble --run $MD $(md_devs 0 "$2") >/tmp/mdadm.log 2>&1; then
		ktap_ok "${MODE}_${1}_assembled"
		return 0
	fi
	cat /tmp/mdadm.log
	dmesg | tail -20 | sed 's/^/# /'
	ktap_fail "${MODE}_${1}_assembled"
	return 1
}

# ppl_dirty: issue 59's reproducer; sequential 256K and random 4K writes
ppl_dirty() {
	local t=r5_ppl_dirty g0 n
	brd_setup 5 16
	# shellcheck disable=SC2046
	md_create $t --level=5 --chunk=64 --raid-devices=5 \
		--consistency-policy=ppl $(md_devs 0 5) || { brd_teardown; return; }
	echo 3600 >$MDS/safe_mode_delay
	if [ "$MODE" = always ]; then
		# the tool names the feature and what ecdma does for it
		ecdmactl doctor >/tmp/doctor.log 2>&1
		grep -q '^ok  *md\.md0\.ppl  *md0 closes the write hole with PPL' \
			/tmp/doctor.log && ktap_ok "${MODE}_${t}_doctor_names_ppl" || {
			sed 's/^/# /' /tmp/doctor.log
			ktap_fail "${MODE}_${t}_doctor_names_ppl"
		}
	fi
	md_snap
	md_fio "${t}_seq" write "$(md_sz 16)" 0 4 256k
	md_fio "${t}_rnd" write "$(md_sz 6)" "$(md_sz 16)" 5 4k
	sync
	md_moved "${t}_write" xor
	g0=$(guard_hits)
	md_snap
	if crash_assemble $t 5; then
		md_moved "${t}_recovered" xor
		if [ "$MODE" = always ]; then
			[ "$(guard_hits)" -gt "$g0" ] &&
				ktap_ok "${MODE}_${t}_ppl_xor_guarded # $g0 -> $(guard_hits)" ||
				ktap_fail "${MODE}_${t}_ppl_xor_guarded # $g0 -> $(guard_hits)"
		fi
		md_fio_verify "${t}_seq:$(md_sz 16):0:4:256k" \
			"${t}_rnd:$(md_sz 6):$(md_sz 16):5:4k"
		md_check $t
	fi
	md_stop
	brd_teardown
}

# ppl_degraded_rcw: RAID5 of 4 (left-symmetric, 64K chunks), ram3 failed.
# Row 1 has parity on ram2, data 0 on ram3, data 1 on ram0: with
# rmw_level 0 a 4K write to data 1 computes data 0 and logs the partial
# parity data 0 ^ data 2.  PPL recovery rewrites the parity from it, and
# the missing member's data 0 then reads back through that parity.
ppl_degraded_rcw() {
	local t=r5_ppl_degraded_rcw c0
	brd_setup 4 8
	# shellcheck disable=SC2046
	md_create $t --level=5 --chunk=64 --raid-devices=4 \
		--consistency-policy=ppl $(md_devs 0 4) || { brd_teardown; return; }
	# rows 0 and 1 up to data 1
	md_fio "${t}_a" write 256k 0 6 64k
	mdadm $MD --fail /dev/ram3 >/dev/null 2>&1
	mdadm $MD --remove /dev/ram3 >/dev/null 2>&1
	# again, degraded: no block of row 1 in the stripe cache
	md_stop
	# shellcheck disable=SC2046
	mdadm --assemble --run $MD $(md_devs 0 3) >/dev/null 2>&1 ||
		{ ktap_fail "${MODE}_${t}_degraded_start"; brd_teardown; return; }
	echo 0 >$MDS/rmw_level
	echo 3600 >$MDS/safe_mode_delay
	md_snap
	ecdma_stat_read cb_at_submit
	c0=$ECDMA_STAT
	md_fio "${t}_b" write 4k 256k 7 4k
	sync
	md_moved "${t}_write" xor
	if [ "$MODE" = always ]; then
		ecdma_stat_read cb_at_submit
		[ "$ECDMA_STAT" -gt "$c0" ] &&
			ktap_ok "${MODE}_${t}_compute_called_back_at_submit # $c0 -> $ECDMA_STAT" ||
			ktap_fail "${MODE}_${t}_compute_called_back_at_submit # $c0 -> $ECDMA_STAT"
	fi
	if crash_assemble $t 3; then
		# data 0 of row 1 ([192K, 256K)) is on the missing member
		md_fio_verify "${t}_a:256k:0:6:64k" "${t}_b:4k:256k:7:4k"
	fi
	md_stop
	brd_teardown
}

# ppl_reshape: RAID5 with PPL grown 4 -> 5 under writes.  md will not
# start a reshape with PPL on, so PPL goes off for it and on again after.
# Turning it on while the reshape runs is what would make them meet, but
# md deadlocks there on its own, with or without an engine
# (Documentation/patches/md/0003): not done here
ppl_reshape() {
	local t=r5_reshape_ppl w=0
	brd_setup 5 16
	# shellcheck disable=SC2046
	md_create $t --level=5 --chunk=64 --raid-devices=4 --spare-devices=1 \
		--consistency-policy=ppl $(md_devs 0 5) || { brd_teardown; return; }
	md_fio "$t" write "$(md_sz 12)" 0 41 64k
	echo resync >$MDS/consistency_policy
	echo 1000 >$MDS/sync_speed_min
	echo 3000 >$MDS/sync_speed_max
	md_snap
	if ! mdadm --grow $MD --raid-devices=5 --backup-file=/tmp/backup-$t \
		>/tmp/mdadm.log 2>&1; then
		cat /tmp/mdadm.log
		ktap_fail "${MODE}_${t}_grow"
		md_stop
		brd_teardown
		return
	fi
	while ! grep -q reshape /proc/mdstat && [ $w -lt 50 ]; do
		usleep 100000
		w=$((w + 1))
	done
	md_fio "${t}_during" wv "$(md_sz 2)" "$(md_sz 13)" 42 16k
	echo system >$MDS/sync_speed_min
	echo system >$MDS/sync_speed_max
	usleep 500000
	md_wait_sync "${t}_reshape" &&
		ktap_ok "${MODE}_${t}_reshaped # $(cat $MDS/raid_disks) disks"
	w=0
	while pidof mdadm >/dev/null && [ $w -lt 100 ]; do
		usleep 100000
		w=$((w + 1))
	done
	[ "$(cat $MDS/sync_max)" = max ] || echo max >$MDS/sync_max
	md_moved "${t}_reshape" xor
	if echo ppl 2>/tmp/ppl.err >$MDS/consistency_policy; then
		ktap_ok "${MODE}_${t}_ppl_on_after # $(cat $MDS/consistency_policy)"
	else
		ktap_fail "${MODE}_${t}_ppl_on_after # $(cat /tmp/ppl.err)"
	fi
	md_snap
	md_fio "${t}_ppl" wv "$(md_sz 2)" "$(md_sz 16)" 43 16k
	md_moved "${t}_ppl_write" xor
	md_fio_verify "${t}_before:$(md_sz 12):0:41:64k" \
		"${t}_after:$(md_sz 2):$(md_sz 13):42"
	md_check $t
	md_stop
	brd_teardown
}

md_suite_begin
for mode in $MD_MODES; do
	md_mode "$mode"
	ppl_dirty
	ppl_degraded_rcw
	ppl_reshape
done
ktap_diag "md_guards: $(tr '\n' ' ' <"$ECDMA_DEV/md_guards")"
md_suite_end
