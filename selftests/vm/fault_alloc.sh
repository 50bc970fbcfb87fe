#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Allocation and prep failures, injected with the kernel's fault injection
# (kernels with CONFIG_FAILSLAB, CONFIG_FAIL_PAGE_ALLOC and
# CONFIG_FAIL_FUNCTION: the debug kernel; skipped elsewhere):
#
# - the allocations of a probe, one at a time: /proc/self/fail-nth makes
#   the n-th allocation of the task that writes "channels" fail (that
#   store unregisters the front and probes it again), for every n, or for
#   every s-th from a random start when there are too many to try each in
#   a few minutes.  Each store must fail cleanly (the old channels come
#   back) or succeed;
# - the same for "algo" (every channel's calc is rebuilt);
# - module load with slab allocations failing at random: it loads and
#   works, or fails and leaves nothing loaded;
# - prep under md load with descriptor allocations failing (fail_function
#   on ecdma_desc_new): async_tx retries, parity stays right, offloaded;
# - calc allocation failing (fail_function on ecdma_ec_alloc_calc) for
#   "channels" and "algo": the store fails, nothing changes.
#
# After each part ecdma must work (the dmaengine client test passes).
# Warnings, KASAN reports and lockdep splats fail the run through the
# console check; leaks are counted by kmemleak.sh at the end of the run.
. /ecdma/lib.sh
D=$ECDMA_DEV
dbg=/sys/kernel/debug
FS=$dbg/failslab
FP=$dbg/fail_page_alloc
FF=$dbg/fail_function
if [ ! -d $FS ] || [ ! -d $FP ] || [ ! -d $FF ] || [ ! -e /proc/self/fail-nth ]; then
	ktap_skip fault_injection "kernel without fault injection"
	ktap_exit
fi

# The kernel's reports of the allocation failures injected from here on
# (warn_alloc: "page allocation failure", "vmalloc error", with a stack)
# are expected; the console scan sets them aside inside this window only.
echo "ecdma-test: fault injection window open" >/dev/kmsg
trap 'echo "ecdma-test: fault injection window closed" >/dev/kmsg' EXIT

# Only tasks that ask (make-it-fail, fail-nth) see failures, GFP_KERNEL
# allocations included; no stack dumps on the console.
for f in $FS $FP; do
	echo Y >$f/task-filter
	echo N >$f/ignore-gfp-wait
	echo 0 >$f/verbose
	echo 0 >$f/probability
done
echo N >$FP/ignore-gfp-highmem

# works: the front is registered, and a dmaengine client of it passes
works() {
	[ -d $D/stats/chan0 ] || return 1
	modprobe ecdma_dma_client_test >/dev/null 2>&1 || return 1
	rmmod ecdma_dma_client_test
}

# store_nth <attr> <value> <n>: write <value> to <attr> with the n-th
# allocation of the writing process failing; prints "hit" when the
# failure was injected, "miss" when the process never made n allocations
# (fail-nth reads 0 once it fired; opening it may itself be the n-th)
store_nth() {
	(
		echo "$3" >/proc/self/fail-nth
		echo "$2" >"$D/$1"
		v=
		read -r v </proc/self/fail-nth
		[ "$v" = 0 ] && echo hit || echo miss
	) 2>/dev/null
}

# allocs <attr> <value> <restore>: how many allocations (fault injection
# points) storing <value> makes; <restore> is written back after
allocs() {
	(
		echo 1000000 >/proc/self/fail-nth
		echo "$2" >"$D/$1"
		v=1000000
		read -r v </proc/self/fail-nth
		echo $((1000000 - v))
	) 2>/dev/null
	echo "$3" >"$D/$1"
}

# sweep <attr> <value> <restore> <read-attr> <old>: store_nth for n = o,
# o + s, o + 2s, ... until a miss, where a store of <value> makes N
# allocations, s = N / $sweep_max rounded up (every one when N is small)
# and o in 1..s is drawn at random, so that runs together cover them all
# (a probe makes about a thousand, most of them sysfs, kobject and debugfs
# internals, each costing two probes here).  $sweep_max is 120, divided by
# VM_SCALE (at least 30): the random start covers the rest over runs.  After every store <read-attr>
# reads <value> (then <restore> is written back) or <old>; anything else
# is a broken error path.  Prints "ok|bad <n> <stores refused> <N> <s>".
sweep_max=$((120 / ${VM_SCALE:-1}))
[ "$sweep_max" -ge 30 ] || sweep_max=30
sweep() {
	total=$(allocs "$1" "$2" "$3")
	[ "$(cat "$D/$4" 2>/dev/null)" = "$5" ] || { echo "bad 0 0 ${total:-?} 0"; return; }
	step=$(((total + sweep_max - 1) / sweep_max))
	[ $step -ge 1 ] || step=1
	n=$((1 + ${RANDOM:-0} % step))
	failed=0
	while [ $n -le $((total + step + 100)) ]; do
		r=$(store_nth "$1" "$2" $n)
		cur=$(cat "$D/$4" 2>/dev/null)
		if [ "$cur" = "$2" ]; then
			echo "$3" >"$D/$1" || break
		elif [ "$cur" = "$5" ]; then
			failed=$((failed + 1))
		else
			break
		fi
		[ "$(cat "$D/$4" 2>/dev/null)" = "$5" ] || break
		if [ "$r" = miss ]; then
			echo "ok $n $failed $total $step"
			return
		fi
		n=$((n + step))
	done
	echo "bad $n $failed $total $step"
}

