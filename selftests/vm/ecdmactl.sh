#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# ecdmactl in the guest: every subcommand, --json output validated, bad
# arguments and their exit codes, and offload proven through its stats;
# md, doctor and trace against a real RAID6 array.
. /ecdma/lib.sh

# rc <name> <expected exit code> <command...>
rc() {
	name=$1
	want=$2
	shift 2
	"$@" >/tmp/ecdmactl.out 2>/tmp/ecdmactl.err
	got=$?
	if [ "$got" = "$want" ]; then
		ktap_ok "$name"
	else
		ktap_fail "$name # exit $got, want $want: $(head -1 /tmp/ecdmactl.err)"
	fi
}

# json <name> <ecdmactl args...>: exit 0 and valid JSON
json() {
	name=$1
	shift
	if ecdmactl --json "$@" >/tmp/ecdmactl.json &&
	   ecdmactl json-validate </tmp/ecdmactl.json; then
		ktap_ok "$name"
	else
		ktap_fail "$name"
		head -c 600 /tmp/ecdmactl.json
	fi
}

if ! command -v ecdmactl >/dev/null; then
	ktap_skip ecdmactl "not built (make ecdmactl)"
	ktap_exit
fi

modprobe -r raid456 async_raid6_recov async_pq async_xor async_memcpy \
	async_tx >/dev/null 2>&1
modprobe -r ecdma >/dev/null 2>&1
rc not_loaded_exit_2 2 ecdmactl status
rc help_exit_0 0 ecdmactl --help
rc version_exit_0 0 ecdmactl --version
rc no_command_exit_1 1 ecdmactl
rc unknown_command_exit_1 1 ecdmactl frobnicate
rc bad_option_exit_1 1 ecdmactl --frob status
rc fake_root_exit_2 2 ecdmactl --sysfs-root /nonexistent status
rc md_no_arrays_exit_0 0 ecdmactl md
ktap_check md_no_arrays grep -q '^no md arrays' /tmp/ecdmactl.out
rc doctor_unloaded_exit_8 8 ecdmactl doctor
ktap_check doctor_says_not_loaded grep -q '^error *module *ecdma is not loaded' \
	/tmp/ecdmactl.out

ecdma_load || { ktap_fail load_ecdma; ktap_exit; }
rc status_exit_0 0 ecdmactl status
ktap_check status_shows_channels grep -q channels /tmp/ecdmactl.out
json status_json status
rc stats_exit_0 0 ecdmactl stats
json stats_json stats
rc stats_chan0 0 ecdmactl stats -c 0
json stats_chan0_json stats -c 0
rc stats_bad_chan_exit_3 3 ecdmactl stats -c 9999
rc stats_bad_chan_arg_exit_1 1 ecdmactl stats -c x
rc algos_exit_0 0 ecdmactl algos
ktap_check algos_lists_generic grep -q generic /tmp/ecdmactl.out
json algos_json algos
rc get_exit_0 0 ecdmactl get channels
ktap_check get_prints_value test "$(cat /tmp/ecdmactl.out)" = \
	"$(cat $ECDMA_DEV/channels)"
json get_json get algo
rc get_unknown_exit_3 3 ecdmactl get nosuch
rc get_escape_exit_3 3 ecdmactl get ../../../etc/passwd
rc get_missing_arg_exit_1 1 ecdmactl get
rc set_exit_0 0 ecdmactl set chan0/cpu 0
ktap_check set_get_round_trip test "$(ecdmactl get chan0/cpu)" = 0
rc set_negative_value 0 ecdmactl set chan0/cpu -1
ktap_check set_negative_round_trip test "$(ecdmactl get chan0/cpu)" = -1
rc set_bad_value_exit_4 4 ecdmactl set inline_issue maybe
ktap_check set_bad_value_unchanged test "$(ecdmactl get inline_issue)" = 1
rc set_readonly_exit_5 5 ecdmactl set algo_active x
rc set_unknown_exit_3 3 ecdmactl set nosuch 1
rc set_missing_arg_exit_1 1 ecdmactl set inline_issue
rc set_algo_idle 0 ecdmactl set algo generic
rc set_algo_auto 0 ecdmactl set algo auto
rc reset_exit_0 0 ecdmactl reset
rc reset_extra_arg_exit_1 1 ecdmactl reset now
rc watch_bounded 0 ecdmactl watch -i 1 -n 2
ktap_check watch_three_lines test "$(wc -l </tmp/ecdmactl.out)" = 3
json watch_json watch -i 1 -n 2
rc watch_bad_interval_exit_1 1 ecdmactl watch -i 0

# busy and offload with md on top
modprobe raid456
brd_setup 4 16
mdadm --create /dev/md0 --run --level=6 --raid-devices=4 --chunk=64 \
	--assume-clean --bitmap=none /dev/ram0 /dev/ram1 /dev/ram2 \
	/dev/ram3 >/dev/null 2>&1
echo 0 >/sys/block/md0/md/rmw_level 2>/dev/null
ecdmactl reset
dd if=/dev/urandom of=/dev/md0 bs=64k count=64 oflag=direct 2>/dev/null
ktap_check stats_show_pq_offload test "$(ecdmactl get stats/pq_ops)" -gt 0
ecdmactl stats | grep -q '^pq ' && ktap_ok stats_table_has_pq ||
	ktap_fail stats_table_has_pq
