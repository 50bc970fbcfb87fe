// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma_rdma: the in-network EC primitives over RC queue pairs.
 *
 * Each primitive is a state machine driven from completions, never
 * sleeping (upstream has no WAIT/SEND_EN work requests to chain them on
 * the NIC); rdma_op.c keeps their references, posting and timeouts:
 *
 *   ec-send        encode ---> post the m code sends (data sent at once)
 *   recv-ec-send   per slice: receive --> multiply-accumulate --> send
 *   recv-ec        receives (countdown) --> decode
 *
 * If the first post of a submission fails nothing was posted: the call
 * returns the error and ->done does not run; later failures go to ->done.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/math.h>
#include <linux/string.h>

#include "rdma_priv.h"

static struct ecdma_rdma_calc_wr *to_calc_wr(struct ecdma_ec_wr *wr)
{
	return container_of(wr, struct ecdma_rdma_calc_wr, wr);
}

/* ec-send */

static void ec_send_sent(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ecdma_rdma_ec_send *es;
	struct ecdma_rdma_xfer *x;
	int err;

	x = ecdma_rdma_xfer_complete(wc, true, &err);
	es = container_of(x->op, struct ecdma_rdma_ec_send, op);
	es->stripe_status[x - es->xfer] = err;
	ecdma_rdma_op_put(&es->op);
}

static void ec_send_encoded(struct ecdma_ec_wr *wr)
{
	struct ecdma_rdma_calc_wr *cw = to_calc_wr(wr);
	struct ecdma_rdma_ec_send *es = container_of(cw->op,
						     struct ecdma_rdma_ec_send,
						     op);
	int i, k = cw->mem.num_data_sge, n = k + cw->mem.num_code_sge, ret;

	if (wr->status)
		ecdma_rdma_op_error(&es->op, wr->status);
	for (i = k; i < n; i++) {
		/* a failed or cancelled encode left no parity worth sending */
		ret = wr->status ? -ECANCELED : ecdma_rdma_op_send(&es->op,
							     &es->xfer[i]);
		if (ret)
			es->stripe_status[i] = ret;
	}
	ecdma_rdma_op_put(&es->op);
}

/**
 * ecdma_rdma_ec_send() - ec-send: encode a stripe and send all its blocks
 * @es: the primitive; see struct ecdma_rdma_ec_send
 *
 * Queues the encode of the k data blocks into the m code blocks on
 * @es->calc and posts the k data sends (SEND or RDMA WRITE, signalled) at
 * once, the m code sends from the encode's completion.  @es->op.done runs
 * once every posted send completed; @es->stripe_status tells which block
 * reached its peer.
 * Context: Any context with interrupts enabled; never sleeps or allocates.
 * Return: 0 (->done will run); -EINVAL for a missing ->done, a polling or
 * missing calc, k + m > ECDMA_RDMA_MAX_BLOCKS, a block outside its buffer,
 * a QP or buffer of another device; -ENODEV (removal started); or
 * ecdma_ec_post()'s error for the encode.  On error ->done will not run.
 */
int ecdma_rdma_ec_send(struct ecdma_rdma_ec_send *es)
{
	struct ecdma_rdma_op *op = &es->op;
	struct ecdma_rdma_calc_wr *cw = &es->enc;
	u32 bs = es->block_size;
	struct ecdma_rdma_dev *dev;
	int i, k, m, ret;

	if (!op->done || !ecdma_rdma_calc_ok(es->calc) || !bs)
		return -EINVAL;
	k = ecdma_ec_calc_k(es->calc);
	m = ecdma_ec_calc_m(es->calc);
	if (k + m > ECDMA_RDMA_MAX_BLOCKS || !es->dest[0].qp)
		return -EINVAL;
	dev = es->dest[0].qp->dev;
	for (i = 0; i < k + m; i++)
		if (!ecdma_rdma_dest_ok(dev, &es->dest[i]) ||
		    !ecdma_rdma_blk_ok(dev, &es->blocks[i], bs))
			return -EINVAL;

	for (i = 0; i < k + m; i++) {
		ecdma_rdma_blk_sge(dev, &es->sge[i], &es->blocks[i], 0, bs);
		ecdma_rdma_xfer_send_init(&es->xfer[i], op, &es->dest[i],
					  &es->blocks[i], 0, bs, ec_send_sent);
		es->stripe_status[i] = -EINPROGRESS;
	}
	memset(cw, 0, sizeof(*cw));
	cw->op = op;
	cw->mem.data_blocks = es->sge;
	cw->mem.num_data_sge = k;
	cw->mem.code_blocks = es->sge + k;
	cw->mem.num_code_sge = m;
	cw->mem.block_size = bs;
	cw->wr.opcode = ECDMA_EC_OP_ENCODE;
	cw->wr.mem = &cw->mem;
	cw->wr.done = ec_send_encoded;

	ret = ecdma_rdma_op_start(op, dev, ECDMA_RDMA_OP_EC_SEND);
	if (ret)
		return ret;
	/* the encode first: a request the calc refuses sends nothing */
	atomic_inc(&op->pending);
	ret = ecdma_ec_post(es->calc, &cw->wr);
	if (ret) {
		atomic_dec(&op->pending);
		ecdma_rdma_op_abort(op, ret);
		return ret;
	}
	for (i = 0; i < k; i++) {
		ret = ecdma_rdma_op_send(op, &es->xfer[i]);
		if (ret)
			es->stripe_status[i] = ret;
	}
	ecdma_rdma_op_put(op);
	return 0;
}
EXPORT_SYMBOL_GPL(ecdma_rdma_ec_send);

