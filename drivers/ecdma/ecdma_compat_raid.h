/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's RAID-6 P/Q and XOR libraries: raid6_call / xor_blocks() (6.1,
 * 6.12) or mainline's lib/raid (uncompiled; WARNs outside task context), told
 * apart by RAID6_MIN_DISKS / MAX_XOR_BLOCKS.  Buffers: ECDMA_EC_FAST_*_ALIGN.
 */
#ifndef _ECDMA_COMPAT_RAID_H
#define _ECDMA_COMPAT_RAID_H

#include <linux/irqflags.h>
#include <linux/preempt.h>
#include <linux/raid/pq.h>
#include <linux/raid/xor.h>
#include <linux/types.h>

#ifdef RAID6_MIN_DISKS

/* lib/raid's own WARN_ON_ONCE() condition, the other way round */
static inline bool ecdma_raid_lib_ctx_ok(void)
{
	return in_task() && !irqs_disabled() && !softirq_count();
}

/**
 * ecdma_raid6_gen() - P and Q of @disks - 2 data blocks
 * @disks: data blocks + 2
 * @bytes: length of every block
 * @ptrs: the data blocks, then P and Q
 *
 * Return: false when the library cannot do it here (nothing written).
 */
static inline bool ecdma_raid6_gen(int disks, size_t bytes, void **ptrs)
{
	if (disks < RAID6_MIN_DISKS || !ecdma_raid_lib_ctx_ok())
		return false;
	raid6_gen_syndrome(disks, bytes, ptrs);
	return true;
}

/**
 * ecdma_raid6_xor() - P and Q ^= those of blocks @start..@stop
 * @disks: data blocks + 2
 * @start: first data block
 * @stop: last data block
 * @bytes: length of every block
 * @ptrs: the data blocks, then P and Q
 *
 * Return: false when the library cannot do it (nothing written).
 */
static inline bool ecdma_raid6_xor(int disks, int start, int stop,
				   size_t bytes, void **ptrs)
{
	if (disks < RAID6_MIN_DISKS || !raid6_can_xor_syndrome() ||
	    !ecdma_raid_lib_ctx_ok())
		return false;
	raid6_xor_syndrome(disks, start, stop, bytes, ptrs);
	return true;
}

/* the selected algorithm is private to lib/raid now */
static inline const char *ecdma_raid6_name(void)
{
	return "lib/raid";
}

#else /* !RAID6_MIN_DISKS: raid6_call */

static inline bool ecdma_raid6_gen(int disks, size_t bytes, void **ptrs)
{
	raid6_call.gen_syndrome(disks, bytes, ptrs);
	return true;
}

static inline bool ecdma_raid6_xor(int disks, int start, int stop,
				   size_t bytes, void **ptrs)
{
	if (!raid6_call.xor_syndrome)
		return false;
	raid6_call.xor_syndrome(disks, start, stop, bytes, ptrs);
	return true;
}

static inline const char *ecdma_raid6_name(void)
{
	return raid6_call.name;
}

#endif /* RAID6_MIN_DISKS */

#ifdef MAX_XOR_BLOCKS

#define ECDMA_XOR_LIB_MAX	MAX_XOR_BLOCKS	/* sources per call at most */

/**
 * ecdma_xor_lib() - @dest ^= @srcs[0..@count)
 * @count: sources, at most ECDMA_XOR_LIB_MAX
 * @bytes: length of every block
 * @dest: accumulated into, never one of @srcs
 * @srcs: the sources
 *
 * Context: any in which the caller may use the FPU.  Cannot fail.
 */
static inline void ecdma_xor_lib(unsigned int count, size_t bytes,
				 void *dest, void **srcs)
{
	xor_blocks(count, bytes, dest, srcs);
}

#else /* !MAX_XOR_BLOCKS: xor_gen() */

/* xor_gen() takes any number; keep the calls as they were */
#define ECDMA_XOR_LIB_MAX	4

static inline void ecdma_xor_lib(unsigned int count, size_t bytes,
				 void *dest, void **srcs)
{
	unsigned long *d = dest;
	unsigned int i;
	size_t w;

	if (ecdma_raid_lib_ctx_ok()) {
		xor_gen(dest, srcs, count, bytes);
		return;
	}
	/* softirq (a poller): xor_gen() would WARN; plain words instead */
	for (i = 0; i < count; i++) {
		const unsigned long *s = srcs[i];

		for (w = 0; w < bytes / sizeof(*d); w++)
			d[w] ^= s[w];
	}
}

#endif /* MAX_XOR_BLOCKS */

#endif /* _ECDMA_COMPAT_RAID_H */
