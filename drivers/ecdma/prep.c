// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma dmaengine front: descriptors and the prep callbacks.
 *
 * A prep call takes a free descriptor (dma.c recycles them), translates
 * the client's arguments into one EC verbs work request (xlate.c) and
 * turns its DMA addresses into kernel pointers (dma_addr.c).  It never
 * sleeps, copies every argument, and returns NULL only when the channel
 * has no descriptor left or its queue is full (pacing): an operation it
 * cannot run still gets a descriptor, which completes in order as a NOP
 * with an error result.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/dma-mapping.h>
#include <linux/error-injection.h>
#include <linux/slab.h>

#include "ecdma_trace.h"
#include "front.h"

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

/* noinline: fail_function must find it (below); also used at probe */
noinline struct ecdma_desc *ecdma_desc_new(struct ecdma_chan *ch, gfp_t gfp)
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

/* Free a descriptor that is on no list, with its extension */
void ecdma_desc_free(struct ecdma_desc *d)
{
	kfree(d->big);
	kfree(d);
}

/*
 * Give @d room for @n sources: its own, or its extension, allocated on
 * first need (GFP_NOWAIT: prep may not sleep) and kept.  More than
 * ECDMA_XLATE_MAX_SRC get the small room, which xlate then rejects.
 */
static bool ecdma_desc_room(struct ecdma_desc *d, unsigned int n)
{
	if (n <= ECDMA_DESC_SRC || n > ECDMA_XLATE_MAX_SRC) {
		ecdma_xlate_bind(&d->x, d->src_data, d->src_mat,
				 ARRAY_SIZE(d->src_data));
		return true;
	}
	if (!d->big)
		d->big = kmalloc(sizeof(*d->big), GFP_NOWAIT | __GFP_NOWARN);
	if (!d->big)
		return false;
	ecdma_xlate_bind(&d->x, d->big->data, d->big->mat,
			 ARRAY_SIZE(d->big->data));
	return true;
}

static void ecdma_desc_put(struct ecdma_chan *ch, struct ecdma_desc *d)
{
	unsigned long flags;

	spin_lock_irqsave(&ch->lock, flags);
	list_add(&d->node, &ch->free);
	spin_unlock_irqrestore(&ch->lock, flags);
}

/*
 * Refill the free list from the completed descriptors their clients acked
 * since.  An unacked one is never taken back (dmaengine's contract): async_tx
 * may still pass it as depend_tx, which must not read acked, however long
 * the client stalls in between.  Called with ch->lock held.
 */
static void ecdma_desc_reap(struct ecdma_chan *ch)
{
	struct ecdma_desc *d, *n;

	lockdep_assert_held(&ch->lock);
	list_for_each_entry_safe(d, n, &ch->completed, node) {
		if (!async_tx_test_ack(&d->txd))
			continue;
		list_move_tail(&d->node, &ch->free);
		WRITE_ONCE(ch->nr_held, ch->nr_held - 1);
	}
}

/*
 * Descriptors of @ch that count against desc_max: all but those a client
 * holds completed and unacked, which are the client's until it acks them.
 */
static unsigned int ecdma_desc_pooled(const struct ecdma_chan *ch)
{
	return ch->nr_desc - ch->nr_held;
}

/*
 * Take a free descriptor with room for @nsrc sources of an @op: from the
 * free list, else from the acked completed ones, else a new one while the
 * descriptors not held unacked are fewer than desc_max (and all fewer than
 * ECDMA_DESC_HARD).  NULL: the queue is full (pacing), or all in flight (or
 * no memory); issue_pending (run inline) and the clients' acks clear that.
 */
