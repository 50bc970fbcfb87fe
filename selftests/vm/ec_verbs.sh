#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The in-kernel EC verbs tests: load ecdma, then ecdma_ec_test, whose init
# runs every test against the real API and fails the load when any test
# failed.  Each of its KTAP lines ("ecdma_ec_test: ok 3 name") is reported
# here, followed by checks of its summary line and of a clean unload.
. /ecdma/lib.sh

ecdma_load || { ktap_fail load_ecdma; ktap_exit; }
# its counters test checks the lib/raid6 and xor_blocks() fast paths are
# taken where they fit; "auto" may have measured the GF algo faster
echo lib >$ECDMA_DEV/pq_path
echo lib >$ECDMA_DEV/xor_path
kmod_ktap ecdma_ec_test ec_test
ktap_check "ecdma_unloads_after_ec_test" modprobe -r ecdma
ktap_exit
