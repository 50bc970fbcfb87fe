// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma dmaengine front: the offload policy.
 *
 * A CPU engine wins only by running parity on an otherwise idle CPU.
 * "auto" samples per-CPU idle time every ECDMA_POLICY_MS: with time spare
 * it spreads work to the most idle CPU, else it declines P+Q via the pq
 * alignment so async_tx computes inline (XOR cannot be declined: async_xor()
 * WARNs).  Idle CPUs can hide a loss, so "auto" also runs trials (trial.c)
 * of the device in and out of async_tx's channel table, which dmaengine
 * rebuilds only on channel (un)registration: leaving it clears DMA_ASYNC_TX
 * and registers @ab_chan, a channel nobody is given.  "always" stays in,
 * "never" out.
 */
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/kernel_stat.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/tick.h>
#include <linux/timer.h>
#include <linux/vmstat.h>
#include <linux/major.h>
#include <trace/events/block.h>

#include "ecdma_trace.h"
#include "front.h"

/* Window of the idle sampling */
#define ECDMA_POLICY_MS		10
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

/* Accept or decline md's P+Q; async_tx reads the alignment locklessly */
static void ecdma_policy_set(struct ecdma_front *front, bool accept)
{
	struct ecdma_policy *p = &front->policy;

	if (READ_ONCE(p->accepting) == accept)
		return;
	WRITE_ONCE(front->dma.pq_align,
		   accept ? front->align : ECDMA_ALIGN_DECLINE);
	WRITE_ONCE(p->accepting, accept);
	p->switches++;
	trace_ecdma_accept(ECDMA_ACCEPT_PQ, accept, front->dma.pq_align);
}

/* Queue the parked trial work; xchg(): only one of its wakers does */
static void ecdma_policy_unpark(struct ecdma_policy *p)
{
	if (xchg(&p->ab_parked, 0))
		schedule_delayed_work(&p->ab_work, 0);
}

/* Every window, find the most idle CPU; the sole writer of the samples */
static void ecdma_policy_tick(struct timer_list *t)
{
	struct ecdma_front *front = ecdma_timer_container_of(front, t, policy.timer);
	struct ecdma_policy *p = &front->policy;
	enum ecdma_offload mode = READ_ONCE(p->offload);
	u64 now = ktime_get_ns() / NSEC_PER_USEC;
	u64 wall = now - p->sample_wall;
	int cpu, best = -1;
	u64 best_idle = 0;
	unsigned int pct;

	for_each_online_cpu(cpu) {
		u64 idle = ecdma_cpu_idle_us(cpu);
		u64 d = idle - p->sample_idle[cpu];

		/* a CPU that just came online has no valid sample yet */
		if (idle >= p->sample_idle[cpu] && d >= best_idle &&
		    p->sample_wall) {
			best_idle = d;
			best = cpu;
		}
		p->sample_idle[cpu] = idle;
	}
	p->sample_wall = now;
	pct = wall ? min_t(u64, 100, div64_u64(best_idle * 100, wall)) : 0;
	WRITE_ONCE(p->spare_pct, pct);
	if (best >= 0)
		WRITE_ONCE(p->spare_cpu, best);

	switch (mode) {
	case ECDMA_OFFLOAD_AUTO:
		WRITE_ONCE(p->spread, best >= 0 &&
			   pct >= (READ_ONCE(p->spread) ? ECDMA_SPARE_OFF :
							  ECDMA_SPARE_ON));
		ecdma_policy_set(front, READ_ONCE(p->spread));
		break;
	case ECDMA_OFFLOAD_ALWAYS:
		WRITE_ONCE(p->spread, false);
		ecdma_policy_set(front, true);
		break;
	default:
		WRITE_ONCE(p->spread, false);
		ecdma_policy_set(front, false);
		break;
	}
	if (READ_ONCE(p->spread))
		p->spread_windows++;
	/* a CPU is awake: requeue the parked trial work once due */
	if (READ_ONCE(p->ab_parked)) {
		/* pairs with smp_wmb() in ecdma_policy_ab_work() */
		smp_rmb();
		if (time_after_eq(jiffies, READ_ONCE(p->ab_due)))
			ecdma_policy_unpark(p);
	}
	if (!READ_ONCE(p->stop))
		mod_timer(t, jiffies + msecs_to_jiffies(ECDMA_POLICY_MS));
}

