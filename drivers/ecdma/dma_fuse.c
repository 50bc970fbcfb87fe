// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma dmaengine front: dependent chains run as one WR.
 *
 * async_raid6_2data_recov() submits five operations per stripe (a
 * syndrome into the two lost blocks, two XORs, a Q-only sum-product, an
 * XOR), each FENCEd on the one before, callback on the last only;
 * async_raid6_datap_recov() four.  Queued together before issue_pending,
 * they are composed (fuse.c) into one 2-output product of the blocks they
 * read, posted on the first descriptor; the others ride on it and complete
 * with it, in cookie order.  Memory then holds what the five would have
 * left: a client can tell the difference only by looking at a block between
 * two of the operations, and the chain's descriptors give it no point to
 * do so (no callback, and the next one was issued already).
 */
#include <linux/dma-mapping.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "fuse.h"
#include "gf.h"
#include "front.h"

const char *const ecdma_fuse_names[ECDMA_FUSE_NR] = {
	[ECDMA_FUSE_AUTO] = "auto",
	[ECDMA_FUSE_ON] = "on",
	[ECDMA_FUSE_OFF] = "off",
};

/**
 * ecdma_fuse_set - set the fuse mode and what it resolves to
 * @front: the front
 * @mode: enum ecdma_fuse_mode
 *
 * "auto" takes the calibration's verdict (ecdma_fuse_calibrate()).
 * Context: any; sysfs and probe are the writers.
 */
void ecdma_fuse_set(struct ecdma_front *front, enum ecdma_fuse_mode mode)
{
	WRITE_ONCE(front->fuse, mode);
	WRITE_ONCE(front->fuse_active, mode == ECDMA_FUSE_ON ||
		   (mode == ECDMA_FUSE_AUTO && READ_ONCE(front->fuse_win)));
}

/**
 * ecdma_chan_fuse - compose the chain that @d begins, if there is one
 * @ch: the channel
 * @d: the first descriptor on @ch->submitted, not yet fused
 *
 * On success @d's WR runs the whole chain and @d->fused counts the
 * descriptors after it that it runs; @d->x stays as translated (its
 * counters, its unfused WR).  The composed sources go in @d's room after
 * its own, so a chain needs room for both, and at most the calc's sources.
 *
 * Context: ch->lock held, IRQs off.
 */
void ecdma_chan_fuse(struct ecdma_chan *ch, struct ecdma_desc *d)
{
	struct ecdma_xlate_wr *x = &d->x;
	struct ecdma_desc *m = d;
	struct ecdma_fuse f;
	unsigned int n = 0, room;
	int nr;

	lockdep_assert_held(&ch->lock);
	if (d->err || d->aborted || !ecdma_desc_links(d) ||
	    list_is_last(&d->node, &ch->submitted) ||
	    !ecdma_fuse_start(&f, x))
		return;
	do {
		m = list_next_entry(m, node);
		if (m->err || m->aborted || !ecdma_fuse_add(&f, &m->x))
			break;
		n++;
	} while (ecdma_desc_links(m) && !list_is_last(&m->node, &ch->submitted));
	if (!n)
		return;

	room = min_t(unsigned int, x->cap - x->nr_data,
		     ch->front->calc_k);
	nr = ecdma_fuse_emit(&f, x->data + x->nr_data,
			     x->mat + ECDMA_XLATE_MAX_CODE * x->nr_data, room);
	if (nr < 0)
		return;
	/* the outputs are @x's P and Q (ecdma_fuse_start) */
	d->mem.data_blocks = x->data + x->nr_data;
	d->mem.num_data_sge = nr;
	d->wr.matrix = x->mat + ECDMA_XLATE_MAX_CODE * x->nr_data;
	d->wr.flags = 0;
	d->fused = n;
}

/**
 * ecdma_desc_unfuse - back to @d's own operation
 * @d: a fused descriptor the provider refused for good
 *
 * Its followers are still on the submitted list behind it: they are then
 * posted one by one, as if it had never been fused.
 */
void ecdma_desc_unfuse(struct ecdma_desc *d)
{
	d->mem.data_blocks = d->x.data;
	d->mem.num_data_sge = d->x.nr_data;
	d->wr.matrix = d->x.matrix;
	d->wr.flags = d->x.wr_flags;
	d->fused = 0;
}

/*
 * The calibration: whether composing pays on this host and provider.  One
 * pass does as many GF products as the five operations and fewer passes
 * and work requests, but its rows are dense: where a product costs much
 * more than an XOR (vpshufb kernels on hot data, or an emulated CPU) the
 * syndrome's XOR row and the small steps can be cheaper.  So at probe the
 * front runs async_tx's 2-data recovery chain on its first channel, as md
 * would submit it (4 KiB blocks, 8 data disks, two lost), both ways,
 * interleaved, and keeps the faster; both results must agree.
 */
#define FC_NDATA	8			/* data disks; two are lost */
#define FC_FA		2
#define FC_FB		5
#define FC_NBUF		(FC_NDATA + 2)		/* data, P, Q */
#define FC_CHAINS	32			/* chains per timing */
#define FC_ROUNDS	5			/* timings per way; the best */

/**
 * struct ecdma_fuse_cal - the calibration's buffers
 * @page: FC_NDATA data blocks (FC_FA and FC_FB: the lost ones), P, Q
 * @dma: their DMA addresses for the front's device
 * @want: the lost blocks as the five operations left them
 */
struct ecdma_fuse_cal {
	struct page *page[FC_NBUF];
	dma_addr_t dma[FC_NBUF];
	u8 want[2][PAGE_SIZE];
};

