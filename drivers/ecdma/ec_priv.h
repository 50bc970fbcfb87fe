/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ecdma EC verbs: internal types shared by the calc core (ec_core.c), the
 * pure validation and execution code (ec_validate.c, ec_exec.c) and the
 * providers (prov_cpu.c; its own knobs are in prov_cpu.h).
 *
 * The first half is pure: it builds in the kernel and, through
 * ecdma_compat.h, in the userspace unit tests.  Everything that needs the
 * kernel proper (locks, work items, modules) is under __KERNEL__ below.
 */
#ifndef _ECDMA_EC_PRIV_H
#define _ECDMA_EC_PRIV_H

#include "ecdma_compat.h"
#include <ecdma/ec.h>
#include "gf_algo.h"

/* ---------------------------------------------------------------------- */
/* ec_validate.c: attribute and work-request checks (pure)                */
/* ---------------------------------------------------------------------- */

int ecdma_ec_validate_attr(const struct ecdma_ec_caps *caps,
			   const struct ecdma_ec_calc_attr *attr);
int ecdma_ec_validate_wr(const struct ecdma_ec_caps *caps, int k, int m,
			 const struct ecdma_ec_wr *wr);
int ecdma_ec_count_set(const u8 *map, int n);

/* ---------------------------------------------------------------------- */
/* ec_exec.c: synchronous execution of one work request (pure)            */
/* ---------------------------------------------------------------------- */

/* Fast paths need every block 64-byte aligned and run on 512-byte units. */
#define ECDMA_EC_FAST_PTR_ALIGN	64
#define ECDMA_EC_FAST_LEN_ALIGN	512
/* VALIDATE computes into scratch this many bytes per code block at a time */
#define ECDMA_EC_VAL_CHUNK	2048
#define ECDMA_EC_Q_CHUNK	4096	/* P scratch of the Q-only fast path */
/* Most cached erasure patterns per calc (fewer for big k x m) */
#define ECDMA_EC_DEC_CACHE	4
#define ECDMA_EC_DEC_CACHE_BYTES	(64 * 1024)
#define ECDMA_EC_DEC_KEY_WORDS	DIV_ROUND_UP(ECDMA_EC_MAX_K + ECDMA_EC_MAX_M, 64)

/**
 * struct ecdma_ec_exec_hooks - environment of the executor
 * @fpu_begin: enter a SIMD section for an algo with ->fpu set; only called
 *	while the executor allows SIMD (see ecdma_ec_exec_set_simd())
 * @fpu_end: leave it
 * @pq: optional RAID-6 fast path (lib/raid6): ptrs[0..nsrc) data, then P
 *	and Q; P = XOR, Q = sum {02}^i * data i, or with @accumulate P/Q ^=
 *	those.  @bytes is a multiple of ECDMA_EC_FAST_LEN_ALIGN and every
 *	pointer ECDMA_EC_FAST_PTR_ALIGN aligned; P/Q never alias a source.
 *	Returns false when it cannot do it now (then nothing was written).
 *	Manages the FPU itself: never called inside @fpu_begin/@fpu_end.
 * @xor: optional XOR fast path (xor_blocks): dest ^= srcs[0..count), count
 *	<= @xor_max, same size and alignment rules as @pq, dest never one of
 *	@srcs.  Cannot fail.  Same FPU rule as @pq.
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
 * @hooks: fast paths and FPU control, or NULL (no fast paths, and then
 *	@algo must not need the FPU)
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
 * @nt_min: blocks of at least this many bytes are written with
 *	non-temporal stores (ECDMA_GF_NT); 0: only as @nt_kmin says
 * @fast_pq: bit c (enum ecdma_gf_cls): use hooks->pq where it fits for
 *	blocks of class c whose outputs are taken to be in the cache
 * @fast_xor: bit c: use hooks->xor where it fits for blocks of class c
 *	whose outputs are taken to be in the cache
 * @nt_kmin: [enum ecdma_gf_kind][enum ecdma_gf_cls]: blocks of class c
 *	are written with non-temporal stores from this many inputs on
 *	(ecdma_gf_flags()); 0: never
 * @reuse_window: outputs the context wrote less than this many bytes of
 *	its traffic ago are taken as cached and never get NT stores
 *	(ecdma_gf_reused()); 0: none is
 * @fast_pq_cold: as @fast_pq, for outputs that are not (the rest)
 * @fast_xor_cold: as @fast_xor, for outputs that are not
 *
 * None of it changes results, only speed; ecdma_ec_exec_init() starts
 * with both fast paths for every class and no NT stores.  Blocks up to
 * 4 KiB, outputs that are also inputs, accumulated ones and VALIDATE's
 * scratch are always taken to be in the cache.
 */
