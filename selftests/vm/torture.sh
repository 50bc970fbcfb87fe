#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# EC verbs torture (selftests/kmod/ecdma_torture.c): kthreads post random
# requests to shared calcs and verify every result and the per-calc
# completion order.  Then a short run with 2% of the requests failed by
# ecdma's fault injection: every completion is either right or -EIO.
# $ecdma_soak (seconds, from the kernel command line) makes it long.
. /ecdma/lib.sh

dbg=/sys/kernel/debug/ecdma

ecdma_load || { ktap_fail load_ecdma; ktap_exit; }
dur=15
[ -n "${ecdma_soak:-}" ] && dur=$((ecdma_soak / 3))
kmod_ktap ecdma_torture torture threads=4 calcs=6 duration_s="$dur"

# with injected faults: -EIO is the only other allowed outcome
if [ -w "$dbg/fault_rate_ppm" ]; then
	f0=$(cat "$dbg/faults_injected")
	echo 20000 >"$dbg/fault_rate_ppm"
	kmod_ktap ecdma_torture torture_faults threads=3 calcs=4 faults=1 \
		duration_s=$((dur / 3 + 1))
	echo 0 >"$dbg/fault_rate_ppm"
	f1=$(cat "$dbg/faults_injected")
	[ "$f1" -gt "$f0" ] && ktap_ok "faults_were_injected # $f0 -> $f1" ||
		ktap_fail "faults_were_injected # $f0 -> $f1"
else
	ktap_fail "fault_injection_knob_present"
fi
ktap_check ecdma_unloads_after_torture modprobe -r ecdma
ktap_exit
