#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# ecdma sysfs ABI: every attribute read; every writable one with good
# values (round trip) and bad ones (the documented errno, state unchanged);
# idle-only stores applied while idle and refused with EBUSY while async_tx
# holds the channels; an op disabled keeps async_tx off ecdma; md on top
# offloaded with correct parity.
. /ecdma/lib.sh
D=$ECDMA_DEV
# md members: 16 MiB, divided by VM_SCALE, at least 4 (the 4 MiB written
# still fits the data space twice over); md's check reads all of them
msz=$(vm_scaled 16 4)

async_unload() {
	modprobe -r raid456 raid6test async_raid6_recov async_pq async_xor \
		async_memcpy async_tx >/dev/null 2>&1
}

# wr <attr> <value>: write; prints the shell's error text, if any
wr() {
	(echo "$2" >"$D/$1") 2>&1
}

# good <attr> <value> [<expected read>]
good() {
	err=$(wr "$1" "$2")
	got=$(cat "$D/$1")
	if [ -z "$err" ] && [ "$got" = "${3:-$2}" ]; then
		ktap_ok "set_$(echo "$1" | tr / _)_$2"
	else
		ktap_fail "set_$(echo "$1" | tr / _)_$2 # err='$err' read '$got'"
	fi
}

# bad <attr> <value> <errno text>: rejected, value unchanged
bad() {
	before=$(cat "$D/$1")
	err=$(wr "$1" "$2")
	after=$(cat "$D/$1")
	if echo "$err" | grep -q "$3" && [ "$before" = "$after" ]; then
		ktap_ok "reject_$(echo "$1" | tr / _)_$2"
	else
		ktap_fail "reject_$(echo "$1" | tr / _)_$2 # err='$err' '$before' -> '$after'"
	fi
}

EINVAL="Invalid argument"
EBUSY="busy"
EACCES="Permission denied"

async_unload
ecdma_load || { ktap_fail load_ecdma; ktap_exit; }

# read-only files exist and read
ro_ok=1
for f in channels providers algo algo_active max_src inline_issue fuse fuse_active desc_max \
	worker_budget inline_budget section_ops nt_threshold pq_path \
	pq_path_active xor_path xor_path_active stats/nt_bytes caps/ops caps/max_xor \
	caps/max_pq caps/align stats/pq_ops stats/queue_depth \
	stats/latency_hist stats/prep_full stats/nofpu_bytes stats/fused \
	chan0/dma_chan chan0/cpu chan0/provider stats/chan0/pq_ops \
	stats/chan0/dma_chan stats/chan0/latency_hist stats/prep_paced \
	stats/queued_bytes stats/chan0/queue_limit stats/chan0/drain_rate; do
	v=$(cat "$D/$f" 2>/dev/null)
	[ -n "$v" ] || { ro_ok=0; ktap_diag "cannot read $f"; }
done
[ $ro_ok = 1 ] && ktap_ok read_all_attributes || ktap_fail read_all_attributes
ktap_check latency_hist_16_buckets \
	test "$(wc -w <"$D/stats/latency_hist")" = 16
ktap_check providers_lists_cpu grep -q '^cpu ' "$D/providers"

# read-only attributes refuse writes
for f in providers algo_active caps/ops caps/max_xor \
	stats/pq_ops stats/fused fuse_active chan0/dma_chan \
	stats/queued_bytes stats/chan0/queue_limit; do
	bad "$f" 1 "$EACCES"
done

# live tunables
good inline_issue 0
good inline_issue 1
bad inline_issue maybe "$EINVAL"
# fuse: auto at load, resolved by the calibration that probe logged
ktap_check fuse_default_auto [ "$(cat $D/fuse)" = "[auto] on off" ]
fa=$(cat $D/fuse_active)
case "$(dmesg | grep -o 'fuse: .*' | tail -1)" in
*": composed") fw=on ;;
*": five operations") fw=off ;;
*) fw=none ;;
esac
ktap_check "fuse_auto_follows_calibration # active $fa, calibration $fw" [ "$fa" = "$fw" ]
good fuse on "auto [on] off"
ktap_check fuse_on_active [ "$(cat $D/fuse_active)" = on ]
good fuse off "auto on [off]"
ktap_check fuse_off_active [ "$(cat $D/fuse_active)" = off ]
bad fuse maybe "$EINVAL"
bad fuse 1 "$EINVAL"
good fuse auto "[auto] on off"
ktap_check fuse_auto_active_again [ "$(cat $D/fuse_active)" = "$fa" ]
dm=$(cat $D/desc_max)
ktap_check desc_max_default_4096 [ "$dm" = 4096 ]
good desc_max 32
good desc_max "$dm"
bad desc_max 31 "$EINVAL"
bad desc_max $((dm + 1)) "$EINVAL"
bad desc_max -1 "$EINVAL"
bad desc_max lots "$EINVAL"
good offload never
good offload auto
bad offload sometimes "$EINVAL"
good offload always
tb=$(cat $D/trial_budget)
ktap_check trial_budget_default_2 [ "$tb" = 2 ]
good trial_budget 0
good trial_budget 100
good trial_budget "$tb"
bad trial_budget 101 "$EINVAL"
bad trial_budget -1 "$EINVAL"
bad trial_budget half "$EINVAL"
bad trial_budget "" "$EINVAL"
# the timer applies it within a window
sleep 1
ktap_check offload_always_accepts grep -q '^accept spread=0 .* copies=0 table=in ' "$D/offload_state"
# read-only, and its figures change by themselves: only the refusal counts
err=$(wr offload_state 1)
echo "$err" | grep -q "$EACCES" && ktap_ok reject_offload_state_1 ||
	ktap_fail "reject_offload_state_1 # err='$err'"
