// SPDX-License-Identifier: GPL-2.0
/* ecdma EC verbs: posting and completion; ->done runs once, in post order */
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/export.h>
#include <linux/hardirq.h>
#include <linux/list.h>
#include <linux/preempt.h>
#include <linux/spinlock.h>

#include "ec_priv.h"
#include "ecdma_trace.h"

/**
 * ecdma_ec_admit() - every post's admission: take an inflight slot
 * @calc: the calc, its lock held
 * @ret: the request's validation result (0 when valid)
 *
 * Return: 0 (slot taken); nonzero @ret, -EOVERFLOW (counted); -ESHUTDOWN.
 */
int ecdma_ec_admit(struct ecdma_ec_calc *calc, int ret)
{
	lockdep_assert_held(&calc->lock);
	if (unlikely(ret)) {
		calc->stats[ECDMA_EC_STAT_POST_REJECTED]++;
		return ret;
	}
	if (unlikely(calc->dead))
		return -ESHUTDOWN;
	if (unlikely(calc->inflight >= calc->max_inflight)) {
		calc->stats[ECDMA_EC_STAT_POST_OVERFLOW]++;
		return -EOVERFLOW;
	}
	calc->inflight++;
	return 0;
}

static int __ecdma_ec_post(struct ecdma_ec_calc *calc, struct ecdma_ec_wr *wr,
			   bool may_kick)
{
	unsigned long flags;
	bool kick = false;
	int ret;

	ret = ecdma_ec_validate_wr(&calc->prov->caps, calc->k, calc->m, wr);

	/* until the kick: dealloc's synchronize_rcu() waits for it */
	preempt_disable();
	spin_lock_irqsave(&calc->lock, flags);
	ret = ecdma_ec_admit(calc, ret);
	if (likely(!ret)) {
		wr->status = 0;
		wr->result = 0;
		list_add_tail(&wr->node, &calc->pending);
		kick = may_kick && !calc->owned;
	}
	/* under the lock: once queued, an executor may complete @wr */
	trace_ecdma_ec_post(calc, wr, ret);
	spin_unlock_irqrestore(&calc->lock, flags);

	if (kick)
		calc->prov->ops->kick(calc);
	preempt_enable();
	return ret;
}

/**
 * ecdma_ec_post() - queue a work request
 * @calc: the calc
 * @wr: the request; owned by the core until its ->done runs
 *
 * Queues @wr behind earlier ones; never sleeps or allocates, no-op on error.
 * Context: Any context (hardirq, preemption or interrupts disabled).
 * Return: 0; -EINVAL malformed; -EOPNOTSUPP opcode unsupported; -EOVERFLOW at
 * max_inflight outstanding (polling: unreaped); -ESHUTDOWN during dealloc.
 */
int ecdma_ec_post(struct ecdma_ec_calc *calc, struct ecdma_ec_wr *wr)
{
	return __ecdma_ec_post(calc, wr, true);
}
EXPORT_SYMBOL_GPL(ecdma_ec_post);

/**
 * ecdma_ec_post_nokick() - queue a work request without waking the worker
 * @calc: the calc
 * @wr: the request, as for ecdma_ec_post()
 *
 * Saves a wake-up; callers then call ecdma_ec_progress() or ecdma_ec_kick().
 * Context: Any context.
 * Return: as ecdma_ec_post().
 */
int ecdma_ec_post_nokick(struct ecdma_ec_calc *calc, struct ecdma_ec_wr *wr)
{
	return __ecdma_ec_post(calc, wr, false);
}
EXPORT_SYMBOL_GPL(ecdma_ec_post_nokick);

/**
 * ecdma_ec_kick() - have the provider execute what is pending
 * @calc: the calc
 *
 * Context: Any context; cheap when idle or owned (an owner kicks itself).
 */
