# SPDX-License-Identifier: GPL-2.0
#
# ecdma: convenience wrapper around kbuild plus the project's test targets.
#
#   make                 build drivers/ecdma/ecdma.ko (KVER=6.1 | 6.12 | <abi>)
#   make W=1 C=1         extra warnings + sparse
#   make checkpatch      checkpatch.pl --strict on every source file
#   make sign-test       sign the module with a throwaway key and verify it
#   make check           everything: deps, static checks, unit tests, VM tests
#   make check-quick     the edit loop: static (6.1), unit, the 6.1 max lane
#   make soak            long reliability soak (SOAK_MINUTES, default 10)
#   make demo            boot a stock kernel, load ecdma, md RAID6 + fio,
#                        then over NVMe/TCP
#   make bench           GF kernels vs ISA-L and lib/raid6 (userspace), the
#                        kernel engine's scaling over the VM's CPUs, and EC
#                        over RDMA on Soft-RoCE (ec-send, repair chains)
#   make check-mdadm     mdadm's own test suite, RAID4/5/6 tests, without and
#                        with ecdma (VM; KVER: one kernel, default all)
#   make check-md-long   md's full-speed reshape sequence ten times per
#                        kernel, with and without ecdma (VM; KVER, ROUNDS)
#   make perf            md RAID5/6 with and without ecdma, fio (VM; KVER;
#                        PERF_FABRIC=1: also over NVMe-oF)
#   make install         install ecdma and ecdma_rdma for KDIR's kernel
#                        (/lib/modules/<release>/extra), without DKMS
#   make dkms-install    the same through DKMS (rebuilt for every new kernel)
#                        plus the softdep loading ecdma before raid456;
#                        make dkms-remove takes both away
#   make dkms-src        only write the DKMS source tree (build/dkms/)
#   make deb             Debian packages ecdma-dkms and ecdmactl (build/deb/)

TOP := $(CURDIR)
CACHE ?= $(or $(ECDMA_CACHE),$(TOP)/.cache)
# the pins, or what deps.sh resolved them to (tools/testing/kernels.sh)
KERNELS := $(firstword $(wildcard $(CACHE)/kernels.resolved) $(TOP)/tools/testing/kernels)

# Kernel selection: KVER is a tag from tools/testing/kernels (6.1, 6.12) or
# a full ABI name.  Without KVER use the running kernel's build tree if it
# exists, else the pinned 6.1 headers.
kabi = $(or $(shell awk '!/^\#/ && $$1 == "$(1)" { print $$2 }' $(KERNELS)),$(1))
ifneq ($(KVER),)
KABI := $(call kabi,$(KVER))
KDIR ?= /usr/src/linux-headers-$(KABI)
else ifneq ($(wildcard /lib/modules/$(shell uname -r)/build/Makefile),)
KDIR ?= /lib/modules/$(shell uname -r)/build
else
KABI := $(call kabi,6.1)
KDIR ?= /usr/src/linux-headers-$(KABI)
endif

# The release KDIR's modules install under: Debian's 6.1 headers say
# 6.1.192 in kernel.release, utsrelease.h has the ABI (6.1.0-56-amd64).
KREL = $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"$$/\1/p' \
	$(KDIR)/include/generated/utsrelease.h)
# The project's version (VERSION, its only place) and its DKMS tree
VERSION := $(shell sed -n '/^[^\#]/{p;q}' $(TOP)/VERSION)
DKMS_TREE := $(TOP)/build/dkms/ecdma-$(VERSION)

# Make-time options passed through to kbuild.
KBUILD_OPTS := $(if $(W),W=$(W)) $(if $(C),C=$(C))

.PHONY: all modules clean install deps checkpatch check test-unit test-vm \
	demo static ecdmactl bench soak perf check-quick check-mdadm check-md-long \
	sign-test dkms-src dkms-install dkms-remove deb

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(TOP) $(KBUILD_OPTS) modules

