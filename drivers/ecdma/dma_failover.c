// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma dmaengine front: a device's engine goes away under its clients.
 * async_tx keeps using a channel for the rest of a chain, so each channel
 * lets the engine finish, moves to a CPU calc (blocks translated when
 * posted; the old calc freed after an RCU grace period) and, while async_tx
 * holds it, stays registered as a ghost out of the table: unregistering
 * would leak it (dmaengine_put() skips a DMA_PRIVATE device).
 */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/rcupdate.h>
#include <linux/workqueue.h>

#include "front.h"

static DEFINE_MUTEX(ecdma_ghosts_lock);	/* guards ecdma_ghosts */
static LIST_HEAD(ecdma_ghosts);
/* runs the ghosts' retirement; flushed whole at exit (a work frees its front) */
static struct workqueue_struct *ecdma_ghost_wq;

/* an engine's own watchdog resets it well before this */
#define ECDMA_FAILOVER_WAIT	(30 * HZ)

static struct ecdma_ec_calc *ecdma_failover_calc(struct ecdma_front *front)
{
	struct ecdma_ec_calc_attr attr = ecdma_front_calc_attr(front, -1);

	return ecdma_ec_alloc_calc(front->fb_prov, &attr);
}

/* Nothing posted from now on; wait until the engine has finished @old */
static int ecdma_failover_drain(struct ecdma_chan *ch,
				struct ecdma_ec_calc *old)
{
	unsigned long until = jiffies + ECDMA_FAILOVER_WAIT;

	spin_lock_irq(&ch->lock);
	ch->draining = true;
	spin_unlock_irq(&ch->lock);
	while (ecdma_ec_calc_inflight(old)) {
		if (time_after(jiffies, until))
			return -ETIMEDOUT;
		ecdma_chan_progress(ch);
		usleep_range(100, 200);
	}
	return 0;
}

static int ecdma_chan_failover(struct ecdma_chan *ch)
{
	struct ecdma_ec_calc *calc, *old = ch->calc;
	int ret;

	calc = ecdma_failover_calc(ch->front);
	if (IS_ERR(calc))
		return PTR_ERR(calc);
	ret = ecdma_failover_drain(ch, old);
	spin_lock_irq(&ch->lock);
	if (!ret) {
		WRITE_ONCE(ch->calc, calc);
		ch->failed_over = true;
	}
	ch->draining = false;
	spin_unlock_irq(&ch->lock);
	if (ret) {
		ecdma_ec_dealloc_calc(calc);
		return ret;
	}
	/* whoever read @old did so with preemption off */
	synchronize_rcu();
	ecdma_ec_dealloc_calc(old);
	/* what was submitted meanwhile */
	ecdma_chan_post(ch);
	ecdma_ec_kick(calc);
	return 0;
}

/**
 * ecdma_front_failover - move a device front's channels to the CPU
 * @front: a front on a device's engine (dev_addrs), with clients
 *
 * From here on the front no longer uses its provider; the engine's
 * driver may free it once the front is unregistered.
 *
 * Context: process context, holding front->cfg_lock; sleeps.
 * Return: 0; -EINVAL for a front without a device's engine or without
 * the CPU provider; -ETIMEDOUT when an engine did not finish what it
 * held (that channel stays on it, the error is logged).
 */
int ecdma_front_failover(struct ecdma_front *front)
{
	struct ecdma_ec_provider *old = front->prov;
	unsigned int i;
	int ret = 0, err;

	lockdep_assert_held(&front->cfg_lock);
	if (!front->dev_addrs || !front->fb_prov)
		return -EINVAL;
	for (i = 0; i < front->nr_chans; i++) {
		err = ecdma_chan_failover(&front->chans[i]);
		if (err) {
			dev_err(front->dev, "chan%u: cannot leave the engine (%d)\n",
				i, err);
			ret = ret ?: err;
		}
	}
	if (ret)
		return ret;
	front->prov = ecdma_ec_provider_get("cpu");
	if (IS_ERR(front->prov)) {
		ret = PTR_ERR(front->prov);
		front->prov = old;
		return ret;
	}
	ecdma_ec_provider_put(old);
	dev_info(front->dev, "engine gone: %u channels on the CPU provider until their clients let go\n",
		 front->nr_chans);
	return 0;
}

static void ecdma_ghost_reap(struct work_struct *work)
{
	struct ecdma_front *front = container_of(work, struct ecdma_front,
						 ghost_work);

	mutex_lock(&ecdma_ghosts_lock);
	list_del_init(&front->ghost_node);
	mutex_unlock(&ecdma_ghosts_lock);
	ecdma_front_retire(front);
}

/**
 * ecdma_front_ghost - keep a front whose engine left until its clients do
 * @front: failed over, its device's driver data cleared, @front->ghost set
 *
 * Context: process context.
 */
void ecdma_front_ghost(struct ecdma_front *front)
{
	INIT_WORK(&front->ghost_work, ecdma_ghost_reap);
	mutex_lock(&ecdma_ghosts_lock);
	list_add_tail(&front->ghost_node, &ecdma_ghosts);
	mutex_unlock(&ecdma_ghosts_lock);
	ecdma_policy_set_mode(front, ECDMA_OFFLOAD_NEVER);
	mutex_lock(&front->cfg_lock);
	ecdma_front_ghost_check(front);
	mutex_unlock(&front->cfg_lock);
}

/**
 * ecdma_front_ghost_check - a ghost whose last client let go: retire it
 * @front: the front
 *
 * Context: holding front->cfg_lock (a client let go: free_chan_resources).
 */
void ecdma_front_ghost_check(struct ecdma_front *front)
{
	lockdep_assert_held(&front->cfg_lock);
	if (front->ghost && !ecdma_front_busy(front))
		queue_work(ecdma_ghost_wq, &front->ghost_work);
}

/**
 * ecdma_front_ghosts_init - the ghosts' workqueue, at module init
 * Return: 0 or -ENOMEM.
 */
int ecdma_front_ghosts_init(void)
{
	ecdma_ghost_wq = alloc_workqueue("ecdma_ghost", 0, 0);
	return ecdma_ghost_wq ? 0 : -ENOMEM;
}

/**
 * ecdma_front_ghosts_exit - retire what is left, at module exit
 *
 * A ghost's clients pin its engine's driver, which depends on ecdma: by
 * now they are gone.  Queued retirements run first (each takes its front
 * off the list and frees it); a ghost never queued is retired here.
 */
void ecdma_front_ghosts_exit(void)
{
	struct ecdma_front *front;

	flush_workqueue(ecdma_ghost_wq);
	for (;;) {
		mutex_lock(&ecdma_ghosts_lock);
		front = list_first_entry_or_null(&ecdma_ghosts,
						 struct ecdma_front,
						 ghost_node);
		if (front)
			list_del_init(&front->ghost_node);
		mutex_unlock(&ecdma_ghosts_lock);
		if (!front)
			break;
		ecdma_front_retire(front);
	}
	destroy_workqueue(ecdma_ghost_wq);
}
