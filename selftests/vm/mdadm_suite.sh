#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mdadm's own test suite (the tests/ directory of the Debian source of the
# mdadm this guest runs) on brd disks, once with ecdma not loaded (md's
# CPU path, the control) and once with ecdma loaded and offload "always",
# in one boot.  tools/testing/mdadm-tests.sh fetches and stages the
# source at $MDADM_SRC; selftests/vm/mdadm.list names the tests (those
# that exercise RAID4/5/6) and why the others are left out.
#
# One KTAP line per test per configuration (mdadm_never_loaded_<test>,
# mdadm_always_<test>), ecdma's xor/pq/xor_val/pq_val counters moved
# during the "always" pass, both pass lists, and a last line that fails
# when a test passed without ecdma but not with it.  A test that fails
# without ecdma (the suite, not ecdma) is a skip in both configurations,
# with its log.  Every test runs alone under its own timeout; a failure
# shows the tail of its log.
#
# Knobs, from /ecdma/mdadm.env (mdadm-tests.sh writes it) or the kernel
# command line (vm.sh --append):
#   MDADM_TESTS=a,b          run these instead of the list
#   MDADM_CONFIGS="..."      default "never_loaded always"
#   MDADM_TEST_TIMEOUT=SEC   per-test default (the list may say timeout=)
#   MDADM_OPTS=...           more ./test options, comma-separated
#                            (e.g. --disable-integrity)
#   MDADM_HEARTBEAT=SEC      a running test's last step every SEC [300]
#   MDADM_SLOW=1             also the tests the list marks "slow"
. /ecdma/lib.sh
. /ecdma/md_lib.sh
[ -f /ecdma/mdadm.env ] && . /ecdma/mdadm.env

MDADM_SRC=${MDADM_SRC:-/ecdma/mdadm}
MDADM_LIST=${MDADM_LIST:-/ecdma/mdadm.list}
MDADM_CONFIGS=${MDADM_CONFIGS:-"never_loaded always"}
MDADM_TEST_TIMEOUT=${MDADM_TEST_TIMEOUT:-900}
MDADM_HEARTBEAT=${MDADM_HEARTBEAT:-300}
LOGS=/tmp/mdadm-logs
# the suite's members: /dev/ram0..13 of its loop files' size (20000 KiB,
# tests/func.sh "size"); its size checks expect that
BRD_NR=14
BRD_KIB=20000
OPS="xor pq xor_val pq_val"
# a test whose processes could not be killed: nothing more runs
STUCK=

[ -x "$MDADM_SRC/test" ] || {
	ktap_fail "mdadm_source # no $MDADM_SRC/test (run tools/testing/mdadm-tests.sh)"
	ktap_exit
}

# The harness's environment: bash, a udevadm that does nothing (no udev
# here: mdadm makes its device nodes itself), the suite's tools that
# busybox lacks (vm.sh --bin), a real file system at /var/tmp (its
# targetdir: file bitmaps need bmap and mdadm -X reads them O_DIRECT,
# neither of which tmpfs does), md's other personalities.
mkdir -p /tmp/mdadm-stub "$LOGS"
printf '#!/bin/sh\nexit 0\n' >/tmp/mdadm-stub/udevadm
chmod +x /tmp/mdadm-stub/udevadm
export PATH=/tmp/mdadm-stub:$PATH
missing=
for c in bash lsblk mkfs.ext3 fsck fsck.ext3 /sbin/blockdev; do
	command -v "$c" >/dev/null || missing="$missing $c"
done
[ -z "$missing" ] || { ktap_fail "mdadm_tools # missing:$missing"; ktap_exit; }
for m in raid456 raid0 raid1 raid10 linear loop ext4; do
	modprobe -q "$m" 2>/dev/null
done
truncate -s 96M /tmp/vartmp.img
mkfs.ext3 -q -F /tmp/vartmp.img >/dev/null 2>&1 &&
	mount -o loop -t ext3 /tmp/vartmp.img /var/tmp ||
	{ ktap_fail "mdadm_var_tmp # no ext3 at /var/tmp"; ktap_exit; }

