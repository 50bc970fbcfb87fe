// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma sysfs, the per-channel kobjects: stats/, stats/chan<N>/ and chan<N>/
 * (map in sysfs.c).  Counters are per-CPU in the hot path and added up here,
 * one value per file (latency_hist: one array).
 */
#include <linux/cpu.h>
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/time.h>

#include "ec_priv.h"
#include "front.h"

enum ecdma_stat_kind {
	ECDMA_STAT_OPS,
	ECDMA_STAT_BYTES,
	ECDMA_STAT_ERRORS,
	ECDMA_STAT_INLINE,
	ECDMA_STAT_FAULTS,
	ECDMA_STAT_FALLBACKS,
	ECDMA_STAT_RESCUED,
	ECDMA_STAT_CB_AT_SUBMIT,
	ECDMA_STAT_FUSED,
	ECDMA_STAT_PREP_FULL,
	ECDMA_STAT_PREP_PACED,
	ECDMA_STAT_CB_RELEASED,
	ECDMA_STAT_HELD,	/* a gauge: ecdma_chan.nr_held */
	ECDMA_STAT_EC,		/* @op: enum ecdma_ec_stat of the calcs */
};

/**
 * struct ecdma_stat_attr - one counter file
 * @attr: the attribute
 * @kind: enum ecdma_stat_kind
 * @op: enum ecdma_op_type for the per-op kinds, enum ecdma_ec_stat for EC
 */
struct ecdma_stat_attr {
	struct kobj_attribute attr;
	u8 kind;
	u8 op;
};

static u64 ecdma_stat_pick(const struct ecdma_chan_stats *s,
			   const struct ecdma_stat_attr *sa)
{
	switch (sa->kind) {
	case ECDMA_STAT_OPS:
		return s->ops[sa->op];
	case ECDMA_STAT_BYTES:
		return s->bytes[sa->op];
	case ECDMA_STAT_ERRORS:
		return s->errors[sa->op];
	case ECDMA_STAT_FAULTS:
		return s->faults;
	case ECDMA_STAT_FALLBACKS:
		return s->fallbacks;
	case ECDMA_STAT_RESCUED:
		return s->rescued;
	case ECDMA_STAT_CB_AT_SUBMIT:
		return s->cb_at_submit;
	case ECDMA_STAT_FUSED:
		return s->fused;
	case ECDMA_STAT_PREP_FULL:
		return s->prep_full;
	case ECDMA_STAT_PREP_PACED:
		return s->prep_paced;
	case ECDMA_STAT_CB_RELEASED:
		return s->cb_released;
	default:
		return s->inline_progress;
	}
}

/* The channels reported by a stats directory: all, or one */
static void ecdma_stats_range(struct ecdma_stats_kobj *sk, unsigned int *first,
			      unsigned int *last)
{
	*first = sk->chan < 0 ? 0 : sk->chan;
	*last = sk->chan < 0 ? sk->front->nr_chans : sk->chan + 1;
}

/* A counter of the channels' EC calcs; cfg_lock keeps the calcs alive. */
static u64 ecdma_stat_ec(struct ecdma_stats_kobj *sk, unsigned int idx)
{
	struct ecdma_front *front = sk->front;
	u64 vals[ECDMA_EC_STAT_NR], val = 0;
	unsigned int i, first, last;

	ecdma_stats_range(sk, &first, &last);
	mutex_lock(&front->cfg_lock);
	for (i = first; i < last; i++) {
		ecdma_ec_calc_stats(front->chans[i].calc, vals);
		val += vals[idx];
	}
	mutex_unlock(&front->cfg_lock);
	return val;
}

static ssize_t ecdma_stat_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	struct ecdma_stats_kobj *sk = container_of(kobj, struct ecdma_stats_kobj,
						   kobj);
	struct ecdma_stat_attr *sa = container_of(attr, struct ecdma_stat_attr,
						  attr);
	struct ecdma_front *front = sk->front;
	struct ecdma_chan_stats s;
	unsigned int i, first, last;
	u64 val = 0;

	if (sa->kind == ECDMA_STAT_EC)
		return sysfs_emit(buf, "%llu\n", ecdma_stat_ec(sk, sa->op));
	ecdma_stats_range(sk, &first, &last);
	for (i = first; i < last; i++) {
		if (sa->kind == ECDMA_STAT_HELD) {
			val += READ_ONCE(front->chans[i].nr_held);
			continue;
		}
		ecdma_chan_stats_sum(&front->chans[i], &s);
		val += ecdma_stat_pick(&s, sa);
	}
	return sysfs_emit(buf, "%llu\n", val);
}

