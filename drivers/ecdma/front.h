/* SPDX-License-Identifier: GPL-2.0 */
/* ecdma dmaengine front: a calc per channel, a WR per prep, in cookie order */
#ifndef _ECDMA_FRONT_H
#define _ECDMA_FRONT_H

#include <linux/dmaengine.h>
#include <linux/interrupt.h>
#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/platform_device.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/version.h>
#include <linux/workqueue.h>

#include <ecdma/ec.h>

#include "ecdma_compat.h"
#include "policy.h"
#include "xlate.h"

#define ECDMA_MAX_CHANS		64	/* most channels, whatever the CPUs */
#define ECDMA_DESC_INIT		32	/* descriptors per channel at probe */
#define ECDMA_DESC_MAX		4096	/* ... grown (GFP_NOWAIT) up to this */
/* ... and past desc_max only for descriptors clients hold unacked */
#define ECDMA_DESC_HARD		(2 * ECDMA_DESC_MAX)
/* inline sources (md: up to 34 disks); more use ->big, to keep this small */
#define ECDMA_DESC_SRC		32
#define ECDMA_ALIGN_DECLINE	30	/* log2, 1 GiB: no md op meets it */
#define ECDMA_LAT_BUCKETS	16	/* submit -> completion histogram */
#define ECDMA_LAT_SHIFT		10	/* bucket 0: < 2^10 ns */

/*
 * Pacing (dma.c, ecdma_chan_pace()): prep admits async_tx work while the
 * channel holds less than it drains in ECDMA_PACE_MS.  md waits for its
 * newest descriptor in dma_sync_wait() with preemption off, running all the
 * work ahead of it inline, and panics after 5 s; the margin covers a waiter
 * draining slower than measured and a host that slows down meanwhile.
 */
#define ECDMA_PACE_MS		500
#define ECDMA_PACE_WIN_NS	(20 * NSEC_PER_MSEC)	/* of time with work */
#define ECDMA_PACE_MIN		SZ_1M	/* never pace below; until measured */

/* 6.12 routes dma-iommu without dma_map_ops (dev->dma_iommu) */
static inline bool ecdma_dev_dma_iommu(const struct device *dev)
{
#if ECDMA_KERNEL_AT_LEAST(6, 12) && IS_ENABLED(CONFIG_IOMMU_DMA)
	return dev->dma_iommu;
#else
	return false;
#endif
}

/* drivers/dma/dmaengine.h helpers (not in linux-headers), renamed */
static inline void ecdma_cookie_init(struct dma_chan *chan)
{
	chan->cookie = DMA_MIN_COOKIE;
	chan->completed_cookie = DMA_MIN_COOKIE;
}

/* the caller serialises assigns */
static inline dma_cookie_t ecdma_cookie_assign(struct dma_async_tx_descriptor *tx)
{
	struct dma_chan *chan = tx->chan;
	dma_cookie_t cookie;

	cookie = chan->cookie + 1;
	if (cookie < DMA_MIN_COOKIE)
		cookie = DMA_MIN_COOKIE;
	tx->cookie = cookie;
	chan->cookie = cookie;

	return cookie;
}

/* the caller serialises completes; WARNs where the kernel BUG()s */
static inline void ecdma_cookie_complete(struct dma_async_tx_descriptor *tx)
{
	if (WARN_ON_ONCE(tx->cookie < DMA_MIN_COOKIE))
		return;
	tx->chan->completed_cookie = tx->cookie;
	tx->cookie = 0;
}

/* no locking needed */
static inline enum dma_status ecdma_cookie_status(struct dma_chan *chan,
						  dma_cookie_t cookie,
						  struct dma_tx_state *state)
{
	dma_cookie_t used, complete;

	/* completed first: "used" is then never behind it (else a wrap) */
	complete = READ_ONCE(chan->completed_cookie);
	/* both are written under the channel lock: its release orders them */
	smp_rmb();
	used = READ_ONCE(chan->cookie);
	if (state) {
		state->last = complete;
		state->used = used;
		state->residue = 0;
		state->in_flight_bytes = 0;
	}
	return dma_async_is_complete(cookie, complete, used);
}

