#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The dmaengine client contract as a client other than async_tx sees it
# (selftests/kmod/ecdma_dma_client_test.c): terminate_all with queued
# accumulating work, descriptors that cannot run, callbacks never inside
# the client's own calls and in cookie order, a preempted poster never
# stalling a spinner (preempt=full only), non-RAM addresses refused.  Once
# with inline_issue=1 (issue_pending executes), once with 0 (it only
# posts), and once under "auto" while it spreads (starts async_tx's work
# at submit); and a client that never acks, on a pool lowered to 32: its
# completed descriptors are reused after a second, and counted.  Needs
# the channels free: runs before async_tx holds them.
. /ecdma/lib.sh

ecdma_load || { ktap_fail load_ecdma; ktap_exit; }
for ii in 1 0; do
	echo $ii >"$ECDMA_DEV/inline_issue"
	e0=$(ecdma_stat memcpy_errors)
	kmod_ktap ecdma_dma_client_test "client_inline_issue_$ii"
	# the refused non-RAM copies were counted as errors, not run
	ktap_check "client_inline_issue_${ii}_errors_counted" \
		[ "$(ecdma_stat memcpy_errors)" -gt "$e0" ]
done
echo 1 >"$ECDMA_DEV/inline_issue"
# a client that never acks, on a pool of 32: reused after a second
dm=$(cat "$ECDMA_DEV/desc_max")
echo 32 >"$ECDMA_DEV/desc_max"
u0=$(ecdma_stat unacked_reused)
kmod_ktap ecdma_dma_client_test client_unacked tests=32
ktap_check client_unacked_counted [ "$(ecdma_stat unacked_reused)" -gt "$u0" ]
echo "$dm" >"$ECDMA_DEV/desc_max"
# "auto" (the default) on an idle machine spreads: async_tx's work starts
# at tx_submit.  A client with a channel of its own must still be able to
# terminate what it has not issued: the contract holds under spreading.
echo auto >"$ECDMA_DEV/offload"
w=0
while ! grep -q 'spread=1' "$ECDMA_DEV/offload_state" && [ $w -lt 50 ]; do
	usleep 100000
	w=$((w + 1))
done
ktap_diag "auto: $(cat "$ECDMA_DEV/offload_state")"
kmod_ktap ecdma_dma_client_test client_auto_spreading
echo always >"$ECDMA_DEV/offload"
ktap_check ecdma_unloads modprobe -r ecdma
ktap_exit
