// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma_rdma: the life of a primitive (rdma_ec.c has the primitives).
 *
 * op->pending counts what is outstanding: one reference for the submitter
 * while it posts, one per posted work request (send, receive, calc) until
 * its completion handler has run, including whatever that handler posts
 * next (it holds its own reference meanwhile).  The last put records the
 * status, calls ->done and releases the device.  A work request that
 * could not be posted records its error and is not counted, so nothing is
 * waited for twice and nothing is posted twice.
 *
 * Timeouts: primitives with a timeout sit on dev->ops; a delayed work
 * (ecdma_rdma_watchdog()) marks the expired ones and disconnects the QPs
 * they use, which flushes their outstanding work requests, so they
 * complete (-ETIMEDOUT) like any other.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/string.h>

#include "rdma_priv.h"
#include "rdma_trace.h"

/* how often the watchdog looks while primitives with a timeout run */
#define ECDMA_RDMA_WATCHDOG_TICK	(HZ / 10)

void ecdma_rdma_op_error(struct ecdma_rdma_op *op, int err)
{
	atomic_cmpxchg(&op->err, 0, err);
}

/* The blocks a primitive moves or computes, and their size: its events' */
static u32 ecdma_rdma_op_blocks(struct ecdma_rdma_op *op, u32 *bs)
{
	struct ecdma_rdma_recv_ec_send *res;
	struct ecdma_rdma_ec_send *es;
	struct ecdma_rdma_recv_ec *re;

	switch (op->kind) {
	case ECDMA_RDMA_OP_EC_SEND:
		es = container_of(op, struct ecdma_rdma_ec_send, op);
		*bs = es->block_size;
		return es->enc.mem.num_data_sge + es->enc.mem.num_code_sge;
	case ECDMA_RDMA_OP_RECV_EC_SEND:
		/* the local blocks and the partial result */
		res = container_of(op, struct ecdma_rdma_recv_ec_send, op);
		*bs = res->block_size;
		return res->nr_local + 1;
	case ECDMA_RDMA_OP_RECV_EC:
		re = container_of(op, struct ecdma_rdma_recv_ec, op);
		*bs = re->block_size;
		return re->dec.mem.num_data_sge + re->dec.mem.num_code_sge;
	default:
		*bs = 0;
		return 0;
	}
}

static void ecdma_rdma_op_trace_end(struct ecdma_rdma_op *op, int status)
{
	u32 bs, blocks = ecdma_rdma_op_blocks(op, &bs);

	trace_ecdma_rdma_op_end(op, op->kind, blocks, bs, status);
}

int ecdma_rdma_op_start(struct ecdma_rdma_op *op, struct ecdma_rdma_dev *dev,
			enum ecdma_rdma_op_kind kind)
{
	unsigned long flags;

	op->dev = dev;
	op->kind = kind;
	op->status = 0;
	op->timed_out = false;
	atomic_set(&op->pending, 1);
	atomic_set(&op->err, 0);
	INIT_LIST_HEAD(&op->node);
	if (!ecdma_rdma_begin(dev))
		return -ENODEV;
	if (trace_ecdma_rdma_op_start_enabled()) {
		u32 bs, blocks = ecdma_rdma_op_blocks(op, &bs);

		trace_ecdma_rdma_op_start(op, kind, blocks, bs, 0);
	}
	if (op->timeout_ms) {
		op->deadline = jiffies + msecs_to_jiffies(op->timeout_ms);
		spin_lock_irqsave(&dev->lock, flags);
		list_add_tail(&op->node, &dev->ops);
		spin_unlock_irqrestore(&dev->lock, flags);
		schedule_delayed_work(&dev->watchdog, ECDMA_RDMA_WATCHDOG_TICK);
	}
	return 0;
}

/* Nothing was posted (@err): forget the primitive, ->done does not run. */
void ecdma_rdma_op_abort(struct ecdma_rdma_op *op, int err)
{
	struct ecdma_rdma_dev *dev = op->dev;
	unsigned long flags;

	if (trace_ecdma_rdma_op_end_enabled())
		ecdma_rdma_op_trace_end(op, err);
	spin_lock_irqsave(&dev->lock, flags);
	list_del_init(&op->node);
	spin_unlock_irqrestore(&dev->lock, flags);
	ecdma_rdma_end(dev);
}

