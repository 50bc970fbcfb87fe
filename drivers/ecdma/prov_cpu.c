// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma EC verbs: the CPU provider ("cpu").
 *
 * Work requests execute through ec_exec.c: lib/raid6 and xor_blocks() for
 * exact P/Q and XOR where they fit, else the GF algo (prov_cpu_cal.c
 * chooses).  Each calc has a work item on the per-CPU "ecdma_ec" queue,
 * run on its affinity_hint CPU or the posting one; WQ_MEM_RECLAIM for md
 * writeback under memory pressure, normal priority not to starve md.
 *
 * Workers and inline callers run sections owning the calc with preemption
 * off, so no caller on that CPU waits for a preempted owner; inline callers
 * only trylock.  A section is bounded (byte budget, CPU_SECTION_OPS,
 * need_resched()), opens the FPU lazily where irq_fpu_usable() (else the
 * generic algo runs), closes it before fast paths and completions, and
 * ends with the completions, in order, still owning the calc.  A worker
 * requeues after CPU_WORKER_SECTIONS sections: calcs on a CPU take turns.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/irqflags.h>
#include <linux/list.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include <linux/workqueue.h>
#ifdef CONFIG_X86
#include <asm/fpu/api.h>
#endif

#include "ec_priv.h"
#include "ecdma_compat_raid.h"
#include "ecdma_trace.h"
#include "prov_cpu.h"
#include "gf.h"
#include "gf_algo.h"

/* sections per work item run before requeueing */
#define CPU_WORKER_SECTIONS	16

/**
 * struct ecdma_cpu_calc - CPU provider state of one calc
 * @calc: the calc
 * @work: its worker
 * @x: execution context (tables, scratch, decode cache)
 * @xmem: allocation holding @x
 * @cur: request started in @x and not finished; owner only
 * @algo: the GF algo @x was built with
 * @tsnap: @x's counters when @cur started, for ecdma_exec_end's path
 * @tsnap_ok: @tsnap was taken for @cur (the event was enabled then)
 */
struct ecdma_cpu_calc {
	struct ecdma_ec_calc *calc;
	struct work_struct work;
	struct ecdma_ec_xctx *x;
	void *xmem;
	struct ecdma_ec_wr *cur;
	const struct ecdma_gf_algo *algo;
	struct ecdma_ec_exec_stats tsnap;
	bool tsnap_ok;
};

static struct workqueue_struct *ecdma_cpu_wq;
static const struct ecdma_gf_algo *ecdma_cpu_algo;
/* ecdma_cpu_algo was chosen by name, not by ecdma_gf_algo_find(NULL) */
static bool ecdma_cpu_algo_forced;

/**
 * ecdma_cpu_set_algo() - choose the GF algo of calcs created from now
 * @name: a usable algo's name, or "auto" for the best one
 *
 * Existing calcs keep theirs (the dmaengine front rebuilds its calcs).
 * Context: process context; callers serialise (sysfs: front->cfg_lock).
 * Return: 0, or -EINVAL when no usable algo is called @name.
 */
int ecdma_cpu_set_algo(const char *name)
{
	bool forced = strcmp(name, "auto");
	const struct ecdma_gf_algo *algo;

	algo = ecdma_gf_algo_find(forced ? name : NULL);
	if (!algo)
		return -EINVAL;
	WRITE_ONCE(ecdma_cpu_algo, algo);
	WRITE_ONCE(ecdma_cpu_algo_forced, forced);
	/* "auto" paths compare lib/raid6 with this algo now */
	ecdma_cpu_calibrate(algo);
	return 0;
}

/**
 * ecdma_cpu_algo_name() - the GF algo new calcs get
 * @forced: set to whether it was chosen by name (else "auto"), or NULL
 * Return: its name.
 */
const char *ecdma_cpu_algo_name(bool *forced)
{
	if (forced)
		*forced = READ_ONCE(ecdma_cpu_algo_forced);
	return READ_ONCE(ecdma_cpu_algo)->name;
}

#ifdef CONFIG_X86
static void ecdma_cpu_fpu_begin(void *ctx)
{
	kernel_fpu_begin();
}

static void ecdma_cpu_fpu_end(void *ctx)
{
	kernel_fpu_end();
}

/* SIMD (ours, lib/raid6's, xor_blocks') is allowed in this context */
static bool ecdma_cpu_simd_ok(void)
{
	return !irqs_disabled() && irq_fpu_usable();
}
#else
#define ecdma_cpu_fpu_begin	NULL
#define ecdma_cpu_fpu_end	NULL

