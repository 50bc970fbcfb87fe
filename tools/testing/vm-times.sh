#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The slowest guest tests of a VM run made with VM_TIMES=1 on the kernel
# command line (selftests/vm/lib.sh prints the guest's uptime before each
# result), e.g.
#   tools/testing/vm-tests.sh "6.1:max:VM_TIMES=1" >run.log
#   tools/testing/vm-times.sh run.log 30
# Each line: seconds since the script's previous result, run, script,
# test.
# A script's first result counts from its start (its setup); its own
# total is the "# <script>: N s" line of the run.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 LOG [N]" >&2; exit 2; }
n=${2:-25}
awk '
/^# VM run: / { run = $4; next }
/# Subtest: / { script = $NF; last = ""; next }
/# time [0-9.]+$/ { t = $NF; next }
/^ *(not )?ok [0-9]+ / && t != "" {
	name = $0
	sub(/^ *(not )?ok [0-9]+ /, "", name)
	sub(/ #.*/, "", name)
	if (last != "")
		printf "%7.1f %s %s %s\n", t - last, run, script, name
	last = t
	t = ""
}' "$1" | sort -rn | head -n "$n"