# the tests: MDADM_TESTS or the list ("name [needs=mod,...] [timeout=s]")
if [ -n "${MDADM_TESTS:-}" ]; then
	echo "$MDADM_TESTS" | tr ',' '\n' >/tmp/mdadm.tests
else
	grep -v -E '^#|^[[:space:]]*$' "$MDADM_LIST" >/tmp/mdadm.tests
fi
opts=$(echo "${MDADM_OPTS:-}" | tr ',' ' ')
ktap_diag "$(/sbin/mdadm --version 2>&1 | head -1), suite $MDADM_SRC, $(wc -l </tmp/mdadm.tests) tests, configs: $MDADM_CONFIGS, per-test timeout ${MDADM_TEST_TIMEOUT} s${opts:+, options $opts}"

# test_field <line> <key>: a key=value of a list line
test_field() {
	echo "$1" | tr ' \t' '\n\n' | sed -n "s/^$2=//p"
}

# uptime in seconds
now() {
	cut -d. -f1 /proc/uptime
}

# mdadm_reset: no array, no leftover harness, md's default speeds
mdadm_reset() {
	local w=0
	/sbin/mdadm -Ssq 2>/dev/null
	while grep -q '^md' /proc/mdstat && [ $w -lt 10 ]; do
		sleep 1
		/sbin/mdadm -Ssq 2>/dev/null
		w=$((w + 1))
	done
	if grep -q '^md' /proc/mdstat; then
		ktap_diag "arrays left that do not stop:"
		sed 's/^/#   /' /proc/mdstat
	fi
	# md's defaults (the harness slows resyncs with speed_limit_max only)
	echo 1000 >/proc/sys/dev/raid/speed_limit_min
	echo 200000 >/proc/sys/dev/raid/speed_limit_max
}

# mdadm_tail <cfg> <test>: what a failure shows
mdadm_tail() {
	local d=$LOGS/$1 t=$2
	ktap_diag "--- $t: harness output"
	tail -n 5 "$d/$t.out" | sed 's/^/#   /'
	if [ -f "$d/$t.log" ]; then
		# mdadm's complaints (the harness goes on after most)
		ktap_diag "--- $t: mdadm's first messages"
		grep -m 8 '^mdadm: ' "$d/$t.log" | sed 's/^/#   /'
		ktap_diag "--- $t: last 40 lines of its log"
		tail -n 40 "$d/$t.log" | sed 's/^/#   /'
	fi
	if [ -f "$d/fail$t.log" ]; then
		ktap_diag "--- $t: kernel log and mdstat at the failure"
		tail -n 30 "$d/fail$t.log" | sed 's/^/#   /'
	fi
}

# mdadm_failed <cfg> <test> <why>: a failed test.  Only a test that passed
# without ecdma and fails with it is ecdma's: a failure of the control
# (mdadm 4.2's suite on this kernel and brd) is reported as a skip, with
# its log, and so is the same test failing with ecdma afterwards.
mdadm_failed() {
	echo fail >"$LOGS/$1/$2.result"
	mdadm_tail "$1" "$2"
	if [ "$1" = never_loaded ]; then
		ktap_skip "mdadm_$1_$2" "fails without ecdma ($3): the control"
	elif [ "$(cat "$LOGS/never_loaded/$2.result" 2>/dev/null)" = fail ]; then
		ktap_skip "mdadm_$1_$2" "failed without ecdma too ($3)"
	else
		ktap_fail "mdadm_$1_$2 # $3"
	fi
}

# mdadm_stuck: the tasks in D state, with their kernel stacks
mdadm_stuck() {
	local p
	cat /proc/mdstat | sed 's/^/#   /'
	for p in /proc/[0-9]*; do
		grep -q '^State:.D' $p/status 2>/dev/null || continue
		ktap_diag "D: $(cat $p/comm) ($(basename $p)) wchan $(cat $p/wchan 2>/dev/null)"
		sed 's/^/#   /' $p/stack 2>/dev/null
	done
	echo w >/proc/sysrq-trigger
}