void ecdma_ec_kick(struct ecdma_ec_calc *calc)
{
	unsigned long flags;
	bool kick;

	if (list_empty_careful(&calc->pending))
		return;
	/* until the kick: dealloc's synchronize_rcu() waits for it */
	preempt_disable();
	spin_lock_irqsave(&calc->lock, flags);
	kick = !calc->owned && !calc->dead && !list_empty(&calc->pending);
	spin_unlock_irqrestore(&calc->lock, flags);
	if (kick)
		calc->prov->ops->kick(calc);
	preempt_enable();
}
EXPORT_SYMBOL_GPL(ecdma_ec_kick);

struct ecdma_ec_sync {
	struct completion done;
};

static void ecdma_ec_sync_done(struct ecdma_ec_wr *wr)
{
	struct ecdma_ec_sync *s = wr->ctx;

	complete(&s->done);
}

/**
 * ecdma_ec_post_sync() - post a work request and wait for it
 * @calc: the calc
 * @wr: the request; its ->done and ->ctx are borrowed and restored
 *
 * Runs here when the calc is idle; needs no ecdma_ec_poll() on a polling calc.
 * Context: Process context; sleeps.
 * Return: ecdma_ec_post()'s errors, else wr->status (-ECANCELED by dealloc).
 */
int ecdma_ec_post_sync(struct ecdma_ec_calc *calc, struct ecdma_ec_wr *wr)
{
	void (*done)(struct ecdma_ec_wr *wr);
	struct ecdma_ec_sync s;
	void *ctx;
	int ret;

	might_sleep();
	if (!wr)
		return -EINVAL;
	init_completion(&s.done);
	done = wr->done;
	ctx = wr->ctx;
	wr->done = ecdma_ec_sync_done;
	wr->ctx = &s;
	ret = ecdma_ec_post(calc, wr);
	if (!ret) {
		ecdma_ec_progress(calc);
		wait_for_completion(&s.done);
		ret = wr->status;
	}
	wr->done = done;
	wr->ctx = ctx;
	return ret;
}
EXPORT_SYMBOL_GPL(ecdma_ec_post_sync);

/**
 * ecdma_ec_poll() - reap completions of a polling calc
 * @calc: a calc allocated with attr->polling
 * @budget: most completions to reap
 *
 * Runs ->done oldest first; executes nothing.  Callers serialize per calc.
 * Context: Any context but hardirq; ->done runs in it.
 * Return: the number reaped; -EINVAL if not polling or @budget < 0.
 */
int ecdma_ec_poll(struct ecdma_ec_calc *calc, int budget)
{
	struct ecdma_ec_wr *wr;
	unsigned long flags;
	int n = 0;

	if (!calc->polling || budget < 0)
		return -EINVAL;
	while (n < budget) {
		spin_lock_irqsave(&calc->lock, flags);
		wr = list_first_entry_or_null(&calc->completed,
					      struct ecdma_ec_wr, node);
		if (wr) {
			list_del(&wr->node);
			calc->inflight--;
		}
		spin_unlock_irqrestore(&calc->lock, flags);
		if (!wr)
			break;
		if (wr->done)
			wr->done(wr);
		n++;
	}
	return n;
}
EXPORT_SYMBOL_GPL(ecdma_ec_poll);

/**
 * ecdma_ec_calc_set_cpu() - move a calc's execution to another CPU
 * @calc: the calc
 * @cpu: online CPU or -1 for none; from the next kick (queued work stays put)
 *
 * Context: Any context.
 * Return: 0, or -EINVAL for a CPU that is not possible.
 */
int ecdma_ec_calc_set_cpu(struct ecdma_ec_calc *calc, int cpu)
{
	if (cpu < -1 || cpu >= (int)nr_cpu_ids ||
	    (cpu >= 0 && !cpu_possible(cpu)))
		return -EINVAL;
	if (READ_ONCE(calc->affinity) != cpu)
		WRITE_ONCE(calc->affinity, cpu);
	return 0;
}
EXPORT_SYMBOL_GPL(ecdma_ec_calc_set_cpu);

