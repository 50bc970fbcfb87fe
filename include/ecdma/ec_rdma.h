/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ecdma_rdma: erasure coding over RDMA queue pairs (ecdma_rdma.ko).
 *
 * An ib_client that keeps, for every RoCE device, a protection domain,
 * completion queues from ib_core's CQ pool and a pool of fast-registration
 * memory regions, and on top of them the in-network EC (INEC) primitives
 * as kernel verbs, chained from completions without sleeping:
 *
 *  - ec-send (ecdma_rdma_ec_send()): encode k blocks, send the k + m blocks
 *    of the stripe to k + m QPs;
 *  - recv-ec-send (ecdma_rdma_recv_ec_send()): receive a partial result
 *    from the upstream QP, multiply-accumulate local blocks into it, send
 *    it downstream (pipelined repair, ECPipe/PPR), in slices;
 *  - recv-ec (ecdma_rdma_recv_ec()): receive k surviving blocks from k QPs
 *    and decode the lost ones in place.
 *
 * No upstream RDMA driver has an EC engine: the calcs serving a device run
 * on ecdma's CPU provider, over buffers the device can also reach
 * (ecdma_rdma_buf_alloc()).  Completions come from the CQs in softirq
 * context and from the calc in its completion context; each primitive
 * reports once, through its ->done, when every work request it posted has
 * completed.
 *
 * A device that goes away (rdma link delete, driver unload) is drained:
 * the work of its QPs is flushed, every primitive in flight completes with
 * -ENODEV, and the handles (device, QPs, buffers) stay valid, dead, until
 * their owners release them.  From the start of the removal
 * (ecdma_rdma_dev_alive() false), before the drain ends, every call that
 * would create or start something fails -ENODEV and every QP reads
 * -ENODEV; the calls that release or only read still work.
 */
#ifndef _ECDMA_EC_RDMA_H
#define _ECDMA_EC_RDMA_H

#include <linux/atomic.h>
#include <linux/if_ether.h>
#include <linux/list.h>
#include <linux/types.h>
#include <rdma/ib_verbs.h>

#include <ecdma/ec.h>

#define ECDMA_RDMA_MAX_BLOCKS	32	/* k + m of one primitive */
#define ECDMA_RDMA_MAX_LOCAL	4	/* local blocks of one recv-ec-send */
#define ECDMA_RDMA_MAX_SLICES	16	/* slices of one recv-ec-send */

struct ecdma_rdma_dev;
struct ecdma_rdma_qp;

/**
 * struct ecdma_rdma_buf - memory that the CPU engine and the device reach
 * @addr: kernel virtual address (what the CPU engine computes on)
 * @len: bytes
 * @dma: the same memory as the device addresses it; 0 once the device is
 *	gone
 * @lkey: local key for the device; 0 once the device is gone
 * @rkey: remote key after ecdma_rdma_buf_reg(), else 0
 * @iova: the address a peer's RDMA WRITE names for @addr, with @rkey
 *
 * Physically contiguous, so one scatter/gather entry covers any block in
 * it.  Everything but @addr and @len is only meaningful while the device
 * lives.
 */
struct ecdma_rdma_buf {
	void *addr;
	size_t len;
	u64 dma;
	u32 lkey;
	u32 rkey;
	u64 iova;
	/* private: */
	struct ecdma_rdma_dev *dev;
	struct ib_mr *mr;
	struct list_head node;
	u64 edma;
};

/**
 * struct ecdma_rdma_blk - a block: a buffer and an offset in it
 * @buf: the buffer
 * @off: byte offset; the block (the primitive's block_size bytes) must
 *	lie inside @buf
 */
struct ecdma_rdma_blk {
	struct ecdma_rdma_buf *buf;
	size_t off;
};

/**
 * struct ecdma_rdma_dest - where a block is sent
 * @qp: a connected QP of the same device
 * @write: RDMA WRITE to @remote_addr/@rkey (the peer sees no completion);
 *	false: SEND into a receive the peer has posted
 * @remote_addr: for @write, the peer's address (its buf->iova + offset)
 * @rkey: for @write, the peer's buffer's rkey
 */