/* recv-ec-send (res_*) */

static u32 res_slice_size(const struct ecdma_rdma_recv_ec_send *r)
{
	return DIV_ROUND_UP(r->block_size, r->nr_slices);
}

static void res_send(struct ecdma_rdma_recv_ec_send *r, u32 s)
{
	if (r->downstream.qp)
		ecdma_rdma_op_send(&r->op, &r->send[s]);
}

static int res_calc(struct ecdma_rdma_recv_ec_send *r, u32 s)
{
	if (!r->nr_local) {
		res_send(r, s);
		return 0;
	}
	return ecdma_rdma_op_calc(&r->op, r->calc, &r->mac[s]);
}

static void res_sent(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ecdma_rdma_xfer *x;
	int err;

	x = ecdma_rdma_xfer_complete(wc, true, &err);
	ecdma_rdma_op_put(x->op);
}

static void res_computed(struct ecdma_ec_wr *wr)
{
	struct ecdma_rdma_calc_wr *cw = to_calc_wr(wr);
	struct ecdma_rdma_recv_ec_send *r;

	r = container_of(cw->op, struct ecdma_rdma_recv_ec_send, op);
	if (wr->status)
		ecdma_rdma_op_error(&r->op, wr->status);
	else
		res_send(r, cw->idx);
	ecdma_rdma_op_put(&r->op);
}

static void res_recvd(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ecdma_rdma_recv_ec_send *r;
	struct ecdma_rdma_xfer *x;
	int err;

	x = ecdma_rdma_xfer_complete(wc, false, &err);
	r = container_of(x->op, struct ecdma_rdma_recv_ec_send, op);
	if (!err)
		res_calc(r, x - r->recv);
	ecdma_rdma_op_put(&r->op);
}

/* Fill in the work requests of every slice; returns their number. */
static u32 res_prepare(struct ecdma_rdma_recv_ec_send *r,
		       struct ecdma_rdma_dev *dev)
{
	u32 size = res_slice_size(r), nr = DIV_ROUND_UP(r->block_size, size);
	u32 i, s, off, len, nl = r->nr_local;
	struct ecdma_rdma_calc_wr *cw;

	for (s = 0; s < nr; s++) {
		off = s * size;
		len = min(size, r->block_size - off);
		if (r->upstream)
			ecdma_rdma_xfer_recv_init(&r->recv[s], &r->op,
						  r->upstream, &r->acc, off,
						  len, res_recvd);
		if (r->downstream.qp)
			ecdma_rdma_xfer_send_init(&r->send[s], &r->op,
						  &r->downstream, &r->acc,
						  off, len, res_sent);
		if (!nl)
			continue;
		cw = &r->mac[s];
		memset(cw, 0, sizeof(*cw));
		cw->op = &r->op;
		cw->idx = s;
		for (i = 0; i < nl; i++)
			ecdma_rdma_blk_sge(dev, &r->sge[s][i], &r->local[i],
					   off, len);
		ecdma_rdma_blk_sge(dev, &r->sge[s][nl], &r->acc, off, len);
		cw->mem.data_blocks = r->sge[s];
		cw->mem.num_data_sge = nl;
		cw->mem.code_blocks = &r->sge[s][nl];
		cw->mem.num_code_sge = 1;
		cw->mem.block_size = len;
		cw->wr.opcode = ECDMA_EC_OP_ENCODE;
		/* what arrived from upstream is added to, not overwritten */
		cw->wr.flags = r->upstream ? ECDMA_EC_WR_ACCUMULATE : 0;
		cw->wr.mem = &cw->mem;
		cw->wr.matrix = r->coef;	/* nl x 1 */
		cw->wr.done = res_computed;
	}
	return nr;
}

