#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make demo, last step (its own boot, without slub_debug: the debug
# allocator taxes async_tx's per-operation unmap records, which only the
# offload path allocates, and would make the comparison say nothing about
# a production kernel).
. /ecdma/lib.sh

# The point of ecdma: md with it against md without it, same array, same
# fio job (tools/fio/seq-write.fio, full stripes), ecdma at its default
# policy as a user would load it, alternating twice so that host noise
# hits both alike.  A measurement, not a test: TCG says little about
# hardware (make perf has the full table).
echo "### md write throughput without and with ecdma (default policy)"
brd_setup 8 64
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
	DEV=/dev/md0 STRIPE=384k RUNTIME=3 fio --output-format=terse \
		--terse-version=3 /ecdma/fio/seq-write.fio >/tmp/demo.out 2>/dev/null
	o1=$(ecdma_ops pq)
	mdadm --stop /dev/md0 >/dev/null 2>&1
	modprobe -r raid456
	[ "$1" = cpu ] || modprobe -r ecdma
	# terse v3: field 48 is the write bandwidth in KiB/s
	awk -F';' -v o=$((o1 - o0)) '{ printf("%.1f %d\n", $48 / 1024, o) }' /tmp/demo.out
}
cpu_bw=0 ec_bw=0 ec_ops=0
for r in 1 2; do
	set -- $(demo_write cpu) 0 0
	cpu_bw=$(awk -v a="$cpu_bw" -v b="$1" 'BEGIN { print a + b }')
	set -- $(demo_write ecdma) 0 0
	ec_bw=$(awk -v a="$ec_bw" -v b="$1" 'BEGIN { print a + b }')
	ec_ops=$((ec_ops + $2))
done
awk -v c="$cpu_bw" -v e="$ec_bw" -v o="$ec_ops" 'BEGIN {
	if (c <= 0 || e <= 0) { print "demo: no throughput measured"; exit 1 }
	# 0 ops: the policy declined every P+Q (no idle CPU), and the line
	# would compare md with md
	if (o <= 0) {
		print "demo: ecdma ran no P+Q operation (offload_state:",
		      "declining?): nothing to compare"
		exit 1
	}
	printf("demo: RAID6 8 disks full-stripe write: md alone %.0f MiB/s, " \
	       "with ecdma %.0f MiB/s (%.2fx; %d P+Q ops on ecdma)\n",
	       c / 2, e / 2, e / c, o)
}' && ktap_ok demo_with_without || ktap_fail demo_with_without
brd_teardown
ktap_exit
