// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma dmaengine provider: MEMCPY, XOR, XOR_VAL, PQ, PQ_VAL and INTERRUPT
 * for async_tx and md-raid456, executed by EC verbs calcs.
 *
 * Descriptor life cycle (all lists per channel, under ch->lock):
 *
 *   free --prep--> (client) --tx_submit--> submitted --issue_pending-->
 *   posted --WR ->done--> [callbacks --tasklet-->] completed --ack--> free
 *
 * with a detour through callbacks (completed, callback not delivered yet)
 * for descriptors that carry a callback.  A descriptor acked before it
 * completes goes straight back to free.  Cookies are assigned in
 * tx_submit and WRs are posted in cookie order to the channel's calc,
 * which runs and completes them in that order, so cookies complete in
 * order.  Posting moves the whole of submitted to the calc under the
 * channel lock: no task can be preempted with half of it posted.
 *
 * Execution and callbacks.  tx_status (and issue_pending, with
 * inline_issue or after a prep found the pool empty) runs pending work
 * inline (ecdma_ec_progress()), so a caller spinning with preemption off
 * never waits for a worker that cannot run.  Client callbacks never run
 * inside the client's own call, though: a client may hold its lock across
 * issue_pending and take it in the callback.  A WR completing inside such
 * a call completes its cookie and unmaps, and leaves the callback to the
 * channel's tasklet; one completing in the provider's worker delivers it
 * through the same tasklet at once (local_bh_enable()), so callbacks keep
 * cookie order whoever ran the work.
 *
 * Addresses: async_tx maps pages for our device with the DMA API and hands
 * us dma_addr_t.  The CPU provider needs kernel virtual addresses, which
 * dma_addr.c recovers for direct, untranslated, unbounced mappings (which
 * probe verifies) of RAM in the direct map (which it checks per block).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/dma-direct.h>
#include <linux/dma-map-ops.h>
#include <linux/dma-mapping.h>
#include <linux/error-injection.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/swiotlb.h>

#include "ec_priv.h"
#include "front.h"
#include "gf_algo.h"

/* xlate.c is pure code and mirrors these kernel definitions. */
static_assert(ECDMA_XLATE_PREP_INTERRUPT == DMA_PREP_INTERRUPT);
static_assert(ECDMA_XLATE_CTRL_ACK == DMA_CTRL_ACK);
static_assert(ECDMA_XLATE_PQ_DISABLE_P == DMA_PREP_PQ_DISABLE_P);
static_assert(ECDMA_XLATE_PQ_DISABLE_Q == DMA_PREP_PQ_DISABLE_Q);
static_assert(ECDMA_XLATE_PREP_CONTINUE == DMA_PREP_CONTINUE);
static_assert(ECDMA_XLATE_PREP_FENCE == DMA_PREP_FENCE);
static_assert(ECDMA_XLATE_SUM_P == SUM_CHECK_P_RESULT);
static_assert(ECDMA_XLATE_SUM_Q == SUM_CHECK_Q_RESULT);
/* prep's dma_addr_t arrays are passed to xlate as u64 arrays */
static_assert(__same_type(dma_addr_t, u64));

static dma_cookie_t ecdma_tx_submit(struct dma_async_tx_descriptor *tx);
static void ecdma_chan_post(struct ecdma_chan *ch);
static void ecdma_chan_progress(struct ecdma_chan *ch);
static void ecdma_wr_done(struct ecdma_ec_wr *wr);

/*
 * Nesting depth of the client calls (issue_pending, tx_status, drain) that
 * execute work inline on this CPU.  A WR completing while it is non-zero
 * completes inside a client's call and must leave its callback to the
 * tasklet.  Read and written with preemption disabled (inline execution
 * never migrates).
 */
static DEFINE_PER_CPU(unsigned int, ecdma_inline_depth);

/* noinline: fail_function must find it (below) */
static noinline struct ecdma_desc *ecdma_desc_new(struct ecdma_chan *ch,
						  gfp_t gfp)
{
	struct ecdma_desc *d;

	/*
	 * kmalloc, not a cache of our own: a kmem_cache per front would be
	 * created at every re-probe (channels, algo stores), and a failed
	 * kmem_cache_create() dumps a stack on the console.
	 */
	d = kzalloc(sizeof(*d), gfp);
	if (!d)
		return NULL;
	d->ch = ch;
	INIT_LIST_HEAD(&d->node);
	dma_async_tx_descriptor_init(&d->txd, &ch->chan);
	d->txd.tx_submit = ecdma_tx_submit;
	return d;
}

/* fail_function may make it fail (tests): prep then returns NULL */
ALLOW_ERROR_INJECTION(ecdma_desc_new, NULL);

/*
 * Take a free descriptor: from the free list, else from completed ones the
 * client has acked since, else a new one while below the channel's limit.
 * NULL means every descriptor is in flight or unacked: issue_pending (which
 * runs the work inline) and the clients' acks clear that.
 */
static struct ecdma_desc *ecdma_desc_get(struct ecdma_chan *ch)
{
	struct ecdma_desc *d, *n;
	unsigned long flags;
	bool grow;

	spin_lock_irqsave(&ch->lock, flags);
	if (list_empty(&ch->free))
		list_for_each_entry_safe(d, n, &ch->completed, node)
			if (async_tx_test_ack(&d->txd))
				list_move_tail(&d->node, &ch->free);
	d = list_first_entry_or_null(&ch->free, struct ecdma_desc, node);
	if (d) {
		list_del_init(&d->node);
		spin_unlock_irqrestore(&ch->lock, flags);
		return d;
	}
	grow = ch->nr_desc < ch->front->max_desc;
	if (grow)
		ch->nr_desc++;
	spin_unlock_irqrestore(&ch->lock, flags);

	d = grow ? ecdma_desc_new(ch, GFP_NOWAIT | __GFP_NOWARN) : NULL;
	if (grow) {
		spin_lock_irqsave(&ch->lock, flags);
		if (d)
			list_add_tail(&d->all_node, &ch->all);
		else
			ch->nr_desc--;
		spin_unlock_irqrestore(&ch->lock, flags);
	}
	if (!d) {
		/* the client's retry calls issue_pending: run work there */
		WRITE_ONCE(ch->starved, true);
		this_cpu_inc(ch->stats->prep_full);
	}
	return d;
}

