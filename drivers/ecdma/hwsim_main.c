// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma_hwsim: a simulated EC engine device (hwsim.h), registered the way
 * a PCI driver registers its hardware: an EC provider whose blocks are the
 * device's DMA addresses, and ecdma's dmaengine front on the device, so
 * that async_tx maps md's pages for it.  The device is QEMU's "edu" PCI
 * function when there is one (a real struct device, behind the guest's
 * IOMMU if it has one; its BARs are not used), else a platform device.
 * Unbinding it under md is hot removal: the front moves to the CPU.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/idr.h>
#include <linux/iommu.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

#include <ecdma/dma_front.h>

#include "ecdma_compat.h"
#include "hwsim.h"

#define HWSIM_PCI_VENDOR	0x1234	/* QEMU's edu test device */
#define HWSIM_PCI_DEVICE	0x11e8

static DEFINE_IDA(hwsim_ida);
static DEFINE_MUTEX(hwsim_lock);	/* guards hwsim_list */
static LIST_HEAD(hwsim_list);
static struct platform_device *hwsim_pdev;

/**
 * hwsim_find - the simulated device on @dev
 * @dev: a device ecdma_hwsim is bound to
 * Return: its state, or NULL.
 */
struct hwsim *hwsim_find(struct device *dev)
{
	struct hwsim *sim, *found = NULL;

	mutex_lock(&hwsim_lock);
	list_for_each_entry(sim, &hwsim_list, node)
		if (sim->dev == dev)
			found = sim;
	mutex_unlock(&hwsim_lock);
	return found;
}

static void hwsim_prov_init(struct hwsim *sim, struct hwsim_prov *hp,
			    const char *name)
{
	hp->sim = sim;
	hp->prov.name = name;
	hp->prov.ops = &hwsim_prov_ops;
	/* no pin: remove() unregisters it after the front let go */
	hp->prov.owner = NULL;
	hp->prov.dma_dev = sim->dev;
	hp->prov.caps = (struct ecdma_ec_caps) {
		.max_k = HWSIM_MAX_K,
		.max_m = HWSIM_MAX_M,
		.w_mask = BIT(ECDMA_EC_W - 1),
		.max_inflight = HWSIM_INFLIGHT,
		.block_align = HWSIM_ALIGN,
		.flags = ECDMA_EC_CAP_UPDATE | ECDMA_EC_CAP_INPLACE |
			 ECDMA_EC_CAP_VALIDATE,
	};
}

/**
 * hwsim_set_alias - the engine also as provider @name, or no longer
 * @sim: the device
 * @name: an RDMA device's name (ecdma_rdma takes a provider of that name
 *	as the device's EC engine when the device appears), or "": none
 *
 * Context: process context.
 * Return: 0; -EBUSY while the alias has calcs or users, -EEXIST for a
 * name taken, -EINVAL for one too long.
 */
int hwsim_set_alias(struct hwsim *sim, const char *name)
{
	int ret = 0;

	if (strlen(name) >= sizeof(sim->alias_name))
		return -EINVAL;
	mutex_lock(&sim->qlock);
	if (sim->alias_name[0]) {
		/* the registry's own reference only: nobody uses it */
		if (refcount_read(&sim->alias.prov.users) != 1) {
			ret = -EBUSY;
			goto out;
		}
		ecdma_ec_provider_unregister(&sim->alias.prov);
		sim->alias_name[0] = 0;
	}
	if (name[0]) {
		strscpy(sim->alias_name, name, sizeof(sim->alias_name));
		hwsim_prov_init(sim, &sim->alias, sim->alias_name);
		/* its users are outside ecdma's front: they pin the module */
		sim->alias.prov.owner = THIS_MODULE;
		ret = ecdma_ec_provider_register(&sim->alias.prov);
		if (ret)
			sim->alias_name[0] = 0;
	}
out:
	mutex_unlock(&sim->qlock);
	return ret;
}

/* Bring up the device on @dev: provider, knobs, watchdog, dmaengine front */
static int hwsim_add(struct device *dev)
{
	struct iommu_domain *dom;
	struct hwsim *sim;
	int ret, id;

	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64));
	if (ret)
		return ret;
	sim = kzalloc(sizeof(*sim), GFP_KERNEL);
	if (!sim)
		return -ENOMEM;
	id = ida_alloc(&hwsim_ida, GFP_KERNEL);
	if (id < 0) {
		kfree(sim);
		return id;
	}
	sim->dev = dev;
	sim->id = id;
	dom = iommu_get_domain_for_dev(dev);
	sim->iommu = dom && (dom->type & __IOMMU_DOMAIN_PAGING) ? dom : NULL;
	snprintf(sim->name, sizeof(sim->name), "hwsim%d", id);
	sim->latency_us = 20;
	sim->timeout_ms = 500;
	mutex_init(&sim->qlock);
	INIT_DELAYED_WORK(&sim->wd, hwsim_watchdog);
	ret = hwsim_engine_init(sim);
	if (ret)
		goto err_free;
	hwsim_prov_init(sim, &sim->prov, sim->name);
	ret = ecdma_ec_provider_register(&sim->prov.prov);
	if (ret)
		goto err_engine;
	ret = device_add_groups(dev, hwsim_groups);
	if (ret)
		goto err_unregister;
	mutex_lock(&hwsim_lock);
	list_add_tail(&sim->node, &hwsim_list);
	mutex_unlock(&hwsim_lock);
	schedule_delayed_work(&sim->wd, msecs_to_jiffies(sim->timeout_ms / 4));
	ret = ecdma_dma_attach(dev, sim->name);
	if (ret)
		goto err_list;
	dev_info(dev, "%s: %u queues of %u entries, %s DMA\n", sim->name,
		 HWSIM_QUEUES, HWSIM_SQ_DEPTH, sim->iommu ? "IOMMU" : "direct");
	return 0;

