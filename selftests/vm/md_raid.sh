#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# md RAID5 and RAID6 over brd with ecdma loaded: create, fio write+verify,
# parity check (mismatch_cnt 0), then stop.
. /ecdma/lib.sh

modprobe ecdma || { ktap_fail "load_ecdma"; ktap_exit; }
modprobe raid456 || { ktap_fail "load_raid456"; ktap_exit; }

# md_scenario <level> <disks> <chunk-KiB>
md_scenario() {
	level=$1 ndisks=$2 chunk=$3
	tag="raid${level}_${ndisks}d_${chunk}k"
	brd_setup "$ndisks" 32
	devs=""
	i=0
	while [ $i -lt "$ndisks" ]; do
		devs="$devs /dev/ram$i"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086
	if ! mdadm --create /dev/md0 --run --quiet --level="$level" \
		--raid-devices="$ndisks" --chunk="$chunk" --assume-clean \
		--bitmap=none $devs; then
		ktap_fail "${tag}_create"
		brd_teardown
		return
	fi
	ktap_ok "${tag}_create"
	[ "$level" = 6 ] && echo 0 >/sys/block/md0/md/rmw_level
	if fio --name=w --filename=/dev/md0 --rw=write --bs=64k --size=48M \
		--ioengine=psync --direct=1 --eta=never --verify=crc32c --do_verify=1 \
		--verify_fatal=1 --output=/tmp/fio.log; then
		ktap_ok "${tag}_fio_write_verify"
	else
		ktap_fail "${tag}_fio_write_verify"
		cat /tmp/fio.log
	fi
	mm=$(md_check md0)
	if [ "$mm" = 0 ]; then
		ktap_ok "${tag}_check_mismatch_0"
	else
		ktap_fail "${tag}_check_mismatch_0 # mismatch_cnt=$mm"
	fi
	mdadm --stop /dev/md0 >/dev/null 2>&1
	brd_teardown
}

md_scenario 5 4 64
md_scenario 6 6 64
modprobe -r raid456
modprobe -r ecdma
ktap_exit
