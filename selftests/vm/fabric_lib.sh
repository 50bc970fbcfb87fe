# SPDX-License-Identifier: GPL-2.0
#
# NVMe-oF helpers for guest test scripts (busybox sh), after lib.sh:
#   . /ecdma/lib.sh; . /ecdma/fabric_lib.sh
#
# Target and host live in the one guest.  Both transports run over a dummy
# netdev (fab0, FAB_ADDR): NVMe/TCP through the loopback route, NVMe/RDMA
# through one Soft-RoCE device (rxe_fab) on it.  Two rxe devices in one
# guest cannot talk, and rdma_cm cannot route over rxe on lo, so every
# RDMA endpoint shares that device (Documentation/testing.rst).
#
# rxe is occasionally slow to come up under TCG: creating the device and
# connecting retry a bounded number of times; every retry is logged as a
# "# fabric retry" diagnostic and counted (fab_retries), never hidden, and
# running out of retries is a failure, not a skip.  Helpers that print
# their result for $(...) send their diagnostics to stderr, which the
# runner keeps in the script's output.

FAB_IF=fab0
FAB_RXE=rxe_fab
FAB_ADDR=10.9.0.1
FAB_NQN=nqn.2026-01.io.ecdma
FAB_CFS=/sys/kernel/config/nvmet
FAB_MODS="nvmet nvmet-tcp nvmet-rdma nvme-tcp nvme-rdma rdma_rxe dummy"
# iproute2's ip: busybox sh would run its own applet for a bare "ip"
FAB_IP=/usr/sbin/ip
FAB_TRIES=3
FAB_CONNECT_TRIES=5
: >/tmp/fab_retries
FAB_T0=$(cut -d' ' -f1 /proc/uptime)

# fab_retry <what>: log and count one retry
fab_retry() {
	echo "$*" >>/tmp/fab_retries
	ktap_diag "fabric retry: $*" >&2
}

# fab_retries: how many retries so far
fab_retries() {
	wc -l </tmp/fab_retries
}

# fab_setup [rdma]: load the NVMe-oF modules, mount configfs, bring up lo
# and the dummy netdev; with "rdma" also the rxe device on it
fab_setup() {
	# shellcheck disable=SC2086
	modprobe -a $FAB_MODS || return 1
	grep -q " /sys/kernel/config " /proc/mounts ||
		mount -t configfs none /sys/kernel/config || return 1
	$FAB_IP link set lo up || return 1
	if ! $FAB_IP link show $FAB_IF >/dev/null 2>&1; then
		$FAB_IP link add $FAB_IF type dummy || return 1
		$FAB_IP addr add $FAB_ADDR/24 dev $FAB_IF || return 1
	fi
	$FAB_IP link set $FAB_IF up || return 1
	[ "${1:-}" = rdma ] || return 0
	fab_rxe_up
}

# fab_rxe_up: the rxe device on the dummy netdev, ACTIVE
fab_rxe_up() {
	t=1
	while :; do
		rdma link show $FAB_RXE/1 2>/dev/null | grep -q ACTIVE && return 0
		rdma link show $FAB_RXE/1 >/dev/null 2>&1 ||
			rdma link add $FAB_RXE type rxe netdev $FAB_IF 2>/tmp/fab_rdma.err
		i=0
		while [ $i -lt 20 ]; do
			rdma link show $FAB_RXE/1 2>/dev/null | grep -q ACTIVE && return 0
			usleep 100000
			i=$((i + 1))
		done
		[ $t -lt $FAB_TRIES ] || break
		fab_retry "rdma link add $FAB_RXE (try $t): $(cat /tmp/fab_rdma.err)"
		rdma link delete $FAB_RXE 2>/dev/null
		t=$((t + 1))
		sleep 1
	done
	ktap_diag "rxe device not active: $(cat /tmp/fab_rdma.err); $(dmesg | grep -i rxe | tail -3)"
	return 1
}

# fab_addr_add <ip>: one more address on the dummy netdev (another "node")
fab_addr_add() {
	$FAB_IP addr add "$1/24" dev $FAB_IF
}

# --- target side (nvmet configfs) ---

