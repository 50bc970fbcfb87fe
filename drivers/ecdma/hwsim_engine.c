// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma_hwsim: the device.  An hrtimer is its clock; each tick serves the
 * queues whose doorbell moved, one descriptor per queue in turn (so queues
 * complete out of order among themselves, in order each), within a byte
 * budget set by the throughput knob.  Everything it touches it reaches by
 * DMA address, translated as the bus would (the IOMMU's tables, or
 * dma-direct), a page at a time; what does not translate to RAM is a DMA
 * fault, reported in the completion.
 */
#include <linux/dma-direct.h>
#include <linux/iommu.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "ec_priv.h"
#include "hwsim.h"

#define HWSIM_TICK_NS		(100 * NSEC_PER_USEC)
/* bytes a tick may move when the throughput is unlimited */
#define HWSIM_TICK_BYTES	(256 * 1024)

static_assert(sizeof(struct hwsim_ext) <= HWSIM_EXT_SIZE);

/* The kernel address of device address @dma, valid for @n bytes in its page */
static void *hwsim_dma_page(struct hwsim *sim, u64 dma, u32 n)
{
	phys_addr_t phys;
	unsigned long pfn;

	if (sim->iommu)
		phys = iommu_iova_to_phys(sim->iommu, dma);
	else
		phys = dma_to_phys(sim->dev, dma);
	pfn = PHYS_PFN(phys);
	if (!phys || !pfn_valid(pfn) || PageHighMem(pfn_to_page(pfn)) ||
	    PHYS_PFN(phys + n - 1) != pfn)
		return NULL;
	return phys_to_virt(phys);
}

/* Move @len bytes between device address @dma and engine memory @mem */
static bool hwsim_dma(struct hwsim *sim, u64 dma, void *mem, u32 len,
		      bool to_dev)
{
	while (len) {
		u32 n = min_t(u32, len, PAGE_SIZE - offset_in_page(dma));
		void *p = hwsim_dma_page(sim, dma, n);

		if (!p)
			return false;
		if (to_dev)
			memcpy(p, mem, n);
		else
			memcpy(mem, p, n);
		dma += n;
		mem += n;
		len -= n;
	}
	return true;
}

/* A ring entry or context: small, aligned, never across a page */
static void *hwsim_dma_obj(struct hwsim *sim, u64 dma, u32 len)
{
	return hwsim_dma_page(sim, dma, len);
}

/**
 * struct hwsim_op - one descriptor as the engine decoded it
 * @wr: the operation on engine memory, one chunk at a time
 * @mem: its layout
 * @sge: its blocks in engine memory
 * @ext: the descriptor's extension (blocks' device addresses)
 * @len: the blocks' length
 */
struct hwsim_op {
	struct ecdma_ec_wr wr;
	struct ecdma_ec_mem mem;
	struct ecdma_ec_sge sge[HWSIM_MAX_IN + HWSIM_MAX_M];
	const struct hwsim_ext *ext;
	u32 len;
};

/*
 * Block @i of the layout (data, then code) is read in, or written out.
 * DECODE's layout is the whole stripe: the erased blocks are its outputs,
 * wherever they are, and every other block an input.
 */
static bool hwsim_block_in(const struct ecdma_ec_wr *wr, int i, int nd)
{
	switch (wr->opcode) {
	case ECDMA_EC_OP_DECODE:
		return !wr->erasures[i];
	case ECDMA_EC_OP_VALIDATE:
		return true;
	case ECDMA_EC_OP_ENCODE:
		return i < nd || (wr->flags & ECDMA_EC_WR_ACCUMULATE);
	default:
		return i < nd;
	}
}

static bool hwsim_block_out(const struct ecdma_ec_wr *wr, int i, int nd)
{
	switch (wr->opcode) {
	case ECDMA_EC_OP_DECODE:
		return wr->erasures[i];
	case ECDMA_EC_OP_VALIDATE:
	case ECDMA_EC_OP_NOP:
		return false;
	default:
		return i >= nd;
	}
}

/* The device address of block @i of the layout */
static u64 hwsim_block_dma(const struct hwsim_ext *ext, int i, int nd)
{
	return le64_to_cpu(i < nd ? ext->data[i] : ext->code[i - nd]);
}

static enum hwsim_status hwsim_decode(struct hwsim *sim, struct hwsim_queue *q,
				      const struct hwsim_sqe *sqe,
				      struct hwsim_op *op)
{
	const struct hwsim_qctx *ctx;
	struct ecdma_ec_caps caps = sim->prov.prov.caps;
	int i, nd = sqe->nr_data, nc = sqe->nr_code;

