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
# at submit); and a client that keeps completed descriptors unacked, on a
# pool lowered to 32: none is handed out again, however long it keeps
# them (the pool grows past desc_max for them); and one whose callbacks cannot run while it prepares, on that pool: acked
# descriptors waiting for their callbacks are taken back (cb_released).  Needs
# the channels free: runs before async_tx holds them.  Each run's
# refusals are traced: ecdma_decline (tracefs) fires once per descriptor
# that cannot run, with its reason, and for nothing else.
. /ecdma/lib.sh

T=$TRACEFS
DECL=$T/events/ecdma/ecdma_decline
# what every run of the default tests provokes, as <why>:<op>:<count>
# sorted: test_failed_ops_complete's PQ with P == Q, which the provider
# refuses at post (rejected), and its XOR on DMA_MAPPING_ERROR (unmapped);
# test_non_ram_refused's three non-RAM ranges, copied to and from
# (6 memcpy unmapped).  The module fails unless each of them was refused.
DECL_RUN="rejected:pq:1 unmapped:memcpy:6 unmapped:xor:1"

# decline_clear: an empty trace buffer before a run
decline_clear() {
	[ -z "$DECL" ] || : >$T/trace
}

# decline_check <tag> "<why>:<op>:<count>...": the run since decline_clear
# traced exactly these ecdma_decline events (sorted), and no other
decline_check() {
	[ -n "$DECL" ] || return 0
	cat $T/trace >/tmp/decline.txt
	: >$T/trace
	got=$(sed -n 's/.* ecdma_decline: .* op=\([a-z_]*\) why=\([a-z_]*\) .*/\2:\1/p' \
		/tmp/decline.txt | sort | uniq -c |
		awk '{ printf "%s%s:%s", (NR > 1 ? " " : ""), $2, $1 }')
	errs=$(sed -n 's/.* why=\([a-z_]*\) err=\(-*[0-9]*\).*/\1=\2/p' \
		/tmp/decline.txt | sort -u | tr '\n' ' ')
	[ "$got" = "$2" ] && ktap_ok "$1_declines_traced # $got (err: ${errs% })" ||
		ktap_fail "$1_declines_traced # traced '$got' (err: ${errs% }), expected '$2'"
}

ecdma_load || { ktap_fail load_ecdma; ktap_exit; }
# ecdma_decline alone, on: no other event of ecdma's
if trace_mount && [ -w $DECL/enable ]; then
	echo 0 >$T/events/ecdma/enable
	: >$T/trace
	echo 1 >$DECL/enable
else
	DECL=
	ktap_skip declines_traced "no tracefs or no events/ecdma (CONFIG_EVENT_TRACING)"
fi
for ii in 1 0; do
	echo $ii >"$ECDMA_DEV/inline_issue"
	e0=$(ecdma_stat memcpy_errors)
	decline_clear
	kmod_ktap ecdma_dma_client_test "client_inline_issue_$ii"
	decline_check "client_inline_issue_$ii" "$DECL_RUN"
	# the refused non-RAM copies were counted as errors, not run
	ktap_check "client_inline_issue_${ii}_errors_counted" \
		[ "$(ecdma_stat memcpy_errors)" -gt "$e0" ]
done
echo 1 >"$ECDMA_DEV/inline_issue"
# a client that keeps 64 completed descriptors unacked, on a pool of 32:
# none is handed out again, the pool grows for them and never runs dry
dm=$(cat "$ECDMA_DEV/desc_max")
echo 32 >"$ECDMA_DEV/desc_max"
decline_clear
kmod_ktap ecdma_dma_client_test client_unacked tests=32
decline_check client_unacked ""
# a client preparing with its lock held, BH off, on the same pool: every
# descriptor waits for a callback that cannot run yet, and the pool must
# take acked ones back (under threadirqs that hung md: dma_cb.c)
r0=$(ecdma_stat cb_released)
kmod_ktap ecdma_dma_client_test client_dry tests=64
ktap_check client_dry_released [ "$(ecdma_stat cb_released)" -gt "$r0" ]
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
decline_clear
kmod_ktap ecdma_dma_client_test client_auto_spreading
decline_check client_auto_spreading "$DECL_RUN"
echo always >"$ECDMA_DEV/offload"
# off again, the buffer empty: later scripts start clean
if [ -n "$DECL" ]; then
	echo 0 >$DECL/enable
	: >$T/trace
fi
# async_tx's clients (md) hold a descriptor unacked as depend_tx between
# two calls: on a full pool of 32, past a 1.5 s stall, it is never handed
# out again (loading the module loads async_tx, which takes the channels)
dm=$(cat "$ECDMA_DEV/desc_max")
echo 32 >"$ECDMA_DEV/desc_max"
h0=$(ecdma_ops xor)
kmod_ktap ecdma_async_tx_test async_tx_held
ktap_check async_tx_held_offloaded [ "$(ecdma_ops xor)" -gt $((h0 + 32)) ]
echo "$dm" >"$ECDMA_DEV/desc_max"
modprobe -r async_xor
ktap_check ecdma_unloads modprobe -r ecdma
ktap_exit