void ecdma_rdma_op_put(struct ecdma_rdma_op *op)
{
	struct ecdma_rdma_dev *dev = op->dev;
	unsigned long flags;
	bool timed_out;
	int err;

	if (!atomic_dec_and_test(&op->pending))
		return;
	spin_lock_irqsave(&dev->lock, flags);
	list_del_init(&op->node);
	timed_out = op->timed_out;
	spin_unlock_irqrestore(&dev->lock, flags);

	err = atomic_read(&op->err);
	if (timed_out)
		err = -ETIMEDOUT;
	else if (err && READ_ONCE(dev->dead))
		err = -ENODEV;
	op->status = err;
	atomic64_inc(&dev->ops_done);
	if (err)
		atomic64_inc(&dev->ops_failed);
	if (trace_ecdma_rdma_op_end_enabled())
		ecdma_rdma_op_trace_end(op, err);
	op->done(op);		/* may free @op */
	ecdma_rdma_end(dev);
}

/* The caller holds a reference on @op: a failure never finishes it. */
int ecdma_rdma_op_send(struct ecdma_rdma_op *op, struct ecdma_rdma_xfer *x)
{
	int ret;

	atomic_inc(&op->pending);
	ret = ecdma_rdma_post_send(x->qp, &x->send.wr);
	if (ret) {
		ecdma_rdma_op_error(op, ret);
		atomic_dec(&op->pending);
	}
	return ret;
}

int ecdma_rdma_op_recv(struct ecdma_rdma_op *op, struct ecdma_rdma_xfer *x)
{
	int ret;

	atomic_inc(&op->pending);
	ret = ecdma_rdma_post_recv(x->qp, &x->recv);
	if (ret) {
		ecdma_rdma_op_error(op, ret);
		atomic_dec(&op->pending);
	}
	return ret;
}

int ecdma_rdma_op_calc(struct ecdma_rdma_op *op, struct ecdma_ec_calc *calc,
		       struct ecdma_rdma_calc_wr *cw)
{
	int ret;

	atomic_inc(&op->pending);
	ret = ecdma_ec_post(calc, &cw->wr);
	if (ret) {
		ecdma_rdma_op_error(op, ret);
		atomic_dec(&op->pending);
	}
	return ret;
}

/* A completed transfer: its errno (recorded on the primitive), counted. */
struct ecdma_rdma_xfer *ecdma_rdma_xfer_complete(const struct ib_wc *wc,
						 bool tx, int *err)
{
	struct ecdma_rdma_xfer *x = container_of(wc->wr_cqe,
						 struct ecdma_rdma_xfer, cqe);

	*err = ecdma_rdma_wc_errno(wc, x->qp);
	/* a shorter message than the slice: the peers disagree on sizes */
	if (!*err && !tx && wc->byte_len != x->len)
		*err = -EPROTO;
	if (*err)
		ecdma_rdma_op_error(x->op, *err);
	else
		ecdma_rdma_qp_account(x->qp, tx, x->len);
	return x;
}

void ecdma_rdma_xfer_send_init(struct ecdma_rdma_xfer *x,
			       struct ecdma_rdma_op *op,
			       const struct ecdma_rdma_dest *dest,
			       const struct ecdma_rdma_blk *blk, u32 off,
			       u32 len, ecdma_rdma_cqe_done_t done)
{
	memset(x, 0, sizeof(*x));
	x->cqe.done = done;
	x->op = op;
	x->qp = dest->qp;
	x->len = len;
	x->sge.addr = blk->buf->dma + blk->off + off;
	x->sge.length = len;
	x->sge.lkey = blk->buf->lkey;
	x->send.wr.wr_cqe = &x->cqe;
	x->send.wr.sg_list = &x->sge;
	x->send.wr.num_sge = 1;
	x->send.wr.send_flags = IB_SEND_SIGNALED;
	if (dest->write) {
		x->send.wr.opcode = IB_WR_RDMA_WRITE;
		x->send.remote_addr = dest->remote_addr + off;
		x->send.rkey = dest->rkey;
	} else {
		x->send.wr.opcode = IB_WR_SEND;
	}
}

void ecdma_rdma_xfer_recv_init(struct ecdma_rdma_xfer *x,
			       struct ecdma_rdma_op *op,
			       struct ecdma_rdma_qp *qp,
			       const struct ecdma_rdma_blk *blk, u32 off,
			       u32 len, ecdma_rdma_cqe_done_t done)
{
	memset(x, 0, sizeof(*x));
	x->cqe.done = done;
	x->op = op;
	x->qp = qp;
	x->len = len;
	x->sge.addr = blk->buf->dma + blk->off + off;
	x->sge.length = len;
	x->sge.lkey = blk->buf->lkey;
	x->recv.wr_cqe = &x->cqe;
	x->recv.sg_list = &x->sge;
	x->recv.num_sge = 1;
}

/*
 * A calc's view of a block: kernel addresses for "cpu", DMA addresses for
 * an engine (the RDMA device's own, or its engine device's)
 */
