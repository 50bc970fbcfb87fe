/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GF(2^8) kernel table (as raid6_calls); tested contract: any alignment,
 * len >= 1, k <= 255, m <= 16, an output may be an input but not overlap;
 * never allocates nor sleeps.
 */
#ifndef _ECDMA_GF_ALGO_H
#define _ECDMA_GF_ALGO_H

#include "ecdma_compat.h"

/**
 * struct ecdma_gf_algo - one implementation of the GF(2^8) kernels
 * @name: short unique name ("generic", "avx2", ...)
 * @usable: true when this CPU can run it; NULL means always
 * @priority: higher wins in ecdma_gf_algo_find(NULL)
 * @fpu: @encode and @xor need short kernel_fpu_begin()/end() sections (else,
 *	when !irq_fpu_usable(), a non-@fpu algo); @prep never needs the FPU
 * @tbl_bytes: bytes of precomputed table per coefficient
 * @prep: matrix[i * m + j] to tables, (i, j)'s at (j * k + i) * @tbl_bytes
 * @encode: out[j] = (ECDMA_GF_ACC ? out[j] : 0) ^ sum_i c(i, j) * in[i],
 *	tables from @prep of an algo of this @tbl_bytes format; ECDMA_GF_*
 * @xor: out = (ECDMA_GF_ACC ? out : 0) ^ in[0] ^ ... ^ in[k - 1]
 * @pq: RAID-6 out[0] = P, out[1] = Q = sum_i {02}^i * in[i], as @encode of
 *	that matrix but without tables; NULL where @encode is as fast
 */
struct ecdma_gf_algo {
	const char *name;
	bool (*usable)(void);
	int priority;
	bool fpu;
	unsigned int tbl_bytes;
	void (*prep)(const u8 *matrix, int k, int m, u8 *tbls);
	void (*encode)(size_t len, int k, int m, const u8 *tbls,
		       const u8 *const *in, u8 *const *out, unsigned int flags);
	void (*xor)(size_t len, int k, const u8 *const *in, u8 *out,
		    unsigned int flags);
	void (*pq)(size_t len, int k, const u8 *const *in, u8 *const *out,
		   unsigned int flags);
};

/**
 * ecdma_gf_encode() - @a's encode, or its P+Q op where the matrix allows
 * @a: the algo
 * @pq: the coefficients are exactly RAID-6 P+Q (@m == 2, ecdma_ec_is_pq())
 * @len: bytes per block
 * @k: inputs
 * @m: outputs
 * @tbls: @a's tables of the matrix (unused by ->pq)
 * @in: the inputs
 * @out: the outputs
 * @flags: ECDMA_GF_*
 *
 * The calibration and the bench call this, so they time what the executor
 * runs; the executor tests the same two conditions itself (xc_gf()), as its
 * tables are prepared only when encode needs them.
 */
static inline void ecdma_gf_encode(const struct ecdma_gf_algo *a, bool pq,
				   size_t len, int k, int m, const u8 *tbls,
				   const u8 *const *in, u8 *const *out,
				   unsigned int flags)
{
	if (pq && a->pq)
		a->pq(len, k, in, out, flags);
	else
		a->encode(len, k, m, tbls, in, out, flags);
}

/* algos may ignore ECDMA_GF_NT; SIMD ones fence before returning */
#define ECDMA_GF_ACC	0x1	/* XOR into the outputs, do not overwrite */
#define ECDMA_GF_NT	0x2	/* non-temporal stores of the outputs */

/* what wins (NT, lib/raid6) depends on block size: gf_cal.c measures each */
enum ecdma_gf_cls {
	ECDMA_GF_CLS_4K,	/* up to 4 KiB: md's pages */
	ECDMA_GF_CLS_64K,	/* up to 64 KiB */
	ECDMA_GF_CLS_BIG,	/* larger */
	ECDMA_GF_CLS_NR,
};

#define ECDMA_GF_CLS_ALL	((1U << ECDMA_GF_CLS_NR) - 1)

