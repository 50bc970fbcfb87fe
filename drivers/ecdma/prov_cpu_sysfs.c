// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma sysfs, the CPU provider's files, a group merged into the platform
 * device's directory beside the front's (sysfs.c; Documentation/ABI/
 * testing/sysfs-driver-ecdma has every file):
 *
 *   algo, algo_active                    GF algo (store: idle channels)
 *   worker_budget, inline_budget,        tuning, applied live
 *   section_ops, nt_threshold,
 *   pq_path, xor_path
 *   pq_path_active, xor_path_active      read only
 */
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "ec_priv.h"
#include "prov_cpu.h"
#include "front.h"
#include "gf_algo.h"

/* "[auto] generic avx2": usable algos, the selected one in brackets */
static ssize_t algo_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	const struct ecdma_gf_algo *const *a;
	bool forced;
	const char *cur = ecdma_cpu_algo_name(&forced);
	int len;

	len = sysfs_emit(buf, forced ? "auto" : "[auto]");
	for (a = ecdma_gf_algos; *a; a++) {
		if ((*a)->usable && !(*a)->usable())
			continue;
		if (forced && !strcmp((*a)->name, cur))
			len += sysfs_emit_at(buf, len, " [%s]", (*a)->name);
		else
			len += sysfs_emit_at(buf, len, " %s", (*a)->name);
	}
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}

/**
 * ecdma_cpu_sysfs_set_algo() - the GF algo, for new calcs and the front's
 * @front: the registered front
 * @name: a usable algo's name, or "auto"
 *
 * Every channel gets a new calc with it; if one cannot, the old algo is
 * put back on the channels already rebuilt.
 * Context: process context; takes front->cfg_lock.
 * Return: 0, -EINVAL (no usable algo by that name), -EBUSY (a client holds
 * a channel), or the error of a new calc; nothing changed on error.
 */
static int ecdma_cpu_sysfs_set_algo(struct ecdma_front *front,
				    const char *name)
{
	bool forced;
	const char *old = ecdma_cpu_algo_name(&forced);
	unsigned int i;
	int ret;

	if (strcmp(name, "auto") && !ecdma_gf_algo_find(name))
		return -EINVAL;
	mutex_lock(&front->cfg_lock);
	if (ecdma_front_busy(front)) {
		ret = -EBUSY;
		goto out_unlock;
	}
	if (!forced)
		old = "auto";
	ret = ecdma_cpu_set_algo(name);
	for (i = 0; i < front->nr_chans && !ret; i++)
		ret = ecdma_chan_recalc(&front->chans[i],
					ecdma_ec_calc_provider(front->chans[i].calc));
	if (ret) {
		/* put the old algo back on the channels already rebuilt */
		ecdma_cpu_set_algo(old);
		while (i--)
			ecdma_chan_recalc(&front->chans[i],
					  ecdma_ec_calc_provider(front->chans[i].calc));
	}
out_unlock:
	mutex_unlock(&front->cfg_lock);
	return ret;
}

/* Needs idle channels: their calcs are rebuilt with the new algo. */
static ssize_t algo_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t count)
{
	char name[32];

	if (strscpy(name, buf, sizeof(name)) < 0)
		return -EINVAL;
	strim(name);
	return ecdma_cpu_sysfs_set_algo(dev_get_drvdata(dev), name) ?: count;
}
static DEVICE_ATTR_RW(algo);

static ssize_t algo_active_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", ecdma_cpu_algo_name(NULL));
}
static DEVICE_ATTR_RO(algo_active);

/* CPU provider tunables: live, from the next execution section */
struct ecdma_tunable_attr {
	struct device_attribute attr;
	enum ecdma_cpu_tunable t;
};

static ssize_t ecdma_tunable_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct ecdma_tunable_attr *ta = container_of(attr,
						     struct ecdma_tunable_attr,
						     attr);

	return sysfs_emit(buf, "%ld\n", ecdma_cpu_tunable_get(ta->t));
}

static ssize_t ecdma_tunable_store(struct device *dev,
				   struct device_attribute *attr,
				   const char *buf, size_t count)
{
	struct ecdma_tunable_attr *ta = container_of(attr,
						     struct ecdma_tunable_attr,
						     attr);
	long val;
	int ret;

	ret = kstrtol(buf, 0, &val);
	if (ret)
		return ret;
	return ecdma_cpu_tunable_set(ta->t, val) ?: count;
}