clean:
	$(MAKE) -C $(KDIR) M=$(TOP) clean
	$(MAKE) -C selftests/unit clean
	rm -rf build

# ecdma and ecdma_rdma, not the test modules, under the kernel's release
install:
	$(MAKE) -C $(KDIR) M=$(TOP) ECDMA_NO_TESTS=1 modules
	$(MAKE) -C $(KDIR) M=$(TOP) ECDMA_NO_TESTS=1 KERNELRELEASE=$(KREL) \
		modules_install
	depmod -a $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KREL)

dkms-src:
	tools/packaging/dkms-src.sh $(DKMS_TREE)

# DKMS from this tree, for systems without the Debian package (make deb):
# the tree goes to /usr/src/ecdma-<version>, is built and installed for
# KDIR's kernel, and DKMS rebuilds it for each new kernel
dkms-install: dkms-src
	dkms add $(DKMS_TREE)
	dkms install ecdma/$(VERSION) -k $(KREL) --kernelsourcedir $(realpath $(KDIR))
	install -D -m 0644 tools/packaging/modprobe.conf \
		/etc/modprobe.d/ecdma.conf

dkms-remove:
	if [ -n "$$(dkms status ecdma/$(VERSION))" ]; then \
		dkms remove ecdma/$(VERSION) --all; fi
	rm -rf /usr/src/ecdma-$(VERSION)
	rm -f /etc/modprobe.d/ecdma.conf

# ecdma-dkms_<version>_all.deb and ecdmactl_<version>_<arch>.deb in
# build/deb/, lintian-checked (tools/packaging/deb.sh)
deb:
	tools/packaging/deb.sh

deps:
	tools/testing/deps.sh

checkpatch:
	tools/testing/checkpatch.sh

# Static checks on both pinned kernels: W=1 and sparse must be silent.
static:
	tools/testing/static.sh

test-unit:
	$(MAKE) -C selftests/unit run

# sign ecdma.ko with a throwaway key, check it (secure-boot.rst); host only
sign-test:
	tools/testing/sign-test.sh

test-vm:
	tools/testing/vm-tests.sh

check:
	tools/testing/check.sh

# the edit loop: static on one kernel, unit tests, the 6.1 -cpu max lane
check-quick:
	tools/testing/check.sh --quick

demo:
	tools/testing/demo.sh

# Userspace benchmark of the GF kernels next to ISA-L, lib/raid6 and the
# xor templates, then the kernel engine over the VM's CPUs, then ecdma_rdma
# on Soft-RoCE (results and plots in build/bench/).
bench:
	tools/testing/deps.sh --quiet
	$(MAKE) -C tools/bench
	tools/bench/vm-scaling.sh 6.12
	tools/bench/vm-rdma.sh 6.12

# md RAID5/6 over brd with md's CPU path and with ecdma, in one boot
# (tools/fio/: jobs, runner, report; results in build/perf/)
perf:
	KVER=$(or $(KVER),6.12) tools/fio/perf.sh

# mdadm's tests/ (Debian's source of the installed mdadm, fetched once into
# $(ECDMA_CACHE)/mdadm-src) on brd in one boot per kernel: ecdma not loaded,
# then loaded with offload "always" (logs in build/mdadm/)
# issue 59's reshape sequence, repeated (tools/testing/md-long.sh)
check-md-long:
	tools/testing/md-long.sh $(if $(KVER),--kernel $(KVER)) \
		$(if $(ROUNDS),--rounds $(ROUNDS))

check-mdadm:
	tools/testing/deps.sh --quiet
	tools/testing/mdadm-tests.sh $(if $(KVER),--kernel $(KVER)) \
		$(if $(MDADM_TESTS),--tests $(MDADM_TESTS))

soak:
	tools/testing/soak.sh $(if $(SOAK_MINUTES),--minutes $(SOAK_MINUTES))

ecdmactl:
	$(MAKE) -C tools/ecdmactl