static struct ecdma_desc *ecdma_desc_get(struct ecdma_chan *ch,
					 enum ecdma_op_type op,
					 unsigned int nsrc)
{
	unsigned int limit = READ_ONCE(ch->front->desc_max);
	struct ecdma_desc *d, *trim = NULL;
	unsigned long flags;
	bool grow;

	spin_lock_irqsave(&ch->lock, flags);
	/*
	 * Pacing: md waits for a chain's newest descriptor in dma_sync_wait()
	 * with preemption off, running all the work ahead of it, and panics
	 * after 5 s; desc_max bounds the count, not the time.  So no new work
	 * while the queue holds ECDMA_PACE_MS of it (ecdma_chan_pace()).
	 * NULL as from a dry pool: async_tx quiesces and retries through
	 * issue_pending, which runs work inline (@starved); completions alone
	 * make room and an empty queue always admits.  Not for interrupts (no
	 * work) nor DMA_PRIVATE (async_tx is not there; dmatest takes NULL
	 * for a failure).
	 */
	if (op != ECDMA_OP_INTERRUPT &&
	    ch->q_bytes >= (ch->q_max ?: ECDMA_PACE_MIN) &&
	    !dma_has_cap(DMA_PRIVATE, ch->front->dma.cap_mask)) {
		spin_unlock_irqrestore(&ch->lock, flags);
		trace_ecdma_decline(ch, op, ECDMA_DECLINE_PACED, -EBUSY);
		WRITE_ONCE(ch->starved, true);
		this_cpu_inc(ch->stats->prep_paced);
		return NULL;
	}
	if (list_empty(&ch->free))
		ecdma_desc_reap(ch);
	grow = ecdma_desc_pooled(ch) < limit && ch->nr_desc < ECDMA_DESC_HARD;
	/* dry and full: the acked ones waiting for a callback (dma_cb.c) */
	if (list_empty(&ch->free) && !grow)
		ecdma_cb_release(ch);
	d = list_first_entry_or_null(&ch->free, struct ecdma_desc, node);
	if (d) {
		list_del_init(&d->node);
		/* desc_max was lowered: shrink by one per prep */
		trim = ecdma_desc_pooled(ch) > limit ?
		       list_first_entry_or_null(&ch->free, struct ecdma_desc,
						node) : NULL;
		if (trim) {
			list_del(&trim->node);
			list_del(&trim->all_node);
			ch->nr_desc--;
		}
		spin_unlock_irqrestore(&ch->lock, flags);
		if (trim)
			ecdma_desc_free(trim);
		goto room;
	}
	if (grow)
		ch->nr_desc++;
	spin_unlock_irqrestore(&ch->lock, flags);

	d = grow ? ecdma_desc_new(ch, GFP_NOWAIT | __GFP_NOWARN) : NULL;
	if (grow) {
		spin_lock_irqsave(&ch->lock, flags);
		if (d) {
			list_add_tail(&d->all_node, &ch->all);
		} else {
			ch->nr_desc--;
			/* could not grow: as dry as a full pool */
			if (list_empty(&ch->free))
				ecdma_cb_release(ch);
			d = list_first_entry_or_null(&ch->free,
						     struct ecdma_desc, node);
			if (d)
				list_del_init(&d->node);
		}
		spin_unlock_irqrestore(&ch->lock, flags);
	}
room:
	if (d && !ecdma_desc_room(d, nsrc)) {
		ecdma_desc_put(ch, d);
		trace_ecdma_decline(ch, op, ECDMA_DECLINE_NO_ROOM, -ENOMEM);
		d = NULL;
	} else if (!d) {
		trace_ecdma_decline(ch, op, ECDMA_DECLINE_POOL_DRY, -EBUSY);
	}
	if (!d) {
		/* the client's retry calls issue_pending: run work there */
		WRITE_ONCE(ch->starved, true);
		this_cpu_inc(ch->stats->prep_full);
		if (READ_ONCE(ch->nr_desc) >= ECDMA_DESC_HARD)
			dev_warn_ratelimited(ch->front->dev,
					     "chan%u: its client holds %u completed descriptors unacked; waiting for its acks\n",
					     ch->idx, READ_ONCE(ch->nr_held));
	}
	return d;
}

/*
 * Finish a prep call of an @op: @ret is the translation's result.  Copies
 * nothing from the caller (xlate already did), writes nothing through
 * @result before completion, and never pre-acks.
 */
