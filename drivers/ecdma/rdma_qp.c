// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma_rdma: RC queue pairs (RoCE v2, no rdma_cm) and posting.  Posts check
 * qp->state under RCU, not a lock (rxe posts need IRQs on); it changes under
 * dev->mutex, then synchronize_rcu() before the flush: no post slips past it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include <rdma/ib_cache.h>

#include "rdma_priv.h"

/**
 * ecdma_rdma_post_send() - post a send-queue chain unless the QP is closed
 * @qp: the QP
 * @wr: the work requests
 *
 * Context: Any context with interrupts enabled.
 * Return: 0, @qp->state (-ENOTCONN, -ENODEV) or the driver's error.
 */
int ecdma_rdma_post_send(struct ecdma_rdma_qp *qp, struct ib_send_wr *wr)
{
	int ret;

	rcu_read_lock();
	ret = READ_ONCE(qp->state);
	if (!ret)
		ret = ib_post_send(qp->ibqp, wr, NULL);
	rcu_read_unlock();
	return ret;
}

/**
 * ecdma_rdma_post_recv() - post a receive unless the QP is closed
 * @qp: the QP
 * @wr: the work request
 *
 * Context: Any context with interrupts enabled.
 * Return: as ecdma_rdma_post_send().
 */
int ecdma_rdma_post_recv(struct ecdma_rdma_qp *qp, struct ib_recv_wr *wr)
{
	int ret;

	rcu_read_lock();
	ret = READ_ONCE(qp->state);
	if (!ret)
		ret = ib_post_recv(qp->ibqp, wr, NULL);
	rcu_read_unlock();
	return ret;
}

/**
 * ecdma_rdma_wc_errno() - a completion's status as an errno
 * @wc: the completion
 * @qp: its QP
 *
 * Context: Any context.
 * Return: 0, or the errno for @wc->status (a flush: -ENODEV or -ECANCELED).
 */
int ecdma_rdma_wc_errno(const struct ib_wc *wc, struct ecdma_rdma_qp *qp)
{
	switch (wc->status) {
	case IB_WC_SUCCESS:
		return 0;
	case IB_WC_WR_FLUSH_ERR:
		return READ_ONCE(qp->state) == -ENODEV ? -ENODEV : -ECANCELED;
	case IB_WC_RETRY_EXC_ERR:
	case IB_WC_RNR_RETRY_EXC_ERR:
		return -ETIMEDOUT;
	case IB_WC_LOC_LEN_ERR:
		return -EMSGSIZE;
	case IB_WC_REM_INV_REQ_ERR:
	case IB_WC_REM_OP_ERR:
		return -EREMOTEIO;
	case IB_WC_LOC_PROT_ERR:
	case IB_WC_REM_ACCESS_ERR:
		return -EACCES;
	default:
		return -EIO;
	}
}

/**
 * ecdma_rdma_qp_account() - count a successful transfer
 * @qp: its QP
 * @tx: a send or write (else a receive)
 * @bytes: its length
 *
 * Context: Any context.
 */
void ecdma_rdma_qp_account(struct ecdma_rdma_qp *qp, bool tx, u32 bytes)
{
	struct ecdma_rdma_dev *dev = qp->dev;

	if (tx) {
		atomic64_add(bytes, &qp->tx_bytes);
		atomic64_inc(&qp->tx_wrs);
		atomic64_add(bytes, &dev->tx_bytes);
	} else {
		atomic64_add(bytes, &qp->rx_bytes);
		atomic64_inc(&qp->rx_wrs);
		atomic64_add(bytes, &dev->rx_bytes);
	}
}

/**
 * ecdma_rdma_qp_stats() - what a QP moved so far
 * @qp: the QP
 * @stats: filled in
 *
 * Context: Any context.
 */
void ecdma_rdma_qp_stats(const struct ecdma_rdma_qp *qp,
			 struct ecdma_rdma_qp_stats *stats)
{
	stats->tx_bytes = atomic64_read(&qp->tx_bytes);
	stats->rx_bytes = atomic64_read(&qp->rx_bytes);
	stats->tx_wrs = atomic64_read(&qp->tx_wrs);
	stats->rx_wrs = atomic64_read(&qp->rx_wrs);
}
EXPORT_SYMBOL_GPL(ecdma_rdma_qp_stats);

/**
 * ecdma_rdma_qp_ib() - the verbs QP inside
 * @qp: the QP
 *
 * For own WRs on a connected QP only; they are flushed like ours and must
 * complete before ecdma_rdma_qp_destroy().
 * Context: Any context.
 * Return: the ib_qp, or NULL once the device's removal started.
 */
