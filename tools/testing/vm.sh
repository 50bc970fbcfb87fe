#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a pinned Debian kernel in QEMU (TCG, no KVM) with a busybox initramfs
# holding ecdma's built modules, the kernel's own modules, mdadm, fio,
# nvme-cli and the test scripts; run the scripts in the guest; collect their
# KTAP output and scan the kernel console.
#
# The guest writes test output to its second serial port and the kernel
# console goes to the first, so kernel messages never interleave with KTAP.
#
# Exit status: 0 when every test passed, the end marker was seen and the
# console is clean; 1 otherwise; 2 on usage errors.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${ECDMA_CACHE:-$top/.cache}

usage() {
	cat <<EOF
usage: vm.sh [options] [--] script...
  --kernel TAG     kernel tag or ABI from tools/testing/kernels (default 6.1),
                   or "debug" for the debug kernel (debug-kernel.sh)
  --cpu MODEL      QEMU CPU model: max (AVX2, default) or qemu64 (no AVX)
  --build DIR      built tree from tools/testing/build.sh (default build/<abi>)
  --timeout SEC    whole-run timeout (default 1200)
  --out DIR        where to keep console.log and ktap.log (default: temp)
  --append ARGS    extra kernel command line
  --qemu ARGS      extra QEMU arguments, split at spaces (a machine, devices:
                   "-M q35 -device intel-iommu,intremap=off -device edu")
  --mem MIB        guest memory (default 2048; 3072 for the debug kernel)
  --quiet          print only the KTAP summary, not the guest output
  --bench          boot without slub_debug (benchmarks: its allocation
                   tracking makes every slab allocation a stack walk)
  --tcg MODE       multi (default): a host thread per vCPU; single: QEMU
                   runs the two vCPUs in turn on one host thread (the test
                   lanes, vm-tests.sh: faster when boots share the CPUs)
  --icount SHIFT   guest time from instructions executed, 2^SHIFT ns
                   each (QEMU -icount, single-threaded TCG, the CPU
                   without CMPXCHG16B): timings of the guest's own work
                   that host load does not move
  --bin PATH       also copy this host binary (and its libraries) into the
                   guest, e.g. /usr/bin/perf for profiling; repeatable
  --copy SRC:DST   also copy this host file or directory (cp -a) to DST in
                   the guest; repeatable
  --kmod NAME      also put this kernel module (and its dependencies) into
                   the guest; repeatable
  --test-timeout SEC  per-script timeout in the guest (default 900)
Scripts are guest shell scripts (selftests/vm/*.sh); they run in order.
EOF
}

kernel=6.1
cpu=max
build=
timeout_s=1200
out=
append=
qemu_extra=()
mem=
quiet=
scripts=()
extra_bins=()
extra_copies=()
extra_kmods=
test_timeout=900
slub=slub_debug=FZPU
tcg=multi
icount=
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=$2; shift 2 ;;
	--cpu) cpu=$2; shift 2 ;;
	--build) build=$2; shift 2 ;;
	--timeout) timeout_s=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--qemu) read -r -a qemu_extra <<<"$2"; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--quiet) quiet=1; shift ;;
	--bench) slub=; shift ;;
	--tcg) tcg=$2; shift 2 ;;
	--icount) icount=$2; shift 2 ;;
	--bin) extra_bins+=("$2"); shift 2 ;;
	--copy) extra_copies+=("$2"); shift 2 ;;
	--kmod) extra_kmods="$extra_kmods $2"; shift 2 ;;
	--test-timeout) test_timeout=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	--) shift; scripts+=("$@"); break ;;
	-*) echo "vm.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
	*) scripts+=("$1"); shift ;;
	esac
done
[ ${#scripts[@]} -gt 0 ] || { echo "vm.sh: no test scripts given" >&2; exit 2; }
case "$tcg" in
single|multi) ;;
*) echo "vm.sh: --tcg takes single or multi, not '$tcg'" >&2; exit 2 ;;
esac
icountarg=()
cpuflags=
if [ -n "$icount" ]; then
	case "$icount" in
	[0-9]|10) ;;
	*) echo "vm.sh: --icount takes a shift of 0 to 10, not '$icount'" >&2; exit 2 ;;
	esac
	# QEMU counts instructions only in single-threaded TCG.  sleep=off:
	# an idle guest jumps to its next timer, so waiting costs no time
	tcg=single
	icountarg=(-icount "shift=$icount,sleep=off")
	# for the guest's scripts: what their clock is.  maxcpus=1: 6.1 does
	# not bring its second CPU up at boot under -icount (the boot stops at
	# "Booting SMP configuration": its boot CPU spins while the other
	# vCPU never runs); onlined from init, through CPU hotplug, it does
	append="$append maxcpus=1 ECDMA_ICOUNT=$icount"
	# -cx16 (below): with CMPXCHG16B, QEMU 7.2's icount TCG double-faulted
	# the guest in SLUB's allocation fast path (this_cpu_cmpxchg16b, EFLAGS
	# garbage) in 3 of 5 full make perf runs; without it the kernel takes
	# its own emulation of that instruction (irqs off), and the runs since
	# completed
	cpuflags=,-cx16
fi

# kernel-specific command line
kargs=
if [ "$kernel" = debug ]; then
	dbg=$("$top/tools/testing/debug-kernel.sh" --path) || exit 2
	abi=$(cat "$dbg/release")
	kimg=$dbg/root
	# KASAN's shadow and kmemleak's metadata need room
	mem=${mem:-3072}
	# No slub_debug: KASAN checks every access against its own redzones
	# and quarantine and reports out-of-bounds, use-after-free and double
	# or invalid frees where they happen (as "BUG: KASAN", which the
	# console check fails), with both stacks; slub_debug's F, Z and P
	# find a subset later, on free or validation, and cost the debug
	# lane about an eighth more (Documentation/testing.rst).  The stock
	# lanes keep slub_debug=FZPU, so SLUB's own checks still run
	slub=
	# Seed the RNG from RDRAND at boot, as Debian's kernels do
	# (RANDOM_TRUST_CPU=y there, off in an allnoconfig build).  Without
	# it the crng waited for interrupt entropy, once over two minutes on
	# a loaded host, and %p printed "(____ptrval____)" until then: every
	# op of rdma_ec.sh's trace the same pointer, its pairing broken
	kargs=random.trust_cpu=on
else
	# shellcheck source=tools/testing/kernels.sh
	. "$top/tools/testing/kernels.sh"
	abi=$(kernel_abi "$kernel")
	kimg=$cache/kernel-$abi
fi
mem=${mem:-2048}
build=${build:-$top/build/$abi}
[ -f "$kimg/.done" ] || { echo "vm.sh: kernel $abi not unpacked (run make deps)" >&2; exit 2; }
[ -d "$build" ] || { echo "vm.sh: no build tree $build (run tools/testing/build.sh $kernel)" >&2; exit 2; }
command -v qemu-system-x86_64 >/dev/null || { echo "vm.sh: qemu-system-x86_64 missing (run make deps)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/ecdma-vm.XXXXXX")
trap 'rm -rf "$work"' EXIT
[ -n "$out" ] || out=$work/out
mkdir -p "$out"
root=$work/root
mkdir -p "$root"/{bin,sbin,etc,proc,sys,dev,tmp,run,mnt,root,lib64,ecdma/tests,ecdma/bin,var/tmp}

# --- userspace: busybox + dynamically linked tools with their libraries ---
cp /bin/busybox "$root/bin/busybox"
# fio without its engine libraries (tools/testing/fio-lean.sh: it starts
# several times faster), built once per fio binary into the cache;
# ECDMA_FIO_FULL=1 or a failure to build it: Debian's fio whole
fio_lean=
if [ -x /usr/bin/fio ] && [ -z "${ECDMA_FIO_FULL:-}" ]; then
	fio_lean=$cache/fio-lean/$(cat /usr/bin/fio "$top/tools/testing/fio-lean.sh" |
		sha1sum | cut -c1-12)
	if [ ! -f "$fio_lean/keep" ]; then
		# a run beside this one may build it too: the first rename wins
		if "$top/tools/testing/fio-lean.sh" /usr/bin/fio "$fio_lean.$$" >&2; then
			mv -T "$fio_lean.$$" "$fio_lean" 2>/dev/null || rm -rf "$fio_lean.$$"
		else
			rm -rf "$fio_lean.$$"
			echo "vm.sh: no lean fio; the guest gets Debian's fio whole" >&2
		fi
	fi
	[ -f "$fio_lean/keep" ] || fio_lean=
fi
if [ -n "$fio_lean" ]; then
	mkdir -p "$root/usr/lib/ecdma-fio" "$root/usr/bin"
	cp "$fio_lean"/fio "$fio_lean"/lib*.so.* "$root/usr/lib/ecdma-fio/"
	while read -r lib; do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done <"$fio_lean/keep"
	printf '#!/bin/sh\nLD_LIBRARY_PATH=/usr/lib/ecdma-fio exec /usr/lib/ecdma-fio/fio "$@"\n' \
		>"$root/usr/bin/fio"
	chmod +x "$root/usr/bin/fio"
fi
# iproute2's ip and rdma for the fabric tests (busybox's own ip applet has
# no dummy links; guest scripts call /usr/sbin/ip by its full path)
for b in /sbin/mdadm /usr/bin/fio /usr/sbin/nvme /bin/kmod /usr/bin/rdma \
	/usr/sbin/ip ${extra_bins[@]+"${extra_bins[@]}"}; do
	[ -x "$b" ] || continue
	[ "$b" = /usr/bin/fio ] && [ -n "$fio_lean" ] && continue
	mkdir -p "$root$(dirname "$b")"
	cp -L "$b" "$root$b"
	ldd "$b" | awk '/=>/ { print $3 } /^\t\/lib/ { print $1 }' | while read -r lib; do
		[ -f "$root$lib" ] || { mkdir -p "$root$(dirname "$lib")"; cp -L "$lib" "$root$lib"; }
	done
done
for t in modprobe insmod rmmod lsmod modinfo depmod; do
	ln -sf /bin/kmod "$root/sbin/$t"
done
# Our userspace binaries (control tool, test helpers), when built; the
# control tool is rebuilt if its source changed, so a stale one never ships.
make -s -C "$top/tools/ecdmactl" >/dev/null || exit 2
for b in "$top"/tools/ecdmactl/ecdmactl "$build"/bin/*; do
	[ -x "$b" ] && cp "$b" "$root/ecdma/bin/"
done
echo "root:x:0:0:root:/root:/bin/sh" >"$root/etc/passwd"
echo "root:x:0:" >"$root/etc/group"
# nvme-cli's host identity (nvme connect reads them; one fixed guest host)
mkdir -p "$root/etc/nvme"
echo 8d4e7a52-ec0d-4a11-9b3e-ecd3a0000001 >"$root/etc/nvme/hostid"
echo "nqn.2014-08.org.nvmexpress:uuid:$(cat "$root/etc/nvme/hostid")" >"$root/etc/nvme/hostnqn"

# --- kernel modules: the ones tests need, with dependencies, uncompressed ---
# The fabric tests (selftests/vm/fabric_*.sh): rxe asks the crypto API for
# crc32 at run time (no modprobe dependency), nvme-tcp digests use crc32c.
kmods="raid456 md-mod brd null_blk rdma_rxe ib_core ib_uverbs nvmet nvmet-tcp
       nvme-tcp nvme-fabrics configfs veth loop async_raid6_recov async_pq
       async_xor async_memcpy raid6_pq xor nvmet-rdma nvme-rdma rdma_cm dummy
       crc32_generic crc32-pclmul crc32c_generic crc32c-intel$extra_kmods"
mdir=lib/modules/$abi
mkdir -p "$root/$mdir/extra"
for f in modules.order modules.builtin modules.builtin.modinfo; do
	[ -f "$kimg/$mdir/$f" ] && cp "$kimg/$mdir/$f" "$root/$mdir/"
done
# (a module the kernel lacks is left out: the debug kernel has no
# crc32-pclmul or crc32c-intel)
for m in $kmods; do
	modprobe -d "$kimg" -S "$abi" --show-depends "$m" 2>/dev/null |
		awk '$1 == "insmod" { print $2 }' || :
done | sort -u | while read -r ko; do
	rel=${ko#"$kimg"/}
	dst=$root/${rel%.xz}
	dst=${dst%.zst}
	mkdir -p "$(dirname "$dst")"
	case "$ko" in
	*.xz) xz -dc "$ko" >"$dst" ;;
	*.zst) zstd -qdc "$ko" >"$dst" ;;
	*) cp "$ko" "$dst" ;;
	esac
done
# ecdma + test modules + modules built from the kernel source package,
# under a shared lock: build.sh, building the same tree for another
# run or for the static checks, holds it exclusively
(
	flock -s 9
	find "$build" -name '*.ko' -exec cp {} "$root/$mdir/extra/" \;
) 9>"$build/.lock"
depmod -b "$root" "$abi"

# --- tests ---
cp "$top/selftests/vm/lib.sh" "$root/ecdma/lib.sh"
cp "$top/selftests/vm/fabric_lib.sh" "$root/ecdma/fabric_lib.sh"
cp "$top/selftests/vm/modlog.sh" "$root/ecdma/modlog.sh"
cp "$top/selftests/vm/md_lib.sh" "$root/ecdma/md_lib.sh"
i=0
for s in "${scripts[@]}"; do
	i=$((i + 1))
	cp "$s" "$root/ecdma/tests/$(printf %02d "$i")-$(basename "$s")"
done
[ -d "$top/selftests/vm/data" ] && cp -r "$top/selftests/vm/data" "$root/ecdma/"
for c in ${extra_copies[@]+"${extra_copies[@]}"}; do
	src=${c%%:*}
	dst=$root/${c#*:}
	[ "$src" != "$c" ] && [ -e "$src" ] ||
		{ echo "vm.sh: --copy $c: want an existing SRC:DST" >&2; exit 2; }
	mkdir -p "$(dirname "$dst")"
	cp -a "$src" "$dst"
done
# the fio jobs and make perf's guest runners (perf_smoke.sh and
# fabric_perf_smoke.sh use them)
mkdir -p "$root/ecdma/fio"
cp "$top"/tools/fio/*.fio "$top/tools/fio/perf-guest.sh" \
	"$top/tools/fio/fabric-guest.sh" "$root/ecdma/fio/"

cat >"$root/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/ecdma/bin:/sbin:/usr/sbin:/bin:/usr/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t debugfs debugfs /sys/kernel/debug
ln -s /proc/self/fd /dev/fd
# log module loads for kmemleak.sh (kernels with CONFIG_UEVENT_HELPER)
: >/tmp/modlog
[ -w /proc/sys/kernel/hotplug ] && echo /ecdma/modlog.sh >/proc/sys/kernel/hotplug
# vm.sh --icount boots one CPU (maxcpus=1): the others come up here
if grep -q ECDMA_ICOUNT= /proc/cmdline; then
	for c in /sys/devices/system/cpu/cpu[1-9]*/online; do
		[ -e "$c" ] && echo 1 >"$c"
	done
fi
# Test output goes to the second serial port; kernel messages to the first.
exec >/dev/ttyS1 2>&1
echo
echo "ECDMA-VM-START $(uname -r) cpus=$(nproc)"
# a beat on the console every 30 s, through printk (polled serial, timers):
# vm.sh takes a silence on both ports for a guest that stopped
( while :; do sleep 30; echo "<6>ecdma-vm: heartbeat" >/dev/kmsg; done ) &
for t in /ecdma/tests/*; do
	name=$(basename "$t" .sh)
	name=${name#[0-9][0-9]-}
	echo "ECDMA-TEST-BEGIN $name"
	# the console says which test a kernel report came from
	echo "ecdma-test: begin $name" >/dev/kmsg
	t0=$(cut -d' ' -f1 /proc/uptime)
	timeout "${ECDMA_TEST_TIMEOUT:-900}" sh "$t"
	rc=$?
	case $rc in
	124|137|143)
		# cut off: what it left running or assembled would fail the
		# next scripts on busy disks (2026-12-03: md_raid cut off on a
		# loaded host, the four md scripts after it found brd in use)
		killall -q -KILL fio mdadm
		for m in /dev/md[0-9]*; do
			[ -b "$m" ] && mdadm --stop "$m" >/dev/null 2>&1
		done
		modprobe -r brd 2>/dev/null
		echo "ecdma-test: $name cut off after rc=$rc, its fio and arrays stopped" >/dev/kmsg
		;;
	esac
	echo "ECDMA-TEST-END $name rc=$rc secs=$(awk -v a="$t0" '{ printf("%.0f", $1 - a) }' /proc/uptime)"
done
echo "ECDMA-VM-END"
sync
# vm.sh's test of its stall watch: stay up until vm.sh pauses the guest
grep -q ECDMA_VM_FREEZE= /proc/cmdline && sleep 600
poweroff -f
EOF
chmod +x "$root/init"

(cd "$root" && find . | cpio -o -H newc --quiet) >"$work/initrd.cpio"

case "$cpu" in
max) cpuarg=max ;;
default|qemu64) cpuarg=qemu64 ;;
*) cpuarg=$cpu ;;
esac
cpuarg=$cpuarg$cpuflags

: >"$out/console.log"
: >"$out/ktap.log"
start=$(date +%s)
# tsc=reliable: under TCG on a loaded host the clocksource watchdog finds
# the TSC "skewed" against the HPET and marks it unstable at run time;
# the sched_clock static key it then patches has oopsed a vCPU on int3
# (sched_clock_cpu, during the hotplug test).  The emulated TSC follows
# the host clock: trusting it takes that patching out of every run.
clock=tsc=reliable
# The lockup and RCU stall detectors count wall-clock seconds, and a TCG
# vCPU on a loaded host runs a fraction of them: rxe's softirq loop of a
# 14 MiB ec_send ran 52 s on the debug kernel beside three boots.  At 60 s
# they still catch a hang (syzbot's emulated runs widen them the same way).
clock="$clock watchdog_thresh=30 rcupdate.rcu_cpu_stall_timeout=60"
# A boot that stalls before init is booted once more.  Seen once
# (2026-11-28, the debug kernel on a loaded host): the console stopped at
# 0.7 s of guest time, before the second CPU came up, and QEMU sat idle
# (2 CPU minutes in 31) until the whole run's timeout, 85 minutes.  None
# of ecdma has run by then, so a second boot hides nothing of ours; the
# stalled console is kept as console.stalled.log.  Stalled: no
# ECDMA-VM-START yet and no console output for ECDMA_BOOT_STALL seconds
# (default 300: a booting guest prints every few seconds, even on a
# loaded host).  ECDMA_VM_STALL_ONCE=1 makes the first boot one that
# never starts (QEMU's -S), for the test of this (vm-tests.sh's swiotlb
# run).
boot_stall=${ECDMA_BOOT_STALL:-300}
# A guest that stops after init: no byte on either serial port for
# ECDMA_VM_STALL seconds (default 180), while it beats on its console every
# 30 s (init above), with printk, which needs no interrupt but timers.  Seen
# (issue 59): a reshape where the guest went silent, no hung-task, lockup
# or RCU report, QEMU nearly idle.  vm.sh then saves QEMU's view (vCPUs,
# registers, local APICs, PIC, IRQs: stall.txt, through the monitor) and
# sends an NMI, which the guest (unknown_nmi_panic, panic_print: tasks,
# timers, every CPU's backtrace) turns into a report on the console.  Not
# under --icount, whose guest seconds are not the host's.
# ECDMA_VM_FREEZE=1 tests this: the guest is paused (monitor "stop") once
# its tests ended, and the run passes only if the stall was seen and
# QEMU's state saved (guest_stall_dumped; vm-tests.sh's swiotlb run).
vm_stall=${ECDMA_VM_STALL:-180}
[ -z "$icount" ] || vm_stall=${ECDMA_VM_STALL:-0}
mon=$work/monitor.sock
freeze=${ECDMA_VM_FREEZE:+wanted}
[ -z "$freeze" ] || append="$append ECDMA_VM_FREEZE=1"

# vm_watch: after init, until QEMU exits: a silent guest is dumped, NMIed
vm_watch() {
	local size=-1 since now s t
	since=$(date +%s)
	while kill -0 "$qpid" 2>/dev/null; do
		now=$(date +%s)
		s=$(($(stat -c %s "$out/console.log") + $(stat -c %s "$out/ktap.log")))
		if [ "$freeze" = wanted ] && grep -q ECDMA-VM-END "$out/ktap.log"; then
			python3 -B "$top/tools/testing/qmon.py" "$mon" stop >/dev/null 2>&1
			freeze=paused
		fi
		if [ "$s" != "$size" ]; then
			size=$s
			since=$now
		elif [ "$vm_stall" -gt 0 ] && [ $((now - since)) -ge "$vm_stall" ]; then
			if [ "$freeze" = paused ]; then
				python3 -B "$top/tools/testing/qmon.py" "$mon" \
					"info registers -a" >"$out/stall.txt" 2>&1
				grep -q 'RIP=' "$out/stall.txt" && freeze=seen
				kill "$qpid" 2>/dev/null
				return
			fi
			t=$(sed -n 's/^ECDMA-TEST-BEGIN //p' "$out/ktap.log" | tail -n 1)
			echo "# vm.sh: guest stalled: no output for $vm_stall s, $((now - start)) s in, during ${t:-no test}; QEMU's state in stall.txt, then an NMI"
			python3 -B "$top/tools/testing/qmon.py" "$mon" "info status" \
				"info cpus" "info registers -a" "info lapic 0" \
				"info lapic 1" "info pic" "info irq" \
				>"$out/stall.txt" 2>&1
			python3 -B "$top/tools/testing/qmon.py" "$mon" nmi >/dev/null 2>&1
			# the guest's panic report, then its exit (-no-reboot)
			for t in $(seq 60); do
				kill -0 "$qpid" 2>/dev/null || break
				sleep 1
			done
			kill "$qpid" 2>/dev/null
			echo "vm.sh: guest stalled, no output for $vm_stall s" >>"$out/console.log"
			return
		fi
		sleep 2
	done
}
booted_again=
paused=
[ -z "${ECDMA_VM_STALL_ONCE:-}" ] || paused=-S
set +e
for attempt in 1 2; do
	left=$((timeout_s - ($(date +%s) - start)))
	[ "$left" -gt 0 ] || left=1
	# --tcg single: the guest still has two CPUs, preempting each other at
	# every interrupt (QEMU switches vCPUs when one is kicked: an IPI, a timer),
	# but not running at the same instant.  Two boots share two host CPUs
	# here: a thread per vCPU then only adds contention and the cost of
	# multi-threaded TCG (atomic emulation, exclusive sections for TLB
	# flushes), about a fifth of a stock lane and more on the debug kernel
	# (Documentation/testing.rst).
	timeout "$left" qemu-system-x86_64 -accel tcg,thread="$tcg" -cpu "$cpuarg" -smp 2 -m "$mem" \
		${icountarg[@]+"${icountarg[@]}"} -nodefaults -display none -no-reboot $paused \
		${qemu_extra[@]+"${qemu_extra[@]}"} \
		-kernel "$kimg/boot/vmlinuz-$abi" -initrd "$work/initrd.cpio" \
		-append "console=ttyS0 panic=-1 $clock $slub $kargs oops=panic unknown_nmi_panic panic_print=0x45 ECDMA_TEST_TIMEOUT=$test_timeout $append" \
		-serial "file:$out/console.log" -serial "file:$out/ktap.log" \
		-monitor "unix:$mon,server=on,wait=off" \
		</dev/null >"$out/qemu.log" 2>&1 &
	qpid=$!
	paused=
	stalled=
	size=-1
	since=$(date +%s)
	while kill -0 "$qpid" 2>/dev/null; do
		grep -q ECDMA-VM-START "$out/ktap.log" && break
		now=$(date +%s)
		s=$(stat -c %s "$out/console.log")
		if [ "$s" != "$size" ]; then
			size=$s
			since=$now
		elif [ $((now - since)) -ge "$boot_stall" ] && [ "$attempt" = 1 ]; then
			stalled=$((now - start))
			kill "$qpid"
			break
		fi
		sleep 2
	done
	[ -n "$stalled" ] || vm_watch
	wait "$qpid"
	qrc=$?
	# the pause was ours: QEMU was killed after a clean end
	[ "$freeze" != seen ] || qrc=0
	[ -n "$stalled" ] || break
	booted_again=1
	echo "# vm.sh: boot stalled before init (no console output for $boot_stall s," \
		"$stalled s in; last line: $(tail -n 1 "$out/console.log" | tr -d '\r' | cut -c1-100)); booting again"
	mv "$out/console.log" "$out/console.stalled.log"
	: >"$out/console.log"
	: >"$out/ktap.log"
done
set -e
secs=$(($(date +%s) - start))
stall=
if [ -n "${ECDMA_VM_STALL_ONCE:-}" ]; then
	stall=${booted_again:+again}
	stall=${stall:-missed}
fi

# --- results ---
# --quiet: the nested KTAP only.  Otherwise: the raw guest output, then the
# top-level verdicts.
set +e
if [ -n "$quiet" ]; then
	"$top/tools/testing/ktap-summary.sh" "$out/ktap.log" "$out/console.log" \
		"$abi/$cpuarg" "$qrc" "$secs" "$stall" "$freeze"
	rc=$?
else
	sed -n '/ECDMA-VM-START/,$p' "$out/ktap.log" | tr -d '\r'
	"$top/tools/testing/ktap-summary.sh" "$out/ktap.log" "$out/console.log" \
		"$abi/$cpuarg" "$qrc" "$secs" "$stall" "$freeze" >"$out/summary"
	rc=$?
	grep -E '^(not )?ok |^# console:|^# [^ ]+: [0-9]+ passed' "$out/summary"
fi
exit $rc
