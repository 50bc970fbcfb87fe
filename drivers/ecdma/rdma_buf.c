// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma_rdma: buffers the CPU engine and a device both reach, and the
 * device's pool of fast-registration MRs that gives them remote keys.
 *
 * A buffer is physically contiguous (one SGE covers any block in it) and
 * mapped while the device lives; removal unmaps and deregisters what is
 * left, the memory stays with its owner until ecdma_rdma_buf_free().  Pool
 * MRs are registered and invalidated by WRs posted on a QP of the device
 * and waited for; an MR left in an unknown state is freed, not reused.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/dma-mapping.h>
#include <linux/err.h>
#include <linux/gfp.h>
#include <linux/scatterlist.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#include "rdma_priv.h"

/* largest buffer: physically contiguous, one allocation */
#define ECDMA_RDMA_BUF_MAX	SZ_4M

/* A free pool MR, or a new one; NULL when the pool is exhausted. */
static struct ib_mr *ecdma_rdma_mr_get(struct ecdma_rdma_dev *dev)
{
	struct ib_mr *mr;
	unsigned long flags;
	bool grow;

	spin_lock_irqsave(&dev->lock, flags);
	mr = list_first_entry_or_null(&dev->mr_free, struct ib_mr, qp_entry);
	if (mr)
		list_del(&mr->qp_entry);
	grow = !mr && dev->mr_total < ECDMA_RDMA_MR_MAX;
	if (mr || grow)
		dev->mr_in_use++;
	if (grow)
		dev->mr_total++;
	spin_unlock_irqrestore(&dev->lock, flags);
	if (!grow)
		return mr;

	mr = ib_alloc_mr(dev->pd, IB_MR_TYPE_MEM_REG, dev->mr_pages);
	if (IS_ERR(mr)) {
		spin_lock_irqsave(&dev->lock, flags);
		dev->mr_in_use--;
		dev->mr_total--;
		spin_unlock_irqrestore(&dev->lock, flags);
		return NULL;
	}
	return mr;
}

/* An invalidated MR goes back to the pool. */
static void ecdma_rdma_mr_put(struct ecdma_rdma_dev *dev, struct ib_mr *mr)
{
	unsigned long flags;

	spin_lock_irqsave(&dev->lock, flags);
	list_add(&mr->qp_entry, &dev->mr_free);
	dev->mr_in_use--;
	spin_unlock_irqrestore(&dev->lock, flags);
}

/* An MR in an unknown state leaves the pool for good. */
static void ecdma_rdma_mr_drop(struct ecdma_rdma_dev *dev, struct ib_mr *mr)
{
	unsigned long flags;

	ib_dereg_mr(mr);
	spin_lock_irqsave(&dev->lock, flags);
	dev->mr_in_use--;
	dev->mr_total--;
	spin_unlock_irqrestore(&dev->lock, flags);
}

/**
 * ecdma_rdma_buf_alloc() - memory the CPU engine and a device both reach
 * @dev: the device
 * @len: bytes, 1..4 MiB
 *
 * Physically contiguous, mapped for the device and usable locally with the
 * PD's local DMA key; ecdma_rdma_buf_reg() gives it an rkey.
 * Context: Process context; sleeps.
 * Return: the buffer, or ERR_PTR(): -EINVAL for @len, -ENODEV once the
 * device's removal started, -ENOMEM.
 */
