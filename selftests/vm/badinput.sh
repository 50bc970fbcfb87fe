#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Bad input to the EC verbs API (selftests/kmod/ecdma_badinput_test.c):
# every misuse returns its documented errno, leaves the request and the
# calc unchanged (a correct operation works right after), and nothing
# reaches the console (no WARN).
. /ecdma/lib.sh

ecdma_load || { ktap_fail load_ecdma; ktap_exit; }
kmod_ktap ecdma_badinput_test badinput
ktap_check ecdma_unloads_after_badinput modprobe -r ecdma
ktap_exit
