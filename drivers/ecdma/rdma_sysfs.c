// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma_rdma sysfs: one read-only directory per RDMA device, rdma/<device>/
 * under ecdma's: its EC engine and provider, port, QP, primitive and MR
 * counts, bytes moved (Documentation/ABI/testing/sysfs-driver-ecdma).
 *
 * The directory goes with the device, before its state is torn down;
 * kernfs waits for running show() calls.
 */
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "ecdma_mod.h"
#include "rdma_priv.h"

/* rdma/, while the module is loaded */
static struct kobject *ecdma_rdma_kobj;

/**
 * struct ecdma_rdma_dev_kobj - a device's directory
 * @kobj: the kobject
 * @dev: the device; valid while the directory exists
 */
struct ecdma_rdma_dev_kobj {
	struct kobject kobj;
	struct ecdma_rdma_dev *dev;
};

static struct ecdma_rdma_dev *to_rdev(struct kobject *kobj)
{
	return container_of(kobj, struct ecdma_rdma_dev_kobj, kobj)->dev;
}

static ssize_t ec_engine_show(struct kobject *kobj,
			      struct kobj_attribute *attr, char *buf)
{
	struct ecdma_rdma_dev *dev = to_rdev(kobj);

	return sysfs_emit(buf, "%s\n", dev->engine[0] ? dev->engine : "none");
}

static struct kobj_attribute ecdma_rdma_ec_engine = __ATTR_RO(ec_engine);

static ssize_t provider_show(struct kobject *kobj,
			     struct kobj_attribute *attr, char *buf)
{
	struct ecdma_rdma_dev *dev = to_rdev(kobj);

	return sysfs_emit(buf, "%s\n", dev->engine[0] ? dev->engine : "cpu");
}

static struct kobj_attribute ecdma_rdma_provider = __ATTR_RO(provider);

static ssize_t port_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%u\n", to_rdev(kobj)->port);
}

static struct kobj_attribute ecdma_rdma_port = __ATTR_RO(port);

static ssize_t qps_show(struct kobject *kobj, struct kobj_attribute *attr,
			char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(to_rdev(kobj)->nr_qps));
}

static struct kobj_attribute ecdma_rdma_qps = __ATTR_RO(qps);

static ssize_t ops_inflight_show(struct kobject *kobj,
				 struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(to_rdev(kobj)->nr_ops));
}

static struct kobj_attribute ecdma_rdma_ops_inflight = __ATTR_RO(ops_inflight);

static ssize_t mrs_show(struct kobject *kobj, struct kobj_attribute *attr,
			char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(to_rdev(kobj)->mr_total));
}

static struct kobj_attribute ecdma_rdma_mrs = __ATTR_RO(mrs);

static ssize_t mrs_in_use_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(to_rdev(kobj)->mr_in_use));
}

static struct kobj_attribute ecdma_rdma_mrs_in_use = __ATTR_RO(mrs_in_use);

/* a 64-bit counter of struct ecdma_rdma_dev */
struct ecdma_rdma_ctr_attr {
	struct kobj_attribute attr;
	size_t off;
};

static ssize_t ecdma_rdma_ctr_show(struct kobject *kobj,
				   struct kobj_attribute *attr, char *buf)
{
	struct ecdma_rdma_ctr_attr *ca;
	atomic64_t *ctr;

	ca = container_of(attr, struct ecdma_rdma_ctr_attr, attr);
	ctr = (atomic64_t *)((u8 *)to_rdev(kobj) + ca->off);

	return sysfs_emit(buf, "%lld\n", (long long)atomic64_read(ctr));
}

#define ECDMA_RDMA_CTR_ATTR(_name, _off)				\
static struct ecdma_rdma_ctr_attr ecdma_rdma_##_name = {		\
	.attr = __ATTR(_name, 0444, ecdma_rdma_ctr_show, NULL),		\
	.off = (_off),							\
}