/**
 * ecdma_ec_progress() - execute pending work in the caller's context
 * @calc: the calc
 *
 * Runs a bounded batch here, or nothing while an owner runs; callers may spin.
 * Context: Any but hardirq/NMI (no-op there), preemption or IRQs may be off;
 * SIMD only where the FPU is usable.  False from a ->done of the same calc.
 * Return: true when this call completed at least one request.
 */
bool ecdma_ec_progress(struct ecdma_ec_calc *calc)
{
	if (!calc->prov->ops->progress || in_hardirq() || in_nmi())
		return false;
	return calc->prov->ops->progress(calc);
}
EXPORT_SYMBOL_GPL(ecdma_ec_progress);

/**
 * ecdma_ec_exec_acquire() - become the calc's executor
 * @calc: the calc
 *
 * Context: Any; keep preemption disabled until ecdma_ec_exec_release().
 * Return: true when the caller now owns the calc; false if owned or dying.
 */
bool ecdma_ec_exec_acquire(struct ecdma_ec_calc *calc)
{
	unsigned long flags;
	bool ok;

	/* spinning progress callers: don't bounce the lock while owned */
	if (data_race(calc->owned))
		return false;
	spin_lock_irqsave(&calc->lock, flags);
	ok = !calc->owned && !calc->dead;
	if (ok)
		calc->owned = true;
	spin_unlock_irqrestore(&calc->lock, flags);
	return ok;
}
EXPORT_SYMBOL_GPL(ecdma_ec_exec_acquire);

/**
 * ecdma_ec_exec_pop() - take the oldest pending work request
 * @calc: the calc, owned by the caller
 *
 * Context: Any context; the caller owns @calc.
 * Return: the request, or NULL when none is pending.
 */
struct ecdma_ec_wr *ecdma_ec_exec_pop(struct ecdma_ec_calc *calc)
{
	struct ecdma_ec_wr *wr;
	unsigned long flags;

	spin_lock_irqsave(&calc->lock, flags);
	wr = list_first_entry_or_null(&calc->pending, struct ecdma_ec_wr,
				      node);
	if (wr)
		list_del(&wr->node);
	spin_unlock_irqrestore(&calc->lock, flags);
	return wr;
}
EXPORT_SYMBOL_GPL(ecdma_ec_exec_pop);

/**
 * ecdma_ec_exec_unpop() - put a taken, unfinished request back at the head
 * @calc: the calc
 * @wr: the oldest request taken and not completed
 *
 * Context: Any context; only from the provider's ->quiesce.
 */
void ecdma_ec_exec_unpop(struct ecdma_ec_calc *calc, struct ecdma_ec_wr *wr)
{
	unsigned long flags;

	spin_lock_irqsave(&calc->lock, flags);
	list_add(&wr->node, &calc->pending);
	spin_unlock_irqrestore(&calc->lock, flags);
}
EXPORT_SYMBOL_GPL(ecdma_ec_exec_unpop);

/**
 * ecdma_ec_exec_release() - stop being the calc's executor
 * @calc: the calc, owned by the caller
 * @busy: the caller still has a started, unfinished request
 *
 * Context: Any context; the caller owns @calc.
 * Return: work is left (pending or @busy) and the calc is not dying: kick.
 */
bool ecdma_ec_exec_release(struct ecdma_ec_calc *calc, bool busy)
{
	unsigned long flags;
	bool more;

	spin_lock_irqsave(&calc->lock, flags);
	calc->owned = false;
	more = (busy || !list_empty(&calc->pending)) && !calc->dead;
	spin_unlock_irqrestore(&calc->lock, flags);
	return more;
}
EXPORT_SYMBOL_GPL(ecdma_ec_exec_release);

/**
 * ecdma_ec_complete_list() - complete executed requests, in order
 * @calc: the calc, owned by the caller
 * @list: finished requests, oldest first; garbage after (->done may reuse)
 *
 * Runs each ->done here (polling: ecdma_ec_poll() does); no SIMD section open.
 * Context: Any context but hardirq; the caller owns @calc.
 */
