#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Fabric faults under fio verification, against an offloaded RAID6 (6 brd
# disks, ecdma doing the parity) exported over tcp and rdma.
#
# Port removed and re-created (per transport): the target drops the
# host's controller, the host keeps reconnecting (reconnect_delay 1 s,
# ctrl_loss_tmo 60 s) and holds its I/O meanwhile ("no usable path -
# requeuing I/O"); once the port is back it reconnects to the same
# namespace device.  NVMe says nothing failed: every write + verify pass
# across the outage must be clean.
#
# Namespace disabled and enabled (rdma): the target reports the namespace
# inactive (Namespace Attribute Changed), the host removes it, and I/O to
# it fails: that error NVMe requires, and it must be an I/O error, not a
# verify mismatch; the controller stays live.  Enabled again, the
# namespace comes back and the data written before the fault verifies.
. /ecdma/lib.sh
. /ecdma/fabric_lib.sh

ecdma_load || { ktap_fail load_ecdma; ktap_exit; }
modprobe raid456 || { ktap_fail load_raid456; ktap_exit; }
fab_setup rdma && ktap_ok fabric_setup ||
	{ ktap_fail fabric_setup; fab_finish; ktap_exit; }
brd_setup 6 8
if ! mdadm --create /dev/md0 --run --quiet --level=6 --raid-devices=6 --chunk=64 \
	--assume-clean --bitmap=none /dev/ram0 /dev/ram1 /dev/ram2 /dev/ram3 \
	/dev/ram4 /dev/ram5 2>/tmp/mdadm.log; then
	cat /tmp/mdadm.log
	ktap_fail md_create
	fab_finish
	ktap_exit
fi
echo 0 >/sys/block/md0/md/rmw_level
fab_subsys md0 /dev/md0 && fab_port 1 tcp 4420 && fab_port_link 1 md0 &&
	fab_port 2 rdma 4421 && fab_port_link 2 md0 ||
	{ ktap_fail export; fab_finish; ktap_exit; }
TMO=ctrl_loss_tmo=60,reconnect_delay=1
# what the host kernel logs when it fails I/O
ERRS='failing I/O|I/O Error|I/O error|blk_update_request'

# port_fault <tcp|rdma> <port id> <svcid>
port_fault() {
	tr=$1
	c=$(fab_connect "$tr" "$3" md0 "" $TMO) && d=$(fab_wait_dev md0) ||
		{ ktap_fail "${tr}_connect"; return; }
	dmesg -c >/dev/null
	ktap_check "${tr}_before_write_verify" fab_fio "$d" randwrite 128k 0 4M 1
	p0=$(ecdma_ops pq)
	fab_fio_loop_start P "$d" randwrite 64k 8M 4M
	fab_fio_loop_wait P 1 || ktap_diag "no first pass yet"

	t0=$(cut -d' ' -f1 /proc/uptime)
	fab_port_del "$2"
	fab_wait_state "$c" connecting 15 && ktap_ok "${tr}_port_removed_host_reconnecting" ||
		ktap_fail "${tr}_port_removed_host_reconnecting # state $(fab_ctrl_state "$c")"
	sleep 2
	fab_port "$2" "$tr" "$3" && fab_port_link "$2" md0 ||
		ktap_fail "${tr}_port_recreate"
	if fab_wait_state "$c" live 30; then
		ktap_ok "${tr}_host_reconnected # $(awk -v t="$t0" \
			'{ printf("%.1f", $1 - t) }' /proc/uptime) s after the port went"
	else
		ktap_fail "${tr}_host_reconnected # state $(fab_ctrl_state "$c")"
	fi
	d2=$(fab_ns_dev md0)
	[ "$d2" = "$d" ] && ktap_ok "${tr}_same_namespace_device" ||
		ktap_fail "${tr}_same_namespace_device # $d -> $d2"
	# one whole pass after the reconnect
	fab_fio_loop_wait P 2 || ktap_diag "no pass after the reconnect"
	runs=$(fab_fio_loop_runs P)
	if fab_fio_loop_stop P; then
		ktap_ok "${tr}_fio_verify_across_outage # $runs passes"
	else
		ktap_fail "${tr}_fio_verify_across_outage # failed: $(tr '\n' ' ' </tmp/P.fails)"
	fi
	n=$(dmesg | grep -cE "$ERRS")
	[ "$n" = 0 ] && ktap_ok "${tr}_host_no_io_errors" ||
		{ dmesg | grep -E "$ERRS" | head -3; ktap_fail "${tr}_host_no_io_errors # $n"; }
	ktap_check "${tr}_before_data_verifies" \
		fab_fio "$d" randwrite 128k 0 4M 1 --verify_only=1
	fab_expect_moved "${tr}_parity_offloaded" "$p0" "$(ecdma_ops pq)" pq
	fab_disconnect "$c"
	fab_wait_state "$c" gone 30 || ktap_diag "$c still $(fab_ctrl_state "$c")"
}
port_fault tcp 1 4420
port_fault rdma 2 4421

