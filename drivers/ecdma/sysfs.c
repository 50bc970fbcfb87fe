// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma sysfs: read-only description and counters of the dmaengine front,
 * on the platform device (Documentation/ABI/testing/sysfs-driver-ecdma):
 *
 *   channels                             number of dmaengine channels
 *   caps/{ops,max_xor,max_pq,align}      what the dmaengine device offers
 *   stats/<op>_{ops,bytes,errors}        totals over all channels
 *   stats/inline_progress
 *   stats/chan<N>/...                    the same for channel N, + dma_chan
 *
 * <op> is memcpy, xor, xor_val, pq, pq_val or interrupt.  The counters are
 * per-CPU in the hot path and added up here, one value per file.
 */
#include <linux/device.h>
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "front.h"

/**
 * struct ecdma_stats_kobj - a stats directory
 * @kobj: its kobject
 * @front: the front whose channels it reports
 * @chan: channel index, or -1 for the totals
 */
struct ecdma_stats_kobj {
	struct kobject kobj;
	struct ecdma_front *front;
	int chan;
};

/**
 * struct ecdma_sysfs - everything sysfs.c created
 * @total: stats/
 * @chans: stats/chan<N>/, one per channel
 */
struct ecdma_sysfs {
	struct ecdma_stats_kobj *total;
	struct ecdma_stats_kobj *chans[];
};

enum ecdma_stat_kind {
	ECDMA_STAT_OPS,
	ECDMA_STAT_BYTES,
	ECDMA_STAT_ERRORS,
	ECDMA_STAT_INLINE,
};

/**
 * struct ecdma_stat_attr - one counter file
 * @attr: the attribute
 * @kind: enum ecdma_stat_kind
 * @op: enum ecdma_op_type for the per-op kinds
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
	default:
		return s->inline_progress;
	}
}

static ssize_t ecdma_stat_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	struct ecdma_stats_kobj *sk = container_of(kobj, struct ecdma_stats_kobj,
						   kobj);
	struct ecdma_stat_attr *sa = container_of(attr, struct ecdma_stat_attr,
						  attr);
	struct ecdma_front *front = sk->front;
	unsigned int first = sk->chan < 0 ? 0 : sk->chan;
	unsigned int last = sk->chan < 0 ? front->nr_chans : sk->chan + 1;
	struct ecdma_chan_stats s;
	unsigned int i;
	u64 val = 0;

	for (i = first; i < last; i++) {
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
	&ecdma_stat_dma_chan.attr,
	NULL,
};

/* dma_chan only in the per-channel directories */
static umode_t ecdma_stats_visible(struct kobject *kobj, struct attribute *a,
				   int n)
{
	struct ecdma_stats_kobj *sk = container_of(kobj, struct ecdma_stats_kobj,
						   kobj);

	if (a == &ecdma_stat_dma_chan.attr && sk->chan < 0)
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

static const struct kobj_type ecdma_stats_ktype = {
	.release = ecdma_stats_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = ecdma_stats_groups,
};

static struct ecdma_stats_kobj *
ecdma_stats_add(struct ecdma_front *front, int chan, struct kobject *parent)
{
	struct ecdma_stats_kobj *sk;
	int ret;

	sk = kzalloc(sizeof(*sk), GFP_KERNEL);
	if (!sk)
		return ERR_PTR(-ENOMEM);
	sk->front = front;
	sk->chan = chan;
	if (chan < 0)
		ret = kobject_init_and_add(&sk->kobj, &ecdma_stats_ktype,
					   parent, "stats");
	else
		ret = kobject_init_and_add(&sk->kobj, &ecdma_stats_ktype,
					   parent, "chan%d", chan);
	if (ret) {
		kobject_put(&sk->kobj);
		return ERR_PTR(ret);
	}
	return sk;
}

/* Device attributes */

static ssize_t channels_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct ecdma_front *front = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", front->nr_chans);
}
static DEVICE_ATTR_RO(channels);

static struct attribute *ecdma_front_attrs[] = {
	&dev_attr_channels.attr,
	NULL,
};

static const struct attribute_group ecdma_front_group = {
	.attrs = ecdma_front_attrs,
};