static void ecdma_desc_put(struct ecdma_chan *ch, struct ecdma_desc *d)
{
	unsigned long flags;

	spin_lock_irqsave(&ch->lock, flags);
	list_add(&d->node, &ch->free);
	spin_unlock_irqrestore(&ch->lock, flags);
}

/*
 * Turn @d's WR into a NOP that completes its cookie in order: no memory,
 * no matrix, and no flags (a NOP that kept ECDMA_EC_WR_ACCUMULATE would be
 * refused by every post, for ever).
 */
static void ecdma_desc_nop(struct ecdma_desc *d)
{
	d->wr.opcode = ECDMA_EC_OP_NOP;
	d->wr.flags = 0;
	d->wr.mem = NULL;
	d->wr.matrix = NULL;
}

/*
 * Finish a prep call: @ret is the translation's result.  Copies nothing
 * from the caller (xlate already did), writes nothing through @result
 * before completion, and never pre-acks.
 */
static struct dma_async_tx_descriptor *
ecdma_desc_prepare(struct ecdma_chan *ch, struct ecdma_desc *d, int ret,
		   unsigned long flags, enum sum_check_flags *result)
{
	struct ecdma_front *front = ch->front;
	struct dma_async_tx_descriptor *tx = &d->txd;
	struct ecdma_xlate_wr *x = &d->x;
	unsigned int i;

	if (!ret && x->opcode != ECDMA_EC_OP_NOP &&
	    !IS_ALIGNED(x->len, front->caps.block_align))
		ret = -EINVAL;
	if (ret) {
		dev_err_ratelimited(front->dev,
				    "chan%u: operation rejected (%d): bad source count or length\n",
				    ch->idx, ret);
		ecdma_debugfs_error(front, ch->idx, ECDMA_OP_NR, ret);
		ecdma_desc_put(ch, d);
		return NULL;
	}

	d->err = 0;
	for (i = 0; i < x->nr_data && !d->err; i++)
		d->err = ecdma_addr_to_cpu(front, &x->data[i].addr, x->len);
	for (i = 0; i < x->nr_code && !d->err; i++)
		d->err = ecdma_addr_to_cpu(front, &x->code[i].addr, x->len);
	if (d->err)
		dev_err_ratelimited(front->dev,
				    "chan%u: address not mapped, or not RAM in the direct map; the operation will not run\n",
				    ch->idx);

	d->result = result;
	d->aborted = false;
	d->mem.data_blocks = x->data;
	d->mem.num_data_sge = x->nr_data;
	d->mem.code_blocks = x->code;
	d->mem.num_code_sge = x->nr_code;
	d->mem.block_size = x->len;
	d->wr.opcode = x->opcode;
	d->wr.flags = x->wr_flags;
	d->wr.mem = x->opcode == ECDMA_EC_OP_NOP ? NULL : &d->mem;
	d->wr.matrix = x->matrix;
	if (d->err)
		ecdma_desc_nop(d);
	d->wr.erasures = NULL;
	d->wr.data_updates = NULL;
	d->wr.code_updates = NULL;
	d->wr.done = ecdma_wr_done;
	d->wr.status = 0;
	d->wr.result = 0;
	d->wr.ctx = d;

	tx->flags = flags;
	tx->cookie = -EBUSY;
	tx->callback = NULL;
	tx->callback_result = NULL;
	tx->callback_param = NULL;
	tx->unmap = NULL;
	return tx;
}

static dma_cookie_t ecdma_tx_submit(struct dma_async_tx_descriptor *tx)
{
	struct ecdma_desc *d = to_ecdma_desc(tx);
	struct ecdma_chan *ch = d->ch;
	dma_cookie_t cookie;
	unsigned long flags;

	d->t_submit = ktime_get_ns();
	spin_lock_irqsave(&ch->lock, flags);
	cookie = ecdma_cookie_assign(tx);
	list_add_tail(&d->node, &ch->submitted);
	WRITE_ONCE(ch->nr_pending, ch->nr_pending + 1);
	spin_unlock_irqrestore(&ch->lock, flags);
	/*
	 * Spreading (policy.c): start it now on the idlest CPU's worker, so
	 * that it runs while the client prepares the next operation.  Order
	 * is kept: posting takes everything submitted, oldest first.
	 */
	if (READ_ONCE(ch->front->spread)) {
		int cpu = READ_ONCE(ch->front->spare_cpu);

		if (!READ_ONCE(ch->pinned) && cpu >= 0)
			ecdma_ec_calc_set_cpu(ch->calc, cpu);
		ecdma_chan_post(ch);
		ecdma_ec_kick(ch->calc);
	}
	return cookie;
}

/* Errors of ecdma_ec_post() that a later retry can clear. */
static bool ecdma_post_transient(int ret)
{
	return ret == -EBUSY || ret == -EAGAIN || ret == -ENOSPC ||
	       ret == -EOVERFLOW || ret == -ENOMEM;
}

/*
 * Post the submitted descriptors, in cookie order, all under the channel
 * lock: a caller that finds the lock free finds nothing half posted, and
 * no one can be preempted in the middle (the calc's own lock nests
 * inside; a post never executes or completes anything).  A WR the
 * provider rejects for good runs as a NOP, so that the cookies behind it
 * still complete; a transient refusal leaves it and those behind it for
 * the next issue_pending or tx_status.
 */
static void ecdma_chan_post(struct ecdma_chan *ch)
{
	struct ecdma_desc *d;
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&ch->lock, flags);
	while ((d = list_first_entry_or_null(&ch->submitted,
					     struct ecdma_desc, node))) {
		ret = ecdma_ec_post_nokick(ch->calc, &d->wr);
		if (ret && !ecdma_post_transient(ret)) {
			dev_err_ratelimited(ch->front->dev,
					    "chan%u: EC provider rejected an operation (%d); it will not run\n",
					    ch->idx, ret);
			d->err = d->err ?: ret;
			ecdma_desc_nop(d);
			ret = ecdma_ec_post_nokick(ch->calc, &d->wr);
		}
		if (ret)
			break;
		list_move_tail(&d->node, &ch->posted);
	}
	spin_unlock_irqrestore(&ch->lock, flags);
}

