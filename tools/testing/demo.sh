#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: set up what is missing, build ecdma for a pinned Debian kernel,
# boot it in QEMU and run selftests/vm/demo.sh (md RAID6 + fio, the array
# exported over NVMe/TCP + fio through the fabric, stats).
# KVER selects the kernel (default 6.1).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
kver=${KVER:-6.1}
tools/testing/deps.sh --quiet
tools/testing/build.sh "$kver" >/dev/null
make -s -C tools/ecdmactl
exec tools/testing/vm.sh --kernel "$kver" -- selftests/vm/demo.sh
