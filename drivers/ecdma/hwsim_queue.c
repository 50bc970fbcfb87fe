// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma_hwsim: the driver, an EC verbs provider with a queue pair per calc.
 *
 * Whoever owns the calc (the executor protocol) services its queue: reaps
 * the completions in order, completes their WRs, writes pending WRs into
 * free slots and rings the doorbell.  The owner is a poster's kick, a
 * progress caller spinning for a result, or the queue's bottom half after
 * its interrupt; each looks again after releasing, so a completion or a
 * post that came meanwhile is never left behind.  Nothing executes in a
 * caller: a full ring leaves WRs pending until a completion frees a slot.
 * A reset fails what the device held; ecdma's front recomputes those.
 */
#include <linux/dma-mapping.h>
#include <linux/slab.h>

#include "ec_priv.h"
#include "hwsim.h"

static int hwsim_errno(u8 status)
{
	switch (status) {
	case HWSIM_ST_OK:
		return 0;
	case HWSIM_ST_DMA:
		return -EFAULT;
	default:
		return -EIO;
	}
}

static bool hwsim_room(const struct hwsim_queue *q)
{
	return q->sq_tail - q->sq_done < HWSIM_SQ_DEPTH &&
	       !READ_ONCE(q->reset_pending);
}

/*
 * A completion the driver has not read yet.  Outside ownership only a hint
 * (the indices may be moving): whoever sees one acquires and reads again.
 */
static bool hwsim_cq_ready(const struct hwsim_queue *q)
{
	u32 head = READ_ONCE(q->cq_head);

	return READ_ONCE(q->sq_done) != READ_ONCE(q->sq_tail) &&
	       READ_ONCE(q->cq[head % HWSIM_SQ_DEPTH].phase) ==
	       READ_ONCE(q->cq_phase);
}

/* The device was reset: what it held did not complete; start it over */
static void hwsim_queue_reset(struct hwsim_queue *q, struct list_head *done)
{
	struct ecdma_ec_wr *wr;

	for (; q->sq_done != q->sq_tail; q->sq_done++) {
		wr = q->wr[q->sq_done % HWSIM_SQ_DEPTH];
		q->wr[q->sq_done % HWSIM_SQ_DEPTH] = NULL;
		wr->status = -ETIMEDOUT;
		list_add_tail(&wr->node, done);
	}
	q->sq_tail = 0;
	q->sq_done = 0;
	q->cq_head = 0;
	q->cq_phase = 1;
	memset(q->cq, 0, HWSIM_SQ_DEPTH * sizeof(*q->cq));
	hwsim_engine_enable(q, true);
	WRITE_ONCE(q->reset_pending, false);
	complete(&q->reset_done);
}

static void hwsim_reap(struct hwsim_queue *q, struct list_head *done)
{
	struct ecdma_ec_wr *wr;
	struct hwsim_cqe *cqe;
	u32 slot;

	while (hwsim_cq_ready(q)) {
		cqe = &q->cq[q->cq_head % HWSIM_SQ_DEPTH];
		/* the rest of the entry after its phase */
		dma_rmb();
		slot = q->sq_done % HWSIM_SQ_DEPTH;
		wr = q->wr[slot];
		q->wr[slot] = NULL;
		/* in order per queue: another slot is the device's bug */
		wr->status = le32_to_cpu(cqe->slot) == slot ?
			     hwsim_errno(cqe->status) : -EIO;
		wr->result = le32_to_cpu(cqe->result);
		list_add_tail(&wr->node, done);
		q->sq_done++;
		if (!(++q->cq_head % HWSIM_SQ_DEPTH))
			q->cq_phase ^= 1;
	}
	if (READ_ONCE(q->reset_pending))
		hwsim_queue_reset(q, done);
}

static size_t hwsim_matrix_bytes(const struct ecdma_ec_wr *wr, int k, int m)
{
	const struct ecdma_ec_mem *mem = wr->mem;

	switch (wr->opcode) {
	case ECDMA_EC_OP_UPDATE:
		return (size_t)k * m;
	case ECDMA_EC_OP_DECODE:
		return (size_t)k * mem->num_code_sge;
	default:
		return (size_t)mem->num_data_sge * mem->num_code_sge;
	}
}

