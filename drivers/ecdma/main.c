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

static int ecdma_probe(struct platform_device *pdev)
{
	struct ecdma_front *front;
	int ret;

	ret = ecdma_front_probe(pdev);
	if (ret)
		return ret;
	front = platform_get_drvdata(pdev);
	ret = ecdma_sysfs_init(front);
	if (ret) {
		dev_err(&pdev->dev, "cannot create sysfs attributes: %d\n", ret);
		ecdma_front_remove(pdev);
		return ret;
	}
	ecdma_debugfs_init(front);
	return 0;
}

static void ecdma_remove(struct platform_device *pdev)
{
	struct ecdma_front *front = platform_get_drvdata(pdev);

	if (front) {
		ecdma_debugfs_exit(front);
		ecdma_sysfs_exit(front);
	}
	ecdma_front_remove(pdev);
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

	ret = platform_driver_register(&ecdma_driver);
	if (ret)
		goto err_md_guard_exit;

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