# fab_subsys <name> <block device> [nsid]: a subsystem nqn.…:<name> that
# any host may use, exporting the device as namespace nsid (default 1)
fab_subsys() {
	s=$FAB_CFS/subsystems/$FAB_NQN:$1
	ns=$s/namespaces/${3:-1}
	mkdir -p "$s" || return 1
	echo 1 >"$s/attr_allow_any_host" || return 1
	mkdir -p "$ns" || return 1
	printf %s "$2" >"$ns/device_path" || return 1
	echo 1 >"$ns/enable"
}

# fab_ns_enable <name> <0|1> [nsid]
fab_ns_enable() {
	echo "$2" >"$FAB_CFS/subsystems/$FAB_NQN:$1/namespaces/${3:-1}/enable"
}

# fab_port <id> <tcp|rdma> <svcid> [addr]: a port listening on addr
# (FAB_ADDR) : svcid
fab_port() {
	p=$FAB_CFS/ports/$1
	mkdir "$p" || return 1
	echo "$2" >"$p/addr_trtype" &&
		echo ipv4 >"$p/addr_adrfam" &&
		echo "${4:-$FAB_ADDR}" >"$p/addr_traddr" &&
		echo "$3" >"$p/addr_trsvcid"
}

# fab_port_link <id> <name>: expose the subsystem on the port (it starts
# listening with its first subsystem)
fab_port_link() {
	ln -s "$FAB_CFS/subsystems/$FAB_NQN:$2" "$FAB_CFS/ports/$1/subsystems/$FAB_NQN:$2"
}

# fab_port_del <id>: unlink every subsystem and remove the port (the
# target drops the port's controllers: the host starts reconnecting)
fab_port_del() {
	p=$FAB_CFS/ports/$1
	for l in "$p"/subsystems/*; do
		[ -L "$l" ] && rm "$l"
	done
	rmdir "$p"
}

# fab_target_clear: remove every port and subsystem
fab_target_clear() {
	[ -d $FAB_CFS ] || return 0
	for p in "$FAB_CFS"/ports/*; do
		[ -d "$p" ] && fab_port_del "${p##*/}"
	done
	for s in "$FAB_CFS"/subsystems/*; do
		[ -d "$s" ] || continue
		for ns in "$s"/namespaces/*; do
			[ -d "$ns" ] || continue
			echo 0 >"$ns/enable"
			rmdir "$ns"
		done
		rmdir "$s"
	done
}

# --- host side ---

# fab_connect <tcp|rdma> <svcid> <name> [addr] [options]: connect to the
# subsystem through /dev/nvme-fabrics (the kernel interface nvme-cli uses;
# options are the kernel's, e.g. ctrl_loss_tmo=30,reconnect_delay=1,
# fast_io_fail_tmo=2: bookworm's nvme-cli 2.3 has no --fast_io_fail_tmo).
# Prints the controller (nvmeN).  A refused or timed-out connect is retried
# (FAB_CONNECT_TRIES, 10 s of pauses: on a CI host beside other boots three tries
# 1 s apart once all failed).
fab_connect() {
	o="transport=$1,traddr=${4:-$FAB_ADDR},trsvcid=$2,nqn=$FAB_NQN:$3"
	o="$o,hostnqn=$(cat /etc/nvme/hostnqn),hostid=$(cat /etc/nvme/hostid)"
	[ -z "${5:-}" ] || o="$o,$5"
	t=1
	while :; do
		r=
		{
			if echo "$o" >&3 2>/tmp/fab_conn.err; then
				read -r r <&3
			fi
		} 3<>/dev/nvme-fabrics
		case "$r" in
		instance=*)
			r=${r#instance=}
			echo "nvme${r%%,*}"
			return 0
			;;
		esac
		[ $t -lt $FAB_CONNECT_TRIES ] || break
		fab_retry "connect $1 $3 (try $t): $(cat /tmp/fab_conn.err)"
		sleep $t
		t=$((t + 1))
	done
	ktap_diag "connect $1 $3 failed: $(cat /tmp/fab_conn.err); $(dmesg | tail -5 | tr '\n' ' ')" >&2
	return 1
}

# fab_disconnect <nvmeN>
fab_disconnect() {
	[ -e "/sys/class/nvme/$1/delete_controller" ] || return 0
	echo 1 >"/sys/class/nvme/$1/delete_controller"
}

# fab_disconnect_all
fab_disconnect_all() {
	for c in /sys/class/nvme/nvme*; do
		[ -e "$c/delete_controller" ] && echo 1 >"$c/delete_controller"
	done
	return 0
}

# fab_ctrl_state <nvmeN>: live, connecting, ... ("gone" once deleted)
fab_ctrl_state() {
	cat "/sys/class/nvme/$1/state" 2>/dev/null || echo gone
}

# fab_wait_state <nvmeN> <state> [seconds]: wait for the controller state
fab_wait_state() {
	i=0
	while [ "$(fab_ctrl_state "$1")" != "$2" ]; do
		[ $i -lt $((${3:-30} * 10)) ] || return 1
		usleep 100000
		i=$((i + 1))
	done
}

# fab_ns_dev <name>: the host's block device of the subsystem's namespace
# (the multipath head nvmeXnY, or nvmeXnY without native multipath), once
# it has a size; empty if none
fab_ns_dev() {
	for b in /sys/block/nvme*; do
		n=${b##*/}
		case "$n" in *c*) continue ;; esac	# hidden per-path disks
		[ "$(cat "$b/device/subsysnqn" 2>/dev/null)" = "$FAB_NQN:$1" ] || continue
		sz=$(cat "$b/size" 2>/dev/null)
		[ "${sz:-0}" -gt 0 ] && [ -b "/dev/$n" ] && echo "/dev/$n" && return 0
	done
	return 1
}