/**
 * struct ecdma_chan_stats - per-CPU counters of one channel
 * @ops: completed operations per enum ecdma_op_type
 * @bytes: bytes per block of those operations
 * @errors: operations that did not run (bad address, EC error, terminate_all)
 * @inline_progress: tx_status/issue_pending calls that ran work inline
 * @prep_full: prep calls that found no free descriptor (returned NULL)
 * @prep_paced: prep calls refused because the queue was full (pacing)
 * @cb_released: descriptors a dry pool took back before their callback ran
 * @faults: operations the EC provider failed (injected faults included)
 * @fallbacks: of those, operations recomputed on the generic path
 * @rescued: operations neither ran (or the engine refused) that the front
 *	computed on the CPU (xlate_run.c)
 * @cb_at_submit: XORs run at tx_submit, their callbacks before it
 *	returned (md reads what they set: ecdma_desc_run_at_submit())
 * @fused: operations that ran inside an earlier one's WR (dma_fuse.c)
 * @lat: completions by latency: bucket i < 2^(ECDMA_LAT_SHIFT + i) ns
 */
struct ecdma_chan_stats {
	u64 ops[ECDMA_OP_NR];
	u64 bytes[ECDMA_OP_NR];
	u64 errors[ECDMA_OP_NR];
	u64 inline_progress;
	u64 prep_full;
	u64 prep_paced;
	u64 cb_released;
	u64 faults;
	u64 fallbacks;
	u64 rescued;
	u64 cb_at_submit;
	u64 fused;
	u64 lat[ECDMA_LAT_BUCKETS];
};

struct ecdma_front;

/* a range of System RAM: [start, end) */
struct ecdma_ram_range {
	u64 start;
	u64 end;
};

/**
 * struct ecdma_chan - one dmaengine channel = one EC verbs calc
 * @chan: the dmaengine channel
 * @front: owning front
 * @idx: channel index, for messages (dmaengine's name may be gone)
 * @calc: calc on the front's provider; its WR queue is the channel's
 *	queue.  Swapped only under @lock (failover), read with preemption
 *	off; the old one is freed after an RCU grace period
 * @stats: per-CPU counters
 * @fb_calc: redoes what @calc failed; only from @calc's serialized completions
 * @lock: guards the lists, @nr_desc, @nr_pending, the cookies and chan.local;
 *	held across ecdma_ec_post() (no half-done post), never across
 *	ecdma_ec_progress() or a callback; irqsave: prep may run with IRQs off
 * @free: completed and acked descriptors, ready for prep
 * @submitted: cookie assigned, not yet posted, in cookie order
 * @posted: posted to @calc, ->done not run yet, in cookie order
 * @callbacks: struct ecdma_cb of completed descriptors (or records of their
 *	callbacks) whose callback was not delivered yet, in cookie order
 * @completed: completed, waiting for the client's ack
 * @all: every descriptor of the channel (ecdma_desc.all_node)
 * @nr_desc: descriptors on @all
 * @nr_held: descriptors on @completed: the client's until it acks them,
 *	not counted against desc_max (sysfs reads it without @lock)
 * @nr_pending: descriptors submitted and not retired, plus records on
 *	@callbacks (callback not returned)
 * @starved: a prep found none: issue_pending runs work inline (async_tx spins)
 * @pinned: the user set the worker's CPU; the offload policy keeps it
 * @draining: failover (dma_failover.c) waits for @calc to empty: nothing
 *	is posted; under @lock
 * @failed_over: @calc is on the CPU provider of a device's front whose
 *	engine went away: blocks are translated when posted; under @lock
 * @q_bytes: work (ecdma_desc_cost()) submitted and not completed
 * @q_max: prep refuses async_tx work while @q_bytes reaches it; 0: not
 *	measured yet (ECDMA_PACE_MIN)
 * @rate: bytes run per ms of time with work queued, smoothed; 0: none yet
 * @busy_since: ktime_get_ns() up to which that time was counted
 * @win_bytes: bytes run in the current window of @rate
 * @win_ns: time with work queued in the current window
 *	(@q_bytes to @win_ns: under @lock; sysfs reads the first three
 *	without it)
 * @private: held by a DMA_PRIVATE client; guarded by front->cfg_lock
 * @cb_tasklet: delivers @callbacks, in order, outside the clients' calls
 * @active: a client holds the channel; guarded by front->cfg_lock
 */
