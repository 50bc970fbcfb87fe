// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma dmaengine provider: submission, execution and completion of
 * descriptors (prep.c makes them, init.c registers the channels).
 *
 * Descriptor life cycle (per-channel lists, under ch->lock):
 *
 *   free --prep--> (client) --tx_submit--> submitted --issue_pending-->
 *   posted --WR ->done--> [callbacks --tasklet-->] completed --ack--> free
 *
 * (a dry pool takes acked descriptors off callbacks early: dma_cb.c).
 *
 * Cookies are assigned at tx_submit and WRs posted in cookie order to the
 * channel's calc, which completes them in order.  tx_status (and
 * issue_pending) run pending work inline, so a caller spinning with
 * preemption off never waits for a worker that cannot run.  Callbacks
 * go through the channel's tasklet, never inside the client's own call
 * (it may hold a lock the callback takes): they keep cookie order.  One
 * exception, for async_tx: md's compute and prexor call back before their
 * tx_submit returns, as md's synchronous path did (dma_cb.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/slab.h>

#include "ecdma_trace.h"
#include "front.h"

/*
 * Nesting of client calls executing work inline on this CPU: a WR that
 * completes while it is non-zero leaves its callback to the tasklet.
 * Used with preemption disabled.
 */
static DEFINE_PER_CPU(unsigned int, ecdma_inline_depth);

/* Have @ch's calc run what is posted (the calc read as progress does) */
static void ecdma_chan_kick(struct ecdma_chan *ch)
{
	preempt_disable();
	ecdma_ec_kick(READ_ONCE(ch->calc));
	preempt_enable();
}

dma_cookie_t ecdma_tx_submit(struct dma_async_tx_descriptor *tx)
{
	struct ecdma_desc *d = to_ecdma_desc(tx);
	struct ecdma_chan *ch = d->ch;
	dma_cookie_t cookie;
	unsigned long flags;
	int cpu;

	d->t_submit = ktime_get_ns();
	d->cost = ecdma_desc_cost(d);
	spin_lock_irqsave(&ch->lock, flags);
	cookie = ecdma_cookie_assign(tx);
	/* under the lock: a channel's events keep its cookie order */
	trace_ecdma_desc_submit(d, cookie);
	list_add_tail(&d->node, &ch->submitted);
	WRITE_ONCE(ch->nr_pending, ch->nr_pending + 1);
	/* the channel has work from now on: ecdma_chan_pace() times it */
	if (d->cost && !ch->q_bytes)
		ch->busy_since = d->t_submit;
	WRITE_ONCE(ch->q_bytes, ch->q_bytes + d->cost);
	spin_unlock_irqrestore(&ch->lock, flags);
	/*
	 * Spreading (policy.c): start it now on the idlest CPU's worker,
	 * overlapping the client's next prep.  Not for DMA_PRIVATE clients:
	 * they may terminate what they submitted until issue_pending.  Nor
	 * for a link of a chain: it waits for the rest, to be composed.
	 */
	if (ecdma_policy_spread(&ch->front->policy, &cpu) &&
	    !dma_has_cap(DMA_PRIVATE, ch->front->dma.cap_mask) &&
	    !(READ_ONCE(ch->front->fuse_active) && ecdma_desc_links(d))) {
		preempt_disable();
		if (!READ_ONCE(ch->pinned) && cpu >= 0)
			ecdma_ec_calc_set_cpu(READ_ONCE(ch->calc), cpu);
		preempt_enable();
		ecdma_chan_post(ch);
		ecdma_chan_kick(ch);
	}
	if (d->cb_at_submit && (tx->callback || tx->callback_result))
		ecdma_desc_run_at_submit(ch, d);
	return cookie;
}

/* Errors of ecdma_ec_post() that a later retry can clear. */
static bool ecdma_post_transient(int ret)
{
	return ret == -EBUSY || ret == -EAGAIN || ret == -ENOSPC ||
	       ret == -EOVERFLOW || ret == -ENOMEM;
}

/*
 * Post the submitted descriptors in cookie order, all under the channel
 * lock (the calc's lock nests inside), so nothing is seen half posted.
 * A chain is composed into its first descriptor's WR (dma_fuse.c) and
 * the rest of it moves to @ch->posted unposted.  A fused WR rejected for
 * good is posted unfused; any other runs as a NOP so the cookies behind
 * it complete.  A transient refusal leaves it for the next issue_pending
 * or tx_status.
 */
