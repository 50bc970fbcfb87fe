#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-mdadm: mdadm's own test suite against ecdma.  Fetches the
# Debian source of the installed mdadm (cached in $ECDMA_CACHE/mdadm-src,
# through apt with a private sources list: the system's apt configuration
# is not touched), builds the suite's helpers (raid6check, test_stripe,
# swap_super), then boots every pinned kernel once and runs
# selftests/vm/mdadm_suite.sh there: the RAID4/5/6 tests of
# selftests/vm/mdadm.list, without ecdma and then with ecdma at offload
# "always".  Logs in build/mdadm/<kernel>/.
#
# Usage: tools/testing/mdadm-tests.sh [options]
#   --kernel TAG        a pinned kernel (repeatable; default: all of them)
#   --tests a,b,...     these tests instead of the list
#   --configs "A B"     configurations [never_loaded always]
#   --test-timeout SEC  per-test timeout in the guest [900]
#   --opts a,b          more options for mdadm's ./test (--disable-integrity)
#   --fetch             only fetch and build the source, print its path
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${ECDMA_CACHE:-$top/.cache}
cd "$top"

kernels=()
tests=
configs=
test_timeout=900
opts=
fetch_only=
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernels+=("$2"); shift 2 ;;
	--tests) tests=$2; shift 2 ;;
	--configs) configs=$2; shift 2 ;;
	--test-timeout) test_timeout=$2; shift 2 ;;
	--opts) opts=$2; shift 2 ;;
	--fetch) fetch_only=1; shift ;;
	*) sed -n '/^# Usage/,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
	esac