#define ECDMA_STAT_ATTR(_name, _kind, _op)				\
static struct ecdma_stat_attr ecdma_stat_##_name = {			\
	.attr = __ATTR(_name, 0444, ecdma_stat_show, NULL),		\
	.kind = ECDMA_STAT_##_kind,					\
	.op = ECDMA_OP_##_op,						\
}

ECDMA_STAT_ATTR(memcpy_ops, OPS, MEMCPY);
ECDMA_STAT_ATTR(memcpy_bytes, BYTES, MEMCPY);
ECDMA_STAT_ATTR(memcpy_errors, ERRORS, MEMCPY);
ECDMA_STAT_ATTR(xor_ops, OPS, XOR);
ECDMA_STAT_ATTR(xor_bytes, BYTES, XOR);
ECDMA_STAT_ATTR(xor_errors, ERRORS, XOR);
ECDMA_STAT_ATTR(xor_val_ops, OPS, XOR_VAL);
ECDMA_STAT_ATTR(xor_val_bytes, BYTES, XOR_VAL);
ECDMA_STAT_ATTR(xor_val_errors, ERRORS, XOR_VAL);
ECDMA_STAT_ATTR(pq_ops, OPS, PQ);
ECDMA_STAT_ATTR(pq_bytes, BYTES, PQ);
ECDMA_STAT_ATTR(pq_errors, ERRORS, PQ);
ECDMA_STAT_ATTR(pq_val_ops, OPS, PQ_VAL);
ECDMA_STAT_ATTR(pq_val_bytes, BYTES, PQ_VAL);
ECDMA_STAT_ATTR(pq_val_errors, ERRORS, PQ_VAL);
ECDMA_STAT_ATTR(interrupt_ops, OPS, INTERRUPT);
ECDMA_STAT_ATTR(interrupt_bytes, BYTES, INTERRUPT);
ECDMA_STAT_ATTR(interrupt_errors, ERRORS, INTERRUPT);
ECDMA_STAT_ATTR(inline_progress, INLINE, NR);
ECDMA_STAT_ATTR(faults, FAULTS, NR);
ECDMA_STAT_ATTR(fallbacks, FALLBACKS, NR);
ECDMA_STAT_ATTR(rescued, RESCUED, NR);
ECDMA_STAT_ATTR(cb_at_submit, CB_AT_SUBMIT, NR);
ECDMA_STAT_ATTR(fused, FUSED, NR);
ECDMA_STAT_ATTR(prep_full, PREP_FULL, NR);
ECDMA_STAT_ATTR(prep_paced, PREP_PACED, NR);
ECDMA_STAT_ATTR(unacked_held, HELD, NR);
ECDMA_STAT_ATTR(cb_released, CB_RELEASED, NR);

#define ECDMA_STAT_EC_ATTR(_name, _idx)					\
static struct ecdma_stat_attr ecdma_stat_##_name = {			\
	.attr = __ATTR(_name, 0444, ecdma_stat_show, NULL),		\
	.kind = ECDMA_STAT_EC,						\
	.op = ECDMA_EC_STAT_##_idx,					\
}

ECDMA_STAT_EC_ATTR(worker_ops, WORKER_OPS);
ECDMA_STAT_EC_ATTR(inline_ops, INLINE_OPS);
ECDMA_STAT_EC_ATTR(fast_pq_bytes, FAST_PQ_BYTES);
ECDMA_STAT_EC_ATTR(fast_xor_bytes, FAST_XOR_BYTES);
ECDMA_STAT_EC_ATTR(gf_bytes, GF_BYTES);
ECDMA_STAT_EC_ATTR(nofpu_bytes, NOFPU_BYTES);
ECDMA_STAT_EC_ATTR(fpu_sections, FPU_SECTIONS);
ECDMA_STAT_EC_ATTR(nt_bytes, NT_BYTES);

