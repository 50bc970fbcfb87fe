#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Booted with module.sig_enforce=1 (vm-tests.sh's "sigenforce" run): the
# kernel loads only modules signed by a key it trusts.  Debian's own
# modules are signed by Debian, so ecdma's dependencies load; ecdma as
# built here is unsigned and must be refused, by modprobe and by insmod,
# with the kernel's reason in the log and nothing of ecdma left behind
# (Documentation/admin-guide/secure-boot.rst explains the messages).
. /ecdma/lib.sh

ko=/lib/modules/$(uname -r)/extra/ecdma.ko

# without the parameter every check below would pass or fail for nothing
read -r enforce </sys/module/module/parameters/sig_enforce
if [ "$enforce" != Y ]; then
	ktap_fail "sig_enforce_on # sig_enforce=$enforce: boot with module.sig_enforce=1"
	ktap_exit
fi
ktap_ok "sig_enforce_on"

# the build is unsigned: else this run proves nothing about rejection
# (the signature trailer at its end: busybox's modinfo has no signer)
if tail -c 28 "$ko" | grep -q 'Module signature appended'; then
	ktap_fail "ecdma_built_unsigned # $ko carries a signature"
else
	ktap_ok "ecdma_built_unsigned"
fi

# the control: a module Debian signed loads under enforcement (busybox's
# modinfo does not read signatures: the trailer at the module's end)
pq=$(find "/lib/modules/$(uname -r)" -name 'raid6_pq.ko' | head -n 1)
if [ -n "$pq" ] && tail -c 28 "$pq" | grep -q 'Module signature appended' &&
	modprobe raid6_pq; then
	ktap_ok "debian_signed_module_loads # $pq"
else
	ktap_fail "debian_signed_module_loads # raid6_pq: '$pq'"
fi

# reject <name> <command...>: the command fails with EKEYREJECTED and the
# kernel logs why
reject() {
	name=$1
	shift
	dmesg -c >/dev/null
	if "$@" 2>/tmp/err; then
		ktap_fail "${name}_refused # it loaded"
		return
	fi
	ktap_diag "$name: $(cat /tmp/err)"
	grep -q 'Key was rejected by service' /tmp/err &&
		ktap_ok "${name}_refused" ||
		ktap_fail "${name}_refused # not EKEYREJECTED"
	dmesg | grep -q 'Loading of unsigned module is rejected' &&
		ktap_ok "${name}_rejection_logged" ||
		ktap_fail "${name}_rejection_logged"
	# the message of a load that went through unsigned, tainting
	dmesg | grep -q 'module verification failed' &&
		ktap_fail "${name}_not_loaded_tainted" ||
		ktap_ok "${name}_not_loaded_tainted"
}

reject modprobe modprobe ecdma
reject insmod insmod "$ko"

grep -q '^ecdma ' /proc/modules && ktap_fail "module_not_loaded" ||
	ktap_ok "module_not_loaded"
[ -e /sys/module/ecdma ] && ktap_fail "no_sys_module_ecdma" ||
	ktap_ok "no_sys_module_ecdma"
[ -e "$ECDMA_DEV" ] && ktap_fail "device_not_registered" ||
	ktap_ok "device_not_registered"
# taint bit 13 (E): an unsigned module was loaded
read -r taint </proc/sys/kernel/tainted
[ $((taint & 8192)) -eq 0 ] && ktap_ok "kernel_not_tainted_unsigned" ||
	ktap_fail "kernel_not_tainted_unsigned # tainted=$taint"
ktap_exit
