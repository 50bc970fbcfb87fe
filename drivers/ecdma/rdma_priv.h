/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ecdma_rdma internals, shared by its rdma_*.c files (not ecdma.ko's).
 */
#ifndef _ECDMA_RDMA_PRIV_H
#define _ECDMA_RDMA_PRIV_H

#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include <ecdma/ec_rdma.h>

#define ECDMA_RDMA_MR_PREALLOC	16	/* fast-reg MRs made at device add */
#define ECDMA_RDMA_MR_MAX	1024	/* pool MRs per device at most */
#define ECDMA_RDMA_MR_PAGES	512	/* pages per pool MR at most */

enum ecdma_rdma_op_kind {
	ECDMA_RDMA_OP_EC_SEND,
	ECDMA_RDMA_OP_RECV_EC_SEND,
	ECDMA_RDMA_OP_RECV_EC,
	ECDMA_RDMA_OP_REG,		/* a buffer (un)registration */
};

/**
 * struct ecdma_rdma_dev - what ecdma_rdma keeps per RDMA device
 * @ref: the ib_client's (until removal), users', in-flight primitives'
 * @node: on ecdma_rdma_devs, under ecdma_rdma_devs_lock
 * @name: the device's name (updated on rename, under @mutex)
 * @ibdev: the device; NULL once removed
 * @pd: its protection domain
 * @port: the port used (the first)
 * @mtu: its active MTU when the device was added: the QPs' path MTU
 * @mr_pages: pages one pool MR maps
 * @engine: provider registered under the device's name at add, or "" (cpu)
 * @engine_dev: that provider's DMA device when it is not the RDMA
 *	device's own (buffers are mapped for it too), else NULL; referenced
 * @mutex: guards @qps, @bufs, @name, @kobj, object teardown; with @lock, @dead
 * @qps: live QPs (struct ecdma_rdma_qp.node)
 * @bufs: mapped buffers (struct ecdma_rdma_buf.node)
 * @nr_qps: entries on @qps
 * @lock: guards @ops, @nr_ops, @dead, @mr_*, QPs' @abort; irqsave (completions)
 * @ops: primitives in flight with a timeout
 * @nr_ops: primitives and registrations in flight
 * @dead: removal started; set under @mutex and @lock, either suffices to read
 * @ops_wq: removal waits here for @nr_ops to reach 0
 * @watchdog: fails primitives past their timeout
 * @mr_free: pool MRs not in use (struct ib_mr.qp_entry)
 * @mr_total: pool MRs allocated
 * @mr_in_use: of those, registered to a buffer
 * @ops_done: primitives completed
 * @ops_failed: of those, with an error
 * @tx_bytes: bytes sent or written successfully by the device's QPs
 * @rx_bytes: bytes received successfully
 * @kobj: rdma/<name>/ in sysfs, or NULL
 */
struct ecdma_rdma_dev {
	struct kref ref;
	struct list_head node;
	char name[IB_DEVICE_NAME_MAX];
	struct ib_device *ibdev;
	struct ib_pd *pd;
	u32 port;
	enum ib_mtu mtu;
	u32 mr_pages;
	char engine[IB_DEVICE_NAME_MAX];
	struct device *engine_dev;

	struct mutex mutex; /* see kernel-doc */
	struct list_head qps;
	struct list_head bufs;
	unsigned int nr_qps;

	spinlock_t lock; /* see kernel-doc */
	struct list_head ops;
	unsigned int nr_ops;
	bool dead;
	wait_queue_head_t ops_wq;
	struct delayed_work watchdog;
	struct list_head mr_free;
	unsigned int mr_total;
	unsigned int mr_in_use;

	atomic64_t ops_done;
	atomic64_t ops_failed;
	atomic64_t tx_bytes;
	atomic64_t rx_bytes;
	struct kobject *kobj;
};

/**
 * struct ecdma_rdma_qp - an RC queue pair
 * @dev: its device (holds a reference)
 * @ibqp: the QP; NULL once the device was removed
 * @cq: its send and receive CQ, from ib_core's pool
 * @cq_size: CQ entries taken from the pool
 * @node: on dev->qps
 * @state: 0 if connected, else what a post gets (-ENOTCONN, -ENODEV); read
 *	under RCU, changed under dev->mutex then synchronize_rcu() before flush
 * @flushed: it was taken to the error state and drained (dev->mutex)
 * @abort: the watchdog will disconnect it (dev->lock)
 * @attr: what it was created with
 * @psn: first PSN it sends
 * @tx_bytes: see struct ecdma_rdma_qp_stats
 * @rx_bytes: see struct ecdma_rdma_qp_stats
 * @tx_wrs: see struct ecdma_rdma_qp_stats
 * @rx_wrs: see struct ecdma_rdma_qp_stats
 */
struct ecdma_rdma_qp {
	struct ecdma_rdma_dev *dev;
	struct ib_qp *ibqp;
	struct ib_cq *cq;
	u32 cq_size;
	struct list_head node;
	int state;
	bool flushed;
	bool abort;
	struct ecdma_rdma_qp_attr attr;
	u32 psn;
	atomic64_t tx_bytes;
	atomic64_t rx_bytes;
	atomic64_t tx_wrs;
	atomic64_t rx_wrs;
};

/* rdma_dev.c */
bool ecdma_rdma_begin(struct ecdma_rdma_dev *dev);
void ecdma_rdma_end(struct ecdma_rdma_dev *dev);

/* rdma_buf.c */
void ecdma_rdma_dev_free_bufs(struct ecdma_rdma_dev *dev);
void ecdma_rdma_dev_free_mrs(struct ecdma_rdma_dev *dev);

/* rdma_qp.c */
int ecdma_rdma_post_send(struct ecdma_rdma_qp *qp, struct ib_send_wr *wr);
int ecdma_rdma_post_recv(struct ecdma_rdma_qp *qp, struct ib_recv_wr *wr);
int ecdma_rdma_wc_errno(const struct ib_wc *wc, struct ecdma_rdma_qp *qp);
void ecdma_rdma_qp_account(struct ecdma_rdma_qp *qp, bool tx, u32 bytes);
void ecdma_rdma_qp_flush(struct ecdma_rdma_qp *qp, int state);
void ecdma_rdma_dev_kill_qps(struct ecdma_rdma_dev *dev);
void ecdma_rdma_dev_free_qps(struct ecdma_rdma_dev *dev);

/* rdma_op.c */
void ecdma_rdma_op_error(struct ecdma_rdma_op *op, int err);
int ecdma_rdma_op_start(struct ecdma_rdma_op *op, struct ecdma_rdma_dev *dev,
			enum ecdma_rdma_op_kind kind);
void ecdma_rdma_op_abort(struct ecdma_rdma_op *op, int err);
void ecdma_rdma_op_put(struct ecdma_rdma_op *op);
int ecdma_rdma_op_send(struct ecdma_rdma_op *op, struct ecdma_rdma_xfer *x);
int ecdma_rdma_op_recv(struct ecdma_rdma_op *op, struct ecdma_rdma_xfer *x);
int ecdma_rdma_op_calc(struct ecdma_rdma_op *op, struct ecdma_ec_calc *calc,
		       struct ecdma_rdma_calc_wr *cw);
struct ecdma_rdma_xfer *ecdma_rdma_xfer_complete(const struct ib_wc *wc,
						 bool tx, int *err);
typedef void (*ecdma_rdma_cqe_done_t)(struct ib_cq *cq, struct ib_wc *wc);
void ecdma_rdma_xfer_send_init(struct ecdma_rdma_xfer *x,
			       struct ecdma_rdma_op *op,
			       const struct ecdma_rdma_dest *dest,
			       const struct ecdma_rdma_blk *blk, u32 off,
			       u32 len, ecdma_rdma_cqe_done_t done);
void ecdma_rdma_xfer_recv_init(struct ecdma_rdma_xfer *x,
			       struct ecdma_rdma_op *op,
			       struct ecdma_rdma_qp *qp,
			       const struct ecdma_rdma_blk *blk, u32 off,
			       u32 len, ecdma_rdma_cqe_done_t done);
void ecdma_rdma_blk_sge(const struct ecdma_rdma_dev *dev,
			struct ecdma_ec_sge *s,
			const struct ecdma_rdma_blk *blk, u32 off, u32 len);
bool ecdma_rdma_blk_ok(const struct ecdma_rdma_dev *dev,
		       const struct ecdma_rdma_blk *blk, u32 bs);
bool ecdma_rdma_dest_ok(const struct ecdma_rdma_dev *dev,
			const struct ecdma_rdma_dest *dest);
bool ecdma_rdma_calc_ok(struct ecdma_ec_calc *calc);
void ecdma_rdma_watchdog(struct work_struct *work);

/* rdma_sysfs.c */
int ecdma_rdma_sysfs_init(void);
void ecdma_rdma_sysfs_exit(void);
int ecdma_rdma_sysfs_add(struct ecdma_rdma_dev *dev);
void ecdma_rdma_sysfs_del(struct ecdma_rdma_dev *dev);
void ecdma_rdma_sysfs_rename(struct ecdma_rdma_dev *dev);

#endif /* _ECDMA_RDMA_PRIV_H */
