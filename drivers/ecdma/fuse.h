/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ecdma: a chain of translated operations composed into one WR, pure (also
 * in the unit tests).  async_tx's RAID-6 recovery computes a syndrome into
 * the lost blocks and then rewrites them with XORs and GF products; every
 * step is linear, so the chain is one 2-output product of the blocks it
 * reads first: one pass instead of five.  dma_fuse.c decides when a chain
 * may be composed (Documentation/design.rst, "Composed chains"); this file
 * only does the algebra, on translated WRs (xlate.h).
 */
#ifndef _ECDMA_FUSE_H
#define _ECDMA_FUSE_H

#include "xlate.h"

#define ECDMA_FUSE_MAX_OPS	8	/* operations one chain may absorb */
#define ECDMA_FUSE_MAX_VARS	40	/* distinct blocks read (md: 34 disks) */

/**
 * struct ecdma_fuse - a chain's outputs as linear functions of its inputs
 * @len: bytes per block of every operation in the chain
 * @nr_ops: operations composed so far (the first included)
 * @nr_vars: blocks in @var
 * @var: blocks the chain read before writing them (or never wrote)
 * @out: the chain's outputs: the first operation's P and Q
 * @row: @row[j][v]: coefficient of @var[v]'s value before the chain in
 *	the value of @out[j] after it
 */
struct ecdma_fuse {
	u32 len;
	u8 nr_ops;
	u8 nr_vars;
	u64 var[ECDMA_FUSE_MAX_VARS];
	u64 out[ECDMA_XLATE_MAX_CODE];
	u8 row[ECDMA_XLATE_MAX_CODE][ECDMA_FUSE_MAX_VARS];
};

bool ecdma_fuse_start(struct ecdma_fuse *f, const struct ecdma_xlate_wr *x);
bool ecdma_fuse_add(struct ecdma_fuse *f, const struct ecdma_xlate_wr *x);
int ecdma_fuse_emit(const struct ecdma_fuse *f, struct ecdma_ec_sge *data,
		    u8 *mat, unsigned int room);

#endif /* _ECDMA_FUSE_H */
