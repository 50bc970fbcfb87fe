# SPDX-License-Identifier: GPL-2.0
#
# Helpers for guest test scripts (busybox sh).  Source with ". /ecdma/lib.sh".
# Each script prints KTAP result lines; the runner numbers them per script.

ktap_n=0
ktap_failed=0

# VM_TIMES=1 on the kernel command line: each result line follows a
# "# time <uptime>" line, for per-test timings (the uptime read forks
# nothing, so it costs the tests no time)
ktap_time() {
	local up rest
	[ -n "${VM_TIMES:-}" ] || return 0
	read -r up rest </proc/uptime
	echo "# time $up"
}

ktap_ok() {
	ktap_time
	ktap_n=$((ktap_n + 1))
	echo "ok $ktap_n $*"
}

ktap_fail() {
	ktap_time
	ktap_n=$((ktap_n + 1))
	ktap_failed=$((ktap_failed + 1))
	echo "not ok $ktap_n $*"
}

ktap_skip() {
	name=$1
	shift
	ktap_time
	ktap_n=$((ktap_n + 1))
	echo "ok $ktap_n $name # SKIP $*"
}

# ktap_check <name> <command...>: ok when the command succeeds.
ktap_check() {
	name=$1
	shift
	if "$@"; then
		ktap_ok "$name"
	else
		ktap_fail "$name"
	fi
}

ktap_diag() {
	echo "# $*"
}

ktap_exit() {
	[ "$ktap_failed" -eq 0 ]
	exit $?
}

# sysfs path of the front under test: ecdma's platform device, or in the
# simulator lanes (ECDMA_HWSIM=1 on the kernel command line) the simulated
# engine's device, once ecdma_load has loaded it
ECDMA_MAIN=/sys/devices/platform/ecdma
ECDMA_DEV=$ECDMA_MAIN
HWSIM_DEV=

# ecdma_load: load ecdma with the offload policy "always", so that every
# operation async_tx may offload goes to ecdma, whatever the load: the
# tests assert that the offload happened.  ("auto", the default, declines
# while every CPU is busy; knobs_load.sh and md_raid.sh cover it.)
ecdma_load() {
	ecdma_modprobe && echo always >"$ECDMA_DEV/offload"
}

# ecdma_modprobe: load ecdma, and in the simulator lanes the simulator
# (hwsim_load), its policy left as it is
ecdma_modprobe() {
	modprobe ecdma || return 1
	[ -z "${ECDMA_HWSIM:-}" ] || hwsim_load
}

# hwsim_load: the simulated engine device (ecdma_hwsim) takes async_tx's
# work: ecdma's own front leaves the channel table, ECDMA_DEV becomes the
# simulator's device (QEMU's edu function, or a platform device)
hwsim_load() {
	local d
	echo never >"$ECDMA_MAIN/offload" && modprobe ecdma_hwsim || return 1
	for d in /sys/bus/pci/drivers/ecdma_hwsim/0000:* \
		/sys/devices/platform/ecdma_hwsim; do
		[ -d "$d/hwsim" ] && HWSIM_DEV=$d
	done
	[ -n "$HWSIM_DEV" ] || return 1
	ECDMA_DEV=$HWSIM_DEV
}

# hwsim_stat <name>: a counter of the simulated device (0 if not loaded)
hwsim_stat() {
	cat "$HWSIM_DEV/hwsim/$1" 2>/dev/null || echo 0
}

# hwsim_unload: the simulator goes first (it depends on ecdma), and its
# engine must never have met an address it cannot reach: one that is not
# its own DMA address (a CPU address, another device's mapping)
hwsim_unload() {
	local f s
	[ -n "$HWSIM_DEV" ] && [ -d "$HWSIM_DEV/hwsim" ] || return 0
	f=$(hwsim_stat dma_faults)
	s=$(hwsim_stat sqes)
	if [ "$f" = 0 ]; then
		ktap_ok "hwsim_no_dma_fault # $s descriptors"
	else
		ktap_fail "hwsim_no_dma_fault # $f of $s descriptors reached an address that is not the device's"
	fi
	command modprobe -r ecdma_hwsim
	ECDMA_DEV=$ECDMA_MAIN
	HWSIM_DEV=
}