	ctx = hwsim_dma_obj(sim, q->hw.ctx_dma, sizeof(*ctx));
	op->ext = hwsim_dma_obj(sim, le64_to_cpu(sqe->ext), sizeof(*op->ext));
	if (!ctx || !op->ext)
		return HWSIM_ST_DMA;
	op->len = le32_to_cpu(sqe->len);
	if (nd > HWSIM_MAX_IN || nc > HWSIM_MAX_M)
		return HWSIM_ST_DESC;
	memset(&op->wr, 0, sizeof(op->wr));
	op->wr.opcode = sqe->opcode;
	op->wr.flags = sqe->flags;
	op->wr.matrix = sqe->has_matrix ? op->ext->matrix : NULL;
	op->wr.erasures = sqe->has_erasures ? op->ext->erasures : NULL;
	op->wr.data_updates = sqe->has_data_updates ?
			      op->ext->data_updates : NULL;
	op->wr.code_updates = sqe->has_code_updates ?
			      op->ext->code_updates : NULL;
	op->mem.data_blocks = op->sge;
	op->mem.num_data_sge = nd;
	op->mem.code_blocks = op->sge + nd;
	op->mem.num_code_sge = nc;
	op->mem.block_size = min_t(u32, op->len, HWSIM_CHUNK);
	for (i = 0; i < nd + nc; i++) {
		op->sge[i].addr = (uintptr_t)(sim->sram + i * HWSIM_CHUNK);
		op->sge[i].length = op->mem.block_size;
	}
	if (op->wr.opcode != ECDMA_EC_OP_NOP)
		op->wr.mem = &op->mem;
	/* what the engine can run; a bad descriptor fails alone */
	caps.block_align = 1;
	if (ecdma_ec_validate_wr(&caps, ctx->k, ctx->m, &op->wr) ||
	    (op->wr.mem && (!op->len || op->len % HWSIM_ALIGN)))
		return HWSIM_ST_DESC;
	return HWSIM_ST_OK;
}

/* Run @op a chunk at a time: in, compute, out.  Returns the bytes moved. */
static enum hwsim_status hwsim_run(struct hwsim *sim, struct hwsim_queue *q,
				   struct hwsim_op *op, u32 *result, u64 *bytes)
{
	const struct hwsim_ext *ext = op->ext;
	int nd = op->mem.num_data_sge, nc = op->mem.num_code_sge, i;
	u32 off, n;

	*result = 0;
	for (off = 0; op->wr.mem && off < op->len; off += n) {
		n = min_t(u32, op->len - off, HWSIM_CHUNK);
		op->mem.block_size = n;
		for (i = 0; i < nd + nc; i++) {
			op->sge[i].length = n;
			if (hwsim_block_in(&op->wr, i, nd) &&
			    !hwsim_dma(sim, hwsim_block_dma(ext, i, nd) + off,
				       sim->sram + i * HWSIM_CHUNK, n, false))
				return HWSIM_ST_DMA;
		}
		if (ecdma_ec_exec_wr(q->xctx, &op->wr))
			return HWSIM_ST_DESC;
		*result |= op->wr.result;
		*bytes += (u64)n * (nd + nc);
		for (i = 0; i < nd + nc; i++)
			if (hwsim_block_out(&op->wr, i, nd) &&
			    !hwsim_dma(sim, hwsim_block_dma(ext, i, nd) + off,
				       sim->sram + i * HWSIM_CHUNK, n, true))
				return HWSIM_ST_DMA;
	}
	return HWSIM_ST_OK;
}

/* Execute @q's next descriptor and post its completion; its byte cost */
static u64 hwsim_exec_one(struct hwsim *sim, struct hwsim_queue *q)
{
	struct hwsim_op *op = sim->op;
	u32 slot = q->hw.sq_head % HWSIM_SQ_DEPTH, res = 0;
	u32 every = READ_ONCE(sim->error_every);
	const struct hwsim_sqe *sqe;
	enum hwsim_status st;
	struct hwsim_cqe *cqe;
	u64 bytes = 0;

	lockdep_assert_held(&sim->eng_lock);
	sqe = hwsim_dma_obj(sim, q->hw.sq_dma + slot * sizeof(*sqe),
			    sizeof(*sqe));
	cqe = hwsim_dma_obj(sim, q->hw.cq_dma +
			    (q->hw.cq_tail % HWSIM_SQ_DEPTH) * sizeof(*cqe),
			    sizeof(*cqe));
	if (!cqe) {
		/* nowhere to say so: the queue stops, the watchdog resets */
		q->hw.enabled = false;
		hwsim_count(sim, HWSIM_C_DMA_FAULTS, 1);
		return 0;
	}
	st = sqe ? hwsim_decode(sim, q, sqe, op) : HWSIM_ST_DMA;
	sim->nr_exec++;
	if (st == HWSIM_ST_OK && every && !(sim->nr_exec % every))
		st = HWSIM_ST_DESC;
	else if (st == HWSIM_ST_OK)
		st = hwsim_run(sim, q, op, &res, &bytes);
	if (st == HWSIM_ST_DMA)
		hwsim_count(sim, HWSIM_C_DMA_FAULTS, 1);
	else if (st == HWSIM_ST_DESC)
		hwsim_count(sim, HWSIM_C_DESC_ERRORS, 1);
	hwsim_count(sim, HWSIM_C_SQES, 1);
	hwsim_count(sim, HWSIM_C_BYTES, bytes);

	cqe->slot = sqe ? sqe->slot : cpu_to_le32(slot);
	cqe->result = cpu_to_le32(res);
	cqe->status = st;
	/* the phase last: the driver reads the rest once it flips */
	dma_wmb();
	WRITE_ONCE(cqe->phase, q->hw.phase);
	q->hw.sq_head++;
	if (!(++q->hw.cq_tail % HWSIM_SQ_DEPTH))
		q->hw.phase ^= 1;
	return bytes + sizeof(*sqe);
}

