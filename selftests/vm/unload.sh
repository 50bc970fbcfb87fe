#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Unload and teardown: rmmod ecdma is refused while an md array uses it
# (and the array keeps working); after mdadm --stop and modprobe -r raid456
# its reference count is 0 and it unloads.  Then load / md create + write /
# destroy / unload cycles (10, or 100 with $ecdma_soak) must not leak: the
# active objects of the kmalloc caches may not grow by more than a small
# tolerance between the first and the last cycle (SLUB debug catches
# objects left in ecdma's own caches when they are destroyed).
. /ecdma/lib.sh

fio_rw() {
	fio --name=u --filename=/dev/md0 --rw=write --bs=64k --size=8M \
		--ioengine=psync --direct=1 --eta=never --verify=crc32c \
		--do_verify=1 --verify_fatal=1 --output=/tmp/fio.log \
		>/dev/null 2>&1 || { cat /tmp/fio.log; return 1; }
}

md_create() {
	mdadm --create /dev/md0 --run --quiet --level="$1" --raid-devices=4 \
		--chunk=16 --assume-clean --bitmap=none /dev/ram0 /dev/ram1 \
		/dev/ram2 /dev/ram3 2>/tmp/mdadm.log || { cat /tmp/mdadm.log; return 1; }
}

md_destroy() {
	mdadm --stop /dev/md0 >/dev/null 2>&1
	for d in 0 1 2 3; do
		mdadm --zero-superblock /dev/ram$d >/dev/null 2>&1
	done
}

# kmalloc_active: active objects of the kmalloc caches, after flushing the
# per-CPU slabs so that the count is exact
kmalloc_active() {
	for f in /sys/kernel/slab/kmalloc-*/shrink; do
		echo 1 >"$f" 2>/dev/null
	done
	awk '/^kmalloc-/ { s += $2 } END { print s + 0 }' /proc/slabinfo
}

# kmalloc_snap <file>: active objects per kmalloc cache (after
# kmalloc_active's flush), for the growth by cache when the check fails
kmalloc_snap() {
	awk '/^kmalloc-/ { print $1, $2 }' /proc/slabinfo >"$1"
}

# kmalloc_growth <before> <after>: the caches that grew, as diagnostics
kmalloc_growth() {
	awk 'NR == FNR { b[$1] = $2; next }
	     $2 > b[$1] { print "# " $1 " +" $2 - b[$1] }' "$1" "$2"
}

brd_setup 4 8
ecdma_load || { ktap_fail load_ecdma; ktap_exit; }
modprobe raid456 || { ktap_fail load_raid456; ktap_exit; }
md_create 6 || { ktap_fail md_create; ktap_exit; }
ktap_check md_write_verify fio_rw

# Unbinding the driver under async_tx would leak the dmaengine device and
# block unload until reboot: the bind/unbind files must not exist, and a
# write to where they would be must fail and leave ecdma bound and working.
drv=/sys/bus/platform/drivers/ecdma
if (echo ecdma >$drv/unbind) 2>/dev/null; then
	ktap_fail "unbind_refused # the driver was unbound under md"
else
	ktap_ok "unbind_refused # $(ls $drv | tr '\n' ' ')"
fi
ktap_check no_bind_attrs test ! -e $drv/unbind -a ! -e $drv/bind
ktap_check still_bound [ -e $ECDMA_DEV/driver ]
ktap_check array_works_after_unbind_attempt fio_rw

if rmmod ecdma 2>/tmp/rmmod.log; then
	ktap_fail "rmmod_refused_while_in_use # rmmod succeeded"
else
	ktap_ok "rmmod_refused_while_in_use # $(head -1 /tmp/rmmod.log)"
fi
ktap_check module_still_loaded grep -q '^ecdma ' /proc/modules
ktap_check array_still_works_after_refused_rmmod fio_rw
md_destroy
modprobe -r raid456
ktap_check refcnt_0_after_md_stop_and_raid456_removed \
	[ "$(cat /sys/module/ecdma/refcnt)" = 0 ]
