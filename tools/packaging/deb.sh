#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make deb: the Debian packages, from a copy of the tree in OUTDIR/src
# (never in the tree or its parent):
#   ecdma-dkms_<version>_all.deb     the DKMS source of ecdma and
#       ecdma_rdma, the softdep loading ecdma before raid456, the admin
#       guide and the sysfs ABI
#   ecdmactl_<version>_<arch>.deb    the tool and its man page
# built with debhelper and dh-dkms (tools/packaging/debian), then checked
# with lintian, whose errors fail the build.  The version is VERSION's
# (a native package: no Debian revision).  Needs Debian 12's debhelper,
# dh-dkms, python3-docutils and lintian (tools/testing/deps.sh installs
# them); no network.
#
# The maintainer is DEBFULLNAME <DEBEMAIL> when they are set (as for
# dch), else ecdma's contact, ecdma developers <ecdma-dev@localhost>,
# whose host lintian calls bogus (an error): the packages then carry an
# override of that one tag, saying so.
#
# Usage: deb.sh [--no-lintian] [OUTDIR]   (OUTDIR default build/deb)
# The last lines printed are the two packages' paths.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
lint=1
if [ "${1:-}" = --no-lintian ]; then
	lint=
	shift
fi
out=${1:-$top/build/deb}
mkdir -p "$out"
out=$(cd "$out" && pwd)
version=$("$top/tools/packaging/dkms-src.sh" --version)
arch=$(dpkg --print-architecture)

if ! missing=$(cd "$top/tools/packaging" && dpkg-checkbuilddeps debian/control 2>&1); then
	echo "deb.sh: $missing (tools/testing/deps.sh installs them)" >&2
	exit 2
fi

# the copy: what the packages are made of, without build products
src=$out/src/ecdma-$version
rm -rf "$out/src"
mkdir -p "$src"
tar -C "$top" -cf - --exclude='*.o' --exclude='*.ko' --exclude='*.cmd' \
	--exclude='*.mod' --exclude='*.mod.c' --exclude='*.order' \
	--exclude='*.symvers' --exclude=tools/ecdmactl/ecdmactl \
	VERSION Kbuild dkms.conf.in Documentation drivers include \
	tools/ecdmactl tools/packaging | tar -C "$src" -xf -
cp -r "$top/tools/packaging/debian" "$src/debian"
contact="ecdma developers <ecdma-dev@localhost>"
maint=$contact
[ -z "${DEBEMAIL:-}" ] || maint="${DEBFULLNAME:-ecdma developers} <$DEBEMAIL>"
sed -i "s|^Maintainer: .*|Maintainer: $maint|" "$src/debian/control"
if [ "$maint" = "$contact" ]; then
	for p in ecdma-dkms ecdmactl; do
		cat >"$src/debian/$p.lintian-overrides" <<EOT
# ecdma's contact address is on localhost, it has no public one: build
# with DEBEMAIL=<address> (and DEBFULLNAME) to name a real maintainer
bogus-mail-host Maintainer ecdma-dev@localhost
bogus-mail-host-in-debian-changelog ecdma-dev@localhost *
EOT
	done
fi
# the changelog says which tree it was built from; its date (the commit's)
# is the packages' timestamp
rev=$(git -C "$top" describe --always --dirty 2>/dev/null || echo unknown)
date=$(git -C "$top" log -1 --format=%aD 2>/dev/null || date -R)
cat >"$src/debian/changelog" <<EOT
ecdma ($version) unstable; urgency=medium

  * Built from the ecdma tree at $rev (make deb).

 -- $maint  $date
EOT

rm -f "$out"/ecdma*.deb "$out"/ecdma*.buildinfo "$out"/ecdma*.changes
log=$out/build.log
if ! (cd "$src" && dpkg-buildpackage -b -us -uc) >"$log" 2>&1; then
	tail -40 "$log" >&2
	echo "deb.sh: dpkg-buildpackage failed (whole log: $log)" >&2
	exit 1
fi
mv "$out"/src/*.deb "$out"/src/*.buildinfo "$out"/src/*.changes "$out/"
rm -rf "$out/src"
debs=("$out/ecdma-dkms_${version}_all.deb" "$out/ecdmactl_${version}_$arch.deb")
for d in "${debs[@]}"; do
	[ -f "$d" ] || { echo "deb.sh: $d was not built" >&2; exit 1; }
done

if [ -n "$lint" ]; then
	# errors fail; warnings and notes are shown
	if ! lintian --display-info --fail-on error "${debs[@]}"; then
		echo "deb.sh: lintian found errors" >&2
		exit 1
	fi
fi
printf '%s\n' "${debs[@]}"
