// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma_rdma: the ib_client and per-device state (the handle's references
 * and work count are in rdma_dev.c, buffers and the MR pool in rdma_buf.c).
 *
 * ->add gives every RoCE device a PD, a small MR pool (grown on demand)
 * and /sys/devices/platform/ecdma/rdma/<device>/.  No upstream driver has
 * an EC engine, so calcs run on ecdma's "cpu" provider unless a provider
 * is registered under the device's own name (an out-of-tree engine).
 *
 * ->remove sets dead (every entry point checks it: nothing new starts),
 * refuses posts on every QP and drains it, waits until every primitive and
 * registration in flight finished (->done ran, with -ENODEV), and only
 * then destroys the QPs, unmaps the buffers, frees the MRs and the PD.
 * Users' handles stay allocated, dead, until they release them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "ecdma_compat.h"
#include "rdma_priv.h"

static DEFINE_MUTEX(ecdma_rdma_devs_lock); /* guards ecdma_rdma_devs */
static LIST_HEAD(ecdma_rdma_devs);

static struct ib_client ecdma_rdma_client;

/**
 * ecdma_rdma_dev_get() - take a reference on an RDMA device's EC state
 * @name: the RDMA device's name ("rxe0"), or NULL for the first one
 * Context: Process context; takes a mutex.
 * Return: the device, or ERR_PTR(-ENODEV) when there is none by that name
 * (not RoCE, not present, or its removal started).
 */
struct ecdma_rdma_dev *ecdma_rdma_dev_get(const char *name)
{
	struct ecdma_rdma_dev *dev, *found = ERR_PTR(-ENODEV);

	mutex_lock(&ecdma_rdma_devs_lock);
	list_for_each_entry(dev, &ecdma_rdma_devs, node) {
		if (!name || !strcmp(dev->name, name)) {
			kref_get(&dev->ref);
			found = dev;
			break;
		}
	}
	mutex_unlock(&ecdma_rdma_devs_lock);
	return found;
}
EXPORT_SYMBOL_GPL(ecdma_rdma_dev_get);

static int ecdma_rdma_add_one(struct ib_device *ibdev)
{
	u32 port = rdma_start_port(ibdev);
	struct ecdma_ec_provider *engine;
	struct ib_port_attr pattr;
	struct ecdma_rdma_dev *dev;
	struct ib_mr *mr;
	int i, ret;

	/* QPs connect by RoCE GID (no rdma_cm, no IB subnet manager) */
	if (!rdma_protocol_roce(ibdev, port))
		return -EOPNOTSUPP;

	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	kref_init(&dev->ref);
	strscpy(dev->name, dev_name(&ibdev->dev), sizeof(dev->name));
	dev->ibdev = ibdev;
	dev->port = port;
	dev->mr_pages = min_t(u32, ibdev->attrs.max_fast_reg_page_list_len,
			      ECDMA_RDMA_MR_PAGES);
	mutex_init(&dev->mutex);
	INIT_LIST_HEAD(&dev->qps);
	INIT_LIST_HEAD(&dev->bufs);
	spin_lock_init(&dev->lock);
	INIT_LIST_HEAD(&dev->ops);
	init_waitqueue_head(&dev->ops_wq);
	INIT_DELAYED_WORK(&dev->watchdog, ecdma_rdma_watchdog);
	INIT_LIST_HEAD(&dev->mr_free);

	engine = ecdma_ec_provider_get(dev->name);
	if (!IS_ERR(engine)) {
		struct device *edev = ecdma_ec_provider_dma_dev(engine);

		strscpy(dev->engine, dev->name, sizeof(dev->engine));
		/* an engine of its own device: buffers mapped for both */
		if (edev && edev != ibdev->dma_device)
			dev->engine_dev = get_device(edev);
	}
	ecdma_ec_provider_put(engine);

	ret = ib_query_port(ibdev, port, &pattr);
	if (ret)
		goto err_free;
	dev->mtu = pattr.active_mtu;

	dev->pd = ib_alloc_pd(ibdev, 0);
	if (IS_ERR(dev->pd)) {
		ret = PTR_ERR(dev->pd);
		goto err_free;
	}
	/* a head start; ecdma_rdma_mr_get() grows the pool */
	for (i = 0; dev->mr_pages && i < ECDMA_RDMA_MR_PREALLOC; i++) {
		mr = ib_alloc_mr(dev->pd, IB_MR_TYPE_MEM_REG, dev->mr_pages);
		if (IS_ERR(mr))
			break;
		list_add(&mr->qp_entry, &dev->mr_free);
		dev->mr_total++;
	}
	ret = ecdma_rdma_sysfs_add(dev);
	if (ret)
		goto err_free_mrs;

	mutex_lock(&ecdma_rdma_devs_lock);
	list_add_tail(&dev->node, &ecdma_rdma_devs);
	mutex_unlock(&ecdma_rdma_devs_lock);
	ib_set_client_data(ibdev, &ecdma_rdma_client, dev);
	dev_info(&ibdev->dev, "ecdma_rdma: EC engine %s, calcs on %s\n",
		 dev->engine[0] ? dev->engine : "none",
		 dev->engine[0] ? dev->engine : "the cpu provider");
	return 0;

err_free_mrs:
	ecdma_rdma_dev_free_mrs(dev);
	ib_dealloc_pd(dev->pd);
err_free:
	put_device(dev->engine_dev);
	kfree(dev);
	return ret;
}

