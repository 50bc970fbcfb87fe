# SPDX-License-Identifier: GPL-2.0
#
# The pinned kernels as this machine has them, for the scripts that source
# this file (bash).  tools/testing/kernels pins each kernel by exact
# version; when Debian's archive no longer carries a pin, deps.sh falls
# back to the newest image of the same series and records it in
# $ECDMA_CACHE/kernels.resolved, which then wins.
#
#   kernel_lines        "tag abi version" per kernel
#   kernel_tags         the tags, in file order
#   kernel_abi TAG      the ABI of TAG (TAG itself if it is no tag)
#   kernel_ver TAG      the Debian version of TAG

ecdma_top=${ecdma_top:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
ecdma_pins=$ecdma_top/tools/testing/kernels
ecdma_resolved=${ECDMA_CACHE:-$ecdma_top/.cache}/kernels.resolved

kernel_lines() {
	local f=$ecdma_pins
	[ -s "$ecdma_resolved" ] && f=$ecdma_resolved
	awk '!/^#/ && NF == 3 { print $1, $2, $3 }' "$f"
}

kernel_tags() {
	kernel_lines | awk '{ print $1 }'
}

kernel_abi() {
	local abi
	abi=$(kernel_lines | awk -v t="$1" '$1 == t { print $2 }')
	echo "${abi:-$1}"
}

kernel_ver() {
	kernel_lines | awk -v t="$1" '$1 == t { print $3 }'
}