void ecdma_ec_complete_list(struct ecdma_ec_calc *calc,
			    struct list_head *list)
{
	struct ecdma_ec_wr *wr, *tmp;
	unsigned long flags;
	int direct = 0;

	list_for_each_entry(wr, list, node) {
		const struct ecdma_ec_mem *mem = wr->mem;

		ecdma_ec_stat_add(calc, ECDMA_EC_STAT_OPS + wr->opcode, 1);
		if (mem && wr->opcode != ECDMA_EC_OP_NOP)
			ecdma_ec_stat_add(calc, ECDMA_EC_STAT_BYTES + wr->opcode,
					  (u64)mem->block_size *
					  (mem->num_data_sge +
					   mem->num_code_sge));
		if (wr->status)
			ecdma_ec_stat_add(calc, ECDMA_EC_STAT_ERRORS, 1);
		trace_ecdma_ec_complete(calc, wr, wr->status);
	}

	spin_lock_irqsave(&calc->lock, flags);
	list_for_each_entry_safe(wr, tmp, list, node) {
		if (calc->polling && wr->done != ecdma_ec_sync_done)
			list_move_tail(&wr->node, &calc->completed);
		else
			direct++;
	}
	calc->inflight -= direct;
	spin_unlock_irqrestore(&calc->lock, flags);

	/* ->done may repost its request: don't touch it afterwards */
	list_for_each_entry_safe(wr, tmp, list, node)
		if (wr->done)
			wr->done(wr);
}
EXPORT_SYMBOL_GPL(ecdma_ec_complete_list);

static void ecdma_ec_comp_done(struct ecdma_ec_wr *wr)
{
	struct ecdma_ec_comp *comp = container_of(wr, struct ecdma_ec_comp,
						  wr);

	comp->status = wr->status;
	comp->done(comp);
}

static int ecdma_ec_comp_post(struct ecdma_ec_calc *calc,
			      struct ecdma_ec_comp *comp,
			      const struct ecdma_ec_wr *tmpl)
{
	if (!comp || !comp->done)
		return -EINVAL;
	comp->wr = *tmpl;
	comp->wr.done = ecdma_ec_comp_done;
	comp->wr.ctx = comp;
	return ecdma_ec_post(calc, &comp->wr);
}

/**
 * ecdma_ec_encode_async() - encode (ibv_exp_ec_encode_async)
 * @calc: the calc
 * @mem: k data blocks in, m code blocks out
 * @comp: completion; comp->done runs like a ->done, comp->status set
 *
 * Context: Any context.
 * Return: as ecdma_ec_post(); -EINVAL also for a @comp without ->done.
 */
int ecdma_ec_encode_async(struct ecdma_ec_calc *calc, struct ecdma_ec_mem *mem,
			  struct ecdma_ec_comp *comp)
{
	const struct ecdma_ec_wr wr = {
		.opcode = ECDMA_EC_OP_ENCODE,
		.mem = mem,
	};

	return ecdma_ec_comp_post(calc, comp, &wr);
}
EXPORT_SYMBOL_GPL(ecdma_ec_encode_async);

/**
 * ecdma_ec_encode_sync() - encode and wait (ibv_exp_ec_encode_sync)
 * @calc: the calc
 * @mem: k data blocks in, m code blocks out
 *
 * Context: Process context; sleeps.
 * Return: as ecdma_ec_post_sync().
 */
int ecdma_ec_encode_sync(struct ecdma_ec_calc *calc, struct ecdma_ec_mem *mem)
{
	struct ecdma_ec_wr wr = {
		.opcode = ECDMA_EC_OP_ENCODE,
		.mem = mem,
	};

	return ecdma_ec_post_sync(calc, &wr);
}
EXPORT_SYMBOL_GPL(ecdma_ec_encode_sync);