# mdadm_test <cfg> <line>: run one test of the suite alone under its
# timeout, in a session of its own (a timeout takes all its processes)
mdadm_test() {
	local cfg=$1 t w tmo needs m pid t0 hb rc secs out d o b n moved=
	t=$(echo "$2" | awk '{ print $1 }')
	tmo=$(test_field "$2" timeout)
	tmo=${tmo:-$MDADM_TEST_TIMEOUT}
	needs=$(test_field "$2" needs | tr ',' ' ')
	for m in $needs; do
		if ! grep -q "^Personalities :.*\[$m\]" /proc/mdstat; then
			ktap_skip "mdadm_${cfg}_$t" "needs md's $m personality, not in this kernel"
			echo skip >"$LOGS/$cfg/$t.result"
			return
		fi
	done
	if echo " $2 " | grep -q ' slow ' && [ "${MDADM_SLOW:-0}" != 1 ]; then
		ktap_skip "mdadm_${cfg}_$t" "slow (MDADM_SLOW=1 runs it)"
		echo skip >"$LOGS/$cfg/$t.result"
		return
	fi
	d=$LOGS/$cfg
	out=$d/$t.out
	if [ -n "$STUCK" ]; then
		echo fail >"$d/$t.result"
		ktap_fail "mdadm_${cfg}_$t # not run: $STUCK left tasks stuck"
		return
	fi
	[ "$cfg" = always ] && md_snap
	echo "ecdma-test: mdadm $cfg $t" >/dev/kmsg
	t0=$(now)
	(cd "$MDADM_SRC" && exec setsid env dir="$MDADM_SRC" bash ./test \
		--dev=ram --tests="$t" --save-logs --logdir="$d" $opts) \
		</dev/null >"$out" 2>&1 &
	pid=$!
	w=
	hb=$((t0 + MDADM_HEARTBEAT))
	while kill -0 $pid 2>/dev/null; do
		if [ "$(now)" -ge $hb ]; then
			# a long test says where it is: its last own command
			# (set -x trace: the sourced test's lines have "++"),
			# its log's size, md's state
			ktap_diag "$cfg $t: $(($(now) - t0)) s, log $(wc -c </var/tmp/log 2>/dev/null) B, last: $(grep '^++ [^+]' /var/tmp/log 2>/dev/null | tail -n 1 | cut -c1-100)"
			grep -v -E '^Personalities|^unused|^ *$' /proc/mdstat | sed 's/^/#   /'
			for f in /sys/block/md*/md/sync_action; do
				[ -r "$f" ] && ktap_diag "  $f: $(cat "$f")"
			done
			hb=$((hb + MDADM_HEARTBEAT))
		fi
		if [ $(($(now) - t0)) -ge "$tmo" ]; then
			w=timeout
			kill -TERM -$pid 2>/dev/null
			sleep 10
			kill -KILL -$pid 2>/dev/null
			break
		fi
		sleep 1
	done
	# a process that SIGKILL does not end is stuck in the kernel: say
	# where, and run nothing more in this boot
	n=0
	while kill -0 $pid 2>/dev/null && [ $n -lt 30 ]; do
		sleep 1
		n=$((n + 1))
	done
	if kill -0 $pid 2>/dev/null; then
		echo fail >"$d/$t.result"
		mdadm_tail "$cfg" "$t"
		mdadm_stuck
		ktap_fail "mdadm_${cfg}_$t # timed out after $tmo s, its processes do not die"
		STUCK=$t
		return
	fi
	wait $pid
	rc=$?
	secs=$(($(now) - t0))
	mdadm_reset
	if [ "$cfg" = always ]; then
		for o in $OPS; do
			eval "b=\$md_o_$o"
			n=$(($(ecdma_ops "$o") - b))
			[ $n = 0 ] || moved="$moved $o+$n"
		done
		moved=", ecdma:${moved:- nothing}"
	fi
	if [ "$w" = timeout ]; then
		mdadm_failed "$cfg" "$t" "timed out after $tmo s$moved"
	elif [ $rc = 0 ] && grep -q 'skipping' "$out"; then
		echo skip >"$d/$t.result"
		ktap_skip "mdadm_${cfg}_$t" "the harness skipped it ($opts)"
	elif [ $rc = 0 ] && grep -q 'succeeded' "$out"; then
		echo pass >"$d/$t.result"
		ktap_ok "mdadm_${cfg}_$t # $secs s$moved"
	else
		mdadm_failed "$cfg" "$t" "rc $rc after $secs s$moved"
	fi
}

