#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# EC over RDMA on Soft-RoCE: one rxe device on a dummy netdev (fabric.md),
# ecdma_rdma on it, and its three test modules:
#  - ecdma_rdma_test: ec-send of RS(4,2)/RS(10,4) stripes, encode_send on
#    real QPs, chain and central repair (8 nodes, 112 RC QPs);
#  - ecdma_rdma_fault_test: QP errors, a receiver that never posts, timeouts;
#  - ecdma_rdma_remove_test, twice: the device deleted (rdma link delete)
#    and its driver unloaded (rmmod rdma_rxe) with primitives in flight;
#    one of them holds the removal in its drain while new calls are tried.
# Around them: ecdma loads without ib_core, sysfs reports the device's EC
# capability, nothing is left in flight, ecdma_rdma and ecdma unload.
# ecdma_rdma_test runs traced (tracefs, events/ecdma_rdma): a start and an
# end per primitive ops_done counted, each ended with status 0, their
# blocks and bytes those of the test's stripes.  In the simulator lanes
# (ECDMA_HWSIM=1) the simulated engine is the rxe device's EC engine.
. /ecdma/lib.sh

IP=/usr/sbin/ip		# iproute2: busybox's own ip applet would shadow it
RXE=rxe_ec
NETDEV=ecrxe0
RDIR=$ECDMA_DEV/rdma
T=$TRACEFS
REV=$T/events/ecdma_rdma

if ! [ -x $IP ] || ! command -v rdma >/dev/null ||
	! modinfo rdma_rxe >/dev/null 2>&1; then
	ktap_skip rdma_ec "no rdma_rxe, iproute2 ip or rdma in the guest"
	ktap_exit
fi

# rdma_up: the netdev (once) and the rxe device on it
rdma_up() {
	modprobe rdma_rxe || return 1
	# rxe asks the crypto API for crc32 at run time (not a module dependency)
	modprobe crc32_generic 2>/dev/null
	modprobe crc32-pclmul 2>/dev/null
	if ! [ -d /sys/class/net/$NETDEV ]; then
		$IP link add $NETDEV type dummy || return 1
		# jumbo frames: rxe's MTU follows (4096), fewer packets per block
		$IP link set $NETDEV mtu 9000 up || return 1
		$IP addr add 10.9.0.1/24 dev $NETDEV || return 1
	fi
	rdma link add $RXE type rxe netdev $NETDEV
}