/* Sectors read and written from above the block layer so far (0: none) */
static void ecdma_policy_io(struct ecdma_policy *p, u64 *rd, u64 *wr)
{
#ifdef CONFIG_VM_EVENT_COUNTERS
	all_vm_events(p->ab_events);
	*rd = p->ab_events[PGPGIN];
	*wr = p->ab_events[PGPGOUT];
#else
	*rd = 0;
	*wr = 0;
#endif
}

/* block_bio_remap probe: count md's member bios, not dm's or partitions' */
static void ecdma_policy_remap(void *data, struct bio *bio, dev_t dev,
			       sector_t from)
{
	struct ecdma_policy *p = data;

	if (MAJOR(dev) == MD_MAJOR)
		this_cpu_add(*p->md_sectors, bio_sectors(bio));
}

/* Sectors md arrays sent to their members so far (0: not counted) */
static u64 ecdma_policy_md_io(struct ecdma_policy *p)
{
	u64 sum = 0;
	int cpu;

	if (!p->md_sectors)
		return 0;
	for_each_possible_cpu(cpu)
		sum += *per_cpu_ptr(p->md_sectors, cpu);
	return sum;
}

static int ecdma_policy_chan_register(struct dma_device *dma,
				      struct dma_chan *chan)
{
#if ECDMA_KERNEL_AT_LEAST(6, 8)
	return dma_async_device_channel_register(dma, chan, NULL);
#else
	return dma_async_device_channel_register(dma, chan);
#endif
}

/*
 * Leave async_tx's channel table (@out) or re-enter it; trial work and
 * ecdma_policy_stop() only.  @withdrawn and DMA_ASYNC_TX change under
 * cfg_lock (caps stores refuse while withdrawn); (un)registration runs
 * outside it: dmaengine takes cfg_lock under dma_list_mutex.
 */
static void ecdma_policy_table(struct ecdma_front *front, bool out)
{
	struct ecdma_policy *p = &front->policy;
	struct dma_device *dma = &front->dma;
	int ret;

	if (out == p->ab_chan_on)
		return;
	mutex_lock(&front->cfg_lock);
	if (out && (!dma_has_cap(DMA_ASYNC_TX, dma->cap_mask) ||
		    !ecdma_front_busy(front))) {
		/* async_tx does not use us anyway */
		mutex_unlock(&front->cfg_lock);
		return;
	}
	ecdma_front_set_async_tx(front, !out);
	WRITE_ONCE(p->withdrawn, out);
	mutex_unlock(&front->cfg_lock);

	if (out) {
		memset(&p->ab_chan, 0, sizeof(p->ab_chan));
		p->ab_chan.device = dma;
		ret = ecdma_policy_chan_register(dma, &p->ab_chan);
		if (ret) {
			trace_ecdma_table_leave(ret, p->ab_switches,
						p->trial.slot);
			dev_warn_ratelimited(front->dev,
					     "cannot leave the channel table (%d); staying in\n",
					     ret);
			mutex_lock(&front->cfg_lock);
			ecdma_front_set_async_tx(front, true);
			WRITE_ONCE(p->withdrawn, false);
			mutex_unlock(&front->cfg_lock);
			return;
		}
	} else {
		dma_async_device_channel_unregister(dma, &p->ab_chan);
		/* freed by dmaengine; a second unregister must see NULL */
		p->ab_chan.local = NULL;
	}
	p->ab_chan_on = out;
	WRITE_ONCE(p->ab_switches, p->ab_switches + 1);
	if (out)
		trace_ecdma_table_leave(0, p->ab_switches, p->trial.slot);
	else
		trace_ecdma_table_join(0, p->ab_switches, p->trial.slot);
}

