#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# raid6test (crypto/async_tx/raid6test.c, built from Debian's kernel source):
# 2429 recovery tests through async_tx on ecdma, twice: with fuse "on" (the
# recovery chains composed into one WR each, dma_fuse.c; "auto", the
# default, composes them where that won the calibration at load) and with
# fuse "off" (every operation its own WR).  Each summary must report no
# failures, no "validation failure"/"timeout" lines (those are not counted
# in the summary), and ecdma's counters must show that the syndrome,
# recovery and validation ops ran on ecdma, and that the chains were fused
# in the first run and not in the second.
. /ecdma/lib.sh

ecdma_load || { ktap_fail load_ecdma; ktap_exit; }
modprobe async_raid6_recov || { ktap_fail load_async_raid6_recov; ktap_exit; }

# run_raid6test <fuse>
run_raid6test() {
	echo "$1" >"$ECDMA_DEV/fuse"
	bp=$(ecdma_ops pq) bx=$(ecdma_ops xor) bv=$(ecdma_ops pq_val)
	bf=$(ecdma_stat fused)
	dmesg -c >/dev/null
	modprobe raid6test
	dmesg >/tmp/r6.log
	modprobe -r raid6test
	t=fuse_$1
	grep -E 'raid6test: complete' /tmp/r6.log | sed 's/^/# /'
	if grep -q 'raid6test: complete (2429 tests, 0 failures)' /tmp/r6.log; then
		ktap_ok "raid6test_${t}_2429_tests_0_failures"
	else
		grep -E 'raid6test: .*(ERR|error)' /tmp/r6.log | head -20
		ktap_fail "raid6test_${t}_2429_tests_0_failures"
	fi
	n=$(grep -c -E 'validation failure|timeout' /tmp/r6.log)
	[ "$n" = 0 ] && ktap_ok "raid6test_${t}_no_validation_failure_or_timeout" ||
		ktap_fail "raid6test_${t}_no_validation_failure_or_timeout # $n lines"
	[ "$(ecdma_ops pq)" -gt "$bp" ] && ktap_ok "raid6test_${t}_pq_on_ecdma # $bp -> $(ecdma_ops pq)" ||
		ktap_fail "raid6test_${t}_pq_on_ecdma # $bp -> $(ecdma_ops pq)"
	[ "$(ecdma_ops xor)" -gt "$bx" ] && ktap_ok "raid6test_${t}_xor_on_ecdma # $bx -> $(ecdma_ops xor)" ||
		ktap_fail "raid6test_${t}_xor_on_ecdma # $bx -> $(ecdma_ops xor)"
	[ "$(ecdma_ops pq_val)" -gt "$bv" ] && ktap_ok "raid6test_${t}_pq_val_on_ecdma # $bv -> $(ecdma_ops pq_val)" ||
		ktap_fail "raid6test_${t}_pq_val_on_ecdma # $bv -> $(ecdma_ops pq_val)"
	af=$(ecdma_stat fused)
	if [ "$1" = on ] && [ "$(hwsim_stat iommu)" = 1 ]; then
		# behind an IOMMU each operation's pages get new IOVAs: a
		# chain's links are not the same address, nothing composes
		ktap_skip "raid6test_${t}_chains_fused" "IOVAs differ per operation"
	elif [ "$1" = on ]; then
		# raid6test recovers every pair of 11 and of 16 disks (+ 4, 5)
		[ "$af" -gt $((bf + 200)) ] && ktap_ok "raid6test_${t}_chains_fused # fused $bf -> $af" ||
			ktap_fail "raid6test_${t}_chains_fused # fused $bf -> $af"
	else
		[ "$af" = "$bf" ] && ktap_ok "raid6test_${t}_nothing_fused # fused $bf -> $af" ||
			ktap_fail "raid6test_${t}_nothing_fused # fused $bf -> $af"
	fi
}

ktap_diag "fuse at load: $(cat "$ECDMA_DEV/fuse"), active: $(cat "$ECDMA_DEV/fuse_active"); $(dmesg | grep -o 'fuse: .*' | tail -1)"
run_raid6test on
run_raid6test off
echo auto >"$ECDMA_DEV/fuse"
modprobe -r async_raid6_recov
modprobe -r ecdma
ktap_exit