static ssize_t queue_depth_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	struct ecdma_stats_kobj *sk = container_of(kobj, struct ecdma_stats_kobj,
						   kobj);
	unsigned int i, first, last, depth = 0;

	ecdma_stats_range(sk, &first, &last);
	for (i = first; i < last; i++)
		depth += READ_ONCE(sk->front->chans[i].nr_pending);
	return sysfs_emit(buf, "%u\n", depth);
}

static struct kobj_attribute ecdma_stat_queue_depth = __ATTR_RO(queue_depth);

/* Pacing (dma.c, ecdma_chan_pace()): the work queued now */
static ssize_t queued_bytes_show(struct kobject *kobj,
				 struct kobj_attribute *attr, char *buf)
{
	struct ecdma_stats_kobj *sk = container_of(kobj, struct ecdma_stats_kobj,
						   kobj);
	unsigned int i, first, last;
	u64 bytes = 0;

	ecdma_stats_range(sk, &first, &last);
	for (i = first; i < last; i++)
		bytes += READ_ONCE(sk->front->chans[i].q_bytes);
	return sysfs_emit(buf, "%llu\n", bytes);
}

static struct kobj_attribute ecdma_stat_queued_bytes = __ATTR_RO(queued_bytes);

/* the queue at which prep refuses async_tx work; per channel only */
static ssize_t queue_limit_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	struct ecdma_stats_kobj *sk = container_of(kobj, struct ecdma_stats_kobj,
						   kobj);
	u64 limit = READ_ONCE(sk->front->chans[sk->chan].q_max);

	return sysfs_emit(buf, "%llu\n", limit ?: ECDMA_PACE_MIN);
}

static struct kobj_attribute ecdma_stat_queue_limit = __ATTR_RO(queue_limit);

/* the measured drain rate, bytes per second; per channel only */
static ssize_t drain_rate_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	struct ecdma_stats_kobj *sk = container_of(kobj, struct ecdma_stats_kobj,
						   kobj);
	u64 rate = READ_ONCE(sk->front->chans[sk->chan].rate);

	return sysfs_emit(buf, "%llu\n", rate * MSEC_PER_SEC);
}

static struct kobj_attribute ecdma_stat_drain_rate = __ATTR_RO(drain_rate);

static ssize_t latency_hist_show(struct kobject *kobj,
				 struct kobj_attribute *attr, char *buf)
{
	struct ecdma_stats_kobj *sk = container_of(kobj, struct ecdma_stats_kobj,
						   kobj);
	u64 hist[ECDMA_LAT_BUCKETS] = { 0 };
	unsigned int i, b, first, last;
	struct ecdma_chan_stats s;
	int len = 0;

	ecdma_stats_range(sk, &first, &last);
	for (i = first; i < last; i++) {
		ecdma_chan_stats_sum(&sk->front->chans[i], &s);
		for (b = 0; b < ECDMA_LAT_BUCKETS; b++)
			hist[b] += s.lat[b];
	}
	for (b = 0; b < ECDMA_LAT_BUCKETS; b++)
		len += sysfs_emit_at(buf, len, "%s%llu", b ? " " : "", hist[b]);
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}

static struct kobj_attribute ecdma_stat_latency_hist = __ATTR_RO(latency_hist);

static ssize_t reset_store(struct kobject *kobj, struct kobj_attribute *attr,
			   const char *buf, size_t count)
{
	struct ecdma_stats_kobj *sk = container_of(kobj, struct ecdma_stats_kobj,
						   kobj);
	unsigned int val;
	int ret;

	ret = kstrtouint(buf, 10, &val);
	if (ret || val != 1)
		return -EINVAL;
	ecdma_front_stats_reset(sk->front);
	return count;
}

static struct kobj_attribute ecdma_stat_reset = __ATTR_WO(reset);

static ssize_t dma_chan_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	struct ecdma_stats_kobj *sk = container_of(kobj, struct ecdma_stats_kobj,
						   kobj);

	return sysfs_emit(buf, "%s\n",
			  dma_chan_name(&sk->front->chans[sk->chan].chan));
}

