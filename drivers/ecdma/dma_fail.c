// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma dmaengine front: when the EC provider does not run an operation.
 *
 * md has no error path for async_tx: an operation completed without
 * running is parity md writes and never computed.  A work request the
 * provider failed is run again on the channel's fallback calc; one that
 * fails there too, or that the provider refused at post, the front
 * computes itself on the CPU when it completes (xlate_run.c).  A device's
 * front has its engine's DMA addresses in the WR: both first translate
 * them to kernel addresses, in place (the engine is done with them).
 */
#include "ecdma_trace.h"
#include "front.h"

/* Tries of a fallback that fails itself (fault injection covers it too) */
#define ECDMA_FB_TRIES	4

/**
 * ecdma_desc_wr_to_cpu - @d's WR (its own blocks, or a fused chain's) as
 *	kernel addresses, in place, once
 * @ch: its channel
 * @d: the descriptor, its engine done with the WR or never given it
 *
 * Return: 0, or -EFAULT with @d->err set: it cannot run anywhere.
 */
int ecdma_desc_wr_to_cpu(struct ecdma_chan *ch, struct ecdma_desc *d)
{
	struct ecdma_ec_mem *mem = &d->mem;
	int err;

	if (!ch->front->dev_addrs ||
	    (d->cpu_addrs && mem->data_blocks == d->x.data))
		return 0;
	err = ecdma_sges_to_cpu(ch->front, mem->data_blocks,
				mem->num_data_sge, mem->block_size) ?:
	      ecdma_sges_to_cpu(ch->front, mem->code_blocks,
				mem->num_code_sge, mem->block_size);
	if (err)
		d->err = err;
	else if (mem->data_blocks == d->x.data)
		d->cpu_addrs = true;
	return err;
}

static void ecdma_fb_done(struct ecdma_ec_wr *wr)
{
	WRITE_ONCE(*(bool *)wr->ctx, true);
}

/*
 * The provider failed an operation; its inputs are intact (a failed WR
 * writes nothing), so recompute it synchronously on the channel's
 * fallback calc.  This runs in the WR's completion, before any later WR
 * of the channel starts, so operations chained on it see its result.
 * Only this channel's completions use @ch->fb_calc: the loop ends when
 * the WR completes there.
 */
void ecdma_wr_fallback(struct ecdma_chan *ch, struct ecdma_ec_wr *wr)
{
	void (*done)(struct ecdma_ec_wr *wr) = wr->done;
	void *ctx = wr->ctx;
	const struct ecdma_desc *d = ctx;
	int err = wr->status;
	bool finished;
	int tries = 0;

	this_cpu_inc(ch->stats->faults);
	if (!ch->fb_calc || ecdma_desc_wr_to_cpu(ch, ctx))
		goto out;
	wr->done = ecdma_fb_done;
	wr->ctx = &finished;
	while (tries < ECDMA_FB_TRIES) {
		finished = false;
		/* the WR left @ch->calc's lists: ->done may repost it */
		if (ecdma_ec_post_nokick(ch->fb_calc, wr))
			break;
		tries++;
		while (!READ_ONCE(finished))
			ecdma_ec_progress(ch->fb_calc);
		if (!wr->status)
			break;
	}
	wr->done = done;
	wr->ctx = ctx;
	if (!wr->status)
		this_cpu_inc(ch->stats->fallbacks);
out:
	trace_ecdma_fallback(ch, d->x.type, err, tries, wr->status);
}

/*
 * Neither the engine nor its fallback ran @d's operation (@err), or the
 * engine refused it: md has no error path, so the front computes it on the
 * CPU (xlate_run.c, which cannot fail for a valid operation), in @d's
 * place in cookie order.  Not for an address that is not RAM (@d->err):
 * nothing can run that.  Return: true if it ran.
 */
bool ecdma_desc_rescue(struct ecdma_chan *ch, struct ecdma_desc *d, int err)
{
	u32 res;
	int ret;

	if (d->err || d->aborted || d->x.opcode == ECDMA_EC_OP_NOP)
		return false;
	if (!d->cpu_addrs) {
		d->err = ecdma_sges_to_cpu(ch->front, d->x.data, d->x.nr_data,
					   d->x.len) ?:
			 ecdma_sges_to_cpu(ch->front, d->x.code, d->x.nr_code,
					   d->x.len);
		if (d->err)
			return false;
		d->cpu_addrs = true;
	}
	ret = ecdma_xlate_run(&d->x, &res);
	trace_ecdma_rescue(ch, d->x.type, err, ret);
	if (ret) {
		dev_err_ratelimited(ch->front->dev,
				    "chan%u: an operation the engine refused (%d) is malformed (%d); it did not run\n",
				    ch->idx, err, ret);
		return false;
	}
	d->wr.result = res;
	this_cpu_inc(ch->stats->rescued);
	dev_warn_ratelimited(ch->front->dev,
			     "chan%u: the engine %s an operation (%d); computed on the CPU instead\n",
			     ch->idx, d->refused ? "refused" : "and its fallback failed",
			     err);
	return true;
}