static ssize_t ops_show(struct device *dev, struct device_attribute *attr,
			char *buf)
{
	static const struct {
		enum dma_transaction_type cap;
		const char *name;
	} caps[] = {
		{ DMA_MEMCPY, "memcpy" },
		{ DMA_XOR, "xor" },
		{ DMA_XOR_VAL, "xor_val" },
		{ DMA_PQ, "pq" },
		{ DMA_PQ_VAL, "pq_val" },
		{ DMA_INTERRUPT, "interrupt" },
		{ DMA_ASYNC_TX, "async_tx" },
	};
	struct ecdma_front *front = dev_get_drvdata(dev);
	int i, len = 0;

	for (i = 0; i < ARRAY_SIZE(caps); i++)
		if (dma_has_cap(caps[i].cap, front->dma.cap_mask))
			len += sysfs_emit_at(buf, len, "%s%s", len ? " " : "",
					     caps[i].name);
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}
static DEVICE_ATTR_RO(ops);

static ssize_t max_xor_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct ecdma_front *front = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", front->dma.max_xor);
}
static DEVICE_ATTR_RO(max_xor);

static ssize_t max_pq_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct ecdma_front *front = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%d\n", dma_maxpq(&front->dma, 0));
}
static DEVICE_ATTR_RO(max_pq);

static ssize_t align_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct ecdma_front *front = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", front->caps.block_align);
}
static DEVICE_ATTR_RO(align);

static struct attribute *ecdma_caps_attrs[] = {
	&dev_attr_ops.attr,
	&dev_attr_max_xor.attr,
	&dev_attr_max_pq.attr,
	&dev_attr_align.attr,
	NULL,
};

static const struct attribute_group ecdma_caps_group = {
	.name = "caps",
	.attrs = ecdma_caps_attrs,
};

static const struct attribute_group *ecdma_front_groups[] = {
	&ecdma_front_group,
	&ecdma_caps_group,
	NULL,
};

static void ecdma_sysfs_free(struct ecdma_front *front)
{
	struct ecdma_sysfs *sysfs = front->sysfs;
	unsigned int i;

	for (i = 0; i < front->nr_chans; i++)
		if (!IS_ERR_OR_NULL(sysfs->chans[i]))
			kobject_put(&sysfs->chans[i]->kobj);
	if (!IS_ERR_OR_NULL(sysfs->total))
		kobject_put(&sysfs->total->kobj);
	kfree(sysfs);
	front->sysfs = NULL;
}

/**
 * ecdma_sysfs_init - create the attributes and the stats directories
 * @front: a registered front, set as the platform device's drvdata
 *
 * Return: 0 or a negative errno (nothing left behind).
 */
int ecdma_sysfs_init(struct ecdma_front *front)
{
	struct ecdma_sysfs *sysfs;
	unsigned int i;
	int ret;

	sysfs = kzalloc(struct_size(sysfs, chans, front->nr_chans), GFP_KERNEL);
	if (!sysfs)
		return -ENOMEM;
	front->sysfs = sysfs;

	ret = device_add_groups(front->dev, ecdma_front_groups);
	if (ret)
		goto err_free;

	sysfs->total = ecdma_stats_add(front, -1, &front->dev->kobj);
	if (IS_ERR(sysfs->total)) {
		ret = PTR_ERR(sysfs->total);
		goto err_remove_groups;
	}
	for (i = 0; i < front->nr_chans; i++) {
		sysfs->chans[i] = ecdma_stats_add(front, i, &sysfs->total->kobj);
		if (IS_ERR(sysfs->chans[i])) {
			ret = PTR_ERR(sysfs->chans[i]);
			goto err_remove_groups;
		}
	}
	return 0;

err_remove_groups:
	device_remove_groups(front->dev, ecdma_front_groups);
err_free:
	ecdma_sysfs_free(front);
	return ret;
}

/**
 * ecdma_sysfs_exit - remove what ecdma_sysfs_init() created
 * @front: the front
 *
 * Context: process context; waits for running show() calls.
 */
void ecdma_sysfs_exit(struct ecdma_front *front)
{
	if (!front->sysfs)
		return;
	ecdma_sysfs_free(front);
	device_remove_groups(front->dev, ecdma_front_groups);
}
