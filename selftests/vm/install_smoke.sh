#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest half of the install lane (tools/testing/install-lane.sh): ecdma
# as the Debian package installed it on the build machine.  The modules are
# DKMS's builds, copied from /lib/modules/<abi>/updates/dkms there; the
# package's /lib/modprobe.d/ecdma.conf and /usr/sbin/ecdmactl are copied to
# the same places here.  Loading raid456 must load ecdma first (the
# softdep), at the packaged version (ECDMA_PKG_VERSION on the kernel
# command line); ecdma_rdma loads where DKMS built it (ECDMA_PKG_RDMA=1);
# an md RAID6 on brd, written, read back and checked, must move ecdma's
# P+Q and P+Q check counters; everything unloads (ecdma with raid456).
# shellcheck disable=SC1091,SC2154 # lib.sh and md_lib.sh: the guest's
. /ecdma/lib.sh
. /ecdma/md_lib.sh

conf=/lib/modprobe.d/ecdma.conf
if grep -q '^softdep raid456 pre: ecdma$' $conf 2>/dev/null; then
	ktap_ok "softdep_installed # $conf"
else
	ktap_fail "softdep_installed # $conf: $(cat $conf 2>&1)"
fi
if grep -q -E '^(ecdma|raid456) ' /proc/modules; then
	ktap_fail "nothing_loaded_yet # $(grep -E '^(ecdma|raid456) ' /proc/modules)"
else
	ktap_ok "nothing_loaded_yet"
fi

# raid456 alone: the softdep brings ecdma in before it.  kmod's
# modprobe, as on the user's machine (/sbin; the guest's PATH finds
# busybox's first, which ignores softdep)
ktap_check raid456_loads /sbin/modprobe raid456
if grep -q '^ecdma ' /proc/modules; then
	ktap_ok "softdep_loaded_ecdma"
else
	ktap_fail "softdep_loaded_ecdma"
	modprobe ecdma || { ktap_fail load_ecdma; ktap_exit; }
fi
v=$(cat /sys/module/ecdma/version 2>/dev/null)
if [ -n "$v" ] && [ "$v" = "${ECDMA_PKG_VERSION:-}" ]; then
	ktap_ok "packaged_version # $v"
else
	ktap_fail "packaged_version # module $v, package ${ECDMA_PKG_VERSION:-?}"
fi

if [ -x /usr/sbin/ecdmactl ]; then
	ktap_check ecdmactl_status /usr/sbin/ecdmactl status
else
	ktap_fail "ecdmactl_status # no /usr/sbin/ecdmactl"
fi

# ecdma_rdma: built by DKMS where the kernel has CONFIG_INFINIBAND
if [ "${ECDMA_PKG_RDMA:-0}" = 1 ]; then
	if modprobe ecdma_rdma 2>/tmp/rdma.err; then
		ktap_ok "ecdma_rdma_loads"
		ktap_check ecdma_rdma_unloads rmmod ecdma_rdma
	else
		ktap_fail "ecdma_rdma_loads # $(cat /tmp/rdma.err)"
	fi
else
	ktap_skip ecdma_rdma_loads "DKMS did not build it for this kernel"
fi

# RAID6 over 5 brd disks: reconstruct-write (rmw_level 0: async_tx runs
# RAID6 read-modify-write on the CPU), writes read back, a check
echo 100000 >/proc/sys/dev/raid/speed_limit_min
md_mode always
brd_setup 5 16
# shellcheck disable=SC2046 # one word per member
if md_create raid6 --level=6 --raid-devices=5 --chunk=64 --assume-clean \
	--bitmap=none $(md_devs 0 5); then
	echo 0 >"$MDS/rmw_level"
	md_snap
	md_fio raid6 wv 16M 0 1 64k
	md_moved raid6_write pq
	md_snap
	md_check raid6
	md_moved raid6_check pq_val
	md_stop
fi
brd_teardown

# kmod's modprobe -r removes raid456, then tries its soft dependency,
# which async_tx still holds (a dmaengine client keeps its channels until
# it unloads: "Module ecdma is in use", exit 1): raid456 must be gone,
# and ecdma must unload once async_tx's modules are
echo always >"$ECDMA_DEV/offload"
/sbin/modprobe -r raid456 2>/tmp/rm.err
if grep -q '^raid456 ' /proc/modules; then
	ktap_fail "raid456_unloads # $(cat /tmp/rm.err)"
else
	ktap_ok "raid456_unloads"
fi
for m in async_raid6_recov async_pq async_xor async_memcpy async_tx; do
	! grep -q "^$m " /proc/modules || rmmod "$m"
done
if grep -q '^ecdma ' /proc/modules; then
	ktap_check ecdma_unloads /sbin/modprobe -r ecdma
else
	ktap_ok "ecdma_unloads # with raid456"
fi
ktap_exit
