// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma debugfs, not ABI: a front's queues and last_errors, in the module's
 * directory (main.c creates it, others add files to it) for ecdma's own
 * front, in a directory named after the device for a device's front.
 */
#include <linux/debugfs.h>
#include <linux/ktime.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "ec_priv.h"
#include "front.h"

#define ECDMA_DBG_ERRORS	16

/**
 * struct ecdma_dbg_error - one recorded error
 * @ns: ktime_get_ns() when recorded
 * @chan: channel index
 * @op: enum ecdma_op_type, or ECDMA_OP_NR when unknown
 * @err: negative errno
 */
struct ecdma_dbg_error {
	u64 ns;
	unsigned int chan;
	unsigned int op;
	int err;
};

/**
 * struct ecdma_debugfs - debugfs state of the front
 * @lock: guards @errors, @next, @count; irqsave: completions record errors
 * @errors: ring of the last errors
 * @next: slot the next error goes to
 * @count: errors recorded since probe
 * @dir: a device front's directory, or NULL (ecdma's front: the root)
 * @queues: the queues file
 * @last_errors: the last_errors file
 */
struct ecdma_debugfs {
	spinlock_t lock;	/* guards the error ring, see above */
	struct ecdma_dbg_error errors[ECDMA_DBG_ERRORS];
	unsigned int next;
	u64 count;
	struct dentry *dir;
	struct dentry *queues;
	struct dentry *last_errors;
};

/* the module's directory, and the front's files while it is registered */
static struct dentry *ecdma_dbg_root;

static const char *const ecdma_dbg_op_names[ECDMA_OP_NR + 1] = {
	[ECDMA_OP_MEMCPY] = "memcpy",
	[ECDMA_OP_XOR] = "xor",
	[ECDMA_OP_XOR_VAL] = "xor_val",
	[ECDMA_OP_PQ] = "pq",
	[ECDMA_OP_PQ_VAL] = "pq_val",
	[ECDMA_OP_INTERRUPT] = "interrupt",
	[ECDMA_OP_NR] = "prep",
};

/**
 * ecdma_debugfs_error - remember an error for last_errors
 * @front: the front
 * @chan: channel index
 * @op: enum ecdma_op_type, or ECDMA_OP_NR
 * @err: negative errno
 * Context: any context.
 */
void ecdma_debugfs_error(struct ecdma_front *front, unsigned int chan,
			 unsigned int op, int err)
{
	struct ecdma_debugfs *dbg = front->dbg;
	struct ecdma_dbg_error *e;
	unsigned long flags;

	if (!dbg)
		return;
	spin_lock_irqsave(&dbg->lock, flags);
	e = &dbg->errors[dbg->next];
	e->ns = ktime_get_ns();
	e->chan = chan;
	e->op = min_t(unsigned int, op, ECDMA_OP_NR);
	e->err = err;
	dbg->next = (dbg->next + 1) % ECDMA_DBG_ERRORS;
	dbg->count++;
	spin_unlock_irqrestore(&dbg->lock, flags);
}