/* The trial events of a slot that ended (@s): @was is the state before */
static void ecdma_policy_trace_slot(const struct ecdma_trial *was,
				    const struct ecdma_trial *t,
				    const struct ecdma_trial_sample *s,
				    bool was_out)
{
	if (was->slot)
		trace_ecdma_trial_slot(was->slot, was_out, was->tkind, s);
	if (t->trials != was->trials)
		trace_ecdma_trial_verdict(t, t->kept != was->kept,
					  t->thin_trials != was->thin_trials,
					  t->aborted != was->aborted);
	/* from rest or idle, or a first win confirmed at once */
	if (t->slot == 1)
		trace_ecdma_trial_start(t);
}

/* Queue the work for part @part of the slot begun at @ab_start */
static void ecdma_policy_next_part(struct ecdma_policy *p, unsigned int part)
{
	unsigned long at = p->ab_start +
		msecs_to_jiffies(ECDMA_TRIAL_SLOT_MS * part / ECDMA_TRIAL_PARTS);

	p->ab_part = part < ECDMA_TRIAL_PARTS ? part : 0;
	if (!READ_ONCE(p->stop))
		schedule_delayed_work(&p->ab_work, time_after(at, jiffies) ?
				      at - jiffies : 0);
}

/*
 * Part @part of a trial's first slot out or in ended (@s: its I/O so far):
 * go on to the next part, or out of the table if trial.c ends a plain loss
 * here.  Return: true if the slot goes on, its I/O counted from its start.
 */
static bool ecdma_policy_peek(struct ecdma_front *front,
			      const struct ecdma_trial_sample *s,
			      unsigned int part)
{
	struct ecdma_policy *p = &front->policy;
	struct ecdma_trial *t = &p->trial;
	const struct ecdma_trial was = *t;

	if (!ecdma_trial_peek(t, s, part)) {
		ecdma_policy_next_part(p, part + 1);
		return true;
	}
	ecdma_policy_trace_slot(&was, t, s, false);
	ecdma_policy_table(front, true);
	return false;
}

/* One slot, or part of one: account its I/O, let trial.c place the next */
static void ecdma_policy_ab_work(struct work_struct *work)
{
	struct ecdma_front *front = container_of(to_delayed_work(work),
						 struct ecdma_front,
						 policy.ab_work);
	struct ecdma_policy *p = &front->policy;
	enum ecdma_offload mode = READ_ONCE(p->offload);
	struct ecdma_trial *t = &p->trial;
	struct ecdma_trial_sample s;
	bool busy, park = false, ended = false, resumed = p->ab_resting;
	u64 rd, wr, md = ecdma_policy_md_io(p), now = ktime_get_ns();
	unsigned int part = p->ab_part;

	ecdma_policy_io(p, &rd, &wr);
	s.rd = rd - p->ab_rd;
	s.wr = wr - p->ab_wr;
	s.md = md - p->ab_md;
	s.us = min_t(u64, div_u64(now - p->ab_time, NSEC_PER_USEC), U32_MAX);
	mutex_lock(&front->cfg_lock);
	busy = ecdma_front_busy(front);
	mutex_unlock(&front->cfg_lock);
	p->ab_part = 0;
	if (part && mode == ECDMA_OFFLOAD_AUTO && busy &&
	    (t->slot == 1 || t->slot == 2)) {
		if (ecdma_policy_peek(front, &s, part))
			return;
		ended = true;
	}
	p->ab_rd = rd;
	p->ab_wr = wr;
	p->ab_md = md;
	p->ab_time = now;
	p->ab_start = jiffies;
	p->ab_resting = false;

	/* a peek ended the trial, out of the table: a whole slot comes next */
	if (ended)
		goto next;
	if (mode != ECDMA_OFFLOAD_AUTO || !busy) {
		/* no trial: out only for "never", while async_tx holds us */
		ecdma_trial_rest(t);
		ecdma_policy_table(front, mode != ECDMA_OFFLOAD_ALWAYS && busy);
		park = true;
	} else if (!resumed) {
		const struct ecdma_trial was = *t;
		bool out;

		/* parked for a while, the I/O so far is not one slot's */
		out = ecdma_trial_slot(t, &s, p->withdrawn);
		ecdma_policy_trace_slot(&was, t, &s, p->withdrawn);
		ecdma_policy_table(front, out);
		/* without a load to judge the device rests out of the table */
		park = ecdma_trial_resting(t);
	}
next:
	/* after the table: a reader seeing no trial sees the state it left */
	WRITE_ONCE(p->ab_slot, t->slot);
	if (park) {
		/* park: the deferrable timer requeues us, idle CPUs sleep on */
		p->ab_resting = true;
		WRITE_ONCE(p->ab_due,
			   jiffies + msecs_to_jiffies(ECDMA_TRIAL_SLOT_MS));
		/* @ab_due, then @ab_parked: pairs with the tick's smp_rmb() */
		smp_wmb();
		WRITE_ONCE(p->ab_parked, 1);
		return;
	}
	if (t->slot == 1 || t->slot == 2) {
		/* a trial's first slots out and in: seen after each part */
		ecdma_policy_next_part(p, 1);
		return;
	}
	if (!READ_ONCE(p->stop))
		schedule_delayed_work(&p->ab_work,
				      msecs_to_jiffies(ECDMA_TRIAL_SLOT_MS));
}

