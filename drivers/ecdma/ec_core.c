// SPDX-License-Identifier: GPL-2.0
/* ecdma EC verbs core: providers, calcs, dealloc; posting is in ec_post.c */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/error-injection.h>
#include <linux/export.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "ec_priv.h"
#include "ecdma_trace.h"
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
	/* MDS checked up to the cap (cost); past it, bad DECODEs get -EINVAL */
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
	trace_ecdma_ec_calc_alloc(calc);
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
		trace_ecdma_ec_complete(calc, wr, wr->status);
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
	trace_ecdma_ec_calc_free(calc);

	spin_lock_irqsave(&calc->lock, flags);
	calc->dead = true;
	spin_unlock_irqrestore(&calc->lock, flags);
	/* kicks decided before "dead" run with preemption off: wait them out */
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
 * ecdma_ec_provider_dma_dev() - the device a provider's blocks are mapped for
 * @prov: the provider
 *
 * Context: Any context.
 * Return: NULL when blocks are kernel virtual addresses (the CPU provider),
 * else the device whose DMA addresses the provider's blocks must be.
 */
struct device *ecdma_ec_provider_dma_dev(const struct ecdma_ec_provider *prov)
{
	return prov->dma_dev;
}
EXPORT_SYMBOL_GPL(ecdma_ec_provider_dma_dev);

/**
 * ecdma_ec_calc_priv() - a provider's state of a calc
 * @calc: the calc
 *
 * Context: Any context.
 * Return: what the provider's ->calc_init set, or NULL.
 */
void *ecdma_ec_calc_priv(const struct ecdma_ec_calc *calc)
{
	return calc->prov_priv;
}
EXPORT_SYMBOL_GPL(ecdma_ec_calc_priv);

/**
 * ecdma_ec_calc_set_priv() - set a provider's state of a calc
 * @calc: the calc, in the provider's ->calc_init or ->calc_destroy
 * @priv: the state
 */
void ecdma_ec_calc_set_priv(struct ecdma_ec_calc *calc, void *priv)
{
	calc->prov_priv = priv;
}
EXPORT_SYMBOL_GPL(ecdma_ec_calc_set_priv);

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
