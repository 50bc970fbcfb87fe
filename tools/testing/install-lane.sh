#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The install lane: ecdma installed the way a user installs it, then used
# and removed.  On the build machine: make deb (lintian-checked), apt-get
# install of the two packages (dkms, as the package's postinst runs it,
# builds and installs ecdma, and ecdma_rdma where the kernel has
# CONFIG_INFINIBAND), dkms install for any pinned kernel the postinst left
# out, the installed files checked for every pinned kernel (the modules in
# /lib/modules/<abi>/updates/dkms at the packaged version, the softdep,
# ecdmactl, and the initramfs where the machine has one for that kernel).
# Then one boot of a pinned kernel with DKMS's modules of that kernel (not
# the build tree's) and the package's modprobe.d file and ecdmactl in the
# guest: selftests/vm/install_smoke.sh (softdep, version, ecdma_rdma, md
# RAID6 offloaded).  Then apt-get purge, after which no ecdma file may be
# left: /lib/modules/*/updates/dkms/ecdma*, /var/lib/dkms/ecdma,
# /usr/src/ecdma-*, the modprobe.d file, ecdmactl, and the initramfs holds
# no ecdma again.
#
# Root is needed (apt, dkms; sudo otherwise) and make deps done (headers,
# kernels, dkms, debhelper, lintian).  The packages must not be installed
# already, unless an interrupted run of this lane left them: then they are
# purged first (a stamp in $ECDMA_CACHE says so).  DKMS builds with one job
# (parallel_jobs=1), so that the lane keeps about one host CPU busy beside
# the others (vm-tests.sh runs it in its light slot).
#
# Usage: install-lane.sh [--kernel TAG] [--tcg single|multi]
#   --kernel TAG  the pinned kernel to boot (default: the newest); DKMS
#                 builds for every pinned kernel
#   --tcg MODE    passed to vm.sh (default multi)
# Prints nested KTAP, the boot's as vm.sh prints it, ending with
# "# ECDMA-COUNTS <pass> <fail> <skip>"; exit 1 when anything failed.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
# shellcheck source=tools/testing/kernels.sh
. tools/testing/kernels.sh
mapfile -t tags < <(kernel_tags)
kernel=${tags[${#tags[@]} - 1]}
tcg=multi
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=$2; shift 2 ;;
	--tcg) tcg=$2; shift 2 ;;
	*) echo "usage: install-lane.sh [--kernel TAG] [--tcg single|multi]" >&2; exit 2 ;;
	esac
done
abi=$(kernel_abi "$kernel")
cache=${ECDMA_CACHE:-$top/.cache}
version=$(tools/packaging/dkms-src.sh --version)
arch=$(dpkg --print-architecture)
debs=("$top/build/deb/ecdma-dkms_${version}_all.deb"
      "$top/build/deb/ecdmactl_${version}_$arch.deb")
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
t0=$(date +%s)

mkdir -p "$cache"
# one lane at a time on a machine: they install the same packages
exec 8>"$cache/install-lane.lock"
flock 8
stamp=$cache/install-lane.installed
work=$(mktemp -d "${TMPDIR:-/tmp}/ecdma-install.XXXXXX")

# purge: the packages away, as a user removes them
purge() {
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get purge -y -q \
		-o DPkg::Lock::Timeout=300 ecdma-dkms ecdmactl
}
cleanup() {
	# an installation of ours that a failure or a signal left behind
	if [ -f "$stamp" ]; then
		purge >/dev/null 2>&1 && rm -f "$stamp"
	fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# --- nested KTAP ---
top_n=0 pass=0 fail=0 skip=0
sub_n=0 sub_fail=0
echo "KTAP version 1"
echo "# ecdma install lane: packages $version, boot $kernel ($abi)"
sub_begin() {
	sub_name=$1 sub_n=0 sub_fail=0
	printf '  KTAP version 1\n  # Subtest: %s\n' "$1"
}
ok() {
	sub_n=$((sub_n + 1)) pass=$((pass + 1))
	echo "  ok $sub_n $*"
}
not_ok() {
	sub_n=$((sub_n + 1)) fail=$((fail + 1)) sub_fail=$((sub_fail + 1))
	echo "  not ok $sub_n $*"
}
skip() {
	local name=$1
	shift
	sub_n=$((sub_n + 1)) skip=$((skip + 1))
	echo "  ok $sub_n $name # SKIP $*"
}
diag() {
	sed 's/^/  # /' "$@"
}
sub_end() {
	echo "  1..$sub_n"
	top_n=$((top_n + 1))
	if [ $sub_fail = 0 ]; then
		echo "ok $top_n $sub_name"
	else
		echo "not ok $top_n $sub_name"
	fi
}
finish() {
	echo "1..$top_n"
	echo "# install lane: $pass passed, $fail failed, $skip skipped in $(($(date +%s) - t0)) s"
	echo "# ECDMA-COUNTS $pass $fail $skip"
	[ $fail = 0 ]
	exit
}

# installed_files <abi>: the ecdma modules DKMS installed for <abi>
installed_files() {
	ls /lib/modules/"$1"/updates/dkms/ecdma*.ko* 2>/dev/null
}

# (no "producer | grep -q" here: with pipefail, grep leaving early fails
# the producer)

# dkms_installed <abi>: dkms says ecdma is installed for <abi>
dkms_installed() {
	local st
	st=$(dkms status -m ecdma -v "$version" -k "$1" 2>/dev/null)
	[[ "$st" == *": installed"* ]]
}

# initrd_has <abi>: lsinitramfs of /boot/initrd.img-<abi> names ecdma
initrd_has() {
	lsinitramfs "/boot/initrd.img-$1" >"$work/initrd.list" 2>/dev/null
	grep -q -E 'updates/dkms/ecdma\.ko|modprobe\.d/ecdma\.conf' "$work/initrd.list"
}
have_initrd() {
	[ -f "/boot/initrd.img-$1" ] && command -v lsinitramfs >/dev/null
}

# --- install ---
sub_begin install
if tools/packaging/deb.sh >"$work/deb.log" 2>&1; then
	ok "deb_built_lintian_clean # $(basename "${debs[0]}") $(basename "${debs[1]}")"
	grep -E '^[EWIO]: ' "$work/deb.log" | diag
else
	not_ok "deb_built_lintian_clean"
	tail -30 "$work/deb.log" | diag
	sub_end
	finish
fi

left=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' ecdma-dkms ecdmactl 2>/dev/null |
	awk '$1 != "un" && $1 != "pn" { print $2 }')
[ -e /var/lib/dkms/ecdma ] && left="$left /var/lib/dkms/ecdma"
if [ -z "$left" ]; then
	ok "not_installed_before"
elif [ -f "$stamp" ]; then
	purge >"$work/purge0.log" 2>&1
	rm -f "$stamp"
	ok "not_installed_before # an interrupted run's installation purged:$left"
else
	not_ok "not_installed_before # already on this machine, not by this lane:$left (apt-get purge ecdma-dkms ecdmactl, or make dkms-remove, then run again)"
	sub_end
	finish
fi

touch "$stamp"
# the postinst builds for the running kernel and the newest one, or for
# every kernel in /lib/modules when the running one has none (a container)
if $sudo env DEBIAN_FRONTEND=noninteractive parallel_jobs=1 apt-get install -y -q \
	--no-install-recommends -o DPkg::Lock::Timeout=300 "${debs[@]}" \
	>"$work/install.log" 2>&1; then
	ok "apt_install"
	grep -E '^Building for|^It is likely|update-initramfs:' "$work/install.log" | diag
else
	not_ok "apt_install"
	grep -v 'readelf: Warning' "$work/install.log" | tail -30 | diag
	sub_end
	finish
fi

for tag in "${tags[@]}"; do
	a=$(kernel_abi "$tag")
	hdr=/usr/src/linux-headers-$a
	by_postinst=1
	if ! dkms_installed "$a"; then
		# a kernel the postinst did not build for
		by_postinst=
		diag <<<"dkms install for $a (the postinst did not)"
		$sudo env parallel_jobs=1 dkms install -m ecdma -v "$version" -k "$a" \
			--kernelsourcedir "$hdr" >"$work/dkms-$tag.log" 2>&1 ||
			grep -v 'readelf: Warning' "$work/dkms-$tag.log" | tail -20 | diag
	fi
	want="ecdma"
	grep -q '^CONFIG_INFINIBAND=[ym]' "$hdr/.config" && want="ecdma ecdma_rdma"
	bad=
	for m in $want; do
		f=$(ls /lib/modules/"$a"/updates/dkms/"$m".ko* 2>/dev/null | head -1)
		if [ -z "$f" ]; then
			bad="$bad $m missing;"
		elif [ "$(modinfo -F version "$f")" != "$version" ]; then
			bad="$bad $m version $(modinfo -F version "$f");"
		fi
	done
	got=$(installed_files "$a" | xargs -r -n1 basename | paste -sd ' ')
	if [ -z "$bad" ] && dkms_installed "$a"; then
		ok "dkms_installed_$tag # $got"
	else
		not_ok "dkms_installed_$tag #$bad have: $got"
	fi
	# (the package's initramfs trigger runs after its postinst)
	if ! have_initrd "$a"; then
		skip "initramfs_has_ecdma_$tag" "no /boot/initrd.img-$a on this machine"
	elif [ -z "$by_postinst" ]; then
		skip "initramfs_has_ecdma_$tag" "the package's postinst did not build for $a"
	elif initrd_has "$a"; then
		ok "initramfs_has_ecdma_$tag"
	else
		not_ok "initramfs_has_ecdma_$tag"
	fi
done

conf=/lib/modprobe.d/ecdma.conf
if grep -q '^softdep raid456 pre: ecdma$' "$conf" 2>/dev/null; then
	ok "softdep_installed"
else
	not_ok "softdep_installed # $conf"
fi
if [ "$(/usr/sbin/ecdmactl --version 2>&1)" = "ecdmactl $version" ]; then
	ok "ecdmactl_installed"
else
	not_ok "ecdmactl_installed # $(/usr/sbin/ecdmactl --version 2>&1)"
fi

# what the guest gets: DKMS's modules for the booted kernel (uncompressed,
# as vm.sh takes *.ko), the softdep file and the tool, as installed
build=$work/build-$abi
mkdir -p "$build" "$work/pkg"
rdma=0
for f in $(installed_files "$abi"); do
	b=$(basename "$f")
	case "$f" in
	*.ko.xz) xz -dc "$f" >"$build/${b%.xz}" ;;
	*.ko.zst) zstd -qdc "$f" >"$build/${b%.zst}" ;;
	*.ko.gz) gzip -dc "$f" >"$build/${b%.gz}" ;;
	*) cp "$f" "$build/" ;;
	esac
	case "$b" in ecdma_rdma.ko*) rdma=1 ;; esac