# In the simulator lanes a script's "modprobe -r ecdma" unloads the
# simulator first
if [ -n "${ECDMA_HWSIM:-}" ]; then
	modprobe() {
		if [ "$1" = -r ] && [ "$2" = ecdma ]; then
			hwsim_unload
		fi
		command modprobe "$@"
	}
fi

# ecdma_stat <file>: a counter under the device's stats directory (0 if absent)
ecdma_stat() {
	ecdma_stat_read "$1"
	echo "$ECDMA_STAT"
}

# ecdma_stat_read <name>: ECDMA_STAT = that counter, 0 if not loaded, read
# without forking a process: under md load on the debug kernel each fork can
# cost half a second (pollers use this, not $(ecdma_stat ...))
ecdma_stat_read() {
	{ read -r ECDMA_STAT <"$ECDMA_DEV/stats/$1"; } 2>/dev/null || ECDMA_STAT=0
}

# ecdma_ops_sum: ECDMA_OPS = every operation ecdma completed (memcpy, xor,
# xor_val, pq, pq_val), read without forking a process
ecdma_ops_sum() {
	local op
	ECDMA_OPS=0
	for op in xor xor_val pq pq_val memcpy; do
		ecdma_stat_read "${op}_ops"
		ECDMA_OPS=$((ECDMA_OPS + ECDMA_STAT))
	done
}

# ecdma_ops <op>: operations of type <op> (memcpy, xor, xor_val, pq, pq_val,
# interrupt) completed by ecdma over all channels; 0 if not loaded
ecdma_ops() {
	ecdma_stat "$1_ops"
}

# vm_scaled <n> <least>: n divided by VM_SCALE (kernel command line: 2 on
# the stock lanes, 4 on the debug kernel), at least <least>
vm_scaled() {
	local v=$(($1 / ${VM_SCALE:-1}))
	[ "$v" -ge "$2" ] || v=$2
	echo "$v"
}

# brd_setup <count> <size-MiB>: /dev/ram0..count-1
brd_setup() {
	modprobe brd rd_nr="$1" rd_size=$(($2 * 1024)) max_part=0
}

brd_teardown() {
	modprobe -r brd
}

# brd_write_once <count> <size-MiB>: write /dev/ram0..count-1 whole.  brd
# allocates (and clears) a page at the first write of each sector, so a
# comparison that does not do this first has its first config pay for all
# (md alone, measured first, looked 1.2x slower than it is; issue 23)
brd_write_once() {
	local i=0

	while [ $i -lt "$1" ]; do
		dd if=/dev/zero of=/dev/ram$i bs=1M count="$2" oflag=direct 2>/dev/null
		i=$((i + 1))
	done
}

# fio_mem_setup: $FIO_MEM, the fio option that puts a measuring job's I/O
# buffers on 2 MiB hugetlbfs pages, for every sample alike.  fio's own
# buffer gets a transparent huge page or not by where its mapping lands
# (ASLR), and direct I/O pins and maps it in 2 MiB or 4 KiB pieces: md
# RAID6 reads moved by 30% between samples of one config on that alone,
# and by 5-12% on 4 KiB pages (performance-history.rst, 2026-12-05).
# Without hugetlbfs: empty, and transparent huge pages off
FIO_HUGE=/mnt/fio-huge
fio_mem_setup() {
	FIO_MEM=
	mkdir -p "$FIO_HUGE"
	if grep -q " $FIO_HUGE hugetlbfs " /proc/mounts ||
	   mount -t hugetlbfs none "$FIO_HUGE" 2>/dev/null; then
		# 32 MiB: a job's buffer is iodepth x bs, 7 MiB at most
		echo 16 >/proc/sys/vm/nr_hugepages
		[ "$(awk '/^HugePages_Free/ { print $2 }' /proc/meminfo)" -lt 8 ] ||
			FIO_MEM=--mem=mmaphuge:$FIO_HUGE/buf
	fi
	[ -n "$FIO_MEM" ] || ktap_diag "no hugetlbfs pages: fio's buffers on 4 KiB pages"
	[ -n "$FIO_MEM" ] || [ ! -w /sys/kernel/mm/transparent_hugepage/enabled ] ||
		echo never >/sys/kernel/mm/transparent_hugepage/enabled
}

