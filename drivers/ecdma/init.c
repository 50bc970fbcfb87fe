// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma dmaengine front: probe, channels, capabilities and removal.
 *
 * Probe checks that DMA addresses map 1:1 onto the direct map (the CPU
 * engine reads through it), takes the EC provider, creates one channel per
 * online CPU (each with its own calc and descriptor pool), runs the
 * known-answer self-test and registers the dmaengine device.  The front is
 * freed by ->device_release once dmaengine drops its last reference.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/dma-direct.h>
#include <linux/dma-map-ops.h>
#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/iommu.h>
#include <linux/log2.h>
#include <linux/overflow.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/swiotlb.h>

#include "front.h"

/*
 * Every WR carries its own coefficients, but a per-WR layout may not exceed
 * the calc's k x m, so the calcs are max_src x 2.  Their own matrix, unused,
 * is RAID-6 P/Q (MDS for k <= 255): row i = {1, {02}^i}.
 */
static void ecdma_front_calc_matrix(struct ecdma_front *front)
{
	unsigned int i;
	u8 g = 1;

	for (i = 0; i < front->calc_k; i++) {
		front->calc_matrix[2 * i] = 1;
		front->calc_matrix[2 * i + 1] = g;
		g = (g << 1) ^ (g & 0x80 ? 0x1d : 0);
	}
}

/**
 * ecdma_front_stats_reset - zero every channel's counters
 * @front: the front
 *
 * At probe (forget the self-test) and from sysfs stats/reset.  Under load
 * an increment racing with the reset on another CPU may survive it.
 */
void ecdma_front_stats_reset(struct ecdma_front *front)
{
	unsigned int i;
	int cpu;

	for (i = 0; i < front->nr_chans; i++)
		for_each_possible_cpu(cpu)
			memset(per_cpu_ptr(front->chans[i].stats, cpu), 0,
			       sizeof(struct ecdma_chan_stats));
}

/**
 * ecdma_front_calc_attr - the attributes of a channel's calc
 * @front: the front
 * @cpu: its affinity hint, or -1
 * Return: calc_k x 2 with the front's own matrix, max_desc in flight.
 */
struct ecdma_ec_calc_attr ecdma_front_calc_attr(const struct ecdma_front *front,
						int cpu)
{
	return (struct ecdma_ec_calc_attr) {
		.k = front->calc_k,
		.m = ECDMA_XLATE_MAX_CODE,
		.w = ECDMA_EC_W,
		.max_inflight = front->max_desc,
		.affinity_hint = cpu,
		.polling = false,
		.matrix_type = ECDMA_EC_MATRIX_USER,
		.encode_matrix = front->calc_matrix,
	};
}

static int ecdma_chan_init(struct ecdma_front *front, struct ecdma_chan *ch,
			   int cpu)
{
	struct ecdma_ec_calc_attr attr = ecdma_front_calc_attr(front, cpu);
	struct ecdma_ec_calc *calc;
	struct ecdma_desc *d;
	unsigned int i;

	ch->stats = alloc_percpu(struct ecdma_chan_stats);
	if (!ch->stats)
		return -ENOMEM;

	calc = ecdma_ec_alloc_calc(front->prov, &attr);
	if (IS_ERR(calc)) {
		dev_err(front->dev, "cannot allocate an EC calc: %ld\n",
			PTR_ERR(calc));
		return PTR_ERR(calc);
	}
	ch->calc = calc;

	/* one operation at a time, run by whoever completes @calc's WRs */
	if (front->fb_prov) {
		attr.max_inflight = 1;
		attr.affinity_hint = -1;
		calc = ecdma_ec_alloc_calc(front->fb_prov, &attr);
		if (IS_ERR(calc)) {
			dev_err(front->dev, "cannot allocate a fallback EC calc: %ld\n",
				PTR_ERR(calc));
			return PTR_ERR(calc);
		}
		ch->fb_calc = calc;
	}

	for (i = 0; i < min_t(u32, ECDMA_DESC_INIT, front->max_desc); i++) {
		d = ecdma_desc_new(ch, GFP_KERNEL);
		if (!d)
			return -ENOMEM;
		list_add_tail(&d->node, &ch->free);
		list_add_tail(&d->all_node, &ch->all);
		ch->nr_desc++;
	}

	ch->chan.device = &front->dma;
	ecdma_cookie_init(&ch->chan);
	list_add_tail(&ch->chan.device_node, &front->dma.channels);
	return 0;
}

