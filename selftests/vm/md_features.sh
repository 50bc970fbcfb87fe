#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# md's consistency policies and stripe knobs, md alone ("never") against
# ecdma ("always") in one boot (md_lib.sh):
#  - PPL (RAID5 --consistency-policy=ppl): writes, a member failed,
#    degraded writes (partial parity XOR), the member added back;
#  - internal bitmap, RAID5 and RAID6: degraded writes, --re-add (the
#    bitmap's partial resync);
#  - rmw_level 0, 1, 2 (RAID6 read-modify-write runs on md's CPU: only the
#    reconstruct-writes and the check reach an engine) and skip_copy;
# each with every block verified and a check without mismatches.
# stripe_size is fixed at PAGE_SIZE on x86 (read-only): not varied.
. /ecdma/lib.sh
. /ecdma/md_lib.sh

MIB=10

# feature_fail_readd <name> <level> <n> <gen> <val> <re-add|add>: writes,
# ram1 failed, degraded writes, ram1 back, check, everything verified
feature_fail_readd() {
	local t=$1 level=$2 n=$3 gen=$4 val=$5 how=$6

	md_snap
	md_fio "$t" wv "$(md_sz 4)" 0 21
	md_moved "${t}_write" "$gen" xor
	mdadm $MD --fail /dev/ram1 >/dev/null 2>&1
	mdadm $MD --remove /dev/ram1 >/dev/null 2>&1
	md_snap
	md_fio "${t}_degraded" wv "$(md_sz 2)" "$(md_sz 5)" 22
	md_fio "${t}_degraded_old" verify "$(md_sz 4)" 0 21
	md_moved "${t}_degraded" "$gen" xor
	[ "$how" = add ] && mdadm --zero-superblock /dev/ram1 >/dev/null 2>&1
	if mdadm $MD --"$how" /dev/ram1 >/tmp/mdadm.log 2>&1; then
		ktap_ok "${MODE}_${t}_${how}"
	else
		cat /tmp/mdadm.log
		ktap_fail "${MODE}_${t}_${how}"
	fi
	usleep 200000
	md_wait_sync "${t}_${how}_sync" rebuilt
	md_snap
	md_check "$t" && md_moved "${t}_check" "$val"
	md_fio_verify "${t}_back:$(md_sz 4):0:21" \
		"${t}_back_degraded:$(md_sz 2):$(md_sz 5):22"
}

ppl() {
	brd_setup 4 $MIB
	# shellcheck disable=SC2046
	md_create r5_ppl --level=5 --raid-devices=4 --chunk=64 \
		--consistency-policy=ppl $(md_devs 0 4) || { brd_teardown; return; }
	feature_fail_readd r5_ppl 5 4 xor xor_val add
	md_stop
	brd_teardown
}

bitmap() {
	local level=$1 n=$2 gen val
	gen=$([ "$level" = 5 ] && echo xor || echo pq)
	val=$([ "$level" = 5 ] && echo xor_val || echo pq_val)
	brd_setup "$n" $MIB
	# shellcheck disable=SC2046
	md_create "r${level}_bitmap" --level="$level" --raid-devices="$n" \
		--chunk=64 --bitmap=internal --bitmap-chunk=64K \
		$(md_devs 0 "$n") || { brd_teardown; return; }
	feature_fail_readd "r${level}_bitmap" "$level" "$n" "$gen" "$val" re-add
	md_stop
	brd_teardown
}

# knobs <level> <n>: rmw_level 0/1/2 and skip_copy, one array
knobs() {
	local level=$1 n=$2 gen val t rmw seed=30 off=0
	gen=$([ "$level" = 5 ] && echo xor || echo pq)
	val=$([ "$level" = 5 ] && echo xor_val || echo pq_val)
	brd_setup "$n" $MIB
	# shellcheck disable=SC2046
	md_create "r${level}_knobs" --level="$level" --raid-devices="$n" \
		--chunk=64 --assume-clean --bitmap=none $(md_devs 0 "$n") ||
		{ brd_teardown; return; }
	for rmw in 0 1 2 skip_copy; do
		t=r${level}_rmw$rmw
		if [ $rmw = skip_copy ]; then
			t=r${level}_skip_copy
			echo 1 >$MDS/rmw_level
			echo 1 >$MDS/skip_copy
		elif ! echo $rmw 2>/dev/null >$MDS/rmw_level; then
			ktap_skip "${MODE}_$t" "rmw_level $rmw refused"
			continue
		fi
		md_snap
		# 4K writes (RMW candidates) and 128K ones (full stripes)
		md_fio "${t}_4k" wv "$(md_sz 1)" "$off" $seed 4k
		md_fio "${t}_128k" wv "$(md_sz 2)" "$(md_sz 4)" $seed 128k
		md_check "$t"
		md_moved "$t" "$gen" xor "$val"
		seed=$((seed + 1))
	done
	echo 0 >$MDS/skip_copy
	md_stop
	brd_teardown
}

md_suite_begin
for mode in $MD_MODES; do
	md_mode "$mode"
	ppl
	bitmap 5 4
	bitmap 6 6
	knobs 5 4
	knobs 6 6
done
md_suite_end