/**
 * ecdma_policy_set_mode - switch the offload policy
 * @front: the front
 * @mode: one of enum ecdma_offload
 *
 * Effective at the next window, in the channel table within a slot.
 * Context: process or softirq, between ecdma_policy_start() and _stop().
 */
void ecdma_policy_set_mode(struct ecdma_front *front, enum ecdma_offload mode)
{
	struct ecdma_policy *p = &front->policy;

	trace_ecdma_mode(READ_ONCE(p->offload), mode);
	WRITE_ONCE(p->offload, mode);
	/* the deferrable timer may not run on idle CPUs for a long time */
	ecdma_policy_unpark(p);
}

/**
 * ecdma_policy_mode - the offload policy's mode
 * @front: the front
 * Return: one of enum ecdma_offload.
 */
enum ecdma_offload ecdma_policy_mode(struct ecdma_front *front)
{
	return READ_ONCE(front->policy.offload);
}

/**
 * ecdma_policy_trial_budget - percent of a load's time its trials may cost
 * @front: the front
 * Return: the budget, 0..100.
 */
unsigned int ecdma_policy_trial_budget(struct ecdma_front *front)
{
	return READ_ONCE(front->policy.trial.budget);
}

/**
 * ecdma_policy_set_trial_budget - set the trials' budget, live
 * @front: the front
 * @budget: percent, 0 (no more trials) to 100
 */
void ecdma_policy_set_trial_budget(struct ecdma_front *front,
				   unsigned int budget)
{
	WRITE_ONCE(front->policy.trial.budget, budget);
}

/**
 * ecdma_policy_withdrawn - whether the device left async_tx's table
 * @front: the front
 * Context: holds front->cfg_lock, under which it changes.
 * Return: true while withdrawn.
 */
bool ecdma_policy_withdrawn(struct ecdma_front *front)
{
	lockdep_assert_held(&front->cfg_lock);
	return front->policy.withdrawn;
}

/**
 * ecdma_policy_state - what the policy does now, for offload_state
 * @front: the front
 * @s: filled in, each field read once, locklessly
 */
void ecdma_policy_state(struct ecdma_front *front,
			struct ecdma_policy_state *s)
{
	const struct ecdma_policy *p = &front->policy;
	const struct ecdma_trial *t = &p->trial;

