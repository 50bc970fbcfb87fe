#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Static checks, reported as KTAP: for every pinned kernel a W=1 build with
# sparse on all files (C=2) that must be warning-free; checkpatch --strict;
# kernel-doc on the public headers and exported functions.
#
# Usage: static.sh [tag...]   (default: every pinned kernel)
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
n=0 fail=0
result() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; fail=1; fi
}

echo "KTAP version 1"
# shellcheck source=tools/testing/kernels.sh
. tools/testing/kernels.sh
tags=("$@")
[ ${#tags[@]} -gt 0 ] || mapfile -t tags < <(kernel_tags)
for tag in "${tags[@]}"; do
	out=$(tools/testing/build.sh "$tag" "" W=1 C=2 2>&1)
	rc=$?
	[ $rc = 0 ] || printf '%s\n' "$out" | sed 's/^/# /'
	result $rc "build_${tag}_W1_sparse_clean"
done

out=$(tools/testing/checkpatch.sh 2>&1)
rc=$?
[ $rc = 0 ] || printf '%s\n' "$out" | sed 's/^/# /'
result $rc "checkpatch_strict_clean"

kdoc=$(ls -d /usr/src/linux-headers-*-common/scripts/kernel-doc 2>/dev/null | sort -V | tail -1)
if [ -n "$kdoc" ]; then
	mapfile -t files < <(git ls-files --cached --others --exclude-standard \
		-- 'include/*.h' 'drivers/*.c' 'drivers/*.h' | while read -r f; do [ -f "$f" ] && echo "$f"; done)
	out=$(perl "$kdoc" -none -Wall "${files[@]}" 2>&1)
	[ -z "$out" ] || printf '%s\n' "$out" | sed 's/^/# /'
	result "$([ -z "$out" ] && echo 0 || echo 1)" "kernel_doc_clean"
fi
echo "1..$n"
exit $fail
