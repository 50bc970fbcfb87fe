#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# ecdma loads, binds its platform device and unloads cleanly, 10 times.
. /ecdma/lib.sh

ok=1
for i in 1 2 3 4 5 6 7 8 9 10; do
	if ! modprobe ecdma; then
		ktap_diag "load $i failed"
		ok=0
		break
	fi
	if [ ! -e "$ECDMA_DEV/driver" ]; then
		ktap_diag "load $i: platform device not bound"
		ok=0
	fi
	if ! modprobe -r ecdma; then
		ktap_diag "unload $i failed"
		ok=0
		break
	fi
done
[ $ok = 1 ] && ktap_ok "load_unload_10_cycles" || ktap_fail "load_unload_10_cycles"

if grep -q '^ecdma ' /proc/modules; then
	ktap_fail "module_gone_after_unload"
else
	ktap_ok "module_gone_after_unload"
fi
ktap_exit