/* A device's engine takes its DMA addresses as they are: only the errors */
static int ecdma_desc_check_dev(struct ecdma_front *front,
				const struct ecdma_xlate_wr *x)
{
	unsigned int i;
	int err = 0;

	/* every one checked: DMA-API debugging wants each mapping looked at */
	for (i = 0; i < x->nr_data; i++)
		if (dma_mapping_error(front->dev, x->data[i].addr))
			err = -EFAULT;
	for (i = 0; i < x->nr_code; i++)
		if (dma_mapping_error(front->dev, x->code[i].addr))
			err = -EFAULT;
	return err;
}

static struct dma_async_tx_descriptor *
ecdma_desc_prepare(struct ecdma_chan *ch, struct ecdma_desc *d,
		   enum ecdma_op_type op, int ret, unsigned long flags,
		   enum sum_check_flags *result)
{
	struct ecdma_front *front = ch->front;
	struct dma_async_tx_descriptor *tx = &d->txd;
	struct ecdma_xlate_wr *x = &d->x;

	if (ret) {
		trace_ecdma_decline(ch, op, ECDMA_DECLINE_INVALID, ret);
	} else if (x->opcode != ECDMA_EC_OP_NOP &&
		   !IS_ALIGNED(x->len, front->caps.block_align)) {
		trace_ecdma_decline(ch, op, ECDMA_DECLINE_ALIGN, -EINVAL);
		ret = -EINVAL;
	}
	if (ret) {
		dev_err_ratelimited(front->dev,
				    "chan%u: operation rejected (%d): bad source count or length\n",
				    ch->idx, ret);
		ecdma_debugfs_error(front, ch->idx, ECDMA_OP_NR, ret);
		ecdma_desc_put(ch, d);
		return NULL;
	}

	d->err = 0;
	d->refused = 0;
	d->cpu_addrs = !front->dev_addrs;
	if (front->dev_addrs)
		d->err = ecdma_desc_check_dev(front, x);
	else
		d->err = ecdma_sges_to_cpu(front, x->data, x->nr_data, x->len) ?:
			 ecdma_sges_to_cpu(front, x->code, x->nr_code, x->len);
	if (d->err) {
		trace_ecdma_decline(ch, op, ECDMA_DECLINE_UNMAPPED, d->err);
		dev_err_ratelimited(front->dev,
				    "chan%u: address not mapped, or not RAM in the direct map; the operation will not run\n",
				    ch->idx);
	}

	d->result = result;
	d->aborted = false;
	d->cb_at_submit = false;
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
	trace_ecdma_desc_prep(d);
	return tx;
}

/*
 * No descriptor: async_tx unmaps the client's mappings at once without
 * calling dma_mapping_error(), so check them here as ecdma_addr_to_cpu()
 * does, or DMA-API debugging reports a mapping nobody checked.
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
	struct ecdma_desc *d = ecdma_desc_get(ch, ECDMA_OP_MEMCPY, 1);

	if (!d) {
		ecdma_prep_full(ch, dst, &src, 1);
		return NULL;
	}
	return ecdma_desc_prepare(ch, d, ECDMA_OP_MEMCPY,
				  ecdma_xlate_memcpy(&d->x, dst, src, len),
				  flags, NULL);
}

static struct dma_async_tx_descriptor *
ecdma_prep_xor(struct dma_chan *chan, dma_addr_t dst, dma_addr_t *src,
	       unsigned int src_cnt, size_t len, unsigned long flags)
{
	struct ecdma_chan *ch = to_ecdma_chan(chan);
	struct ecdma_desc *d = ecdma_desc_get(ch, ECDMA_OP_XOR, src_cnt);
	struct dma_async_tx_descriptor *tx;

	if (!d) {
		ecdma_prep_full(ch, dst, src, src_cnt);
		return NULL;
	}
	tx = ecdma_desc_prepare(ch, d, ECDMA_OP_XOR,
				ecdma_xlate_xor(&d->x, dst, src, src_cnt, len),
				flags, NULL);
	/*
	 * async_tx's first XOR with a callback that the next is FENCEd on:
	 * md's compute and prexor, whose callbacks md reads before it
	 * builds that next one (ecdma_desc_run_at_submit())
	 */
	if (tx && (flags & DMA_PREP_INTERRUPT) && (flags & DMA_PREP_FENCE) &&
	    !dma_has_cap(DMA_PRIVATE, ch->front->dma.cap_mask))
		d->cb_at_submit = true;
	return tx;
}

