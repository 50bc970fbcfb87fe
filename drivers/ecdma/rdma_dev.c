// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma_rdma device handles: references, state and in-flight work counts.
 */
#include <linux/device.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "rdma_priv.h"

static void ecdma_rdma_dev_release(struct kref *ref)
{
	struct ecdma_rdma_dev *dev = container_of(ref, struct ecdma_rdma_dev,
						  ref);

	put_device(dev->engine_dev);
	kfree(dev);
}

/**
 * ecdma_rdma_dev_put() - drop a reference from ecdma_rdma_dev_get()
 * @dev: the device; NULL or an ERR_PTR are ignored
 *
 * Context: Any context.
 */
void ecdma_rdma_dev_put(struct ecdma_rdma_dev *dev)
{
	if (!IS_ERR_OR_NULL(dev))
		kref_put(&dev->ref, ecdma_rdma_dev_release);
}
EXPORT_SYMBOL_GPL(ecdma_rdma_dev_put);

/**
 * ecdma_rdma_dev_name() - the RDMA device's name
 * @dev: the device
 *
 * Context: Any context.
 * Return: its name, as when it was last renamed.
 */
const char *ecdma_rdma_dev_name(const struct ecdma_rdma_dev *dev)
{
	return dev->name;
}
EXPORT_SYMBOL_GPL(ecdma_rdma_dev_name);

/**
 * ecdma_rdma_dev_alive() - whether the RDMA device is still there
 * @dev: the device
 *
 * Context: Any context.
 * Return: false once removal started; then anything new fails -ENODEV.
 */
bool ecdma_rdma_dev_alive(const struct ecdma_rdma_dev *dev)
{
	return !READ_ONCE(dev->dead);
}
EXPORT_SYMBOL_GPL(ecdma_rdma_dev_alive);

/**
 * ecdma_rdma_dev_provider() - the provider named after the device, else "cpu"
 * @dev: the device
 *
 * Context: Process context; takes a mutex.
 * Return: a reference (ecdma_ec_provider_put() it), or ERR_PTR(-ENODEV).
 */
struct ecdma_ec_provider *ecdma_rdma_dev_provider(struct ecdma_rdma_dev *dev)
{
	if (READ_ONCE(dev->dead))
		return ERR_PTR(-ENODEV);
	return ecdma_ec_provider_get(dev->engine[0] ? dev->engine : "cpu");
}
EXPORT_SYMBOL_GPL(ecdma_rdma_dev_provider);

/**
 * ecdma_rdma_begin() - count work in flight, which removal waits for
 * @dev: the device
 *
 * Context: Any context.
 * Return: false (nothing counted) once the device is being removed.
 */
bool ecdma_rdma_begin(struct ecdma_rdma_dev *dev)
{
	unsigned long flags;
	bool ok;

	spin_lock_irqsave(&dev->lock, flags);
	ok = !dev->dead;
	if (ok) {
		dev->nr_ops++;
		kref_get(&dev->ref);
	}
	spin_unlock_irqrestore(&dev->lock, flags);
	return ok;
}

/**
 * ecdma_rdma_end() - work counted by ecdma_rdma_begin() finished
 * @dev: the device; may be freed on return
 *
 * Context: Any context.
 */
void ecdma_rdma_end(struct ecdma_rdma_dev *dev)
{
	unsigned long flags;
	bool wake;

	spin_lock_irqsave(&dev->lock, flags);
	wake = !--dev->nr_ops && dev->dead;
	spin_unlock_irqrestore(&dev->lock, flags);
	if (wake)
		wake_up(&dev->ops_wq);
	ecdma_rdma_dev_put(dev);
}