static bool ecdma_cpu_simd_ok(void)
{
	return false;
}
#endif

static bool ecdma_cpu_pq(void *ctx, int nsrc, size_t bytes, void **ptrs,
			 bool accumulate)
{
	if (!accumulate)
		return ecdma_raid6_gen(nsrc + 2, bytes, ptrs);
	return ecdma_raid6_xor(nsrc + 2, 0, nsrc - 1, bytes, ptrs);
}

static void ecdma_cpu_xor(void *ctx, unsigned int count, size_t bytes,
			  void *dest, void **srcs)
{
	ecdma_xor_lib(count, bytes, dest, srcs);
}

static const struct ecdma_ec_exec_hooks ecdma_cpu_hooks = {
	.fpu_begin = ecdma_cpu_fpu_begin,
	.fpu_end = ecdma_cpu_fpu_end,
	.pq = ecdma_cpu_pq,
	.xor = ecdma_cpu_xor,
	.xor_max = ECDMA_XOR_LIB_MAX,
};

static void ecdma_cpu_kick(struct ecdma_ec_calc *calc)
{
	struct ecdma_cpu_calc *cc = calc->prov_priv;
	int cpu = READ_ONCE(calc->affinity);

	/*
	 * Hotplug: a CPU leaves cpu_online_mask in stop_machine(), which
	 * waits for this preempt-disabled section, so @cpu stays online until
	 * queued; work left on a dying CPU is run by its pool, then unbound.
	 */
	preempt_disable();
	if (cpu >= 0 && cpu_online(cpu))
		queue_work_on(cpu, ecdma_cpu_wq, &cc->work);
	else
		queue_work(ecdma_cpu_wq, &cc->work);
	preempt_enable();
}

/* @cc->cur starts: the events, and @x's counters to tell its path by */
static void ecdma_cpu_trace_start(struct ecdma_cpu_calc *cc, bool inl)
{
	trace_ecdma_exec_start(cc->calc, cc->cur, inl, cc->algo->name, 0);
	cc->tsnap_ok = trace_ecdma_exec_end_enabled();
	if (cc->tsnap_ok)
		cc->tsnap = *ecdma_ec_exec_stats(cc->x);
}

/* @wr finished (or failed unstarted): which kernels computed it */
static void ecdma_cpu_trace_end(struct ecdma_cpu_calc *cc,
				const struct ecdma_ec_wr *wr, bool inl)
{
	const struct ecdma_ec_exec_stats *st = ecdma_ec_exec_stats(cc->x);
	const struct ecdma_ec_exec_stats *was = &cc->tsnap;
	unsigned int path = 0;

	if (cc->tsnap_ok && wr == cc->cur) {
		if (st->fast_pq_bytes != was->fast_pq_bytes)
			path |= ECDMA_PATH_RAID6;
		if (st->fast_xor_bytes != was->fast_xor_bytes)
			path |= ECDMA_PATH_XOR;
		if (st->gf_bytes != was->gf_bytes)
			path |= ECDMA_PATH_GF;
		if (st->nofpu_bytes != was->nofpu_bytes)
			path |= ECDMA_PATH_NOFPU;
		if (st->nt_bytes != was->nt_bytes)
			path |= ECDMA_PATH_NT;
	}
	cc->tsnap_ok = false;
	trace_ecdma_exec_end(cc->calc, wr, inl, cc->algo->name, path);
}

/*
 * One section, the calc owned with preemption off: runs within @budget and
 * CPU_SECTION_OPS, then completes what finished; returns how many.
 */
static int ecdma_cpu_section(struct ecdma_cpu_calc *cc, long budget,
			     enum ecdma_ec_stat who)
{
	struct ecdma_ec_calc *calc = cc->calc;
	struct ecdma_ec_xctx *x = cc->x;
	struct ecdma_ec_wr *wr;
	int max_ops = ecdma_cpu_tunable_get(ECDMA_CPU_SECTION_OPS);
	LIST_HEAD(done);
	int n = 0;
	struct ecdma_ec_exec_policy pol;
	bool inl = who == ECDMA_EC_STAT_INLINE_OPS;