# md and doctor on the live array (ecdma_load set offload=always)
rc md_exit_0 0 ecdmactl md
sed 's/^/# /' /tmp/ecdmactl.out
ktap_check md_names_array grep -q '^md0 *raid6 *4 ' /tmp/ecdmactl.out
ktap_check md_offloaded_always grep -q '^md0 offloaded: yes: ' /tmp/ecdmactl.out
ktap_check md_members grep -q '^md0 members: ram0 (in_sync)' /tmp/ecdmactl.out
json md_json md
rc doctor_healthy_exit_0 0 ecdmactl doctor
sed 's/^/# /' /tmp/ecdmactl.out
ktap_check doctor_md0_ok grep -q '^ok *md\.md0 ' /tmp/ecdmactl.out
ktap_check doctor_channels_held grep -q '^ok *channels *async_tx holds' \
	/tmp/ecdmactl.out
json doctor_json doctor
printf 'CONFIG_DMA_ENGINE=y\n# CONFIG_ASYNC_TX_DMA is not set\n' >/tmp/kconfig
rc doctor_kconfig_exit_8 8 ecdmactl doctor --kconfig /tmp/kconfig
ktap_check doctor_kconfig_finding grep -q '^error *async_tx_dma ' \
	/tmp/ecdmactl.out
echo never >$ECDMA_DEV/offload
rc md_never_exit_0 0 ecdmactl md
sed 's/^/# /' /tmp/ecdmactl.out
ktap_check md_not_offloaded_never grep -q '^md0 offloaded: no: offload=never' \
	/tmp/ecdmactl.out
rc doctor_never_exit_8 8 ecdmactl doctor
sed 's/^/# /' /tmp/ecdmactl.out
ktap_check doctor_never_finding grep -q '^warn *md\.md0 ' /tmp/ecdmactl.out
echo always >$ECDMA_DEV/offload
rc set_busy_exit_6 6 ecdmactl set caps/enable_pq 0
ktap_check set_busy_unchanged test "$(ecdmactl get caps/enable_pq)" = 1
# the load is a job of this shell, so that wait waits for it: a dd still
# writing makes the stop below fail and leaves md0 to the next script
dd if=/dev/urandom of=/dev/md0 bs=64k count=128 oflag=direct 2>/dev/null &
load=$!
rc watch_under_load 0 ecdmactl watch -n 2
wait $load
ecdmactl stats
# trace: ecdma's events under the same load, recorded in an instance of
# its own (the global buffer stays off and empty), the instance removed,
# SIGINT ends it early with the summary
if trace_mount; then
	: >$TRACEFS/trace
	p0=$(ecdmactl get stats/pq_ops)
	# writes until the flag goes: the load spans the whole recording
	touch /tmp/load.on
	while [ -e /tmp/load.on ]; do
		dd if=/dev/urandom of=/dev/md0 bs=64k count=64 oflag=direct 2>/dev/null
	done &
	load=$!
	rc trace_exit_0 0 ecdmactl trace 2
	rm /tmp/load.on
	wait $load
	p1=$(ecdmactl get stats/pq_ops)
	sed 's/^/# /' /tmp/ecdmactl.out
	n=$(sed -n 's/^pq  *\([0-9]*\) .*/\1/p' /tmp/ecdmactl.out)
	ktap_check "trace_counts_pq_ops # ${n:-none} of $((p1 - p0))" \
		[ "${n:-0}" -gt 0 -a "${n:-0}" -le $((p1 - p0)) ]
	ktap_check trace_pq_histogram grep -q '^pq latency (us):' /tmp/ecdmactl.out
	ktap_check trace_instance_removed sh -c \
		"! ls $TRACEFS/instances | grep -q ecdmactl"
	ktap_check trace_global_buffer_untouched sh -c \
		"! grep -q ' ecdma_' $TRACEFS/trace && grep -qx 0 $TRACEFS/events/ecdma/enable"
	dd if=/dev/urandom of=/dev/md0 bs=64k count=64 oflag=direct 2>/dev/null &
	load=$!
	json trace_json trace 1
	wait $load
	ecdmactl trace 60 >/tmp/ecdmactl.out 2>&1 &
	tr=$!
	# its instance exists once the signals are its to take: before that
	# a background job's SIGINT is ignored (the shell's SIG_IGN)
	i=0
	while ! [ -d $TRACEFS/instances/ecdmactl-$tr ] && [ $i -lt 300 ]; do
		usleep 100000
		i=$((i + 1))
	done
	kill -INT $tr
	t0=$(date +%s)
	wait $tr
	got=$?
	dt=$(($(date +%s) - t0))
	ktap_check "trace_sigint_ends_it # exit $got after $dt s" \
		[ $got = 0 -a $dt -lt 10 ]
	ktap_check trace_sigint_summary grep -q 'descriptors completed' /tmp/ecdmactl.out
	ktap_check trace_sigint_instance_removed sh -c \
		"! ls $TRACEFS/instances | grep -q ecdmactl"
else
	ktap_skip trace "no tracefs"
fi
n=0
until mdadm --stop /dev/md0 >/dev/null 2>&1 || [ $n -ge 20 ]; do
	usleep 200000
	n=$((n + 1))
done
ktap_check md_stopped test ! -e /sys/block/md0/md
brd_teardown
modprobe -r raid456 async_raid6_recov async_pq async_xor async_memcpy \
	async_tx >/dev/null 2>&1
modprobe -r ecdma
ktap_exit
