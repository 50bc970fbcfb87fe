#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dmatest (built from Debian's kernel source) on every ecdma channel, before
# raid456/async_tx hold the channels: memcpy, xor and pq threads with
# several source counts up to the advertised maximum, 64 KiB buffers.
# Every "summary" line must report 0 failures, and ecdma's counters must
# show the operations ran on ecdma (in the simulator lanes: on the
# simulated engine's front).
. /ecdma/lib.sh

ecdma_load || { ktap_fail load_ecdma; ktap_exit; }
# the front under test: ecdma's own, or the simulator's in its lanes
DEVNAME=$(basename "$(readlink -f "$ECDMA_DEV")")
nchan=$(ls -d /sys/class/dma/dma*chan* 2>/dev/null | while read -r c; do
	[ "$(basename "$(readlink -f "$c/device")")" = "$DEVNAME" ] && echo "$c"
done | wc -l)
[ "$nchan" -ge 2 ] && ktap_ok "ecdma_channels_registered # $nchan" ||
	ktap_fail "ecdma_channels_registered # $nchan"

max_xor=$(cat "$ECDMA_DEV/caps/max_xor" 2>/dev/null || echo 0)
max_pq=$(cat "$ECDMA_DEV/caps/max_pq" 2>/dev/null || echo 0)
ktap_diag "max_xor=$max_xor max_pq=$max_pq"

# run_dmatest <tag> <iterations> <xor_sources> <pq_sources> <bufsize>
run_dmatest() {
	tag=$1
	dmesg -c >/dev/null
	bx=$(ecdma_ops xor) bp=$(ecdma_ops pq) bm=$(ecdma_ops memcpy)
	if ! modprobe dmatest iterations="$2" xor_sources="$3" pq_sources="$4" \
		test_buf_size="$5" device="$DEVNAME" timeout=60000 threads_per_chan=1; then
		ktap_fail "${tag}_load"
		return
	fi
	echo 1 >/sys/module/dmatest/parameters/run
	dmatest_wait
	modprobe -r dmatest
	dmesg >/tmp/dmatest.log
	sums=$(grep -c 'summary .* tests, .* failures' /tmp/dmatest.log)
	bad=$(grep 'summary' /tmp/dmatest.log | grep -v -c ' 0 failures')
	errs=$(grep -c -E 'dmatest: .*(result #|mismatch|overwritten|copied|corrupted)' /tmp/dmatest.log)
	grep summary /tmp/dmatest.log | sed 's/^/# /'
	# copy, xor and pq threads on every channel
	if [ "$sums" -ge $((nchan * 3)) ] && [ "$bad" = 0 ] && [ "$errs" = 0 ]; then
		ktap_ok "${tag}_summaries_clean # $sums summaries"
	else
		grep -E 'dmatest: .*(result #|mismatch|overwritten|copied)' /tmp/dmatest.log | head -20
		ktap_fail "${tag}_summaries_clean # $sums summaries, $bad failing, $errs errors"
	fi
	[ "$(ecdma_ops xor)" -gt "$bx" ] && [ "$(ecdma_ops pq)" -gt "$bp" ] &&
		[ "$(ecdma_ops memcpy)" -gt "$bm" ] &&
		ktap_ok "${tag}_ran_on_ecdma" ||
		ktap_fail "${tag}_ran_on_ecdma # xor $bx->$(ecdma_ops xor) pq $bp->$(ecdma_ops pq) memcpy $bm->$(ecdma_ops memcpy)"
}

# iterations per thread: divided by VM_SCALE (the stock lanes 2, the
# debug kernel 4).  Most of dmatest's time is its own byte-by-byte check
# of every buffer, not ecdma's; each thread of the first two runs still
# submits, completes and checks a hundred descriptors or more
run_dmatest src3 "$(vm_scaled 1000 1)" 3 3 65536
run_dmatest src15 "$(vm_scaled 400 1)" 15 15 65536
# dmatest refuses sources + destinations >= 255: the largest it can ask for
# is 253 XOR sources (+1 dest) and 251 PQ sources (odd, +2 dests).
xmax=$((max_xor < 253 ? max_xor : 253))
pmax=$((max_pq < 251 ? max_pq : 251))
run_dmatest srcmax "$(vm_scaled 20 4)" "$xmax" "$pmax" 65536
modprobe -r ecdma
ktap_exit