	ecdma_cpu_exec_policy(&pol);
	ecdma_ec_exec_set_simd(x, ecdma_cpu_simd_ok());
	ecdma_ec_exec_set_policy(x, &pol);
	while (n < max_ops && budget > 0) {
		if (!cc->cur) {
			wr = ecdma_ec_exec_pop(calc);
			if (!wr)
				break;
			if (ecdma_ec_fault_wr(wr) ||
			    ecdma_ec_exec_start(x, wr)) {
				/*
				 * Fault or unexecutable: complete it before
				 * any later WR starts (->done may redo it,
				 * later WRs may need its outputs).
				 */
				if (trace_ecdma_exec_end_enabled())
					ecdma_cpu_trace_end(cc, wr, inl);
				list_add_tail(&wr->node, &done);
				n++;
				break;
			}
			cc->cur = wr;
			if (trace_ecdma_exec_start_enabled() ||
			    trace_ecdma_exec_end_enabled())
				ecdma_cpu_trace_start(cc, inl);
		}
		if (ecdma_ec_exec_run(x, &budget)) {
			if (trace_ecdma_exec_end_enabled())
				ecdma_cpu_trace_end(cc, cc->cur, inl);
			list_add_tail(&cc->cur->node, &done);
			cc->cur = NULL;
			n++;
		}
		if (need_resched())
			break;
	}
	ecdma_ec_exec_fpu_put(x);
	ecdma_ec_stat_add(calc, ECDMA_EC_STAT_SECTIONS, 1);

	if (n) {
		ecdma_ec_stat_add(calc, who, n);
		ecdma_ec_complete_list(calc, &done);
	}
	return n;
}

static void ecdma_cpu_work(struct work_struct *work)
{
	struct ecdma_cpu_calc *cc = container_of(work, struct ecdma_cpu_calc,
						 work);
	struct ecdma_ec_calc *calc = cc->calc;
	bool more;
	int s;

	for (s = 0; s < CPU_WORKER_SECTIONS; s++) {
		preempt_disable();
		if (!ecdma_ec_exec_acquire(calc)) {
			/* the owner kicks us again if it leaves work */
			preempt_enable();
			return;
		}
		ecdma_cpu_section(cc,
				  ecdma_cpu_tunable_get(ECDMA_CPU_WORKER_BUDGET),
				  ECDMA_EC_STAT_WORKER_OPS);
		more = ecdma_ec_exec_release(calc, cc->cur);
		preempt_enable();
		if (!more)
			return;
		cond_resched();
	}
	/* take turns with other calcs queued on this CPU */
	ecdma_cpu_kick(calc);
}

static bool ecdma_cpu_progress(struct ecdma_ec_calc *calc)
{
	struct ecdma_cpu_calc *cc = calc->prov_priv;
	bool more;
	int n;

	/* idle: a racing post kicks the worker itself */
	if (list_empty_careful(&calc->pending) && !data_race(cc->cur))
		return false;

	preempt_disable();
	if (!ecdma_ec_exec_acquire(calc)) {
		preempt_enable();
		return false;
	}
	ecdma_ec_stat_add(calc, ECDMA_EC_STAT_INLINE_CALLS, 1);
	n = ecdma_cpu_section(cc,
			      ecdma_cpu_tunable_get(ECDMA_CPU_INLINE_BUDGET),
			      ECDMA_EC_STAT_INLINE_OPS);
	more = ecdma_ec_exec_release(calc, cc->cur);
	/* kick before preempt_enable(): dealloc's synchronize_rcu() */
	if (more)
		ecdma_cpu_kick(calc);
	preempt_enable();
	return n > 0;
}

static int ecdma_cpu_calc_init(struct ecdma_ec_calc *calc)
{
	struct ecdma_ec_exec_cfg cfg = {
		.k = calc->k,
		.m = calc->m,
		.matrix = calc->matrix,
		.algo = READ_ONCE(ecdma_cpu_algo),
		.hooks = &ecdma_cpu_hooks,
	};
	int node = calc->affinity >= 0 ? cpu_to_node(calc->affinity) :
					 NUMA_NO_NODE;
	struct ecdma_cpu_calc *cc;
	size_t size;
	int ret;

	size = ecdma_ec_exec_size(&cfg);
	if (!size)
		return -EINVAL;
	cc = kzalloc_node(sizeof(*cc), GFP_KERNEL, node);
	if (!cc)
		return -ENOMEM;
	cc->xmem = kvzalloc_node(size, GFP_KERNEL, node);
	if (!cc->xmem) {
		ret = -ENOMEM;
		goto err_free_cc;
	}
	cc->x = ecdma_ec_exec_init(cc->xmem, &cfg);
	if (!cc->x) {
		ret = -EINVAL;
		goto err_free_xmem;
	}
	cc->calc = calc;
	cc->algo = cfg.algo;
	INIT_WORK(&cc->work, ecdma_cpu_work);
	calc->prov_priv = cc;
	return 0;

err_free_xmem:
	kvfree(cc->xmem);
err_free_cc:
	kfree(cc);
	return ret;
}

