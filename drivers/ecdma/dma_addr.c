// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma dmaengine front: from a client's dma_addr_t to a kernel virtual
 * address.  Probe checked that DMA addresses are physical, but a client
 * may pass MMIO (dma_map_resource()), an unmapped address or one past RAM,
 * so each block must lie in System RAM and its first and last pages be
 * valid lowmem (in the direct map).  The RAM ranges are copied at probe,
 * to avoid resource_lock per block; a block outside them is looked up in
 * the resource tree itself, so RAM hot-added later is RAM too (md has no
 * error path: a block refused here is parity never computed).
 *
 * A device's front (front->dev_addrs) hands its engine the DMA addresses
 * as they are; only its fallback and rescue come here, and with an IOMMU
 * the address is an IOVA, looked up in the device's domain.
 */
#include <linux/dma-mapping.h>
#include <linux/dma-direct.h>
#include <linux/interrupt.h>
#include <linux/iommu.h>
#include <linux/ioport.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "front.h"

struct ecdma_ram_walk {
	struct ecdma_ram_range *r;
	unsigned int nr;
	unsigned int max;
};

/* Resources come in address order; adjacent ones are merged. */
static int ecdma_ram_add(struct resource *res, void *arg)
{
	struct ecdma_ram_walk *w = arg;
	u64 start = res->start, end = res->end + 1;

	if (w->nr && w->r && w->r[w->nr - 1].end == start) {
		w->r[w->nr - 1].end = end;
		return 0;
	}
	if (w->r) {
		if (w->nr == w->max)
			return -ENOSPC;	/* changed since counted */
		w->r[w->nr].start = start;
		w->r[w->nr].end = end;
	}
	w->nr++;
	return 0;
}

static int ecdma_ram_walk(struct ecdma_ram_walk *w)
{
	return walk_iomem_res_desc(IORES_DESC_NONE,
				   IORESOURCE_SYSTEM_RAM | IORESOURCE_BUSY, 0,
				   -1, w, ecdma_ram_add);
}

/**
 * ecdma_front_ram_init - copy the System RAM ranges
 * @front: the front being probed
 *
 * Context: process context.
 * Return: 0, -ENOMEM, or -ENODEV when there is no System RAM resource.
 */
int ecdma_front_ram_init(struct ecdma_front *front)
{
	struct ecdma_ram_walk w = { };
	int tries;

	/* count, allocate (room for 2 more), copy: again if RAM changed */
	for (tries = 0; tries < 3; tries++) {
		w.r = NULL;
		w.nr = 0;
		ecdma_ram_walk(&w);
		if (!w.nr)
			return -ENODEV;
		w.max = w.nr + 2;
		w.r = kcalloc(w.max, sizeof(*w.r), GFP_KERNEL);
		if (!w.r)
			return -ENOMEM;
		w.nr = 0;
		if (!ecdma_ram_walk(&w)) {
			front->ram = w.r;
			front->nr_ram = w.nr;
			return 0;
		}
		kfree(w.r);
	}
	return -ENODEV;
}

/**
 * ecdma_front_ram_exit - free what ecdma_front_ram_init() allocated
 * @front: the front
 */
void ecdma_front_ram_exit(struct ecdma_front *front)
{
	kfree(front->ram);
	front->ram = NULL;
	front->nr_ram = 0;
}

/* [phys, phys + len) lies inside one System RAM range of the copy */
static bool ecdma_ram_covers(const struct ecdma_front *front, u64 phys,
			     u64 len)
{
	unsigned int lo = 0, hi = front->nr_ram;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;
		const struct ecdma_ram_range *r = &front->ram[mid];

		if (phys < r->start)
			hi = mid;
		else if (phys >= r->end)
			lo = mid + 1;
		else
			return len <= r->end - phys;
	}
	return false;
}

static bool ecdma_pfn_direct(unsigned long pfn)
{
	return pfn_valid(pfn) && !PageHighMem(pfn_to_page(pfn));
}

/**
 * ecdma_addr_to_cpu - turn a block's DMA address into a kernel address
 * @front: the front
 * @addr: in: the DMA address; out: the kernel virtual address
 * @len: the block's length (> 0)
 *
 * Context: any; never sleeps.  Takes resource_lock (read) for a block
 * outside the RAM copied at probe, and refuses such a block in hardirq
 * context, where a writer of the resource tree could be interrupted.
 * Return: 0, or -EFAULT (nothing changed) for a mapping error (checked here
 * for DMA-API debugging: async_tx never does) or a block not in the direct map.
 */
int ecdma_addr_to_cpu(struct ecdma_front *front, u64 *addr, u32 len)
{
	phys_addr_t phys;

	if (dma_mapping_error(front->dev, *addr) || !len)
		return -EFAULT;
	if (front->iommu) {
		/* an IOVA range maps page by page: the block must stay whole */
		phys = iommu_iova_to_phys(front->iommu, *addr);
		if (!phys ||
		    iommu_iova_to_phys(front->iommu, *addr + len - 1) !=
		    phys + len - 1)
			return -EFAULT;
	} else {
		phys = dma_to_phys(front->dev, *addr);
	}
	if (phys + len < phys ||
	    (!ecdma_ram_covers(front, phys, len) &&
	     (in_hardirq() ||
	      region_intersects(phys, len, IORESOURCE_SYSTEM_RAM,
				IORES_DESC_NONE) != REGION_INTERSECTS)) ||
	    !ecdma_pfn_direct(PHYS_PFN(phys)) ||
	    !ecdma_pfn_direct(PHYS_PFN(phys + len - 1)))
		return -EFAULT;
	*addr = (uintptr_t)phys_to_virt(phys);
	return 0;
}

/**
 * ecdma_sges_to_cpu - ecdma_addr_to_cpu() for @n blocks of @len bytes
 * @front: the front
 * @sge: the blocks, translated in place
 * @n: how many
 * @len: their length
 *
 * Context: as ecdma_addr_to_cpu().
 * Return: 0, or -EFAULT at the first block that is not RAM (those before
 * it are translated).
 */
int ecdma_sges_to_cpu(struct ecdma_front *front, struct ecdma_ec_sge *sge,
		      unsigned int n, u32 len)
{
	unsigned int i;
	int err;

	for (i = 0; i < n; i++) {
		err = ecdma_addr_to_cpu(front, &sge[i].addr, len);
		if (err)
			return err;
	}
	return 0;
}