struct ecdma_rdma_dest {
	struct ecdma_rdma_qp *qp;
	bool write;
	u64 remote_addr;
	u32 rkey;
};

/**
 * struct ecdma_rdma_qp_attr - an RC queue pair
 * @send_depth: send work requests in flight at once (each block sent,
 *	and each buffer registration, takes one until its completion)
 * @recv_depth: receives posted at once
 * @retry_cnt: transport retries before a send fails, 0..7 (rxe retries
 *	forever with 7)
 * @rnr_retry: retries of a send the peer had no receive posted for
 *	(RNR NAK), 0..6, or 7 for no limit; the send then fails -ETIMEDOUT
 * @timeout: local ACK timeout, 4.096 us * 2^@timeout, 1..31 (0 means
 *	wait forever and is refused)
 */
struct ecdma_rdma_qp_attr {
	u32 send_depth;
	u32 recv_depth;
	u8 retry_cnt;
	u8 rnr_retry;
	u8 timeout;
};

/**
 * struct ecdma_rdma_qp_addr - what a peer needs to connect to a QP
 * @qpn: queue pair number
 * @psn: first packet sequence number it sends
 * @gid: its RoCE v2 GID
 * @mac: the MAC address of its netdev (kernel QPs get no address
 *	resolution from ib_core: peers are on the same Ethernet segment, or
 *	on the same device, where the MAC makes rxe loop the packets back)
 */
struct ecdma_rdma_qp_addr {
	u32 qpn;
	u32 psn;
	union ib_gid gid;
	u8 mac[ETH_ALEN];
};

/**
 * struct ecdma_rdma_qp_stats - what a QP moved
 * @tx_bytes: bytes of its sends and writes that completed successfully
 * @rx_bytes: bytes of its receives that completed successfully
 * @tx_wrs: such sends and writes
 * @rx_wrs: such receives
 */
struct ecdma_rdma_qp_stats {
	u64 tx_bytes;
	u64 rx_bytes;
	u64 tx_wrs;
	u64 rx_wrs;
};

/**
 * struct ecdma_rdma_op - what every primitive has in common
 * @done: required; runs once when the primitive finished: every work
 *	request it posted (sends, receives, calcs) has completed.  Runs in
 *	softirq context (a CQ), in the calc's completion context (atomic), or
 *	in the submitter's context when everything failed at once; must not
 *	sleep.  May free the primitive and submit new ones.
 * @ctx: for the caller
 * @timeout_ms: 0, or fail the primitive after this long: the QPs it still
 *	waits on are disconnected (flushing their other work too, as an RC
 *	timeout would) and it completes with -ETIMEDOUT
 * @status: out: 0, -ENODEV when the device went away meanwhile,
 *	-ETIMEDOUT after @timeout_ms, else the first error of its parts
 *
 * Embedded first in each primitive's struct.  The caller owns the memory;
 * it must stay valid and unchanged from submission until @done.
 */
struct ecdma_rdma_op {
	void (*done)(struct ecdma_rdma_op *op);
	void *ctx;
	unsigned int timeout_ms;
	int status;
	/* private: */
	struct ecdma_rdma_dev *dev;
	atomic_t pending;
	atomic_t err;
	struct list_head node;
	unsigned long deadline;
	u8 kind;
	bool timed_out;
};

/**
 * struct ecdma_rdma_xfer - one work request on a QP (private)
 * @cqe: its completion entry
 * @op: the primitive it belongs to
 * @qp: the QP
 * @len: bytes it moves
 * @send: the send or write
 * @recv: the receive
 * @sge: its one scatter/gather entry
 */
struct ecdma_rdma_xfer {
	struct ib_cqe cqe;
	struct ecdma_rdma_op *op;
	struct ecdma_rdma_qp *qp;
	u32 len;
	union {
		struct ib_rdma_wr send;
		struct ib_recv_wr recv;
	};
	struct ib_sge sge;
};