/**
 * ecdma_chan_recalc - replace an idle channel's calc
 * @ch: the channel, with no client (!ch->active)
 * @prov: provider of the new calc (the current one to rebuild it, e.g.
 *	after a GF algo change)
 *
 * Context: process context, holding front->cfg_lock.
 * Return: 0, or a negative errno with the old calc left in place.
 */
int ecdma_chan_recalc(struct ecdma_chan *ch, struct ecdma_ec_provider *prov)
{
	struct ecdma_front *front = ch->front;
	struct ecdma_ec_calc_attr attr =
		ecdma_front_calc_attr(front, ecdma_ec_calc_cpu(ch->calc));
	struct ecdma_ec_calc *calc, *old = ch->calc;
	struct ecdma_ec_caps caps;
	int ret;

	lockdep_assert_held(&front->cfg_lock);
	if (ch->active)
		return -EBUSY;
	/* blocks are @front->dev's DMA addresses or kernel addresses: keep it */
	if (ecdma_ec_provider_dma_dev(prov) !=
	    (front->dev_addrs ? front->dev : NULL))
		return -EINVAL;
	ret = ecdma_ec_query_caps(prov, &caps);
	if (ret)
		return ret;
	/* the dmaengine alignment was advertised from the first provider */
	if (!caps.block_align || front->caps.block_align % caps.block_align)
		return -EINVAL;
	calc = ecdma_ec_alloc_calc(prov, &attr);
	if (IS_ERR(calc))
		return PTR_ERR(calc);
	ecdma_chan_drain(ch);
	WRITE_ONCE(ch->calc, calc);
	ecdma_ec_dealloc_calc(old);
	return 0;
}

/* Also undoes a partial ecdma_chan_init(). */
static void ecdma_chan_destroy(struct ecdma_front *front, struct ecdma_chan *ch)
{
	struct ecdma_desc *d, *n;

	if (ch->calc) {
		ecdma_chan_drain(ch);
		ecdma_ec_dealloc_calc(ch->calc);
	}
	/* after @calc: its completions were the fallback's only users */
	if (ch->fb_calc)
		ecdma_ec_dealloc_calc(ch->fb_calc);
	tasklet_kill(&ch->cb_tasklet);
	list_for_each_entry_safe(d, n, &ch->all, all_node)
		ecdma_desc_free(d);
	free_percpu(ch->stats);
}

/* Channel i runs its completions on the i-th online CPU. */
static int ecdma_front_init_chans(struct ecdma_front *front)
{
	int cpu = cpumask_first(cpu_online_mask);
	unsigned int i;
	int ret;

	for (i = 0; i < front->nr_chans; i++) {
		ret = ecdma_chan_init(front, &front->chans[i],
				      cpu < nr_cpu_ids ? cpu : -1);
		if (ret)
			return ret;
		if (cpu < nr_cpu_ids)
			cpu = cpumask_next(cpu, cpu_online_mask);
	}
	return 0;
}

/* Frees @front and everything it holds, however far probe got. */
static void ecdma_front_free(struct ecdma_front *front)
{
	unsigned int i;

	for (i = 0; i < front->nr_chans; i++)
		ecdma_chan_destroy(front, &front->chans[i]);
	ecdma_front_ram_exit(front);
	ecdma_ec_provider_put(front->prov);
	ecdma_ec_provider_put(front->fb_prov);
	kfree(front->dbg);
	kfree(front);
}

/* dma_device.device_release: the last channel reference is gone. */
static void ecdma_front_release(struct dma_device *dma)
{
	struct ecdma_front *front = container_of(dma, struct ecdma_front, dma);
	struct device *dev = front->dev;

	ecdma_front_free(front);
	put_device(dev);
}