static void ecdma_cpu_quiesce(struct ecdma_ec_calc *calc)
{
	struct ecdma_cpu_calc *cc = calc->prov_priv;

	/*
	 * Dead and unowned, and dealloc waited for the preempt-disabled
	 * sections that could kick: only the work item can requeue itself,
	 * which cancel_work_sync() handles.
	 */
	cancel_work_sync(&cc->work);
	if (cc->cur) {
		ecdma_ec_exec_abort(cc->x);
		ecdma_ec_exec_unpop(calc, cc->cur);
		cc->cur = NULL;
	}
}

static void ecdma_cpu_calc_destroy(struct ecdma_ec_calc *calc)
{
	struct ecdma_cpu_calc *cc = calc->prov_priv;

	kvfree(cc->xmem);
	kfree(cc);
	calc->prov_priv = NULL;
}

static void ecdma_cpu_stats(const struct ecdma_ec_calc *calc, u64 *vals)
{
	const struct ecdma_cpu_calc *cc = calc->prov_priv;
	struct ecdma_ec_exec_stats st;

	/* a racy snapshot: the executor updates these without a lock */
	st = data_race(*ecdma_ec_exec_stats(cc->x));
	vals[ECDMA_EC_STAT_FAST_PQ_BYTES] += st.fast_pq_bytes;
	vals[ECDMA_EC_STAT_FAST_XOR_BYTES] += st.fast_xor_bytes;
	vals[ECDMA_EC_STAT_GF_BYTES] += st.gf_bytes;
	vals[ECDMA_EC_STAT_NOFPU_BYTES] += st.nofpu_bytes;
	vals[ECDMA_EC_STAT_FPU_SECTIONS] += st.fpu_sections;
	vals[ECDMA_EC_STAT_NT_BYTES] += st.nt_bytes;
	vals[ECDMA_EC_STAT_DEC_HITS] += st.dec_hits;
	vals[ECDMA_EC_STAT_DEC_MISSES] += st.dec_misses;
}

static const struct ecdma_ec_provider_ops ecdma_cpu_ops = {
	.calc_init = ecdma_cpu_calc_init,
	.calc_destroy = ecdma_cpu_calc_destroy,
	.kick = ecdma_cpu_kick,
	.progress = ecdma_cpu_progress,
	.quiesce = ecdma_cpu_quiesce,
	.stats = ecdma_cpu_stats,
};

static struct ecdma_ec_provider ecdma_cpu_provider = {
	.name = "cpu",
	.ops = &ecdma_cpu_ops,
	.owner = NULL,		/* part of ecdma */
	.caps = {
		.max_k = ECDMA_EC_MAX_K,
		.max_m = ECDMA_EC_MAX_M,
		.w_mask = BIT(ECDMA_EC_W - 1),
		.max_inflight = ECDMA_EC_MAX_INFLIGHT,
		.block_align = 1,
		.flags = ECDMA_EC_CAP_UPDATE | ECDMA_EC_CAP_INPLACE |
			 ECDMA_EC_CAP_VALIDATE | ECDMA_EC_CAP_ENCODE_SEND,
	},
};

/**
 * ecdma_cpu_init() - register the CPU provider
 * Context: Module init.
 * Return: 0 or a negative errno.
 */
int ecdma_cpu_init(void)
{
	int ret;

	ecdma_cpu_algo = ecdma_gf_algo_find(NULL);
	ecdma_cpu_wq = alloc_workqueue("ecdma_ec", WQ_MEM_RECLAIM |
				       WQ_CPU_INTENSIVE | ECDMA_WQ_PERCPU, 0);
	if (!ecdma_cpu_wq)
		return -ENOMEM;
	ecdma_cpu_calibrate(ecdma_cpu_algo);
	ret = ecdma_ec_provider_register(&ecdma_cpu_provider);
	if (ret)
		goto err_destroy_wq;
	pr_info("EC verbs cpu provider: gf %s, raid6 %s, xor_blocks\n",
		ecdma_cpu_algo->name, raid6_call.name);
	return 0;

err_destroy_wq:
	destroy_workqueue(ecdma_cpu_wq);
	return ret;
}

/**
 * ecdma_cpu_exit() - unregister the CPU provider
 * Context: Module exit; every calc of the provider must be gone.
 */
void ecdma_cpu_exit(void)
{
	ecdma_ec_provider_unregister(&ecdma_cpu_provider);
	destroy_workqueue(ecdma_cpu_wq);
}
