// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma sysfs, on the platform device (Documentation/ABI/testing/
 * sysfs-driver-ecdma has every file):
 *
 *   channels                             channel count (store: idle)
 *   providers                            read only
 *   inline_issue, fuse, desc_max, max_src  tuning, applied live
 *   fuse_active                          read only
 *   offload, trial_budget                the offload policy, live
 *   offload_state                        read only
 *   caps/{ops,max_xor,max_pq,align}      what the dmaengine device offers
 *   caps/enable_<op>                     per-op offload (store: idle)
 *   chan<N>/{dma_chan,cpu,provider}      per channel (cpu live,
 *                                        provider: idle channel)
 *   stats/<counter>, stats/reset         totals over all channels
 *   stats/{faults,fallbacks}             provider failures, recomputed
 *   stats/fused                          operations run in a chain's WR
 *   stats/chan<N>/<counter>              the same for channel N
 *
 * chan<N>/ and stats/ are sysfs_chan.c's kobjects; the CPU provider's files
 * (algo, its tunables and paths) are prov_cpu_sysfs.c's group, here too.
 *
 * "Idle" stores return -EBUSY while a client (async_tx, dmatest) holds a
 * channel and change nothing; front->cfg_lock keeps clients from taking a
 * channel meanwhile.
 */
#include <linux/device.h>
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "ec_priv.h"
#include "md_guard.h"
#include "prov_cpu.h"
#include "front.h"

/**
 * struct ecdma_sysfs - everything sysfs.c created
 * @total: stats/
 * @chans: stats/chan<N>/, one per channel
 * @cfg: chan<N>/, one per channel
 */
struct ecdma_sysfs {
	struct ecdma_stats_kobj *total;
	struct ecdma_stats_kobj **chans;
	struct ecdma_stats_kobj **cfg;
};

/* Device attributes */

static ssize_t channels_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct ecdma_front *front = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", front->nr_chans);
}

/*
 * The front again with @nr channels: once no client holds one, the files
 * of the old front go (sysfs, debugfs), the front is registered anew and
 * the new one's files come.
 */
static int ecdma_sysfs_rechannel(struct device *dev, unsigned int nr)
{
	struct ecdma_front *front = dev_get_drvdata(dev);
	unsigned int old;
	int ret, err;

	if (!front)
		return -ENODEV;
	old = front->nr_chans;
	if (nr == old)
		return 0;
	ret = ecdma_front_close(front);
	if (ret)
		return ret;
	ecdma_debugfs_exit(front);
	ecdma_sysfs_exit(front);
	ret = ecdma_front_rechannel(dev, nr);
	front = dev_get_drvdata(dev);
	if (!front)
		return ret;
	err = ecdma_sysfs_init(front);
	if (err && !ret && !ecdma_front_close(front)) {
		/* as a failed probe: the old count again, with its files */
		ret = err;
		if (!ecdma_front_rechannel(dev, old)) {
			front = dev_get_drvdata(dev);
			err = front ? ecdma_sysfs_init(front) : -ENODEV;
		}
	}
	if (err) {
		dev_err(dev, "cannot create sysfs attributes: %d; reload ecdma\n",
			err);
		return ret ?: err;
	}
	ecdma_debugfs_init(front);
	return ret;
}

/*
 * Needs idle channels: the dmaengine device is registered again, which
 * removes this very file, so its active protection is broken first.
 */
static ssize_t channels_store(struct device *dev, struct device_attribute *attr,
			      const char *buf, size_t count)
{
	struct kernfs_node *kn;
	unsigned int nr;
	int ret;

	ret = kstrtouint(buf, 10, &nr);
	if (ret)
		return ret;
	if (nr < 2 || nr > ECDMA_MAX_CHANS)
		return -EINVAL;
	kn = sysfs_break_active_protection(&dev->kobj, &attr->attr);
	if (!kn)
		return -ENODEV;
	device_lock(dev);
	ret = ecdma_sysfs_rechannel(dev, nr);
	device_unlock(dev);
	sysfs_unbreak_active_protection(kn);
	return ret ?: count;
}
static DEVICE_ATTR_RW(channels);

