// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma fault injection (debugfs, off by default): fault_every_n and
 * fault_rate_ppm fail work requests with -EIO unexecuted, as a failing
 * engine would.  The front recomputes them (md has no error path).
 * fault_delay_us makes the engine slow: the queue then outgrows what it
 * drains, as on a starved host (pacing's test, selftests/vm/pace.sh).
 */
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/ktime.h>
#include <linux/minmax.h>
#include <linux/processor.h>
#include <linux/random.h>
#include <linux/time.h>

#include "ec_priv.h"

#define ECDMA_FAULT_PPM		1000000
#define ECDMA_FAULT_DELAY_MAX	100000	/* us: it runs with preemption off */

/* debugfs-written knobs, read locklessly (a stale value is harmless) */
static u32 ecdma_fault_every_n;
static u32 ecdma_fault_rate_ppm;
static u32 ecdma_fault_delay_us;
/* eligible WRs seen while fault_every_n was set */
static atomic_t ecdma_fault_tick = ATOMIC_INIT(0);
static atomic_t ecdma_faults_injected = ATOMIC_INIT(0);

static bool ecdma_fault_now(void)
{
	u32 every = READ_ONCE(ecdma_fault_every_n);
	u32 ppm = READ_ONCE(ecdma_fault_rate_ppm);

	if (likely(!every && !ppm))
		return false;
	if (every && !((u32)atomic_inc_return(&ecdma_fault_tick) % every))
		return true;
	return ppm && get_random_u32() % ECDMA_FAULT_PPM < ppm;
}

/**
 * ecdma_ec_fault_wr() - maybe fail a work request instead of executing it
 * @wr: a request the provider is about to execute
 *
 * First waits fault_delay_us (at most 100 ms) when that is set.
 * Context: Any context.
 * Return: true if injected: wr->status is -EIO, complete it unexecuted.
 */
bool ecdma_ec_fault_wr(struct ecdma_ec_wr *wr)
{
	u32 us = READ_ONCE(ecdma_fault_delay_us);
	u64 end;

	if (wr->opcode == ECDMA_EC_OP_NOP)
		return false;
	if (unlikely(us)) {
		/* not udelay(): a TCG guest's CPUs calibrate it far apart */
		end = ktime_get_ns() +
		      (u64)min_t(u32, us, ECDMA_FAULT_DELAY_MAX) * NSEC_PER_USEC;
		while (ktime_get_ns() < end)
			cpu_relax();
	}
	if (!ecdma_fault_now())
		return false;
	atomic_inc(&ecdma_faults_injected);
	wr->status = -EIO;
	wr->result = 0;
	return true;
}

/**
 * ecdma_ec_fault_init() - create the fault injection knobs (off) in debugfs
 * @dir: ecdma's debugfs directory; the files go away with it
 * Context: module init.
 */
void ecdma_ec_fault_init(struct dentry *dir)
{
	WRITE_ONCE(ecdma_fault_every_n, 0);
	WRITE_ONCE(ecdma_fault_rate_ppm, 0);
	WRITE_ONCE(ecdma_fault_delay_us, 0);
	/* no directory (debugfs off or failed): no knobs, never faults */
	if (IS_ERR_OR_NULL(dir))
		return;
	debugfs_create_u32("fault_every_n", 0600, dir, &ecdma_fault_every_n);
	debugfs_create_u32("fault_rate_ppm", 0600, dir, &ecdma_fault_rate_ppm);
	debugfs_create_u32("fault_delay_us", 0600, dir, &ecdma_fault_delay_us);
	debugfs_create_atomic_t("faults_injected", 0400, dir,
				&ecdma_faults_injected);
}