static int last_errors_show(struct seq_file *m, void *v)
{
	struct ecdma_front *front = m->private;
	struct ecdma_debugfs *dbg = front->dbg;
	struct ecdma_dbg_error errors[ECDMA_DBG_ERRORS];
	unsigned int next, i;
	unsigned long flags;
	u64 count;

	spin_lock_irqsave(&dbg->lock, flags);
	memcpy(errors, dbg->errors, sizeof(errors));
	next = dbg->next;
	count = dbg->count;
	spin_unlock_irqrestore(&dbg->lock, flags);

	seq_printf(m, "# %llu errors since probe, last %u (oldest first)\n",
		   count, ECDMA_DBG_ERRORS);
	seq_puts(m, "# time_ns chan op errno\n");
	for (i = 0; i < ECDMA_DBG_ERRORS; i++) {
		const struct ecdma_dbg_error *e;

		e = &errors[(next + i) % ECDMA_DBG_ERRORS];
		if (!e->ns)
			continue;
		seq_printf(m, "%llu %u %s %d\n", e->ns, e->chan,
			   ecdma_dbg_op_names[e->op], e->err);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(last_errors);

static int queues_show(struct seq_file *m, void *v)
{
	struct ecdma_front *front = m->private;
	unsigned int i;

	seq_puts(m, "# chan dma_chan clients desc free submitted posted completed pending cookie done_cookie cpu calc_inflight\n");
	/* keeps the calcs alive (sysfs algo, chan<N>/provider) */
	mutex_lock(&front->cfg_lock);
	for (i = 0; i < front->nr_chans; i++) {
		struct ecdma_chan *ch = &front->chans[i];
		unsigned int nfree = 0, nsub = 0, npost = 0, ncomp = 0;
		unsigned int ndesc, npend;
		dma_cookie_t cookie, done;
		struct list_head *pos;
		unsigned long flags;

		spin_lock_irqsave(&ch->lock, flags);
		list_for_each(pos, &ch->free)
			nfree++;
		list_for_each(pos, &ch->submitted)
			nsub++;
		list_for_each(pos, &ch->posted)
			npost++;
		list_for_each(pos, &ch->completed)
			ncomp++;
		ndesc = ch->nr_desc;
		npend = ch->nr_pending;
		cookie = ch->chan.cookie;
		done = ch->chan.completed_cookie;
		spin_unlock_irqrestore(&ch->lock, flags);

		seq_printf(m, "%u %s %d %u %u %u %u %u %u %d %d %d %d\n", i,
			   dma_chan_name(&ch->chan),
			   READ_ONCE(ch->chan.client_count), ndesc, nfree,
			   nsub, npost, ncomp, npend, cookie, done,
			   ecdma_ec_calc_cpu(ch->calc),
			   ecdma_ec_calc_inflight(ch->calc));
	}
	mutex_unlock(&front->cfg_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(queues);

/**
 * ecdma_debugfs_create - create /sys/kernel/debug/ecdma, at module init
 * Return: the directory for debugfs_create_*(); failures (ERR_PTR) are
 * ignored, as debugfs wants: those then create nothing.
 */
struct dentry *ecdma_debugfs_create(void)
{
	ecdma_dbg_root = debugfs_create_dir(KBUILD_MODNAME, NULL);
	return ecdma_dbg_root;
}

/**
 * ecdma_debugfs_destroy - remove the directory and everything in it
 * Context: module exit, after the front is gone.
 */
void ecdma_debugfs_destroy(void)
{
	debugfs_remove_recursive(ecdma_dbg_root);
	ecdma_dbg_root = NULL;
}

/**
 * ecdma_debugfs_init - add the front's files (queues, last_errors)
 * @front: the registered front
 */
void ecdma_debugfs_init(struct ecdma_front *front)
{
	struct ecdma_debugfs *dbg;
	struct dentry *dir = ecdma_dbg_root;

	dbg = kzalloc(sizeof(*dbg), GFP_KERNEL);
	if (!dbg)
		return;
	spin_lock_init(&dbg->lock);
	front->dbg = dbg;
	if (front->dev_addrs) {
		dbg->dir = debugfs_create_dir(dev_name(front->dev), dir);
		dir = dbg->dir;
	}
	dbg->queues = debugfs_create_file("queues", 0400, dir, front,
					  &queues_fops);
	dbg->last_errors = debugfs_create_file("last_errors", 0400, dir,
					       front, &last_errors_fops);
}

/**
 * ecdma_debugfs_exit - remove the front's files
 * @front: the front; its dbg stays for completions until ecdma_front_free()
 * Context: process context.
 */
void ecdma_debugfs_exit(struct ecdma_front *front)
{
	struct ecdma_debugfs *dbg = front->dbg;

	if (!dbg)
		return;
	debugfs_remove(dbg->last_errors);
	debugfs_remove(dbg->queues);
	debugfs_remove(dbg->dir);
	dbg->last_errors = NULL;
	dbg->queues = NULL;
	dbg->dir = NULL;
}
