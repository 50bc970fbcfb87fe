# SPDX-License-Identifier: GPL-2.0
#
# KTAP lines for the shell tests here: source it, then "ok <status> <name>"
# per test (status 0 passes) and "ktap_end <test>" last, which prints the
# plan and the count line and returns non-zero if any test failed.
n=0
failed=0

ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		failed=$((failed + 1))
	fi
}

ktap_end() {
	echo "1..$n"
	echo "# $1: $((n - failed)) passed, $failed failed"
	[ "$failed" = 0 ]
}