wb=$(cat $D/worker_budget)
good worker_budget 65536
bad worker_budget 0 "$EINVAL"
bad worker_budget abc "$EINVAL"
bad worker_budget 99999999999 "$EINVAL"
good worker_budget "$wb"
ib=$(cat $D/inline_budget)
good inline_budget 16384
bad inline_budget -1 "$EINVAL"
good inline_budget "$ib"
so=$(cat $D/section_ops)
good section_ops 8
bad section_ops 0 "$EINVAL"
bad section_ops 5000 "$EINVAL"
good section_ops "$so"
nt=$(cat $D/nt_threshold)
ktap_check nt_threshold_default_auto test "$nt" = auto
good nt_threshold 0
good nt_threshold 1048576
bad nt_threshold -5 "$EINVAL"
bad nt_threshold 2000000000 "$EINVAL"
bad nt_threshold automatic "$EINVAL"
good nt_threshold "$nt"
good pq_path gf "auto lib [gf]"
ktap_check pq_path_gf_active test "$(cat $D/pq_path_active)" = gf
bad pq_path raid6 "$EINVAL"
good pq_path auto "[auto] lib gf"
good xor_path lib "auto [lib] gf"
ktap_check xor_path_lib_active test "$(cat $D/xor_path_active)" = lib
bad xor_path "" "$EINVAL"
good xor_path auto "[auto] lib gf"
ms=$(cat $D/max_src)
good max_src 8
ktap_check max_src_sets_max_xor test "$(cat $D/caps/max_xor)" = 8
ktap_check max_src_sets_max_pq test "$(cat $D/caps/max_pq)" = 8
bad max_src 1 "$EINVAL"
bad max_src 100000 "$EINVAL"
bad max_src x "$EINVAL"
good max_src "$ms"
good chan0/cpu 0
good chan0/cpu -1
bad chan0/cpu 99999 "$EINVAL"
bad chan0/cpu -2 "$EINVAL"
bad chan0/cpu x "$EINVAL"
good chan0/cpu 0
good chan0/provider cpu
bad chan0/provider nosuch "$EINVAL"
bad stats/reset 0 "$EINVAL"
bad stats/reset x "$EINVAL"
good_reset() {
	err=$(wr stats/reset 1)
	[ -z "$err" ] && [ "$(cat $D/stats/pq_ops)" = 0 ]
}
ktap_check stats_reset good_reset

# idle-only stores, while idle
nch=$(cat $D/channels)
off0=$(cat $D/offload)
echo never >$D/offload
echo 0 >$D/inline_issue
echo off >$D/fuse
echo 100 >$D/desc_max
good channels 3
# front-wide settings survive the new registration
ktap_check channels_keep_offload [ "$(cat $D/offload)" = never ]
ktap_check channels_keep_inline_issue [ "$(cat $D/inline_issue)" = 0 ]
ktap_check channels_keep_fuse [ "$(cat $D/fuse)" = "auto on [off]" ]
ktap_check channels_keep_desc_max [ "$(cat $D/desc_max)" = 100 ]
echo "$off0" >$D/offload
echo 1 >$D/inline_issue
echo auto >$D/fuse
echo "$dm" >$D/desc_max
ktap_check channels_3_registered test -d $D/stats/chan2 -a ! -d $D/stats/chan3
ktap_check channels_3_dmaengine test "$(ls -d /sys/class/dma/dma*chan* | wc -l)" -ge 3
good channels 2
ktap_check channels_2_registered test ! -d $D/chan2
bad channels 1 "$EINVAL"
bad channels 65 "$EINVAL"
bad channels x "$EINVAL"
good channels "$nch"
err=$(wr algo generic)
ktap_check set_algo_generic sh -c "[ -z '$err' ] && grep -q '^auto.*\[generic\]' $D/algo"
ktap_check algo_active_generic test "$(cat $D/algo_active)" = generic
bad algo nosuch "$EINVAL"
err=$(wr algo auto)
ktap_check set_algo_auto test -z "$err"
ktap_check algo_auto_marked grep -q '^\[auto\]' "$D/algo"
for op in memcpy xor xor_val pq pq_val; do
	good caps/enable_$op 0
	ktap_check caps_ops_without_$op sh -c \
		"! tr ' ' '\n' <$D/caps/ops | grep -qx $op"
	good caps/enable_$op 1
	bad caps/enable_$op 2 "$EINVAL"