static void hwsim_write_sqe(struct hwsim_queue *q, u32 slot,
			    const struct ecdma_ec_wr *wr)
{
	struct hwsim_ext *ext = (void *)q->ext + slot * HWSIM_EXT_SIZE;
	const struct ecdma_ec_mem *mem = wr->mem;
	int k = ecdma_ec_calc_k(q->calc), m = ecdma_ec_calc_m(q->calc);
	int nd = mem ? mem->num_data_sge : 0, nc = mem ? mem->num_code_sge : 0;
	struct hwsim_sqe *sqe = &q->sq[slot];
	int i;

	for (i = 0; i < nd; i++)
		ext->data[i] = cpu_to_le64(mem->data_blocks[i].addr);
	for (i = 0; i < nc; i++)
		ext->code[i] = cpu_to_le64(mem->code_blocks[i].addr);
	if (wr->matrix)
		memcpy(ext->matrix, wr->matrix, hwsim_matrix_bytes(wr, k, m));
	if (wr->erasures)
		memcpy(ext->erasures, wr->erasures, k + m);
	if (wr->data_updates)
		memcpy(ext->data_updates, wr->data_updates, k);
	if (wr->code_updates)
		memcpy(ext->code_updates, wr->code_updates, m);
	sqe->opcode = wr->opcode;
	sqe->flags = wr->flags;
	sqe->nr_data = nd;
	sqe->nr_code = nc;
	sqe->len = cpu_to_le32(mem ? mem->block_size : 0);
	sqe->slot = cpu_to_le32(slot);
	sqe->has_matrix = !!wr->matrix;
	sqe->has_erasures = !!wr->erasures;
	sqe->has_data_updates = !!wr->data_updates;
	sqe->has_code_updates = !!wr->code_updates;
	sqe->ext = cpu_to_le64(q->hw.ext_dma + slot * HWSIM_EXT_SIZE);
}

static void hwsim_fill(struct hwsim_queue *q)
{
	struct ecdma_ec_wr *wr;
	unsigned int n = 0;
	u32 slot;

	while (hwsim_room(q)) {
		wr = ecdma_ec_exec_pop(q->calc);
		if (!wr)
			break;
		slot = q->sq_tail % HWSIM_SQ_DEPTH;
		hwsim_write_sqe(q, slot, wr);
		q->wr[slot] = wr;
		q->sq_tail++;
		n++;
	}
	if (!n)
		return;
	/* the entries before the doorbell */
	dma_wmb();
	WRITE_ONCE(q->hw.db, q->sq_tail);
	hwsim_engine_ring(q->sim);
}

/* Service @q while there is something to do; true if a WR completed */
static bool hwsim_service(struct hwsim_queue *q)
{
	struct ecdma_ec_calc *calc = q->calc;
	bool completed = false, more, room;
	LIST_HEAD(done);

	preempt_disable();
	do {
		if (!ecdma_ec_exec_acquire(calc))
			break;
		hwsim_reap(q, &done);
		if (!list_empty(&done)) {
			ecdma_ec_complete_list(calc, &done);
			INIT_LIST_HEAD(&done);
			completed = true;
		}
		hwsim_fill(q);
		room = hwsim_room(q);
		/* the device's slots are not the executor's: nothing busy */
		more = ecdma_ec_exec_release(calc, false);
		if (more && !room)
			hwsim_count(q->sim, HWSIM_C_RING_FULL, 1);
	} while (hwsim_cq_ready(q) || READ_ONCE(q->reset_pending) ||
		 (more && room));
	preempt_enable();
	return completed;
}

/* The queue's interrupt: hard IRQ context; the work is the bottom half's */
void hwsim_queue_irq(struct irq_work *work)
{
	struct hwsim_queue *q = container_of(work, struct hwsim_queue, irq);

	tasklet_schedule(&q->bh);
}

static void hwsim_queue_bh(struct tasklet_struct *t)
{
	struct hwsim_queue *q = from_tasklet(q, t, bh);

	hwsim_service(q);
}

static void hwsim_kick(struct ecdma_ec_calc *calc)
{
	struct hwsim_queue *q = ecdma_ec_calc_priv(calc);

	/* completions must not run in hard IRQ context */
	if (in_hardirq())
		tasklet_schedule(&q->bh);
	else
		hwsim_service(q);
}

/* A caller waiting for a result: reap what the device finished */
static bool hwsim_progress(struct ecdma_ec_calc *calc)
{
	return hwsim_service(ecdma_ec_calc_priv(calc));
}