static inline enum ecdma_gf_cls ecdma_gf_cls(size_t len)
{
	if (len <= 4096)
		return ECDMA_GF_CLS_4K;
	return len <= 65536 ? ECDMA_GF_CLS_64K : ECDMA_GF_CLS_BIG;
}

/*
 * Who wins P+Q and XOR (lib/raid6, xor_blocks() or the GF algo) also depends
 * on the number of inputs; gf_cal.c measures 4 and 8 and splits between.
 */
enum ecdma_gf_band {
	ECDMA_GF_BAND_NARROW,	/* up to ECDMA_GF_BAND_CUT inputs */
	ECDMA_GF_BAND_WIDE,	/* more */
	ECDMA_GF_BAND_NR,
};

#define ECDMA_GF_BAND_CUT	6

static inline enum ecdma_gf_band ecdma_gf_band(int nin)
{
	return nin <= ECDMA_GF_BAND_CUT ? ECDMA_GF_BAND_NARROW :
	       ECDMA_GF_BAND_WIDE;
}

#define ECDMA_GF_NT_MIN_DEFAULT	65536	/* nt_threshold if not "auto" */

/* the bit of a store mask for NT on cached outputs of class @c */
#define ECDMA_GF_NT_CACHED(c)	((c) + ECDMA_GF_CLS_NR)
/*
 * With ECDMA_GF_NT_CACHED(ECDMA_GF_CLS_BIG): also where a request has as
 * many outputs as inputs, which the calibration asks apart (gf_cal.c)
 */
#define ECDMA_GF_NT_SQUARE	BIT(2 * ECDMA_GF_CLS_NR)

/* data blocks of gf_cal.c's wide band, and its block of the big class */
#define ECDMA_GF_CAL_DISKS	8
#define ECDMA_GF_CAL_BIG	(128 * 1024)

/* the block gf_cal.c times class @c with */
static inline size_t ecdma_gf_cal_block(enum ecdma_gf_cls c)
{
	if (c == ECDMA_GF_CLS_4K)
		return 4096;
	return c == ECDMA_GF_CLS_64K ? 65536 : ECDMA_GF_CAL_BIG;
}

/**
 * ecdma_gf_nt_mask() - the store mask for one request
 * @nt_cls: the calibrated mask of its kind (ecdma_gf_flags())
 * @nt_block: [class]: the block of the class's hot store question
 *	(struct ecdma_gf_cal's @nt_block); NULL or 0: the calibration block
 * @len: bytes per block
 * @nin: inputs
 * @nout: outputs
 * @alias: an output is also an input
 *
 * NT on cached outputs only for requests with at least the data the
 * calibration found it faster on (ECDMA_GF_CAL_DISKS blocks of that
 * block): with less, the stripe stays in the cache with regular stores too
 * (RS k = 4 at 64 KiB ran 0.5x with NT).  Big blocks with as many outputs
 * as inputs only by their own answer (ECDMA_GF_NT_SQUARE): there NT writes
 * carry as much as the reads, and their speed bounds the request (RS(4,4)
 * of 1 MiB ran 0.85x with NT on Zen 5).  Never into an output that is
 * also an input, read again right away.
 *
 * Return: @nt_cls, without the cached bits where they do not apply.
 */
static inline unsigned int ecdma_gf_nt_mask(unsigned int nt_cls,
					    const u32 *nt_block, size_t len,
					    int nin, int nout, bool alias)
{
	enum ecdma_gf_cls c = ecdma_gf_cls(len);
	size_t blk = nt_block && nt_block[c] ? nt_block[c] :
		     ecdma_gf_cal_block(c);

	if (alias || (u64)nin * len < (u64)ECDMA_GF_CAL_DISKS * blk ||
	    (c == ECDMA_GF_CLS_BIG && nout >= nin &&
	     !(nt_cls & ECDMA_GF_NT_SQUARE)))
		return nt_cls & ECDMA_GF_CLS_ALL;
	return nt_cls;
}