/* Execute queued work here, inside a client's call (or our drain). */
static void ecdma_chan_progress(struct ecdma_chan *ch)
{
	bool ran;

	WRITE_ONCE(ch->starved, false);
	preempt_disable();
	__this_cpu_inc(ecdma_inline_depth);
	ran = ecdma_ec_progress(ch->calc);
	__this_cpu_dec(ecdma_inline_depth);
	preempt_enable();
	if (ran)
		this_cpu_inc(ch->stats->inline_progress);
}

/*
 * The provider failed an operation (an engine error or an injected fault):
 * its inputs are intact (a failed WR writes nothing, and in-place and
 * CONTINUE outputs are only written by a WR that succeeds), so compute it
 * synchronously with the generic GF code.  Runs in the WR's completion,
 * which the provider runs before any later WR of the channel starts
 * (include/ecdma/ec.h), so later operations depending on this one (same
 * channel, no callback in between, as async_tx chains them) see its
 * result.  Only this channel's completions use @ch->fb_x.
 */
static void ecdma_wr_fallback(struct ecdma_chan *ch, struct ecdma_ec_wr *wr)
{
	this_cpu_inc(ch->stats->faults);
	if (!ch->fb_x)
		return;
	wr->status = 0;
	wr->result = 0;
	if (!ecdma_ec_exec_wr(ch->fb_x, wr))
		this_cpu_inc(ch->stats->fallbacks);
}

/*
 * A descriptor is done with (its callback, if any, has returned): recycle
 * it, or park it until the client acks it.  Called with ch->lock held.
 */
static void ecdma_desc_retire(struct ecdma_chan *ch, struct ecdma_desc *d)
{
	lockdep_assert_held(&ch->lock);
	list_add_tail(&d->node,
		      async_tx_test_ack(&d->txd) ? &ch->free : &ch->completed);
	WRITE_ONCE(ch->nr_pending, ch->nr_pending - 1);
}

/* Most callbacks one tasklet run delivers before letting others run */
#define ECDMA_CB_BATCH	64

/*
 * The channel's tasklet: deliver the callbacks of completed descriptors,
 * oldest first.  One tasklet never runs concurrently with itself, so the
 * callbacks of a channel are delivered one at a time, in cookie order.
 */
static void ecdma_chan_callbacks(struct tasklet_struct *t)
{
	struct ecdma_chan *ch = from_tasklet(ch, t, cb_tasklet);
	struct dma_async_tx_descriptor *tx;
	struct ecdma_desc *d;
	unsigned long flags;
	bool aborted;
	int n;

	for (n = 0; n < ECDMA_CB_BATCH; n++) {
		spin_lock_irqsave(&ch->lock, flags);
		d = list_first_entry_or_null(&ch->callbacks, struct ecdma_desc,
					     node);
		if (d) {
			list_del_init(&d->node);
			aborted = d->aborted;
		}
		spin_unlock_irqrestore(&ch->lock, flags);
		if (!d)
			return;

		tx = &d->txd;
		if (!aborted)
			ecdma_desc_callback_invoke(tx, &d->res);
		tx->callback = NULL;
		tx->callback_result = NULL;
		dma_run_dependencies(tx);

		spin_lock_irqsave(&ch->lock, flags);
		ecdma_desc_retire(ch, d);
		spin_unlock_irqrestore(&ch->lock, flags);
	}
	tasklet_schedule(t);
}

/*
 * WR completion: result, unmap, cookie, then the callback and the
 * dependencies from the channel's tasklet (unmap before the callback,
 * like ioat), then recycle or park the descriptor until the client acks
 * it.
 */
static void ecdma_wr_done(struct ecdma_ec_wr *wr)
{
	struct ecdma_desc *d = wr->ctx;
	struct ecdma_chan *ch = d->ch;
	struct ecdma_xlate_wr *x = &d->x;
	struct dma_async_tx_descriptor *tx = &d->txd;
	unsigned long flags;
	bool callback;
	bool ran;

	/* md has no error path: redo what the provider failed, here */
	if (wr->status && wr->opcode == x->opcode)
		ecdma_wr_fallback(ch, wr);
	ran = wr->opcode == x->opcode && !wr->status;

	if (d->result)
		*d->result = ran ? ecdma_xlate_result(x, wr->result) :
				   ecdma_xlate_result_all(x);
	d->res.result = ran ? DMA_TRANS_NOERROR : DMA_TRANS_ABORTED;
	d->res.residue = 0;
	if (ran) {
		u64 ns = ktime_get_ns() - d->t_submit;
		int b = ns >> ECDMA_LAT_SHIFT ? ilog2(ns) - ECDMA_LAT_SHIFT + 1 : 0;

		this_cpu_inc(ch->stats->ops[x->type]);
		this_cpu_add(ch->stats->bytes[x->type], x->len);
		this_cpu_inc(ch->stats->lat[min(b, ECDMA_LAT_BUCKETS - 1)]);
	} else {
		this_cpu_inc(ch->stats->errors[x->type]);
		ecdma_debugfs_error(ch->front, ch->idx, x->type,
				    wr->status ?: d->err ?: -ECANCELED);
		if (wr->status)
			dev_err_ratelimited(ch->front->dev,
					    "chan%u: operation failed: %d\n",
					    ch->idx, wr->status);
	}

	/* a waiter that sees the cookie complete finds the pages unmapped */
	dma_descriptor_unmap(tx);
	/* no-op without channel switching; with a callback, after it */
	if (!tx->callback && !tx->callback_result)
		dma_run_dependencies(tx);

	spin_lock_irqsave(&ch->lock, flags);
	WARN_ON_ONCE(list_first_entry(&ch->posted, struct ecdma_desc, node) != d);
	list_del_init(&d->node);
	ecdma_cookie_complete(tx);
	if (ran && ch->front->core_stats) {
		this_cpu_inc(ch->chan.local->memcpy_count);
		this_cpu_add(ch->chan.local->bytes_transferred, x->len);
	}
	callback = !d->aborted && (tx->callback || tx->callback_result);
	if (callback) {
		list_add_tail(&d->node, &ch->callbacks);
	} else {
		tx->callback = NULL;
		tx->callback_result = NULL;
		ecdma_desc_retire(ch, d);
	}
	spin_unlock_irqrestore(&ch->lock, flags);
	if (!callback)
		return;

	/*
	 * Inside a client's call: the tasklet runs after it (on IRQ exit or
	 * in ksoftirqd).  In the provider's worker: at once, right here at
	 * local_bh_enable(), in softirq context like any tasklet.
	 */
	if (this_cpu_read(ecdma_inline_depth) || irqs_disabled()) {
		tasklet_schedule(&ch->cb_tasklet);
	} else {
		local_bh_disable();
		tasklet_schedule(&ch->cb_tasklet);
		local_bh_enable();
	}
}

