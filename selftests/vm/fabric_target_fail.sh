#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Target-side disk failures under fabric I/O: the host writes and verifies
# over NVMe/RDMA, pass after pass, while the target's RAID6 (8 brd disks,
# internal bitmap, ecdma doing the parity) loses two members, runs
# degraded, gets them back with --re-add and rebuilds.  The host sees no
# verify error and no I/O error; a check finds mismatch_cnt 0 and what was
# written before the failure still verifies.  ecdma's counters must move in
# every phase: P+Q under the degraded writes and across the rebuild, the
# check's pq_val.
. /ecdma/lib.sh
. /ecdma/fabric_lib.sh

ecdma_load || { ktap_fail load_ecdma; ktap_exit; }
modprobe raid456 || { ktap_fail load_raid456; ktap_exit; }
fab_setup rdma && ktap_ok fabric_setup ||
	{ ktap_fail fabric_setup; fab_finish; ktap_exit; }

brd_setup 8 8
# the internal bitmap lets failed members come back with --re-add
if ! mdadm --create /dev/md0 --run --quiet --level=6 --raid-devices=8 --chunk=64 \
	--assume-clean --bitmap=internal --bitmap-chunk=256K /dev/ram0 /dev/ram1 \
	/dev/ram2 /dev/ram3 /dev/ram4 /dev/ram5 /dev/ram6 /dev/ram7 2>/tmp/mdadm.log; then
	cat /tmp/mdadm.log
	ktap_fail md_create
	fab_finish
	ktap_exit
fi
echo 0 >/sys/block/md0/md/rmw_level
fab_md_resync_full_speed
fab_subsys md0 /dev/md0 && fab_port 1 rdma 4420 && fab_port_link 1 md0 ||
	{ ktap_fail export_rdma; fab_finish; ktap_exit; }
c=$(fab_connect rdma 4420 md0) && d=$(fab_wait_dev md0) ||
	{ ktap_fail rdma_connect; fab_finish; ktap_exit; }
ktap_ok "rdma_connect # $c $d"

dmesg -c >/dev/null
# written before the failures, read back at the end
ktap_check before_write_verify fab_fio "$d" randwrite 128k 0 4M 1
fab_fio_loop_start L "$d" randwrite 64k 8M 4M
fab_fio_loop_wait L 1 || ktap_diag "no first pass yet"

# two members fail under the host's I/O
p0=$(ecdma_ops pq)
mdadm /dev/md0 --fail /dev/ram2 --fail /dev/ram5 >/dev/null 2>&1
deg=$(cat /sys/block/md0/md/degraded)
[ "$deg" = 2 ] && ktap_ok fail_two_members || ktap_fail "fail_two_members # degraded=$deg"
# one whole pass while degraded
fab_fio_loop_wait L 2 && ktap_ok degraded_passes ||
	ktap_fail "degraded_passes # $(fab_fio_loop_runs L) in all"
fab_expect_moved degraded_parity_offloaded "$p0" "$(ecdma_ops pq)" pq

# back with --re-add: the bitmap's dirty regions are rebuilt
p0=$(ecdma_ops pq)
mdadm /dev/md0 --remove /dev/ram2 /dev/ram5 >/dev/null 2>&1
if mdadm /dev/md0 --re-add /dev/ram2 --re-add /dev/ram5 >/tmp/mdadm.log 2>&1; then
	ktap_ok re_add
else
	cat /tmp/mdadm.log
	ktap_fail re_add
fi
sleep 1
if md_wait_idle md0 && [ "$(cat /sys/block/md0/md/degraded)" = 0 ]; then
	ktap_ok rebuild
else
	cat /proc/mdstat
	ktap_fail rebuild
fi
# "recovery" (6.1) or "recover" (6.12)
dmesg | grep -qE "md: recover(y)? of RAID array md0" && ktap_ok rebuild_ran ||
	ktap_fail "rebuild_ran # md logged no recovery"
fab_expect_moved rebuild_parity_offloaded "$p0" "$(ecdma_ops pq)" pq
# one whole pass on the rebuilt array
fab_fio_loop_wait L 2 || ktap_diag "no pass after the rebuild"
runs=$(fab_fio_loop_runs L)
if fab_fio_loop_stop L; then
	ktap_ok "host_fio_verify_clean # $runs passes"
else
	ktap_fail "host_fio_verify_clean # failed: $(tr '\n' ' ' </tmp/L.fails)"
fi
errs=$(dmesg | grep -ciE 'nvme.*(error|abort)|I/O error')
[ "$errs" = 0 ] && ktap_ok host_no_io_errors ||
	{ dmesg | grep -iE 'nvme.*(error|abort)|I/O error' | head; ktap_fail "host_no_io_errors # $errs"; }

v0=$(ecdma_ops pq_val)
mm=$(md_check md0)
[ "$mm" = 0 ] && ktap_ok check_mismatch_0 || ktap_fail "check_mismatch_0 # mismatch_cnt=$mm"
fab_expect_moved check_offloaded "$v0" "$(ecdma_ops pq_val)" pq_val
ktap_check before_data_verifies fab_fio "$d" randwrite 128k 0 4M 1 --verify_only=1
fab_finish
ktap_exit
