// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma probe-time self-test: known answers through the whole stack (prep,
 * translation, address check, EC verbs WR on the provider, completion), on
 * every channel, before the dmaengine device is registered.  Covers XOR,
 * P+Q with continuation, XOR_VAL and PQ_VAL catching a corrupted block, a
 * 2-data RAID6 recovery with arbitrary coefficients and an in-place
 * multiply (Q aliasing a source, as async_tx's recovery does), memcpy at
 * odd offsets (in units of the provider's alignment) and an interrupt
 * callback.  The expected values come from a
 * separate bit-serial GF(2^8) multiply, not from the engine's tables.
 * Its buffers and its wait serve the fuse calibration (dma_fuse.c) too.
 */
#include <linux/dma-mapping.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "front.h"

#define ST_LEN		PAGE_SIZE
#define ST_NDATA	6
#define ST_TIMEOUT	(5 * HZ)

/* The P/Q address of a disabled row: must never be used. */
#define ST_BOGUS	DMA_MAPPING_ERROR

enum { ST_P = ST_NDATA, ST_Q, ST_DP, ST_DQ, ST_X, ST_NBUF };

/**
 * struct ecdma_st - self-test state
 * @front: front under test
 * @ch: channel under test
 * @page: test buffers: ST_NDATA data blocks, P, Q, two recovery scratch
 *	blocks and a memcpy target
 * @va: their kernel addresses
 * @dma: their DMA addresses for the front's device
 * @ref: expected values
 * @scf: Q coefficients of the data blocks, {02}^i
 * @cb_ran: the interrupt callback ran
 */
struct ecdma_st {
	struct ecdma_front *front;
	struct ecdma_chan *ch;
	struct page *page[ST_NBUF];
	u8 *va[ST_NBUF];
	dma_addr_t dma[ST_NBUF];
	u8 ref[ST_LEN];
	u8 scf[ST_NDATA];
	bool cb_ran;
};

static u8 st_gfmul(u8 a, u8 b)
{
	u8 r = 0;

	while (b) {
		if (b & 1)
			r ^= a;
		a = (a << 1) ^ (a & 0x80 ? 0x1d : 0);
		b >>= 1;
	}
	return r;
}

static u8 st_gfpow2(unsigned int e)
{
	u8 r = 1;

	while (e--)
		r = st_gfmul(r, 2);
	return r;
}

static u8 st_gfinv(u8 a)
{
	unsigned int b;

	for (b = 1; b < 256; b++)
		if (st_gfmul(a, b) == 1)
			return b;
	return 0;
}

static int st_fail(struct ecdma_st *st, const char *what)
{
	dev_err(st->front->dev, "self-test chan%u: %s\n", st->ch->idx, what);
	return -EIO;
}

/**
 * ecdma_probe_wait - issue what @ch holds and wait until @cookie completed
 * @ch: a channel of an unregistered front (no client polls it)
 * @cookie: the last cookie submitted
 *
 * Waits for the callbacks too (nr_pending 0), so buffers may be reused.
 * Context: process context (sleeps).
 * Return: 0, or -ETIMEDOUT after ST_TIMEOUT.
 */
int ecdma_probe_wait(struct ecdma_chan *ch, dma_cookie_t cookie)
{
	struct dma_chan *chan = &ch->chan;
	struct dma_device *dma = chan->device;
	unsigned long timeout = jiffies + ST_TIMEOUT;

	dma->device_issue_pending(chan);
	while (dma->device_tx_status(chan, cookie, NULL) != DMA_COMPLETE ||
	       READ_ONCE(ch->nr_pending)) {
		if (time_after(jiffies, timeout))
			return -ETIMEDOUT;
		cond_resched();
	}
	return 0;
}

/* Submit @tx and wait until it and its callback have completed. */
static int st_run(struct ecdma_st *st, struct dma_async_tx_descriptor *tx,
		  const char *what)
{
	dma_cookie_t cookie;

	if (!tx)
		return st_fail(st, what);
	cookie = tx->tx_submit(tx);
	if (dma_submit_error(cookie) || ecdma_probe_wait(st->ch, cookie))
		return st_fail(st, what);
	return 0;
}

static int st_xor(struct ecdma_st *st, unsigned int dst,
		  const unsigned int *src, unsigned int n, const char *what)
{
	struct dma_chan *chan = &st->ch->chan;
	dma_addr_t s[ST_NBUF];
	unsigned int i;

	for (i = 0; i < n; i++)
		s[i] = st->dma[src[i]];
	return st_run(st, chan->device->device_prep_dma_xor(chan, st->dma[dst],
							    s, n, ST_LEN,
							    DMA_CTRL_ACK),
		      what);
}

/* dst[0] or dst[1] may be ST_NBUF: that row is disabled */
static int st_pq(struct ecdma_st *st, unsigned int p, unsigned int q,
		 const unsigned int *src, unsigned int n, const u8 *scf,
		 unsigned long flags, const char *what)
{
	struct dma_chan *chan = &st->ch->chan;
	dma_addr_t s[ST_NBUF], d[2];
	unsigned int i;

	for (i = 0; i < n; i++)
		s[i] = st->dma[src[i]];
	d[0] = p < ST_NBUF ? st->dma[p] : ST_BOGUS;
	d[1] = q < ST_NBUF ? st->dma[q] : ST_BOGUS;
	if (p >= ST_NBUF)
		flags |= DMA_PREP_PQ_DISABLE_P;
	if (q >= ST_NBUF)
		flags |= DMA_PREP_PQ_DISABLE_Q;
	return st_run(st, chan->device->device_prep_dma_pq(chan, d, s, n, scf,
							   ST_LEN,
							   flags | DMA_CTRL_ACK),
		      what);
}

static int st_xor_val(struct ecdma_st *st, enum sum_check_flags want,
		      const char *what)
{
	struct dma_chan *chan = &st->ch->chan;
	enum sum_check_flags res = ~0;
	dma_addr_t s[ST_NDATA + 1];
	unsigned int i;
	int ret;

	s[0] = st->dma[ST_P];
	for (i = 0; i < ST_NDATA; i++)
		s[i + 1] = st->dma[i];
	ret = st_run(st, chan->device->device_prep_dma_xor_val(chan, s,
							       ST_NDATA + 1,
							       ST_LEN, &res,
							       DMA_CTRL_ACK),
		     what);
	if (!ret && res != want)
		ret = st_fail(st, what);
	return ret;
}

static int st_pq_val(struct ecdma_st *st, unsigned long flags,
		     enum sum_check_flags want, const char *what)
{
	struct dma_chan *chan = &st->ch->chan;
	enum sum_check_flags res = ~0;
	dma_addr_t pq[2];
	int ret;

	pq[0] = flags & DMA_PREP_PQ_DISABLE_P ? ST_BOGUS : st->dma[ST_P];
	pq[1] = flags & DMA_PREP_PQ_DISABLE_Q ? ST_BOGUS : st->dma[ST_Q];
	ret = st_run(st, chan->device->device_prep_dma_pq_val(chan, pq, st->dma,
							      ST_NDATA, st->scf,
							      ST_LEN, &res,
							      flags | DMA_CTRL_ACK),
		     what);
	if (!ret && res != want)
		ret = st_fail(st, what);
	return ret;
}

static int st_check(struct ecdma_st *st, unsigned int buf, const u8 *want,
		    const char *what)
{
	return memcmp(st->va[buf], want, ST_LEN) ? st_fail(st, what) : 0;
}

static void st_ref_pq(struct ecdma_st *st, bool q)
{
	unsigned int i, j;

	memset(st->ref, 0, ST_LEN);
	for (i = 0; i < ST_NDATA; i++)
		for (j = 0; j < ST_LEN; j++)
			st->ref[j] ^= q ? st_gfmul(st->scf[i], st->va[i][j]) :
					  st->va[i][j];
}

static int st_memcpy(struct ecdma_st *st)
{
	struct dma_chan *chan = &st->ch->chan;
	/* odd offsets and length where the provider allows them */
	const unsigned int a = st->ch->front->caps.block_align;
	const unsigned int soff = 3 * a, doff = 5 * a;
	const unsigned int len = a == 1 ? 1001 : ST_LEN - 8 * a;
	int ret;

	memset(st->va[ST_X], 0, ST_LEN);
	ret = st_run(st, chan->device->device_prep_dma_memcpy(chan,
							      st->dma[ST_X] + doff,
							      st->dma[0] + soff,
							      len, DMA_CTRL_ACK),
		     "memcpy");
	if (ret)
		return ret;
	memset(st->ref, 0, ST_LEN);
	memcpy(st->ref + doff, st->va[0] + soff, len);
	return st_check(st, ST_X, st->ref, "memcpy mismatch");
}

static void st_callback(void *param)
{
	struct ecdma_st *st = param;

	WRITE_ONCE(st->cb_ran, true);
}

static int st_interrupt(struct ecdma_st *st)
{
	struct dma_chan *chan = &st->ch->chan;
	struct dma_async_tx_descriptor *tx;
	int ret;

	/* like async_trigger_callback(): no DMA_PREP_INTERRUPT, callback set */
	tx = chan->device->device_prep_dma_interrupt(chan, DMA_CTRL_ACK);
	if (tx) {
		tx->callback = st_callback;
		tx->callback_param = st;
	}
	st->cb_ran = false;
	ret = st_run(st, tx, "interrupt");
	if (!ret && !READ_ONCE(st->cb_ran))
		ret = st_fail(st, "interrupt callback did not run");
	return ret;
}

static int st_parity(struct ecdma_st *st)
{
	static const unsigned int all[ST_NDATA] = { 0, 1, 2, 3, 4, 5 };
	int ret;

	ret = st_xor(st, ST_P, all, ST_NDATA, "xor");
	if (ret)
		return ret;
	st_ref_pq(st, false);
	ret = st_check(st, ST_P, st->ref, "xor mismatch");
	if (ret)
		return ret;

	/* P+Q in two parts, the second continuing the first */
	memset(st->va[ST_P], 0xa5, ST_LEN);
	memset(st->va[ST_Q], 0x5a, ST_LEN);
	ret = st_pq(st, ST_P, ST_Q, all, 4, st->scf, DMA_PREP_FENCE, "pq");
	if (!ret)
		ret = st_pq(st, ST_P, ST_Q, all + 4, 2, st->scf + 4,
			    DMA_PREP_CONTINUE, "pq continue");
	if (ret)
		return ret;
	st_ref_pq(st, false);
	ret = st_check(st, ST_P, st->ref, "pq: P mismatch");
	if (ret)
		return ret;
	st_ref_pq(st, true);
	return st_check(st, ST_Q, st->ref, "pq: Q mismatch");
}

/* P and Q are valid on entry; every corruption is undone. */
static int st_validate(struct ecdma_st *st)
{
	int ret;

	ret = st_xor_val(st, 0, "xor_val on good parity");
	if (ret)
		return ret;
	st->va[3][100] ^= 0x40;
	ret = st_xor_val(st, SUM_CHECK_P_RESULT, "xor_val missed a corruption");
	st->va[3][100] ^= 0x40;
	if (ret)
		return ret;

	ret = st_pq_val(st, 0, 0, "pq_val on good parity");
	if (ret)
		return ret;
	st->va[2][7] ^= 1;
	ret = st_pq_val(st, 0, SUM_CHECK_P_RESULT | SUM_CHECK_Q_RESULT,
			"pq_val missed a data corruption");
	st->va[2][7] ^= 1;
	if (ret)
		return ret;
	st->va[ST_Q][ST_LEN - 1] ^= 0x80;
	ret = st_pq_val(st, 0, SUM_CHECK_Q_RESULT,
			"pq_val misreported a Q corruption");
	if (!ret)
		ret = st_pq_val(st, DMA_PREP_PQ_DISABLE_Q, 0,
				"pq_val checked a disabled Q");
	st->va[ST_Q][ST_LEN - 1] ^= 0x80;
	if (ret)
		return ret;
	st->va[ST_P][0] ^= 0x10;
	ret = st_pq_val(st, 0, SUM_CHECK_P_RESULT,
			"pq_val misreported a P corruption");
	if (!ret)
		ret = st_pq_val(st, DMA_PREP_PQ_DISABLE_P, 0,
				"pq_val checked a disabled P");
	st->va[ST_P][0] ^= 0x10;
	return ret;
}

/*
 * The first steps of both recoveries, as async_raid6_recov does them: the
 * syndrome of the @n survivors @surv into ST_DQ (and ST_DP unless @dp is
 * ST_NBUF, for a Q-only syndrome), then fold in Q (and P): what is left is
 * the lost blocks' share.
 */
static int st_surv_syndrome(struct ecdma_st *st, unsigned int dp,
			    const unsigned int *surv, unsigned int n,
			    const char *what)
{
	u8 scf[ST_NDATA];
	unsigned int pair[2], i;
	int ret;

	for (i = 0; i < n; i++)
		scf[i] = st->scf[surv[i]];
	ret = st_pq(st, dp, ST_DQ, surv, n, scf, DMA_PREP_FENCE, what);
	if (ret)
		return ret;
	if (dp != ST_NBUF) {
		pair[0] = ST_DP;
		pair[1] = ST_P;
		ret = st_xor(st, ST_DP, pair, 2, what);
		if (ret)
			return ret;
	}
	pair[0] = ST_DQ;
	pair[1] = ST_Q;
	return st_xor(st, ST_DQ, pair, 2, what);
}

/*
 * Lose data blocks a and b and rebuild them the way async_raid6_2data_recov
 * does for wide arrays: syndrome of the survivors, fold in P and Q, then
 * one sum-of-products with Q aliasing a source and a final in-place XOR.
 */
static int st_2data_recov(struct ecdma_st *st)
{
	static const unsigned int surv[] = { 0, 2, 3, 5 };
	const unsigned int a = 1, b = 4;
	unsigned int pair[2];
	u8 coef[2];
	int ret;

	ret = st_surv_syndrome(st, ST_DP, surv, ARRAY_SIZE(surv),
			       "recovery");
	if (ret)
		return ret;

	/* Db = A * dp + B * dq, written over dq */
	coef[0] = st_gfinv(st_gfpow2(b - a) ^ 1);
	coef[1] = st_gfinv(st_gfpow2(a) ^ st_gfpow2(b));
	pair[0] = ST_DP;
	pair[1] = ST_DQ;
	ret = st_pq(st, ST_NBUF, ST_DQ, pair, 2, coef, DMA_PREP_FENCE,
		    "recovery: sum of products");
	if (ret)
		return ret;
	ret = st_xor(st, ST_DP, pair, 2, "recovery: Da = dp ^ Db");
	if (ret)
		return ret;
	ret = st_check(st, ST_DQ, st->va[b], "2-data recovery: Db mismatch");
	if (ret)
		return ret;
	return st_check(st, ST_DP, st->va[a], "2-data recovery: Da mismatch");
}

/* Lose data block a and P: Q-only syndrome, then an in-place multiply. */
static int st_datap_recov(struct ecdma_st *st)
{
	static const unsigned int surv[] = { 0, 1, 3, 4, 5 };
	const unsigned int a = 2;
	unsigned int one = ST_DQ;
	u8 coef;
	int ret;

	ret = st_surv_syndrome(st, ST_NBUF, surv, ARRAY_SIZE(surv),
			       "data+P recovery");
	if (ret)
		return ret;
	coef = st_gfinv(st_gfpow2(a));
	ret = st_pq(st, ST_NBUF, ST_DQ, &one, 1, &coef, DMA_PREP_FENCE,
		    "data+P recovery: in-place multiply");
	if (ret)
		return ret;
	return st_check(st, ST_DQ, st->va[a], "data+P recovery mismatch");
}

static int st_chan(struct ecdma_st *st)
{
	int ret;

	ret = st_memcpy(st);
	if (!ret)
		ret = st_parity(st);
	if (!ret)
		ret = st_validate(st);
	if (!ret)
		ret = st_2data_recov(st);
	if (!ret)
		ret = st_datap_recov(st);
	if (!ret)
		ret = st_interrupt(st);
	return ret;
}

/**
 * ecdma_probe_pages - @n pages of random bytes, mapped for @dev
 * @dev: the front's device
 * @page: n zeroed slots, filled as far as it got
 * @dma: n zeroed slots, their DMA addresses
 * @n: how many
 *
 * Context: process context (sleeps).
 * Return: 0 or -ENOMEM; either way ecdma_probe_pages_free() frees them.
 */
int ecdma_probe_pages(struct device *dev, struct page **page,
		      dma_addr_t *dma, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		page[i] = alloc_page(GFP_KERNEL);
		if (!page[i])
			return -ENOMEM;
		get_random_bytes(page_address(page[i]), PAGE_SIZE);
		dma[i] = dma_map_page(dev, page[i], 0, PAGE_SIZE,
				      DMA_BIDIRECTIONAL);
		if (dma_mapping_error(dev, dma[i])) {
			dma[i] = 0;
			return -ENOMEM;
		}
	}
	return 0;
}

/**
 * ecdma_probe_pages_free - undo ecdma_probe_pages(), however far it got
 * @dev: the front's device
 * @page: the pages (NULL slots skipped)
 * @dma: their DMA addresses (0: not mapped)
 * @n: how many slots
 */
void ecdma_probe_pages_free(struct device *dev, struct page **page,
			    dma_addr_t *dma, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!page[i])
			continue;
		if (dma[i])
			dma_unmap_page(dev, dma[i], PAGE_SIZE,
				       DMA_BIDIRECTIONAL);
		__free_page(page[i]);
	}
}

/**
 * ecdma_selftest - known-answer test of every channel of an unregistered front
 * @front: front with initialised channels
 *
 * Context: process context (sleeps).
 * Return: 0, or a negative errno after logging what failed.
 */
int ecdma_selftest(struct ecdma_front *front)
{
	struct device *dev = front->dev;
	struct ecdma_st *st;
	unsigned int i;
	int ret = 0;

	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	st->front = front;
	ret = ecdma_probe_pages(dev, st->page, st->dma, ST_NBUF);
	if (ret)
		goto out_free;
	for (i = 0; i < ST_NBUF; i++)
		st->va[i] = page_address(st->page[i]);
	for (i = 0; i < ST_NDATA; i++)
		st->scf[i] = st_gfpow2(i);

	for (i = 0; i < front->nr_chans && !ret; i++) {
		st->ch = &front->chans[i];
		ret = st_chan(st);
	}
	if (!ret)
		dev_info(dev, "self-test passed on %u channels\n",
			 front->nr_chans);
out_free:
	ecdma_probe_pages_free(dev, st->page, st->dma, ST_NBUF);
	kfree(st);
	return ret;
}