/* Prep callbacks: never sleep, copy every argument, NULL only when full */

/*
 * A prep that finds no descriptor has still been handed the client's
 * mappings, and async_tx unmaps them at once to compute on the CPU
 * without ever calling dma_mapping_error() itself: check them here as an
 * accepted operation's are (ecdma_addr_to_cpu()), or DMA-API debugging
 * reports a mapping nobody checked.
 */
static void ecdma_prep_full(struct ecdma_chan *ch, dma_addr_t one,
			    const dma_addr_t *more, unsigned int n)
{
	if (one)
		dma_mapping_error(ch->front->dev, one);
	while (more && n--)
		dma_mapping_error(ch->front->dev, *more++);
}

static struct dma_async_tx_descriptor *
ecdma_prep_memcpy(struct dma_chan *chan, dma_addr_t dst, dma_addr_t src,
		  size_t len, unsigned long flags)
{
	struct ecdma_chan *ch = to_ecdma_chan(chan);
	struct ecdma_desc *d = ecdma_desc_get(ch);

	if (!d) {
		ecdma_prep_full(ch, dst, &src, 1);
		return NULL;
	}
	return ecdma_desc_prepare(ch, d,
				  ecdma_xlate_memcpy(&d->x, dst, src, len),
				  flags, NULL);
}

static struct dma_async_tx_descriptor *
ecdma_prep_xor(struct dma_chan *chan, dma_addr_t dst, dma_addr_t *src,
	       unsigned int src_cnt, size_t len, unsigned long flags)
{
	struct ecdma_chan *ch = to_ecdma_chan(chan);
	struct ecdma_desc *d = ecdma_desc_get(ch);

	if (!d) {
		ecdma_prep_full(ch, dst, src, src_cnt);
		return NULL;
	}
	return ecdma_desc_prepare(ch, d,
				  ecdma_xlate_xor(&d->x, dst, src, src_cnt, len),
				  flags, NULL);
}

static struct dma_async_tx_descriptor *
ecdma_prep_xor_val(struct dma_chan *chan, dma_addr_t *src,
		   unsigned int src_cnt, size_t len,
		   enum sum_check_flags *result, unsigned long flags)
{
	struct ecdma_chan *ch = to_ecdma_chan(chan);
	struct ecdma_desc *d = ecdma_desc_get(ch);

	if (!d) {
		ecdma_prep_full(ch, 0, src, src_cnt);
		return NULL;
	}
	return ecdma_desc_prepare(ch, d,
				  ecdma_xlate_xor_val(&d->x, src, src_cnt, len),
				  flags, result);
}

static struct dma_async_tx_descriptor *
ecdma_prep_pq(struct dma_chan *chan, dma_addr_t *dst, dma_addr_t *src,
	      unsigned int src_cnt, const unsigned char *scf, size_t len,
	      unsigned long flags)
{
	struct ecdma_chan *ch = to_ecdma_chan(chan);
	struct ecdma_desc *d = ecdma_desc_get(ch);

	if (!d) {
		ecdma_prep_full(ch, 0, dst, 2);
		ecdma_prep_full(ch, 0, src, src_cnt);
		return NULL;
	}
	return ecdma_desc_prepare(ch, d,
				  ecdma_xlate_pq(&d->x, dst, src, src_cnt, scf,
						 len, flags),
				  flags, NULL);
}

static struct dma_async_tx_descriptor *
ecdma_prep_pq_val(struct dma_chan *chan, dma_addr_t *pq, dma_addr_t *src,
		  unsigned int src_cnt, const unsigned char *scf, size_t len,
		  enum sum_check_flags *pqres, unsigned long flags)
{
	struct ecdma_chan *ch = to_ecdma_chan(chan);
	struct ecdma_desc *d = ecdma_desc_get(ch);

	if (!d) {
		ecdma_prep_full(ch, 0, pq, 2);
		ecdma_prep_full(ch, 0, src, src_cnt);
		return NULL;
	}
	return ecdma_desc_prepare(ch, d,
				  ecdma_xlate_pq_val(&d->x, pq, src, src_cnt,
						     scf, len, flags),
				  flags, pqres);
}

static struct dma_async_tx_descriptor *
ecdma_prep_interrupt(struct dma_chan *chan, unsigned long flags)
{
	struct ecdma_chan *ch = to_ecdma_chan(chan);
	struct ecdma_desc *d = ecdma_desc_get(ch);

	if (!d)
		return NULL;
	ecdma_xlate_interrupt(&d->x);
	return ecdma_desc_prepare(ch, d, 0, flags, NULL);
}

static void ecdma_issue_pending(struct dma_chan *chan)
{
	struct ecdma_chan *ch = to_ecdma_chan(chan);

	if (!READ_ONCE(ch->nr_pending))
		return;
	ecdma_chan_post(ch);
	/*
	 * Without inline_issue, or while the offload policy spreads to
	 * another CPU, the provider's worker runs it; except when a prep
	 * found the pool empty: async_tx then retries prep + issue_pending
	 * with preemption off, maybe on the worker's CPU, and never calls
	 * tx_status, so only this call can make room.
	 */
	if (READ_ONCE(ch->starved) ||
	    (READ_ONCE(ch->front->inline_issue) &&
	     !(READ_ONCE(ch->front->spread) &&
	       READ_ONCE(ch->front->spare_cpu) != raw_smp_processor_id())))
		ecdma_chan_progress(ch);
	/* posted without waking the worker: wake it for what is left */
	ecdma_ec_kick(ch->calc);
}

static enum dma_status ecdma_tx_status(struct dma_chan *chan,
				       dma_cookie_t cookie,
				       struct dma_tx_state *txstate)
{
	struct ecdma_chan *ch = to_ecdma_chan(chan);
	enum dma_status status;