/**
 * ecdma_rdma_recv_ec_send() - recv-ec-send: one hop of a repair chain
 * @r: the primitive; see struct ecdma_rdma_recv_ec_send
 *
 * Per slice: receive the upstream partial into @r->acc (not on the first
 * hop), add @r->coef[i] * @r->local[i] on @r->calc, send it downstream
 * (not on the last hop).  All receives are posted at submission (upstream
 * needs @r->nr_slices receive slots) and slices move on independently, so
 * a chain pipelines.  @r->op.done runs when every step has completed; a
 * failed slice stops there and later hops wait for it: give chains a
 * timeout.
 * Context: Any context with interrupts enabled; never sleeps.
 * Return: 0 (->done will run); -EINVAL for a missing ->done, a block size
 * of 0 or fewer bytes than slices, @r->nr_slices or @r->nr_local out of
 * range, neither upstream nor downstream, local blocks without a callback
 * calc of k >= @r->nr_local, a block outside its buffer, QPs or buffers of
 * different devices; -ENODEV (removal started); else the first post's
 * error (nothing was posted, ->done will not run).
 */
int ecdma_rdma_recv_ec_send(struct ecdma_rdma_recv_ec_send *r)
{
	struct ecdma_rdma_op *op = &r->op;
	u32 bs = r->block_size, i, s, nr;
	struct ecdma_rdma_dev *dev;
	int ret;

	if (!op->done || !bs || !r->nr_slices ||
	    r->nr_slices > ECDMA_RDMA_MAX_SLICES || r->nr_slices > bs ||
	    r->nr_local > ECDMA_RDMA_MAX_LOCAL ||
	    (!r->upstream && !r->downstream.qp) || !r->acc.buf)
		return -EINVAL;
	if (r->nr_local && (!ecdma_rdma_calc_ok(r->calc) ||
			    ecdma_ec_calc_k(r->calc) < (int)r->nr_local))
		return -EINVAL;
	dev = r->acc.buf->dev;
	if (!ecdma_rdma_blk_ok(dev, &r->acc, bs) ||
	    (r->upstream && r->upstream->dev != dev) ||
	    (r->downstream.qp && !ecdma_rdma_dest_ok(dev, &r->downstream)))
		return -EINVAL;
	for (i = 0; i < r->nr_local; i++)
		if (!ecdma_rdma_blk_ok(dev, &r->local[i], bs))
			return -EINVAL;

	nr = res_prepare(r, dev);
	ret = ecdma_rdma_op_start(op, dev, ECDMA_RDMA_OP_RECV_EC_SEND);
	if (ret)
		return ret;
	for (s = 0; s < nr; s++) {
		if (r->upstream)
			ret = ecdma_rdma_op_recv(op, &r->recv[s]);
		else if (r->nr_local)
			ret = res_calc(r, s);
		else
			ret = ecdma_rdma_op_send(op, &r->send[s]);
		if (ret && !s) {
			/* nothing posted: report it here, not via ->done */
			ecdma_rdma_op_abort(op, ret);
			return ret;
		}
	}
	ecdma_rdma_op_put(op);
	return 0;
}
EXPORT_SYMBOL_GPL(ecdma_rdma_recv_ec_send);

/* recv-ec (re_*) */

/* Every receive completed: decode, unless a block is missing. */
static void re_decode(struct ecdma_rdma_recv_ec *r)
{
	if (!atomic_read(&r->op.err))
		ecdma_rdma_op_calc(&r->op, r->calc, &r->dec);
}

static void re_recvd(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ecdma_rdma_recv_ec *r;
	struct ecdma_rdma_xfer *x;
	int err;

	x = ecdma_rdma_xfer_complete(wc, false, &err);
	r = container_of(x->op, struct ecdma_rdma_recv_ec, op);
	if (atomic_dec_and_test(&r->left))
		re_decode(r);
	ecdma_rdma_op_put(&r->op);
}