/*
 * Stop feeding chan->local (dmaengine frees it on unregister): the flag
 * is read under the channel locks, so passing through each lock once
 * waits out a completion that saw it still set.
 */
static void ecdma_front_unregister(struct ecdma_front *front)
{
	unsigned long flags;
	unsigned int i;

	ecdma_policy_stop(front);
	WRITE_ONCE(front->core_stats, false);
	for (i = 0; i < front->nr_chans; i++) {
		spin_lock_irqsave(&front->chans[i].lock, flags);
		spin_unlock_irqrestore(&front->chans[i].lock, flags);
	}
	dma_async_device_unregister(&front->dma);
}

/*
 * The CPU provider reads and writes memory by kernel virtual address, so a
 * dma_addr_t must be a physical address with nothing in between: no IOMMU,
 * no dma_map_ops, no DMA range offsets, no swiotlb bouncing.  Check the
 * configuration, then map a page and translate it back.
 */
static int ecdma_front_check_dma(struct device *dev)
{
	struct page *page;
	dma_addr_t addr;
	int ret = 0;

	if (get_dma_ops(dev) || ecdma_dev_dma_iommu(dev) || dev->dma_range_map) {
		dev_err(dev, "DMA mapping is translated (IOMMU, dma_map_ops or DMA ranges); the CPU engine needs direct mapping, not registering\n");
		return -ENODEV;
	}
	if (!dev_is_dma_coherent(dev)) {
		dev_err(dev, "DMA is not coherent; the CPU engine cannot keep caches in step, not registering\n");
		return -ENODEV;
	}
	if (is_swiotlb_force_bounce(dev)) {
		dev_err(dev, "swiotlb bouncing is forced (swiotlb=force or guest memory encryption); the CPU engine cannot work on bounce buffers, not registering\n");
		return -ENODEV;
	}

	page = alloc_page(GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	addr = dma_map_page(dev, page, 0, PAGE_SIZE, DMA_BIDIRECTIONAL);
	if (dma_mapping_error(dev, addr)) {
		dev_err(dev, "cannot DMA-map a test page, not registering\n");
		ret = -ENODEV;
		goto out_free_page;
	}
	if (dma_to_phys(dev, addr) != page_to_phys(page) ||
	    phys_to_virt(dma_to_phys(dev, addr)) != page_address(page)) {
		dev_err(dev, "DMA address %pad of a test page does not translate back to it (bounced or remapped), not registering\n",
			&addr);
		ret = -ENODEV;
	}
	dma_unmap_page(dev, addr, PAGE_SIZE, DMA_BIDIRECTIONAL);
out_free_page:
	__free_page(page);
	return ret;
}

/* Query the provider; refuse what the translation cannot live with. */
static int ecdma_front_caps(struct ecdma_front *front)
{
	const u32 need = ECDMA_EC_CAP_INPLACE | ECDMA_EC_CAP_VALIDATE;
	struct ecdma_ec_caps *caps = &front->caps;
	int ret;

	ret = ecdma_ec_query_caps(front->prov, caps);
	if (ret) {
		dev_err(front->dev, "cannot query the EC provider: %d\n", ret);
		return ret;
	}
	if (!caps->block_align)
		caps->block_align = 1;
	if (!(caps->w_mask & BIT(ECDMA_EC_W - 1)) ||
	    (caps->flags & need) != need || caps->max_k < 2 ||
	    caps->max_m < ECDMA_XLATE_MAX_CODE || caps->max_inflight < 3 ||
	    !is_power_of_2(caps->block_align) || caps->block_align > SZ_4K) {
		dev_err(front->dev,
			"EC provider unsuitable (needs GF(2^8), in-place, validate, k >= 2, m >= 2, 3 WRs in flight, power-of-two block alignment up to 4 KiB): w_mask %#x flags %#x max_k %u max_m %u max_inflight %u block_align %u\n",
			caps->w_mask, caps->flags, caps->max_k, caps->max_m,
			caps->max_inflight, caps->block_align);
		return -ENODEV;
	}
	front->max_desc = min_t(u32, ECDMA_DESC_MAX, caps->max_inflight);
	front->desc_max = front->max_desc;
	front->calc_k = min_t(u32, ECDMA_XLATE_MAX_SRC, caps->max_k);
	ecdma_front_calc_matrix(front);
	return 0;
}

static void ecdma_front_init_dma(struct ecdma_front *front)
{
	struct dma_device *dma = &front->dma;
	unsigned int max_src = front->calc_k;
	enum dmaengine_alignment align = ilog2(front->caps.block_align);

	dma->dev = front->dev;
	INIT_LIST_HEAD(&dma->channels);
	dma_cap_set(DMA_MEMCPY, dma->cap_mask);
	dma_cap_set(DMA_XOR, dma->cap_mask);
	dma_cap_set(DMA_XOR_VAL, dma->cap_mask);
	dma_cap_set(DMA_PQ, dma->cap_mask);
	dma_cap_set(DMA_PQ_VAL, dma->cap_mask);
	dma_cap_set(DMA_INTERRUPT, dma->cap_mask);
	dma->max_xor = max_src;
	dma_set_maxpq(dma, max_src, 1);
	front->align = align;
	/* async_tx's copies are declined: dma.c */
	dma->copy_align = ECDMA_ALIGN_DECLINE;
	dma->xor_align = align;
	dma->pq_align = align;

	ecdma_prep_set_ops(dma);
	ecdma_dma_set_ops(dma);
	dma->device_release = ecdma_front_release;
}

/* @dev's translating IOMMU domain (IOVAs), or NULL: dma-direct */
static struct iommu_domain *ecdma_front_iommu(struct device *dev)
{
	struct iommu_domain *dom = iommu_get_domain_for_dev(dev);

	return dom && (dom->type & __IOMMU_DOMAIN_PAGING) ? dom : NULL;
}

/*
 * The provider's view of DMA: the CPU provider needs the direct map of
 * @dev; a device provider must be @dev's own engine.  Either way async_tx's
 * mappings must not bounce: it maps an operation's pages when it is
 * prepared, before the operations it depends on have run, so a bounce
 * buffer would hold their inputs as they were before.
 */
static int ecdma_front_check_prov(struct device *dev,
				  struct ecdma_ec_provider *prov)
{
	struct device *edev = ecdma_ec_provider_dma_dev(prov);

	if (!edev) {
		int ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64));

		if (ret) {
			dev_err(dev, "cannot set a 64-bit DMA mask: %d\n", ret);
			return ret;
		}
		return ecdma_front_check_dma(dev);
	}
	if (edev != dev) {
		dev_err(dev, "EC provider %s is the engine of %s, not of this device\n",
			ecdma_ec_provider_name(prov), dev_name(edev));
		return -EINVAL;
	}
	if (is_swiotlb_force_bounce(dev)) {
		dev_err(dev, "swiotlb bouncing is forced; async_tx maps before the operations it depends on run, so chains would read stale bounce buffers; not registering\n");
		return -ENODEV;
	}
	if (!ecdma_front_iommu(dev) && dev->dma_mask &&
	    dma_get_required_mask(dev) > *dev->dma_mask) {
		dev_err(dev, "DMA mask %#llx does not reach all memory: swiotlb would bounce, not registering\n",
			*dev->dma_mask);
		return -ENODEV;
	}
	return 0;
}