	status = ecdma_cookie_status(chan, cookie, txstate);
	if (status == DMA_COMPLETE || !READ_ONCE(ch->nr_pending))
		return status;
	ecdma_chan_post(ch);
	ecdma_chan_progress(ch);
	ecdma_ec_kick(ch->calc);
	return ecdma_cookie_status(chan, cookie, txstate);
}

/*
 * Queued operations are dropped: they complete (in order, behind what is
 * already running) as NOPs, with unmap but without callback.  Operations
 * already posted run, but their callbacks are suppressed too, as are the
 * callbacks of completed ones not delivered yet.
 */
static int ecdma_terminate_all(struct dma_chan *chan)
{
	struct ecdma_chan *ch = to_ecdma_chan(chan);
	struct ecdma_desc *d;
	unsigned long flags;

	spin_lock_irqsave(&ch->lock, flags);
	list_for_each_entry(d, &ch->submitted, node) {
		d->aborted = true;
		ecdma_desc_nop(d);
	}
	list_for_each_entry(d, &ch->posted, node)
		d->aborted = true;
	list_for_each_entry(d, &ch->callbacks, node)
		d->aborted = true;
	spin_unlock_irqrestore(&ch->lock, flags);

	ecdma_chan_post(ch);
	ecdma_ec_kick(ch->calc);
	return 0;
}

/*
 * Wait until every submitted operation has completed and its callback (if
 * any) has returned.
 */
static void ecdma_chan_drain(struct ecdma_chan *ch)
{
	unsigned long warn_at = jiffies + 10 * HZ;

	while (READ_ONCE(ch->nr_pending)) {
		ecdma_chan_post(ch);
		ecdma_chan_progress(ch);
		ecdma_ec_kick(ch->calc);
		if (!READ_ONCE(ch->nr_pending))
			break;
		if (time_after(jiffies, warn_at)) {
			dev_warn(ch->front->dev,
				 "chan%u: %u operations still pending\n",
				 ch->idx, READ_ONCE(ch->nr_pending));
			warn_at = jiffies + 10 * HZ;
		}
		usleep_range(100, 200);
	}
}

static void ecdma_synchronize(struct dma_chan *chan)
{
	might_sleep();
	ecdma_chan_drain(to_ecdma_chan(chan));
}

static int ecdma_alloc_chan_resources(struct dma_chan *chan)
{
	struct ecdma_chan *ch = to_ecdma_chan(chan);

	int ret;

	/* descriptors and the calc exist from probe on */
	mutex_lock(&ch->front->cfg_lock);
	ret = ch->front->closing ? -EBUSY : ch->nr_desc;
	if (ret > 0)
		ch->active = true;
	mutex_unlock(&ch->front->cfg_lock);
	return ret;
}

/*
 * The client is gone (the core synchronized the channel first): its
 * unacked descriptors will never be acked, and the pool shrinks back to
 * its initial size.
 */
static void ecdma_free_chan_resources(struct dma_chan *chan)
{
	struct ecdma_chan *ch = to_ecdma_chan(chan);
	struct ecdma_desc *d, *n;
	unsigned long flags;
	LIST_HEAD(trim);

	spin_lock_irqsave(&ch->lock, flags);
	list_for_each_entry(d, &ch->completed, node)
		async_tx_ack(&d->txd);
	list_splice_tail_init(&ch->completed, &ch->free);
	list_for_each_entry_safe(d, n, &ch->free, node) {
		if (ch->nr_desc <= ECDMA_DESC_INIT)
			break;
		list_move(&d->node, &trim);
		list_del(&d->all_node);
		ch->nr_desc--;
	}
	spin_unlock_irqrestore(&ch->lock, flags);

	list_for_each_entry_safe(d, n, &trim, node)
		kfree(d);

	mutex_lock(&ch->front->cfg_lock);
	ch->active = false;
	mutex_unlock(&ch->front->cfg_lock);
}

/**
 * ecdma_chan_stats_sum - add up a channel's per-CPU counters
 * @ch: channel
 * @sum: zeroed, then the totals
 */
void ecdma_chan_stats_sum(struct ecdma_chan *ch, struct ecdma_chan_stats *sum)
{
	int cpu, op;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		const struct ecdma_chan_stats *s = per_cpu_ptr(ch->stats, cpu);

		for (op = 0; op < ECDMA_OP_NR; op++) {
			sum->ops[op] += s->ops[op];
			sum->bytes[op] += s->bytes[op];
			sum->errors[op] += s->errors[op];
		}
		sum->inline_progress += s->inline_progress;
		sum->faults += s->faults;
		sum->fallbacks += s->fallbacks;
		sum->prep_full += s->prep_full;
		for (op = 0; op < ECDMA_LAT_BUCKETS; op++)
			sum->lat[op] += s->lat[op];
	}
}

/*
 * Every WR carries its own coefficients, but a per-WR layout may not exceed
 * the calc's k x m, so the calcs are max_src x 2.  Their own matrix, unused,
 * is RAID-6 P/Q (MDS for k <= 255): row i = {1, {02}^i}.
 */
static void ecdma_front_calc_matrix(struct ecdma_front *front)
{
	unsigned int i;
	u8 g = 1;

	for (i = 0; i < front->calc_k; i++) {
		front->calc_matrix[2 * i] = 1;
		front->calc_matrix[2 * i + 1] = g;
		g = (g << 1) ^ (g & 0x80 ? 0x1d : 0);
	}
}

/**
 * ecdma_front_stats_reset - zero every channel's counters
 * @front: the front
 *
 * At probe (forget the self-test) and from sysfs stats/reset.  Under load
 * an increment racing with the reset on another CPU may survive it.
 */
void ecdma_front_stats_reset(struct ecdma_front *front)
{
	unsigned int i;
	int cpu;

	for (i = 0; i < front->nr_chans; i++)
		for_each_possible_cpu(cpu)
			memset(per_cpu_ptr(front->chans[i].stats, cpu), 0,
			       sizeof(struct ecdma_chan_stats));
}

