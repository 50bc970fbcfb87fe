#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# md RAID5 and RAID6 with a write journal, write-through and write-back,
# md alone ("never") against ecdma ("always") in one boot (md_lib.sh).
# Per array: random 16K writes verified block by block; a crash while the
# journal holds writes (the members' raw images taken with the array
# running, put back after it stopped) and the journal replayed at
# assembly; the same after failing a member, assembled degraded; the
# member re-added and rebuilt; check finds no mismatch.  With a
# write-back journal md drains a write into the stripe cache and then
# journals the page without waiting for the copy: an engine that took
# those copies journaled stale pages (issue 21), so every block written
# here is read back.
. /ecdma/lib.sh
. /ecdma/md_lib.sh

MIB=10

# md_image <save|restore> <count>: raw images of ram0..count-1
md_image() {
	local i=0
	while [ $i -lt "$2" ]; do
		if [ "$1" = save ]; then
			dd if=/dev/ram$i of=/tmp/img$i bs=1M iflag=direct 2>/dev/null
		else
			dd if=/tmp/img$i of=/dev/ram$i bs=1M oflag=direct 2>/dev/null
			rm -f /tmp/img$i
		fi
		i=$((i + 1))
	done
}

# md_crash <name> <members> <journal> [absent member]: stop md0 as a crash
# would leave it (its members' images from while it ran), assemble again
md_crash() {
	local name=$1 n=$2 j=$3 gone=${4:-} devs= d
	usleep 300000
	md_image save $((n + 1))
	md_stop
	md_image restore $((n + 1))
	for d in $(md_devs 0 "$n") $j; do
		[ "$d" = "$gone" ] || devs="$devs $d"
	done
	# shellcheck disable=SC2086
	if mdadm --assemble --run $MD $devs >/tmp/mdadm.log 2>&1; then
		# degraded, md keeps write-through (write-back is refused)
		echo "$JM" 2>/dev/null >$MDS/journal_mode
		ktap_ok "${MODE}_${name}_assembled"
		return 0
	fi
	cat /tmp/mdadm.log
	mdadm --examine $devs | grep -E 'Events|State :|Role' | sed 's/^/# /'
	dmesg | tail -20 | sed 's/^/# /'
	ktap_fail "${MODE}_${name}_assembled"
	md_stop
	return 1
}

# journal <level> <write-through|write-back>
journal() {
	local level=$1 n j t gen val
	JM=$2
	n=$((level == 5 ? 5 : 6))
	j=/dev/ram$n
	t=r${level}_${JM#write-}
	gen=$([ "$level" = 5 ] && echo xor || echo pq)
	val=$([ "$level" = 5 ] && echo xor_val || echo pq_val)

	brd_setup $((n + 1)) $MIB
	# No discards on the journal: with them, md's own stop of a
	# write-back array can deadlock (6.12's brd takes discards; md alone
	# hangs the same; admin guide, "md's own traps")
	echo 0 >/sys/block/${j#/dev/}/queue/discard_max_bytes
	# shellcheck disable=SC2046
	md_create "$t" --level="$level" --raid-devices=$n --chunk=64 \
		--assume-clean --write-journal $j $(md_devs 0 $n) ||
		{ brd_teardown; return; }
	echo "$JM" >$MDS/journal_mode
	# the array stays active: a crash image's members agree
	echo 3600 >$MDS/safe_mode_delay

	md_snap
	md_fio "$t" wv "$(md_sz 4)" 0 9
	# the copies md does not wait for never reach an engine
	[ "$(ecdma_ops memcpy)" = "$md_o_memcpy" ] &&
		ktap_ok "${MODE}_${t}_copies_declined" ||
		ktap_fail "${MODE}_${t}_copies_declined # memcpy $md_o_memcpy -> $(ecdma_ops memcpy)"

	md_fio "${t}_replay" write "$(md_sz 1)" "$(md_sz 5)" 10
	# (a write-back journal may hold small writes until md stops and
	# flushes it: the parity is counted over the crash's stop)
	if md_crash "${t}_replay" $n $j; then
		md_moved "${t}_write" "$gen" xor
		md_fio_verify "${t}_replay_old:$(md_sz 4):0:9" \
			"${t}_replay:$(md_sz 1):$(md_sz 5):10"
	fi

	mdadm $MD --fail /dev/ram1 >/dev/null 2>&1
	md_fio "${t}_failed" write "$(md_sz 1)" "$(md_sz 7)" 11
	if md_crash "${t}_failed_replay" $n $j /dev/ram1; then
		md_snap
		md_fio_verify "${t}_degraded_old:$(md_sz 4):0:9" \
			"${t}_degraded:$(md_sz 1):$(md_sz 7):11"
		md_moved "${t}_degraded_read" "$gen" xor
	fi

	mdadm --zero-superblock /dev/ram1 >/dev/null 2>&1
	mdadm $MD --add /dev/ram1 >/dev/null 2>&1
	md_snap
	usleep 200000
	md_wait_sync "${t}_rebuild" rebuilt && md_moved "${t}_rebuild" "$gen" xor
	md_snap
	md_check "$t" && md_moved "${t}_check" "$val"
	md_fio_verify "${t}_rebuilt:$(md_sz 4):0:9" \
		"${t}_rebuilt_replayed:$(md_sz 1):$(md_sz 5):10" \
		"${t}_rebuilt_degraded:$(md_sz 1):$(md_sz 7):11"

	md_stop
	brd_teardown
}

md_suite_begin
for mode in $MD_MODES; do
	md_mode "$mode"
	for level in 5 6; do
		for jm in write-through write-back; do
			journal $level $jm
		done
	done
done
md_suite_end