static ssize_t providers_show(struct device *dev, struct device_attribute *attr,
			      char *buf)
{
	return ecdma_ec_provider_list(buf);
}
static DEVICE_ATTR_RO(providers);

static ssize_t inline_issue_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct ecdma_front *front = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%d\n", READ_ONCE(front->inline_issue));
}

/* Live: tx_status still runs work inline, so waiters always progress. */
static ssize_t inline_issue_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t count)
{
	struct ecdma_front *front = dev_get_drvdata(dev);
	bool val;
	int ret;

	ret = kstrtobool(buf, &val);
	if (ret)
		return ret;
	WRITE_ONCE(front->inline_issue, val);
	return count;
}
static DEVICE_ATTR_RW(inline_issue);

static ssize_t fuse_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct ecdma_front *front = dev_get_drvdata(dev);
	unsigned int cur = READ_ONCE(front->fuse), m;
	int n = 0;

	for (m = 0; m < ECDMA_FUSE_NR; m++)
		n += sysfs_emit_at(buf, n, m == cur ? "%s[%s]" : "%s%s",
				   m ? " " : "", ecdma_fuse_names[m]);
	return n + sysfs_emit_at(buf, n, "\n");
}

/* Live: read once per chain, when its first descriptor is posted. */
static ssize_t fuse_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t count)
{
	int m = sysfs_match_string(ecdma_fuse_names, buf);

	if (m < 0)
		return -EINVAL;
	ecdma_fuse_set(dev_get_drvdata(dev), m);
	return count;
}
static DEVICE_ATTR_RW(fuse);

static ssize_t fuse_active_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct ecdma_front *front = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%s\n", READ_ONCE(front->fuse_active) ?
			  "on" : "off");
}
static DEVICE_ATTR_RO(fuse_active);

/* A number in [@lo, @hi] into @val: 0, kstrtouint()'s error or -EINVAL */
static int ecdma_sysfs_uint(const char *buf, unsigned int lo,
			    unsigned int hi, unsigned int *val)
{
	int ret = kstrtouint(buf, 0, val);

	if (ret)
		return ret;
	return *val < lo || *val > hi ? -EINVAL : 0;
}

static ssize_t desc_max_show(struct device *dev,
			     struct device_attribute *attr, char *buf)
{
	struct ecdma_front *front = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", READ_ONCE(front->desc_max));
}

/*
 * Live: pools stop growing past it and, if lowered, give one descriptor
 * back per prep; a full pool only makes prep return NULL, which async_tx
 * and md handle (retry after issue_pending, or compute on the CPU).
 */
static ssize_t desc_max_store(struct device *dev,
			      struct device_attribute *attr,
			      const char *buf, size_t count)
{
	struct ecdma_front *front = dev_get_drvdata(dev);
	unsigned int val;
	int ret;

	ret = ecdma_sysfs_uint(buf, ECDMA_DESC_INIT, front->max_desc, &val);
	if (ret)
		return ret;
	WRITE_ONCE(front->desc_max, val);
	return count;
}
static DEVICE_ATTR_RW(desc_max);

static ssize_t offload_show(struct device *dev,
			    struct device_attribute *attr, char *buf)
{
	struct ecdma_front *front = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%s\n",
			  ecdma_offload_names[ecdma_policy_mode(front)]);
}

/* Live: applied at the policy's next window (policy.c) */
static ssize_t offload_store(struct device *dev,
			     struct device_attribute *attr,
			     const char *buf, size_t count)
{
	struct ecdma_front *front = dev_get_drvdata(dev);
	int mode;

	mode = sysfs_match_string(ecdma_offload_names, buf);
	if (mode < 0)
		return -EINVAL;
	ecdma_policy_set_mode(front, mode);
	return count;
}
static DEVICE_ATTR_RW(offload);