struct ecdma_chan {
	struct dma_chan chan;
	struct ecdma_front *front;
	unsigned int idx;
	struct ecdma_ec_calc *calc;
	struct ecdma_chan_stats __percpu *stats;
	struct ecdma_ec_calc *fb_calc;

	spinlock_t lock;	/* see @lock above */
	struct list_head free;
	struct list_head submitted;
	struct list_head posted;
	struct list_head callbacks;
	struct list_head completed;
	struct list_head all;
	unsigned int nr_desc;
	unsigned int nr_held;
	unsigned int nr_pending;
	bool starved;
	bool pinned;
	bool draining;
	bool failed_over;
	u64 q_bytes;
	u64 q_max;
	u64 rate;
	u64 busy_since;
	u64 win_bytes;
	u64 win_ns;
	struct tasklet_struct cb_tasklet;
	bool active;
	bool private;
};

/**
 * struct ecdma_desc_big - room for an operation with the most sources
 * @data: its sources
 * @mat: their coefficients
 */
struct ecdma_desc_big {
	struct ecdma_ec_sge data[ECDMA_XLATE_MAX_SRC];
	u8 mat[ECDMA_XLATE_MAX_SRC * ECDMA_XLATE_MAX_CODE];
};

/**
 * struct ecdma_cb - a callback waiting for its channel's tasklet (dma_cb.c)
 * @node: on ecdma_chan.callbacks, in cookie order
 * @d: the descriptor it belongs to; NULL in a record, which holds a copy
 *	of the callback while the descriptor went back to the pool
 * @callback: the copied callback (record only)
 * @callback_result: the copied callback_result (record only)
 * @param: the copied callback_param (record only)
 * @res: the result it gets (record only)
 * @desc: the descriptor it came from, for the trace only (record only)
 * @op: enum ecdma_op_type (record only)
 * @aborted: terminate_all suppressed it (record only; else @d->aborted)
 */
struct ecdma_cb {
	struct list_head node;
	struct ecdma_desc *d;
	dma_async_tx_callback callback;
	dma_async_tx_callback_result callback_result;
	void *param;
	struct dmaengine_result res;
	const void *desc;
	u8 op;
	bool aborted;
};

/**
 * struct ecdma_desc - a dmaengine descriptor and its EC verbs WR
 * @txd: the dmaengine descriptor handed to the client
 * @ch: owning channel
 * @cb: its place on @ch->callbacks while its callback waits (dma_cb.c)
 * @node: on one of @ch's lists (or none while the client holds it)
 * @all_node: on @ch->all
 * @result: VAL ops: where the sum_check_flags result goes
 * @res: the result its callback gets
 * @err: cannot run anywhere (an address not RAM): runs as a NOP
 * @refused: the provider refused it for good (its post's error): runs as
 *	a NOP and the front computes it on the CPU at its completion
 * @cpu_addrs: @x's own blocks are kernel addresses (a device's front keeps
 *	its DMA addresses until the fallback or the rescue needs the CPU's)
 * @t_submit: ktime_get_ns() at tx_submit, for the latency histogram
 * @cost: its work on @ch's queue from tx_submit to completion (pacing)
 * @aborted: terminate_all: completes without callback
 * @cb_at_submit: tx_submit runs it and calls back before returning
 * @cb_due: it completed and its callback waits for tx_submit (release:
 *	set once completion is done with it, under @ch->lock)
 * @fused: the descriptors after it whose operations its WR runs too
 *	(dma_fuse.c); they complete with it.  Under ch->lock until posted.
 * @mem: memory layout of @wr
 * @wr: the work request posted to @ch->calc
 * @x: the translated operation; @mem points into it
 * @src_data: room for @x's sources, up to ECDMA_DESC_SRC
 * @src_mat: and their coefficients
 * @big: room for up to ECDMA_XLATE_MAX_SRC, or NULL; kept once allocated
 */
