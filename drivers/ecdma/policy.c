// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma dmaengine front: the offload policy.
 *
 * A CPU engine cannot make parity cheaper than md's own synchronous path
 * on the CPU that asks for it: the work is the same and the offload adds
 * descriptors, a hand-off and a callback.  It wins only where it runs the
 * work on a CPU that would otherwise sit idle, in parallel with md.  So
 * "auto" watches how idle the CPUs were over the last window
 * (ECDMA_POLICY_MS) and
 *
 *  - while some CPU had spare time: accepts work, posts each operation to
 *    its calc at tx_submit and has the provider's worker run it on the
 *    CPU that was most idle (callbacks come from there), so md goes on
 *    with the next stripe at once;
 *  - copies it always declines: the descriptor, the DMA mapping and the
 *    hand-off of a 4 KiB copy cost the CPU that asks more than the copy
 *    itself (memcpy of a page is a few hundred ns natively), and an md
 *    stripe's copy gains nothing from running elsewhere.  Measured in
 *    the VM (make perf, RAID-6 over 8 disks, md's default threads): with
 *    copies taken, full-stripe writes ran at 0.75-0.98x md's own path,
 *    degraded reads at 0.54-0.85x; declined, 0.90-1.06x and 0.71-1.00x.
 *  - while every CPU was busy: declines.  async_tx asks a device whether
 *    an operation is aligned for it (is_dma_*_aligned(), read on every
 *    call) and runs anything that is not synchronously on the caller's
 *    CPU, exactly as without a DMA channel.  Declining raises the
 *    copy and pq alignment to ECDMA_ALIGN_DECLINE, which no md operation
 *    meets.  XOR cannot be declined (async_xor() WARNs then), nor what
 *    async_tx offloads without asking (the GF products of RAID-6
 *    recovery, interrupts): those still come, and run inline.
 *
 * "always" accepts everything and executes as inline_issue says (the
 * behaviour before this policy); "never" declines everything it can.
 * Idle time is the kernel's own per-CPU accounting (the same numbers as
 * /proc/stat), so the policy adapts to the host and the load it runs on
 * rather than to thresholds measured somewhere else.
 */
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/kernel_stat.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/tick.h>
#include <linux/timer.h>

#include "front.h"

/* Window of the idle sampling */
#define ECDMA_POLICY_MS		10
/* Alignment (log2) no operation of md meets: 1 GiB */
#define ECDMA_ALIGN_DECLINE	30
/* Offload while some CPU was idle this share (percent) of the window... */
#define ECDMA_SPARE_ON		20
/* ... and keep offloading until it falls under this (hysteresis) */
#define ECDMA_SPARE_OFF		5

const char *const ecdma_offload_names[ECDMA_OFFLOAD_NR] = {
	[ECDMA_OFFLOAD_AUTO] = "auto",
	[ECDMA_OFFLOAD_ALWAYS] = "always",
	[ECDMA_OFFLOAD_NEVER] = "never",
};

/* Idle plus iowait time of @cpu in us, including an idle period going on */
static u64 ecdma_cpu_idle_us(int cpu)
{
	u64 idle = get_cpu_idle_time_us(cpu, NULL);
	u64 iowait;

	if (idle == (u64)-1) {
		/* no NO_HZ accounting: the tick's (ns), as /proc/stat */
		return div_u64(kcpustat_cpu(cpu).cpustat[CPUTIME_IDLE] +
			       kcpustat_cpu(cpu).cpustat[CPUTIME_IOWAIT],
			       NSEC_PER_USEC);
	}
	iowait = get_cpu_iowait_time_us(cpu, NULL);
	return idle + (iowait == (u64)-1 ? 0 : iowait);
}

/*
 * Accept (or decline) md's P+Q operations, and its copies, from now on:
 * see the top.  async_tx reads the alignments locklessly on every call.
 * Not XOR: async_xor() and async_xor_val() WARN when a channel exists and
 * they must compute synchronously, so XOR (RAID5 parity, and the XORs
 * inside RAID-6 check and recovery) is always taken.
 */