static int ecdma_chan_init(struct ecdma_front *front, struct ecdma_chan *ch,
			   int cpu)
{
	struct ecdma_ec_calc_attr attr = {
		.k = front->calc_k,
		.m = ECDMA_XLATE_MAX_CODE,
		.w = ECDMA_EC_W,
		.max_inflight = front->max_desc,
		.affinity_hint = cpu,
		.polling = false,
		.matrix_type = ECDMA_EC_MATRIX_USER,
		.encode_matrix = front->calc_matrix,
	};
	struct ecdma_ec_exec_cfg cfg = { };
	struct ecdma_ec_calc *calc;
	struct ecdma_desc *d;
	unsigned int i;

	ch->stats = alloc_percpu(struct ecdma_chan_stats);
	if (!ch->stats)
		return -ENOMEM;

	calc = ecdma_ec_alloc_calc(front->prov, &attr);
	if (IS_ERR(calc)) {
		dev_err(front->dev, "cannot allocate an EC calc: %ld\n",
			PTR_ERR(calc));
		return PTR_ERR(calc);
	}
	ch->calc = calc;

	/* generic algo, no hooks: usable in any context, never the FPU */
	cfg.k = front->calc_k;
	cfg.m = ECDMA_XLATE_MAX_CODE;
	cfg.matrix = front->calc_matrix;
	cfg.algo = &ecdma_gf_algo_generic;
	ch->fb_mem = kvzalloc(ecdma_ec_exec_size(&cfg), GFP_KERNEL);
	if (!ch->fb_mem)
		return -ENOMEM;
	ch->fb_x = ecdma_ec_exec_init(ch->fb_mem, &cfg);
	if (!ch->fb_x)
		return -EINVAL;

	for (i = 0; i < min_t(u32, ECDMA_DESC_INIT, front->max_desc); i++) {
		d = ecdma_desc_new(ch, GFP_KERNEL);
		if (!d)
			return -ENOMEM;
		list_add_tail(&d->node, &ch->free);
		list_add_tail(&d->all_node, &ch->all);
		ch->nr_desc++;
	}

	ch->chan.device = &front->dma;
	ecdma_cookie_init(&ch->chan);
	list_add_tail(&ch->chan.device_node, &front->dma.channels);
	return 0;
}

/**
 * ecdma_chan_recalc - replace an idle channel's calc
 * @ch: the channel, with no client (!ch->active)
 * @prov: provider of the new calc (the current one to rebuild it, e.g.
 *	after a GF algo change)
 *
 * Context: process context, holding front->cfg_lock.
 * Return: 0, or a negative errno with the old calc left in place.
 */
int ecdma_chan_recalc(struct ecdma_chan *ch, struct ecdma_ec_provider *prov)
{
	struct ecdma_front *front = ch->front;
	struct ecdma_ec_calc_attr attr = {
		.k = front->calc_k,
		.m = ECDMA_XLATE_MAX_CODE,
		.w = ECDMA_EC_W,
		.max_inflight = front->max_desc,
		.affinity_hint = READ_ONCE(ch->calc->affinity),
		.polling = false,
		.matrix_type = ECDMA_EC_MATRIX_USER,
		.encode_matrix = front->calc_matrix,
	};
	struct ecdma_ec_calc *calc, *old = ch->calc;
	struct ecdma_ec_caps caps;
	int ret;

	lockdep_assert_held(&front->cfg_lock);
	if (ch->active)
		return -EBUSY;
	ret = ecdma_ec_query_caps(prov, &caps);
	if (ret)
		return ret;
	/* the dmaengine alignment was advertised from the first provider */
	if (!caps.block_align || front->caps.block_align % caps.block_align)
		return -EINVAL;
	calc = ecdma_ec_alloc_calc(prov, &attr);
	if (IS_ERR(calc))
		return PTR_ERR(calc);
	ecdma_chan_drain(ch);
	WRITE_ONCE(ch->calc, calc);
	ecdma_ec_dealloc_calc(old);
	return 0;
}

/* Also undoes a partial ecdma_chan_init(). */
static void ecdma_chan_destroy(struct ecdma_front *front, struct ecdma_chan *ch)
{
	struct ecdma_desc *d, *n;

	if (ch->calc) {
		ecdma_chan_drain(ch);
		ecdma_ec_dealloc_calc(ch->calc);
	}
	tasklet_kill(&ch->cb_tasklet);
	list_for_each_entry_safe(d, n, &ch->all, all_node)
		kfree(d);
	kvfree(ch->fb_mem);
	free_percpu(ch->stats);
}

/* Channel i runs its completions on the i-th online CPU. */
static int ecdma_front_init_chans(struct ecdma_front *front)
{
	int cpu = cpumask_first(cpu_online_mask);
	unsigned int i;
	int ret;

	for (i = 0; i < front->nr_chans; i++) {
		ret = ecdma_chan_init(front, &front->chans[i],
				      cpu < nr_cpu_ids ? cpu : -1);
		if (ret)
			return ret;
		if (cpu < nr_cpu_ids)
			cpu = cpumask_next(cpu, cpu_online_mask);
	}
	return 0;
}

/* Frees @front and everything it holds, however far probe got. */
static void ecdma_front_free(struct ecdma_front *front)
{
	unsigned int i;

	for (i = 0; i < front->nr_chans; i++)
		ecdma_chan_destroy(front, &front->chans[i]);
	ecdma_front_ram_exit(front);
	ecdma_ec_provider_put(front->prov);
	kfree(front->dbg);
	kfree(front);
}

/*
 * Channels of the next probe, set by sysfs "channels"; 0 means one per
 * online CPU.  Written and read under the platform device's device_lock()
 * (probe runs under it, and so does ecdma_front_rechannel()).
 */
static unsigned int ecdma_nr_chans_req;

/* dma_device.device_release: the last channel reference is gone. */
static void ecdma_front_release(struct dma_device *dma)
{
	struct ecdma_front *front = container_of(dma, struct ecdma_front, dma);
	struct device *dev = front->dev;

	ecdma_front_free(front);
	put_device(dev);
}

/*
 * Stop feeding chan->local (dmaengine frees it on unregister): the flag
 * is read under the channel locks, so passing through each lock once
 * waits out a completion that saw it still set.
 */
static void ecdma_front_unregister(struct ecdma_front *front)
{
	unsigned long flags;
	unsigned int i;

	ecdma_policy_stop(front);
	WRITE_ONCE(front->core_stats, false);
	for (i = 0; i < front->nr_chans; i++) {
		spin_lock_irqsave(&front->chans[i].lock, flags);
		spin_unlock_irqrestore(&front->chans[i].lock, flags);
	}
	dma_async_device_unregister(&front->dma);
}