# rdir_wait <present|absent>: rdma/$RXE in ecdma's sysfs follows the device
rdir_wait() {
	i=0
	while [ $i -lt 50 ]; do
		if [ "$1" = present ]; then
			[ -d $RDIR/$RXE ] && return 0
		else
			[ -d $RDIR/$RXE ] || return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# idle: nothing in flight, no QP, no registered MR
idle() {
	[ "$(cat $RDIR/$RXE/ops_inflight)" = 0 ] &&
		[ "$(cat $RDIR/$RXE/qps)" = 0 ] &&
		[ "$(cat $RDIR/$RXE/mrs_in_use)" = 0 ]
}

# removal <name> <command...>: the remove test in the background; the
# command (removing the device) runs when it is ready.  The removal must
# end the waiting work within 180 s: it takes 2-5 s, but once on the
# debug kernel beside other boots on a slow host the work ended only
# after the test's 60 s (2026-11-27), as the test then let go of it
removal() {
	rname=$1
	shift
	dmesg -c >/dev/null
	t0=$(date +%s)
	modprobe ecdma_rdma_remove_test dev=$RXE wait_s=180 &
	mpid=$!
	i=0
	until dmesg | grep -q 'ecdma_rdma_remove_test: removal: ready'; do
		sleep 0.2
		i=$((i + 1))
		[ $i -lt 300 ] || break
	done
	"$@"
	rrc=$?
	wait $mpid
	mrc=$?
	kmod_ktap_report ecdma_rdma_remove_test "$rname" $mrc
	rmmod ecdma_rdma_remove_test 2>/dev/null
	ktap_check "${rname}_command_ok # $* ($(($(date +%s) - t0)) s)" [ $rrc = 0 ]
	ktap_check "${rname}_sysfs_dir_gone" rdir_wait absent
}

# rdma_events <file>: of the ecdma_rdma_op_start/_end lines in <file>,
# "starts ends failed_ends bad unpaired ec_send recv_ec_send recv_ec": bad
# counts lines whose bytes are not blocks x block_size, whose block_size
# is none of ecdma_rdma_test's (4 KiB, 16 KiB + 64, 64 KiB, 64 KiB + 64,
# 1 MiB) or whose ec_send or recv_ec is not of an RS(4,2) or RS(10,4)
# stripe (6 or 14 blocks), and copies them to <file>.bad; unpaired an end
# without its op's start (same blocks, same block_size) or a start without
# its end; the last three count the starts of each kind
rdma_events() {
	awk "$TRACE_V"'
		/ ecdma_rdma_op_(start|end): / {
			op = v("op"); kind = v("kind"); b = v("blocks") + 0
			bs = v("block_size") + 0; st = v("status") + 0
			if (v("bytes") + 0 != b * bs || b < 1 ||
			    index(" 4096 16448 65536 65600 1048576 ", " " bs " ") == 0 ||
			    ((kind == "ec_send" || kind == "recv_ec") &&
			     b != 6 && b != 14)) {
				bad++
				print >FILENAME ".bad"
			}
			if (index($0, " ecdma_rdma_op_start: ")) {
				s++
				n[kind]++
				if (op in open)
					unpaired++
				open[op] = b " " bs
			} else {
				e++
				if (st != 0)
					failed++
				if (!(op in open) || open[op] != b " " bs)
					unpaired++
				delete open[op]
			}
		}
		END {
			for (op in open)
				unpaired++
			printf "%d %d %d %d %d %d %d %d\n", s, e, failed, bad,
				unpaired, n["ec_send"], n["recv_ec_send"],
				n["recv_ec"]
		}' "$1"
}

start=$(date +%s)
ktap_check ecdma_does_not_need_ib_core \
	sh -c '! modinfo -F depends ecdma | grep -qw ib_core'
ib0=$(grep -c '^ib_core ' /proc/modules)
ecdma_load || { ktap_fail load_ecdma; ktap_exit; }
if [ "$ib0" = 0 ]; then
	ktap_check ecdma_loaded_without_ib_core \
		sh -c '! grep -q "^ib_core " /proc/modules'
fi
# the simulator lanes: the simulated engine is the rxe device's EC engine
# (registered under its name before the device appears), so the calcs of
# the primitives run on a device that takes their buffers' DMA addresses
engine=none provider=cpu
if [ -n "$HWSIM_DEV" ]; then
	echo $RXE >"$HWSIM_DEV/hwsim/ec_engine_of" || ktap_fail hwsim_ec_engine_of
	engine=$RXE provider=$RXE
fi
rdma_up || { ktap_fail rxe_device_up; ktap_exit; }
ktap_ok rxe_device_up
modprobe ecdma_rdma || { ktap_fail load_ecdma_rdma; ktap_exit; }
ktap_check sysfs_rdma_device_listed rdir_wait present
ktap_check "sysfs_ec_engine_$engine" [ "$(cat $RDIR/$RXE/ec_engine)" = "$engine" ]
ktap_check "sysfs_provider_$provider" [ "$(cat $RDIR/$RXE/provider)" = "$provider" ]
ktap_check sysfs_mr_pool_ready [ "$(cat $RDIR/$RXE/mrs)" -gt 0 ]
ktap_check sysfs_idle_at_start idle
if command -v ecdmactl >/dev/null; then
	ktap_check ecdmactl_rdma_lists_device \
		sh -c "ecdmactl rdma | grep -q '^$RXE .*$engine .*$provider'"
	ktap_check ecdmactl_rdma_json sh -c \
		'ecdmactl --json rdma | ecdmactl json-validate'
fi

# ecdma_rdma's events on for ecdma_rdma_test (every primitive succeeds,
# their number and sizes are the test's); one clock for both vCPUs: a
# primitive may end on another CPU than it started on
if trace_mount && [ -w $REV/enable ]; then
	clock=$(sed 's/.*\[\(.*\)\].*/\1/' $T/trace_clock)
	echo global >$T/trace_clock
	: >$T/trace
	echo 1 >$REV/enable
else
	REV=
fi
d0=$(cat $RDIR/$RXE/ops_done)
t0=$(date +%s)
s0=$(hwsim_stat sqes)
kmod_ktap ecdma_rdma_test rdma_test dev=$RXE
ktap_diag "ecdma_rdma_test took $(($(date +%s) - t0)) s"
if [ -n "$HWSIM_DEV" ]; then
	s1=$(hwsim_stat sqes)
	[ "$s1" -gt "$s0" ] && ktap_ok "rdma_test_on_simulated_engine # sqes $s0 -> $s1" ||
		ktap_fail "rdma_test_on_simulated_engine # sqes $s0 -> $s1"
fi
if [ -n "$REV" ]; then
	echo 0 >$REV/enable
	cat $T/trace >/tmp/rdma_trace.txt
	lost=$(trace_lost)
	: >$T/trace
	echo "$clock" >$T/trace_clock
	ops=$(($(cat $RDIR/$RXE/ops_done) - d0))
	read -r ns ne nf bad unp es res re <<-EOF
	$(rdma_events /tmp/rdma_trace.txt)
	EOF
	msg="ops_done +$ops: $ns starts, $ne ends, $lost lost"
	[ "$ops" -gt 0 ] && [ "$ns" = "$ops" ] && [ "$ne" = "$ops" ] &&
		[ "$lost" = 0 ] && ktap_ok "rdma_events_per_op # $msg" ||
		ktap_fail "rdma_events_per_op # $msg"
	[ "$ne" -gt 0 ] && [ "$nf" = 0 ] &&
		ktap_ok "rdma_op_end_status_0 # $ne ends" ||
		ktap_fail "rdma_op_end_status_0 # $nf of $ne ends failed"
	# every op at one "(____ptrval____)": %p before the crng was ready
	nptr=$(grep -c '(____ptrval____)' /tmp/rdma_trace.txt)
	why=
	[ "$nptr" = 0 ] ||
		why=", $nptr ops printed as (____ptrval____): the crng was not ready"
	[ "$ns" -gt 0 ] && [ "$bad" = 0 ] && [ "$unp" = 0 ] &&
		ktap_ok "rdma_events_bytes_blocks # blocks x block_size, paired" ||
		ktap_fail "rdma_events_bytes_blocks # $bad lines off, $unp unpaired$why"
	[ "$bad" = 0 ] || head -4 /tmp/rdma_trace.txt.bad | sed 's/^ *//; s/^/# off: /'
	# ec_send: RS(4,2) twice at 4 KiB, once at 64 KiB + 64 and 1 MiB;
	# RS(10,4) twice at 4 KiB, once at 1 MiB.  recv_ec: the two central
	# repairs.  recv_ec_send: the holders' receives, the chains' hops and
	# the central repairs' senders
	msg="ec_send $es, recv_ec_send $res, recv_ec $re"
	[ "$es" = 7 ] && [ "$re" = 2 ] && [ "$res" -gt 0 ] &&
		ktap_ok "rdma_events_kinds # $msg" ||
		ktap_fail "rdma_events_kinds # $msg"
	grep ' ecdma_rdma_op_' /tmp/rdma_trace.txt | head -4 |
		sed 's/^ *//; s/^/# /'
else
	ktap_skip rdma_events_per_op "no tracefs or no events/ecdma_rdma"
fi
ktap_check sysfs_idle_after_test idle
ktap_check sysfs_no_failed_ops [ "$(cat $RDIR/$RXE/ops_failed)" = 0 ]
ktap_check sysfs_ops_counted [ "$(cat $RDIR/$RXE/ops_done)" -gt 0 ]
ktap_check sysfs_bytes_counted [ "$(cat $RDIR/$RXE/tx_bytes)" -gt 0 ]

t0=$(date +%s)
kmod_ktap ecdma_rdma_fault_test rdma_fault dev=$RXE
ktap_diag "ecdma_rdma_fault_test took $(($(date +%s) - t0)) s"
ktap_check sysfs_idle_after_faults idle
ktap_check sysfs_failed_ops_counted [ "$(cat $RDIR/$RXE/ops_failed)" -gt 0 ]

removal rdma_link_delete rdma link delete $RXE
rdma_up && ktap_check device_back_after_link_delete rdir_wait present ||
	ktap_fail device_back_after_link_delete
removal rdma_rxe_unload rmmod rdma_rxe
rdma_up && ktap_check device_back_after_rxe_unload rdir_wait present ||
	ktap_fail device_back_after_rxe_unload
ktap_check sysfs_idle_new_device idle

# the client goes with the module, the device stays
ktap_check ecdma_rdma_unloads_with_device_present rmmod ecdma_rdma
ktap_check sysfs_rdma_dir_gone sh -c "! [ -d $RDIR ]"
rdma link delete $RXE
ktap_check ecdma_unloads modprobe -r ecdma
# leave no RDMA state behind for the scripts that follow
rmmod rdma_rxe
$IP link del $NETDEV
ktap_diag "rdma_ec took $(($(date +%s) - start)) s"
ktap_exit