struct ib_qp *ecdma_rdma_qp_ib(struct ecdma_rdma_qp *qp)
{
	return ecdma_rdma_qp_state(qp) == -ENODEV ? NULL : qp->ibqp;
}
EXPORT_SYMBOL_GPL(ecdma_rdma_qp_ib);

/**
 * ecdma_rdma_qp_state() - whether a QP can carry work
 * @qp: the QP
 *
 * Context: Any context.
 * Return: 0 if connected, -ENOTCONN if not (yet), -ENODEV once removal started.
 */
int ecdma_rdma_qp_state(const struct ecdma_rdma_qp *qp)
{
	/* @dead precedes the QPs' marks: agree with ecdma_rdma_dev_alive() */
	if (READ_ONCE(qp->dev->dead))
		return -ENODEV;
	return READ_ONCE(qp->state);
}
EXPORT_SYMBOL_GPL(ecdma_rdma_qp_state);

/* drain a closed QP once; dev->mutex held, no post can start any more */
static void __ecdma_rdma_qp_flush(struct ecdma_rdma_qp *qp)
{
	if (!qp->flushed) {
		ib_drain_qp(qp->ibqp);
		qp->flushed = true;
	}
}

/**
 * ecdma_rdma_qp_flush() - close a QP and wait until its posted WRs completed
 * @qp: the QP, not destroyed
 * @state: what later posts get (-ENOTCONN, -ENODEV)
 *
 * Context: Process context, dev->mutex held; sleeps.
 */
void ecdma_rdma_qp_flush(struct ecdma_rdma_qp *qp, int state)
{
	lockdep_assert_held(&qp->dev->mutex);
	WRITE_ONCE(qp->state, state);
	synchronize_rcu();
	__ecdma_rdma_qp_flush(qp);
}

/**
 * ecdma_rdma_qp_create() - a new RC QP (INIT state: connect it before use)
 * @dev: the device
 * @attr: depths and retry behaviour
 *
 * Context: Process context; sleeps.
 * Return: QP or ERR_PTR(): -EINVAL (bad @attr), -ENODEV, -ENOMEM, driver's.
 */
