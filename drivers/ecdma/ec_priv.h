/* SPDX-License-Identifier: GPL-2.0 */
/* ecdma EC verbs internals; what precedes __KERNEL__ is pure (unit tests) */
#ifndef _ECDMA_EC_PRIV_H
#define _ECDMA_EC_PRIV_H

#include "ecdma_compat.h"
#include <ecdma/ec.h>
#include "gf_algo.h"

/* --- ec_validate.c: attribute and work-request checks (pure) --- */

int ecdma_ec_validate_attr(const struct ecdma_ec_caps *caps,
			   const struct ecdma_ec_calc_attr *attr);
int ecdma_ec_validate_wr(const struct ecdma_ec_caps *caps, int k, int m,
			 const struct ecdma_ec_wr *wr);
int ecdma_ec_count_set(const u8 *map, int n);

/* --- ec_exec.c: synchronous execution of one work request (pure) --- */

#define ECDMA_EC_FAST_PTR_ALIGN	64	/* fast paths: block alignment */
#define ECDMA_EC_FAST_LEN_ALIGN	512	/* fast paths: length unit */
#define ECDMA_EC_VAL_CHUNK	2048	/* VALIDATE scratch per code block */
#define ECDMA_EC_Q_CHUNK	4096	/* P scratch of the Q-only fast path */
#define ECDMA_EC_DEC_CACHE	4	/* cap on cached erasure patterns */
#define ECDMA_EC_DEC_CACHE_BYTES	(64 * 1024)
#define ECDMA_EC_DEC_KEY_WORDS	DIV_ROUND_UP(ECDMA_EC_MAX_K + ECDMA_EC_MAX_M, 64)

/**
 * struct ecdma_ec_exec_hooks - environment of the executor
 * @fpu_begin: enter a SIMD section (->fpu algos); only while SIMD is allowed
 * @fpu_end: leave it
 * @pq: optional lib/raid6 path: ptrs = data[0..nsrc), P, Q; P = XOR, Q = sum
 *	{02}^i * data i (@accumulate: ^=).  ECDMA_EC_FAST_* aligned, P/Q never
 *	alias a source; false: nothing written.  Never in an FPU section.
 * @xor: optional xor_blocks() fast path: dest ^= srcs[0..count), count <=
 *	@xor_max, rules as @pq, dest not in @srcs; cannot fail
 * @xor_max: most sources per @xor call
 * @ctx: passed to every hook
 */
struct ecdma_ec_exec_hooks {
	void (*fpu_begin)(void *ctx);
	void (*fpu_end)(void *ctx);
	bool (*pq)(void *ctx, int nsrc, size_t bytes, void **ptrs,
		   bool accumulate);
	void (*xor)(void *ctx, unsigned int count, size_t bytes, void *dest,
		    void **srcs);
	unsigned int xor_max;
	void *ctx;
};

/**
 * struct ecdma_ec_exec_cfg - what an execution context is built for
 * @k: data blocks of the calc
 * @m: code blocks of the calc
 * @matrix: the calc's k x m encode matrix; must outlive the context
 * @algo: preferred GF algo (may need the FPU)
 * @hooks: fast paths and FPU control; NULL: none, and @algo must be FPU-free
 */
struct ecdma_ec_exec_cfg {
	int k;
	int m;
	const u8 *matrix;
	const struct ecdma_gf_algo *algo;
	const struct ecdma_ec_exec_hooks *hooks;
};

/**
 * struct ecdma_ec_exec_policy - how an execution context computes
 * @nt_min: blocks of this many bytes or more get NT stores; 0: per @nt
 * @fast_pq: [band] (ecdma_gf_band() of the inputs): bit c (enum
 *	ecdma_gf_cls): hooks->pq for class c, cached outputs
 * @fast_xor: [band]: bit c: the same for hooks->xor
 * @nt: [kind]: bit c: NT stores for class c outputs not taken to be cached;
 *	bit ECDMA_GF_NT_CACHED(c): for cached ones too, from the data
 *	ecdma_gf_nt_mask() asks
 * @nt_block: [class]: the block of that class's hot store question (0: its
 *	calibration block), for ecdma_gf_nt_mask()
 * @reuse_window: outputs written < this many traffic bytes ago count as cached
 * @fast_pq_cold: as @fast_pq, for outputs not taken to be cached
 * @fast_xor_cold: as @fast_xor, for those
 *
 * Speed only, never results; init: all fast paths, no NT.  Blocks up to 4 KiB,
 * in-place/accumulated outputs and VALIDATE scratch always count as cached.
 */
