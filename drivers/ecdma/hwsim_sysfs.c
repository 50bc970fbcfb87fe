// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma_hwsim sysfs: the device's knobs and counters in <device>/hwsim/.
 * Every value a knob accepts keeps md safe under load: md waits for an
 * operation with preemption off and panics after 5 s, so the latency is
 * at most 100 ms, the throughput at least 10 MB/s, and the watchdog fires
 * after at most 2 s (then the front recomputes what the device held).
 */
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "hwsim.h"

#define HWSIM_LATENCY_MAX	100000	/* us */
#define HWSIM_MBS_MIN		10
#define HWSIM_MBS_MAX		1000000
#define HWSIM_TIMEOUT_MIN	100	/* ms */
#define HWSIM_TIMEOUT_MAX	2000
#define HWSIM_EVERY_MAX		1000000

/**
 * struct hwsim_knob - a u32 knob of struct hwsim
 * @attr: its file
 * @off: offsetof() its field
 * @min: least value (but 0 where @zero_ok)
 * @max: largest value
 * @zero_ok: 0 is accepted too ("off", "unlimited")
 */
struct hwsim_knob {
	struct device_attribute attr;
	size_t off;
	u32 min;
	u32 max;
	bool zero_ok;
};

static u32 *hwsim_knob_field(struct hwsim *sim, struct device_attribute *attr)
{
	return (void *)sim + container_of(attr, struct hwsim_knob, attr)->off;
}

static ssize_t hwsim_knob_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct hwsim *sim = hwsim_find(dev);

	if (!sim)
		return -ENODEV;
	return sysfs_emit(buf, "%u\n", READ_ONCE(*hwsim_knob_field(sim, attr)));
}

static ssize_t hwsim_knob_store(struct device *dev,
				struct device_attribute *attr,
				const char *buf, size_t count)
{
	const struct hwsim_knob *k = container_of(attr, struct hwsim_knob,
						  attr);
	struct hwsim *sim = hwsim_find(dev);
	u32 v;
	int ret;

	if (!sim)
		return -ENODEV;
	ret = kstrtou32(buf, 0, &v);
	if (ret)
		return ret;
	if ((v < k->min || v > k->max) && !(k->zero_ok && !v))
		return -EINVAL;
	WRITE_ONCE(*hwsim_knob_field(sim, attr), v);
	return count;
}

#define HWSIM_KNOB(_name, _field, _min, _max, _zero_ok)			\
static struct hwsim_knob hwsim_knob_##_name = {				\
	.attr = __ATTR(_name, 0644, hwsim_knob_show, hwsim_knob_store),	\
	.off = offsetof(struct hwsim, _field),				\
	.min = _min,							\
	.max = _max,							\
	.zero_ok = _zero_ok,						\
}

HWSIM_KNOB(latency_us, latency_us, 0, HWSIM_LATENCY_MAX, true);
HWSIM_KNOB(throughput_mbs, mbs, HWSIM_MBS_MIN, HWSIM_MBS_MAX, true);
HWSIM_KNOB(error_every, error_every, 1, HWSIM_EVERY_MAX, true);
HWSIM_KNOB(timeout_ms, timeout_ms, HWSIM_TIMEOUT_MIN, HWSIM_TIMEOUT_MAX,
	   false);

/* A boolean store: the device and the value, or -ENODEV / -EINVAL */
static int hwsim_store_bool(struct device *dev, const char *buf,
			    struct hwsim **sim, bool *v)
{
	*sim = hwsim_find(dev);
	if (!*sim)
		return -ENODEV;
	return kstrtobool(buf, v);
}

static ssize_t hang_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct hwsim *sim = hwsim_find(dev);

	return sim ? sysfs_emit(buf, "%d\n", READ_ONCE(sim->hang)) : -ENODEV;
}

/* 1: the engine stops until the watchdog (or "reset") resets the device */
static ssize_t hang_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t count)
{
	struct hwsim *sim;
	bool v;
	int ret = hwsim_store_bool(dev, buf, &sim, &v);

	if (ret)
		return ret;
	WRITE_ONCE(sim->hang, v);
	if (!v)
		hwsim_engine_ring(sim);
	return count;
}
static DEVICE_ATTR_RW(hang);

