#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kselftest-style runner of the guest test scripts ("make run_tests" in
# this directory): runs the scripts named on the command line (default:
# those of tests.list) from this directory, in order, each under the
# timeout= of ./settings, and prints TAP 13: the plan, each script's
# output as "# " lines, then "ok N selftests: vm: <script>" or "not ok",
# with "# SKIP" or "# TIMEOUT <s> seconds".
#
# A script fails as in tools/testing/ktap-summary.sh (vm-tests.sh): when
# it exits non-zero, prints a "not ok" line that is not a SKIP, or prints
# no result line at all.  An exit status of 4 without a failing line is a
# skip (kselftest's KSFT_SKIP).  ECDMA_TEST_TIMEOUT (vm.sh passes it on
# the kernel command line) overrides the settings' timeout; 0 is none.
#
# The scripts source their helpers from /ecdma (lib.sh, md_lib.sh,
# fabric_lib.sh) and find the fio runners in /ecdma/fio and ecdmactl in
# /ecdma/bin: the layout tools/testing/vm.sh makes in its guests, and
# "make install INSTALL_PATH=/ecdma" elsewhere.  They run as root.
#
# Exit status: 0 when no script failed, 1 otherwise (and when /ecdma has
# no lib.sh), 4 when not root.

cd "$(dirname "$0")" || exit 1

if [ $# -eq 0 ]; then
	# shellcheck disable=SC2046 # one script name per line, no blanks
	set -- $(grep -v -E '^#|^$' tests.list)
fi

echo "TAP version 13"
if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP the guest tests load modules: run as root"
	exit 4
fi
if [ ! -r /ecdma/lib.sh ]; then
	echo "Bail out! no /ecdma/lib.sh: the scripts source their helpers" \
		"from /ecdma (make install INSTALL_PATH=/ecdma)"
	exit 1
fi

tmo=
[ -r settings ] && tmo=$(sed -n 's/^timeout=//p' settings | tail -n 1)
tmo=${ECDMA_TEST_TIMEOUT:-${tmo:-900}}
case "$tmo" in
'' | *[!0-9]*)
	echo "Bail out! timeout '$tmo' is not a number of seconds"
	exit 1
	;;
esac
export PATH="/ecdma/bin:$PATH"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ecdma-run_tests.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

echo "1..$#"
n=0 pass=0 fail=0 skip=0
for t in "$@"; do
	n=$((n + 1))
	name="selftests: vm: $t"
	echo "# $name"
	if [ ! -f "$t" ]; then
		echo "# $t: no such script"
		echo "not ok $n $name"
		fail=$((fail + 1))
		continue
	fi
	t0=$(date +%s)
	# into a file, not a pipe: what a script leaves running in the
	# background (after a timeout, say) cannot hold the runner up
	if [ "$tmo" -gt 0 ]; then
		timeout "$tmo" sh "./$t" </dev/null >"$tmp/out" 2>&1
	else
		sh "./$t" </dev/null >"$tmp/out" 2>&1
	fi
	rc=$?
	secs=$(($(date +%s) - t0))
	tr -d '\r' <"$tmp/out" >"$tmp/clean"
	sed 's/^/# /' "$tmp/clean"
	nres=$(grep -c -E '^(not )?ok [0-9]+' "$tmp/clean")
	nbad=$(grep -E '^not ok [0-9]+' "$tmp/clean" | grep -c -v -E '# *SKIP')
	echo "# $t: $nres results, $nbad failed, exit status $rc, $secs s"
	if [ "$tmo" -gt 0 ] && [ "$secs" -ge "$tmo" ] &&
		{ [ "$rc" = 124 ] || [ "$rc" = 137 ] || [ "$rc" = 143 ]; }; then
		# coreutils' timeout exits 124, busybox's 143 (SIGTERM)
		echo "not ok $n $name # TIMEOUT $tmo seconds"
		fail=$((fail + 1))
	elif [ "$nbad" -eq 0 ] && [ "$rc" = 4 ]; then
		echo "ok $n $name # SKIP"
		skip=$((skip + 1))
	elif [ "$nbad" -eq 0 ] && [ "$rc" = 0 ] && [ "$nres" -gt 0 ]; then
		echo "ok $n $name"
		pass=$((pass + 1))
	else
		echo "not ok $n $name"
		fail=$((fail + 1))
	fi
done
echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:$skip error:0"
[ "$fail" -eq 0 ] || exit 1
exit 0
