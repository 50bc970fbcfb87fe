#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# md reshapes under load, md alone ("never") against ecdma ("always") in
# one boot (md_lib.sh): RAID5 grown from 4 to 5 members, converted to
# RAID6 (6 members), its chunk changed from 64 to 128 KiB, grown to 7.
# During each reshape fio writes and verifies, pass after pass, a region
# of its own; afterwards that region's last pass and the data written
# before the reshapes verify, check finds no mismatch, and with "always"
# the reshape's parity ran on ecdma.  A reshape that makes no progress for
# MD_STALL_S seconds dumps md's and ecdma's state and the blocked tasks.
# Then issue 59's sequence at full speed (these are throttled to 5 MB/s):
# RAID5 of 4 members of 48 MiB, 24 MiB written, grown to 5 and converted
# to RAID6 of 6, each under fio passes over 12 MiB more; on 6.1 it once
# stopped the whole guest, which vm.sh's stall watch reports.
# MD_RESHAPE_ROUNDS repeats the sequences (default once), MD_RESHAPE_ONLY
# (slow, fast) runs one of them (make check-md-long: fast, ten rounds).
. /ecdma/lib.sh
. /ecdma/md_lib.sh

MIB=10
export MDADM_NO_SYSTEMCTL=1
# the data before the reshapes and the region of the passes beside them:
# <size>:<offset>:<seed>:<bs> and <size>:<offset> (set per sequence)
OLD=
BG=
FAST=

# bg_start / bg_stop <name>: fio passes over region B while md reshapes;
# each pass writes and verifies its own blocks
bg_start() {
	rm -f /tmp/bg.stop /tmp/bg.fail /tmp/bg.seed
	(
		s=100
		while [ ! -e /tmp/bg.stop ]; do
			fio --name=bg --filename=$MD --rw=randwrite --bs=16k \
				--size="${BG%:*}" --offset="${BG#*:}" \
				--randseed=$s --ioengine=psync --direct=1 \
				--eta=never --verify=crc32c --do_verify=1 \
				--verify_fatal=1 --output=/tmp/bg.log \
				>/dev/null 2>&1 || { cat /tmp/bg.log >>/tmp/bg.fail; break; }
			echo $s >/tmp/bg.seed
			s=$((s + 1))
		done
	) &
	bg_pid=$!
}

bg_stop() {
	local name=$1
	touch /tmp/bg.stop
	wait $bg_pid
	if [ -s /tmp/bg.fail ]; then
		grep -m3 verify /tmp/bg.fail
		ktap_fail "${MODE}_${name}_under_load # fio pass failed"
	else
		ktap_ok "${MODE}_${name}_under_load # $(($(cat /tmp/bg.seed 2>/dev/null || echo 99) - 99)) passes"
	fi
}

# reshape <name> <gen ops> <mdadm --grow args...>: grow under load
reshape() {
	local name=$1 gen=$2
	shift 2
	md_snap
	bg_start
	if [ -n "$FAST" ]; then
		# as fast as md goes: the passes overlap the start only
		echo 500000 >$MDS/sync_speed_min
	else
		# slow enough that fio's passes overlap the reshape
		echo 1000 >$MDS/sync_speed_min
		echo 5000 >$MDS/sync_speed_max
	fi
	if mdadm --grow $MD "$@" --backup-file=/tmp/backup-$name \
		>/tmp/mdadm.log 2>&1; then
		usleep 500000
		md_wait_sync "$name" && ktap_ok "${MODE}_${name}_reshaped # $(cat $MDS/level) $(cat $MDS/raid_disks) disks, chunk $(cat $MDS/chunk_size)"
	else
		cat /tmp/mdadm.log
		ktap_fail "${MODE}_${name}_reshaped"
	fi
	bg_stop "$name"
	# handle_stripe_expansion() publishes a stripe before its copies
	# completed: safe only while they run synchronously (md-async-tx.rst)
	[ "$(ecdma_ops memcpy)" = "$md_o_memcpy" ] &&
		ktap_ok "${MODE}_${name}_copies_declined" ||
		ktap_fail "${MODE}_${name}_copies_declined # memcpy $md_o_memcpy -> $(ecdma_ops memcpy)"
	echo system >$MDS/sync_speed_min
	echo system >$MDS/sync_speed_max
	# mdadm's background --grow --continue (backup file) must be gone
	w=0
	while pidof mdadm >/dev/null && [ $w -lt 100 ]; do
		usleep 100000
		w=$((w + 1))
	done
	# mdadm 4.2's reshape monitor can write sync_max after md finished
	# the reshape and reset it, so a later check stops there: not ours
	if [ "$(cat $MDS/sync_max)" != max ]; then
		ktap_diag "mdadm left sync_max at $(cat $MDS/sync_max) after the reshape; reset"
		echo max >$MDS/sync_max
	fi
	md_moved "$name" $gen
	[ -e /tmp/bg.seed ] &&
		md_fio "${name}_load" verify "${BG%:*}" "${BG#*:}" "$(cat /tmp/bg.seed)"
	md_fio_verify "${name}_old:$OLD"
	md_snap
	md_check "$name"
	case "$(cat $MDS/level)" in
	raid5) md_moved "${name}_check" xor_val ;;
	*) md_moved "${name}_check" pq_val ;;
	esac
}

round() {
	FAST=
	OLD="$(md_sz 4):0:41:16k"
	BG="$(md_sz 1):$(md_sz 5)"
	brd_setup 7 $MIB
	# shellcheck disable=SC2046
	md_create reshape_r5 --level=5 --raid-devices=4 --chunk=64 \
		--assume-clean --bitmap=none $(md_devs 0 4) || { brd_teardown; return; }
	md_fio reshape_old write "$(md_sz 4)" 0 41
	mdadm $MD --add /dev/ram4 >/dev/null 2>&1
	reshape grow_r5_4to5 xor --raid-devices=5
	mdadm $MD --add /dev/ram5 >/dev/null 2>&1
	reshape level_5to6 "pq xor" --level=6 --raid-devices=6
	reshape chunk_64to128 "pq xor" --chunk=128
	mdadm $MD --add /dev/ram6 >/dev/null 2>&1
	reshape grow_r6_6to7 "pq xor" --raid-devices=7
	md_stop
	brd_teardown
}

# fast_round: issue 59's sequence, reshapes at full speed
fast_round() {
	FAST=1
	OLD="$(md_sz 24):0:43:192k"
	BG="$(md_sz 12):$(md_sz 24)"
	brd_setup 6 "$(vm_scaled 48 24)"
	# shellcheck disable=SC2046
	md_create reshape_fast_r5 --level=5 --raid-devices=4 --chunk=64 \
		--assume-clean --bitmap=none $(md_devs 0 4) || { brd_teardown; return; }
	md_fio reshape_fast_old write "$(md_sz 24)" 0 43 192k
	mdadm $MD --add /dev/ram4 /dev/ram5 >/dev/null 2>&1
	reshape fast_grow_r5_4to5 xor --raid-devices=5
	reshape fast_level_5to6 "pq xor" --level=6 --raid-devices=6
	md_stop
	brd_teardown
}

md_suite_begin
for mode in $MD_MODES; do
	md_mode "$mode"
	r=0
	while [ $r -lt "${MD_RESHAPE_ROUNDS:-1}" ]; do
		[ "${MD_RESHAPE_ONLY:-slow}" = fast ] || round
		[ "${MD_RESHAPE_ONLY:-fast}" = slow ] || fast_round
		r=$((r + 1))
	done
done
md_suite_end