/*
 * The CPU provider reads and writes memory by kernel virtual address, so a
 * dma_addr_t must be a physical address with nothing in between: no IOMMU,
 * no dma_map_ops, no DMA range offsets, no swiotlb bouncing.  Check the
 * configuration, then map a page and translate it back.
 */
static int ecdma_front_check_dma(struct device *dev)
{
	struct page *page;
	dma_addr_t addr;
	int ret = 0;

	if (get_dma_ops(dev) || ecdma_dev_dma_iommu(dev) || dev->dma_range_map) {
		dev_err(dev, "DMA mapping is translated (IOMMU, dma_map_ops or DMA ranges); the CPU engine needs direct mapping, not registering\n");
		return -ENODEV;
	}
	if (!dev_is_dma_coherent(dev)) {
		dev_err(dev, "DMA is not coherent; the CPU engine cannot keep caches in step, not registering\n");
		return -ENODEV;
	}
	if (is_swiotlb_force_bounce(dev)) {
		dev_err(dev, "swiotlb bouncing is forced (swiotlb=force or guest memory encryption); the CPU engine cannot work on bounce buffers, not registering\n");
		return -ENODEV;
	}

	page = alloc_page(GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	addr = dma_map_page(dev, page, 0, PAGE_SIZE, DMA_BIDIRECTIONAL);
	if (dma_mapping_error(dev, addr)) {
		dev_err(dev, "cannot DMA-map a test page, not registering\n");
		ret = -ENODEV;
		goto out_free_page;
	}
	if (dma_to_phys(dev, addr) != page_to_phys(page) ||
	    phys_to_virt(dma_to_phys(dev, addr)) != page_address(page)) {
		dev_err(dev, "DMA address %pad of a test page does not translate back to it (bounced or remapped), not registering\n",
			&addr);
		ret = -ENODEV;
	}
	dma_unmap_page(dev, addr, PAGE_SIZE, DMA_BIDIRECTIONAL);
out_free_page:
	__free_page(page);
	return ret;
}

/* Query the provider; refuse what the translation cannot live with. */
static int ecdma_front_caps(struct ecdma_front *front)
{
	const u32 need = ECDMA_EC_CAP_INPLACE | ECDMA_EC_CAP_VALIDATE;
	struct ecdma_ec_caps *caps = &front->caps;
	int ret;

	ret = ecdma_ec_query_caps(front->prov, caps);
	if (ret) {
		dev_err(front->dev, "cannot query the EC provider: %d\n", ret);
		return ret;
	}
	if (!caps->block_align)
		caps->block_align = 1;
	if (!(caps->w_mask & BIT(ECDMA_EC_W - 1)) ||
	    (caps->flags & need) != need || caps->max_k < 2 ||
	    caps->max_m < ECDMA_XLATE_MAX_CODE || caps->max_inflight < 3 ||
	    !is_power_of_2(caps->block_align) || caps->block_align > SZ_4K) {
		dev_err(front->dev,
			"EC provider unsuitable (needs GF(2^8), in-place, validate, k >= 2, m >= 2, 3 WRs in flight, power-of-two block alignment up to 4 KiB): w_mask %#x flags %#x max_k %u max_m %u max_inflight %u block_align %u\n",
			caps->w_mask, caps->flags, caps->max_k, caps->max_m,
			caps->max_inflight, caps->block_align);
		return -ENODEV;
	}
	front->max_desc = min_t(u32, ECDMA_DESC_MAX, caps->max_inflight);
	front->calc_k = min_t(u32, ECDMA_XLATE_MAX_SRC, caps->max_k);
	ecdma_front_calc_matrix(front);
	return 0;
}

static void ecdma_front_init_dma(struct ecdma_front *front)
{
	struct dma_device *dma = &front->dma;
	unsigned int max_src = front->calc_k;
	enum dmaengine_alignment align = ilog2(front->caps.block_align);

	dma->dev = front->dev;
	INIT_LIST_HEAD(&dma->channels);
	dma_cap_set(DMA_MEMCPY, dma->cap_mask);
	dma_cap_set(DMA_XOR, dma->cap_mask);
	dma_cap_set(DMA_XOR_VAL, dma->cap_mask);
	dma_cap_set(DMA_PQ, dma->cap_mask);
	dma_cap_set(DMA_PQ_VAL, dma->cap_mask);
	dma_cap_set(DMA_INTERRUPT, dma->cap_mask);
	dma->max_xor = max_src;
	dma_set_maxpq(dma, max_src, 1);
	dma->copy_align = align;
	dma->xor_align = align;
	dma->pq_align = align;

	dma->device_alloc_chan_resources = ecdma_alloc_chan_resources;
	dma->device_free_chan_resources = ecdma_free_chan_resources;
	dma->device_prep_dma_memcpy = ecdma_prep_memcpy;
	dma->device_prep_dma_xor = ecdma_prep_xor;
	dma->device_prep_dma_xor_val = ecdma_prep_xor_val;
	dma->device_prep_dma_pq = ecdma_prep_pq;
	dma->device_prep_dma_pq_val = ecdma_prep_pq_val;
	dma->device_prep_dma_interrupt = ecdma_prep_interrupt;
	dma->device_terminate_all = ecdma_terminate_all;
	dma->device_synchronize = ecdma_synchronize;
	dma->device_tx_status = ecdma_tx_status;
	dma->device_issue_pending = ecdma_issue_pending;
	dma->device_release = ecdma_front_release;
}

/**
 * ecdma_front_probe - register the dmaengine provider
 * @pdev: the bound ecdma platform device
 *
 * Context: process context, from the platform driver's probe.
 * Return: 0 or a negative errno; nothing is registered on failure.
 */
int ecdma_front_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct ecdma_ec_provider *prov;
	struct ecdma_front *front;
	unsigned int i, nr;
	int ret;

	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64));
	if (ret) {
		dev_err(dev, "cannot set a 64-bit DMA mask: %d\n", ret);
		return ret;
	}
	ret = ecdma_front_check_dma(dev);
	if (ret)
		return ret;

	prov = ecdma_ec_provider_get(NULL);
	if (IS_ERR_OR_NULL(prov)) {
		ret = prov ? PTR_ERR(prov) : -ENODEV;
		dev_err(dev, "no EC verbs CPU provider: %d\n", ret);
		return ret;
	}

	nr = ecdma_nr_chans_req ?:
	     clamp_t(unsigned int, num_online_cpus(), 2, ECDMA_MAX_CHANS);
	front = kzalloc(struct_size(front, chans, nr), GFP_KERNEL);
	if (!front) {
		ret = -ENOMEM;
		goto err_put_provider;
	}
	front->dev = dev;
	front->prov = prov;
	front->inline_issue = true;
	front->offload = ECDMA_OFFLOAD_AUTO;
	mutex_init(&front->cfg_lock);
	front->nr_chans = nr;
	for (i = 0; i < nr; i++) {
		struct ecdma_chan *ch = &front->chans[i];

		ch->front = front;
		ch->idx = i;
		spin_lock_init(&ch->lock);
		INIT_LIST_HEAD(&ch->free);
		INIT_LIST_HEAD(&ch->submitted);
		INIT_LIST_HEAD(&ch->posted);
		INIT_LIST_HEAD(&ch->callbacks);
		INIT_LIST_HEAD(&ch->completed);
		INIT_LIST_HEAD(&ch->all);
		tasklet_setup(&ch->cb_tasklet, ecdma_chan_callbacks);
	}

	/* From here on ecdma_front_free() undoes everything. */
	ret = ecdma_front_caps(front);
	if (ret)
		goto err_free_front;
	ret = ecdma_front_ram_init(front);
	if (ret) {
		dev_err(dev, "cannot read the System RAM ranges: %d\n", ret);
		goto err_free_front;
	}
	ecdma_front_init_dma(front);
	ret = ecdma_front_init_chans(front);
	if (ret)
		goto err_free_front;

	ret = ecdma_selftest(front);
	if (ret) {
		dev_err(dev, "self-test failed (%d), not registering\n", ret);
		goto err_free_front;
	}
	ecdma_front_stats_reset(front);

	get_device(dev);
	ret = dma_async_device_register(&front->dma);
	if (ret) {
		dev_err(dev, "dmaengine registration failed: %d\n", ret);
		put_device(dev);
		goto err_free_front;
	}
	/* From here on front->dma.device_release frees everything. */
	WRITE_ONCE(front->core_stats, true);
	if (!dma_has_cap(DMA_ASYNC_TX, front->dma.cap_mask)) {
		dev_err(dev, "dmaengine did not mark the device DMA_ASYNC_TX, so async_tx and md would never use it; not registering\n");
		ret = -ENODEV;
		goto err_unregister;
	}

	ret = ecdma_policy_start(front);
	if (ret)
		goto err_unregister;
	platform_set_drvdata(pdev, front);
	ret = ecdma_sysfs_init(front);
	if (ret) {
		dev_err(dev, "cannot create sysfs attributes: %d\n", ret);
		goto err_clear_drvdata;
	}
	ecdma_debugfs_init(front);
	ecdma_ec_fault_init();

	dev_info(dev, "%u channels, max_xor %u, max_pq %d, align %u B, caps: memcpy xor xor_val pq pq_val interrupt\n",
		 nr, front->dma.max_xor, dma_maxpq(&front->dma, 0),
		 front->caps.block_align);
	return 0;