struct ecdma_ec_exec_policy {
	u32 nt_min;
	u8 fast_pq;
	u8 fast_xor;
	u8 nt_kmin[ECDMA_GF_KIND_NR][ECDMA_GF_CLS_NR];
	u64 reuse_window;
	u8 fast_pq_cold;
	u8 fast_xor_cold;
};

/**
 * struct ecdma_ec_exec_stats - execution counters, written by the owner
 * @fast_pq_bytes: block bytes done by the RAID-6 fast path
 * @fast_xor_bytes: block bytes done by the XOR fast path
 * @gf_bytes: block bytes done by a GF algo kernel
 * @nofpu_bytes: part of @gf_bytes done by the non-FPU fallback algo
 *	because SIMD was not allowed in the executing context
 * @fpu_sections: SIMD sections entered
 * @nt_bytes: part of @gf_bytes done by a SIMD algo asked for non-temporal
 *	stores (ECDMA_GF_NT)
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

/* ---------------------------------------------------------------------- */
/* Providers                                                              */
/* ---------------------------------------------------------------------- */

/**
 * struct ecdma_ec_provider_ops - what a provider implements
 * @calc_init: set up provider state for a new calc (calc->prov_priv);
 *	k, m, matrix and the queues are already valid.  Process context,
 *	may sleep.
 * @calc_destroy: free it.  Called after @quiesce; no executor is running
 *	and no WR is left.  Process context, may sleep.
 * @kick: the calc has new pending WRs and no executor owns it: arrange
 *	for them to run.  Any context (hardirq included); must not sleep.
 * @progress: optional: execute pending WRs in the caller's context if no
 *	one else is; returns true when it completed at least one.  Never
 *	called from hardirq or NMI context; may be called with preemption
 *	or interrupts disabled.
 * @quiesce: the calc is dead (posts and new owners are refused) and no
 *	executor owns it: make sure none is scheduled any more, and put any
 *	WR the provider took off the pending queue and did not complete back
 *	at its head (ecdma_ec_exec_unpop()), so that dealloc cancels it.
 *	Process context, may sleep.
 * @stats: optional: add provider counters to @vals (ECDMA_EC_STAT_*).
 *	Any context.
 *
 * The ops table is const and shared by every calc of the provider, in the
 * manner of dw-edma's struct dw_edma_core_ops.
 */
struct ecdma_ec_provider_ops {
	int (*calc_init)(struct ecdma_ec_calc *calc);
	void (*calc_destroy)(struct ecdma_ec_calc *calc);
	void (*kick)(struct ecdma_ec_calc *calc);
	bool (*progress)(struct ecdma_ec_calc *calc);
	void (*quiesce)(struct ecdma_ec_calc *calc);
	void (*stats)(const struct ecdma_ec_calc *calc, u64 *vals);
};

/**
 * struct ecdma_ec_provider - a registered provider
 * @name: unique name ("cpu")
 * @ops: its operations
 * @owner: module to pin while the provider is in use, or NULL when it is
 *	part of ecdma itself (pinning ecdma from ecdma would block rmmod)
 * @caps: what it supports; filled before registration, then read only
 * @node: on the registry list, guarded by the registry mutex
 * @users: ecdma_ec_provider_get() references plus one per live calc
 */
struct ecdma_ec_provider {
	const char *name;
	const struct ecdma_ec_provider_ops *ops;
	struct module *owner;
	struct ecdma_ec_caps caps;
	struct list_head node;
	refcount_t users;
};

int ecdma_ec_provider_register(struct ecdma_ec_provider *prov);
void ecdma_ec_provider_unregister(struct ecdma_ec_provider *prov);
int ecdma_ec_provider_list(char *buf);

/* ---------------------------------------------------------------------- */
/* Counters                                                               */
/* ---------------------------------------------------------------------- */