/* @nr channels, 0: one per online CPU (at least 2) */
static int __ecdma_front_probe(struct device *dev, const char *prov_name,
			       unsigned int nr)
{
	struct ecdma_ec_provider *prov;
	struct ecdma_front *front;
	unsigned int i;
	int ret;

	prov = ecdma_ec_provider_get(prov_name);
	if (IS_ERR_OR_NULL(prov)) {
		ret = prov ? PTR_ERR(prov) : -ENODEV;
		dev_err(dev, "no EC verbs provider %s: %d\n",
			prov_name ?: "(default)", ret);
		return ret;
	}
	ret = ecdma_front_check_prov(dev, prov);
	if (ret)
		goto err_put_provider;

	nr = nr ?: clamp_t(unsigned int, num_online_cpus(), 2, ECDMA_MAX_CHANS);
	front = kzalloc(struct_size(front, chans, nr), GFP_KERNEL);
	if (!front) {
		ret = -ENOMEM;
		goto err_put_provider;
	}
	front->dev = dev;
	front->prov = prov;
	front->dev_addrs = !!ecdma_ec_provider_dma_dev(prov);
	if (front->dev_addrs)
		front->iommu = ecdma_front_iommu(dev);
	front->inline_issue = true;
	front->fuse = ECDMA_FUSE_AUTO;
	mutex_init(&front->cfg_lock);
	front->nr_chans = nr;
	for (i = 0; i < nr; i++) {
		struct ecdma_chan *ch = &front->chans[i];

		ch->front = front;
		ch->idx = i;
		spin_lock_init(&ch->lock);
		INIT_LIST_HEAD(&ch->free);
		INIT_LIST_HEAD(&ch->submitted);
		INIT_LIST_HEAD(&ch->posted);
		INIT_LIST_HEAD(&ch->callbacks);
		INIT_LIST_HEAD(&ch->completed);
		INIT_LIST_HEAD(&ch->all);
		tasklet_setup(&ch->cb_tasklet, ecdma_chan_callbacks);
	}

	/* From here on ecdma_front_free() undoes everything. */
	front->fb_prov = ecdma_ec_provider_get("cpu");
	if (IS_ERR(front->fb_prov)) {
		dev_warn(dev, "no CPU provider: operations the provider fails are not recomputed\n");
		front->fb_prov = NULL;
	}
	ret = ecdma_front_caps(front);
	if (ret)
		goto err_free_front;
	ret = ecdma_front_ram_init(front);
	if (ret) {
		dev_err(dev, "cannot read the System RAM ranges: %d\n", ret);
		goto err_free_front;
	}
	ecdma_front_init_dma(front);
	ret = ecdma_front_init_chans(front);
	if (ret)
		goto err_free_front;

	ret = ecdma_selftest(front);
	if (ret) {
		dev_err(dev, "self-test failed (%d), not registering\n", ret);
		goto err_free_front;
	}
	ret = ecdma_fuse_calibrate(front);
	if (ret) {
		dev_err(dev, "composed chains failed their test (%d), not registering\n",
			ret);
		goto err_free_front;
	}
	ecdma_front_stats_reset(front);

	get_device(dev);
	ret = dma_async_device_register(&front->dma);
	if (ret) {
		dev_err(dev, "dmaengine registration failed: %d\n", ret);
		put_device(dev);
		goto err_free_front;
	}
	/* From here on front->dma.device_release frees everything. */
	WRITE_ONCE(front->core_stats, true);
	if (!dma_has_cap(DMA_ASYNC_TX, front->dma.cap_mask)) {
		dev_err(dev, "dmaengine did not mark the device DMA_ASYNC_TX, so async_tx and md would never use it; not registering\n");
		ret = -ENODEV;
		goto err_unregister;
	}

	ret = ecdma_policy_start(front);
	if (ret)
		goto err_unregister;
	dev_set_drvdata(dev, front);
	dev_info(dev, "%s: %u channels, max_xor %u, max_pq %d, align %u B, caps: memcpy xor xor_val pq pq_val interrupt\n",
		 ecdma_ec_provider_name(prov), nr, front->dma.max_xor,
		 dma_maxpq(&front->dma, 0),
		 front->caps.block_align);
	return 0;

err_unregister:
	ecdma_front_unregister(front);
	return ret;
err_free_front:
	ecdma_front_free(front);
	return ret;
err_put_provider:
	ecdma_ec_provider_put(prov);
	return ret;
}

