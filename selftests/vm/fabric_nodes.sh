#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# md across fabric "nodes": six subsystems, each exporting one brd disk on
# its own NVMe/RDMA port and address (all on the one rxe device), and the
# host assembles RAID6 from the six namespaces with ecdma doing the parity.
# Host I/O is fio write + verify, pass after pass, throughout.
#
# Short outage (node 3): its port goes; after fast_io_fail_tmo (2 s) the
# host fails the I/O queued for it, md marks the member faulty and runs
# degraded; the port comes back, the controller reconnects by itself
# (reconnect_delay 1 s, well within ctrl_loss_tmo 60 s) to the same
# device, which goes back with --re-add (bitmap: only what changed).
#
# Long outage (node 5, ctrl_loss_tmo 5 s): the controller is given up and
# its namespace device removed; when the node returns the host connects
# again, and the new device goes back with --add (full rebuild).
#
# No host I/O error, no verify error, mismatch_cnt 0, the data written
# before the outages verifies, ecdma's counters move in every phase.
. /ecdma/lib.sh
. /ecdma/fabric_lib.sh

N=6
ecdma_load || { ktap_fail load_ecdma; ktap_exit; }
modprobe raid456 || { ktap_fail load_raid456; ktap_exit; }
fab_setup rdma && ktap_ok fabric_setup ||
	{ ktap_fail fabric_setup; fab_finish; ktap_exit; }
brd_setup $N 8

# node <i>: its address
node_addr() {
	echo "10.9.0.$((10 + $1))"
}

# node_up <i>: node i's port (the subsystem stays)
node_up() {
	fab_port "$1" rdma 4420 "$(node_addr "$1")" && fab_port_link "$1" "node$1"
}

# node_connect <i> <ctrl_loss_tmo>: prints the namespace device
node_connect() {
	fab_connect rdma 4420 "node$1" "$(node_addr "$1")" \
		"ctrl_loss_tmo=$2,reconnect_delay=1,fast_io_fail_tmo=2" >"/tmp/node$1.ctrl" &&
		fab_wait_dev "node$1"
}

devs=
ok=1
i=1
while [ $i -le $N ]; do
	tmo=60
	[ $i = 5 ] && tmo=5
	if fab_addr_add "$(node_addr $i)" && fab_subsys "node$i" "/dev/ram$((i - 1))" &&
		node_up $i && d=$(node_connect $i $tmo); then
		devs="$devs $d"
	else
		ktap_diag "node $i failed"
		ok=
	fi
	i=$((i + 1))
done
[ -n "$ok" ] && ktap_ok "nodes_connected #$devs" ||
	{ ktap_fail nodes_connected; fab_finish; ktap_exit; }

# shellcheck disable=SC2086
if ! mdadm --create /dev/md0 --run --quiet --level=6 --raid-devices=$N --chunk=64 \
	--assume-clean --bitmap=internal --bitmap-chunk=256K $devs 2>/tmp/mdadm.log; then
	cat /tmp/mdadm.log
	ktap_fail md_create_over_namespaces
	fab_finish
	ktap_exit
fi
ktap_ok md_create_over_namespaces
echo 0 >/sys/block/md0/md/rmw_level
fab_md_resync_full_speed
dmesg -c >/dev/null

p0=$(ecdma_ops pq)
ktap_check before_write_verify fab_fio /dev/md0 randwrite 128k 0 4M 1
fab_expect_moved host_parity_offloaded "$p0" "$(ecdma_ops pq)" pq
fab_fio_loop_start L /dev/md0 randwrite 64k 8M 4M
fab_fio_loop_wait L 1 || ktap_diag "no first pass yet"

# md_degraded_wait <n> [seconds]: until md0 runs with n members missing
md_degraded_wait() {
	i=0
	while [ "$(cat /sys/block/md0/md/degraded)" != "$1" ]; do
		[ $i -lt $((${2:-30} * 10)) ] || return 1
		usleep 100000
		i=$((i + 1))
	done
}