/**
 * enum ecdma_ec_stat - per-calc counters, see ecdma_ec_calc_stats()
 * @ECDMA_EC_STAT_OPS: WRs completed (+ opcode: one counter per opcode)
 * @ECDMA_EC_STAT_BYTES: block bytes processed (+ opcode): block_size times
 *	(inputs + outputs)
 * @ECDMA_EC_STAT_ERRORS: WRs completed with a non-zero status other than
 *	-ECANCELED
 * @ECDMA_EC_STAT_CANCELED: WRs completed with -ECANCELED by dealloc
 * @ECDMA_EC_STAT_POST_REJECTED: posts refused for a malformed WR
 * @ECDMA_EC_STAT_POST_OVERFLOW: posts refused with -EOVERFLOW
 * @ECDMA_EC_STAT_WORKER_OPS: WRs finished by the provider's worker
 * @ECDMA_EC_STAT_INLINE_OPS: WRs finished by ecdma_ec_progress() callers
 * @ECDMA_EC_STAT_INLINE_CALLS: ecdma_ec_progress() calls that executed
 * @ECDMA_EC_STAT_SECTIONS: execution sections run, by the worker and by
 *	ecdma_ec_progress() callers (a big request spans several)
 * @ECDMA_EC_STAT_FAST_PQ_BYTES: bytes through lib/raid6
 * @ECDMA_EC_STAT_FAST_XOR_BYTES: bytes through xor_blocks()
 * @ECDMA_EC_STAT_GF_BYTES: bytes through a GF algo kernel
 * @ECDMA_EC_STAT_NOFPU_BYTES: of those, bytes done without SIMD because
 *	the executing context could not use the FPU
 * @ECDMA_EC_STAT_FPU_SECTIONS: kernel_fpu_begin() sections entered
 * @ECDMA_EC_STAT_NT_BYTES: of @ECDMA_EC_STAT_GF_BYTES, bytes of blocks big
 *	enough for non-temporal stores (nt_threshold)
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

/* ---------------------------------------------------------------------- */
/* Calc contexts                                                          */
/* ---------------------------------------------------------------------- */

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
 *	counters in @stats; taken with irqsave, posts come from any context
 * @pending: posted WRs not yet taken by an executor, in submission order
 * @completed: polling calcs: completed WRs waiting for ecdma_ec_poll()
 * @inflight: WRs posted and not yet completed (for polling calcs: not yet
 *	reaped)
 * @owned: an executor owns the calc (ecdma_ec_exec_acquire()); only the
 *	owner takes WRs off @pending, executes and completes them
 * @dead: dealloc started: posts fail, no new owner
 * @stats: counters; the post ones under @lock, all others written only by
 *	the owner (or by dealloc once no executor can run), read racily
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

/*
 * Executor side, for providers that execute WRs in software.  The owner
 * protocol: ecdma_ec_exec_acquire() makes the caller the only executor,
 * ecdma_ec_exec_pop() takes WRs in order, ecdma_ec_complete_list()
 * completes them in the same order, ecdma_ec_exec_release() gives the calc
 * back and says whether work is left (the caller then kicks).  An owner
 * must not be preempted: hold it with preemption disabled, so that an
 * inline caller spinning with preemption off can never wait for a
 * preempted owner.
 */
bool ecdma_ec_exec_acquire(struct ecdma_ec_calc *calc);
struct ecdma_ec_wr *ecdma_ec_exec_pop(struct ecdma_ec_calc *calc);
void ecdma_ec_exec_unpop(struct ecdma_ec_calc *calc, struct ecdma_ec_wr *wr);
bool ecdma_ec_exec_release(struct ecdma_ec_calc *calc, bool busy);
void ecdma_ec_complete_list(struct ecdma_ec_calc *calc,
			    struct list_head *list);

static inline void ecdma_ec_stat_add(struct ecdma_ec_calc *calc,
				     enum ecdma_ec_stat idx, u64 val)
{
	WRITE_ONCE(calc->stats[idx], calc->stats[idx] + val);
}

/* ec_core.c */
int ecdma_ec_admit(struct ecdma_ec_calc *calc, int ret);
int ecdma_ec_core_init(void);
void ecdma_ec_core_exit(void);

/* fault.c: fault injection (debugfs knobs, off by default) */
bool ecdma_ec_fault_wr(struct ecdma_ec_wr *wr);
struct dentry;
void ecdma_ec_fault_init(struct dentry *dir);

#endif /* __KERNEL__ */

#endif /* _ECDMA_EC_PRIV_H */