#define ECDMA_TUNABLE_ATTR(_name, _t)					\
static struct ecdma_tunable_attr dev_attr_##_name = {			\
	.attr = __ATTR(_name, 0644, ecdma_tunable_show,			\
		       ecdma_tunable_store),				\
	.t = _t,							\
}

ECDMA_TUNABLE_ATTR(worker_budget, ECDMA_CPU_WORKER_BUDGET);
ECDMA_TUNABLE_ATTR(inline_budget, ECDMA_CPU_INLINE_BUDGET);
ECDMA_TUNABLE_ATTR(section_ops, ECDMA_CPU_SECTION_OPS);

/*
 * nt_threshold: "auto" (the calibration decides per block-size class) or
 * a fixed threshold in bytes, 0 for no NT stores; live.
 */
static ssize_t nt_threshold_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	long nt = ecdma_cpu_nt();

	if (nt < 0)
		return sysfs_emit(buf, "auto\n");
	return sysfs_emit(buf, "%ld\n", nt);
}

static ssize_t nt_threshold_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t count)
{
	long val;
	int ret;

	if (sysfs_streq(buf, "auto"))
		return ecdma_cpu_set_nt(-1) ?: count;
	ret = kstrtol(buf, 0, &val);
	if (ret)
		return ret;
	if (val < 0)
		return -EINVAL;
	return ecdma_cpu_set_nt(val) ?: count;
}
static DEVICE_ATTR_RW(nt_threshold);

/*
 * pq_path / xor_path: who computes exact RAID-6 P+Q / XOR, "[auto] lib
 * gf" with the choice in brackets; live.  *_active: what runs now.
 */
static ssize_t ecdma_path_show(char *buf, bool pq)
{
	enum ecdma_cpu_path cur, p;
	int len = 0;

	cur = ecdma_cpu_path_get(pq);
	for (p = 0; p < ECDMA_CPU_PATH_NR; p++)
		len += sysfs_emit_at(buf, len, p == cur ? "%s[%s]" : "%s%s",
				     p ? " " : "", ecdma_cpu_path_names[p]);
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}

static ssize_t ecdma_path_store(const char *buf, size_t count, bool pq)
{
	int p = sysfs_match_string(ecdma_cpu_path_names, buf);

	if (p < 0)
		return -EINVAL;
	return ecdma_cpu_set_path(pq, p) ?: count;
}

/*
 * "lib" or "gf", or per class ("4k:gf 64k:gf big:lib") if they differ, per
 * band of inputs ("k<=6: gf; k>=7: lib") if those do
 */
static ssize_t ecdma_path_active_show(char *buf, bool pq)
{
	char str[ECDMA_CPU_PATH_STR];

	ecdma_cpu_path_str(pq, str, sizeof(str));
	return sysfs_emit(buf, "%s\n", str);
}

static ssize_t pq_path_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return ecdma_path_show(buf, true);
}

static ssize_t pq_path_store(struct device *dev, struct device_attribute *attr,
			     const char *buf, size_t count)
{
	return ecdma_path_store(buf, count, true);
}
static DEVICE_ATTR_RW(pq_path);

static ssize_t xor_path_show(struct device *dev,
			     struct device_attribute *attr, char *buf)
{
	return ecdma_path_show(buf, false);
}

static ssize_t xor_path_store(struct device *dev,
			      struct device_attribute *attr, const char *buf,
			      size_t count)
{
	return ecdma_path_store(buf, count, false);
}
static DEVICE_ATTR_RW(xor_path);

static ssize_t pq_path_active_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return ecdma_path_active_show(buf, true);
}
static DEVICE_ATTR_RO(pq_path_active);

static ssize_t xor_path_active_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	return ecdma_path_active_show(buf, false);
}
static DEVICE_ATTR_RO(xor_path_active);

static struct attribute *ecdma_cpu_attrs[] = {
	&dev_attr_algo.attr,
	&dev_attr_algo_active.attr,
	&dev_attr_worker_budget.attr.attr,
	&dev_attr_inline_budget.attr.attr,
	&dev_attr_section_ops.attr.attr,
	&dev_attr_nt_threshold.attr,
	&dev_attr_pq_path.attr,
	&dev_attr_pq_path_active.attr,
	&dev_attr_xor_path.attr,
	&dev_attr_xor_path_active.attr,
	NULL,
};

const struct attribute_group ecdma_cpu_sysfs_group = {
	.attrs = ecdma_cpu_attrs,
};
