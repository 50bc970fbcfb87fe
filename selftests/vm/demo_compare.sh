#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make demo, last step (its own boot, without slub_debug: the debug
# allocator taxes async_tx's per-operation unmap records, which only the
# offload path allocates, and would make the comparison say nothing about
# a production kernel).
. /ecdma/lib.sh

# The point of ecdma: md with it against md without it, same array, same
# fio job (tools/fio/seq-write.fio, full stripes), ecdma at its default
# policy as a user would load it, in the order A B B A so that host noise
# and drift hit both alike; the line says what it measured, win or loss.
# A measurement, not a test: TCG says little about hardware (make perf
# has the full table).  Booted with vm.sh --icount, guest time is
# instructions executed, and the line says "instruction clock".
echo "### md write throughput without and with ecdma (default policy)"
brd_setup 8 64
fio_mem_setup
brd_write_once 8 64
# demo_write <cfg>: "<MiB/s> <P+Q ops on ecdma>" of a 3 s full-stripe
# write on a fresh array
demo_write() {
	[ "$1" = cpu ] || modprobe ecdma
	modprobe raid456
	mdadm --create /dev/md0 --run --level=6 --raid-devices=8 --chunk=64 \
		--assume-clean --bitmap=none /dev/ram[0-7] >/dev/null 2>&1
	echo 0 >/sys/block/md0/md/rmw_level
	echo 4096 >/sys/block/md0/md/stripe_cache_size
	o0=$(ecdma_ops pq)
	DEV=/dev/md0 STRIPE=384k RUNTIME=3 fio $FIO_MEM --output-format=terse \
		--terse-version=3 /ecdma/fio/seq-write.fio >/tmp/demo.out 2>/dev/null
	o1=$(ecdma_ops pq)
	mdadm --stop /dev/md0 >/dev/null 2>&1
	modprobe -r raid456
	[ "$1" = cpu ] || modprobe -r ecdma
	# terse v3: field 48 is the write bandwidth in KiB/s
	awk -F';' -v o=$((o1 - o0)) '{ printf("%.1f %d\n", $48 / 1024, o) }' /tmp/demo.out
}
# rounds alternate, md alone first then ecdma, then the other way round
cpu_r= ec_r= ec_ops=0
for cfg in cpu ecdma ecdma cpu; do
	set -- $(demo_write $cfg) 0 0
	if [ $cfg = cpu ]; then
		cpu_r="$cpu_r $1"
	else
		ec_r="$ec_r $1"
		ec_ops=$((ec_ops + $2))
	fi
done
# under vm.sh --icount the guest's clock is QEMU's instruction count
clk="host clock"
grep -q ECDMA_ICOUNT= /proc/cmdline && clk="instruction clock"
awk -v c="$cpu_r" -v e="$ec_r" -v o="$ec_ops" -v clk="$clk" 'BEGIN {
	sub(/^ /, "", c); sub(/^ /, "", e)
	nc = split(c, cr, " "); ne = split(e, er, " ")
	cs = 0; es = 0
	for (i = 1; i <= nc; i++) cs += cr[i]
	for (i = 1; i <= ne; i++) es += er[i]
	if (cs <= 0 || es <= 0) { print "demo: no throughput measured"; exit 1 }
	# the auto policy may keep md alone (it does when the offload loses):
	# then the line compares md with md, and says so
	how = o > 0 ? sprintf("%d P+Q ops on ecdma", o) :
		"no P+Q op on ecdma: the policy kept md alone"
	r = (es / ne) / (cs / nc)
	# three digits: on the instruction clock rounds agree to 0.1%
	d = (r - 1) * 100
	word = d >= 0.05 ? sprintf("%.1f%% faster", d) :
		d <= -0.05 ? sprintf("%.1f%% slower", -d) : "the same"
	printf("demo: RAID6 8 disks full-stripe write, disks written once " \
	       "before, %s: md alone %.0f MiB/s (rounds %s), with ecdma %.0f " \
	       "MiB/s (rounds %s): %.3fx (%s); %s\n", clk, cs / nc, c, es / ne, e,
	       r, word, how)
}' && ktap_ok demo_with_without || ktap_fail demo_with_without
fio_mem_teardown
brd_teardown
ktap_exit