	s->trials = READ_ONCE(t->trials);
	s->load = min_t(unsigned int, READ_ONCE(t->cur), ECDMA_TRIAL_KINDS);
	/* @trials before @kept; pairs with smp_wmb() in ecdma_trial_decide() */
	smp_rmb();
	s->accepting = READ_ONCE(p->accepting);
	s->spread = READ_ONCE(p->spread);
	s->spare_cpu = READ_ONCE(p->spare_cpu);
	s->spare_pct = READ_ONCE(p->spare_pct);
	s->switches = READ_ONCE(p->switches);
	s->spread_windows = READ_ONCE(p->spread_windows);
	s->withdrawn = READ_ONCE(p->withdrawn);
	s->table_switches = READ_ONCE(p->ab_switches);
	s->kept = READ_ONCE(t->kept);
	s->thin = READ_ONCE(t->thin_trials);
	s->last[0] = READ_ONCE(t->last[0]);
	s->last[1] = READ_ONCE(t->last[1]);
	s->by_md = READ_ONCE(t->tkind) == ECDMA_TRIAL_MD;
	s->every_ms = ecdma_trial_every(t) * ECDMA_TRIAL_SLOT_MS;
	s->slot = READ_ONCE(p->ab_slot);
	s->aborted = READ_ONCE(t->aborted);
	s->cost_ms = div_u64(READ_ONCE(t->cost) * ECDMA_TRIAL_SLOT_MS, 100);
}

/**
 * ecdma_policy_start - begin sampling; the front is registered
 * @front: the front
 * Return: 0 or -ENOMEM.
 */
int ecdma_policy_start(struct ecdma_front *front)
{
	struct ecdma_policy *p = &front->policy;

	p->sample_idle = kcalloc(nr_cpu_ids, sizeof(u64), GFP_KERNEL);
	if (!p->sample_idle)
		return -ENOMEM;
	p->ab_events = kcalloc(NR_VM_EVENT_ITEMS, sizeof(long), GFP_KERNEL);
	if (!p->ab_events)
		goto free_idle;
	p->md_sectors = alloc_percpu(u64);
	if (!p->md_sectors)
		goto free_events;
	if (register_trace_block_bio_remap(ecdma_policy_remap, p)) {
		/* no tracepoints: resync and check are not judged */
		free_percpu(p->md_sectors);
		p->md_sectors = NULL;
	}
	p->offload = ECDMA_OFFLOAD_AUTO;
	p->accepting = true;
	p->spare_cpu = -1;
	/* deferrable: an idle machine is not woken for it */
	timer_setup(&p->timer, ecdma_policy_tick, TIMER_DEFERRABLE);
	mod_timer(&p->timer, jiffies + msecs_to_jiffies(ECDMA_POLICY_MS));
	ecdma_trial_init(&p->trial, ECDMA_TRIAL_BUDGET);
	ecdma_policy_io(p, &p->ab_rd, &p->ab_wr);
	p->ab_md = ecdma_policy_md_io(p);
	p->ab_time = ktime_get_ns();
	p->ab_part = 0;
	p->ab_parked = 0;
	p->ab_resting = false;
	INIT_DELAYED_WORK(&p->ab_work, ecdma_policy_ab_work);
	schedule_delayed_work(&p->ab_work,
			      msecs_to_jiffies(ECDMA_TRIAL_SLOT_MS));
	return 0;

free_events:
	kfree(p->ab_events);
	p->ab_events = NULL;
free_idle:
	kfree(p->sample_idle);
	p->sample_idle = NULL;
	return -ENOMEM;
}

/**
 * ecdma_policy_stop - stop sampling and accept everything again
 * @front: the front, still registered
 * Context: process context.
 */
void ecdma_policy_stop(struct ecdma_front *front)
{
	struct ecdma_policy *p = &front->policy;

	if (!p->sample_idle)
		return;
	WRITE_ONCE(p->stop, true);
	timer_delete_sync(&p->timer);
	cancel_delayed_work_sync(&p->ab_work);
	if (p->md_sectors) {
		unregister_trace_block_bio_remap(ecdma_policy_remap, p);
		/* no probe runs on @md_sectors any more */
		tracepoint_synchronize_unregister();
		free_percpu(p->md_sectors);
		p->md_sectors = NULL;
	}
	ecdma_policy_table(front, false);
	WRITE_ONCE(p->spread, false);
	ecdma_policy_set(front, true);
	kfree(p->ab_events);
	p->ab_events = NULL;
	kfree(p->sample_idle);
	p->sample_idle = NULL;
}
