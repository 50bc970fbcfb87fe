// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma: guards for md's async_tx calls that are right only when the
 * operation runs synchronously, as it did on x86 for years without an
 * engine (Documentation/driver-api/md-async-tx.rst has the audit).
 *
 * ppl_xor() (raid5-ppl.c, PPL recovery while a dirty RAID5 assembles)
 * submits its XOR with ASYNC_TX_ACK, then quiesces the descriptor it just
 * acked: async_tx BUG()s whenever the XOR reached a channel, ecdma's or
 * any engine's.  The XOR cannot be declined (async_xor() WARNs), and the
 * channel table cannot change from where md calls it.  So a kprobe on
 * async_xor(), which md's stripe paths do not call (they call
 * async_xor_offs()), clears ASYNC_TX_ACK for exactly that call: from
 * raid456, {dest, other} with XOR_DROP_DST and ACK, no dependency, no
 * callback.  async_tx_quiesce() then waits for the XOR and acks it, as
 * md's own fix (Documentation/patches/) would.  Without a channel the
 * XOR runs synchronously either way.  The probe is armed when async_xor
 * loads (a module notifier) and goes with it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/async_tx.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/sysfs.h>

#include "ecdma_trace.h"
#include "md_guard.h"

#define ECDMA_GUARD_MOD		"async_xor"	/* where the probe goes */
#define ECDMA_GUARD_CLIENT	"raid456"	/* whose calls it mends */

/**
 * struct ecdma_md_guard - the ppl_xor() guard
 * @kp: the kprobe on async_xor()
 * @hits: calls it mended
 * @err: 0, or why it could not be armed (negative errno)
 * @armed: @kp is registered
 */
struct ecdma_md_guard {
	struct kprobe kp;
	atomic_long_t hits;
	int err;
	bool armed;
};

static struct ecdma_md_guard ecdma_ppl_guard;
/* guards arming and disarming (@kp, @err, @armed) */
static DEFINE_MUTEX(ecdma_md_guard_lock);

static int ecdma_ppl_xor_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct page *dest = (struct page *)regs_get_kernel_argument(regs, 0);
	struct page **src = (struct page **)regs_get_kernel_argument(regs, 1);
	int src_cnt = (int)regs_get_kernel_argument(regs, 3);
	struct async_submit_ctl *submit =
		(struct async_submit_ctl *)regs_get_kernel_argument(regs, 5);
	char caller[KSYM_SYMBOL_LEN];

	if (submit->flags != (ASYNC_TX_ACK | ASYNC_TX_XOR_DROP_DST) ||
	    src_cnt != 2 || src[0] != dest || submit->depend_tx ||
	    submit->cb_fn)
		return 0;
	/*
	 * md's only: another client may drop an acked descriptor rightly.
	 * "name+off/size [module]": the one exported way to a module's name.
	 */
	sprint_symbol(caller, regs_get_kernel_stack_nth(regs, 0));
	if (!strstr(caller, " [" ECDMA_GUARD_CLIENT "]"))
		return 0;
	submit->flags &= ~ASYNC_TX_ACK;
	atomic_long_inc(&ecdma_ppl_guard.hits);
	trace_ecdma_md_guard(ECDMA_MD_GUARD_PPL_XOR);
	return 0;
}

NOKPROBE_SYMBOL(ecdma_ppl_xor_pre);

/* Arm the probe if async_xor is there; lock held */
static void ecdma_md_guard_arm(void)
{
	struct ecdma_md_guard *g = &ecdma_ppl_guard;
	int ret;

	lockdep_assert_held(&ecdma_md_guard_lock);
	if (g->armed)
		return;
	memset(&g->kp, 0, sizeof(g->kp));
	g->kp.symbol_name = "async_xor";
	g->kp.pre_handler = ecdma_ppl_xor_pre;
	ret = register_kprobe(&g->kp);
	/* not loaded yet: the notifier arms it when it is */
	g->err = ret == -ENOENT ? 0 : ret;
	g->armed = !ret;
	if (ret && ret != -ENOENT)
		pr_err("cannot guard md's PPL recovery (kprobe on async_xor: %d): assemble dirty RAID5 arrays with PPL with offload=never\n",
		       ret);
}

static void ecdma_md_guard_disarm(void)
{
	struct ecdma_md_guard *g = &ecdma_ppl_guard;

	lockdep_assert_held(&ecdma_md_guard_lock);
	if (g->armed)
		unregister_kprobe(&g->kp);
	g->armed = false;
}

static int ecdma_md_guard_notify(struct notifier_block *nb,
				 unsigned long action, void *data)
{
	struct module *mod = data;

	if (strcmp(mod->name, ECDMA_GUARD_MOD))
		return NOTIFY_DONE;
	mutex_lock(&ecdma_md_guard_lock);
	/* live: before raid456, which needs it, can load */
	if (action == MODULE_STATE_LIVE)
		ecdma_md_guard_arm();
	else if (action == MODULE_STATE_GOING)
		ecdma_md_guard_disarm();
	mutex_unlock(&ecdma_md_guard_lock);
	return NOTIFY_OK;
}

static struct notifier_block ecdma_md_guard_nb = {
	.notifier_call = ecdma_md_guard_notify,
};

/**
 * ecdma_md_guard_init() - guard md's known-wrong async_tx calls
 *
 * Arms the guards now if their modules are loaded, else when they load.
 * Context: module init, before any channel is offered to async_tx.
 * Return: 0, or a negative errno from the module notifier.
 */
int ecdma_md_guard_init(void)
{
	int ret;

	atomic_long_set(&ecdma_ppl_guard.hits, 0);
	/* first: a load from now on is seen by one of the two */
	ret = register_module_notifier(&ecdma_md_guard_nb);
	if (ret)
		return ret;
	mutex_lock(&ecdma_md_guard_lock);
	ecdma_md_guard_arm();
	mutex_unlock(&ecdma_md_guard_lock);
	return 0;
}

/**
 * ecdma_md_guard_exit() - remove the guards
 *
 * Context: module exit, after the channels are gone.
 */
void ecdma_md_guard_exit(void)
{
	unregister_module_notifier(&ecdma_md_guard_nb);
	mutex_lock(&ecdma_md_guard_lock);
	ecdma_md_guard_disarm();
	mutex_unlock(&ecdma_md_guard_lock);
}

/**
 * ecdma_md_guard_show() - the guards' state, for sysfs
 * @buf: a sysfs page
 *
 * One line per guard: its name, "armed", "waiting" (for async_xor to
 * load) or "failed <errno>", and the calls it mended.
 * Return: bytes written.
 */
ssize_t ecdma_md_guard_show(char *buf)
{
	struct ecdma_md_guard *g = &ecdma_ppl_guard;
	ssize_t n;

	mutex_lock(&ecdma_md_guard_lock);
	if (g->armed)
		n = sysfs_emit(buf, "ppl_xor armed %ld\n",
			       atomic_long_read(&g->hits));
	else if (g->err)
		n = sysfs_emit(buf, "ppl_xor failed %d %ld\n", g->err,
			       atomic_long_read(&g->hits));
	else
		n = sysfs_emit(buf, "ppl_xor waiting %ld\n",
			       atomic_long_read(&g->hits));
	mutex_unlock(&ecdma_md_guard_lock);
	return n;
}