void ecdma_chan_post(struct ecdma_chan *ch)
{
	struct ecdma_desc *d;
	unsigned long flags;
	unsigned int riders;
	int ret;

	spin_lock_irqsave(&ch->lock, flags);
	while (!ch->draining &&
	       (d = list_first_entry_or_null(&ch->submitted,
					     struct ecdma_desc, node))) {
		if (!d->fused && READ_ONCE(ch->front->fuse_active))
			ecdma_chan_fuse(ch, d);
		/* the engine is gone: the CPU provider takes kernel addresses */
		if (ch->failed_over && ecdma_desc_wr_to_cpu(ch, d))
			ecdma_desc_nop(d);
		/*
		 * Read before posting: once posted, the WR may complete on
		 * another CPU, whose ecdma_wr_done() clears d->fused (and
		 * then waits for this lock to complete them).
		 */
		riders = d->fused;
		ret = ecdma_ec_post_nokick(ch->calc, &d->wr);
		if (ret && !ecdma_post_transient(ret) && riders) {
			ecdma_desc_unfuse(d);
			riders = 0;
			ret = ecdma_ec_post_nokick(ch->calc, &d->wr);
		}
		if (ret && !ecdma_post_transient(ret)) {
			/* it completes in order, computed on the CPU there */
			trace_ecdma_decline(ch, d->x.type,
					    ECDMA_DECLINE_REJECTED, ret);
			d->refused = ret;
			ecdma_desc_nop(d);
			ret = ecdma_ec_post_nokick(ch->calc, &d->wr);
		}
		if (ret)
			break;
		list_move_tail(&d->node, &ch->posted);
		while (riders--)
			list_move_tail(ch->submitted.next, &ch->posted);
	}
	spin_unlock_irqrestore(&ch->lock, flags);
}

/* Execute queued work here, inside a client's call (or our drain). */
void ecdma_chan_progress(struct ecdma_chan *ch)
{
	bool ran;

	WRITE_ONCE(ch->starved, false);
	/* preemption off: a failover frees the old calc after a grace period */
	preempt_disable();
	__this_cpu_inc(ecdma_inline_depth);
	ran = ecdma_ec_progress(READ_ONCE(ch->calc));
	__this_cpu_dec(ecdma_inline_depth);
	preempt_enable();
	if (ran)
		this_cpu_inc(ch->stats->inline_progress);
}

/* Callback returned: recycle @d or park it until acked; ch->lock held */
void ecdma_desc_retire(struct ecdma_chan *ch, struct ecdma_desc *d)
{
	lockdep_assert_held(&ch->lock);
	if (async_tx_test_ack(&d->txd)) {
		list_add_tail(&d->node, &ch->free);
	} else {
		list_add_tail(&d->node, &ch->completed);
		WRITE_ONCE(ch->nr_held, ch->nr_held + 1);
	}
	WRITE_ONCE(ch->nr_pending, ch->nr_pending - 1);
}

/*
 * @d completed: take its work off the queue and measure the drain rate,
 * bytes run per ms of time the channel had work queued, whoever ran it,
 * over ECDMA_PACE_WIN_NS of such time, smoothed.  Time the work waited
 * for an executor counts, so this is about one executor's rate: what a
 * waiter running the queue alone sees.  Work that did not run (@ran
 * false: aborted, refused) leaves the queue uncounted.  ch->lock held.
 */
static void ecdma_chan_pace(struct ecdma_chan *ch, struct ecdma_desc *d,
			    bool ran, u64 now)
{
	u64 rate;

	lockdep_assert_held(&ch->lock);
	if (!d->cost)
		return;
	if (WARN_ON_ONCE(ch->q_bytes < d->cost))
		WRITE_ONCE(ch->q_bytes, 0);
	else
		WRITE_ONCE(ch->q_bytes, ch->q_bytes - d->cost);
	if (now > ch->busy_since)
		ch->win_ns += now - ch->busy_since;
	ch->busy_since = now;
	if (ran)
		ch->win_bytes += d->cost;
	if (ch->win_ns < ECDMA_PACE_WIN_NS)
		return;
	rate = div64_u64(ch->win_bytes * NSEC_PER_MSEC, ch->win_ns);
	rate = ch->rate ? (3 * ch->rate + rate) / 4 : rate;
	WRITE_ONCE(ch->rate, rate);
	WRITE_ONCE(ch->q_max, max_t(u64, rate * ECDMA_PACE_MS, ECDMA_PACE_MIN));
	ch->win_bytes = 0;
	ch->win_ns = 0;
}

