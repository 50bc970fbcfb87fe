#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Turn one VM run's guest output into nested KTAP and judge it.
#
# Usage: ktap-summary.sh <ktap.log> <console.log> <label> <qemu-rc> <seconds>
#
# Every guest script becomes a KTAP subtest; its leaf "ok"/"not ok" lines are
# counted.  A script that exits non-zero fails even if it printed no
# "not ok".  Two more tests judge the run itself: vm_completed (end marker
# seen, QEMU exited cleanly) and console_clean (no BUG/WARNING/Oops/Call
# Trace/SLUB report/hung task/RCU stall on the kernel console).
# Prints "# ECDMA-COUNTS <pass> <fail> <skip>" last; exit 1 on any failure.
set -euo pipefail

ktap=$1 console=$2 label=$3 qrc=$4 secs=$5
# stall (vm.sh, ECDMA_VM_STALL_ONCE): "again" when a first boot that never
# started was seen stalled and booted again, "missed" when it was not; the
# run then has a boot_stall_booted_again test
stall=${6:-}
# freeze (vm.sh, ECDMA_VM_FREEZE): "seen" when the guest paused after its
# tests was taken for stalled and QEMU's state saved, anything else when
# not; the run then has a guest_stall_dumped test
freeze=${7:-}

# Lines that mean the kernel is broken, whatever the tests said.
bad='BUG:|BUG [a-z]|WARNING:|Oops|Call Trace|general protection|Kernel panic|'
bad+='INFO: task .* blocked|rcu: INFO|self-detected stall|detected stalls|'
bad+='Redzone overwritten|Poison overwritten|Padding overwritten|'
bad+='Object already free|Freepointer corrupt|KFENCE|UBSAN|'
bad+='watchdog: BUG|soft lockup|hard LOCKUP|list_add corruption|list_del corruption|'
bad+='vm.sh: guest stalled'

tr -d '\r' <"$ktap" | sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g' >"$ktap.clean"