/* One chain, as async_raid6_2data_recov() submits it; 0 when done */
static int ecdma_fuse_cal_chain(struct ecdma_chan *ch,
				struct ecdma_fuse_cal *fc)
{
	struct dma_device *dma = ch->chan.device;
	struct dma_chan *chan = &ch->chan;
	const unsigned long fence = DMA_PREP_FENCE | DMA_CTRL_ACK;
	dma_addr_t dp = fc->dma[FC_FA], dq = fc->dma[FC_FB];
	dma_addr_t src[FC_NDATA], dst[2];
	struct dma_async_tx_descriptor *tx[5];
	u8 scf[FC_NDATA], coef[2];
	dma_cookie_t cookie = 0;
	unsigned int i, n = 0;

	for (i = 0; i < FC_NDATA; i++) {
		if (i == FC_FA || i == FC_FB)
			continue;
		src[n] = fc->dma[i];
		scf[n++] = ecdma_gf_pow2(i);
	}
	dst[0] = dp;
	dst[1] = dq;
	tx[0] = dma->device_prep_dma_pq(chan, dst, src, n, scf, PAGE_SIZE,
					fence);
	src[0] = dp;
	src[1] = fc->dma[FC_NDATA];
	tx[1] = dma->device_prep_dma_xor(chan, dp, src, 2, PAGE_SIZE, fence);
	src[0] = dq;
	src[1] = fc->dma[FC_NDATA + 1];
	tx[2] = dma->device_prep_dma_xor(chan, dq, src, 2, PAGE_SIZE, fence);
	src[0] = dp;
	src[1] = dq;
	dst[0] = DMA_MAPPING_ERROR;
	/* async_tx's: raid6_gfexi[fb - fa], raid6_gfinv[g^fa ^ g^fb] */
	coef[0] = ecdma_gf_inv(ecdma_gf_pow2(FC_FB - FC_FA) ^ 1);
	coef[1] = ecdma_gf_inv(ecdma_gf_pow2(FC_FA) ^ ecdma_gf_pow2(FC_FB));
	tx[3] = dma->device_prep_dma_pq(chan, dst, src, 2, coef, PAGE_SIZE,
					fence | DMA_PREP_PQ_DISABLE_P);
	tx[4] = dma->device_prep_dma_xor(chan, dp, src, 2, PAGE_SIZE,
					 DMA_CTRL_ACK);
	for (i = 0; i < ARRAY_SIZE(tx); i++) {
		if (!tx[i])
			return -EIO;
		cookie = tx[i]->tx_submit(tx[i]);
		if (dma_submit_error(cookie))
			return -EIO;
	}
	return ecdma_probe_wait(ch, cookie);
}

/* ns per chain over FC_CHAINS chains with fusion @on, or a negative errno */
static s64 ecdma_fuse_cal_time(struct ecdma_front *front,
			       struct ecdma_fuse_cal *fc, bool on)
{
	struct ecdma_chan *ch = &front->chans[0];
	unsigned int i;
	u64 t0;
	int ret;

	WRITE_ONCE(front->fuse_active, on);
	t0 = ktime_get_ns();
	for (i = 0; i < FC_CHAINS; i++) {
		ret = ecdma_fuse_cal_chain(ch, fc);
		if (ret)
			return ret;
	}
	return div_u64(ktime_get_ns() - t0, FC_CHAINS);
}

/**
 * ecdma_fuse_calibrate - measure whether composing chains pays here
 * @front: a front whose channels are set up, before its counters reset
 *
 * Sets @front->fuse_win and, with fuse "auto", @front->fuse_active.
 *
 * Context: process context (sleeps); no client holds the channels.
 * Return: 0; -EIO when the composed chain's result differs from the five
 * operations' (logged), or another negative errno.
 */
int ecdma_fuse_calibrate(struct ecdma_front *front)
{
	s64 t, best[2] = { S64_MAX, S64_MAX };
	struct ecdma_fuse_cal *fc;
	unsigned int i, r;
	int ret = 0;

	fc = kzalloc(sizeof(*fc), GFP_KERNEL);
	if (!fc)
		return -ENOMEM;
	ret = ecdma_probe_pages(front->dev, fc->page, fc->dma, FC_NBUF);
	if (ret)
		goto out;

	/* the lost blocks are outputs only: every chain leaves the same */
	WRITE_ONCE(front->fuse_active, false);
	ret = ecdma_fuse_cal_chain(&front->chans[0], fc);
	if (ret)
		goto out;
	memcpy(fc->want[0], page_address(fc->page[FC_FA]), PAGE_SIZE);
	memcpy(fc->want[1], page_address(fc->page[FC_FB]), PAGE_SIZE);
	for (r = 0; r < FC_ROUNDS; r++) {
		for (i = 0; i < 2; i++) {
			t = ecdma_fuse_cal_time(front, fc, (r + i) & 1);
			if (t < 0) {
				ret = t;
				goto out;
			}
			best[(r + i) & 1] = min(best[(r + i) & 1], t);
		}
	}
	if (memcmp(fc->want[0], page_address(fc->page[FC_FA]), PAGE_SIZE) ||
	    memcmp(fc->want[1], page_address(fc->page[FC_FB]), PAGE_SIZE)) {
		dev_err(front->dev, "composed recovery chain computed a different result\n");
		ret = -EIO;
		goto out;
	}
	WRITE_ONCE(front->fuse_win, best[1] < best[0]);
	dev_info(front->dev, "fuse: 2-data recovery of 4 KiB, %u data disks: five operations %lld ns, composed %lld ns: %s\n",
		 FC_NDATA, best[0], best[1],
		 front->fuse_win ? "composed" : "five operations");
out:
	ecdma_fuse_set(front, READ_ONCE(front->fuse));
	ecdma_probe_pages_free(front->dev, fc->page, fc->dma, FC_NBUF);
	kfree(fc);
	return ret;
}