static struct kobj_attribute ecdma_stat_dma_chan = __ATTR_RO(dma_chan);

static struct attribute *ecdma_stats_attrs[] = {
	&ecdma_stat_memcpy_ops.attr.attr,
	&ecdma_stat_memcpy_bytes.attr.attr,
	&ecdma_stat_memcpy_errors.attr.attr,
	&ecdma_stat_xor_ops.attr.attr,
	&ecdma_stat_xor_bytes.attr.attr,
	&ecdma_stat_xor_errors.attr.attr,
	&ecdma_stat_xor_val_ops.attr.attr,
	&ecdma_stat_xor_val_bytes.attr.attr,
	&ecdma_stat_xor_val_errors.attr.attr,
	&ecdma_stat_pq_ops.attr.attr,
	&ecdma_stat_pq_bytes.attr.attr,
	&ecdma_stat_pq_errors.attr.attr,
	&ecdma_stat_pq_val_ops.attr.attr,
	&ecdma_stat_pq_val_bytes.attr.attr,
	&ecdma_stat_pq_val_errors.attr.attr,
	&ecdma_stat_interrupt_ops.attr.attr,
	&ecdma_stat_interrupt_bytes.attr.attr,
	&ecdma_stat_interrupt_errors.attr.attr,
	&ecdma_stat_inline_progress.attr.attr,
	&ecdma_stat_faults.attr.attr,
	&ecdma_stat_fallbacks.attr.attr,
	&ecdma_stat_rescued.attr.attr,
	&ecdma_stat_cb_at_submit.attr.attr,
	&ecdma_stat_fused.attr.attr,
	&ecdma_stat_prep_full.attr.attr,
	&ecdma_stat_prep_paced.attr.attr,
	&ecdma_stat_unacked_held.attr.attr,
	&ecdma_stat_cb_released.attr.attr,
	&ecdma_stat_worker_ops.attr.attr,
	&ecdma_stat_inline_ops.attr.attr,
	&ecdma_stat_fast_pq_bytes.attr.attr,
	&ecdma_stat_fast_xor_bytes.attr.attr,
	&ecdma_stat_gf_bytes.attr.attr,
	&ecdma_stat_nofpu_bytes.attr.attr,
	&ecdma_stat_fpu_sections.attr.attr,
	&ecdma_stat_nt_bytes.attr.attr,
	&ecdma_stat_queue_depth.attr,
	&ecdma_stat_queued_bytes.attr,
	&ecdma_stat_queue_limit.attr,
	&ecdma_stat_drain_rate.attr,
	&ecdma_stat_latency_hist.attr,
	&ecdma_stat_dma_chan.attr,
	&ecdma_stat_reset.attr,
	NULL,
};

/*
 * dma_chan, queue_limit and drain_rate only per channel, reset only in the
 * totals
 */
static umode_t ecdma_stats_visible(struct kobject *kobj, struct attribute *a,
				   int n)
{
	struct ecdma_stats_kobj *sk = container_of(kobj, struct ecdma_stats_kobj,
						   kobj);

	if ((a == &ecdma_stat_dma_chan.attr ||
	     a == &ecdma_stat_queue_limit.attr ||
	     a == &ecdma_stat_drain_rate.attr) && sk->chan < 0)
		return 0;
	if (a == &ecdma_stat_reset.attr && sk->chan >= 0)
		return 0;
	return a->mode;
}

static const struct attribute_group ecdma_stats_group = {
	.attrs = ecdma_stats_attrs,
	.is_visible = ecdma_stats_visible,
};
__ATTRIBUTE_GROUPS(ecdma_stats);

static void ecdma_stats_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct ecdma_stats_kobj, kobj));
}

const struct kobj_type ecdma_stats_ktype = {
	.release = ecdma_stats_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = ecdma_stats_groups,
};

/* chan<N>/: per-channel configuration */

static struct ecdma_chan *ecdma_cfg_chan(struct kobject *kobj)
{
	struct ecdma_stats_kobj *sk = container_of(kobj, struct ecdma_stats_kobj,
						   kobj);