done
cp "$conf" /usr/sbin/ecdmactl "$work/pkg/" 2>/dev/null
if [ -f "$build/ecdma.ko" ] && [ -f "$work/pkg/ecdma.conf" ] && [ -f "$work/pkg/ecdmactl" ]; then
	ok "copied_for_guest # $(cd "$build" && echo *.ko)"
	sub_end
else
	not_ok "copied_for_guest # $(ls "$build" "$work/pkg" | tr '\n' ' ')"
	sub_end
	finish
fi

# --- the boot: vm.sh's KTAP, its top-level results numbered on ours ---
tools/testing/vm.sh --quiet --kernel "$kernel" --build "$build" --tcg "$tcg" \
	--timeout 900 --test-timeout 600 \
	--append "ECDMA_PKG_VERSION=$version ECDMA_PKG_RDMA=$rdma" \
	--copy "$work/pkg/ecdma.conf:/lib/modprobe.d/ecdma.conf" \
	--copy "$work/pkg/ecdmactl:/usr/sbin/ecdmactl" \
	-- selftests/vm/install_smoke.sh >"$work/vm.out" 2>&1
vrc=$?
if read -r _ _ vp vf vs < <(grep '^# ECDMA-COUNTS ' "$work/vm.out"); then
	pass=$((pass + vp)) fail=$((fail + vf)) skip=$((skip + vs))
	while IFS= read -r line; do
		case "$line" in
		"KTAP version 1"|"# ECDMA-COUNTS "*) ;;
		ok\ [0-9]*|not\ ok\ [0-9]*)
			top_n=$((top_n + 1))
			st=ok
			[ "${line#not }" = "$line" ] || st="not ok"
			rest=${line#"$st" }
			echo "$st $top_n ${rest#* }"
			;;
		"#"*|" "*) echo "$line" ;;
		*)
			# its plan goes; what it said on stderr becomes a diagnostic
			[[ "$line" =~ ^1\.\.[0-9]+$ ]] || echo "# $line"
			;;
		esac
	done <"$work/vm.out"