ECDMA_RDMA_CTR_ATTR(ops_done, offsetof(struct ecdma_rdma_dev, ops_done));
ECDMA_RDMA_CTR_ATTR(ops_failed, offsetof(struct ecdma_rdma_dev, ops_failed));
ECDMA_RDMA_CTR_ATTR(tx_bytes, offsetof(struct ecdma_rdma_dev, tx_bytes));
ECDMA_RDMA_CTR_ATTR(rx_bytes, offsetof(struct ecdma_rdma_dev, rx_bytes));

static struct attribute *ecdma_rdma_dev_attrs[] = {
	&ecdma_rdma_ec_engine.attr,
	&ecdma_rdma_provider.attr,
	&ecdma_rdma_port.attr,
	&ecdma_rdma_qps.attr,
	&ecdma_rdma_ops_inflight.attr,
	&ecdma_rdma_ops_done.attr.attr,
	&ecdma_rdma_ops_failed.attr.attr,
	&ecdma_rdma_tx_bytes.attr.attr,
	&ecdma_rdma_rx_bytes.attr.attr,
	&ecdma_rdma_mrs.attr,
	&ecdma_rdma_mrs_in_use.attr,
	NULL,
};
ATTRIBUTE_GROUPS(ecdma_rdma_dev);

static void ecdma_rdma_dev_kobj_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct ecdma_rdma_dev_kobj, kobj));
}

static const struct kobj_type ecdma_rdma_dev_ktype = {
	.release = ecdma_rdma_dev_kobj_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = ecdma_rdma_dev_groups,
};

/**
 * ecdma_rdma_sysfs_add() - create rdma/<device>/
 * @dev: the device, not yet visible to users
 * Context: Process context.
 * Return: 0 or a negative errno (nothing left behind).
 */
int ecdma_rdma_sysfs_add(struct ecdma_rdma_dev *dev)
{
	struct ecdma_rdma_dev_kobj *dk;
	int ret;

	dk = kzalloc(sizeof(*dk), GFP_KERNEL);
	if (!dk)
		return -ENOMEM;
	dk->dev = dev;
	ret = kobject_init_and_add(&dk->kobj, &ecdma_rdma_dev_ktype,
				   ecdma_rdma_kobj, "%s", dev->name);
	if (ret) {
		kobject_put(&dk->kobj);
		return ret;
	}
	dev->kobj = &dk->kobj;
	return 0;
}

/**
 * ecdma_rdma_sysfs_del() - remove rdma/<device>/
 * @dev: the device
 * Context: Process context; waits for running show() calls.
 */
void ecdma_rdma_sysfs_del(struct ecdma_rdma_dev *dev)
{
	struct kobject *kobj;

	mutex_lock(&dev->mutex);
	kobj = dev->kobj;
	dev->kobj = NULL;
	mutex_unlock(&dev->mutex);
	if (kobj) {
		kobject_del(kobj);
		kobject_put(kobj);
	}
}

/**
 * ecdma_rdma_sysfs_rename() - follow a rename of the device
 * @dev: the device, dev->name updated; dev->mutex held
 * Context: Process context.
 */
void ecdma_rdma_sysfs_rename(struct ecdma_rdma_dev *dev)
{
	lockdep_assert_held(&dev->mutex);
	if (dev->kobj && kobject_rename(dev->kobj, dev->name))
		pr_warn("ecdma_rdma: sysfs directory of %s keeps its old name\n",
			dev->name);
}

/**
 * ecdma_rdma_sysfs_init() - create rdma/ in ecdma's directory
 * Context: Module init.
 * Return: 0 or -ENOMEM.
 */
int ecdma_rdma_sysfs_init(void)
{
	ecdma_rdma_kobj = kobject_create_and_add("rdma", ecdma_sysfs_root());
	return ecdma_rdma_kobj ? 0 : -ENOMEM;
}

/**
 * ecdma_rdma_sysfs_exit() - remove rdma/ (every device's is gone)
 * Context: Module exit.
 */
void ecdma_rdma_sysfs_exit(void)
{
	kobject_put(ecdma_rdma_kobj);
}