/*
 * A new client (or none): its work may drain at another rate than the
 * last one's, or the probe's self-test; measure it afresh.
 */
static void ecdma_chan_pace_reset(struct ecdma_chan *ch)
{
	lockdep_assert_held(&ch->lock);
	WRITE_ONCE(ch->q_max, 0);
	WRITE_ONCE(ch->rate, 0);
	ch->win_bytes = 0;
	ch->win_ns = 0;
}

/*
 * Complete @d: result, counters, unmap, cookie; the callback and
 * dependencies then run from the tasklet (unmap before the callback, like
 * ioat).  @ran: its operation ran (alone or in a fused WR); else @status
 * (or its own error) says why not.
 */
static void ecdma_desc_complete(struct ecdma_chan *ch, struct ecdma_desc *d,
				bool ran, int status)
{
	struct ecdma_xlate_wr *x = &d->x;
	struct dma_async_tx_descriptor *tx = &d->txd;
	unsigned long flags;
	bool callback;
	u64 now, ns;

	if (d->result)
		*d->result = ran ? ecdma_xlate_result(x, d->wr.result) :
				   ecdma_xlate_result_all(x);
	d->res.result = ran ? DMA_TRANS_NOERROR : DMA_TRANS_ABORTED;
	d->res.residue = 0;
	now = ktime_get_ns();
	ns = now - d->t_submit;
	if (ran) {
		int b = ns >> ECDMA_LAT_SHIFT ? ilog2(ns) - ECDMA_LAT_SHIFT + 1 : 0;

		this_cpu_inc(ch->stats->ops[x->type]);
		this_cpu_add(ch->stats->bytes[x->type], x->len);
		this_cpu_inc(ch->stats->lat[min(b, ECDMA_LAT_BUCKETS - 1)]);
	} else {
		this_cpu_inc(ch->stats->errors[x->type]);
		ecdma_debugfs_error(ch->front, ch->idx, x->type,
				    status ?: d->err ?: -ECANCELED);
		if (status)
			dev_err_ratelimited(ch->front->dev,
					    "chan%u: operation failed: %d\n",
					    ch->idx, status);
	}

	/* before the cookie completes: the client may reuse @d after it */
	trace_ecdma_desc_complete(d, ran ? 0 : status ?: d->err ?: -ECANCELED,
				  ns, !d->aborted && (tx->callback ||
						      tx->callback_result));

	/* a waiter that sees the cookie complete finds the pages unmapped */
	dma_descriptor_unmap(tx);
	/* no-op without channel switching; with a callback, after it */
	if (!tx->callback && !tx->callback_result)
		dma_run_dependencies(tx);

	spin_lock_irqsave(&ch->lock, flags);
	WARN_ON_ONCE(list_first_entry(&ch->posted, struct ecdma_desc, node) != d);
	list_del_init(&d->node);
	ecdma_cookie_complete(tx);
	/* under the lock ecdma_desc_get() reads the queue with */
	ecdma_chan_pace(ch, d, ran, now);
	if (ran && ch->front->core_stats) {
		this_cpu_inc(ch->chan.local->memcpy_count);
		this_cpu_add(ch->chan.local->bytes_transferred, x->len);
	}
	callback = !d->aborted && (tx->callback || tx->callback_result);
	if (callback && d->cb_at_submit) {
		/*
		 * its tx_submit calls back, @d is its own from here; pairs
		 * with the acquire in ecdma_desc_run_at_submit()
		 */
		smp_store_release(&d->cb_due, true);
		spin_unlock_irqrestore(&ch->lock, flags);
		return;
	} else if (callback) {
		d->cb.d = d;
		list_add_tail(&d->cb.node, &ch->callbacks);
	} else {
		tx->callback = NULL;
		tx->callback_result = NULL;
		ecdma_desc_retire(ch, d);
	}
	spin_unlock_irqrestore(&ch->lock, flags);
	if (!callback)
		return;

	/*
	 * Inside a client's call the tasklet runs after it; in the
	 * provider's worker, right here at local_bh_enable().
	 */
	if (this_cpu_read(ecdma_inline_depth) || irqs_disabled()) {
		tasklet_schedule(&ch->cb_tasklet);
	} else {
		local_bh_disable();
		tasklet_schedule(&ch->cb_tasklet);
		local_bh_enable();
	}
}

