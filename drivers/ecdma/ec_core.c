// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma EC verbs core (include/ecdma/ec.h): provider registry, calcs, posting,
 * completion, executor ownership, dealloc and counters.  Only a calc's owner
 * pops WRs and completes them in that order, so completions follow submission
 * order; ->done runs exactly once (dealloc cancels what has not run).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/error-injection.h>
#include <linux/export.h>
#include <linux/hardirq.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "ec_priv.h"
#include "gf.h"

static DEFINE_MUTEX(ecdma_ec_providers_lock); /* guards ecdma_ec_providers */
static LIST_HEAD(ecdma_ec_providers);

const char *const ecdma_ec_stat_names[ECDMA_EC_STAT_NR] = {
	[ECDMA_EC_STAT_OPS + ECDMA_EC_OP_NOP] = "ops_nop",
	[ECDMA_EC_STAT_OPS + ECDMA_EC_OP_ENCODE] = "ops_encode",
	[ECDMA_EC_STAT_OPS + ECDMA_EC_OP_DECODE] = "ops_decode",
	[ECDMA_EC_STAT_OPS + ECDMA_EC_OP_UPDATE] = "ops_update",
	[ECDMA_EC_STAT_OPS + ECDMA_EC_OP_VALIDATE] = "ops_validate",
	[ECDMA_EC_STAT_OPS + ECDMA_EC_OP_COPY] = "ops_copy",
	[ECDMA_EC_STAT_BYTES + ECDMA_EC_OP_NOP] = "bytes_nop",
	[ECDMA_EC_STAT_BYTES + ECDMA_EC_OP_ENCODE] = "bytes_encode",
	[ECDMA_EC_STAT_BYTES + ECDMA_EC_OP_DECODE] = "bytes_decode",
	[ECDMA_EC_STAT_BYTES + ECDMA_EC_OP_UPDATE] = "bytes_update",
	[ECDMA_EC_STAT_BYTES + ECDMA_EC_OP_VALIDATE] = "bytes_validate",
	[ECDMA_EC_STAT_BYTES + ECDMA_EC_OP_COPY] = "bytes_copy",
	[ECDMA_EC_STAT_ERRORS] = "errors",
	[ECDMA_EC_STAT_CANCELED] = "canceled",
	[ECDMA_EC_STAT_POST_REJECTED] = "post_rejected",
	[ECDMA_EC_STAT_POST_OVERFLOW] = "post_overflow",
	[ECDMA_EC_STAT_WORKER_OPS] = "worker_ops",
	[ECDMA_EC_STAT_INLINE_OPS] = "inline_ops",
	[ECDMA_EC_STAT_INLINE_CALLS] = "inline_calls",
	[ECDMA_EC_STAT_SECTIONS] = "sections",
	[ECDMA_EC_STAT_FAST_PQ_BYTES] = "fast_pq_bytes",
	[ECDMA_EC_STAT_FAST_XOR_BYTES] = "fast_xor_bytes",
	[ECDMA_EC_STAT_GF_BYTES] = "gf_bytes",
	[ECDMA_EC_STAT_NOFPU_BYTES] = "nofpu_bytes",
	[ECDMA_EC_STAT_FPU_SECTIONS] = "fpu_sections",
	[ECDMA_EC_STAT_NT_BYTES] = "nt_bytes",
	[ECDMA_EC_STAT_DEC_HITS] = "decode_cache_hits",
	[ECDMA_EC_STAT_DEC_MISSES] = "decode_cache_misses",
};
EXPORT_SYMBOL_GPL(ecdma_ec_stat_names);

static struct ecdma_ec_provider *ecdma_ec_provider_find(const char *name)
{
	struct ecdma_ec_provider *prov;

	lockdep_assert_held(&ecdma_ec_providers_lock);
	list_for_each_entry(prov, &ecdma_ec_providers, node)
		if (!name || !strcmp(prov->name, name))
			return prov;
	return NULL;
}