static void re_decoded(struct ecdma_ec_wr *wr)
{
	struct ecdma_rdma_calc_wr *cw = to_calc_wr(wr);

	if (wr->status)
		ecdma_rdma_op_error(cw->op, wr->status);
	ecdma_rdma_op_put(cw->op);
}

/**
 * ecdma_rdma_recv_ec() - recv-ec: receive survivors and decode in place
 * @r: the primitive; see struct ecdma_rdma_recv_ec
 *
 * Posts a receive for every block with a source QP; when all completed,
 * decodes the erased blocks on @r->calc from the first k blocks not
 * erased.  @r->op.done runs after the decode, or after the last receive
 * when one failed (nothing is decoded then).
 * Context: Any context with interrupts enabled; never sleeps.
 * Return: 0 (->done will run); -EINVAL for a missing ->done, a polling or
 * missing calc, k + m > ECDMA_RDMA_MAX_BLOCKS, no erasure or more than m,
 * an erased block with a source, a block outside its buffer, QPs or
 * buffers of different devices; -ENODEV (removal started); else the first
 * post's error (nothing posted, ->done will not run).
 */
int ecdma_rdma_recv_ec(struct ecdma_rdma_recv_ec *r)
{
	struct ecdma_rdma_op *op = &r->op;
	struct ecdma_rdma_calc_wr *cw = &r->dec;
	u32 bs = r->block_size;
	struct ecdma_rdma_dev *dev;
	int i, k, m, nerased = 0, nrecv = 0, ret;
	bool first = true;

	if (!op->done || !ecdma_rdma_calc_ok(r->calc) || !bs ||
	    !r->blocks[0].buf)
		return -EINVAL;
	k = ecdma_ec_calc_k(r->calc);
	m = ecdma_ec_calc_m(r->calc);
	if (k + m > ECDMA_RDMA_MAX_BLOCKS)
		return -EINVAL;
	dev = r->blocks[0].buf->dev;
	for (i = 0; i < k + m; i++) {
		if (!ecdma_rdma_blk_ok(dev, &r->blocks[i], bs) ||
		    (r->src[i] && (r->src[i]->dev != dev || r->erasures[i])))
			return -EINVAL;
		nerased += !!r->erasures[i];
		nrecv += !!r->src[i];
	}
	if (!nerased || nerased > m)
		return -EINVAL;

	memset(cw, 0, sizeof(*cw));
	cw->op = op;
	for (i = 0; i < k + m; i++) {
		ecdma_rdma_blk_sge(dev, &r->sge[i], &r->blocks[i], 0, bs);
		if (r->src[i])
			ecdma_rdma_xfer_recv_init(&r->recv[i], op, r->src[i],
						  &r->blocks[i], 0, bs,
						  re_recvd);
	}
	cw->mem.data_blocks = r->sge;
	cw->mem.num_data_sge = k;
	cw->mem.code_blocks = r->sge + k;
	cw->mem.num_code_sge = m;
	cw->mem.block_size = bs;
	cw->wr.opcode = ECDMA_EC_OP_DECODE;
	cw->wr.mem = &cw->mem;
	cw->wr.erasures = r->erasures;
	cw->wr.matrix = r->decode_matrix;
	cw->wr.done = re_decoded;

	ret = ecdma_rdma_op_start(op, dev, ECDMA_RDMA_OP_RECV_EC);
	if (ret)
		return ret;
	/* the submitter's share of the countdown */
	atomic_set(&r->left, nrecv + 1);
	if (!nrecv) {
		ret = ecdma_rdma_op_calc(op, r->calc, cw);
		if (ret) {
			ecdma_rdma_op_abort(op, ret);
			return ret;
		}
		ecdma_rdma_op_put(op);
		return 0;
	}
	for (i = 0; i < k + m; i++) {
		if (!r->src[i])
			continue;
		ret = ecdma_rdma_op_recv(op, &r->recv[i]);
		if (ret && first) {
			ecdma_rdma_op_abort(op, ret);
			return ret;
		}
		first = false;
		if (ret)
			atomic_dec(&r->left);	/* never the last: ours */
	}
	if (atomic_dec_and_test(&r->left))
		re_decode(r);
	ecdma_rdma_op_put(op);
	return 0;
}
EXPORT_SYMBOL_GPL(ecdma_rdma_recv_ec);