err_clear_drvdata:
	platform_set_drvdata(pdev, NULL);
err_unregister:
	ecdma_front_unregister(front);
	return ret;
err_free_front:
	ecdma_front_free(front);
	return ret;
err_put_provider:
	ecdma_ec_provider_put(prov);
	return ret;
}

/**
 * ecdma_front_remove - unregister the dmaengine provider
 * @pdev: the ecdma platform device
 *
 * The front itself is freed by ->device_release once dmaengine drops its
 * last channel reference (at once unless a client still holds one).
 */
void ecdma_front_remove(struct platform_device *pdev)
{
	struct ecdma_front *front = platform_get_drvdata(pdev);

	if (!front)
		return;
	ecdma_debugfs_exit(front);
	ecdma_sysfs_exit(front);
	platform_set_drvdata(pdev, NULL);
	ecdma_front_unregister(front);
}

/**
 * ecdma_front_rechannel - register the front again with @nr channels
 * @pdev: the ecdma platform device
 * @nr: channels, 2..ECDMA_MAX_CHANS
 *
 * Only while no client holds a channel; clients trying to take one
 * meanwhile fail (alloc_chan_resources returns -EBUSY) until the new
 * channels are registered.  If the new front does not come up the old
 * channel count is tried again.  Counters and the channels' own settings
 * restart from their defaults; inline_issue and offload are kept.
 *
 * Context: process context, holding device_lock(&pdev->dev), and not from
 * a sysfs file that the front removes unless its active protection is
 * broken (sysfs_break_active_protection()).
 * Return: 0, -EBUSY (a channel is in use, nothing changed), -ENODEV (no
 * front bound), or the error of the new probe.
 */
int ecdma_front_rechannel(struct platform_device *pdev, unsigned int nr)
{
	struct ecdma_front *front = platform_get_drvdata(pdev);
	enum ecdma_offload offload;
	unsigned int i, old;
	bool idle, inline_issue;
	int ret;

	device_lock_assert(&pdev->dev);
	if (!front)
		return -ENODEV;
	if (nr == front->nr_chans)
		return 0;
	mutex_lock(&front->cfg_lock);
	for (i = 0; i < front->nr_chans; i++)
		if (front->chans[i].active)
			break;
	idle = i == front->nr_chans;
	front->closing = idle;
	mutex_unlock(&front->cfg_lock);
	if (!idle)
		return -EBUSY;

	/* the front-wide settings survive; counters and per-channel ones do not */
	old = front->nr_chans;
	inline_issue = READ_ONCE(front->inline_issue);
	offload = READ_ONCE(front->offload);
	ecdma_front_remove(pdev);
	ecdma_nr_chans_req = nr;
	ret = ecdma_front_probe(pdev);
	if (ret) {
		ecdma_nr_chans_req = old;
		if (ecdma_front_probe(pdev)) {
			dev_err(&pdev->dev, "cannot register the channels again; reload ecdma\n");
			return ret;
		}
	}
	front = platform_get_drvdata(pdev);
	if (front) {
		WRITE_ONCE(front->inline_issue, inline_issue);
		ecdma_policy_set_mode(front, offload);
	}
	return ret;
}