# namespace disabled under I/O, then enabled again (rdma)
ns_fault() {
	c=$(fab_connect rdma 4421 md0 "" $TMO) && d=$(fab_wait_dev md0) ||
		{ ktap_fail ns_connect; return; }
	dmesg -c >/dev/null
	ktap_check ns_before_write_verify fab_fio "$d" randwrite 128k 0 4M 2
	p0=$(ecdma_ops pq)
	fio --name=ns --filename="$d" --allow_file_create=0 --rw=randwrite --bs=64k --offset=8M \
		--size=4M --ioengine=libaio --iodepth=8 --direct=1 --eta=never \
		--time_based --runtime=120 --verify=crc32c --verify_backlog=32 \
		--verify_fatal=1 --output=/tmp/ns.fio.log >/dev/null 2>&1 &
	fpid=$!
	sleep 2
	fab_ns_enable md0 0
	i=0
	while fab_ns_dev md0 >/dev/null && [ $i -lt 150 ]; do
		usleep 100000
		i=$((i + 1))
	done
	fab_ns_dev md0 >/dev/null && ktap_fail "ns_disabled_host_drops_it # still $(fab_ns_dev md0)" ||
		ktap_ok "ns_disabled_host_drops_it # $((i / 10)) s"
	# the I/O in flight and after it fails: with an I/O error, not a
	# verify mismatch, and promptly
	i=0
	while kill -0 $fpid 2>/dev/null && [ $i -lt 300 ]; do
		usleep 100000
		i=$((i + 1))
	done
	if kill -0 $fpid 2>/dev/null; then
		kill $fpid
		ktap_fail "ns_io_fails # fio still running 30 s after the disable"
	elif wait $fpid; then
		ktap_fail "ns_io_fails # fio saw no error"
	elif grep -qiE 'verify|bad magic|crc32c' /tmp/ns.fio.log; then
		grep -iE 'verify|bad magic|crc32c' /tmp/ns.fio.log | head -3 | sed 's/^/# /'
		ktap_fail "ns_io_fails # verify error"
	else
		ktap_ok "ns_io_fails # $(grep -o 'error=[^)]*' /tmp/ns.fio.log | head -1)"
	fi
	# the host failed I/O only once it had learnt that the namespace went
	# (the rescan the Namespace Attribute Changed event triggers)
	dmesg | grep -nE "$ERRS|rescanning namespaces" | head -1 |
		grep -q 'rescanning namespaces' && ktap_ok ns_errors_after_ns_change ||
		{ dmesg | grep -E "$ERRS" | head -3; ktap_fail ns_errors_after_ns_change; }
	st=$(fab_ctrl_state "$c")
	[ "$st" = live ] && ktap_ok ns_controller_stays_live ||
		ktap_fail "ns_controller_stays_live # $st"
	fab_ns_enable md0 1
	if d=$(fab_wait_dev md0 30); then
		ktap_ok "ns_enabled_namespace_back # $d"
		ktap_check ns_before_data_verifies \
			fab_fio "$d" randwrite 128k 0 4M 2 --verify_only=1
		ktap_check ns_write_verify_after fab_fio "$d" randwrite 64k 8M 4M 3
	else
		ktap_fail ns_enabled_namespace_back
	fi
	fab_expect_moved ns_parity_offloaded "$p0" "$(ecdma_ops pq)" pq
	fab_disconnect "$c"
}
ns_fault

mm=$(md_check md0)
[ "$mm" = 0 ] && ktap_ok check_mismatch_0 || ktap_fail "check_mismatch_0 # mismatch_cnt=$mm"
fab_finish
ktap_exit
