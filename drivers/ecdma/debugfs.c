// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma debugfs: dumps for debugging, not ABI (Documentation/admin-guide).
 *
 *   /sys/kernel/debug/ecdma/queues       per-channel descriptor lists
 *   /sys/kernel/debug/ecdma/last_errors  the last ECDMA_DBG_ERRORS errors
 *   /sys/kernel/debug/ecdma/calibration  the CPU provider's measurement
 *                                        per block-size class (pq_path,
 *                                        xor_path, nt_threshold auto)
 *
 * The directory exists while the front is registered; other parts of ecdma
 * add files to it through ecdma_debugfs_dir().  Everything in it goes away
 * with ecdma_debugfs_exit() (debugfs_remove_recursive()).
 */
#include <linux/debugfs.h>
#include <linux/ktime.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "ec_priv.h"
#include "ecdma_compat_raid.h"
#include "prov_cpu.h"
#include "front.h"
#include "gf_cal.h"

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
 * @lock: guards @errors, @next and @count; taken with irqsave (errors
 *	are recorded from completions, which may run with IRQs off)
 * @errors: ring of the last errors
 * @next: slot the next error goes to
 * @count: errors recorded since probe
 */
struct ecdma_debugfs {
	spinlock_t lock;	/* guards the error ring, see above */
	struct ecdma_dbg_error errors[ECDMA_DBG_ERRORS];
	unsigned int next;
	u64 count;
};

/* set by ecdma_debugfs_init(), cleared by ecdma_debugfs_exit() */
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
 * ecdma_debugfs_dir - the ecdma debugfs directory
 *
 * Return: the directory while the front is registered, else NULL.  Files
 * created in it are removed with it; do not remove them afterwards.
 */
struct dentry *ecdma_debugfs_dir(void)
{
	return ecdma_dbg_root;
}

/**
 * ecdma_debugfs_error - remember an error for last_errors
 * @front: the front
 * @chan: channel index
 * @op: enum ecdma_op_type, or ECDMA_OP_NR
 * @err: negative errno
 *
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
	/* keeps the calcs (sysfs algo, chan<N>/provider) */
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

static int calibration_show(struct seq_file *m, void *v)
{
	struct ecdma_gf_cal cal;
	const char *algo;
	char str[64];
	int c, kind, way, pq;
	long nt;

	algo = ecdma_cpu_calibration(&cal);
	if (!cal.done) {
		seq_puts(m, "# not measured (no usable FPU or memory at the time)\n");
	} else {
		seq_printf(m, "# MB/s of data hot/cold, %d data blocks, gf algo %s, raid6 %s, %d rounds\n",
			   ECDMA_GF_CAL_DISKS, algo, ecdma_raid6_name(),
			   cal.rounds);
		for (c = 0; c < ECDMA_GF_CLS_NR; c++) {
			seq_printf(m, "class %s block %u\n",
				   ecdma_gf_cls_names[c], cal.block[c]);
			for (kind = 0; kind < ECDMA_GF_KIND_NR; kind++) {
				seq_printf(m, "%s", ecdma_gf_kind_names[kind]);
				for (way = 0; way < ECDMA_GF_CAL_WAYS; way++) {
					const u32 *v = cal.mbps[c][kind][way];

					seq_printf(m, " %s %u/%u",
						   ecdma_gf_cal_way_names[way],
						   v[0], v[1]);
				}
				seq_putc(m, '\n');
			}
		}
		seq_printf(m, "nt_write %u\n", cal.nt_wr);
	}
	/* outputs written within the window count as cached: no NT */
	seq_printf(m, "llc %llu\nreuse_window %llu\n", cal.llc,
		   cal.reuse_window);
	for (pq = 1; pq >= 0; pq--) {
		unsigned int lib;
		enum ecdma_cpu_path p = ecdma_cpu_path_get(pq, &lib);

		ecdma_cpu_path_str(pq, str, sizeof(str));
		seq_printf(m, "%s_path %s -> %s\n", pq ? "pq" : "xor",
			   ecdma_cpu_path_names[p], str);
	}
	nt = ecdma_cpu_nt();
	for (kind = 0; kind < ECDMA_GF_KIND_NR; kind++) {
		if (nt >= 0)
			scnprintf(str, sizeof(str), "from %ld bytes", nt);
		else
			ecdma_cpu_nt_str(kind, str, sizeof(str));
		seq_printf(m, "%s_stores %s -> %s\n", ecdma_gf_kind_names[kind],
			   nt >= 0 ? "nt_threshold" : "auto", str);
	}
	/* as calibrated: NT from this many inputs on, per class (0: never) */
	for (kind = 0; cal.done && kind < ECDMA_GF_KIND_NR; kind++) {
		seq_printf(m, "%s_nt_kmin", ecdma_gf_kind_names[kind]);
		for (c = 0; c < ECDMA_GF_CLS_NR; c++)
			seq_printf(m, " %u", cal.nt_kmin[kind][c]);
		seq_putc(m, '\n');
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(calibration);

/**
 * ecdma_debugfs_init - create /sys/kernel/debug/ecdma
 * @front: the registered front
 *
 * Failures are ignored, as debugfs wants: it is only for debugging.
 */
void ecdma_debugfs_init(struct ecdma_front *front)
{
	struct ecdma_debugfs *dbg;

	dbg = kzalloc(sizeof(*dbg), GFP_KERNEL);
	if (!dbg) {
		/* no directory: the fault knobs are only reset, never on */
		ecdma_ec_fault_init();
		return;
	}
	spin_lock_init(&dbg->lock);
	front->dbg = dbg;

	ecdma_dbg_root = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("queues", 0400, ecdma_dbg_root, front,
			    &queues_fops);
	debugfs_create_file("last_errors", 0400, ecdma_dbg_root, front,
			    &last_errors_fops);
	debugfs_create_file("calibration", 0400, ecdma_dbg_root, NULL,
			    &calibration_fops);
	/* the EC core's fault injection knobs live in the same directory */
	ecdma_ec_fault_init();
}

/**
 * ecdma_debugfs_exit - remove the directory and everything in it
 * @front: the front
 *
 * front->dbg stays: completions may record errors until the channels are
 * destroyed; ecdma_front_free() frees it.
 *
 * Context: process context.
 */
void ecdma_debugfs_exit(struct ecdma_front *front)
{
	debugfs_remove_recursive(ecdma_dbg_root);
	ecdma_dbg_root = NULL;
}
