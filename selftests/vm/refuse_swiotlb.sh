#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Booted with swiotlb=force (vm-tests.sh does that for this script): the CPU
# engine cannot compute on bounce buffers, so ecdma must refuse to load with
# a clear message and leave nothing behind.
. /ecdma/lib.sh

if modprobe ecdma 2>/tmp/err; then
	ktap_fail "load_refused_under_swiotlb_force"
else
	ktap_ok "load_refused_under_swiotlb_force # $(cat /tmp/err)"
fi
if dmesg | grep -q 'ecdma ecdma: swiotlb bouncing is forced'; then
	ktap_ok "reason_logged"
else
	ktap_fail "reason_logged"
fi
grep -q '^ecdma ' /proc/modules && ktap_fail "module_not_left_loaded" ||
	ktap_ok "module_not_left_loaded"
[ -e /sys/devices/platform/ecdma ] && ktap_fail "device_not_left_registered" ||
	ktap_ok "device_not_left_registered"
ktap_exit