# fio_mem_teardown: the pages back for the scripts after this one
fio_mem_teardown() {
	rm -f "$FIO_HUGE/buf"
	umount "$FIO_HUGE" 2>/dev/null
	echo 0 >/proc/sys/vm/nr_hugepages
}

# dmatest_wait: until dmatest's threads are done.  Reading its "run"
# polls; reading "wait" would block in D state, and a run slower than
# hung_task_timeout_secs (the debug kernel on a loaded host: 3 iops) has
# the kernel print a hung-task trace over the console
dmatest_wait() {
	i=0
	while [ "$(cat /sys/module/dmatest/parameters/run)" = Y ]; do
		usleep 200000
		i=$((i + 1))
		[ $i -lt 9000 ] || return 1
	done
	return 0
}

# md_wait_idle <md>: wait for resync/recovery/check to finish
md_wait_idle() {
	md=$1
	i=0
	while [ "$(cat /sys/block/"$md"/md/sync_action)" != idle ]; do
		usleep 200000
		i=$((i + 1))
		[ $i -lt 3000 ] || return 1
	done
	return 0
}

# md_check <md>: run a parity check; prints mismatch_cnt
md_check() {
	md=$1
	echo check >/sys/block/"$md"/md/sync_action
	usleep 200000
	md_wait_idle "$md" || return 1
	cat /sys/block/"$md"/md/mismatch_cnt
}

# kmod_ktap <module> <tag> [params...]: load a test module whose init runs
# its tests and prints "<module>: ok N name" lines and "N passed, M failed"
# (the load fails when a test failed); report each line as "<tag>_name",
# then "<tag>_module_passed".  The module is removed again (rmmod: modprobe
# -r would take its unused dependencies, ecdma, along).
kmod_ktap() {
	km=$1
	kt=$2
	shift 2
	dmesg -c >/dev/null
	modprobe "$km" "$@"
	kmod_ktap_report "$km" "$kt" $?
	rmmod "$km" 2>/dev/null
}

# kmod_ktap_report <module> <tag> <modprobe rc>: kmod_ktap's report, for a
# test module loaded by other means (in the background, say); reads the
# kernel log since the last "dmesg -c".
kmod_ktap_report() {
	km=$1
	kt=$2
	krc=$3
	dmesg | sed -n "s/.*$km: //p" >/tmp/$km.ktap
	kn=0
	while read -r line; do
		case "$line" in
		"not ok "*)
			name=${line#not ok }
			ktap_fail "${kt}_${name#* }"
			kn=$((kn + 1))
			;;
		"ok "*)
			name=${line#ok }
			ktap_ok "${kt}_${name#* }"
			kn=$((kn + 1))
			;;
		"# "*)
			echo "$line"
			;;
		esac
	done </tmp/$km.ktap
	ksum=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' /tmp/$km.ktap)
	ktap_diag "$km $kt: ${ksum:-no summary} (modprobe rc=$krc)"
	if [ -n "$ksum" ] && [ "$kn" -gt 0 ] &&
		[ "${ksum#* passed, }" = "0 failed" ] && [ "$krc" -eq 0 ]; then
		ktap_ok "${kt}_module_passed"
	else
		ktap_fail "${kt}_module_passed"
	fi
}

# --- tracefs, for the scripts that read ecdma's events ---
TRACEFS=/sys/kernel/tracing

# trace_mount: tracefs mounted with its events; false on a kernel without
# CONFIG_EVENT_TRACING
trace_mount() {
	[ -d $TRACEFS/events ] || mount -t tracefs nodev $TRACEFS 2>/dev/null
	[ -d $TRACEFS/events ]
}

# trace_lost: events the ring buffer dropped (overrun), over every CPU
trace_lost() {
	cat $TRACEFS/per_cpu/cpu*/stats |
		awk '/^overrun:/ { s += $2 } END { print s + 0 }'
}

# TRACE_V: an awk function for trace lines, put before a program:
# v("name") is the line's name=value field, a number when it is one, ""
# when the line has none
# shellcheck disable=SC2016
TRACE_V='function v(k,  i, s) {
	for (i = 1; i <= NF; i++)
		if (index($i, k "=") == 1) {
			s = substr($i, length(k) + 2)
			return s ~ /^-?[0-9]+$/ ? s + 0 : s
		}
	return ""
}'