# One warning is the stock kernel's, not ours, and is set aside: DMA-API
# debugging (the debug kernel) warns "cacheline tracking EEXIST,
# overlapping mappings aren't supported" when async_tx maps a buffer that
# an operation it chained just before still has mapped (RAID-6 recovery
# writes Q into the dead data page, then XORs into it; with any engine the
# first unmap comes at completion).  Only a whole warning block ("cut
# here" to "end trace") with that message *and* async_tx frames is
# dropped; it is counted in the summary.  Anything else DMA-API says fails.
#
# Inside a fault injection window (fault_alloc.sh marks it on the console)
# the kernel's reports of the failures injected there are expected too:
# warn_alloc's "page allocation failure" and "vmalloc error", each up to
# the end of its stack ("</TASK>").  Warnings (WARNING:, cut here) are not.
tr -d '\r' <"$console" | awk -v known="$console.known" '
/ecdma-test: fault injection window open/ { window = 1 }
/ecdma-test: fault injection window closed/ { window = 0 }
window && !inblk && /page allocation failure:|vmalloc error:/ { inalloc = 1; next }
inalloc { if ($0 ~ /<\/TASK>/) inalloc = 0; next }
/------------\[ cut here \]------------/ { inblk = 1; blk = $0; overlap = 0; atx = 0; next }
inblk {
	blk = blk "\n" $0
	if ($0 ~ /DMA-API: .*cacheline tracking EEXIST, overlapping mappings/)
		overlap = 1
	if ($0 ~ / async_(xor|gen_syndrome|syndrome_val|mult|sum_product|raid6_[a-z_]+|memcpy)[a-z_]*\+0x/)
		atx = 1
	if ($0 ~ /---\[ end trace/) {
		inblk = 0
		if (overlap && atx)
			known_n++
		else
			print blk
	}
	next
}
{ print }
END {
	if (inblk)
		print blk
	print known_n + 0 >known
}' >"$console.filtered"
console_known=$(cat "$console.known")
console_bad=$(grep -E "$bad" "$console.filtered" | head -20 || true)
# What a failure shows: the test that was running (vm.sh marks each on the
# console) and the lines around the first reports, so that a CI log alone
# says what went wrong.
console_ctx=
if [ -n "$console_bad" ]; then
	console_ctx=$(awk -v bad="$bad" '
		/ecdma-test: begin / { test = $0; sub(/.*ecdma-test: begin /, "", test) }
		{ hist[NR % 6] = $0 }
		$0 ~ bad && shown < 3 && NR > until {
			printf("--- during test %s\n", test == "" ? "(none yet)" : test)
			for (i = NR - 5; i < NR; i++)
				if (i > 0) print hist[i % 6]
			until = NR + 24; shown++
		}
		NR <= until { print }' "$console.filtered" | head -90)
fi
rm -f "$console.known" "$console.filtered"

awk -v label="$label" -v qrc="$qrc" -v secs="$secs" -v console_bad="$console_bad" -v stall="$stall" -v freeze="$freeze" \
	-v console_known="$console_known" -v console_ctx="$console_ctx" '
function flush_test(rc,    status) {
	if (name == "")
		return
	if (rc != 0 && nfail == 0) {
		printf("  not ok %d script_exit_status # rc=%d\n", ++n, rc)
		nfail++
	}
	if (n == 0) {
		printf("  not ok 1 no_results\n")
		n = 1; nfail++
	}
	printf("  1..%d\n", n)
	status = nfail ? "not ok" : "ok"
	printf("%s %d %s\n", status, ++top, name)
	pass += npass; fail += nfail; skip += nskip
	name = ""
}
BEGIN {
	print "KTAP version 1"
	printf("# ecdma VM run %s\n", label)
}
/^ECDMA-VM-START/ { started = 1; next }
/^ECDMA-TEST-BEGIN / {
	name = $2; n = 0; npass = 0; nfail = 0; nskip = 0
	printf("  KTAP version 1\n  # Subtest: %s\n", name)
	next
}
/^ECDMA-TEST-END / {
	rc = $3; sub(/rc=/, "", rc)
	tsecs = $4; sub(/secs=/, "", tsecs)
	if (tsecs != "")
		printf("  # %s: %s s\n", name, tsecs)
	flush_test(rc + 0)
	next
}
/^ECDMA-VM-END/ { ended = 1; next }
name != "" && /^(not )?ok [0-9]+/ {
	line = $0
	if (line ~ /^not ok/) {
		sub(/^not ok [0-9]+/, "", line)
		if (line ~ /# *SKIP/) nskip++; else nfail++
		printf("  not ok %d%s\n", ++n, line)
	} else {
		sub(/^ok [0-9]+/, "", line)
		if (line ~ /# *SKIP/) nskip++; else npass++
		printf("  ok %d%s\n", ++n, line)
	}
	next
}
name != "" && /^#/ { printf("  %s\n", $0); next }
name != "" { printf("  # %s\n", $0); next }
END {
	if (name != "") {
		printf("  not ok %d crashed_or_timed_out\n", ++n)
		nfail++
		flush_test(1)
	}
	if (freeze == "seen") {
		printf("ok %d %s_guest_stall_dumped\n", ++top, label); pass++
	} else if (freeze != "") {
		printf("not ok %d %s_guest_stall_dumped # the paused guest was not seen stalled (%s)\n",
		       ++top, label, freeze); fail++
	}
	if (stall == "again") {
		printf("ok %d %s_boot_stall_booted_again\n", ++top, label); pass++
	} else if (stall != "") {
		printf("not ok %d %s_boot_stall_booted_again # the stalled first boot was not seen\n",
		       ++top, label); fail++
	}
	if (ended && qrc == 0) {
		printf("ok %d %s_vm_completed\n", ++top, label); pass++
	} else {
		printf("not ok %d %s_vm_completed # end marker %s, qemu rc %d\n",
		       ++top, label, ended ? "seen" : "missing", qrc); fail++
	}
	if (console_bad == "") {
		printf("ok %d %s_console_clean%s\n", ++top, label,
		       console_known ? " # async_tx overlapping-mapping warning set aside" : ""); pass++
	} else {
		n2 = split(console_ctx, lines, "\n")
		for (i = 1; i <= n2; i++)
			printf("# console: %s\n", lines[i])
		printf("not ok %d %s_console_clean\n", ++top, label); fail++
	}
	printf("1..%d\n", top)
	printf("# %s: %d passed, %d failed, %d skipped in %d s\n", label, pass, fail, skip, secs)
	printf("# ECDMA-COUNTS %d %d %d\n", pass, fail, skip)
	exit(fail ? 1 : 0)
}' "$ktap.clean"