static ssize_t reset_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t count)
{
	struct hwsim *sim;
	bool v;
	int ret = hwsim_store_bool(dev, buf, &sim, &v);

	if (ret)
		return ret;
	if (!v)
		return -EINVAL;
	hwsim_reset(sim);
	return count;
}
static DEVICE_ATTR_WO(reset);

static ssize_t ec_engine_of_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct hwsim *sim = hwsim_find(dev);

	if (!sim)
		return -ENODEV;
	return sysfs_emit(buf, "%s\n", READ_ONCE(sim->alias_name[0]) ?
			  sim->alias_name : "none");
}

/* An RDMA device's name: the engine is its EC engine too; "none": not */
static ssize_t ec_engine_of_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t count)
{
	struct hwsim *sim = hwsim_find(dev);
	char name[64], *n;
	int ret;

	if (!sim)
		return -ENODEV;
	if (strscpy(name, buf, sizeof(name)) < 0)
		return -EINVAL;
	n = strim(name);
	if (!strcmp(n, "none"))
		n[0] = 0;
	else if (!n[0] || !strncmp(n, "hwsim", 5) || strpbrk(n, " \t"))
		return -EINVAL;
	ret = hwsim_set_alias(sim, n);
	return ret ?: count;
}
static DEVICE_ATTR_RW(ec_engine_of);

static ssize_t provider_show(struct device *dev,
			     struct device_attribute *attr, char *buf)
{
	struct hwsim *sim = hwsim_find(dev);

	return sim ? sysfs_emit(buf, "%s\n", sim->name) : -ENODEV;
}
static DEVICE_ATTR_RO(provider);

static ssize_t iommu_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct hwsim *sim = hwsim_find(dev);

	return sim ? sysfs_emit(buf, "%d\n", !!sim->iommu) : -ENODEV;
}
static DEVICE_ATTR_RO(iommu);

#define HWSIM_COUNTER(_name, _idx)					\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	struct hwsim *sim = hwsim_find(dev);				\
									\
	return sim ? sysfs_emit(buf, "%lld\n",				\
				atomic64_read(&sim->count[_idx])) :	\
		     -ENODEV;						\
}									\
static DEVICE_ATTR_RO(_name)

HWSIM_COUNTER(sqes, HWSIM_C_SQES);
HWSIM_COUNTER(bytes, HWSIM_C_BYTES);
HWSIM_COUNTER(irqs, HWSIM_C_IRQS);
HWSIM_COUNTER(desc_errors, HWSIM_C_DESC_ERRORS);
HWSIM_COUNTER(dma_faults, HWSIM_C_DMA_FAULTS);
HWSIM_COUNTER(timeouts, HWSIM_C_TIMEOUTS);
HWSIM_COUNTER(resets, HWSIM_C_RESETS);
HWSIM_COUNTER(ring_full, HWSIM_C_RING_FULL);

static struct attribute *hwsim_attrs[] = {
	&hwsim_knob_latency_us.attr.attr,
	&hwsim_knob_throughput_mbs.attr.attr,
	&hwsim_knob_error_every.attr.attr,
	&hwsim_knob_timeout_ms.attr.attr,
	&dev_attr_hang.attr,
	&dev_attr_reset.attr,
	&dev_attr_provider.attr,
	&dev_attr_ec_engine_of.attr,
	&dev_attr_iommu.attr,
	&dev_attr_sqes.attr,
	&dev_attr_bytes.attr,
	&dev_attr_irqs.attr,
	&dev_attr_desc_errors.attr,
	&dev_attr_dma_faults.attr,
	&dev_attr_timeouts.attr,
	&dev_attr_resets.attr,
	&dev_attr_ring_full.attr,
	NULL,
};

static const struct attribute_group hwsim_group = {
	.name = "hwsim",
	.attrs = hwsim_attrs,
};

const struct attribute_group *hwsim_groups[] = {
	&hwsim_group,
	NULL,
};