static void ecdma_rdma_remove_one(struct ib_device *ibdev, void *data)
{
	struct ecdma_rdma_dev *dev = data;
	unsigned long flags;

	mutex_lock(&ecdma_rdma_devs_lock);
	list_del(&dev->node);
	mutex_unlock(&ecdma_rdma_devs_lock);

	/*
	 * Dead under dev->mutex too (buffers and QPs are made under it): none
	 * is made from here on, and every older QP is killed in this section.
	 */
	mutex_lock(&dev->mutex);
	spin_lock_irqsave(&dev->lock, flags);
	WRITE_ONCE(dev->dead, true);
	spin_unlock_irqrestore(&dev->lock, flags);
	/* refuse posts, flush: outstanding work requests complete */
	ecdma_rdma_dev_kill_qps(dev);
	mutex_unlock(&dev->mutex);
	/* primitives still computing finish, their ->done has run */
	wait_event(dev->ops_wq, !READ_ONCE(dev->nr_ops));
	cancel_delayed_work_sync(&dev->watchdog);

	ecdma_rdma_sysfs_del(dev);
	mutex_lock(&dev->mutex);
	ecdma_rdma_dev_free_qps(dev);
	ecdma_rdma_dev_free_bufs(dev);
	ecdma_rdma_dev_free_mrs(dev);
	ib_dealloc_pd(dev->pd);
	dev->pd = NULL;
	dev->ibdev = NULL;
	mutex_unlock(&dev->mutex);
	dev_info(&ibdev->dev, "ecdma_rdma: removed\n");
	ecdma_rdma_dev_put(dev);
}

static void ecdma_rdma_rename(struct ib_device *ibdev, void *data)
{
	struct ecdma_rdma_dev *dev = data;

	mutex_lock(&ecdma_rdma_devs_lock);
	mutex_lock(&dev->mutex);
	strscpy(dev->name, dev_name(&ibdev->dev), sizeof(dev->name));
	ecdma_rdma_sysfs_rename(dev);
	mutex_unlock(&dev->mutex);
	mutex_unlock(&ecdma_rdma_devs_lock);
}

static struct ib_client ecdma_rdma_client = {
	.name = "ecdma_rdma",
	.add = ecdma_rdma_add_one,
	.remove = ecdma_rdma_remove_one,
	.rename = ecdma_rdma_rename,
};

static int __init ecdma_rdma_init(void)
{
	int ret;

	ret = ecdma_rdma_sysfs_init();
	if (ret)
		return ret;
	ret = ib_register_client(&ecdma_rdma_client);
	if (ret)
		ecdma_rdma_sysfs_exit();
	return ret;
}

static void __exit ecdma_rdma_exit(void)
{
	/* ->remove for every device; users (modules) are gone already */
	ib_unregister_client(&ecdma_rdma_client);
	ecdma_rdma_sysfs_exit();
}

module_init(ecdma_rdma_init);
module_exit(ecdma_rdma_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("ecdma developers");
MODULE_DESCRIPTION("ecdma over RDMA: encode-and-send and in-network EC primitives on RoCE queue pairs");
MODULE_VERSION(ECDMA_VERSION);
ECDMA_MODULE_IMPORT_NS();
