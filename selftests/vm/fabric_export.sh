#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# An offloaded md RAID6 exported over NVMe/TCP and NVMe/RDMA (Soft-RoCE):
# RAID6 over 8 brd disks with ecdma doing the parity, one subsystem with
# the array as its namespace, on a tcp port and on an rdma port.  The host
# side connects over each transport in turn and writes 4K and 128K random
# blocks with crc32c verification; over rdma it first reads back what was
# written over tcp.  Then a parity check finds mismatch_cnt 0.  ecdma's P+Q
# counters must move under the host's writes and its check counter under
# the check (target-side offload); at the end everything unloads.
. /ecdma/lib.sh
. /ecdma/fabric_lib.sh

ecdma_load || { ktap_fail load_ecdma; ktap_exit; }
modprobe raid456 || { ktap_fail load_raid456; ktap_exit; }
if fab_setup rdma; then
	ktap_ok fabric_setup
else
	ktap_fail fabric_setup
	fab_finish
	ktap_exit
fi

brd_setup 8 16
if mdadm --create /dev/md0 --run --quiet --level=6 --raid-devices=8 --chunk=64 \
	--assume-clean --bitmap=none /dev/ram0 /dev/ram1 /dev/ram2 /dev/ram3 \
	/dev/ram4 /dev/ram5 /dev/ram6 /dev/ram7 2>/tmp/mdadm.log; then
	ktap_ok md_create
else
	cat /tmp/mdadm.log
	ktap_fail md_create
	fab_finish
	ktap_exit
fi
# reconstruct-write: async_tx computes RAID6 read-modify-write on the CPU
echo 0 >/sys/block/md0/md/rmw_level

if fab_subsys md0 /dev/md0 && fab_port 1 tcp 4420 && fab_port_link 1 md0 &&
	fab_port 2 rdma 4421 && fab_port_link 2 md0; then
	ktap_ok export_tcp_and_rdma
else
	ktap_fail export_tcp_and_rdma
	fab_finish
	ktap_exit
fi

# Regions of the 96 MiB namespace: each transport writes its own, so that
# the rdma pass can read back the tcp pass's data.
#   tcp: 4K at 0-4M, 128K at 8M-24M; rdma: 4K at 32M-36M, 128K at 40M-56M
# read_tcp_data <dev>: what the tcp pass wrote verifies
read_tcp_data() {
	fab_fio "$1" randwrite 4k 0 4M 1 --verify_only=1 &&
		fab_fio "$1" randwrite 128k 8M 16M 2 --verify_only=1
}

# transport_pass <tcp|rdma> <svcid> <offset-MiB>
transport_pass() {
	tr=$1
	c=$(fab_connect "$tr" "$2" md0) || { ktap_fail "${tr}_connect"; return; }
	if d=$(fab_wait_dev md0); then
		ktap_ok "${tr}_connect # $c $d"
	else
		ktap_fail "${tr}_connect # no namespace on $c"
		fab_disconnect "$c"
		return
	fi
	if [ "$tr" = rdma ]; then
		ktap_check rdma_reads_tcp_data read_tcp_data "$d"
	fi
	p0=$(ecdma_ops pq)
	ktap_check "${tr}_randwrite_4k_verify" fab_fio "$d" randwrite 4k "$3M" 4M 1
	p1=$(ecdma_ops pq)
	fab_expect_moved "${tr}_4k_parity_offloaded" "$p0" "$p1" pq
	ktap_check "${tr}_randwrite_128k_verify" \
		fab_fio "$d" randwrite 128k "$(($3 + 8))M" 16M 2
	fab_expect_moved "${tr}_128k_parity_offloaded" "$p1" "$(ecdma_ops pq)" pq
	ktap_check "${tr}_transport_is_$tr" \
		[ "$(cat "/sys/class/nvme/$c/transport")" = "$tr" ]
	fab_disconnect "$c"
	fab_wait_state "$c" gone 30 || ktap_diag "$c still $(fab_ctrl_state "$c")"
}
transport_pass tcp 4420 0
transport_pass rdma 4421 32

v0=$(ecdma_ops pq_val)
mm=$(md_check md0)
[ "$mm" = 0 ] && ktap_ok check_mismatch_0 || ktap_fail "check_mismatch_0 # mismatch_cnt=$mm"
fab_expect_moved check_offloaded "$v0" "$(ecdma_ops pq_val)" pq_val
fab_finish
ktap_exit