struct ecdma_rdma_qp *
ecdma_rdma_qp_create(struct ecdma_rdma_dev *dev,
		     const struct ecdma_rdma_qp_attr *attr)
{
	struct ib_qp_init_attr init = { };
	struct ib_qp_attr qattr = { };
	struct ecdma_rdma_qp *qp;
	struct ib_device *ibdev;
	int ret;

	might_sleep();
	if (!attr || !attr->send_depth || !attr->recv_depth ||
	    attr->retry_cnt > 7 || attr->rnr_retry > 7 || !attr->timeout ||
	    attr->timeout > 31)
		return ERR_PTR(-EINVAL);
	qp = kzalloc(sizeof(*qp), GFP_KERNEL);
	if (!qp)
		return ERR_PTR(-ENOMEM);
	qp->dev = dev;
	qp->attr = *attr;
	qp->state = -ENOTCONN;
	qp->flushed = true;	/* nothing posted yet */
	qp->psn = get_random_u32() & 0xffffff;
	INIT_LIST_HEAD(&qp->node);

	mutex_lock(&dev->mutex);
	/* one made after the removal killed @qps would stay connectable */
	if (dev->dead) {
		ret = -ENODEV;
		goto err_unlock;
	}
	ibdev = dev->ibdev;
	/* one more entry per queue for ib_drain_qp()'s markers */
	if (attr->send_depth >= (u32)ibdev->attrs.max_qp_wr ||
	    attr->recv_depth >= (u32)ibdev->attrs.max_qp_wr) {
		ret = -EINVAL;
		goto err_unlock;
	}
	qp->cq_size = attr->send_depth + attr->recv_depth + 2;
	qp->cq = ib_cq_pool_get(ibdev, qp->cq_size, -1, IB_POLL_SOFTIRQ);
	if (IS_ERR(qp->cq)) {
		ret = PTR_ERR(qp->cq);
		goto err_unlock;
	}
	init.qp_context = qp;
	init.send_cq = qp->cq;
	init.recv_cq = qp->cq;
	init.cap.max_send_wr = attr->send_depth + 1;
	init.cap.max_recv_wr = attr->recv_depth + 1;
	init.cap.max_send_sge = 1;
	init.cap.max_recv_sge = 1;
	init.sq_sig_type = IB_SIGNAL_REQ_WR;
	init.qp_type = IB_QPT_RC;
	qp->ibqp = ib_create_qp(dev->pd, &init);
	if (IS_ERR(qp->ibqp)) {
		ret = PTR_ERR(qp->ibqp);
		goto err_put_cq;
	}

	qattr.qp_state = IB_QPS_INIT;
	qattr.pkey_index = 0;
	qattr.port_num = dev->port;
	qattr.qp_access_flags = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
				IB_ACCESS_REMOTE_READ;
	ret = ib_modify_qp(qp->ibqp, &qattr, IB_QP_STATE | IB_QP_PKEY_INDEX |
			   IB_QP_PORT | IB_QP_ACCESS_FLAGS);
	if (ret)
		goto err_destroy_qp;

	list_add_tail(&qp->node, &dev->qps);
	dev->nr_qps++;
	kref_get(&dev->ref);
	mutex_unlock(&dev->mutex);
	return qp;

err_destroy_qp:
	ib_destroy_qp(qp->ibqp);
err_put_cq:
	ib_cq_pool_put(qp->cq, qp->cq_size);
err_unlock:
	mutex_unlock(&dev->mutex);
	kfree(qp);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(ecdma_rdma_qp_create);

/* destroy the verbs objects; dev->mutex held, the QP flushed */
static void ecdma_rdma_qp_free_ib(struct ecdma_rdma_qp *qp)
{
	lockdep_assert_held(&qp->dev->mutex);
	ib_destroy_qp(qp->ibqp);
	ib_cq_pool_put(qp->cq, qp->cq_size);
	qp->ibqp = NULL;
	qp->cq = NULL;
	list_del_init(&qp->node);
	qp->dev->nr_qps--;
}

/**
 * ecdma_rdma_qp_destroy() - disconnect and free a QP
 * @qp: the QP, after its primitives' ->done; NULL or an ERR_PTR are ignored
 *
 * Context: Process context; sleeps.
 */
void ecdma_rdma_qp_destroy(struct ecdma_rdma_qp *qp)
{
	struct ecdma_rdma_dev *dev;

	if (IS_ERR_OR_NULL(qp))
		return;
	dev = qp->dev;
	mutex_lock(&dev->mutex);
	if (qp->ibqp) {
		/* flushed: never connected, or closed and drained already */
		if (!qp->flushed)
			ecdma_rdma_qp_flush(qp, -ENOTCONN);
		ecdma_rdma_qp_free_ib(qp);
	}
	mutex_unlock(&dev->mutex);
	kfree(qp);
	ecdma_rdma_dev_put(dev);
}
EXPORT_SYMBOL_GPL(ecdma_rdma_qp_destroy);

/* The port's RoCE v2 GID, IPv4-mapped if there is one; put it after use. */
static const struct ib_gid_attr *ecdma_rdma_gid(struct ecdma_rdma_dev *dev)
{
	const struct ib_gid_attr *attr, *any = NULL;
	struct ib_device *ibdev = dev->ibdev;
	const struct in6_addr *a;
	int i, n = ibdev->port_data[dev->port].immutable.gid_tbl_len;

	for (i = 0; i < n; i++) {
		attr = rdma_get_gid_attr(ibdev, dev->port, i);
		if (IS_ERR(attr))
			continue;
		if (attr->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP) {
			rdma_put_gid_attr(attr);
			continue;
		}
		a = (const struct in6_addr *)attr->gid.raw;
		if (ipv6_addr_v4mapped(a)) {
			if (any)
				rdma_put_gid_attr(any);
			return attr;
		}
		if (any)
			rdma_put_gid_attr(attr);
		else
			any = attr;
	}
	return any ?: ERR_PTR(-EADDRNOTAVAIL);
}

/**
 * ecdma_rdma_qp_addr() - a QP's address, for its peer's ecdma_rdma_qp_connect()
 * @qp: the QP
 * @addr: filled in; the GID is the port's RoCE v2 GID, IPv4-mapped if any
 *
 * Context: Process context; takes a mutex.
 * Return: 0, -ENODEV, -EADDRNOTAVAIL (no IP on the netdev) or -EINVAL.
 */
int ecdma_rdma_qp_addr(struct ecdma_rdma_qp *qp,
		       struct ecdma_rdma_qp_addr *addr)
{
	struct ecdma_rdma_dev *dev = qp->dev;
	const struct ib_gid_attr *gid;
	int ret = 0;
	u16 vlan;

	mutex_lock(&dev->mutex);
	if (dev->dead) {
		ret = -ENODEV;
		goto out;
	}
	gid = ecdma_rdma_gid(dev);
	if (IS_ERR(gid)) {
		ret = PTR_ERR(gid);
		goto out;
	}
	ret = rdma_read_gid_l2_fields(gid, &vlan, addr->mac);
	addr->qpn = qp->ibqp->qp_num;
	addr->psn = qp->psn;
	addr->gid = gid->gid;
	rdma_put_gid_attr(gid);
out:
	mutex_unlock(&dev->mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(ecdma_rdma_qp_addr);

/**
 * ecdma_rdma_qp_connect() - connect a QP to its peer (INIT -> RTR -> RTS)
 * @qp: a new QP
 * @peer: the peer's ecdma_rdma_qp_addr() (it connects to @qp's in turn)
 *
 * Both sides post the receives the peer sends to before any send.
 * Context: Process context; sleeps.
 * Return: 0; -ENODEV (removal started); -EINVAL if connected before (make a
 * new QP); -EADDRNOTAVAIL (no RoCE v2 GID); the driver's (@qp unusable).
 */
int ecdma_rdma_qp_connect(struct ecdma_rdma_qp *qp,
			  const struct ecdma_rdma_qp_addr *peer)
{
	struct ecdma_rdma_dev *dev = qp->dev;
	const struct ib_gid_attr *gid;
	struct ib_qp_attr attr;
	union ib_gid dgid;
	int ret;

	might_sleep();
	mutex_lock(&dev->mutex);
	/* a QP the removal killed is dead, not merely connected before */
	if (dev->dead) {
		ret = -ENODEV;
		goto out;
	}
	if (qp->state != -ENOTCONN || !qp->flushed) {
		ret = -EINVAL;
		goto out;
	}
	gid = ecdma_rdma_gid(dev);
	if (IS_ERR(gid)) {
		ret = PTR_ERR(gid);
		goto out;
	}

	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTR;
	attr.path_mtu = dev->mtu;
	attr.dest_qp_num = peer->qpn;
	attr.rq_psn = peer->psn;
	attr.max_dest_rd_atomic = 1;
	/* a sender without a receive posted here retries after 0.01 ms */
	attr.min_rnr_timer = 1;
	attr.ah_attr.type = rdma_ah_find_type(dev->ibdev, dev->port);
	rdma_ah_set_port_num(&attr.ah_attr, dev->port);
	dgid = peer->gid;	/* rdma_ah_set_grh() takes no const */
	rdma_ah_set_grh(&attr.ah_attr, &dgid, 0, gid->index, 64, 0);
	/* ib_core resolves the MAC for user QPs only */
	memcpy(attr.ah_attr.roce.dmac, peer->mac, ETH_ALEN);
	rdma_put_gid_attr(gid);
	ret = ib_modify_qp(qp->ibqp, &attr, IB_QP_STATE | IB_QP_AV |
			   IB_QP_PATH_MTU | IB_QP_DEST_QPN | IB_QP_RQ_PSN |
			   IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER);
	if (ret)
		goto out;

	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTS;
	attr.sq_psn = qp->psn;
	attr.timeout = qp->attr.timeout;
	attr.retry_cnt = qp->attr.retry_cnt;
	attr.rnr_retry = qp->attr.rnr_retry;
	attr.max_rd_atomic = 1;
	ret = ib_modify_qp(qp->ibqp, &attr, IB_QP_STATE | IB_QP_TIMEOUT |
			   IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | IB_QP_SQ_PSN |
			   IB_QP_MAX_QP_RD_ATOMIC);
	if (ret)
		goto out;
	qp->flushed = false;
	WRITE_ONCE(qp->state, 0);
out:
	mutex_unlock(&dev->mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(ecdma_rdma_qp_connect);

/**
 * ecdma_rdma_qp_disconnect() - take a QP to the error state
 * @qp: the QP
 *
 * Later posts get -ENOTCONN, earlier WRs -ECANCELED.  The peer is not told:
 * its receives stay until it disconnects or times out.
 * Context: Process context; sleeps.
 */
void ecdma_rdma_qp_disconnect(struct ecdma_rdma_qp *qp)
{
	struct ecdma_rdma_dev *dev = qp->dev;

	might_sleep();
	mutex_lock(&dev->mutex);
	if (qp->ibqp && !qp->state)
		ecdma_rdma_qp_flush(qp, -ENOTCONN);
	mutex_unlock(&dev->mutex);
}
EXPORT_SYMBOL_GPL(ecdma_rdma_qp_disconnect);

/* Removal, in the dev->mutex section that set @dead: refuse posts, flush */
void ecdma_rdma_dev_kill_qps(struct ecdma_rdma_dev *dev)
{
	struct ecdma_rdma_qp *qp;

	lockdep_assert_held(&dev->mutex);
	list_for_each_entry(qp, &dev->qps, node)
		WRITE_ONCE(qp->state, -ENODEV);
	synchronize_rcu();
	list_for_each_entry(qp, &dev->qps, node)
		__ecdma_rdma_qp_flush(qp);
}

/* Removal, once nothing is in flight: destroy the QPs' verbs objects. */
void ecdma_rdma_dev_free_qps(struct ecdma_rdma_dev *dev)
{
	struct ecdma_rdma_qp *qp, *tmp;

	lockdep_assert_held(&dev->mutex);
	list_for_each_entry_safe(qp, tmp, &dev->qps, node)
		ecdma_rdma_qp_free_ib(qp);
}
