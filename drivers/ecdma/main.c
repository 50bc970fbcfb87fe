// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma module entry: the debugfs directory first, then the EC verbs core,
 * the built-in providers, and the "ecdma" platform driver and its device.
 * The dmaengine provider registers in probe, as dmaengine and async_tx
 * need a bound struct device (dev->driver).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/platform_device.h>

#include "ec_priv.h"
#include "md_guard.h"
#include "prov_cpu.h"
#include "ecdma_mod.h"
#include "front.h"
#include <ecdma/dma_front.h>

/*
 * The front on @dev with its sysfs and debugfs files; @prov_name NULL for
 * the default provider.  Under device_lock(@dev), as probe is.
 */
static int ecdma_front_add(struct device *dev, const char *prov_name)
{
	struct ecdma_front *front;
	int ret;

	ret = ecdma_front_probe(dev, prov_name);
	if (ret)
		return ret;
	front = dev_get_drvdata(dev);
	ret = ecdma_sysfs_init(front);
	if (ret) {
		dev_err(dev, "cannot create sysfs attributes: %d\n", ret);
		ecdma_front_remove(dev);
		return ret;
	}
	ecdma_debugfs_init(front);
	return 0;
}

static void ecdma_front_del(struct device *dev)
{
	struct ecdma_front *front = dev_get_drvdata(dev);

	if (front) {
		ecdma_debugfs_exit(front);
		ecdma_sysfs_exit(front);
	}
	ecdma_front_remove(dev);
}

/**
 * ecdma_dma_attach() - register a device's EC engine as a dmaengine provider
 * @dev: the device, bound to its driver (in its probe); its DMA mask set
 * @prov_name: the EC provider registered for @dev (provider->dma_dev = @dev)
 *
 * ecdma's front translates async_tx's operations into work requests for
 * @prov_name, with the blocks as @dev's DMA addresses (async_tx maps for
 * @dev), and computes on the CPU what the engine fails.  @dev's driver data
 * belongs to the front until ecdma_dma_detach(); its sysfs files (offload,
 * stats, ...) are @dev's.
 *
 * Context: process context, holding device_lock(@dev) (a probe does).
 * Return: 0 or a negative errno; nothing is registered on failure.
 */
int ecdma_dma_attach(struct device *dev, const char *prov_name)
{
	if (!dev || !prov_name)
		return -EINVAL;
	return ecdma_front_add(dev, prov_name);
}
EXPORT_SYMBOL_GPL(ecdma_dma_attach);

/**
 * ecdma_dma_detach() - undo ecdma_dma_attach(): the engine goes away
 * @dev: the device
 *
 * Clients (md through async_tx) may still hold the channels, as when the
 * driver is unbound under md: the channels finish what the engine holds
 * and move to the CPU provider (dma_failover.c); the dmaengine device is
 * unregistered at once, or once its clients let go.  On return the front
 * no longer uses the device's provider nor its driver data.
 *
 * Context: process context, holding device_lock(@dev); sleeps.
 */
void ecdma_dma_detach(struct device *dev)
{
	struct ecdma_front *front = dev_get_drvdata(dev);
	bool busy;

	if (!front)
		return;
	mutex_lock(&front->cfg_lock);
	ecdma_front_failover(front);
	busy = ecdma_front_busy(front);
	front->ghost = busy;
	mutex_unlock(&front->cfg_lock);
	if (!busy) {
		ecdma_front_del(dev);
		return;
	}
	/* unregistering now would leak the channels async_tx holds */
	ecdma_debugfs_exit(front);
	ecdma_sysfs_exit(front);
	dev_set_drvdata(dev, NULL);
	ecdma_front_ghost(front);
}
EXPORT_SYMBOL_GPL(ecdma_dma_detach);

static int ecdma_probe(struct platform_device *pdev)
{
	return ecdma_front_add(&pdev->dev, NULL);
}

static void ecdma_remove(struct platform_device *pdev)
{
	ecdma_front_del(&pdev->dev);
}

static struct platform_driver ecdma_driver = {
	.probe = ecdma_probe,
	.ECDMA_PLATFORM_REMOVE = ecdma_remove,
	.driver = {
		.name = KBUILD_MODNAME,
		/*
		 * No sysfs unbind: dmaengine cannot unregister a device
		 * whose channels async_tx holds (it leaks them).  Unload
		 * instead: dmaengine's module references block it under md.
		 */
		.suppress_bind_attrs = true,
	},
};

static struct platform_device *ecdma_pdev;

/**
 * ecdma_sysfs_root() - ecdma's directory in sysfs
 *
 * For companion modules (ecdma_rdma.ko adds rdma/ there).  They depend on
 * ecdma, so the directory outlives them.
 *
 * Context: Any context, after ecdma's init.
 * Return: the kobject of /sys/devices/platform/ecdma.
 */
struct kobject *ecdma_sysfs_root(void)
{
	return &ecdma_pdev->dev.kobj;
}
EXPORT_SYMBOL_GPL(ecdma_sysfs_root);

static int __init ecdma_init(void)
{
	struct dentry *dbg;
	int ret;

	/* first: the parts below add their debugging files to it */
	dbg = ecdma_debugfs_create();
	ecdma_ec_fault_init(dbg);
	ret = ecdma_ec_core_init();
	if (ret)
		goto err_debugfs;
	ret = ecdma_cpu_init();
	if (ret)
		goto err_ec_core_exit;
	ecdma_cpu_debugfs_init(dbg);
	/* before async_tx can see a channel of ours */
	ret = ecdma_md_guard_init();
	if (ret)
		goto err_prov_cpu_exit;
	ret = ecdma_front_ghosts_init();
	if (ret)
		goto err_md_guard_exit;

	ret = platform_driver_register(&ecdma_driver);
	if (ret)
		goto err_ghosts_exit;

	ecdma_pdev = platform_device_register_simple(KBUILD_MODNAME,
						     PLATFORM_DEVID_NONE,
						     NULL, 0);
	if (IS_ERR(ecdma_pdev)) {
		ret = PTR_ERR(ecdma_pdev);
		goto err_unregister_driver;
	}

	/*
	 * A failed probe does not fail platform_device_register(): report it
	 * rather than load a module with no channels (probe logged why).
	 */
	if (!ecdma_pdev->dev.driver) {
		pr_err("provider not registered, see the messages above\n");
		ret = -ENODEV;
		goto err_unregister_device;
	}
	return 0;

err_unregister_device:
	platform_device_unregister(ecdma_pdev);
err_unregister_driver:
	platform_driver_unregister(&ecdma_driver);
err_ghosts_exit:
	ecdma_front_ghosts_exit();
err_md_guard_exit:
	ecdma_md_guard_exit();
err_prov_cpu_exit:
	ecdma_cpu_exit();
err_ec_core_exit:
	ecdma_ec_core_exit();
err_debugfs:
	ecdma_debugfs_destroy();
	return ret;
}

static void __exit ecdma_exit(void)
{
	ecdma_front_ghosts_exit();
	platform_device_unregister(ecdma_pdev);
	platform_driver_unregister(&ecdma_driver);
	ecdma_md_guard_exit();
	/* the calibration file reads the CPU provider's state */
	ecdma_debugfs_destroy();
	ecdma_cpu_exit();
	ecdma_ec_core_exit();
}

module_init(ecdma_init);
module_exit(ecdma_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("ecdma developers");
MODULE_DESCRIPTION("Erasure-coding offload: EC verbs calc engine and dmaengine XOR/PQ provider");
MODULE_VERSION(ECDMA_VERSION);