# sweep_report <name> <sweep output>
sweep_report() {
	name=$1
	shift
	if [ "$1" = ok ]; then
		ktap_ok "$name # $4 allocations, every ${5}th failed from $(($2 % $5 ? $2 % $5 : $5)), $3 stores refused"
	else
		ktap_fail "$name # broke at allocation $2 of $4 (step $5)"
	fi
}

# refused_on <attr> <value> <read-attr> <old>: with the fail_function
# armed for one failure, the store fails and <read-attr> still reads <old>
refused_on() {
	echo 1 >$FF/times
	err=$( (echo "$2" >"$D/$1") 2>&1)
	ktap_diag "$1 $2: ${err:-accepted}"
	[ -n "$err" ] && [ "$(cat "$D/$3")" = "$4" ]
}

ecdma_load || { ktap_fail load_ecdma; ktap_exit; }
nch=$(cat $D/channels)

# every allocation of a probe
sweep_report probe_each_allocation_fails_cleanly \
	$(sweep channels $((nch + 1)) "$nch" channels "$nch")
ktap_check works_after_probe_sweep works

# every allocation of rebuilding the calcs for another algo
algo=$(cat $D/algo_active)
if [ "$algo" = generic ]; then
	ktap_skip algo_each_allocation_fails_cleanly "generic is the only algo"
else
	sweep_report algo_each_allocation_fails_cleanly \
		$(sweep algo generic auto algo_active "$algo")
fi
ktap_check works_after_algo_sweep works

# calc allocation failing once: the store fails, nothing changes
echo 0 >$FF/verbose
echo 0 >$FF/interval
echo 100 >$FF/probability
echo ecdma_ec_alloc_calc >$FF/inject
echo -12 >$FF/ecdma_ec_alloc_calc/retval
ktap_check channels_refused_on_calc_failure \
	refused_on channels $((nch + 1)) channels "$nch"
ktap_check algo_refused_on_calc_failure \
	refused_on algo generic algo_active "$algo"
echo >$FF/inject
ktap_check works_after_calc_failures works

# prep with descriptor allocations failing, under md load
modprobe raid456 || ktap_fail load_raid456
brd_setup 6 16
mdadm --create /dev/md0 --run --quiet --level=6 --raid-devices=6 \
	--chunk=16 --assume-clean --bitmap=none /dev/ram0 /dev/ram1 /dev/ram2 \
	/dev/ram3 /dev/ram4 /dev/ram5 2>/dev/null
echo 0 >/sys/block/md0/md/rmw_level
echo ecdma_desc_new >$FF/inject
echo 30 >$FF/probability
echo -1 >$FF/times
pf0=$(ecdma_stat prep_full)
pq0=$(ecdma_ops pq)
fio --name=f --filename=/dev/md0 --rw=randwrite --bs=64k --size=32M \
	--ioengine=libaio --iodepth=16 --direct=1 --verify=crc32c \
	--do_verify=1 --verify_fatal=1 --numjobs=2 --offset_increment=32M \
	--output=/tmp/fio.fa.log --eta=never >/dev/null 2>&1
frc=$?
echo >$FF/inject
ktap_check "prep_failures_md_verify # rc $frc" [ $frc = 0 ]
ktap_check "prep_failures_seen # prep_full $pf0 -> $(ecdma_stat prep_full)" \
	[ "$(ecdma_stat prep_full)" -gt "$pf0" ]
ktap_check prep_failures_offloaded [ "$(ecdma_ops pq)" -gt "$pq0" ]
ktap_check prep_failures_mismatch_0 [ "$(md_check md0)" = 0 ]
mdadm --stop /dev/md0 >/dev/null 2>&1
brd_teardown
modprobe -r raid456
modprobe -r ecdma || ktap_fail unload_ecdma

# module load with slab allocations failing at random (one per load)
loaded=0
refused=0
bad=0
echo 2 >$FS/probability
i=0
while [ $i -lt 12 ]; do
	echo 1 >$FS/times
	dmesg -c >/dev/null
	if sh -c 'echo 1 >/proc/self/make-it-fail; exec modprobe ecdma' 2>/dev/null; then
		loaded=$((loaded + 1))
		works || { bad=$((bad + 1)); ktap_diag "load $i: loaded but does not work: $(dmesg | tail -4 | tr '\n' '|')"; }
		modprobe -r ecdma || { bad=$((bad + 1)); ktap_diag "load $i: does not unload"; }
	else
		refused=$((refused + 1))
		grep -q '^ecdma ' /proc/modules &&
			{ bad=$((bad + 1)); ktap_diag "load $i: refused but left loaded"; }
	fi
	i=$((i + 1))
done
echo 0 >$FS/probability
ktap_check "load_with_failing_allocations # loaded $loaded, refused $refused" [ $bad = 0 ]
ktap_exit