/* What the policy does now, and why */
static ssize_t offload_state_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct ecdma_front *front = dev_get_drvdata(dev);
	struct ecdma_policy_state s;

	ecdma_policy_state(front, &s);
	return sysfs_emit(buf,
			  "%s spread=%d spare_cpu=%d spare_pct=%u switches=%lu spread_windows=%lu copies=%d table=%s table_switches=%lu trials=%lu kept=%lu last_trial_io=%llu/%llu trial_by=%s trial_every_ms=%u trial_slot=%u load=%s aborted=%lu trial_cost_ms=%llu thin=%lu\n",
			  s.accepting ? "accept" : "decline",
			  s.spread, s.spare_cpu, s.spare_pct, s.switches,
			  s.spread_windows,
			  READ_ONCE(front->dma.copy_align) == front->align,
			  s.withdrawn ? "withdrawn" : "in",
			  s.table_switches, s.trials, s.kept, s.last[0], s.last[1],
			  s.by_md ? "md" : "io", s.every_ms, s.slot,
			  ecdma_trial_kind_names[s.load], s.aborted, s.cost_ms,
			  s.thin);
}
static DEVICE_ATTR_RO(offload_state);

static ssize_t trial_budget_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct ecdma_front *front = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", ecdma_policy_trial_budget(front));
}

/* Live: read by the trials at every slot (trial.c) */
static ssize_t trial_budget_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t count)
{
	struct ecdma_front *front = dev_get_drvdata(dev);
	unsigned int val;
	int ret;

	ret = ecdma_sysfs_uint(buf, 0, 100, &val);
	if (ret)
		return ret;
	ecdma_policy_set_trial_budget(front, val);
	return count;
}
static DEVICE_ATTR_RW(trial_budget);

static ssize_t max_src_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct ecdma_front *front = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", READ_ONCE(front->dma.max_xor));
}

/*
 * Live: async_tx reads max_xor/max_pq for every operation and splits or
 * computes on the CPU what does not fit; prep still takes up to calc_k.
 */
static ssize_t max_src_store(struct device *dev, struct device_attribute *attr,
			     const char *buf, size_t count)
{
	struct ecdma_front *front = dev_get_drvdata(dev);
	unsigned int val;
	int ret;

	ret = kstrtouint(buf, 10, &val);
	if (ret)
		return ret;
	if (val < 2 || val > front->calc_k)
		return -EINVAL;
	mutex_lock(&front->cfg_lock);
	WRITE_ONCE(front->dma.max_xor, val);
	WRITE_ONCE(front->dma.max_pq, val | DMA_HAS_PQ_CONTINUE);
	mutex_unlock(&front->cfg_lock);
	return count;
}
static DEVICE_ATTR_RW(max_src);

/*
 * The guards of md's async_tx calls, for ecdmactl doctor: md_guard.c's,
 * then the front's XORs run at submit (dma.c), with what each mended
 */
static ssize_t md_guards_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct ecdma_front *front = dev_get_drvdata(dev);
	struct ecdma_chan_stats s;
	u64 n = 0;
	unsigned int i;
	ssize_t len;

	len = ecdma_md_guard_show(buf);
	for (i = 0; i < front->nr_chans; i++) {
		ecdma_chan_stats_sum(&front->chans[i], &s);
		n += s.cb_at_submit;
	}
	return len + sysfs_emit_at(buf, len, "cb_at_submit armed %llu\n", n);
}
static DEVICE_ATTR_RO(md_guards);

static struct attribute *ecdma_front_attrs[] = {
	&dev_attr_channels.attr,
	&dev_attr_providers.attr,
	&dev_attr_inline_issue.attr,
	&dev_attr_fuse.attr,
	&dev_attr_fuse_active.attr,
	&dev_attr_desc_max.attr,
	&dev_attr_offload.attr,
	&dev_attr_offload_state.attr,
	&dev_attr_trial_budget.attr,
	&dev_attr_max_src.attr,
	&dev_attr_md_guards.attr,
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