# fab_wait_dev <name> [seconds]: wait for the namespace's block device
# (the host scans namespaces after connecting; 60 s by default); prints it
fab_wait_dev() {
	i=0
	while ! fab_ns_dev "$1"; do
		if [ $i -ge $((${2:-60} * 10)) ]; then
			# shellcheck disable=SC2012
			ktap_diag "no namespace device for $1: $(ls /sys/block | tr '\n' ' ')/ $(ls -l /dev/nvme* 2>&1 | tr '\n' ' ')" >&2
			return 1
		fi
		usleep 100000
		i=$((i + 1))
	done
}

# fab_md_resync_full_speed: md throttles resync and recovery to
# speed_limit_min (1 MB/s) while other I/O runs; the tests rebuild under
# host I/O, so let it run at full speed
# (fab_finish puts the old value back)
fab_md_resync_full_speed() {
	[ -e /tmp/fab_speed_min ] ||
		cp /proc/sys/dev/raid/speed_limit_min /tmp/fab_speed_min
	echo 1000000 >/proc/sys/dev/raid/speed_limit_min
}

# --- I/O ---

# fab_fio <dev> <rw> <bs> <offset> <size> <seed> [fio options...]: write
# (or read) with crc32c verification of every block; fio's output in
# $FAB_FIO_LOG, its error lines shown when it fails.  The seed makes each
# write pass distinct, so that a lost write cannot hide behind an identical
# older one.  fio may not create files: a namespace device that went away
# must not come back as a plain file in /dev, where its successor's node
# would then be missing.
FAB_FIO_LOG=/tmp/fio.fab.log
fab_fio() {
	fd=$1 frw=$2 fbs=$3 foff=$4 fsz=$5 fseed=$6
	shift 6
	[ -b "$fd" ] || { ktap_diag "fab_fio: $fd is not a block device"; return 1; }
	fio --name=fab --filename="$fd" --allow_file_create=0 --rw="$frw" --bs="$fbs" \
		--offset="$foff" --size="$fsz" --randseed="$fseed" --ioengine=libaio --iodepth=8 \
		--direct=1 --eta=never --verify=crc32c --verify_fatal=1 \
		--output="$FAB_FIO_LOG" "$@" >/dev/null 2>&1 && return 0
	grep -iE 'err=|verify|error' "$FAB_FIO_LOG" | head -5 | sed 's/^/# /'
	return 1
}

# fab_fio_loop_start <tag> <dev> <rw> <bs> <offset> <size>: fab_fio write +
# verify passes, again and again (each with a new seed) until
# fab_fio_loop_stop; /tmp/<tag>.runs counts finished passes and
# /tmp/<tag>.fails failed ones
fab_fio_loop_start() {
	lt=$1
	shift
	rm -f "/tmp/$lt.stop"
	: >"/tmp/$lt.fails"
	echo 0 >"/tmp/$lt.runs"
	(
		FAB_FIO_LOG=/tmp/$lt.fio.log
		s=100
		while [ ! -e "/tmp/$lt.stop" ]; do
			s=$((s + 1))
			fab_fio "$1" "$2" "$3" "$4" "$5" $s --do_verify=1 ||
				echo "pass $s" >>"/tmp/$lt.fails"
			echo $((s - 100)) >"/tmp/$lt.runs.new"
			mv "/tmp/$lt.runs.new" "/tmp/$lt.runs"
		done
	) >"/tmp/$lt.out" 2>&1 &
	eval "fab_loop_$lt=\$!"
}

