/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ecdma_hwsim: a simulated EC engine device, as mac80211_hwsim is a radio.
 *
 * The "hardware" (hwsim_engine.c) sees only what a device sees: per queue a
 * submission ring, a completion ring and a context in coherent memory, a
 * doorbell, and blocks by DMA address of its struct device (an IOVA behind
 * an IOMMU).  It copies blocks into its own memory page by page, computes,
 * copies the results out, posts a completion and raises the queue's
 * interrupt (an irq_work: hard IRQ context).  It runs from an hrtimer, so
 * it keeps going while a client spins with preemption off, as a device
 * would.  The driver (hwsim_queue.c) is an EC verbs provider with one
 * queue per calc; ecdma's front makes it a dmaengine device (hwsim_main.c).
 */
#ifndef _ECDMA_HWSIM_H
#define _ECDMA_HWSIM_H

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/irq_work.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>

#include <ecdma/ec_provider.h>

#define HWSIM_QUEUES		16	/* queue pairs of a device */
#define HWSIM_SQ_DEPTH		32	/* ring entries (a power of two) */
#define HWSIM_MAX_K		64	/* caps.max_k */
#define HWSIM_MAX_M		4	/* caps.max_m */
#define HWSIM_INFLIGHT		256	/* caps.max_inflight: the rest waits */
#define HWSIM_ALIGN		64	/* caps.block_align */
/* an UPDATE's layout has the most inputs: c_j, then d_i and d'_i */
#define HWSIM_MAX_IN		(HWSIM_MAX_M + 2 * HWSIM_MAX_K)
#define HWSIM_CHUNK		4096	/* engine memory per block and pass */

/* completion status, as the device reports it */
enum hwsim_status {
	HWSIM_ST_OK,
	HWSIM_ST_DESC,		/* malformed descriptor, or injected error */
	HWSIM_ST_DMA,		/* an address the device cannot reach */
};

/* Device-visible formats: little endian, written by the driver */
struct hwsim_sqe {
	u8 opcode;
	u8 flags;
	u8 nr_data;
	u8 nr_code;
	__le32 len;
	__le32 slot;		/* returned in the completion */
	u8 has_matrix;
	u8 has_erasures;
	u8 has_data_updates;
	u8 has_code_updates;
	__le64 ext;		/* DMA address of the slot's struct hwsim_ext */
	__le64 rsvd;
};

struct hwsim_ext {
	__le64 data[HWSIM_MAX_IN];
	__le64 code[HWSIM_MAX_M];
	u8 matrix[HWSIM_MAX_K * HWSIM_MAX_M];
	u8 erasures[HWSIM_MAX_K + HWSIM_MAX_M];
	u8 data_updates[HWSIM_MAX_K];
	u8 code_updates[HWSIM_MAX_M];
};

#define HWSIM_EXT_SIZE		2048	/* a slot's extension, page-aligned */

struct hwsim_cqe {
	__le32 slot;
	__le32 result;
	u8 status;
	u8 phase;		/* flips each pass over the ring */
	u8 rsvd[6];
};

/* A queue's context: what the device reads at queue creation */
struct hwsim_qctx {
	u8 k;
	u8 m;
	u8 matrix[HWSIM_MAX_K * HWSIM_MAX_M];
};

struct hwsim;
struct hwsim_op;

/**
 * struct hwsim_prov - an EC provider of a simulated device
 * @prov: the provider
 * @sim: its device
 */
struct hwsim_prov {
	struct ecdma_ec_provider prov;
	struct hwsim *sim;
};

/**
 * struct hwsim_hwq - a queue as the device holds it (its registers)
 * @enabled: the device serves it
 * @db: the doorbell: ring tail the driver wrote (WRITE_ONCE)
 * @sq_head: next entry the device reads
 * @cq_tail: next completion it writes
 * @phase: phase bit of the completions of this pass
 * @sq_dma: ring and context addresses, set at creation
 * @cq_dma: ...
 * @ext_dma: ...
 * @ctx_dma: ...
 *
 * All under hwsim->eng_lock but @db.
 */
struct hwsim_hwq {
	bool enabled;
	u32 db;
	u32 sq_head;
	u32 cq_tail;
	u8 phase;
	dma_addr_t sq_dma;
	dma_addr_t cq_dma;
	dma_addr_t ext_dma;
	dma_addr_t ctx_dma;
};

/**
 * struct hwsim_queue - a queue pair and the calc it serves
 * @sim: the device
 * @id: queue number
 * @calc: the calc (one queue per calc)
 * @hw: the device's side, see struct hwsim_hwq
 * @sq: submission ring (coherent)
 * @cq: completion ring (coherent)
 * @ext: the slots' extensions (coherent)
 * @ctx: the queue context (coherent)
 * @wr: the WR in each ring slot; driver side, under calc ownership
 * @sq_tail: driver: next slot written
 * @sq_done: driver: oldest slot not completed
 * @cq_head: driver: next completion read
 * @cq_phase: driver: phase of the completions it expects
 * @reset_pending: the device was reset: fail what it held (service)
 * @reset_done: the service did
 * @xmem: the device's arithmetic unit for this queue (ecdma's executor)
 * @xctx: inside @xmem
 * @irq: the queue's interrupt vector
 * @bh: its bottom half
 * @wd_done: watchdog: @sq_done when it last looked
 * @wd_ticks: watchdog: looks without progress while work was out
 */
