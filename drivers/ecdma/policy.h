/* SPDX-License-Identifier: GPL-2.0 */
/* The offload policy's state; only policy.c and the inline below touch it. */
#ifndef _ECDMA_POLICY_H
#define _ECDMA_POLICY_H

#include <linux/dmaengine.h>
#include <linux/timer.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "trial.h"

enum ecdma_offload {
	ECDMA_OFFLOAD_AUTO,
	ECDMA_OFFLOAD_ALWAYS,
	ECDMA_OFFLOAD_NEVER,
	ECDMA_OFFLOAD_NR,
};

extern const char *const ecdma_offload_names[ECDMA_OFFLOAD_NR];

/**
 * struct ecdma_policy - the offload policy of one front
 * @offload: the mode, enum ecdma_offload
 * @accepting: the pq alignment is the front's align, not the decline value
 * @spread: post at submit and run on @spare_cpu's worker
 * @stop: the timer and @ab_work must not rearm
 * @spare_cpu: the CPU that was most idle in the last window, or -1
 * @spare_pct: its idle share of the window (percent)
 * @switches: accept/decline switches so far
 * @spread_windows: windows spent spreading
 * @sample_wall: time of the last sample (us)
 * @sample_idle: idle+iowait us of each CPU at the last sample
 * @timer: samples every ECDMA_POLICY_MS (deferrable)
 * @withdrawn: out of async_tx's table; changes with DMA_ASYNC_TX, cfg_lock held
 * @ab_chan_on: @ab_chan is registered (while withdrawn)
 * @ab_slot: @trial's slot (0: none, else 1..4) at the last table switch
 * @ab_rd: PGPGIN at the last slot
 * @ab_wr: PGPGOUT at the last slot
 * @ab_md: md member sectors (@md_sectors) at the last slot
 * @ab_time: ktime_get_ns() at the last slot
 * @ab_start: jiffies at the last slot, whence a slot's parts are timed
 * @ab_part: parts of a trial's first slot in the next run ends, or 0
 * @ab_switches: times the device left or re-entered the table
 * @trial: auto's trials (trial.c); its budget set by sysfs
 * @ab_events: all_vm_events() buffer
 * @md_sectors: per-CPU md member sectors (block_bio_remap), or NULL
 * @ab_chan: unused channel; (un)registering it rebuilds the table
 * @ab_work: one trial slot, process context; not deferrable: ends on time
 * @ab_parked: @ab_work did not re-arm; who requeues it clears this by xchg()
 * @ab_due: jiffies after which a parked @ab_work is queued again
 * @ab_resting: it last parked: its next run starts a slot, ends none
 */
struct ecdma_policy {
	/* written by sysfs and rechannel (ecdma_policy_set_mode()), lockless */
	enum ecdma_offload offload;

	/* owned by @timer, then ecdma_policy_stop(); read locklessly */
	bool accepting;
	bool spread;
	bool stop;
	int spare_cpu;
	unsigned int spare_pct;
	unsigned long switches;
	unsigned long spread_windows;
	u64 sample_wall;
	u64 *sample_idle;
	struct timer_list timer;

	/* owned by @ab_work (process context); lockless but for @withdrawn */
	bool withdrawn;
	bool ab_chan_on;
	unsigned int ab_slot;
	u64 ab_rd;
	u64 ab_wr;
	u64 ab_md;
	u64 ab_time;
	unsigned long ab_start;
	unsigned int ab_part;
	unsigned long ab_switches;
	struct ecdma_trial trial;
	unsigned long *ab_events;
	u64 __percpu *md_sectors;
	struct dma_chan ab_chan;
	struct delayed_work ab_work;
	int ab_parked;
	unsigned long ab_due;
	bool ab_resting;
};

/**
 * struct ecdma_policy_state - what the policy does now (offload_state)
 * @accepting: md's P+Q operations are accepted, not declined
 * @spread: work is spread to @spare_cpu
 * @spare_cpu: the CPU that was most idle in the last window, or -1
 * @spare_pct: its idle share of the window (percent)
 * @switches: accept/decline switches so far
 * @spread_windows: windows spent spreading
 * @withdrawn: out of async_tx's channel table
 * @table_switches: times the device left or re-entered the table
 * @trials: trials so far
 * @kept: trials that kept the device in the table
 * @last: the last trial's I/O in and out of the table
 * @by_md: the last trial judged md's own I/O, not its users'
 * @every_ms: ms between trials of the load now, 0 before its first
 * @slot: the trial slot running (1..4), or 0
 * @load: kind of the load now, ECDMA_TRIAL_KINDS for none
 * @aborted: trials ended after their first slot in the table
 * @thin: trials that judged nothing (too little I/O, or another kind's)
 * @cost_ms: what all trials cost md so far (ms)
 */
struct ecdma_policy_state {
	bool accepting;
	bool spread;
	int spare_cpu;
	unsigned int spare_pct;
	unsigned long switches;
	unsigned long spread_windows;
	bool withdrawn;
	unsigned long table_switches;
	unsigned long trials;
	unsigned long kept;
	u64 last[2];
	bool by_md;
	unsigned int every_ms;
	unsigned int slot;
	unsigned int load;
	unsigned long aborted;
	unsigned long thin;
	u64 cost_ms;
};

/**
 * ecdma_policy_spread - whether to run work on another CPU's worker
 * @p: the front's policy
 * @cpu: set, when spreading, to the CPU to run on (or -1: none yet)
 *
 * Context: dma.c's hot path; lockless reads.
 * Return: true while the policy spreads work.
 */
static inline bool ecdma_policy_spread(const struct ecdma_policy *p, int *cpu)
{
	if (!READ_ONCE(p->spread))
		return false;
	*cpu = READ_ONCE(p->spare_cpu);
	return true;
}

struct ecdma_front;

int ecdma_policy_start(struct ecdma_front *front);
void ecdma_policy_stop(struct ecdma_front *front);
enum ecdma_offload ecdma_policy_mode(struct ecdma_front *front);
void ecdma_policy_set_mode(struct ecdma_front *front, enum ecdma_offload mode);
unsigned int ecdma_policy_trial_budget(struct ecdma_front *front);
void ecdma_policy_set_trial_budget(struct ecdma_front *front,
				   unsigned int budget);
bool ecdma_policy_withdrawn(struct ecdma_front *front);
void ecdma_policy_state(struct ecdma_front *front,
			struct ecdma_policy_state *s);

#endif /* _ECDMA_POLICY_H */