void ecdma_rdma_blk_sge(const struct ecdma_rdma_dev *dev,
			struct ecdma_ec_sge *s,
			const struct ecdma_rdma_blk *blk, u32 off, u32 len)
{
	const struct ecdma_rdma_buf *buf = blk->buf;

	if (dev->engine_dev)
		s->addr = buf->edma + blk->off + off;
	else if (dev->engine[0])
		s->addr = buf->dma + blk->off + off;
	else
		s->addr = (u64)(uintptr_t)((u8 *)buf->addr + blk->off + off);
	s->length = len;
	s->lkey = buf->lkey;
}

bool ecdma_rdma_blk_ok(const struct ecdma_rdma_dev *dev,
		       const struct ecdma_rdma_blk *blk, u32 bs)
{
	return blk->buf && blk->buf->dev == dev && blk->off <= blk->buf->len &&
	       bs <= blk->buf->len - blk->off;
}

bool ecdma_rdma_dest_ok(const struct ecdma_rdma_dev *dev,
			const struct ecdma_rdma_dest *dest)
{
	return dest->qp && dest->qp->dev == dev;
}

bool ecdma_rdma_calc_ok(struct ecdma_ec_calc *calc)
{
	return !IS_ERR_OR_NULL(calc) && !ecdma_ec_calc_polling(calc);
}

/* dev->lock held: have the watchdog disconnect every QP @op uses */
static void ecdma_rdma_op_mark_qps(struct ecdma_rdma_op *op)
{
	struct ecdma_rdma_recv_ec_send *res;
	struct ecdma_rdma_ec_send *es;
	struct ecdma_rdma_recv_ec *re;
	int i, n;

	switch (op->kind) {
	case ECDMA_RDMA_OP_EC_SEND:
		es = container_of(op, struct ecdma_rdma_ec_send, op);
		n = es->enc.mem.num_data_sge + es->enc.mem.num_code_sge;
		for (i = 0; i < n; i++)
			es->dest[i].qp->abort = true;
		break;
	case ECDMA_RDMA_OP_RECV_EC_SEND:
		res = container_of(op, struct ecdma_rdma_recv_ec_send, op);
		if (res->upstream)
			res->upstream->abort = true;
		if (res->downstream.qp)
			res->downstream.qp->abort = true;
		break;
	case ECDMA_RDMA_OP_RECV_EC:
		re = container_of(op, struct ecdma_rdma_recv_ec, op);
		n = re->dec.mem.num_data_sge + re->dec.mem.num_code_sge;
		for (i = 0; i < n; i++)
			if (re->src[i])
				re->src[i]->abort = true;
		break;
	default:
		break;
	}
}

/**
 * ecdma_rdma_watchdog() - fail the primitives past their timeout
 * @work: dev->watchdog
 *
 * Marks each expired primitive and disconnects the QPs it uses; their
 * flush completes it with -ETIMEDOUT.  Runs every
 * ECDMA_RDMA_WATCHDOG_TICK while primitives with a timeout are in flight.
 * Context: Process context (a work item); takes dev->mutex.
 */
void ecdma_rdma_watchdog(struct work_struct *work)
{
	struct ecdma_rdma_dev *dev = container_of(to_delayed_work(work),
						  struct ecdma_rdma_dev,
						  watchdog);
	struct ecdma_rdma_op *op;
	struct ecdma_rdma_qp *qp;
	bool expired = false, again, abort;
	unsigned long flags;

	mutex_lock(&dev->mutex);
	spin_lock_irqsave(&dev->lock, flags);
	if (dev->dead) {
		spin_unlock_irqrestore(&dev->lock, flags);
		mutex_unlock(&dev->mutex);
		return;
	}
	list_for_each_entry(op, &dev->ops, node) {
		if (op->timed_out || time_before(jiffies, op->deadline))
			continue;
		op->timed_out = true;
		ecdma_rdma_op_mark_qps(op);
		expired = true;
	}
	again = !list_empty(&dev->ops);
	spin_unlock_irqrestore(&dev->lock, flags);

	list_for_each_entry(qp, &dev->qps, node) {
		if (!expired)
			break;
		spin_lock_irqsave(&dev->lock, flags);
		abort = qp->abort;
		qp->abort = false;
		spin_unlock_irqrestore(&dev->lock, flags);
		if (abort && !qp->state)
			ecdma_rdma_qp_flush(qp, -ENOTCONN);
	}
	mutex_unlock(&dev->mutex);
	if (again)
		schedule_delayed_work(&dev->watchdog, ECDMA_RDMA_WATCHDOG_TICK);
}