struct ecdma_rdma_buf *ecdma_rdma_buf_alloc(struct ecdma_rdma_dev *dev,
					    size_t len)
{
	struct ecdma_rdma_buf *buf;
	int ret;

	might_sleep();
	if (!len || len > ECDMA_RDMA_BUF_MAX)
		return ERR_PTR(-EINVAL);
	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return ERR_PTR(-ENOMEM);
	buf->addr = alloc_pages_exact(len, GFP_KERNEL | __GFP_NOWARN);
	if (!buf->addr) {
		ret = -ENOMEM;
		goto err_free;
	}
	buf->len = len;
	buf->dev = dev;

	mutex_lock(&dev->mutex);
	/* nothing new from the start of the removal, not only after it */
	if (dev->dead) {
		ret = -ENODEV;
		goto err_unlock;
	}
	buf->dma = ib_dma_map_single(dev->ibdev, buf->addr, len,
				     DMA_BIDIRECTIONAL);
	if (ib_dma_mapping_error(dev->ibdev, buf->dma)) {
		ret = -ENOMEM;
		goto err_unlock;
	}
	if (dev->engine_dev) {
		buf->edma = dma_map_single(dev->engine_dev, buf->addr, len,
					   DMA_BIDIRECTIONAL);
		if (dma_mapping_error(dev->engine_dev, buf->edma)) {
			ib_dma_unmap_single(dev->ibdev, buf->dma, len,
					    DMA_BIDIRECTIONAL);
			ret = -ENOMEM;
			goto err_unlock;
		}
	}
	buf->lkey = dev->pd->local_dma_lkey;
	list_add_tail(&buf->node, &dev->bufs);
	kref_get(&dev->ref);
	mutex_unlock(&dev->mutex);
	return buf;

err_unlock:
	mutex_unlock(&dev->mutex);
	free_pages_exact(buf->addr, len);
err_free:
	kfree(buf);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(ecdma_rdma_buf_alloc);

/* Unmap and deregister; dev->mutex held, the device alive. */
static void ecdma_rdma_buf_release(struct ecdma_rdma_buf *buf)
{
	struct ecdma_rdma_dev *dev = buf->dev;

	lockdep_assert_held(&dev->mutex);
	list_del_init(&buf->node);
	if (buf->mr)
		ecdma_rdma_mr_drop(dev, buf->mr);
	ib_dma_unmap_single(dev->ibdev, buf->dma, buf->len, DMA_BIDIRECTIONAL);
	if (buf->edma)
		dma_unmap_single(dev->engine_dev, buf->edma, buf->len,
				 DMA_BIDIRECTIONAL);
	buf->mr = NULL;
	buf->dma = 0;
	buf->edma = 0;
	buf->lkey = 0;
	buf->rkey = 0;
	buf->iova = 0;
}

/**
 * ecdma_rdma_buf_free() - deregister if needed and free a buffer
 * @buf: the buffer, which no primitive uses; NULL or an ERR_PTR are ignored
 * Context: Process context; sleeps.
 */
void ecdma_rdma_buf_free(struct ecdma_rdma_buf *buf)
{
	struct ecdma_rdma_dev *dev;

	if (IS_ERR_OR_NULL(buf))
		return;
	dev = buf->dev;
	mutex_lock(&dev->mutex);
	if (dev->ibdev)
		ecdma_rdma_buf_release(buf);
	mutex_unlock(&dev->mutex);
	free_pages_exact(buf->addr, buf->len);
	kfree(buf);
	ecdma_rdma_dev_put(dev);
}
EXPORT_SYMBOL_GPL(ecdma_rdma_buf_free);

/* Removal: every buffer loses its mapping and registration. */
void ecdma_rdma_dev_free_bufs(struct ecdma_rdma_dev *dev)
{
	struct ecdma_rdma_buf *buf, *tmp;

	lockdep_assert_held(&dev->mutex);
	list_for_each_entry_safe(buf, tmp, &dev->bufs, node)
		ecdma_rdma_buf_release(buf);
}

/* A local work request (REG_MR, LOCAL_INV) posted and waited for. */
struct ecdma_rdma_local_wr {
	struct ib_cqe cqe;
	struct completion done;
	int status;
};

static void ecdma_rdma_local_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ecdma_rdma_local_wr *l = container_of(wc->wr_cqe,
						     struct ecdma_rdma_local_wr,
						     cqe);

	l->status = wc->status == IB_WC_SUCCESS ? 0 : -EIO;
	complete(&l->done);
}

static int ecdma_rdma_local_post(struct ecdma_rdma_qp *qp,
				 struct ib_send_wr *wr)
{
	struct ecdma_rdma_local_wr l = { .cqe.done = ecdma_rdma_local_done };
	int ret;

	init_completion(&l.done);
	wr->wr_cqe = &l.cqe;
	wr->send_flags = IB_SEND_SIGNALED;
	ret = ecdma_rdma_post_send(qp, wr);
	if (ret)
		return ret;
	/* completes, or is flushed by a disconnect or the removal */
	wait_for_completion(&l.done);
	if (l.status && READ_ONCE(qp->state))
		return READ_ONCE(qp->state);
	return l.status;
}

