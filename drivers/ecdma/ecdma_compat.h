/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ecdma "pure" code compatibility layer.
 *
 * Files that only do math or descriptor translation (gf.c, gf_generic.c,
 * ...) include this header and nothing else from the kernel, so the very
 * same source builds in the module and in the userspace unit tests under
 * selftests/unit/ (ASan/UBSan, compared against ISA-L).  This is the
 * include/linux/raid/pq.h trick from lib/raid6.
 *
 * In userspace the unit-test build also puts selftests/unit/include first
 * on the include path; it holds tiny <linux/types.h>, <linux/list.h> and
 * <linux/bits.h> shims so that include/ecdma/ec.h compiles unchanged.
 *
 * Keep the userspace half minimal and kernel-compatible: only add what a
 * pure file really uses, with the kernel's semantics.
 */
#ifndef _ECDMA_COMPAT_H
#define _ECDMA_COMPAT_H

#ifdef __KERNEL__

#include <asm/barrier.h>
#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/types.h>

#else /* !__KERNEL__: userspace unit tests */

#include <errno.h>
#include <limits.h>
#include <linux/const.h>	/* UAPI: __KERNEL_DIV_ROUND_UP() */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <sys/cdefs.h>		/* glibc: __always_inline */

/* The kernel's own definitions (include/asm-generic/int-ll64.h). */
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed char s8;
typedef short s16;
typedef int s32;
typedef long long s64;

#define U8_MAX		((u8)~0U)
#define U16_MAX		((u16)~0U)
#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)
#define S32_MAX		((s32)(U32_MAX >> 1))

#ifndef BIT
#define BIT(nr)		(1UL << (nr))
#endif
#ifndef BIT_ULL
#define BIT_ULL(nr)	(1ULL << (nr))
#endif

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define DIV_ROUND_UP		__KERNEL_DIV_ROUND_UP

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#define __ecdma_attr(a)		__attribute__((a))
#define __maybe_unused		__ecdma_attr(__unused__)

/* Single evaluation, like the kernel's; no type checking here. */
#define min(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); \
		     _a < _b ? _a : _b; })
#define max(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); \
		     _a > _b ? _a : _b; })
#define min_t(type, a, b)	min((type)(a), (type)(b))
#define max_t(type, a, b)	max((type)(a), (type)(b))

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

/* Pure code is not a module in userspace: exports vanish. */
#define EXPORT_SYMBOL(sym)
/* (one comment each keeps checkpatch's EXPORT_SYMBOL placement rule quiet) */
#define EXPORT_SYMBOL_GPL(sym)
/* ditto */
#define EXPORT_SYMBOL_NS_GPL(sym, ns)

/* The unit tests run pure code on one thread: plain accesses suffice */
#define READ_ONCE(x)		(x)
#define WRITE_ONCE(x, v)	((x) = (v))
/* no other thread reads what the pure code publishes */
#define smp_wmb()		do { } while (0)

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

#endif /* __KERNEL__ */

#endif /* _ECDMA_COMPAT_H */
