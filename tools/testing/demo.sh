#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: set up what is missing, build ecdma for a pinned Debian kernel,
# boot it in QEMU and run selftests/vm/demo.sh (md RAID6 + fio, the array
# exported over NVMe/TCP + fio through the fabric, stats), then in a second
# boot compare md's write throughput without and with ecdma.
# KVER selects the kernel (default 6.1).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
kver=${KVER:-6.1}
tools/testing/deps.sh --quiet
tools/testing/build.sh "$kver" >/dev/null
make -s -C tools/ecdmactl
tools/testing/vm.sh --kernel "$kver" -- selftests/vm/demo.sh
# md with and without ecdma, in a boot of its own without slub_debug
# (selftests/vm/demo_compare.sh says why), on a guest clock that counts
# instructions (vm.sh --icount, the CPU without CMPXCHG16B as make perf
# has run it since 2026-12-03): on the host's clock md's rounds against
# md's rounds spread 10-20%, wider than what is compared.  Its one-line
# verdict comes last
rc=0
out=$(tools/testing/vm.sh --bench --icount 0 --kernel "$kver" -- selftests/vm/demo_compare.sh) || rc=$?
printf '%s\n' "$out"
printf '%s\n' "$out" | grep '^demo: ' || echo "demo: no with/without comparison (see above)"
exit $rc
