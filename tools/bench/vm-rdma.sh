#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# EC over RDMA on Soft-RoCE: build ecdma for a pinned kernel, boot it in
# QEMU (tools/testing/vm.sh --bench: TCG, -smp 2, no slub_debug) and run
# selftests/vm/bench_rdma.sh (the ecdma_rdma_bench module): ec-send
# against encode-then-send by hand on the same QPs, and chain repair
# (recv-ec-send) against central repair (recv-ec), with the bytes the
# repairing node received and the bytes on the wire.  The whole VM output
# goes to build/bench/rdma-vm.txt; the "# rdma-bench" lines are printed.
# Exits non-zero when the build or the VM run failed.
#
# Usage: tools/bench/vm-rdma.sh [kernel-tag] [module parameters]
#   (default 6.12; parameters comma-separated, e.g. rounds=9,send_kib=1024)
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
tag=${1:-6.12}
params=${2:-}
out=$top/build/bench
txt=$out/rdma-vm.txt

mkdir -p "$out"
"$top/tools/testing/build.sh" "$tag" >/dev/null
rc=0
"$top/tools/testing/vm.sh" --quiet --bench --kernel "$tag" --cpu max \
	${params:+--append "ecdma_rdma_bench=$params"} -- \
	"$top/selftests/vm/bench_rdma.sh" >"$txt" 2>&1 || rc=$?
sed -n 's/^[[:space:]]*# \(rdma-bench .*\)/\1/p;s/^[[:space:]]*\(# rdma bench took .*\)/\1/p' "$txt"
if [ "$rc" -ne 0 ]; then
	echo "vm-rdma: VM run on $tag failed (rc=$rc), see $txt" >&2
	grep -E '^[[:space:]]*not ok|^# console:' "$txt" >&2 || true
	exit 1
fi
echo "# full output: $txt"