	return sysfs_emit(buf, "%u\n", READ_ONCE(front->dma.max_xor));
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

/*
 * caps/enable_<op>: whether the dmaengine device offers <op>.  dmaengine
 * fixes the channel tables when a client takes the channels, so a change
 * needs idle channels: -EBUSY otherwise.  The next client (async_tx load,
 * dma_request_channel()) sees the new capabilities.
 *
 * async_tx (without CONFIG_ASYNC_TX_ENABLE_CHANNEL_SWITCH, as on x86) takes
 * every operation type from the DMA_ASYNC_TX channels, which dmaengine
 * gives only to devices with all of them (device_has_all_tx_types()), and
 * never checks the type itself.  So DMA_ASYNC_TX follows the same rule
 * here: with any async_tx operation disabled, async_tx stops using ecdma
 * and computes everything on the CPU.
 */
static bool ecdma_has_all_tx_types(struct dma_device *dma)
{
	if (!dma_has_cap(DMA_INTERRUPT, dma->cap_mask))
		return false;
	if (IS_ENABLED(CONFIG_ASYNC_MEMCPY) &&
	    !dma_has_cap(DMA_MEMCPY, dma->cap_mask))
		return false;
	if (IS_ENABLED(CONFIG_ASYNC_XOR) &&
	    (!dma_has_cap(DMA_XOR, dma->cap_mask) ||
	     (!IS_ENABLED(CONFIG_ASYNC_TX_DISABLE_XOR_VAL_DMA) &&
	      !dma_has_cap(DMA_XOR_VAL, dma->cap_mask))))
		return false;
	if (IS_ENABLED(CONFIG_ASYNC_PQ) &&
	    (!dma_has_cap(DMA_PQ, dma->cap_mask) ||
	     (!IS_ENABLED(CONFIG_ASYNC_TX_DISABLE_PQ_VAL_DMA) &&
	      !dma_has_cap(DMA_PQ_VAL, dma->cap_mask))))
		return false;
	return true;
}

struct ecdma_cap_attr {
	struct device_attribute attr;
	enum dma_transaction_type cap;
};

static ssize_t ecdma_cap_show(struct device *dev, struct device_attribute *attr,
			      char *buf)
{
	struct ecdma_cap_attr *ca = container_of(attr, struct ecdma_cap_attr,
						 attr);
	struct ecdma_front *front = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%d\n",
			  dma_has_cap(ca->cap, front->dma.cap_mask) ? 1 : 0);
}

static ssize_t ecdma_cap_store(struct device *dev,
			       struct device_attribute *attr,
			       const char *buf, size_t count)
{
	struct ecdma_cap_attr *ca = container_of(attr, struct ecdma_cap_attr,
						 attr);
	struct ecdma_front *front = dev_get_drvdata(dev);
	bool val;
	int ret;

	ret = kstrtobool(buf, &val);
	if (ret)
		return ret;
	mutex_lock(&front->cfg_lock);
	/*
	 * Storing the value it has changes nothing, not even DMA_ASYNC_TX:
	 * while the policy has withdrawn the device, setting it would put
	 * the device back in async_tx's table at dmaengine's next rebalance.
	 */
	if (dma_has_cap(ca->cap, front->dma.cap_mask) == val) {
		ret = 0;
	} else if (ecdma_front_busy(front) || ecdma_policy_withdrawn(front)) {
		ret = -EBUSY;
	} else {
		if (val)
			dma_cap_set(ca->cap, front->dma.cap_mask);
		else
			dma_cap_clear(ca->cap, front->dma.cap_mask);
		ecdma_front_set_async_tx(front,
					 ecdma_has_all_tx_types(&front->dma));
	}
	mutex_unlock(&front->cfg_lock);
	return ret ?: count;
}

#define ECDMA_CAP_ATTR(_name, _cap)					\
static struct ecdma_cap_attr ecdma_cap_##_name = {			\
	.attr = __ATTR(enable_##_name, 0644, ecdma_cap_show,		\
		       ecdma_cap_store),					\
	.cap = _cap,							\
}