static bool hwsim_has_work(struct hwsim_queue *q)
{
	return q && q->hw.enabled && q->hw.sq_head != READ_ONCE(q->hw.db);
}

/* One tick of the engine, in hard IRQ context (the device runs alone) */
static enum hrtimer_restart hwsim_tick(struct hrtimer *t)
{
	struct hwsim *sim = container_of(t, struct hwsim, timer);
	u32 mbs = READ_ONCE(sim->mbs);
	s64 budget = mbs ? (s64)mbs * HWSIM_TICK_NS / NSEC_PER_USEC :
			   HWSIM_TICK_BYTES;
	unsigned long irqs = 0;
	unsigned int i, n;
	bool more = false, served;

	spin_lock(&sim->eng_lock);
	do {
		served = false;
		for (n = 0; n < HWSIM_QUEUES && budget > 0; n++) {
			i = (sim->rr + n) % HWSIM_QUEUES;
			if (READ_ONCE(sim->hang) || sim->resetting ||
			    !hwsim_has_work(sim->q[i]))
				continue;
			/* the descriptors after the doorbell's write */
			dma_rmb();
			budget -= hwsim_exec_one(sim, sim->q[i]);
			__set_bit(i, &irqs);
			served = true;
		}
		sim->rr++;
	} while (served && budget > 0);
	for (i = 0; i < HWSIM_QUEUES && !READ_ONCE(sim->hang) &&
	     !sim->resetting; i++)
		more |= hwsim_has_work(sim->q[i]);
	sim->armed = more;
	spin_unlock(&sim->eng_lock);

	for_each_set_bit(i, &irqs, HWSIM_QUEUES) {
		hwsim_count(sim, HWSIM_C_IRQS, 1);
		irq_work_queue(&sim->q[i]->irq);
	}
	if (!more)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ns_to_ktime(HWSIM_TICK_NS));
	return HRTIMER_RESTART;
}

/**
 * hwsim_engine_ring - a doorbell was written: have the engine look
 * @sim: the device
 *
 * Context: any; takes eng_lock.
 */
void hwsim_engine_ring(struct hwsim *sim)
{
	unsigned long flags;
	bool start;

	spin_lock_irqsave(&sim->eng_lock, flags);
	start = !sim->armed && !sim->resetting;
	if (start)
		sim->armed = true;
	spin_unlock_irqrestore(&sim->eng_lock, flags);
	if (start)
		hrtimer_start(&sim->timer,
			      ns_to_ktime((u64)READ_ONCE(sim->latency_us) *
					  NSEC_PER_USEC),
			      HRTIMER_MODE_REL);
}

/**
 * hwsim_engine_enable - start or stop serving a queue, its rings empty
 * @q: the queue; its ring addresses set
 * @on: serve it from entry 0 on, or stop (the engine is not inside it
 *	once this returns: it executes under eng_lock)
 */
void hwsim_engine_enable(struct hwsim_queue *q, bool on)
{
	struct hwsim *sim = q->sim;
	unsigned long flags;

	spin_lock_irqsave(&sim->eng_lock, flags);
	if (on) {
		q->hw.db = 0;
		q->hw.sq_head = 0;
		q->hw.cq_tail = 0;
		q->hw.phase = 1;
	}
	sim->q[q->id] = on ? q : NULL;
	q->hw.enabled = on;
	spin_unlock_irqrestore(&sim->eng_lock, flags);
}

/**
 * hwsim_engine_init - the device's engine: its memory and clock
 * @sim: the device
 * Return: 0 or -ENOMEM.
 */
int hwsim_engine_init(struct hwsim *sim)
{
	spin_lock_init(&sim->eng_lock);
	sim->sram = vmalloc((HWSIM_MAX_IN + HWSIM_MAX_M) * HWSIM_CHUNK);
	sim->op = kzalloc(sizeof(*sim->op), GFP_KERNEL);
	if (!sim->sram || !sim->op) {
		vfree(sim->sram);
		kfree(sim->op);
		return -ENOMEM;
	}
	hrtimer_init(&sim->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	sim->timer.function = hwsim_tick;
	return 0;
}

/**
 * hwsim_engine_exit - stop the clock and free the engine's memory
 * @sim: the device, its queues gone
 */
void hwsim_engine_exit(struct hwsim *sim)
{
	hrtimer_cancel(&sim->timer);
	vfree(sim->sram);
	kfree(sim->op);
}
