#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# raid6test (crypto/async_tx/raid6test.c, built from Debian's kernel source):
# 2429 recovery tests through async_tx on ecdma.  The summary must report no
# failures, no "validation failure"/"timeout" lines (those are not counted
# in the summary), and ecdma's counters must show that the syndrome,
# recovery and validation ops ran on ecdma.
. /ecdma/lib.sh

ecdma_load || { ktap_fail load_ecdma; ktap_exit; }
modprobe async_raid6_recov || { ktap_fail load_async_raid6_recov; ktap_exit; }
bp=$(ecdma_ops pq) bx=$(ecdma_ops xor) bv=$(ecdma_ops pq_val)
dmesg -c >/dev/null
modprobe raid6test
dmesg >/tmp/r6.log
modprobe -r raid6test
grep -E 'raid6test: complete' /tmp/r6.log | sed 's/^/# /'
if grep -q 'raid6test: complete (2429 tests, 0 failures)' /tmp/r6.log; then
	ktap_ok "raid6test_2429_tests_0_failures"
else
	grep -E 'raid6test: .*(ERR|error)' /tmp/r6.log | head -20
	ktap_fail "raid6test_2429_tests_0_failures"
fi
n=$(grep -c -E 'validation failure|timeout' /tmp/r6.log)
[ "$n" = 0 ] && ktap_ok "raid6test_no_validation_failure_or_timeout" ||
	ktap_fail "raid6test_no_validation_failure_or_timeout # $n lines"
[ "$(ecdma_ops pq)" -gt "$bp" ] && ktap_ok "raid6test_pq_on_ecdma # $bp -> $(ecdma_ops pq)" ||
	ktap_fail "raid6test_pq_on_ecdma # $bp -> $(ecdma_ops pq)"
[ "$(ecdma_ops xor)" -gt "$bx" ] && ktap_ok "raid6test_xor_on_ecdma # $bx -> $(ecdma_ops xor)" ||
	ktap_fail "raid6test_xor_on_ecdma # $bx -> $(ecdma_ops xor)"
[ "$(ecdma_ops pq_val)" -gt "$bv" ] && ktap_ok "raid6test_pq_val_on_ecdma # $bv -> $(ecdma_ops pq_val)" ||
	ktap_fail "raid6test_pq_val_on_ecdma # $bv -> $(ecdma_ops pq_val)"
modprobe -r async_raid6_recov
modprobe -r ecdma
ktap_exit