struct hwsim_queue {
	struct hwsim *sim;
	unsigned int id;
	struct ecdma_ec_calc *calc;
	struct hwsim_hwq hw;
	struct hwsim_sqe *sq;
	struct hwsim_cqe *cq;
	struct hwsim_ext *ext;
	struct hwsim_qctx *ctx;
	struct ecdma_ec_wr *wr[HWSIM_SQ_DEPTH];
	u32 sq_tail;
	u32 sq_done;
	u32 cq_head;
	u8 cq_phase;
	bool reset_pending;
	struct completion reset_done;
	void *xmem;
	struct ecdma_ec_xctx *xctx;
	struct irq_work irq;
	struct tasklet_struct bh;
	u32 wd_done;
	unsigned int wd_ticks;
};

enum hwsim_counter {
	HWSIM_C_SQES,		/* descriptors the engine executed */
	HWSIM_C_BYTES,		/* block bytes it read and wrote */
	HWSIM_C_IRQS,		/* interrupts raised */
	HWSIM_C_DESC_ERRORS,	/* descriptors failed (injected or malformed) */
	HWSIM_C_DMA_FAULTS,	/* addresses it could not reach */
	HWSIM_C_TIMEOUTS,	/* watchdog expiries */
	HWSIM_C_RESETS,		/* device resets */
	HWSIM_C_RING_FULL,	/* services that left work for lack of room */
	HWSIM_C_NR,
};

/**
 * struct hwsim - one simulated device
 * @dev: its struct device (a PCI function, or a platform device)
 * @iommu: its translating IOMMU domain, or NULL (dma-direct)
 * @id: its number N
 * @name: the provider name, "hwsim<N>"
 * @prov: the EC provider "hwsim<N>"
 * @alias: the same engine under an RDMA device's name (ec_engine_of), so
 *	that ecdma_rdma takes it as that device's engine; under @qlock
 * @alias_name: its name, "" when not registered; under @qlock
 * @eng_lock: guards the device: every queue's @hw, @q, @resetting, @armed,
 *	@rr, @nr_exec and the engine memory; irqsave (the engine is hardirq)
 * @q: the queues the device serves, by number
 * @resetting: a reset is in progress: the engine stops
 * @armed: the engine timer is queued or running
 * @rr: the queue the engine looks at first next time
 * @nr_exec: descriptors executed, for error_every
 * @sram: the engine's memory: HWSIM_MAX_IN + HWSIM_MAX_M chunks
 * @op: the engine's decoded descriptor (hwsim_engine.c)
 * @timer: the engine's clock
 * @qlock: guards @queues and resets (sleeps)
 * @queues: the driver's queues by number
 * @wd: the watchdog
 * @latency_us: doorbell to first service (sysfs)
 * @mbs: throughput, MB/s, 0: unlimited (sysfs)
 * @error_every: fail every Nth descriptor, 0: never (sysfs)
 * @timeout_ms: watchdog timeout (sysfs)
 * @hang: the engine stops until a reset (sysfs)
 * @count: counters, enum hwsim_counter
 * @node: on the module's list of devices
 */
struct hwsim {
	struct device *dev;
	struct iommu_domain *iommu;
	int id;
	char name[16];
	struct hwsim_prov prov;
	struct hwsim_prov alias;
	char alias_name[64];
	spinlock_t eng_lock;	/* the device's state, see above */
	struct hwsim_queue *q[HWSIM_QUEUES];
	bool resetting;
	bool armed;
	unsigned int rr;
	u64 nr_exec;
	u8 *sram;
	struct hwsim_op *op;
	struct hrtimer timer;
	struct mutex qlock;	/* queue life and resets, see above */
	struct hwsim_queue *queues[HWSIM_QUEUES];
	struct delayed_work wd;
	u32 latency_us;
	u32 mbs;
	u32 error_every;
	u32 timeout_ms;
	bool hang;
	atomic64_t count[HWSIM_C_NR];
	struct list_head node;
};

static inline void hwsim_count(struct hwsim *sim, enum hwsim_counter c,
			       u64 n)
{
	atomic64_add(n, &sim->count[c]);
}

/* hwsim_engine.c: the device */
int hwsim_engine_init(struct hwsim *sim);
void hwsim_engine_exit(struct hwsim *sim);
void hwsim_engine_ring(struct hwsim *sim);
void hwsim_engine_enable(struct hwsim_queue *q, bool on);

/* hwsim_queue.c: the driver (EC provider) */
extern const struct ecdma_ec_provider_ops hwsim_prov_ops;
void hwsim_queue_irq(struct irq_work *work);
void hwsim_reset(struct hwsim *sim);
void hwsim_watchdog(struct work_struct *work);

/* hwsim_sysfs.c */
extern const struct attribute_group *hwsim_groups[];

/* hwsim_main.c */
struct hwsim *hwsim_find(struct device *dev);
int hwsim_set_alias(struct hwsim *sim, const char *name);

static inline struct hwsim *hwsim_of(struct ecdma_ec_provider *prov)
{
	return container_of(prov, struct hwsim_prov, prov)->sim;
}

#endif /* _ECDMA_HWSIM_H */