/**
 * ecdma_front_probe - register a dmaengine provider on @dev
 * @dev: ecdma's platform device, or a device whose engine is @prov_name
 * @prov_name: the EC provider, or NULL for the default (the CPU provider)
 *
 * @dev's driver data becomes the front (sysfs reads it from there).
 * Context: process context, from a driver's probe, holding device_lock().
 * Return: 0 or a negative errno; nothing is registered on failure.
 */
int ecdma_front_probe(struct device *dev, const char *prov_name)
{
	return __ecdma_front_probe(dev, prov_name, 0);
}

/**
 * ecdma_front_retire - unregister a front no device points to any more
 * @front: a ghost front (dma_failover.c), its clients gone
 *
 * Context: process context, not under dma_list_mutex.
 */
void ecdma_front_retire(struct ecdma_front *front)
{
	ecdma_front_unregister(front);
}

/**
 * ecdma_front_remove - unregister the dmaengine provider
 * @dev: the front's device
 *
 * The front itself is freed by ->device_release once dmaengine drops its
 * last channel reference (at once unless a client still holds one).
 */
void ecdma_front_remove(struct device *dev)
{
	struct ecdma_front *front = dev_get_drvdata(dev);

	if (!front)
		return;
	dev_set_drvdata(dev, NULL);
	ecdma_front_unregister(front);
}

