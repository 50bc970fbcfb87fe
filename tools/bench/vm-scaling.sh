#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Scaling of the kernel EC engine across CPUs: build ecdma for a pinned
# kernel, boot it in QEMU (tools/testing/vm.sh, TCG, -smp 2) and run
# selftests/vm/bench_scaling.sh (the ecdma_ec_bench module: 1..N threads,
# one CPU and one affine calc each).  The whole VM output goes to
# build/bench/scaling-vm.txt; the "# scaling" and "# engine" lines are
# printed.  Exits non-zero when the build or the VM run failed (a failed
# parity check, an unclean console, ...).
#
# Usage: tools/bench/vm-scaling.sh [kernel-tag]   (default 6.12)
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
tag=${1:-6.12}
out=$top/build/bench
txt=$out/scaling-vm.txt

mkdir -p "$out"
"$top/tools/testing/build.sh" "$tag" >/dev/null
rc=0
"$top/tools/testing/vm.sh" --quiet --kernel "$tag" --cpu max -- \
	"$top/selftests/vm/bench_scaling.sh" >"$txt" 2>&1 || rc=$?
sed -n 's/^[[:space:]]*\(# \(scaling\|engine\) .*\)/\1/p' "$txt"
if [ "$rc" -ne 0 ]; then
	echo "vm-scaling: VM run on $tag failed (rc=$rc), see $txt" >&2
	grep -E '^[[:space:]]*not ok|^# console:' "$txt" >&2 || true
	exit 1
fi
echo "# full output: $txt"