struct ecdma_desc {
	struct dma_async_tx_descriptor txd;
	struct ecdma_cb cb;
	struct ecdma_chan *ch;
	struct list_head node;
	struct list_head all_node;
	enum sum_check_flags *result;
	struct dmaengine_result res;
	int err;
	int refused;
	bool cpu_addrs;
	bool aborted;
	bool cb_at_submit;
	bool cb_due;
	u8 fused;
	u64 t_submit;
	u64 cost;
	struct ecdma_ec_mem mem;
	struct ecdma_ec_wr wr;
	struct ecdma_xlate_wr x;
	struct ecdma_ec_sge src_data[ECDMA_DESC_SRC];
	u8 src_mat[ECDMA_DESC_SRC * ECDMA_XLATE_MAX_CODE];
	struct ecdma_desc_big *big;
};

struct ecdma_sysfs;
struct ecdma_debugfs;

/**
 * struct ecdma_front - a dmaengine provider on a device
 * @dma: the dmaengine device; freed by its ->device_release
 * @dev: ecdma's platform device, or the device whose engine @prov is
 * @prov: EC verbs provider executing the channels' calcs
 * @dev_addrs: @prov is @dev's engine: blocks go to it as @dev's DMA
 *	addresses, and only its fallback and rescue translate them
 * @iommu: @dev's translating IOMMU domain (@dev_addrs only), or NULL
 * @fb_prov: the CPU provider, for the channels' fallback calcs, or NULL
 * @caps: its capabilities
 * @max_desc: descriptors per channel at most (= the calcs' max_inflight)
 * @desc_max: pools grow up to this (<= @max_desc); sysfs, read locklessly
 * @calc_k: data blocks of the calcs, the most sources of one operation
 * @calc_matrix: the calcs' own calc_k x 2 matrix
 * @core_stats: feed chan->local; cleared before unregistering, read under lock
 * @inline_issue: issue_pending also runs work inline; sysfs, read locklessly
 * @fuse: enum ecdma_fuse_mode (sysfs); written by ecdma_fuse_set() only
 * @fuse_active: what @fuse resolves to, read locklessly when posting;
 *	written by ecdma_fuse_set() and the calibration (dma_fuse.c)
 * @fuse_win: composing chains won ecdma_fuse_calibrate() at probe
 * @align: the copy/xor/pq alignment the provider needs (log2); set at probe
 * @nr_private: DMA_PRIVATE channels (copies use @align only then); @cfg_lock
 * @policy: the offload policy's state, private to policy.c (policy.h)
 * @sysfs: sysfs counters (sysfs.c)
 * @dbg: debugfs state (debugfs.c), or NULL
 * @closing: rechannel is unregistering, no new clients; guarded by @cfg_lock
 * @ghost: the engine's driver let go while clients held channels: the
 *	front stays registered, out of async_tx's table, on the CPU, until
 *	they let go; set under @cfg_lock (dma_failover.c)
 * @ghost_work: then unregisters it
 * @ghost_node: on the list of ghost fronts (dma_failover.c)
 * @ram: System RAM at probe, sorted, merged: [start, end) pairs
 * @nr_ram: ranges in @ram
 * @cfg_lock: serialises idle-channel config changes against clients; guards
 *	chans[i].active, chans[i].calc swaps, dma.cap_mask writes after register
 * @nr_chans: channels in @chans
 * @chans: the channels
 */
struct ecdma_front {
	struct dma_device dma;
	struct device *dev;
	struct ecdma_ec_provider *prov;
	bool dev_addrs;
	struct iommu_domain *iommu;
	struct ecdma_ec_provider *fb_prov;
	struct ecdma_ec_caps caps;
	unsigned int max_desc;
	unsigned int desc_max;
	unsigned int calc_k;
	u8 calc_matrix[ECDMA_XLATE_MAX_SRC * ECDMA_XLATE_MAX_CODE];
	bool core_stats;
	bool inline_issue;
	u8 fuse;
	bool fuse_active;
	bool fuse_win;
	enum dmaengine_alignment align;
	unsigned int nr_private;
	struct ecdma_policy policy;
	struct ecdma_sysfs *sysfs;
	struct ecdma_debugfs *dbg;
	struct ecdma_ram_range *ram;
	unsigned int nr_ram;
	struct mutex cfg_lock;	/* see @cfg_lock above */
	bool closing;
	bool ghost;
	struct work_struct ghost_work;
	struct list_head ghost_node;
	unsigned int nr_chans;
	struct ecdma_chan chans[];
};

