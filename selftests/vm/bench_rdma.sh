#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# EC over RDMA benchmark (selftests/kmod/ecdma_rdma_bench.c) on one rxe
# device: ec-send against encode-then-send by hand, chain repair against
# central repair; prints "# rdma-bench ..." lines.  Not in tests.list: run
# it with tools/bench/vm-rdma.sh (make bench).  Module parameters come
# from the kernel command line, comma-separated:
# ecdma_rdma_bench=rounds=9,send_kib=1024.
. /ecdma/lib.sh

IP=/usr/sbin/ip		# iproute2: busybox's own ip applet would shadow it
modprobe rdma_rxe && modprobe crc32_generic 2>/dev/null
modprobe crc32-pclmul 2>/dev/null
$IP link add ecrxe0 type dummy && $IP link set ecrxe0 mtu 9000 up &&
	$IP addr add 10.9.0.1/24 dev ecrxe0 &&
	rdma link add rxe_ec type rxe netdev ecrxe0 ||
	{ ktap_fail rxe_device_up; ktap_exit; }
ecdma_load || { ktap_fail load_ecdma; ktap_exit; }
modprobe ecdma_rdma || { ktap_fail load_ecdma_rdma; ktap_exit; }
t0=$(date +%s)
# shellcheck disable=SC2046 # one word per parameter
kmod_ktap ecdma_rdma_bench rdma_bench dev=rxe_ec \
	$(echo "${ecdma_rdma_bench:-}" | tr , ' ')
ktap_diag "rdma bench took $(($(date +%s) - t0)) s"
rdma link delete rxe_ec
ktap_check ecdma_rdma_unloads rmmod ecdma_rdma
ktap_exit