/**
 * struct ecdma_rdma_calc_wr - one calc work request (private)
 * @wr: the request
 * @mem: its layout
 * @op: the primitive it belongs to
 * @idx: slice index
 */
struct ecdma_rdma_calc_wr {
	struct ecdma_ec_wr wr;
	struct ecdma_ec_mem mem;
	struct ecdma_rdma_op *op;
	u16 idx;
};

/**
 * struct ecdma_rdma_ec_send - ec-send: encode, then send the whole stripe
 * @op: completion and status
 * @calc: a callback (not polling) calc of the device's provider; k and m
 *	from it, k + m <= ECDMA_RDMA_MAX_BLOCKS
 * @block_size: bytes per block
 * @blocks: k data blocks, then m code blocks (written by the encode)
 * @dest: where block i goes, k + m entries
 * @stripe_status: out: per block, 0 once its send completed, else why
 *	it failed (-ECANCELED for a code block not sent because the encode
 *	failed)
 */
struct ecdma_rdma_ec_send {
	struct ecdma_rdma_op op;
	struct ecdma_ec_calc *calc;
	u32 block_size;
	struct ecdma_rdma_blk blocks[ECDMA_RDMA_MAX_BLOCKS];
	struct ecdma_rdma_dest dest[ECDMA_RDMA_MAX_BLOCKS];
	int stripe_status[ECDMA_RDMA_MAX_BLOCKS];
	/* private: */
	struct ecdma_rdma_xfer xfer[ECDMA_RDMA_MAX_BLOCKS];
	struct ecdma_rdma_calc_wr enc;
	struct ecdma_ec_sge sge[ECDMA_RDMA_MAX_BLOCKS];
};

/**
 * struct ecdma_rdma_recv_ec_send - recv-ec-send: one hop of a repair chain
 * @op: completion and status
 * @calc: a callback calc of the device's provider with k >= @nr_local;
 *	may be NULL when @nr_local is 0
 * @block_size: bytes of the partial result (and of each local block)
 * @nr_slices: 1..ECDMA_RDMA_MAX_SLICES: the block moves in this many
 *	slices of DIV_ROUND_UP(@block_size, @nr_slices) bytes, each forwarded
 *	as soon as it is computed.  Every hop of a chain uses the same
 *	@block_size and @nr_slices.
 * @upstream: QP the partial arrives on (SEND), or NULL for the first hop
 * @acc: the partial: received into, accumulated into, sent from
 * @nr_local: local blocks, 0..ECDMA_RDMA_MAX_LOCAL
 * @local: the local blocks
 * @coef: @coef[i] multiplies @local[i]
 * @downstream: where the result goes; @downstream.qp NULL for the last
 *	hop (the result stays in @acc)
 *
 * @acc = (@upstream ? received : 0) + sum(@coef[i] * @local[i]) in
 * GF(2^8).  With no local block it forwards (or, first hop, sends @acc
 * as it is; last hop, only receives).
 */
struct ecdma_rdma_recv_ec_send {
	struct ecdma_rdma_op op;
	struct ecdma_ec_calc *calc;
	u32 block_size;
	u32 nr_slices;
	struct ecdma_rdma_qp *upstream;
	struct ecdma_rdma_blk acc;
	u32 nr_local;
	struct ecdma_rdma_blk local[ECDMA_RDMA_MAX_LOCAL];
	u8 coef[ECDMA_RDMA_MAX_LOCAL];
	struct ecdma_rdma_dest downstream;
	/* private: */
	struct ecdma_rdma_xfer recv[ECDMA_RDMA_MAX_SLICES];
	struct ecdma_rdma_xfer send[ECDMA_RDMA_MAX_SLICES];
	struct ecdma_rdma_calc_wr mac[ECDMA_RDMA_MAX_SLICES];
	struct ecdma_ec_sge sge[ECDMA_RDMA_MAX_SLICES]
			       [ECDMA_RDMA_MAX_LOCAL + 1];
};