done
[ ${#kernels[@]} -gt 0 ] ||
	mapfile -t kernels < <(awk '!/^#/ && NF == 3 { print $1 }' tools/testing/kernels)

log() { echo "# mdadm-tests: $*"; }

# --- the source of the mdadm the guest runs (vm.sh copies /sbin/mdadm) ---
ver=$(dpkg-query -W -f='${Version}' mdadm 2>/dev/null) ||
	{ echo "mdadm-tests: mdadm is not installed (run make deps)" >&2; exit 2; }
src=$cache/mdadm-src/mdadm-$ver
if [ ! -f "$src/.done" ]; then
	sudo=
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	need=()
	command -v dpkg-source >/dev/null || need+=(dpkg-dev)
	command -v gcc >/dev/null || need+=(gcc)
	command -v make >/dev/null || need+=(make)
	if [ ${#need[@]} -gt 0 ]; then
		log "installing ${need[*]}"
		$sudo apt-get update -qq
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
			--no-install-recommends "${need[@]}" >/dev/null
	fi
	apt=$cache/mdadm-src/apt
	rm -rf "$apt" "$src"
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/dl"
	cat >"$apt/sources.list" <<-EOF
	deb-src http://deb.debian.org/debian bookworm main
	deb-src http://deb.debian.org/debian bookworm-updates main
	deb-src http://security.debian.org/debian-security bookworm-security main
	EOF
	aptopts=(-qq -o "Dir::Etc::sourcelist=$apt/sources.list"
		-o Dir::Etc::sourceparts=- -o "Dir::State::Lists=$apt/lists"
		-o "Dir::Cache=$apt/cache" -o APT::Sandbox::User=root)
	log "fetching Debian's source of mdadm $ver"
	apt-get "${aptopts[@]}" update
	(cd "$apt/dl" && apt-get "${aptopts[@]}" source --download-only "mdadm=$ver")
	# Debian's patches applied (test-installed.patch touches tests/func.sh);
	# apt checked the files against the signed Release already (gpgv here
	# may have no Debian keyring: its complaint is shown only on failure)
	dpkg-source --no-copy -x "$apt"/dl/mdadm_*.dsc "$src.tmp" >"$apt/x.log" 2>&1 ||
		{ cat "$apt/x.log" >&2; exit 1; }
	rm -rf "$apt"
	mv "$src.tmp" "$src"
	touch "$src/.done"
fi
# the suite's helpers ($dir/raid6check, $dir/test_stripe, $dir/swap_super;
# none needs libudev)
make -s -C "$src" raid6check test_stripe swap_super LDLIBS= >/dev/null
if [ -n "$fetch_only" ]; then
	echo "$src"
	exit 0
fi

# --- what the guest gets ---
work=$(mktemp -d "${TMPDIR:-/tmp}/ecdma-mdadm.XXXXXX")
trap 'rm -rf "$work"' EXIT
stage=$work/mdadm
mkdir -p "$stage"
cp -a "$src/test" "$src/tests" "$src/raid6check" "$src/test_stripe" \
	"$src/swap_super" "$stage/"
# The harness runs $PWD/mdadm: the guest's own, /sbin/mdadm, through one
# shim.  mdadm 4.2 takes an argument after every short -r ("r:" in its
# short options, for --monitor's -r), so "mdadm /dev/md0 -r /dev/ram0"
# does nothing and says nothing (01r5integ and 01raid6integ then wait
# forever for the rebuild of a member never removed), nor does "mdadm -ro
# /dev/md0" ("o" taken as -r's argument: 00readonly finds the array
# read-write).  Upstream's fix, "mdadm: Fix mdadm -r remove option
# regression", came after 4.2.  In manage mode the shim passes -r as
# --remove and -r<flags> as --remove -<flags>, which the same mdadm parses
# right; everything else goes through unchanged.
cat >"$stage/mdadm" <<'EOF'
#!/bin/sh
# mdadm-tests.sh's shim: manage mode's -r as --remove, -r<flags> as
# --remove -<flags> (mdadm 4.2's -r takes the next argument); everything
# else to /sbin/mdadm unchanged
manage=1
for a in "$@"; do
	case "$a" in
	-[ABCDEFGIQWXY]*|--assemble|--build|--create|--monitor|--follow|--grow|\
	--incremental|--detail|--examine|--query|--misc|--examine-bitmap|--zero-superblock)
		manage= ;;
	esac
done
if [ -n "$manage" ]; then
	for a in "$@"; do
		shift
		case "$a" in
		-r) a=--remove ;;
		-r[a-zA-Z]*) set -- "$@" --remove; a=-${a#-r} ;;
		esac
		set -- "$@" "$a"
	done
fi
exec /sbin/mdadm "$@"
EOF
chmod +x "$stage/mdadm"
{
	echo '# written by tools/testing/mdadm-tests.sh'
	printf 'MDADM_TEST_TIMEOUT=%q\n' "$test_timeout"
	[ -z "$tests" ] || printf 'MDADM_TESTS=%q\n' "$tests"
	[ -z "$configs" ] || printf 'MDADM_CONFIGS=%q\n' "$configs"
	[ -z "$opts" ] || printf 'MDADM_OPTS=%q\n' "$opts"
	# the guest script's other knobs, from the environment
	[ -z "${MDADM_HEARTBEAT:-}" ] || printf 'MDADM_HEARTBEAT=%q\n' "$MDADM_HEARTBEAT"
	[ -z "${MDADM_SLOW:-}" ] || printf 'MDADM_SLOW=%q\n' "$MDADM_SLOW"
} >"$work/mdadm.env"
# the harness's tools that busybox lacks or has too small (blockdev of
# several devices, cmp -n is there), md's other personalities, ext4 for
# the suite's /var/tmp
vmargs=(--copy "$stage:/ecdma/mdadm" --copy "selftests/vm/mdadm.list:/ecdma/mdadm.list"
	--copy "$work/mdadm.env:/ecdma/mdadm.env"
	--bin /bin/bash --bin /usr/bin/lsblk --bin /sbin/blockdev
	--bin /sbin/mkfs.ext3 --bin /sbin/fsck --bin /sbin/fsck.ext3
	--kmod raid0 --kmod raid1 --kmod raid10 --kmod linear --kmod ext4)

# the guest script's timeout: every test twice at most, and the boot
ntests=$(grep -v -E '^#|^[[:space:]]*$' selftests/vm/mdadm.list |
	if [ "${MDADM_SLOW:-0}" = 1 ]; then cat; else grep -v -w slow; fi | grep -c .)
[ -z "$tests" ] || ntests=$(echo "$tests" | tr ',' '\n' | grep -c .)
guest_tmo=$((ntests * 2 * (test_timeout + 20) + 300))

rc=0
for k in "${kernels[@]}"; do
	tools/testing/build.sh "$k" >/dev/null
	abi=$(awk -v t="$k" '!/^#/ && $1 == t { print $2 }' tools/testing/kernels)
	out=$top/build/mdadm/${abi:-$k}
	rm -rf "$out"
	mkdir -p "$out"
	log "kernel $k: $ntests tests x ${configs:-never_loaded always} (logs in $out)"
	t0=$(date +%s)
	tools/testing/vm.sh --kernel "$k" --cpu max --out "$out" \
		--timeout $((guest_tmo + 120)) --test-timeout "$guest_tmo" \
		"${vmargs[@]}" -- selftests/vm/mdadm_suite.sh || rc=1
	log "kernel $k: $(($(date +%s) - t0)) s"
done
exit $rc