static void ecdma_policy_set(struct ecdma_front *front, bool accept,
			     bool copies)
{
	struct dma_device *dma = &front->dma;

	if (READ_ONCE(front->copies) != copies) {
		WRITE_ONCE(dma->copy_align, copies ? front->align :
				ECDMA_ALIGN_DECLINE);
		WRITE_ONCE(front->copies, copies);
	}
	if (READ_ONCE(front->accepting) == accept)
		return;
	WRITE_ONCE(dma->pq_align, accept ? front->align : ECDMA_ALIGN_DECLINE);
	WRITE_ONCE(front->accepting, accept);
	front->policy_switches++;
}

/*
 * Every window: which CPU had the most idle time, and how much.  Runs in
 * the timer's softirq; only it writes the samples, @spare_cpu and
 * @spare_pct.
 */
static void ecdma_policy_tick(struct timer_list *t)
{
	struct ecdma_front *front = from_timer(front, t, policy_timer);
	enum ecdma_offload mode = READ_ONCE(front->offload);
	u64 now = ktime_get_ns() / NSEC_PER_USEC;
	u64 wall = now - front->sample_wall;
	int cpu, best = -1;
	u64 best_idle = 0;
	unsigned int pct;

	for_each_online_cpu(cpu) {
		u64 idle = ecdma_cpu_idle_us(cpu);
		u64 d = idle - front->sample_idle[cpu];

		/* a CPU that just came online has no valid sample yet */
		if (idle >= front->sample_idle[cpu] && d >= best_idle &&
		    front->sample_wall) {
			best_idle = d;
			best = cpu;
		}
		front->sample_idle[cpu] = idle;
	}
	front->sample_wall = now;
	pct = wall ? min_t(u64, 100, div64_u64(best_idle * 100, wall)) : 0;
	WRITE_ONCE(front->spare_pct, pct);
	if (best >= 0)
		WRITE_ONCE(front->spare_cpu, best);

	switch (mode) {
	case ECDMA_OFFLOAD_AUTO:
		WRITE_ONCE(front->spread, best >= 0 &&
			   pct >= (READ_ONCE(front->spread) ? ECDMA_SPARE_OFF :
							      ECDMA_SPARE_ON));
		ecdma_policy_set(front, READ_ONCE(front->spread), false);
		break;
	case ECDMA_OFFLOAD_ALWAYS:
		WRITE_ONCE(front->spread, false);
		ecdma_policy_set(front, true, true);
		break;
	default:
		WRITE_ONCE(front->spread, false);
		ecdma_policy_set(front, false, false);
		break;
	}
	if (READ_ONCE(front->spread))
		front->spread_windows++;
	if (!READ_ONCE(front->policy_stop))
		mod_timer(t, jiffies + msecs_to_jiffies(ECDMA_POLICY_MS));
}

/**
 * ecdma_policy_set_mode - switch the offload policy
 * @front: the front
 * @mode: one of enum ecdma_offload
 *
 * Takes effect at the next window (ECDMA_POLICY_MS at most).
 * Context: any.
 */
void ecdma_policy_set_mode(struct ecdma_front *front, enum ecdma_offload mode)
{
	WRITE_ONCE(front->offload, mode);
}

/**
 * ecdma_policy_start - begin sampling; the front is registered
 * @front: the front
 *
 * Return: 0 or -ENOMEM.
 */
int ecdma_policy_start(struct ecdma_front *front)
{
	front->sample_idle = kcalloc(nr_cpu_ids, sizeof(u64), GFP_KERNEL);
	if (!front->sample_idle)
		return -ENOMEM;
	front->align = front->dma.copy_align;
	front->accepting = true;
	front->copies = true;
	front->spare_cpu = -1;
	/* deferrable: an idle machine is not woken for it */
	timer_setup(&front->policy_timer, ecdma_policy_tick, TIMER_DEFERRABLE);
	mod_timer(&front->policy_timer,
		  jiffies + msecs_to_jiffies(ECDMA_POLICY_MS));
	return 0;
}

/**
 * ecdma_policy_stop - stop sampling and accept everything again
 * @front: the front, still registered
 *
 * Context: process context.
 */
void ecdma_policy_stop(struct ecdma_front *front)
{
	if (!front->sample_idle)
		return;
	WRITE_ONCE(front->policy_stop, true);
	del_timer_sync(&front->policy_timer);
	WRITE_ONCE(front->spread, false);
	ecdma_policy_set(front, true, true);
	kfree(front->sample_idle);
	front->sample_idle = NULL;
}