/**
 * ecdma_front_close - refuse new clients, before ecdma_front_rechannel()
 * @front: the registered front
 *
 * Only while no client holds a channel; from here on clients fail to take
 * one (-EBUSY) until the front is registered again.
 *
 * Context: process context, holding device_lock() of the front's device.
 * Return: 0, or -EBUSY (a channel is in use, nothing changed).
 */
int ecdma_front_close(struct ecdma_front *front)
{
	unsigned int i;
	bool idle;

	mutex_lock(&front->cfg_lock);
	for (i = 0; i < front->nr_chans; i++)
		if (front->chans[i].active)
			break;
	idle = i == front->nr_chans;
	front->closing = idle;
	mutex_unlock(&front->cfg_lock);
	return idle ? 0 : -EBUSY;
}

/**
 * ecdma_front_rechannel - register the front again with @nr channels
 * @dev: the front's device, its front closed (ecdma_front_close())
 * @nr: channels, 2..ECDMA_MAX_CHANS
 *
 * If the new front does not come up the old channel count is tried again.
 * The provider, inline_issue, fuse, desc_max and offload are kept; counters
 * and per-channel settings restart.  The caller removes the old front's
 * files before and adds the new one's after.
 *
 * Context: process context, holding device_lock(@dev).
 * Return: 0, -ENODEV (no front bound), or the error of the new probe.
 */
int ecdma_front_rechannel(struct device *dev, unsigned int nr)
{
	struct ecdma_front *front = dev_get_drvdata(dev);
	struct ecdma_ec_provider *prov;
	enum ecdma_offload offload;
	unsigned int old, desc_max;
	bool inline_issue;
	const char *name;
	u8 fuse;
	int ret;

	device_lock_assert(dev);
	if (!front)
		return -ENODEV;

	old = front->nr_chans;
	inline_issue = READ_ONCE(front->inline_issue);
	fuse = READ_ONCE(front->fuse);
	desc_max = READ_ONCE(front->desc_max);
	offload = ecdma_policy_mode(front);
	/* the provider stays registered while we hold it: its name too */
	prov = front->prov;
	name = ecdma_ec_provider_name(prov);
	ecdma_ec_provider_get(name);
	ecdma_front_remove(dev);
	ret = __ecdma_front_probe(dev, name, nr);
	if (ret) {
		if (__ecdma_front_probe(dev, name, old)) {
			dev_err(dev, "cannot register the channels again; reload ecdma\n");
			ecdma_ec_provider_put(prov);
			return ret;
		}
	}
	ecdma_ec_provider_put(prov);
	front = dev_get_drvdata(dev);
	if (front) {
		WRITE_ONCE(front->inline_issue, inline_issue);
		ecdma_fuse_set(front, fuse);
		WRITE_ONCE(front->desc_max, min(desc_max, front->max_desc));
		ecdma_policy_set_mode(front, offload);
	}
	return ret;
}