struct ecdma_ec_exec_policy {
	u32 nt_min;
	u8 fast_pq[ECDMA_GF_BAND_NR];
	u8 fast_xor[ECDMA_GF_BAND_NR];
	u8 nt[ECDMA_GF_KIND_NR];
	u32 nt_block[ECDMA_GF_CLS_NR];
	u64 reuse_window;
	u8 fast_pq_cold[ECDMA_GF_BAND_NR];
	u8 fast_xor_cold[ECDMA_GF_BAND_NR];
};

/**
 * struct ecdma_ec_exec_stats - execution counters, written by the owner
 * @fast_pq_bytes: block bytes done by the RAID-6 fast path
 * @fast_xor_bytes: block bytes done by the XOR fast path
 * @gf_bytes: block bytes done by a GF algo kernel
 * @nofpu_bytes: of @gf_bytes, done by the non-FPU fallback (SIMD not allowed)
 * @fpu_sections: SIMD sections entered
 * @nt_bytes: of @gf_bytes, done by a SIMD algo with NT stores (ECDMA_GF_NT)
 * @dec_hits: DECODE with the calc matrix found its erasure pattern cached
 * @dec_misses: ... and had to compute a decode matrix
 */
struct ecdma_ec_exec_stats {
	u64 fast_pq_bytes;
	u64 fast_xor_bytes;
	u64 gf_bytes;
	u64 nofpu_bytes;
	u64 fpu_sections;
	u64 nt_bytes;
	u64 dec_hits;
	u64 dec_misses;
};

struct ecdma_ec_xctx;

size_t ecdma_ec_exec_size(const struct ecdma_ec_exec_cfg *cfg);
struct ecdma_ec_xctx *ecdma_ec_exec_init(void *mem,
					 const struct ecdma_ec_exec_cfg *cfg);
void ecdma_ec_exec_set_simd(struct ecdma_ec_xctx *x, bool allowed);
void ecdma_ec_exec_set_policy(struct ecdma_ec_xctx *x,
			      const struct ecdma_ec_exec_policy *pol);
int ecdma_ec_exec_start(struct ecdma_ec_xctx *x, struct ecdma_ec_wr *wr);
bool ecdma_ec_exec_run(struct ecdma_ec_xctx *x, long *budget);
bool ecdma_ec_exec_busy(const struct ecdma_ec_xctx *x);
struct ecdma_ec_wr *ecdma_ec_exec_abort(struct ecdma_ec_xctx *x);
void ecdma_ec_exec_fpu_put(struct ecdma_ec_xctx *x);
int ecdma_ec_exec_wr(struct ecdma_ec_xctx *x, struct ecdma_ec_wr *wr);
const struct ecdma_ec_exec_stats *
ecdma_ec_exec_stats(const struct ecdma_ec_xctx *x);

#ifdef __KERNEL__

#include <linux/list.h>
#include <linux/module.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>

#include <ecdma/ec_provider.h>

int ecdma_ec_provider_list(char *buf);

/**
 * enum ecdma_ec_stat - per-calc counters, see ecdma_ec_calc_stats()
 * @ECDMA_EC_STAT_OPS: WRs completed (+ opcode: one counter per opcode)
 * @ECDMA_EC_STAT_BYTES: block bytes (+ opcode): block_size * (in + out)
 * @ECDMA_EC_STAT_ERRORS: WRs completed with an error other than -ECANCELED
 * @ECDMA_EC_STAT_CANCELED: WRs completed with -ECANCELED by dealloc
 * @ECDMA_EC_STAT_POST_REJECTED: posts refused for a malformed WR
 * @ECDMA_EC_STAT_POST_OVERFLOW: posts refused with -EOVERFLOW
 * @ECDMA_EC_STAT_WORKER_OPS: WRs finished by the provider's worker
 * @ECDMA_EC_STAT_INLINE_OPS: WRs finished by ecdma_ec_progress() callers
 * @ECDMA_EC_STAT_INLINE_CALLS: ecdma_ec_progress() calls that executed
 * @ECDMA_EC_STAT_SECTIONS: execution sections (a big request spans several)
 * @ECDMA_EC_STAT_FAST_PQ_BYTES: bytes through lib/raid6
 * @ECDMA_EC_STAT_FAST_XOR_BYTES: bytes through xor_blocks()
 * @ECDMA_EC_STAT_GF_BYTES: bytes through a GF algo kernel
 * @ECDMA_EC_STAT_NOFPU_BYTES: of those, done without SIMD (FPU unusable)
 * @ECDMA_EC_STAT_FPU_SECTIONS: kernel_fpu_begin() sections entered
 * @ECDMA_EC_STAT_NT_BYTES: of the GF bytes, those with non-temporal stores
 * @ECDMA_EC_STAT_DEC_HITS: calc-matrix decodes served by the cache
 * @ECDMA_EC_STAT_DEC_MISSES: calc-matrix decodes that built a matrix
 * @ECDMA_EC_STAT_NR: number of counters
 */
