#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Does a check find corruption, and exactly, when ecdma validates the
# parity?  md alone ("never") against ecdma ("always") in one boot
# (md_lib.sh).  Pages of one member are overwritten behind md's back,
# past the data offset, at places whose role (data, P, Q) follows from
# the layout (left-symmetric: row r has P on member n-1-(r mod n), RAID6's
# Q on the next); a check must count 8 sectors per damaged 4K stripe:
#  - P (and Q) damaged: repair rewrites them, a check finds 0, every
#    block verifies;
#  - data damaged (whole pages and a single byte): the member is failed
#    and rebuilt from the parity, a check finds 0, every block verifies;
#  - RAID6 with a member missing: Q damaged elsewhere is still counted and
#    repaired.
. /ecdma/lib.sh
. /ecdma/md_lib.sh

MIB=10
CHUNK_PAGES=16	# 64 KiB chunks

# page <member> <row> <page>: the member's 4K page number of that place
page() {
	echo $(($(cat $MDS/dev-ram$1/offset) / 8 + $2 * CHUNK_PAGES + $3))
}

# smash <member> <row> <page>...: random data over those pages
smash() {
	local m=$1 r=$2
	shift 2
	for p in "$@"; do
		dd if=/dev/urandom of=/dev/ram$m bs=4096 count=1 \
			seek="$(page "$m" "$r" "$p")" oflag=direct 2>/dev/null
	done
}

# flip <member> <row> <page> <byte>: invert one byte
flip() {
	local pg v
	pg=$(page "$1" "$2" "$3")
	dd if=/dev/ram$1 of=/tmp/pg bs=4096 count=1 skip="$pg" iflag=direct 2>/dev/null
	v=$(od -An -tu1 -j "$4" -N1 /tmp/pg | tr -d ' ')
	# shellcheck disable=SC2059
	printf "\\$(printf %o $((255 - v)))" |
		dd of=/tmp/pg bs=1 seek="$4" conv=notrunc 2>/dev/null
	dd if=/tmp/pg of=/dev/ram$1 bs=4096 count=1 seek="$pg" oflag=direct 2>/dev/null
}

# repair <name>: md rewrites the parity of mismatched stripes
repair() {
	md_snap
	echo repair >$MDS/sync_action
	usleep 200000
	md_wait_sync "${1}_repair"
}

# rebuild <name> <member>: the member failed, cleared, added, rebuilt
rebuild() {
	mdadm $MD --fail /dev/ram$2 --remove /dev/ram$2 >/dev/null 2>&1
	mdadm --zero-superblock /dev/ram$2 >/dev/null 2>&1
	mdadm $MD --add /dev/ram$2 >/dev/null 2>&1
	usleep 200000
	md_wait_sync "${1}_rebuild" rebuilt
}

# corrupt <level> <n>
corrupt() {
	local level=$1 n=$2 t=r$1 val gen size
	val=$([ "$level" = 5 ] && echo xor_val || echo pq_val)
	gen=$([ "$level" = 5 ] && echo xor || echo pq)
	size=$(md_sz 4)
	brd_setup "$n" $MIB
	# shellcheck disable=SC2046
	md_create "${t}_corrupt" --level="$level" --raid-devices="$n" --chunk=64 \
		--assume-clean --bitmap=none $(md_devs 0 "$n") ||
		{ brd_teardown; return; }
	md_fio "${t}_corrupt" write "$size" 0 51 128k
	md_check "${t}_clean"

	# parity: row 1's P (member n-2), 2 pages; RAID6: row 0's Q (member
	# 0), 3 pages
	smash $((n - 2)) 1 0 9
	want=16
	if [ "$level" = 6 ]; then
		smash 0 0 1 2 15
		want=40
	fi
	md_snap
	md_check "${t}_parity_damaged" $want && md_moved "${t}_parity_damaged" "$val"
	repair "${t}_parity" && md_moved "${t}_parity_repair" "$val" "$gen"
	md_check "${t}_parity_repaired"
	md_fio "${t}_parity_repaired" verify "$size" 0 51 128k

	# data on member 1: 3 pages of row 0 and one byte of row 3 (P there
	# is on member n-4, RAID6's Q on n-3)
	smash 1 0 0 4 11
	flip 1 3 7 1234
	md_check "${t}_data_damaged" 32
	rebuild "${t}_data" 1
	md_check "${t}_data_rebuilt"
	md_fio "${t}_data_rebuilt" verify "$size" 0 51 128k

	if [ "$level" = 6 ]; then
		# degraded: member 2 gone, row 0's Q (member 0) damaged.  (Not
		# P: md rebuilds a missing block from P, so a bad P makes it
		# rewrite Q from wrong data, with or without an engine.)
		mdadm $MD --fail /dev/ram2 --remove /dev/ram2 >/dev/null 2>&1
		smash 0 0 5
		md_snap
		md_check "${t}_degraded_damaged" 8 &&
			md_moved "${t}_degraded_damaged" "$val" "$gen" xor
		repair "${t}_degraded"
		md_check "${t}_degraded_repaired"
		md_fio "${t}_degraded_repaired" verify "$size" 0 51 128k
		rebuild "${t}_degraded" 2
		md_check "${t}_degraded_rebuilt"
		md_fio "${t}_degraded_rebuilt" verify "$size" 0 51 128k
	fi
	md_stop
	brd_teardown
}

md_suite_begin
for mode in $MD_MODES; do
	md_mode "$mode"
	corrupt 5 4
	corrupt 6 6
done
md_suite_end
