#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch.pl --strict (from Debian's linux-source-6.1, unpacked by
# deps.sh) on every C source and header of the project.  Exit 1 on any
# error, warning or check.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cp=${ECDMA_CACHE:-$top/.cache}/linux-source/scripts/checkpatch.pl
[ -f "$cp" ] || { echo "checkpatch.sh: $cp missing (run make deps)" >&2; exit 2; }
cd "$top" || exit 2

# Tracked and new (not ignored) files, so work in progress is checked too.
mapfile -t files < <(git ls-files --cached --others --exclude-standard \
	-- '*.c' '*.h' | sort -u | while read -r f; do [ -f "$f" ] && echo "$f"; done)
rc=0
for f in "${files[@]}"; do
	out=$(perl "$cp" --no-tree --strict --quiet --show-types -f "$f" 2>&1)
	if [ -n "$out" ]; then
		echo "$out"
		rc=1
	fi
done
echo "checkpatch: ${#files[@]} files, $([ $rc = 0 ] && echo clean || echo 'NOT clean')"
exit $rc