static inline struct ecdma_chan *to_ecdma_chan(struct dma_chan *chan)
{
	return container_of(chan, struct ecdma_chan, chan);
}

static inline struct ecdma_desc *to_ecdma_desc(struct dma_async_tx_descriptor *tx)
{
	return container_of(tx, struct ecdma_desc, txd);
}

/*
 * Whether @d hands its result to the next descriptor only: the client
 * FENCEd the next on it and asked for no callback (dma_fuse.c).
 */
static inline bool ecdma_desc_links(const struct ecdma_desc *d)
{
	return (d->txd.flags & DMA_PREP_FENCE) && !d->txd.callback &&
	       !d->txd.callback_result;
}

/*
 * The work @d puts on its channel: the bytes of all its blocks, as the
 * provider's budgets count them; a NOP (interrupt, refused operation) none.
 */
static inline u64 ecdma_desc_cost(const struct ecdma_desc *d)
{
	if (d->wr.opcode == ECDMA_EC_OP_NOP)
		return 0;
	return (u64)d->x.len * (d->x.nr_data + d->x.nr_code);
}

/* true when a client holds any channel; caller holds cfg_lock */
static inline bool ecdma_front_busy(struct ecdma_front *front)
{
	unsigned int i;

	lockdep_assert_held(&front->cfg_lock);
	for (i = 0; i < front->nr_chans; i++)
		if (front->chans[i].active)
			return true;
	return false;
}

/* dma_addr.c */
int ecdma_front_ram_init(struct ecdma_front *front);
void ecdma_front_ram_exit(struct ecdma_front *front);
int ecdma_addr_to_cpu(struct ecdma_front *front, u64 *addr, u32 len);
int ecdma_sges_to_cpu(struct ecdma_front *front, struct ecdma_ec_sge *sge,
		      unsigned int n, u32 len);

/* keeps cookie order; no flags: posts refuse a NOP with WR_ACCUMULATE */
static inline void ecdma_desc_nop(struct ecdma_desc *d)
{
	d->wr.opcode = ECDMA_EC_OP_NOP;
	d->wr.flags = 0;
	d->wr.mem = NULL;
	d->wr.matrix = NULL;
}

/* prep.c */
struct ecdma_desc *ecdma_desc_new(struct ecdma_chan *ch, gfp_t gfp);
void ecdma_desc_free(struct ecdma_desc *d);
void ecdma_prep_set_ops(struct dma_device *dma);

/* dma_fuse.c */
enum ecdma_fuse_mode {
	ECDMA_FUSE_AUTO,	/* as the calibration at probe found */
	ECDMA_FUSE_ON,
	ECDMA_FUSE_OFF,
	ECDMA_FUSE_NR,
};

extern const char *const ecdma_fuse_names[ECDMA_FUSE_NR];
void ecdma_fuse_set(struct ecdma_front *front, enum ecdma_fuse_mode mode);
int ecdma_fuse_calibrate(struct ecdma_front *front);
void ecdma_chan_fuse(struct ecdma_chan *ch, struct ecdma_desc *d);
void ecdma_desc_unfuse(struct ecdma_desc *d);

/* dma.c */
dma_cookie_t ecdma_tx_submit(struct dma_async_tx_descriptor *tx);
void ecdma_chan_post(struct ecdma_chan *ch);
void ecdma_chan_progress(struct ecdma_chan *ch);
void ecdma_wr_done(struct ecdma_ec_wr *wr);
void ecdma_desc_retire(struct ecdma_chan *ch, struct ecdma_desc *d);

/* dma_cb.c */
void ecdma_cb_invoke(dma_async_tx_callback_result callback_result,
		     dma_async_tx_callback callback, void *param,
		     const struct dmaengine_result *res);