err_list:
	cancel_delayed_work_sync(&sim->wd);
	mutex_lock(&hwsim_lock);
	list_del(&sim->node);
	mutex_unlock(&hwsim_lock);
	device_remove_groups(dev, hwsim_groups);
err_unregister:
	ecdma_ec_provider_unregister(&sim->prov.prov);
err_engine:
	hwsim_engine_exit(sim);
err_free:
	ida_free(&hwsim_ida, id);
	kfree(sim);
	return ret;
}

static void hwsim_del(struct device *dev)
{
	struct hwsim *sim = hwsim_find(dev);

	if (!sim)
		return;
	/* unbound under md: the front moves its channels to the CPU first */
	ecdma_dma_detach(dev);
	/* the alias's users (ecdma_rdma's calcs) go before the engine does */
	while (hwsim_set_alias(sim, "") == -EBUSY) {
		dev_warn_ratelimited(dev, "waiting for the users of %s\n",
				     sim->alias_name);
		msleep(100);
	}
	cancel_delayed_work_sync(&sim->wd);
	mutex_lock(&hwsim_lock);
	list_del(&sim->node);
	mutex_unlock(&hwsim_lock);
	device_remove_groups(dev, hwsim_groups);
	ecdma_ec_provider_unregister(&sim->prov.prov);
	hwsim_engine_exit(sim);
	ida_free(&hwsim_ida, sim->id);
	kfree(sim);
}

static int hwsim_pci_probe(struct pci_dev *pdev,
			   const struct pci_device_id *id)
{
	return hwsim_add(&pdev->dev);
}

static void hwsim_pci_remove(struct pci_dev *pdev)
{
	hwsim_del(&pdev->dev);
}

static const struct pci_device_id hwsim_pci_ids[] = {
	{ PCI_DEVICE(HWSIM_PCI_VENDOR, HWSIM_PCI_DEVICE) },
	{ }
};

/* No MODULE_DEVICE_TABLE: a QEMU with edu must not load a simulator */
static struct pci_driver hwsim_pci_driver = {
	.name = KBUILD_MODNAME,
	.id_table = hwsim_pci_ids,
	.probe = hwsim_pci_probe,
	.remove = hwsim_pci_remove,
};

static int hwsim_plat_probe(struct platform_device *pdev)
{
	return hwsim_add(&pdev->dev);
}

static void hwsim_plat_remove(struct platform_device *pdev)
{
	hwsim_del(&pdev->dev);
}

static struct platform_driver hwsim_plat_driver = {
	.probe = hwsim_plat_probe,
	.ECDMA_PLATFORM_REMOVE = hwsim_plat_remove,
	.driver = {
		.name = KBUILD_MODNAME,
	},
};

static int __init hwsim_init(void)
{
	bool none;
	int ret;

	ret = pci_register_driver(&hwsim_pci_driver);
	if (ret)
		return ret;
	mutex_lock(&hwsim_lock);
	none = list_empty(&hwsim_list);
	mutex_unlock(&hwsim_lock);
	if (!none)
		return 0;
	/* no edu function: a platform device, dma-direct */
	ret = platform_driver_register(&hwsim_plat_driver);
	if (ret)
		goto err_pci;
	hwsim_pdev = platform_device_register_simple(KBUILD_MODNAME,
						     PLATFORM_DEVID_NONE,
						     NULL, 0);
	if (IS_ERR(hwsim_pdev)) {
		ret = PTR_ERR(hwsim_pdev);
		goto err_plat;
	}
	if (!hwsim_pdev->dev.driver) {
		pr_err("the simulated device did not come up, see above\n");
		ret = -ENODEV;
		platform_device_unregister(hwsim_pdev);
		goto err_plat;
	}
	return 0;

err_plat:
	hwsim_pdev = NULL;
	platform_driver_unregister(&hwsim_plat_driver);
err_pci:
	pci_unregister_driver(&hwsim_pci_driver);
	return ret;
}

static void __exit hwsim_exit(void)
{
	if (hwsim_pdev) {
		platform_device_unregister(hwsim_pdev);
		platform_driver_unregister(&hwsim_plat_driver);
	}
	pci_unregister_driver(&hwsim_pci_driver);
}

module_init(hwsim_init);
module_exit(hwsim_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("ecdma developers");
MODULE_DESCRIPTION("ecdma: a simulated EC engine device behind the dmaengine front");
ECDMA_MODULE_IMPORT_NS();
