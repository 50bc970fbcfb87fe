#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# uevent helper (/proc/sys/kernel/hotplug, set by the VM init where the
# kernel has CONFIG_UEVENT_HELPER): log every module load with its address
# range and time, and every unload, to /tmp/modlog, one line each:
#   add <name> <text-address> <core-size> <uptime>
#   remove <name> - - <uptime>
# so that kmemleak backtraces into modules unloaded since can be
# attributed (selftests/vm/kmemleak.sh).
[ "$SUBSYSTEM" = module ] || exit 0
n=${DEVPATH#/module/}
t=$(cut -d' ' -f1 /proc/uptime)
case "$ACTION" in
add)
	echo "add $n $(cat /sys/module/"$n"/sections/.text 2>/dev/null || echo -)" \
		"$(cat /sys/module/"$n"/coresize 2>/dev/null || echo -) $t" >>/tmp/modlog
	;;
remove)
	echo "remove $n - - $t" >>/tmp/modlog
	;;
esac
exit 0