/* What a kernel call computes, for the store policy of each class. */
enum ecdma_gf_kind {
	ECDMA_GF_KIND_XOR,	/* every coefficient 1, one output */
	ECDMA_GF_KIND_PQ,	/* exact RAID-6 P+Q */
	ECDMA_GF_KIND_RS,	/* anything else */
	ECDMA_GF_KIND_NR,
};

/**
 * ecdma_gf_flags() - the @flags the engine passes for a block
 * @len: bytes per block of the whole request (not of one piece of it)
 * @acc: accumulate into the outputs
 * @nt_min: block size from which to ask for ECDMA_GF_NT; 0: by @nt_cls
 * @nt_cls: bit c (enum ecdma_gf_cls): NT for outputs of class c; bit
 *	ECDMA_GF_NT_CACHED(c): also when they are cached
 * @cached: the outputs are taken to be in the cache (ecdma_gf_reused())
 *
 * No NT when accumulating (it would evict the outputs just read).
 * Return: ECDMA_GF_* flags.
 */
static inline unsigned int ecdma_gf_flags(size_t len, bool acc, size_t nt_min,
					  unsigned int nt_cls, bool cached)
{
	unsigned int c = ecdma_gf_cls(len);

	if (acc)
		return ECDMA_GF_ACC;
	if (nt_min && len >= nt_min)
		return ECDMA_GF_NT;
	if (cached)
		c = ECDMA_GF_NT_CACHED(c);
	return nt_cls & BIT(c) ? ECDMA_GF_NT : 0;
}

/* outputs written within ~an LLC of own traffic count as cached (no NT) */
#define ECDMA_GF_REUSE_SLOTS	16

/**
 * struct ecdma_gf_reuse - where an execution context wrote lately
 * @pos: bytes read and written by the context so far
 * @addr: [slot]: first output block of a request (0: none)
 * @at: [slot]: @pos when that request started
 */
struct ecdma_gf_reuse {
	u64 pos;
	unsigned long addr[ECDMA_GF_REUSE_SLOTS];
	u64 at[ECDMA_GF_REUSE_SLOTS];
};

/**
 * ecdma_gf_reused() - note a request, and whether its outputs are cached
 * @r: the context's table
 * @window: bytes of traffic within which outputs count as cached; 0: never
 * @out: the request's first output block
 * @bytes: bytes the request reads and writes
 *
 * Return: true if @out led a request < @window bytes ago and @bytes fits it.
 */
static inline bool ecdma_gf_reused(struct ecdma_gf_reuse *r, u64 window,
				   const void *out, u64 bytes)
{
	unsigned long a = (unsigned long)out;
	unsigned int i, old = 0;
	bool hot;

	/* any slot holds any address; a new one takes a free or the oldest */
	for (i = 0; i < ECDMA_GF_REUSE_SLOTS; i++) {
		if (r->addr[i] == a)
			break;
		if (r->addr[old] && (!r->addr[i] || r->at[i] < r->at[old]))
			old = i;
	}
	if (i == ECDMA_GF_REUSE_SLOTS)
		i = old;
	hot = r->addr[i] == a && r->pos - r->at[i] < window;
	r->addr[i] = a;
	r->at[i] = r->pos;
	r->pos += bytes;
	return hot && bytes < window;
}

/* split-nibble tables (ISA-L, raid6_vgfmul): c * b = lo[b & 15] ^ hi[b >> 4] */
#define ECDMA_GF_NIBBLE_TBL_BYTES	32

void ecdma_gf_nibble_tbl(u8 c, u8 *tbl);
void ecdma_gf_prep_nibble(const u8 *matrix, int k, int m, u8 *tbls);

/* Always usable, never needs the FPU: the fallback for every context. */
extern const struct ecdma_gf_algo ecdma_gf_algo_generic;

/* Every compiled-in algo, NULL-terminated. */
extern const struct ecdma_gf_algo *const ecdma_gf_algos[];

const struct ecdma_gf_algo *ecdma_gf_algo_find(const char *name);

#endif /* _ECDMA_GF_ALGO_H */