# DMA-API debugging (the debug kernel): with every client gone, no mapping
# made for ecdma's device is left, i.e. every completed descriptor released
# its unmap data.  (The warnings dma-debug prints stop after the first
# error, so this count is what still sees leaks late in a run.)
dump=/sys/kernel/debug/dma-api/dump
if [ -r $dump ]; then
	n=$(grep -c '^ecdma ' $dump)
	ktap_check "no_dma_mappings_left # $n of $(wc -l <$dump) for ecdma" [ "$n" = 0 ]
else
	ktap_skip no_dma_mappings_left "kernel without DMA-API debugging"
fi
ktap_check rmmod_after_teardown rmmod ecdma

# 10 cycles; fewer with VM_SCALE (the debug kernel, where each load
# calibrates under KASAN and kmemleak scans for leaks at the lane's end)
cycles=$((10 / ${VM_SCALE:-1}))
[ "$cycles" -ge 3 ] || cycles=3
[ -n "${ecdma_soak:-}" ] && cycles=100
# cycle <i>: load, RAID-5 or -6 by parity of @i, write, tear down
cycle() {
	if ! ecdma_load || ! modprobe raid456 || ! md_create $((5 + $1 % 2))
	then
		ktap_diag "cycle $1: setup failed"
		return 1
	fi
	dd if=/dev/urandom of=/dev/md0 bs=64k count=32 oflag=direct 2>/dev/null
	md_destroy
	# modprobe -r raid456 also tries raid456's dependencies and fails
	# on one still in use (raid6_pq and xor are ecdma's too): what
	# counts is that raid456 went
	modprobe -r raid456 2>/tmp/rm.log
	if grep -q '^raid456 ' /proc/modules || ! modprobe -r ecdma 2>>/tmp/rm.log; then
		ktap_diag "cycle $1: teardown failed: $(cat /tmp/rm.log)"
		grep -E '^(ecdma|raid456|async_[a-z0-9_]+) ' /proc/modules |
			while read -r l; do ktap_diag "$l"; done
		ktap_diag "$(cat /proc/mdstat)"
		return 1
	fi
}

ok=1
i=0
before=
while [ $i -lt $cycles ]; do
	cycle $i || { ok=0; break; }
	i=$((i + 1))
	[ $i = 1 ] && before=$(kmalloc_active) && kmalloc_snap /tmp/slab.0
done
[ $ok = 1 ] && ktap_ok "load_md_unload_${cycles}_cycles" ||
	ktap_fail "load_md_unload_${cycles}_cycles # stopped at $i"
after=$(kmalloc_active)
kmalloc_snap /tmp/slab.1
tol=$((64 + 2 * cycles))
growth=$((after - ${before:-$after}))
# Past the tolerance, two cycles more tell a leak from the rest of the
# kernel allocating once meanwhile (seen once in 2026-11-29's debug lane
# after its other tests, +220 over 3 cycles, where 10 cycles alone stayed
# flat): a leak grows again by its share per cycle, a one-time allocation
# does not.
if [ "$growth" -gt "$tol" ] && [ $ok = 1 ]; then
	kmalloc_growth /tmp/slab.0 /tmp/slab.1
	if cycle $i && cycle $((i + 1)); then
		again=$(($(kmalloc_active) - after))
		ktap_diag "grew $growth over $((cycles - 1)) cycles, $again over 2 more"
		[ "$again" -le $((tol * 2 / cycles)) ] && growth=0
	fi
fi
if [ "$growth" -le "$tol" ]; then
	ktap_ok "no_kmalloc_leak # active objects $before -> $after (tolerance $tol)"
else
	ktap_fail "no_kmalloc_leak # active objects $before -> $after (tolerance $tol)"
fi
if grep -q '^ecdma' /proc/slabinfo; then
	ktap_fail "ecdma_caches_gone"
else
	ktap_ok "ecdma_caches_gone"
fi
ktap_check module_gone sh -c "! grep -q '^ecdma ' /proc/modules"
brd_teardown
ktap_exit