/**
 * struct ecdma_rdma_recv_ec - recv-ec: receive survivors, decode in place
 * @op: completion and status
 * @calc: a callback calc of the device's provider (k, m, its matrix)
 * @block_size: bytes per block
 * @blocks: all k + m blocks of the stripe, in index order
 * @src: block i arrives (SEND) on @src[i]; NULL when it is already here
 *	or not needed
 * @erasures: k + m bytes, non-zero = rebuild this block (1..m of them)
 * @decode_matrix: NULL, or k x (number of erasures) coefficients (as for
 *	ecdma_ec_decode_async())
 *
 * The decode reads the first k blocks that are not erased, in index
 * order: each must be received or already in place.
 */
struct ecdma_rdma_recv_ec {
	struct ecdma_rdma_op op;
	struct ecdma_ec_calc *calc;
	u32 block_size;
	struct ecdma_rdma_blk blocks[ECDMA_RDMA_MAX_BLOCKS];
	struct ecdma_rdma_qp *src[ECDMA_RDMA_MAX_BLOCKS];
	u8 erasures[ECDMA_RDMA_MAX_BLOCKS];
	const u8 *decode_matrix;
	/* private: */
	atomic_t left;
	struct ecdma_rdma_xfer recv[ECDMA_RDMA_MAX_BLOCKS];
	struct ecdma_rdma_calc_wr dec;
	struct ecdma_ec_sge sge[ECDMA_RDMA_MAX_BLOCKS];
};

/* Devices */
struct ecdma_rdma_dev *ecdma_rdma_dev_get(const char *name);
void ecdma_rdma_dev_put(struct ecdma_rdma_dev *dev);
const char *ecdma_rdma_dev_name(const struct ecdma_rdma_dev *dev);
bool ecdma_rdma_dev_alive(const struct ecdma_rdma_dev *dev);
struct ecdma_ec_provider *ecdma_rdma_dev_provider(struct ecdma_rdma_dev *dev);

/* Buffers */
struct ecdma_rdma_buf *ecdma_rdma_buf_alloc(struct ecdma_rdma_dev *dev,
					    size_t len);
void ecdma_rdma_buf_free(struct ecdma_rdma_buf *buf);
int ecdma_rdma_buf_reg(struct ecdma_rdma_qp *qp, struct ecdma_rdma_buf *buf);
void ecdma_rdma_buf_unreg(struct ecdma_rdma_qp *qp,
			  struct ecdma_rdma_buf *buf);

/* Queue pairs */
struct ecdma_rdma_qp *
ecdma_rdma_qp_create(struct ecdma_rdma_dev *dev,
		     const struct ecdma_rdma_qp_attr *attr);
void ecdma_rdma_qp_destroy(struct ecdma_rdma_qp *qp);
int ecdma_rdma_qp_addr(struct ecdma_rdma_qp *qp,
		       struct ecdma_rdma_qp_addr *addr);
int ecdma_rdma_qp_connect(struct ecdma_rdma_qp *qp,
			  const struct ecdma_rdma_qp_addr *peer);
void ecdma_rdma_qp_disconnect(struct ecdma_rdma_qp *qp);
int ecdma_rdma_qp_state(const struct ecdma_rdma_qp *qp);
struct ib_qp *ecdma_rdma_qp_ib(struct ecdma_rdma_qp *qp);
void ecdma_rdma_qp_stats(const struct ecdma_rdma_qp *qp,
			 struct ecdma_rdma_qp_stats *stats);

/* The INEC primitives */
int ecdma_rdma_ec_send(struct ecdma_rdma_ec_send *es);
int ecdma_rdma_recv_ec_send(struct ecdma_rdma_recv_ec_send *res);
int ecdma_rdma_recv_ec(struct ecdma_rdma_recv_ec *re);

#endif /* _ECDMA_EC_RDMA_H */
