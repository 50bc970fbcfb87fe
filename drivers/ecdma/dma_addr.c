// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma dmaengine front: from the dma_addr_t a client hands us to a
 * kernel virtual address the CPU engine may read and write.
 *
 * Probe made sure that DMA addresses of our device are physical addresses
 * (no IOMMU, no offsets, no bouncing).  That is not enough: a client may
 * map MMIO with dma_map_resource() (MEMCPY is a public capability), pass
 * an address it never mapped, or one running off the end of RAM.
 * phys_to_virt() of such an address is a wild pointer.  So every block
 * must lie within System RAM as it was at probe, its first and last pages
 * must have a memmap (pfn_valid(), which also catches memory removed
 * since) and not be highmem: then it is in the direct map.
 *
 * The System RAM ranges are copied once at probe (a few entries; the
 * lookup is a binary search, lock-free): walking the resource tree per
 * block would take resource_lock on every operation.  RAM hot-added after
 * probe is not in the copy; blocks there fail cleanly (rebind, i.e.
 * reload ecdma, to pick it up).
 */
#include <linux/dma-mapping.h>
#include <linux/dma-direct.h>
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

	/* count, allocate, copy: again if RAM was added in between */
	for (tries = 0; tries < 3; tries++) {
		w.r = NULL;
		w.nr = 0;
		ecdma_ram_walk(&w);
		if (!w.nr)
			return -ENODEV;
		/* room for a range or two more: RAM may be added meanwhile */
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
 * Tells the DMA API debugging code that we checked the mapping, too
 * (async_tx never calls dma_mapping_error() itself).
 *
 * Context: any; never sleeps, takes no lock.
 * Return: 0, or -EFAULT (nothing changed) for a mapping error or a block
 * that is not RAM in the direct map.
 */
int ecdma_addr_to_cpu(struct ecdma_front *front, u64 *addr, u32 len)
{
	phys_addr_t phys;

	if (dma_mapping_error(front->dev, *addr) || !len)
		return -EFAULT;
	phys = dma_to_phys(front->dev, *addr);
	if (phys + len < phys || !ecdma_ram_covers(front, phys, len) ||
	    !ecdma_pfn_direct(PHYS_PFN(phys)) ||
	    !ecdma_pfn_direct(PHYS_PFN(phys + len - 1)))
		return -EFAULT;
	*addr = (uintptr_t)phys_to_virt(phys);
	return 0;
}
