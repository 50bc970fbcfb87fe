/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for the kernel's <linux/types.h>, for ecdma's unit
 * tests: the UAPI header (__u8, __le32, ...) that system headers expect,
 * plus the kernel-internal names (u8, bool, size_t, ...) from
 * ecdma_compat.h.
 */
#ifndef _ECDMA_SHIM_LINUX_TYPES_H
#define _ECDMA_SHIM_LINUX_TYPES_H

#include_next <linux/types.h>
#include <ecdma_compat.h>

#endif /* _ECDMA_SHIM_LINUX_TYPES_H */