/*
 * WR completion: @d and the descriptors fused into its WR, which follow
 * it on @ch->posted, in cookie order, with its outcome.
 */
void ecdma_wr_done(struct ecdma_ec_wr *wr)
{
	struct ecdma_desc *d = wr->ctx;
	struct ecdma_chan *ch = d->ch;
	unsigned int fused = d->fused;
	unsigned long flags;
	int status;
	bool ran;

	/* md has no error path: redo what the provider failed, here */
	if (wr->status && wr->opcode == d->x.opcode)
		ecdma_wr_fallback(ch, wr);
	ran = wr->opcode == d->x.opcode && !wr->status;
	if (ran && fused)
		this_cpu_add(ch->stats->fused, fused);
	/* @d and @wr may be reused once @d completed: copy what riders need */
	status = wr->status ?: d->refused;
	d->fused = 0;
	/* a chain that did not run: each of its operations, in order */
	ecdma_desc_complete(ch, d, ran || ecdma_desc_rescue(ch, d, status),
			    status);
	while (fused--) {
		spin_lock_irqsave(&ch->lock, flags);
		d = list_first_entry(&ch->posted, struct ecdma_desc, node);
		spin_unlock_irqrestore(&ch->lock, flags);
		ecdma_desc_complete(ch, d,
				    ran || ecdma_desc_rescue(ch, d, status),
				    status);
	}
}

static void ecdma_issue_pending(struct dma_chan *chan)
{
	struct ecdma_chan *ch = to_ecdma_chan(chan);
	int cpu;

	if (!READ_ONCE(ch->nr_pending))
		return;
	ecdma_chan_post(ch);
	/*
	 * Leave it to the worker without inline_issue or when spreading to
	 * another CPU, but not after a prep found the pool empty: async_tx
	 * then retries with preemption off and never calls tx_status.
	 */
	if (READ_ONCE(ch->starved) ||
	    (READ_ONCE(ch->front->inline_issue) &&
	     !(ecdma_policy_spread(&ch->front->policy, &cpu) &&
	       cpu != raw_smp_processor_id())))
		ecdma_chan_progress(ch);
	/* posted without waking the worker: wake it for what is left */
	ecdma_chan_kick(ch);
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
	ecdma_chan_kick(ch);
	return ecdma_cookie_status(chan, cookie, txstate);
}

/*
 * Queued operations complete in order as NOPs (unmap, no callback);
 * posted ones run, but their callbacks are suppressed, as are undelivered.
 */
static int ecdma_terminate_all(struct dma_chan *chan)
{
	struct ecdma_chan *ch = to_ecdma_chan(chan);
	struct ecdma_desc *d;
	struct ecdma_cb *e;
	unsigned long flags;

	spin_lock_irqsave(&ch->lock, flags);
	list_for_each_entry(d, &ch->submitted, node) {
		d->aborted = true;
		ecdma_desc_nop(d);
	}
	list_for_each_entry(d, &ch->posted, node)
		d->aborted = true;
	list_for_each_entry(e, &ch->callbacks, node) {
		if (e->d)
			e->d->aborted = true;
		else
			e->aborted = true;
	}
	spin_unlock_irqrestore(&ch->lock, flags);

	ecdma_chan_post(ch);
	ecdma_chan_kick(ch);
	return 0;
}