# fab_fio_loop_runs <tag>: passes finished so far
fab_fio_loop_runs() {
	cat "/tmp/$1.runs"
}

# fab_fio_loop_wait <tag> <passes> [seconds]: until that many more passes
# have finished
fab_fio_loop_wait() {
	w0=$(fab_fio_loop_runs "$1")
	i=0
	while [ $(($(fab_fio_loop_runs "$1") - w0)) -lt "$2" ]; do
		[ $i -lt $((${3:-120} * 10)) ] || return 1
		usleep 100000
		i=$((i + 1))
	done
}

# fab_fio_loop_stop <tag>: finish the current pass; succeeds when no pass
# failed
fab_fio_loop_stop() {
	touch "/tmp/$1.stop"
	eval "wait \$fab_loop_$1"
	cat "/tmp/$1.out"
	[ ! -s "/tmp/$1.fails" ]
}

# --- teardown ---

# fab_teardown: disconnect every controller, clear the target, remove the
# rxe device and the netdev, unload the fabric modules
fab_teardown() {
	fab_disconnect_all
	i=0
	while [ -e "$(echo /sys/class/nvme/nvme* | cut -d' ' -f1)" ] && [ $i -lt 100 ]; do
		usleep 100000
		i=$((i + 1))
	done
	fab_target_clear
	rdma link delete $FAB_RXE 2>/dev/null
	$FAB_IP link del $FAB_IF 2>/dev/null
	modprobe -r nvme-rdma nvme-tcp nvmet-rdma nvmet-tcp 2>/dev/null
	modprobe -r rdma_rxe nvmet nvme-fabrics 2>/dev/null
	return 0
}

# fab_unloaded <module...>: none of them is loaded; prints the ones left
fab_unloaded() {
	left=
	for m in "$@"; do
		[ -d "/sys/module/$(echo "$m" | tr - _)" ] && left="$left $m"
	done
	[ -z "$left" ] && return 0
	echo "$left"
	return 1
}

# fab_finish: stop every md array, tear the fabric down, remove brd,
# raid456 and ecdma; then ok "teardown_unloaded" when ecdma, raid456, the
# NVMe-oF target and host modules, rdma_rxe and the RDMA core are all gone
fab_md_stop_all() {
	for m in /sys/block/md*; do
		[ -d "$m" ] && mdadm --stop "/dev/${m##*/}" >/dev/null 2>&1
	done
	return 0
}

fab_finish() {
	# arrays over namespaces stop before the disconnect; exported ones
	# only once the target has let go of them
	fab_md_stop_all
	fab_teardown
	fab_md_stop_all
	if [ -e /tmp/fab_speed_min ]; then
		cat /tmp/fab_speed_min >/proc/sys/dev/raid/speed_limit_min
		rm /tmp/fab_speed_min
	fi
	[ -d /sys/module/brd ] && brd_teardown
	modprobe -r raid456 2>/dev/null
	modprobe -r ecdma 2>/dev/null
	if left=$(fab_unloaded ecdma raid456 nvmet nvmet-tcp nvmet-rdma nvme-tcp \
		nvme-rdma nvme-fabrics rdma_rxe rdma_cm ib_core); then
		ktap_ok teardown_unloaded
	else
		lsmod
		ktap_fail "teardown_unloaded # still loaded:$left"
	fi
	ktap_diag "fabric retries: $(fab_retries); $(awk -v t="$FAB_T0" \
		'{ printf("%.0f s", $1 - t) }' /proc/uptime)"
}

# fab_expect_moved <name> <before> <after> <op>: ok when ecdma's counter
# of <op> grew (the parity ran on ecdma, not on async_tx's CPU path)
fab_expect_moved() {
	if [ "$3" -gt "$2" ]; then
		ktap_ok "$1 # $4 ops $2 -> $3"
	else
		ktap_fail "$1 # $4 ops did not move ($2 -> $3)"
	fi
}