enum ecdma_ec_stat {
	ECDMA_EC_STAT_OPS,
	ECDMA_EC_STAT_BYTES = ECDMA_EC_STAT_OPS + ECDMA_EC_OP_MAX,
	ECDMA_EC_STAT_ERRORS = ECDMA_EC_STAT_BYTES + ECDMA_EC_OP_MAX,
	ECDMA_EC_STAT_CANCELED,
	ECDMA_EC_STAT_POST_REJECTED,
	ECDMA_EC_STAT_POST_OVERFLOW,
	ECDMA_EC_STAT_WORKER_OPS,
	ECDMA_EC_STAT_INLINE_OPS,
	ECDMA_EC_STAT_INLINE_CALLS,
	ECDMA_EC_STAT_SECTIONS,
	ECDMA_EC_STAT_FAST_PQ_BYTES,
	ECDMA_EC_STAT_FAST_XOR_BYTES,
	ECDMA_EC_STAT_GF_BYTES,
	ECDMA_EC_STAT_NOFPU_BYTES,
	ECDMA_EC_STAT_FPU_SECTIONS,
	ECDMA_EC_STAT_NT_BYTES,
	ECDMA_EC_STAT_DEC_HITS,
	ECDMA_EC_STAT_DEC_MISSES,
	ECDMA_EC_STAT_NR,
};

extern const char *const ecdma_ec_stat_names[ECDMA_EC_STAT_NR];

void ecdma_ec_calc_stats(const struct ecdma_ec_calc *calc, u64 *vals);

/**
 * struct ecdma_ec_calc - a calc context
 * @prov: provider (holds a reference)
 * @k: data blocks
 * @m: code blocks
 * @max_inflight: most outstanding WRs
 * @affinity: CPU to execute on, or -1
 * @polling: completions only through ecdma_ec_poll()
 * @matrix: k x m encode matrix (our copy)
 * @lock: guards @pending, @completed, @inflight, @owned, @dead and the post
 *	counters in @stats; irqsave, as posts come from any context
 * @pending: posted WRs not yet taken by an executor, in submission order
 * @completed: polling calcs: completed WRs waiting for ecdma_ec_poll()
 * @inflight: WRs posted and not completed (polling calcs: not reaped)
 * @owned: an executor owns it: only the owner pops, executes, completes WRs
 * @dead: dealloc started: posts fail, no new owner
 * @stats: counters: post ones under @lock, the rest written only by the
 *	owner (or by dealloc once nothing runs), read racily
 * @prov_priv: provider state
 */
struct ecdma_ec_calc {
	struct ecdma_ec_provider *prov;
	int k;
	int m;
	int max_inflight;
	int affinity;
	bool polling;
	u8 *matrix;

	spinlock_t lock; /* guards the queues, see kernel-doc above */
	struct list_head pending;
	struct list_head completed;
	int inflight;
	bool owned;
	bool dead;

	u64 stats[ECDMA_EC_STAT_NR];
	void *prov_priv;
};

static inline void ecdma_ec_stat_add(struct ecdma_ec_calc *calc,
				     enum ecdma_ec_stat idx, u64 val)
{
	WRITE_ONCE(calc->stats[idx], calc->stats[idx] + val);
}

/* ec_post.c */
int ecdma_ec_admit(struct ecdma_ec_calc *calc, int ret);

/* ec_core.c */
int ecdma_ec_core_init(void);
void ecdma_ec_core_exit(void);

/* fault.c: fault injection (debugfs knobs, off by default) */
bool ecdma_ec_fault_wr(struct ecdma_ec_wr *wr);
struct dentry;
void ecdma_ec_fault_init(struct dentry *dir);

#endif /* __KERNEL__ */

#endif /* _ECDMA_EC_PRIV_H */