/* Wait until all submitted work completed and its callbacks returned */
void ecdma_chan_drain(struct ecdma_chan *ch)
{
	unsigned long warn_at = jiffies + 10 * HZ;

	while (READ_ONCE(ch->nr_pending)) {
		ecdma_chan_post(ch);
		ecdma_chan_progress(ch);
		ecdma_chan_kick(ch);
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

/*
 * async_tx's copies are declined (ECDMA_ALIGN_DECLINE, which no copy
 * meets) unless a DMA_PRIVATE client such as dmatest holds a channel.
 * md consumes some copies without waiting: with a write-back journal,
 * r5c_cache_data() checksums and journals the page right after
 * ops_run_biodrain's async_memcpy and never acks its descriptor.  An
 * asynchronous copy would journal stale data and leak a descriptor per
 * write.
 */
static void ecdma_front_copies(struct ecdma_front *front)
{
	enum dmaengine_alignment align = front->nr_private ? front->align :
					 ECDMA_ALIGN_DECLINE;

	lockdep_assert_held(&front->cfg_lock);
	if (front->dma.copy_align == align)
		return;
	WRITE_ONCE(front->dma.copy_align, align);
	trace_ecdma_accept(ECDMA_ACCEPT_COPY, align == front->align, align);
}

static int ecdma_alloc_chan_resources(struct dma_chan *chan)
{
	struct ecdma_chan *ch = to_ecdma_chan(chan);
	struct ecdma_front *front = ch->front;
	unsigned long flags;
	int ret;

	/* descriptors and the calc exist from probe on */
	mutex_lock(&front->cfg_lock);
	ret = front->closing ? -EBUSY : ch->nr_desc;
	if (ret > 0) {
		spin_lock_irqsave(&ch->lock, flags);
		ecdma_chan_pace_reset(ch);
		spin_unlock_irqrestore(&ch->lock, flags);
		ch->active = true;
		ch->private = dma_has_cap(DMA_PRIVATE, front->dma.cap_mask);
		front->nr_private += ch->private;
		ecdma_front_copies(front);
	}
	mutex_unlock(&front->cfg_lock);
	return ret;
}

/*
 * The client is gone (the core synchronized the channel): ack what it
 * left unacked and shrink the pool back to its initial size.
 */
static void ecdma_free_chan_resources(struct dma_chan *chan)
{
	struct ecdma_chan *ch = to_ecdma_chan(chan);
	struct ecdma_front *front = ch->front;
	struct ecdma_desc *d, *n;
	unsigned long flags;
	LIST_HEAD(trim);

	spin_lock_irqsave(&ch->lock, flags);
	/*
	 * The next client's rate is its own.  @q_bytes stays: a client that
	 * let go with work in flight (it should have synchronized) still has
	 * its completions take their cost off.
	 */
	ecdma_chan_pace_reset(ch);
	list_for_each_entry(d, &ch->completed, node)
		async_tx_ack(&d->txd);
	list_splice_tail_init(&ch->completed, &ch->free);
	WRITE_ONCE(ch->nr_held, 0);
	list_for_each_entry_safe(d, n, &ch->free, node) {
		if (ch->nr_desc <= ECDMA_DESC_INIT)
			break;
		list_move(&d->node, &trim);
		list_del(&d->all_node);
		ch->nr_desc--;
	}
	spin_unlock_irqrestore(&ch->lock, flags);

	list_for_each_entry_safe(d, n, &trim, node)
		ecdma_desc_free(d);

	mutex_lock(&front->cfg_lock);
	ch->active = false;
	front->nr_private -= ch->private;
	ch->private = false;
	ecdma_front_copies(front);
	ecdma_front_ghost_check(front);
	mutex_unlock(&front->cfg_lock);
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
		sum->rescued += s->rescued;
		sum->cb_at_submit += s->cb_at_submit;
		sum->fused += s->fused;
		sum->prep_full += s->prep_full;
		sum->prep_paced += s->prep_paced;
		sum->cb_released += s->cb_released;
		for (op = 0; op < ECDMA_LAT_BUCKETS; op++)
			sum->lat[op] += s->lat[op];
	}
}

/* The submission, status and channel callbacks of @dma */
void ecdma_dma_set_ops(struct dma_device *dma)
{
	dma->device_alloc_chan_resources = ecdma_alloc_chan_resources;
	dma->device_free_chan_resources = ecdma_free_chan_resources;
	dma->device_terminate_all = ecdma_terminate_all;
	dma->device_synchronize = ecdma_synchronize;
	dma->device_tx_status = ecdma_tx_status;
	dma->device_issue_pending = ecdma_issue_pending;
}