/**
 * ecdma_ec_provider_register() - make a provider available
 * @prov: filled-in provider (name, ops, owner, caps)
 *
 * Context: Process context; takes a mutex.
 * Return: 0, -EINVAL for an incomplete @prov, -EEXIST for a taken name.
 */
int ecdma_ec_provider_register(struct ecdma_ec_provider *prov)
{
	const struct ecdma_ec_provider_ops *ops = prov ? prov->ops : NULL;
	int ret = 0;

	if (!ops || !prov->name || !ops->calc_init || !ops->calc_destroy ||
	    !ops->kick || !ops->quiesce)
		return -EINVAL;

	mutex_lock(&ecdma_ec_providers_lock);
	if (ecdma_ec_provider_find(prov->name)) {
		ret = -EEXIST;
	} else {
		refcount_set(&prov->users, 1);
		list_add_tail(&prov->node, &ecdma_ec_providers);
	}
	mutex_unlock(&ecdma_ec_providers_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(ecdma_ec_provider_register);

/**
 * ecdma_ec_provider_unregister() - withdraw a provider
 * @prov: a registered provider with no references left (gets, calcs)
 *
 * Context: Process context; takes a mutex.
 */
void ecdma_ec_provider_unregister(struct ecdma_ec_provider *prov)
{
	mutex_lock(&ecdma_ec_providers_lock);
	list_del(&prov->node);
	mutex_unlock(&ecdma_ec_providers_lock);
	WARN(!refcount_dec_and_test(&prov->users),
	     "EC provider %s unregistered while in use\n", prov->name);
}
EXPORT_SYMBOL_GPL(ecdma_ec_provider_unregister);

/**
 * ecdma_ec_provider_get() - take a reference on a provider
 * @name: provider name ("cpu"), or NULL for the default (first registered)
 *
 * Context: Process context; takes a mutex.
 * Return: the provider, or ERR_PTR(-ENODEV): no such name or module going.
 */
struct ecdma_ec_provider *ecdma_ec_provider_get(const char *name)
{
	struct ecdma_ec_provider *prov;

	mutex_lock(&ecdma_ec_providers_lock);
	prov = ecdma_ec_provider_find(name);
	if (prov && try_module_get(prov->owner))
		refcount_inc(&prov->users);
	else
		prov = ERR_PTR(-ENODEV);
	mutex_unlock(&ecdma_ec_providers_lock);
	return prov;
}
EXPORT_SYMBOL_GPL(ecdma_ec_provider_get);

/**
 * ecdma_ec_provider_put() - drop a reference from ecdma_ec_provider_get()
 * @prov: the provider; NULL or an ERR_PTR are ignored
 *
 * Context: Any context.
 */
void ecdma_ec_provider_put(struct ecdma_ec_provider *prov)
{
	if (IS_ERR_OR_NULL(prov))
		return;
	refcount_dec(&prov->users);
	module_put(prov->owner);
}
EXPORT_SYMBOL_GPL(ecdma_ec_provider_put);

/**
 * ecdma_ec_query_caps() - what a provider supports
 * @prov: the provider
 * @caps: filled in
 *
 * Context: Any context.
 * Return: 0, or -EINVAL for a NULL argument.
 */
int ecdma_ec_query_caps(struct ecdma_ec_provider *prov,
			struct ecdma_ec_caps *caps)
{
	if (IS_ERR_OR_NULL(prov) || !caps)
		return -EINVAL;
	*caps = prov->caps;
	return 0;
}
EXPORT_SYMBOL_GPL(ecdma_ec_query_caps);

/**
 * ecdma_ec_provider_list() - one "<name> <users>" line per provider
 * @buf: a sysfs buffer (PAGE_SIZE)
 *
 * Context: Process context (takes the registry mutex).
 * Return: bytes written to @buf.
 */
int ecdma_ec_provider_list(char *buf)
{
	struct ecdma_ec_provider *prov;
	int len = 0;

	mutex_lock(&ecdma_ec_providers_lock);
	list_for_each_entry(prov, &ecdma_ec_providers, node)
		len += sysfs_emit_at(buf, len, "%s %u\n", prov->name,
				     refcount_read(&prov->users));
	mutex_unlock(&ecdma_ec_providers_lock);
	return len;
}

static int ecdma_ec_make_matrix(struct ecdma_ec_calc *calc,
				const struct ecdma_ec_calc_attr *attr)
{
	u8 scratch[ECDMA_GF_MDS_SCRATCH];
	int k = attr->k, m = attr->m;

	if (attr->matrix_type != ECDMA_EC_MATRIX_USER)
		return ecdma_gf_gen_matrix(attr->matrix_type, k, m,
					   calc->matrix) ? -EINVAL : 0;

	memcpy(calc->matrix, attr->encode_matrix, (size_t)k * m);
	/*
	 * A user code must be MDS; past ECDMA_GF_MDS_MAX_MINORS the check costs
	 * too much, so it is trusted and a DECODE it cannot serve gets -EINVAL.
	 */
	if (ecdma_gf_mds_minors(k, m) <= ECDMA_GF_MDS_MAX_MINORS &&
	    !ecdma_gf_matrix_is_mds(calc->matrix, k, m, scratch))
		return -EINVAL;
	return 0;
}

/**
 * ecdma_ec_alloc_calc() - make a calc context
 * @prov: provider (the calc takes its own reference)
 * @attr: attributes; @attr->encode_matrix is copied
 *
 * Context: Process context; may sleep (GFP_KERNEL allocations).
 * Return: the calc; ERR_PTR(-EINVAL) for bad @attr (e.g. non-MDS), -ENOMEM.
 */
struct ecdma_ec_calc *ecdma_ec_alloc_calc(struct ecdma_ec_provider *prov,
					  const struct ecdma_ec_calc_attr *attr)
{
	struct ecdma_ec_calc *calc;
	int ret;

	might_sleep();
	if (IS_ERR_OR_NULL(prov))
		return ERR_PTR(-EINVAL);
	ret = ecdma_ec_validate_attr(&prov->caps, attr);
	if (ret)
		return ERR_PTR(ret);
	if (attr->affinity_hint >= (int)nr_cpu_ids ||
	    (attr->affinity_hint >= 0 &&
	     !cpu_possible(attr->affinity_hint)))
		return ERR_PTR(-EINVAL);

	calc = kzalloc(sizeof(*calc), GFP_KERNEL);
	if (!calc)
		return ERR_PTR(-ENOMEM);
	calc->prov = prov;
	calc->k = attr->k;
	calc->m = attr->m;
	calc->max_inflight = attr->max_inflight;
	calc->affinity = attr->affinity_hint;
	calc->polling = attr->polling;
	spin_lock_init(&calc->lock);
	INIT_LIST_HEAD(&calc->pending);
	INIT_LIST_HEAD(&calc->completed);

	calc->matrix = kmalloc_array(attr->k, attr->m, GFP_KERNEL);
	if (!calc->matrix) {
		ret = -ENOMEM;
		goto err_free_calc;
	}
	ret = ecdma_ec_make_matrix(calc, attr);
	if (ret)
		goto err_free_matrix;

	/* the caller holds a reference, so these cannot fail */
	__module_get(prov->owner);
	refcount_inc(&prov->users);

	ret = prov->ops->calc_init(calc);
	if (ret)
		goto err_put_provider;
	return calc;

err_put_provider:
	ecdma_ec_provider_put(prov);
err_free_matrix:
	kfree(calc->matrix);
err_free_calc:
	kfree(calc);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(ecdma_ec_alloc_calc);
ALLOW_ERROR_INJECTION(ecdma_ec_alloc_calc, ERRNO);

static void ecdma_ec_flush(struct ecdma_ec_calc *calc, struct list_head *list,
			   struct list_head *cancel)
{
	struct ecdma_ec_wr *wr, *tmp;

	list_for_each_entry_safe(wr, tmp, list, node) {
		list_del(&wr->node);
		if (wr->done)
			wr->done(wr);
	}
	list_for_each_entry_safe(wr, tmp, cancel, node) {
		list_del(&wr->node);
		wr->status = -ECANCELED;
		wr->result = 0;
		ecdma_ec_stat_add(calc, ECDMA_EC_STAT_CANCELED, 1);
		if (wr->done)
			wr->done(wr);
	}
}

/**
 * ecdma_ec_dealloc_calc() - tear down a calc context
 * @calc: the calc; NULL or an ERR_PTR are ignored
 *
 * Fails new posts (-ESHUTDOWN), waits out the executor, then runs ->done here,
 * in order: unreaped polling completions (own status), the rest -ECANCELED.
 * None runs after return.  Not from a ->done; no call on @calc may follow.
 * Context: Process context; sleeps (an RCU grace period at least).
 */
void ecdma_ec_dealloc_calc(struct ecdma_ec_calc *calc)
{
	struct ecdma_ec_provider *prov;
	unsigned long flags;
	LIST_HEAD(completed);
	LIST_HEAD(cancel);
	bool owned;

	might_sleep();
	if (IS_ERR_OR_NULL(calc))
		return;
	prov = calc->prov;

	spin_lock_irqsave(&calc->lock, flags);
	calc->dead = true;
	spin_unlock_irqrestore(&calc->lock, flags);
	/*
	 * Posts and executors decide to kick under calc->lock and kick before
	 * re-enabling preemption: now every kick decided before "dead" is out.
	 */
	synchronize_rcu();

	/* an owner finishes a bounded section and cannot come back */
	for (;;) {
		spin_lock_irqsave(&calc->lock, flags);
		owned = calc->owned;
		spin_unlock_irqrestore(&calc->lock, flags);
		if (!owned)
			break;
		usleep_range(10, 100);
	}
	prov->ops->quiesce(calc);

	spin_lock_irqsave(&calc->lock, flags);
	list_splice_init(&calc->completed, &completed);
	list_splice_init(&calc->pending, &cancel);
	calc->inflight = 0;
	spin_unlock_irqrestore(&calc->lock, flags);
	ecdma_ec_flush(calc, &completed, &cancel);

	prov->ops->calc_destroy(calc);
	ecdma_ec_provider_put(prov);
	kfree(calc->matrix);
	kfree(calc);
}
EXPORT_SYMBOL_GPL(ecdma_ec_dealloc_calc);

/**
 * ecdma_ec_calc_k() - data blocks of a calc
 * @calc: the calc
 *
 * Context: Any context.
 * Return: k.
 */
int ecdma_ec_calc_k(const struct ecdma_ec_calc *calc)
{
	return calc->k;
}
EXPORT_SYMBOL_GPL(ecdma_ec_calc_k);

/**
 * ecdma_ec_calc_m() - code blocks of a calc
 * @calc: the calc
 *
 * Context: Any context.
 * Return: m.
 */
int ecdma_ec_calc_m(const struct ecdma_ec_calc *calc)
{
	return calc->m;
}
EXPORT_SYMBOL_GPL(ecdma_ec_calc_m);

/**
 * ecdma_ec_calc_polling() - whether a calc completes only through polling
 * @calc: the calc
 *
 * Context: Any context.
 * Return: attr->polling: its ->done callbacks run only in ecdma_ec_poll().
 */
bool ecdma_ec_calc_polling(const struct ecdma_ec_calc *calc)
{
	return calc->polling;
}
EXPORT_SYMBOL_GPL(ecdma_ec_calc_polling);

/**
 * ecdma_ec_calc_cpu() - the CPU a calc's work runs on
 * @calc: the calc
 *
 * Context: Any context.
 * Return: the affinity_hint (last ecdma_ec_calc_set_cpu()), -1 for none.
 */
int ecdma_ec_calc_cpu(const struct ecdma_ec_calc *calc)
{
	return READ_ONCE(calc->affinity);
}
EXPORT_SYMBOL_GPL(ecdma_ec_calc_cpu);

/**
 * ecdma_ec_calc_provider() - the provider serving a calc
 * @calc: the calc
 *
 * Context: Any context.
 * Return: the provider it was allocated on (referenced by the calc).
 */
struct ecdma_ec_provider *ecdma_ec_calc_provider(const struct ecdma_ec_calc *calc)
{
	return calc->prov;
}
EXPORT_SYMBOL_GPL(ecdma_ec_calc_provider);

/**
 * ecdma_ec_calc_inflight() - work requests a calc holds
 * @calc: the calc
 *
 * Context: Any context.
 * Return: racy count of WRs posted and not completed (polling: not reaped).
 */
unsigned int ecdma_ec_calc_inflight(const struct ecdma_ec_calc *calc)
{
	/* racy by design: a snapshot for reports */
	return data_race(calc->inflight);
}
EXPORT_SYMBOL_GPL(ecdma_ec_calc_inflight);

/**
 * ecdma_ec_provider_name() - a provider's name
 * @prov: the provider
 *
 * Context: Any context.
 * Return: the name it registered under.
 */
const char *ecdma_ec_provider_name(const struct ecdma_ec_provider *prov)
{
	return prov->name;
}
EXPORT_SYMBOL_GPL(ecdma_ec_provider_name);

/**
 * ecdma_ec_calc_matrix() - the encode matrix of a calc
 * @calc: the calc
 *
 * Context: Any context.
 * Return: k x m bytes, verbs layout, valid until the calc is deallocated.
 */
const u8 *ecdma_ec_calc_matrix(const struct ecdma_ec_calc *calc)
{
	return calc->matrix;
}
EXPORT_SYMBOL_GPL(ecdma_ec_calc_matrix);

/**
 * ecdma_ec_calc_stats() - read the counters of a calc
 * @calc: the calc
 * @vals: ECDMA_EC_STAT_NR values out, indexed by enum ecdma_ec_stat
 *
 * Context: Any context; racy while work runs (values untorn on 64-bit).
 */
void ecdma_ec_calc_stats(const struct ecdma_ec_calc *calc, u64 *vals)
{
	int i;

	for (i = 0; i < ECDMA_EC_STAT_NR; i++)
		vals[i] = READ_ONCE(calc->stats[i]);
	if (calc->prov->ops->stats)
		calc->prov->ops->stats(calc, vals);
}
EXPORT_SYMBOL_GPL(ecdma_ec_calc_stats);

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
 * Queues a valid @wr (ecdma_ec_validate_wr()) behind earlier ones; ->done
 * sees status and result set.  Never sleeps or allocates; no change on error.
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
 * Executes it (and what is queued before it) here when the calc is idle,
 * else waits for the provider.  Needs no ecdma_ec_poll() on a polling calc.
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
 * Runs ->done of up to @budget completed requests, oldest first; executes
 * nothing (see ecdma_ec_progress()).  Callers serialize per calc.
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
 * Runs a bounded batch of pending work here (polling: to the poll list) unless
 * another, never preempted, executor has it; spin-waiters may loop on it.
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

/**
 * ecdma_ec_complete_list() - complete executed requests, in order
 * @calc: the calc, owned by the caller
 * @list: finished requests, oldest first; garbage after (->done may reuse)
 *
 * Counts them and runs each ->done here (polling calcs: queued for
 * ecdma_ec_poll(), except ecdma_ec_post_sync()'s).  No SIMD section open.
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

/**
 * ecdma_ec_core_init() - bring up the EC verbs core
 * Context: Module init, before any provider registers.
 * Return: 0 or a negative errno.
 */
int ecdma_ec_core_init(void)
{
	int i;

	for (i = 0; i < ECDMA_EC_STAT_NR; i++)
		if (WARN_ON(!ecdma_ec_stat_names[i]))
			return -EINVAL;
	return 0;
}

/**
 * ecdma_ec_core_exit() - tear down the EC verbs core
 * Context: Module exit; every provider must have unregistered.
 */
void ecdma_ec_core_exit(void)
{
	WARN_ON(!list_empty(&ecdma_ec_providers));
}
