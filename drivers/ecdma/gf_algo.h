/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ecdma GF(2^8) compute kernels behind an algorithm table, in the manner of
 * lib/raid6's struct raid6_calls: every implementation (generic C here,
 * SIMD ones later) fills one const struct ecdma_gf_algo, and callers pick
 * one with ecdma_gf_algo_find() and then call through it.
 *
 * Contract every implementation keeps (the unit tests check it):
 *  - any alignment of every pointer, any len >= 1 (tails handled); the
 *    SIMD algos use unaligned loads and stores throughout and need no
 *    alignment for speed either;
 *  - alias-safe: an output may be the very same buffer as an input (XOR
 *    into src[0], RAID-6 Q over a source, in-place multiply); the result is
 *    as if all inputs were read before any output was written.  Partial
 *    overlap (same memory at a different offset) is NOT supported, and two
 *    outputs must not overlap each other;
 *  - k up to ECDMA_EC_MAX_K (255), m up to ECDMA_EC_MAX_M (16);
 *  - every coefficient works, 0 and 1 included;
 *  - no allocation, no sleeping: callable from any context (SIMD ones only
 *    between kernel_fpu_begin() and kernel_fpu_end(), see @fpu).
 */
#ifndef _ECDMA_GF_ALGO_H
#define _ECDMA_GF_ALGO_H

#include "ecdma_compat.h"

/**
 * struct ecdma_gf_algo - one implementation of the GF(2^8) kernels
 * @name: short unique name ("generic", "avx2", ...)
 * @usable: true when this CPU can run it; NULL means always
 * @priority: higher wins in ecdma_gf_algo_find(NULL)
 * @fpu: @encode and @xor use SIMD registers; in the kernel the caller
 *	wraps them in kernel_fpu_begin()/kernel_fpu_end() (keeping each
 *	section short) and falls back to a non-@fpu algo when
 *	!irq_fpu_usable().  @prep never needs the FPU.
 * @tbl_bytes: bytes of precomputed table per coefficient
 * @prep: turn a k x m verbs-layout matrix (matrix[i * m + j] = coefficient
 *	of input i in output j) into this algo's tables, k * m * @tbl_bytes
 *	bytes.  The table of coefficient (i, j) is at
 *	tbls + (j * k + i) * @tbl_bytes, ISA-L's ec_init_tables() order.
 * @encode: out[j] = (ECDMA_GF_ACC ? out[j] : 0) ^ sum_i c(i, j) * in[i] over
 *	@len bytes, for j < m, with tables from @prep of the same algo (or
 *	of an algo with the same @tbl_bytes format); @flags: ECDMA_GF_*
 * @xor: out = (ECDMA_GF_ACC ? out : 0) ^ in[0] ^ ... ^ in[k - 1], @len
 *	bytes; @flags as for @encode
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
};

/*
 * @flags of ->encode() and ->xor().  ECDMA_GF_NT is a hint for outputs
 * that are not in the cache and will not be read soon (big blocks):
 * non-temporal stores, which skip the read-for-ownership of every output
 * line.  An algo may ignore it; SIMD algos use it where the outputs are
 * vector aligned and fence the stores before they return.  In cache NT
 * stores cost throughput, so callers set it by block-size class, as
 * measured at load (gf_cal.c).
 */
#define ECDMA_GF_ACC	0x1	/* XOR into the outputs, do not overwrite */
#define ECDMA_GF_NT	0x2	/* non-temporal stores of the outputs */

/*
 * Block-size classes: whether NT stores and the kernel's own lib/raid6 or
 * xor_blocks() are faster depends on the host and on the block size, so
 * the CPU provider measures each class at load (gf_cal.c) instead of
 * using one threshold tuned on one machine.
 */
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
 * The CPU provider's nt_threshold before anyone sets one; it applies only
 * once nt_threshold is set to a number instead of "auto".
 */
#define ECDMA_GF_NT_MIN_DEFAULT	65536

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
 * @nt_min: block size from which to ask for ECDMA_GF_NT; 0: by @nt_kmin
 * @nt_kmin: per class (ecdma_gf_cls()): NT stores from this many inputs
 *	on (0: never); NULL for none
 * @nin: inputs
 * @cached: the outputs are taken to be in the cache (ecdma_gf_reused())
 *
 * Never NT when accumulating: the outputs are read first anyway, so there
 * is no read-for-ownership to save, and NT stores would push the just-read
 * lines out of the cache (make bench: update of 64 KiB blocks in cache
 * ran at 0.3x with them).  The number of inputs matters because NT
 * stores send every output to memory even when the inputs are in the
 * cache: with few inputs per output the memory's write bandwidth caps
 * them (gf_cal.c).  Never NT for outputs in the cache (@cached): the
 * next reader would go to memory for them.  A fixed @nt_min (the CPU
 * provider's nt_threshold set to a number) is obeyed as set.
 *
 * Return: ECDMA_GF_* flags.
 */
static inline unsigned int ecdma_gf_flags(size_t len, bool acc, size_t nt_min,
					  const u8 *nt_kmin, int nin,
					  bool cached)
{
	unsigned int kmin;

	if (acc)
		return ECDMA_GF_ACC;
	if (nt_min && len >= nt_min)
		return ECDMA_GF_NT;
	if (cached)
		return 0;
	kmin = nt_kmin ? nt_kmin[ecdma_gf_cls(len)] : 0;
	return kmin && nin >= (int)kmin ? ECDMA_GF_NT : 0;
}

/*
 * Are a request's outputs still in the cache?  NT stores pay on outputs
 * that are not (no read for ownership of their lines) and lose up to 3x
 * on outputs that are, and the block size does not tell which.  The
 * engine cannot ask the cache, but it knows where it wrote: outputs it
 * wrote less than a window of its own traffic ago (about the size of the
 * last-level cache) are taken as cached, the way glibc's memcpy keeps
 * regular stores below a threshold derived from the shared cache.  One
 * small table per execution context of the last requests' first
 * outputs; a wrong guess costs speed, never a result.
 */
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
 * @window: bytes of traffic within which outputs count as cached; 0:
 *	never
 * @out: the request's first output block
 * @bytes: bytes the request reads and writes
 *
 * Return: true when @out was the first output of a request less than
 * @window bytes ago and this request itself fits in @window.
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

/*
 * Split-nibble tables, the shape of ISA-L's gf_vect_mul_init() and of the
 * kernel's raid6_vgfmul: 16 bytes lo[x] = c * x, then 16 bytes
 * hi[x] = c * (x << 4), so c * b = lo[b & 15] ^ hi[b >> 4].  pshufb-based
 * SIMD kernels use the same tables and so can share ecdma_gf_prep_nibble().
 */
#define ECDMA_GF_NIBBLE_TBL_BYTES	32

void ecdma_gf_nibble_tbl(u8 c, u8 *tbl);
void ecdma_gf_prep_nibble(const u8 *matrix, int k, int m, u8 *tbls);

/* Always usable, never needs the FPU: the fallback for every context. */
extern const struct ecdma_gf_algo ecdma_gf_algo_generic;

/* Every compiled-in algo, NULL-terminated. */
extern const struct ecdma_gf_algo *const ecdma_gf_algos[];

const struct ecdma_gf_algo *ecdma_gf_algo_find(const char *name);

#endif /* _ECDMA_GF_ALGO_H */