void ecdma_chan_callbacks(struct tasklet_struct *t);
void ecdma_desc_run_at_submit(struct ecdma_chan *ch, struct ecdma_desc *d);
unsigned int ecdma_cb_release(struct ecdma_chan *ch);

/* dma_fail.c */
void ecdma_wr_fallback(struct ecdma_chan *ch, struct ecdma_ec_wr *wr);
int ecdma_desc_wr_to_cpu(struct ecdma_chan *ch, struct ecdma_desc *d);
bool ecdma_desc_rescue(struct ecdma_chan *ch, struct ecdma_desc *d, int err);
void ecdma_chan_drain(struct ecdma_chan *ch);
void ecdma_chan_stats_sum(struct ecdma_chan *ch, struct ecdma_chan_stats *sum);
void ecdma_dma_set_ops(struct dma_device *dma);

/**
 * ecdma_front_set_async_tx - offer the device to async_tx, or stop
 * @front: the registered front
 * @on: set DMA_ASYNC_TX, else clear it
 *
 * Sole writer after registration (atomic bitops); read at dmaengine's rebuild.
 * Context: holds front->cfg_lock.
 */
static inline void ecdma_front_set_async_tx(struct ecdma_front *front,
					    bool on)
{
	lockdep_assert_held(&front->cfg_lock);
	if (on)
		dma_cap_set(DMA_ASYNC_TX, front->dma.cap_mask);
	else
		dma_cap_clear(DMA_ASYNC_TX, front->dma.cap_mask);
}

/* init.c */
int ecdma_front_probe(struct device *dev, const char *prov_name);
int ecdma_front_failover(struct ecdma_front *front);
struct ecdma_ec_calc_attr ecdma_front_calc_attr(const struct ecdma_front *front,
						int cpu);
void ecdma_front_retire(struct ecdma_front *front);
void ecdma_front_ghost(struct ecdma_front *front);
void ecdma_front_ghost_check(struct ecdma_front *front);
int ecdma_front_ghosts_init(void);
void ecdma_front_ghosts_exit(void);
void ecdma_front_remove(struct device *dev);
void ecdma_front_stats_reset(struct ecdma_front *front);
int ecdma_chan_recalc(struct ecdma_chan *ch, struct ecdma_ec_provider *prov);
int ecdma_front_close(struct ecdma_front *front);
int ecdma_front_rechannel(struct device *dev, unsigned int nr);

/* debugfs.c (not ABI) */
struct dentry *ecdma_debugfs_create(void);
void ecdma_debugfs_destroy(void);
void ecdma_debugfs_init(struct ecdma_front *front);
void ecdma_debugfs_exit(struct ecdma_front *front);
void ecdma_debugfs_error(struct ecdma_front *front, unsigned int chan,
			 unsigned int op, int err);

/* selftest.c; its buffers and waits serve the fuse calibration too */
int ecdma_selftest(struct ecdma_front *front);
int ecdma_probe_pages(struct device *dev, struct page **page,
		      dma_addr_t *dma, unsigned int n);
void ecdma_probe_pages_free(struct device *dev, struct page **page,
			    dma_addr_t *dma, unsigned int n);
int ecdma_probe_wait(struct ecdma_chan *ch, dma_cookie_t cookie);

/* sysfs.c */
int ecdma_sysfs_init(struct ecdma_front *front);
void ecdma_sysfs_exit(struct ecdma_front *front);

/* sysfs_chan.c */
/**
 * struct ecdma_stats_kobj - a stats directory
 * @kobj: its kobject
 * @front: the front whose channels it reports
 * @chan: channel index, or -1 for the totals
 */
struct ecdma_stats_kobj {
	struct kobject kobj;
	struct ecdma_front *front;
	int chan;
};

extern const struct kobj_type ecdma_stats_ktype;
extern const struct kobj_type ecdma_cfg_ktype;
struct ecdma_stats_kobj *ecdma_stats_add(struct ecdma_front *front, int chan,
					 struct kobject *parent,
					 const struct kobj_type *ktype);

#endif /* _ECDMA_FRONT_H */