else
	top_n=$((top_n + 1)) fail=$((fail + 1))
	diag "$work/vm.out" | sed 's/^  //'
	echo "not ok $top_n install_smoke_boot # vm.sh exited $vrc without results"
fi

# --- remove ---
sub_begin remove
if purge >"$work/purge.log" 2>&1; then
	rm -f "$stamp"
	ok "apt_purge"
else
	not_ok "apt_purge"
	grep -v 'readelf: Warning' "$work/purge.log" | tail -30 | diag
fi
# shellcheck disable=SC2012 # names only
left=$(ls -d /lib/modules/*/updates/dkms/ecdma* /var/lib/dkms/ecdma /usr/src/ecdma-* \
	/lib/modprobe.d/ecdma.conf /usr/sbin/ecdmactl 2>/dev/null | tr '\n' ' ')
left="$left$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' ecdma-dkms ecdmactl 2>/dev/null |
	awk '$1 != "un" && $1 != "pn" { printf("dpkg:%s(%s) ", $2, $1) }')"
if [ -z "$left" ]; then
	ok "no_file_left"
else
	not_ok "no_file_left # $left"
fi
for tag in "${tags[@]}"; do
	a=$(kernel_abi "$tag")
	if ! have_initrd "$a"; then
		skip "initramfs_without_ecdma_$tag" "no /boot/initrd.img-$a on this machine"
	elif initrd_has "$a"; then
		not_ok "initramfs_without_ecdma_$tag"
	else
		ok "initramfs_without_ecdma_$tag"
	fi
done
sub_end
finish
