#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# EC engine scaling benchmark (selftests/kmod/ecdma_ec_bench.c): 1..N
# kthreads, each bound to its own CPU with its own calc affine to it, post
# async encodes; prints "# scaling threads=N data_MBps=..." per point and
# fails a point whose requests or parity checks failed.  Not in tests.list:
# run it with tools/bench/vm-scaling.sh.  Module parameters (ms=, k=, m=,
# block=, depth=) may be given as arguments.
. /ecdma/lib.sh

ecdma_load || { ktap_fail load_ecdma; ktap_exit; }
kmod_ktap ecdma_ec_bench bench "$@"
ktap_check ecdma_unloads_after_bench modprobe -r ecdma
ktap_exit