static void hwsim_queue_free(struct hwsim_queue *q)
{
	struct device *dev = q->sim->dev;

	if (q->sq)
		dma_free_coherent(dev, HWSIM_SQ_DEPTH * sizeof(*q->sq), q->sq,
				  q->hw.sq_dma);
	if (q->cq)
		dma_free_coherent(dev, HWSIM_SQ_DEPTH * sizeof(*q->cq), q->cq,
				  q->hw.cq_dma);
	if (q->ext)
		dma_free_coherent(dev, HWSIM_SQ_DEPTH * HWSIM_EXT_SIZE, q->ext,
				  q->hw.ext_dma);
	if (q->ctx)
		dma_free_coherent(dev, sizeof(*q->ctx), q->ctx, q->hw.ctx_dma);
	kvfree(q->xmem);
	kfree(q);
}

/* The rings and context in coherent memory, and the queue's ALU */
static int hwsim_queue_alloc(struct hwsim_queue *q, struct ecdma_ec_calc *calc)
{
	struct device *dev = q->sim->dev;
	struct ecdma_ec_exec_cfg cfg = {
		.k = ecdma_ec_calc_k(calc),
		.m = ecdma_ec_calc_m(calc),
		.algo = &ecdma_gf_algo_generic,
	};
	size_t size;

	q->sq = dma_alloc_coherent(dev, HWSIM_SQ_DEPTH * sizeof(*q->sq),
				   &q->hw.sq_dma, GFP_KERNEL);
	q->cq = dma_alloc_coherent(dev, HWSIM_SQ_DEPTH * sizeof(*q->cq),
				   &q->hw.cq_dma, GFP_KERNEL);
	q->ext = dma_alloc_coherent(dev, HWSIM_SQ_DEPTH * HWSIM_EXT_SIZE,
				    &q->hw.ext_dma, GFP_KERNEL);
	q->ctx = dma_alloc_coherent(dev, sizeof(*q->ctx), &q->hw.ctx_dma,
				    GFP_KERNEL);
	if (!q->sq || !q->cq || !q->ext || !q->ctx)
		return -ENOMEM;
	q->ctx->k = cfg.k;
	q->ctx->m = cfg.m;
	memcpy(q->ctx->matrix, ecdma_ec_calc_matrix(calc), cfg.k * cfg.m);
	cfg.matrix = q->ctx->matrix;
	size = ecdma_ec_exec_size(&cfg);
	q->xmem = size ? kvzalloc(size, GFP_KERNEL) : NULL;
	if (!q->xmem)
		return -ENOMEM;
	q->xctx = ecdma_ec_exec_init(q->xmem, &cfg);
	return q->xctx ? 0 : -EINVAL;
}

static int hwsim_calc_init(struct ecdma_ec_calc *calc)
{
	struct hwsim *sim = hwsim_of(ecdma_ec_calc_provider(calc));
	struct hwsim_queue *q;
	unsigned int id;
	int ret;

	q = kzalloc(sizeof(*q), GFP_KERNEL);
	if (!q)
		return -ENOMEM;
	q->sim = sim;
	q->calc = calc;
	q->cq_phase = 1;
	init_completion(&q->reset_done);
	init_irq_work(&q->irq, hwsim_queue_irq);
	tasklet_setup(&q->bh, hwsim_queue_bh);
	ret = hwsim_queue_alloc(q, calc);
	if (ret) {
		hwsim_queue_free(q);
		return ret;
	}

	mutex_lock(&sim->qlock);
	for (id = 0; id < HWSIM_QUEUES && sim->queues[id]; id++)
		;
	if (id < HWSIM_QUEUES) {
		q->id = id;
		sim->queues[id] = q;
		ecdma_ec_calc_set_priv(calc, q);
		hwsim_engine_enable(q, true);
	}
	mutex_unlock(&sim->qlock);
	if (id == HWSIM_QUEUES) {
		hwsim_queue_free(q);
		return -EBUSY;
	}
	return 0;
}

static void hwsim_quiesce(struct ecdma_ec_calc *calc)
{
	struct hwsim_queue *q = ecdma_ec_calc_priv(calc);
	struct ecdma_ec_wr *wr;

	/* no reset meanwhile; the engine is out of the queue after this */
	mutex_lock(&q->sim->qlock);
	hwsim_engine_enable(q, false);
	irq_work_sync(&q->irq);
	tasklet_kill(&q->bh);
	mutex_unlock(&q->sim->qlock);
	/* what the device held goes back, newest first, to be canceled */
	while (q->sq_tail != q->sq_done) {
		q->sq_tail--;
		wr = q->wr[q->sq_tail % HWSIM_SQ_DEPTH];
		q->wr[q->sq_tail % HWSIM_SQ_DEPTH] = NULL;
		ecdma_ec_exec_unpop(calc, wr);
	}
}