/**
 * ecdma_ec_decode_async() - recover erased blocks (ibv_exp_ec_decode_async)
 * @calc: the calc
 * @mem: all k data and m code blocks
 * @erasures: k + m bytes, non-zero = erased (at most m)
 * @decode_matrix: k x (number of erasures), or NULL to use the calc matrix
 * @comp: completion
 *
 * Context: Any context.
 * Return: as ecdma_ec_post(); -EINVAL also for a @comp without ->done.
 */
int ecdma_ec_decode_async(struct ecdma_ec_calc *calc, struct ecdma_ec_mem *mem,
			  const u8 *erasures, const u8 *decode_matrix,
			  struct ecdma_ec_comp *comp)
{
	const struct ecdma_ec_wr wr = {
		.opcode = ECDMA_EC_OP_DECODE,
		.mem = mem,
		.erasures = erasures,
		.matrix = decode_matrix,
	};

	return ecdma_ec_comp_post(calc, comp, &wr);
}
EXPORT_SYMBOL_GPL(ecdma_ec_decode_async);

/**
 * ecdma_ec_decode_sync() - recover erased blocks and wait
 * @calc: the calc
 * @mem: all k data and m code blocks
 * @erasures: k + m bytes, non-zero = erased (at most m)
 * @decode_matrix: k x (number of erasures), or NULL
 *
 * Context: Process context; sleeps.
 * Return: as ecdma_ec_post_sync().
 */
int ecdma_ec_decode_sync(struct ecdma_ec_calc *calc, struct ecdma_ec_mem *mem,
			 const u8 *erasures, const u8 *decode_matrix)
{
	struct ecdma_ec_wr wr = {
		.opcode = ECDMA_EC_OP_DECODE,
		.mem = mem,
		.erasures = erasures,
		.matrix = decode_matrix,
	};

	return ecdma_ec_post_sync(calc, &wr);
}
EXPORT_SYMBOL_GPL(ecdma_ec_decode_sync);

/**
 * ecdma_ec_update_async() - update code blocks (ibv_exp_ec_update_async)
 * @calc: the calc
 * @mem: see struct ecdma_ec_wr (@code_updates) for the layout
 * @data_updates: k bytes, non-zero = data block changed
 * @code_updates: m bytes, non-zero = code block to update
 * @comp: completion
 *
 * Context: Any context.
 * Return: as ecdma_ec_post(); -EINVAL also for a @comp without ->done.
 */
int ecdma_ec_update_async(struct ecdma_ec_calc *calc, struct ecdma_ec_mem *mem,
			  const u8 *data_updates, const u8 *code_updates,
			  struct ecdma_ec_comp *comp)
{
	const struct ecdma_ec_wr wr = {
		.opcode = ECDMA_EC_OP_UPDATE,
		.mem = mem,
		.data_updates = data_updates,
		.code_updates = code_updates,
	};

	return ecdma_ec_comp_post(calc, comp, &wr);
}
EXPORT_SYMBOL_GPL(ecdma_ec_update_async);

/**
 * ecdma_ec_update_sync() - update code blocks and wait
 * @calc: the calc
 * @mem: see struct ecdma_ec_wr (@code_updates) for the layout
 * @data_updates: k bytes, non-zero = data block changed
 * @code_updates: m bytes, non-zero = code block to update
 *
 * Context: Process context; sleeps.
 * Return: as ecdma_ec_post_sync().
 */
int ecdma_ec_update_sync(struct ecdma_ec_calc *calc, struct ecdma_ec_mem *mem,
			 const u8 *data_updates, const u8 *code_updates)
{
	struct ecdma_ec_wr wr = {
		.opcode = ECDMA_EC_OP_UPDATE,
		.mem = mem,
		.data_updates = data_updates,
		.code_updates = code_updates,
	};

	return ecdma_ec_post_sync(calc, &wr);
}
EXPORT_SYMBOL_GPL(ecdma_ec_update_sync);