static struct dma_async_tx_descriptor *
ecdma_prep_xor_val(struct dma_chan *chan, dma_addr_t *src,
		   unsigned int src_cnt, size_t len,
		   enum sum_check_flags *result, unsigned long flags)
{
	struct ecdma_chan *ch = to_ecdma_chan(chan);
	struct ecdma_desc *d = ecdma_desc_get(ch, ECDMA_OP_XOR_VAL, src_cnt);

	if (!d) {
		ecdma_prep_full(ch, 0, src, src_cnt);
		return NULL;
	}
	return ecdma_desc_prepare(ch, d, ECDMA_OP_XOR_VAL,
				  ecdma_xlate_xor_val(&d->x, src, src_cnt, len),
				  flags, result);
}

static struct dma_async_tx_descriptor *
ecdma_prep_pq(struct dma_chan *chan, dma_addr_t *dst, dma_addr_t *src,
	      unsigned int src_cnt, const unsigned char *scf, size_t len,
	      unsigned long flags)
{
	struct ecdma_chan *ch = to_ecdma_chan(chan);
	struct ecdma_desc *d = ecdma_desc_get(ch, ECDMA_OP_PQ, src_cnt);

	if (!d) {
		ecdma_prep_full(ch, 0, dst, 2);
		ecdma_prep_full(ch, 0, src, src_cnt);
		return NULL;
	}
	/*
	 * A syndrome that may begin a chain (dma_fuse.c) gets room for the
	 * composed sources too, if memory allows; else it is not composed.
	 * Only while composing: past 15 sources that is the big room.
	 */
	if (READ_ONCE(ch->front->fuse_active) && (flags & DMA_PREP_FENCE) &&
	    !(flags & (DMA_PREP_PQ_DISABLE_P | DMA_PREP_PQ_DISABLE_Q)))
		ecdma_desc_room(d, min_t(unsigned int, 2 * src_cnt + 2,
					 ECDMA_XLATE_MAX_SRC));
	return ecdma_desc_prepare(ch, d, ECDMA_OP_PQ,
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
	struct ecdma_desc *d = ecdma_desc_get(ch, ECDMA_OP_PQ_VAL, src_cnt);

	if (!d) {
		ecdma_prep_full(ch, 0, pq, 2);
		ecdma_prep_full(ch, 0, src, src_cnt);
		return NULL;
	}
	return ecdma_desc_prepare(ch, d, ECDMA_OP_PQ_VAL,
				  ecdma_xlate_pq_val(&d->x, pq, src, src_cnt,
						     scf, len, flags),
				  flags, pqres);
}

static struct dma_async_tx_descriptor *
ecdma_prep_interrupt(struct dma_chan *chan, unsigned long flags)
{
	struct ecdma_chan *ch = to_ecdma_chan(chan);
	struct ecdma_desc *d = ecdma_desc_get(ch, ECDMA_OP_INTERRUPT, 0);

	if (!d)
		return NULL;
	ecdma_xlate_interrupt(&d->x);
	return ecdma_desc_prepare(ch, d, ECDMA_OP_INTERRUPT, 0, flags, NULL);
}

/* The prep callbacks of @dma */
void ecdma_prep_set_ops(struct dma_device *dma)
{
	dma->device_prep_dma_memcpy = ecdma_prep_memcpy;
	dma->device_prep_dma_xor = ecdma_prep_xor;
	dma->device_prep_dma_xor_val = ecdma_prep_xor_val;
	dma->device_prep_dma_pq = ecdma_prep_pq;
	dma->device_prep_dma_pq_val = ecdma_prep_pq_val;
	dma->device_prep_dma_interrupt = ecdma_prep_interrupt;
}