done

# pq_val off: async_tx takes every op type from DMA_ASYNC_TX channels,
# which a device lacking one of them does not get, so md runs entirely on
# the CPU, still correct, and ecdma's counters stay still
good caps/enable_pq_val 0
ktap_check pq_val_off_no_async_tx sh -c \
	"! tr ' ' '\n' <$D/caps/ops | grep -qx async_tx"
modprobe raid456 || ktap_fail load_raid456
wr stats/reset 1 >/dev/null
brd_setup 4 "$msz"
mdadm --create /dev/md0 --run --level=6 --raid-devices=4 --chunk=64 \
	--assume-clean --bitmap=none /dev/ram0 /dev/ram1 /dev/ram2 \
	/dev/ram3 >/dev/null 2>&1
echo 0 >/sys/block/md0/md/rmw_level 2>/dev/null
dd if=/dev/urandom of=/dev/md0 bs=64k count=64 oflag=direct 2>/dev/null
mm=$(md_check md0)
ktap_check pq_val_off_mismatch_0 test "$mm" = 0
ktap_check pq_val_off_not_offloaded test \
	"$(ecdma_ops pq)$(ecdma_ops pq_val)$(ecdma_ops xor)" = 000
mdadm --stop /dev/md0 >/dev/null 2>&1
brd_teardown
async_unload
good caps/enable_pq_val 1
ktap_check pq_val_on_async_tx_back grep -q async_tx "$D/caps/ops"

# md on top: offloaded (counters move), parity right
modprobe raid456 || ktap_fail load_raid456
wr stats/reset 1 >/dev/null
brd_setup 4 "$msz"
mdadm --create /dev/md0 --run --level=6 --raid-devices=4 --chunk=64 \
	--assume-clean --bitmap=none /dev/ram0 /dev/ram1 /dev/ram2 \
	/dev/ram3 >/dev/null 2>&1
echo 0 >/sys/block/md0/md/rmw_level 2>/dev/null
dd if=/dev/urandom of=/dev/md0 bs=64k count=64 oflag=direct 2>/dev/null
mm=$(md_check md0)
ktap_check md_mismatch_0 test "$mm" = 0
ktap_check md_pq_offloaded test "$(ecdma_ops pq)" -gt 0
ktap_check md_pq_val_offloaded test "$(ecdma_ops pq_val)" -gt 0

# busy: async_tx holds every channel now
bad caps/enable_pq_val 0 "$EBUSY"
bad caps/enable_xor 0 "$EBUSY"
bad channels 5 "$EBUSY"
bad algo generic "$EBUSY"
good max_src 16
good max_src "$ms"
good inline_issue 0
dd if=/dev/urandom of=/dev/md0 bs=64k count=32 oflag=direct 2>/dev/null
good inline_issue 1
mm=$(md_check md0)
ktap_check busy_phase_mismatch_0 test "$mm" = 0
ktap_check queue_depth_idle test "$(cat $D/stats/queue_depth)" = 0
ktap_check queued_bytes_idle test "$(cat $D/stats/queued_bytes)" = 0
ktap_check queue_limit_at_least_1MiB \
	test "$(cat $D/stats/chan0/queue_limit)" -ge 1048576
ktap_check latency_hist_counts awk \
	'{ for (i = 1; i <= NF; i++) s += $i } END { exit !(s > 0) }' \
	"$D/stats/latency_hist"

# debugfs (not ABI): present and readable
mount -t debugfs none /sys/kernel/debug 2>/dev/null
ktap_check debugfs_queues grep -q '^0 dma' /sys/kernel/debug/ecdma/queues
ktap_check debugfs_last_errors grep -q errors /sys/kernel/debug/ecdma/last_errors

mdadm --stop /dev/md0 >/dev/null 2>&1
brd_teardown
async_unload
modprobe -r ecdma
ktap_exit