# node_outage <i> <short|long>
node_outage() {
	n=$1
	d=$(fab_ns_dev "node$n")
	c=$(cat "/tmp/node$n.ctrl")
	p0=$(ecdma_ops pq)
	t0=$(cut -d' ' -f1 /proc/uptime)
	fab_port_del "$n"
	if md_degraded_wait 1 30; then
		ktap_ok "node${n}_gone_md_marks_faulty # $(awk -v t="$t0" \
			'{ printf("%.1f", $1 - t) }' /proc/uptime) s"
	else
		cat /proc/mdstat
		ktap_fail "node${n}_gone_md_marks_faulty"
	fi
	if [ "$2" = long ]; then
		fab_wait_state "$c" gone 30 && ktap_ok "node${n}_controller_given_up" ||
			ktap_fail "node${n}_controller_given_up # $(fab_ctrl_state "$c")"
	fi
	# one whole pass degraded
	fab_fio_loop_wait L 2 && ktap_ok "node${n}_degraded_passes" ||
		ktap_fail "node${n}_degraded_passes # $(fab_fio_loop_runs L) in all"
	fab_expect_moved "node${n}_degraded_parity_offloaded" "$p0" "$(ecdma_ops pq)" pq

	node_up "$n" || ktap_fail "node${n}_port_recreate"
	mdadm /dev/md0 --remove failed >/dev/null 2>&1
	mdadm /dev/md0 --remove detached >/dev/null 2>&1
	if [ "$2" = short ]; then
		if fab_wait_state "$c" live 30 && [ "$(fab_ns_dev "node$n")" = "$d" ]; then
			ktap_ok "node${n}_back_same_device # $d"
		else
			ktap_fail "node${n}_back_same_device # $c $(fab_ctrl_state "$c")"
		fi
		add="--re-add $d"
		what=re_add
	else
		if d=$(node_connect "$n" 60); then
			ktap_ok "node${n}_reconnected # $d"
		else
			ktap_fail "node${n}_reconnected"
		fi
		mdadm --zero-superblock "$d" >/dev/null 2>&1
		add="--add $d"
		what=add
	fi
	# a member's blocks come back by P+Q (Q blocks) or XOR from P (data
	# and P blocks): a bitmap's few dirty stripes may need XOR only
	p0=$(($(ecdma_ops pq) + $(ecdma_ops xor)))
	# shellcheck disable=SC2086
	if mdadm /dev/md0 $add >/tmp/mdadm.log 2>&1; then
		ktap_ok "node${n}_$what"
	else
		cat /tmp/mdadm.log
		ktap_fail "node${n}_$what"
	fi
	# until md has the member back (a slow host: the recovery may not
	# have started a second after the add), then its sync idle
	if md_degraded_wait 0 300 && md_wait_idle md0; then
		ktap_ok "node${n}_rebuild"
	else
		cat /proc/mdstat
		ktap_fail "node${n}_rebuild"
	fi
	fab_expect_moved "node${n}_rebuild_parity_offloaded" "$p0" \
		"$(($(ecdma_ops pq) + $(ecdma_ops xor)))" "pq+xor"
}
node_outage 3 short
node_outage 5 long

fab_fio_loop_wait L 2 || ktap_diag "no pass after the rebuilds"
runs=$(fab_fio_loop_runs L)
if fab_fio_loop_stop L; then
	ktap_ok "host_fio_verify_clean # $runs passes"
else
	ktap_fail "host_fio_verify_clean # failed: $(tr '\n' ' ' </tmp/L.fails)"
fi
v0=$(ecdma_ops pq_val)
mm=$(md_check md0)
[ "$mm" = 0 ] && ktap_ok check_mismatch_0 || ktap_fail "check_mismatch_0 # mismatch_cnt=$mm"
fab_expect_moved check_offloaded "$v0" "$(ecdma_ops pq_val)" pq_val
ktap_check before_data_verifies fab_fio /dev/md0 randwrite 128k 0 4M 1 --verify_only=1
fab_finish
ktap_exit
