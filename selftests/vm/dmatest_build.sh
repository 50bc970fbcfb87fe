#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# dmatest and raid6test, built from Debian's linux-source package for this
# kernel, are present and dmatest loads and unloads.
. /ecdma/lib.sh

for m in dmatest raid6test; do
	if modinfo "$m" >/dev/null 2>&1; then
		ktap_ok "${m}_built_for_$(uname -r)"
	else
		ktap_fail "${m}_built_for_$(uname -r)"
	fi
done
ktap_check dmatest_loads modprobe dmatest
ktap_check dmatest_unloads modprobe -r dmatest
ktap_exit
