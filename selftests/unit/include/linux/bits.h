/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the kernel's <linux/bits.h> (ecdma unit tests). */
#ifndef _ECDMA_SHIM_LINUX_BITS_H
#define _ECDMA_SHIM_LINUX_BITS_H

#include <linux/types.h>

#define BITS_PER_LONG		(8 * (int)sizeof(long))
#define BITS_PER_LONG_LONG	64
#define GENMASK(h, l) \
	(((~0UL) - (1UL << (l)) + 1) & (~0UL >> (BITS_PER_LONG - 1 - (h))))
#define GENMASK_ULL(h, l) \
	(((~0ULL) - (1ULL << (l)) + 1) & \
	 (~0ULL >> (BITS_PER_LONG_LONG - 1 - (h))))

#endif /* _ECDMA_SHIM_LINUX_BITS_H */
