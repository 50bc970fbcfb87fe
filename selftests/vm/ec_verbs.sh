#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The in-kernel EC verbs tests: load ecdma, then ecdma_ec_test, whose init
# runs every test against the real API and fails the load when any test
# failed.  Each of its KTAP lines ("ecdma_ec_test: ok 3 name") is reported
# here, followed by checks of its summary line and of a clean unload.
. /ecdma/lib.sh

log=/tmp/ecdma_ec_test.log

modprobe ecdma || { ktap_fail load_ecdma; ktap_exit; }
dmesg -c >/dev/null
modprobe ecdma_ec_test
rc=$?
dmesg >"$log"

sed -n 's/.*ecdma_ec_test: //p' "$log" >"$log.ktap"
n=0
while read -r line; do
	case "$line" in
	"not ok "*)
		name=${line#not ok }
		ktap_fail "${name#* }"
		n=$((n + 1))
		;;
	"ok "*)
		name=${line#ok }
		ktap_ok "${name#* }"
		n=$((n + 1))
		;;
	"# "*)
		echo "$line"
		;;
	esac
done <"$log.ktap"

summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log.ktap")
ktap_diag "ecdma_ec_test: ${summary:-no summary} (modprobe rc=$rc)"
if [ -n "$summary" ] && [ "$n" -gt 0 ] && [ "${summary#* passed, }" = "0 failed" ] &&
	[ "$rc" -eq 0 ]; then
	ktap_ok "ec_test_module_passed"
else
	ktap_fail "ec_test_module_passed"
fi

# a passing test module stays loaded; a failing one never loaded
modprobe -r ecdma_ec_test 2>/dev/null
ktap_check "ecdma_unloads_after_ec_test" modprobe -r ecdma
ktap_exit