/**
 * ecdma_rdma_buf_reg() - let peers RDMA WRITE into a buffer
 * @qp: a connected QP of the buffer's device; carries the registration
 * @buf: the buffer, not registered yet, at most 512 pages (2 MiB)
 *
 * Maps @buf on a pool MR (the pool grows up to 1024), posts IB_WR_REG_MR
 * with local and remote read/write access on @qp and waits.  Sets
 * @buf->rkey and @buf->iova; the key is valid on every QP of the device.
 * Context: Process context; sleeps.
 * Return: 0; -EINVAL (foreign or too big buffer), -ENODEV (removal
 * started), -EBUSY (registered already), -ENOTCONN (@qp not connected),
 * -ENOMEM (pool exhausted), -EIO (the registration failed).
 */
int ecdma_rdma_buf_reg(struct ecdma_rdma_qp *qp, struct ecdma_rdma_buf *buf)
{
	struct ecdma_rdma_dev *dev = qp->dev;
	struct ib_reg_wr wr = { };
	struct scatterlist sg;
	struct ib_mr *mr;
	int ret;

	might_sleep();
	if (buf->dev != dev || buf->len > (size_t)dev->mr_pages * PAGE_SIZE)
		return -EINVAL;
	if (!ecdma_rdma_begin(dev))
		return -ENODEV;
	if (buf->mr) {
		ret = -EBUSY;
		goto out;
	}
	mr = ecdma_rdma_mr_get(dev);
	if (!mr) {
		ret = -ENOMEM;
		goto out;
	}

	sg_init_table(&sg, 1);
	sg_set_buf(&sg, buf->addr, buf->len);
	sg_dma_address(&sg) = buf->dma;
	sg_dma_len(&sg) = buf->len;
	if (ib_map_mr_sg(mr, &sg, 1, NULL, PAGE_SIZE) != 1) {
		ret = -EIO;
		goto err_drop;
	}
	ib_update_fast_reg_key(mr, ib_inc_rkey(mr->rkey));
	wr.wr.opcode = IB_WR_REG_MR;
	wr.mr = mr;
	wr.key = mr->rkey;
	wr.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
		    IB_ACCESS_REMOTE_READ;
	ret = ecdma_rdma_local_post(qp, &wr.wr);
	if (ret)
		goto err_drop;
	buf->mr = mr;
	buf->rkey = mr->rkey;
	buf->iova = mr->iova;
	goto out;

err_drop:
	ecdma_rdma_mr_drop(dev, mr);
out:
	ecdma_rdma_end(dev);
	return ret;
}
EXPORT_SYMBOL_GPL(ecdma_rdma_buf_reg);

/**
 * ecdma_rdma_buf_unreg() - withdraw remote access to a buffer
 * @qp: a connected QP of the buffer's device; carries the invalidation
 * @buf: the buffer; nothing happens when it is not registered
 *
 * Posts IB_WR_LOCAL_INV on @qp and waits; the MR goes back to the pool, or
 * is freed if that failed.  Once the device is removed, nothing is left.
 * Context: Process context; sleeps.
 */
void ecdma_rdma_buf_unreg(struct ecdma_rdma_qp *qp, struct ecdma_rdma_buf *buf)
{
	struct ecdma_rdma_dev *dev = buf->dev;
	struct ib_send_wr wr = { };
	struct ib_mr *mr = buf->mr;

	might_sleep();
	if (!mr || qp->dev != dev || !ecdma_rdma_begin(dev))
		return;
	wr.opcode = IB_WR_LOCAL_INV;
	wr.ex.invalidate_rkey = mr->rkey;
	if (ecdma_rdma_local_post(qp, &wr))
		ecdma_rdma_mr_drop(dev, mr);
	else
		ecdma_rdma_mr_put(dev, mr);
	buf->mr = NULL;
	buf->rkey = 0;
	buf->iova = 0;
	ecdma_rdma_end(dev);
}
EXPORT_SYMBOL_GPL(ecdma_rdma_buf_unreg);

/* Removal, last step: free the pool (every buffer released its MR). */
void ecdma_rdma_dev_free_mrs(struct ecdma_rdma_dev *dev)
{
	struct ib_mr *mr, *tmp;

	list_for_each_entry_safe(mr, tmp, &dev->mr_free, qp_entry) {
		list_del(&mr->qp_entry);
		ib_dereg_mr(mr);
		dev->mr_total--;
	}
}