static void hwsim_calc_destroy(struct ecdma_ec_calc *calc)
{
	struct hwsim_queue *q = ecdma_ec_calc_priv(calc);
	struct hwsim *sim = q->sim;

	mutex_lock(&sim->qlock);
	sim->queues[q->id] = NULL;
	mutex_unlock(&sim->qlock);
	ecdma_ec_calc_set_priv(calc, NULL);
	hwsim_queue_free(q);
}

const struct ecdma_ec_provider_ops hwsim_prov_ops = {
	.calc_init = hwsim_calc_init,
	.calc_destroy = hwsim_calc_destroy,
	.kick = hwsim_kick,
	.progress = hwsim_progress,
	.quiesce = hwsim_quiesce,
};

/**
 * hwsim_reset - reset the device: what it held fails, the engine restarts
 * @sim: the device
 *
 * A hung engine (the hang knob) comes back.  Each queue's owner fails its
 * outstanding WRs with -ETIMEDOUT (ecdma's front recomputes them on the CPU).
 * Context: process context; sleeps.
 */
void hwsim_reset(struct hwsim *sim)
{
	struct hwsim_queue *q;
	unsigned long flags;
	unsigned int i;

	mutex_lock(&sim->qlock);
	spin_lock_irqsave(&sim->eng_lock, flags);
	sim->resetting = true;
	spin_unlock_irqrestore(&sim->eng_lock, flags);
	hrtimer_cancel(&sim->timer);
	WRITE_ONCE(sim->hang, false);
	for (i = 0; i < HWSIM_QUEUES; i++) {
		q = sim->queues[i];
		if (!q)
			continue;
		irq_work_sync(&q->irq);
		q->wd_ticks = 0;
		q->wd_done = 0;
		reinit_completion(&q->reset_done);
		WRITE_ONCE(q->reset_pending, true);
		tasklet_schedule(&q->bh);
	}
	for (i = 0; i < HWSIM_QUEUES; i++) {
		q = sim->queues[i];
		if (q && !wait_for_completion_timeout(&q->reset_done, HZ))
			dev_err(sim->dev, "queue %u did not come back from the reset\n",
				i);
	}
	spin_lock_irqsave(&sim->eng_lock, flags);
	sim->resetting = false;
	sim->armed = false;
	spin_unlock_irqrestore(&sim->eng_lock, flags);
	hwsim_count(sim, HWSIM_C_RESETS, 1);
	mutex_unlock(&sim->qlock);
	hwsim_engine_ring(sim);
}

/**
 * hwsim_watchdog - reset the device when a queue makes no progress
 * @work: the device's delayed work
 *
 * A queue with work out whose oldest slot has not completed for
 * timeout_ms is a hung engine: md waits for it with preemption off.
 */
void hwsim_watchdog(struct work_struct *work)
{
	struct hwsim *sim = container_of(to_delayed_work(work), struct hwsim,
					 wd);
	u32 timeout = READ_ONCE(sim->timeout_ms);
	u32 period = max_t(u32, timeout / 4, 10);
	struct hwsim_queue *q;
	bool stuck = false;
	unsigned int i;
	u32 done;

	mutex_lock(&sim->qlock);
	for (i = 0; i < HWSIM_QUEUES; i++) {
		q = sim->queues[i];
		if (!q)
			continue;
		/* the owner moves them: a snapshot is enough here */
		done = READ_ONCE(q->sq_done);
		if (done != READ_ONCE(q->sq_tail) && done == q->wd_done) {
			if (++q->wd_ticks * period >= timeout)
				stuck = true;
		} else {
			q->wd_done = done;
			q->wd_ticks = 0;
		}
	}
	mutex_unlock(&sim->qlock);
	if (stuck) {
		hwsim_count(sim, HWSIM_C_TIMEOUTS, 1);
		dev_warn_ratelimited(sim->dev, "engine made no progress for %u ms, resetting it\n",
				     timeout);
		hwsim_reset(sim);
	}
	schedule_delayed_work(&sim->wd, msecs_to_jiffies(period));
}
