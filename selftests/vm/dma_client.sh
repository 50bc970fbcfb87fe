#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The dmaengine client contract as a client other than async_tx sees it
# (selftests/kmod/ecdma_dma_client_test.c): terminate_all with queued
# accumulating work, descriptors that cannot run, callbacks never inside
# the client's own calls and in cookie order, a preempted poster never
# stalling a spinner (preempt=full only), non-RAM addresses refused.  Once
# with inline_issue=1 (issue_pending executes) and once with 0 (it only
# posts).  Needs the channels free: runs before async_tx holds them.
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
ktap_check ecdma_unloads modprobe -r ecdma
ktap_exit