	return &sk->front->chans[sk->chan];
}

static ssize_t cpu_show(struct kobject *kobj, struct kobj_attribute *attr,
			char *buf)
{
	struct ecdma_chan *ch = ecdma_cfg_chan(kobj);
	int cpu;

	mutex_lock(&ch->front->cfg_lock);
	cpu = ecdma_ec_calc_cpu(ch->calc);
	mutex_unlock(&ch->front->cfg_lock);
	return sysfs_emit(buf, "%d\n", cpu);
}

/* Live: the worker is queued on the new CPU from its next kick on. */
static ssize_t cpu_store(struct kobject *kobj, struct kobj_attribute *attr,
			 const char *buf, size_t count)
{
	struct ecdma_chan *ch = ecdma_cfg_chan(kobj);
	int cpu, ret;

	ret = kstrtoint(buf, 10, &cpu);
	if (ret)
		return ret;
	if (cpu < -1 || (cpu >= 0 && (cpu >= nr_cpu_ids || !cpu_online(cpu))))
		return -EINVAL;
	mutex_lock(&ch->front->cfg_lock);
	/* pinned: the offload policy leaves it there; -1 unpins */
	WRITE_ONCE(ch->pinned, cpu >= 0);
	ecdma_ec_calc_set_cpu(ch->calc, cpu);
	mutex_unlock(&ch->front->cfg_lock);
	return count;
}

static struct kobj_attribute ecdma_cfg_cpu = __ATTR_RW(cpu);

static ssize_t provider_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	struct ecdma_chan *ch = ecdma_cfg_chan(kobj);
	struct ecdma_ec_provider *prov;
	ssize_t ret;

	mutex_lock(&ch->front->cfg_lock);
	prov = ecdma_ec_calc_provider(ch->calc);
	ret = sysfs_emit(buf, "%s\n", ecdma_ec_provider_name(prov));
	mutex_unlock(&ch->front->cfg_lock);
	return ret;
}

/* Needs the channel idle: a new calc on the named provider. */
static ssize_t provider_store(struct kobject *kobj, struct kobj_attribute *attr,
			      const char *buf, size_t count)
{
	struct ecdma_chan *ch = ecdma_cfg_chan(kobj);
	struct ecdma_ec_provider *prov;
	char name[32];
	int ret;

	if (strscpy(name, buf, sizeof(name)) < 0)
		return -EINVAL;
	strim(name);
	prov = ecdma_ec_provider_get(name);
	if (IS_ERR_OR_NULL(prov))
		return -EINVAL;
	mutex_lock(&ch->front->cfg_lock);
	if (ecdma_ec_calc_provider(ch->calc) == prov)
		ret = 0;
	else
		ret = ecdma_chan_recalc(ch, prov);
	mutex_unlock(&ch->front->cfg_lock);
	ecdma_ec_provider_put(prov);
	return ret ?: count;
}

static struct kobj_attribute ecdma_cfg_provider = __ATTR_RW(provider);

static struct attribute *ecdma_cfg_attrs[] = {
	&ecdma_stat_dma_chan.attr,
	&ecdma_cfg_cpu.attr,
	&ecdma_cfg_provider.attr,
	NULL,
};
ATTRIBUTE_GROUPS(ecdma_cfg);

const struct kobj_type ecdma_cfg_ktype = {
	.release = ecdma_stats_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = ecdma_cfg_groups,
};

struct ecdma_stats_kobj *
ecdma_stats_add(struct ecdma_front *front, int chan, struct kobject *parent,
		const struct kobj_type *ktype)
{
	struct ecdma_stats_kobj *sk;
	int ret;

	sk = kzalloc(sizeof(*sk), GFP_KERNEL);
	if (!sk)
		return ERR_PTR(-ENOMEM);
	sk->front = front;
	sk->chan = chan;
	if (chan < 0)
		ret = kobject_init_and_add(&sk->kobj, ktype, parent, "stats");
	else
		ret = kobject_init_and_add(&sk->kobj, ktype, parent, "chan%d",
					   chan);
	if (ret) {
		kobject_put(&sk->kobj);
		return ERR_PTR(ret);
	}
	return sk;
}