ECDMA_CAP_ATTR(memcpy, DMA_MEMCPY);
ECDMA_CAP_ATTR(xor, DMA_XOR);
ECDMA_CAP_ATTR(xor_val, DMA_XOR_VAL);
ECDMA_CAP_ATTR(pq, DMA_PQ);
ECDMA_CAP_ATTR(pq_val, DMA_PQ_VAL);

static struct attribute *ecdma_enable_attrs[] = {
	&ecdma_cap_memcpy.attr.attr,
	&ecdma_cap_xor.attr.attr,
	&ecdma_cap_xor_val.attr.attr,
	&ecdma_cap_pq.attr.attr,
	&ecdma_cap_pq_val.attr.attr,
	NULL,
};

static const struct attribute_group ecdma_enable_group = {
	.name = "caps",
	.attrs = ecdma_enable_attrs,
};

static const struct attribute_group *ecdma_front_groups[] = {
	&ecdma_front_group,
	&ecdma_cpu_sysfs_group,
	&ecdma_caps_group,
	NULL,
};

static void ecdma_sysfs_free(struct ecdma_front *front)
{
	struct ecdma_sysfs *sysfs = front->sysfs;
	unsigned int i;

	/* either array may be missing: init failed allocating it */
	for (i = 0; sysfs->cfg && sysfs->chans && i < front->nr_chans; i++) {
		if (!IS_ERR_OR_NULL(sysfs->cfg[i]))
			kobject_put(&sysfs->cfg[i]->kobj);
		if (!IS_ERR_OR_NULL(sysfs->chans[i]))
			kobject_put(&sysfs->chans[i]->kobj);
	}
	if (!IS_ERR_OR_NULL(sysfs->total))
		kobject_put(&sysfs->total->kobj);
	kfree(sysfs->cfg);
	kfree(sysfs->chans);
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
	struct kobject *devkobj = &front->dev->kobj;
	struct ecdma_sysfs *sysfs;
	unsigned int i;
	int ret;

	sysfs = kzalloc(sizeof(*sysfs), GFP_KERNEL);
	if (!sysfs)
		return -ENOMEM;
	front->sysfs = sysfs;
	sysfs->chans = kcalloc(front->nr_chans, sizeof(*sysfs->chans),
			       GFP_KERNEL);
	sysfs->cfg = kcalloc(front->nr_chans, sizeof(*sysfs->cfg), GFP_KERNEL);
	if (!sysfs->chans || !sysfs->cfg) {
		ret = -ENOMEM;
		goto err_free;
	}

	ret = device_add_groups(front->dev, ecdma_front_groups);
	if (ret)
		goto err_free;
	/* more files in caps/ */
	ret = sysfs_merge_group(devkobj, &ecdma_enable_group);
	if (ret)
		goto err_remove_groups;

	sysfs->total = ecdma_stats_add(front, -1, devkobj, &ecdma_stats_ktype);
	if (IS_ERR(sysfs->total)) {
		ret = PTR_ERR(sysfs->total);
		goto err_remove_enable;
	}
	for (i = 0; i < front->nr_chans; i++) {
		sysfs->chans[i] = ecdma_stats_add(front, i, &sysfs->total->kobj,
						  &ecdma_stats_ktype);
		if (IS_ERR(sysfs->chans[i])) {
			ret = PTR_ERR(sysfs->chans[i]);
			goto err_remove_enable;
		}
		sysfs->cfg[i] = ecdma_stats_add(front, i, devkobj,
						&ecdma_cfg_ktype);
		if (IS_ERR(sysfs->cfg[i])) {
			ret = PTR_ERR(sysfs->cfg[i]);
			goto err_remove_enable;
		}
	}
	return 0;

err_remove_enable:
	sysfs_unmerge_group(devkobj, &ecdma_enable_group);
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
	sysfs_unmerge_group(&front->dev->kobj, &ecdma_enable_group);
	device_remove_groups(front->dev, ecdma_front_groups);
}
