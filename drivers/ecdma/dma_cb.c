// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma dmaengine provider: delivering the callbacks.
 *
 * Callbacks run from the channel's tasklet, in cookie order, never inside
 * a client's call; a descriptor with one waits on ch->callbacks until it
 * returned.  Under threadirqs softirqs run only in ksoftirqd, which cannot
 * run on a CPU where async_tx spins on a dry pool with preemption off (md
 * runs its stripe operations so): with every descriptor waiting for its
 * callback, that spin never ends.  So a prep that finds the pool dry
 * copies the callbacks of acked descriptors into records that take their
 * places on ch->callbacks and gives the descriptors back to the pool, as
 * hardware drivers copy a callback out before recycling its descriptor.
 * One callback comes inside the client's call, on purpose: md's compute
 * and prexor, delivered at submit (ecdma_desc_run_at_submit()).
 */
#include <linux/slab.h>

#include "ecdma_trace.h"
#include "front.h"

/* Most callbacks one tasklet run delivers before letting others run */
#define ECDMA_CB_BATCH	64

void ecdma_cb_invoke(dma_async_tx_callback_result callback_result,
		     dma_async_tx_callback callback, void *param,
		     const struct dmaengine_result *res)
{
	if (callback_result)
		callback_result(param, res);
	else if (callback)
		callback(param);
}

/* A record's callback returned: it no longer counts as pending */
static void ecdma_cb_record_done(struct ecdma_chan *ch, struct ecdma_cb *r)
{
	unsigned long flags;

	kfree(r);
	spin_lock_irqsave(&ch->lock, flags);
	WRITE_ONCE(ch->nr_pending, ch->nr_pending - 1);
	spin_unlock_irqrestore(&ch->lock, flags);
}

/*
 * The channel's tasklet: a tasklet never runs concurrently with itself,
 * so callbacks are delivered one at a time, in cookie order.
 */
void ecdma_chan_callbacks(struct tasklet_struct *t)
{
	struct ecdma_chan *ch = from_tasklet(ch, t, cb_tasklet);
	struct dma_async_tx_descriptor *tx;
	struct ecdma_desc *d = NULL;
	struct ecdma_cb *e;
	unsigned long flags;
	bool aborted = false;
	int n;

	for (n = 0; n < ECDMA_CB_BATCH; n++) {
		spin_lock_irqsave(&ch->lock, flags);
		e = list_first_entry_or_null(&ch->callbacks, struct ecdma_cb,
					     node);
		if (e) {
			list_del_init(&e->node);
			d = e->d;
			aborted = d ? d->aborted : e->aborted;
		}
		spin_unlock_irqrestore(&ch->lock, flags);
		if (!e)
			return;

		trace_ecdma_desc_callback(ch, e, aborted);
		if (!d) {
			if (!aborted)
				ecdma_cb_invoke(e->callback_result, e->callback,
						e->param, &e->res);
			ecdma_cb_record_done(ch, e);
			continue;
		}
		tx = &d->txd;
		if (!aborted)
			ecdma_cb_invoke(tx->callback_result, tx->callback,
					tx->callback_param, &d->res);
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
 * md builds the operation after this one from what this one's callback
 * sets: ops_run_partial_parity() takes the sources of a PPL entry by
 * R5_UPTODATE, which a compute's callback sets, and ops_run_biodrain()
 * expects prexor's callback to have swapped a journaled page back.  With
 * md's synchronous path the callback ran inside async_xor(); so here too:
 * run the channel's work up to @d, then call back, before returning to
 * async_tx (Documentation/driver-api/md-async-tx.rst, rows P2 and P4).
 * Context: a client's call (md: preemption off); spins as dma_sync_wait().
 */
void ecdma_desc_run_at_submit(struct ecdma_chan *ch, struct ecdma_desc *d)
{
	struct dma_async_tx_descriptor *tx = &d->txd;
	unsigned long flags;

	/* pairs with the release in ecdma_desc_complete() */
	while (!smp_load_acquire(&d->cb_due)) {
		ecdma_chan_post(ch);
		ecdma_chan_progress(ch);
		cpu_relax();
	}
	this_cpu_inc(ch->stats->cb_at_submit);
	trace_ecdma_md_guard(ECDMA_MD_GUARD_CB_AT_SUBMIT);
	ecdma_cb_invoke(tx->callback_result, tx->callback, tx->callback_param,
			&d->res);
	tx->callback = NULL;
	tx->callback_result = NULL;
	dma_run_dependencies(tx);
	spin_lock_irqsave(&ch->lock, flags);
	d->cb_due = false;
	ecdma_desc_retire(ch, d);
	spin_unlock_irqrestore(&ch->lock, flags);
}

/**
 * ecdma_cb_release - give back the descriptors a dry pool waits for
 * @ch: the channel, ch->lock held
 *
 * Each acked descriptor on ch->callbacks (the client is done with it; it
 * has no dependency to run after its callback) gets its callback copied
 * into a record that takes its place, and goes back to the free list.  It
 * stays pending (@nr_pending) until the record's callback returned, so
 * device_synchronize still waits for it.  Context: any, IRQs off.
 * Return: descriptors given back; 0 when none waits or no memory.
 */
unsigned int ecdma_cb_release(struct ecdma_chan *ch)
{
	struct dma_async_tx_descriptor *tx;
	struct ecdma_cb *e, *r;
	struct ecdma_desc *d;
	unsigned int n = 0;

	lockdep_assert_held(&ch->lock);
	list_for_each_entry(e, &ch->callbacks, node) {
		d = e->d;
		if (!d || !async_tx_test_ack(&d->txd) || txd_next(&d->txd))
			continue;
		r = kmalloc(sizeof(*r), GFP_ATOMIC | __GFP_NOWARN);
		if (!r)
			break;
		tx = &d->txd;
		*r = (struct ecdma_cb){
			.callback = tx->callback,
			.callback_result = tx->callback_result,
			.param = tx->callback_param,
			.res = d->res,
			.desc = d,
			.op = d->x.type,
			.aborted = d->aborted,
		};
		list_replace(&e->node, &r->node);
		INIT_LIST_HEAD(&e->node);
		e->d = NULL;
		tx->callback = NULL;
		tx->callback_result = NULL;
		list_add_tail(&d->node, &ch->free);
		/* go on from the record, now in the list */
		e = r;
		n++;
	}
	if (n)
		this_cpu_add(ch->stats->cb_released, n);
	return n;
}