# mdadm_config <cfg>: the whole list in one configuration
mdadm_config() {
	local cfg=$1 line o b n t0 all
	mkdir -p "$LOGS/$cfg"
	modprobe -r brd 2>/dev/null
	modprobe brd rd_nr=$BRD_NR rd_size=$BRD_KIB max_part=0 ||
		{ ktap_fail "mdadm_${cfg}_brd"; return; }
	if [ -n "$STUCK" ]; then
		ktap_fail "mdadm_${cfg}_not_run # $STUCK left tasks stuck"
		return
	fi
	case $cfg in
	never_loaded)
		if grep -q '^ecdma ' /proc/modules; then
			ktap_fail "mdadm_${cfg}_ecdma_absent # ecdma is loaded"
			return
		fi
		;;
	always)
		# raid456 again once ecdma is there, as on a machine
		# that loads ecdma at boot
		modprobe -r raid456 2>/dev/null
		if ! modprobe ecdma; then
			ktap_fail "mdadm_${cfg}_ecdma_loads"
			return
		fi
		md_mode always
		modprobe raid456
		for o in $OPS; do
			eval "c0_$o=$(ecdma_ops "$o")"
		done
		;;
	*)
		ktap_fail "mdadm_config_$cfg # unknown configuration"
		return
		;;
	esac
	ktap_diag "$cfg: $(grep -c . /tmp/mdadm.tests) tests from $(now) s"
	t0=$(now)
	while read -r line; do
		mdadm_test "$cfg" "$line" </dev/null
	done </tmp/mdadm.tests
	ktap_diag "$cfg: done in $(($(now) - t0)) s"
	if [ "$cfg" = always ]; then
		# the offload happened: every kind of operation md uses
		# moved (some kind, when MDADM_TESTS picked a few tests)
		all=0
		for o in $OPS; do
			eval "b=\$c0_$o"
			n=$(($(ecdma_ops "$o") - b))
			all=$((all + n))
			[ -n "${MDADM_TESTS:-}" ] ||
				ktap_check "mdadm_always_offloaded_$o # +$n" [ "$n" -gt 0 ]
		done
		[ -z "${MDADM_TESTS:-}" ] ||
			ktap_check "mdadm_always_offloaded # +$all" [ "$all" -gt 0 ]
	fi
	modprobe -r brd
}

for cfg in $MDADM_CONFIGS; do
	mdadm_config "$cfg"
done

# the pass lists, and no test that passed without ecdma fails with it
for cfg in $MDADM_CONFIGS; do
	ktap_diag "passed ($cfg):$(cd "$LOGS/$cfg" && grep -l '^pass$' *.result 2>/dev/null | sed 's/\.result$//' | tr '\n' ' ' | sed 's/^/ /')"
done
if echo " $MDADM_CONFIGS " | grep -q ' never_loaded .*always '; then
	lost=
	np=0
	while read -r line; do
		t=$(echo "$line" | awk '{ print $1 }')
		[ "$(cat "$LOGS/never_loaded/$t.result" 2>/dev/null)" = pass ] ||
			continue
		np=$((np + 1))
		[ "$(cat "$LOGS/always/$t.result" 2>/dev/null)" = pass ] ||
			lost="$lost $t"
	done </tmp/mdadm.tests
	if [ -z "$lost" ]; then
		ktap_ok "mdadm_ecdma_passes_what_md_passes # all $np"
	else
		ktap_fail "mdadm_ecdma_passes_what_md_passes # failed with ecdma only:$lost"
	fi
fi

[ -n "$STUCK" ] && ktap_exit
umount /var/tmp
if grep -q '^ecdma ' /proc/modules; then
	echo always >"$ECDMA_DEV/offload"
	modprobe -r raid456
	ktap_check mdadm_ecdma_unloads modprobe -r ecdma
fi
ktap_exit
