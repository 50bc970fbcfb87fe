// SPDX-License-Identifier: GPL-2.0
/*
 * EC engine scaling benchmark (CPU provider).  For n = 1 .. online CPUs
 * (at most 8): n kthreads, the i-th bound to the i-th online CPU with its
 * own blocks and calc (Vandermonde k x m, affinity_hint = that CPU: its
 * engine worker is that CPU's kworker), keep depth async ENCODEs in flight
 * for ms milliseconds, all started together.  Per point it prints
 * "# scaling threads=N data_MBps=.. per_thread_MBps=.. efficiency_pct=.."
 * (data bytes, MB = 10^6, from the start to the last completion;
 * efficiency against n times the one-thread rate), "# engine ..." (WRs run
 * by the workers and inline) and "ok N scaling_threads_N".  A point fails
 * on a failed post or completion, no completion, or a wrong last stripe:
 * sampled bytes against a GF(2^8) reference with its own tables
 * (ecdma_ktest.h), VALIDATE clean, and VALIDATE flagging the code blocks
 * a flipped data byte enters.  The load fails (-EINVAL) when a point
 * failed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include <linux/wait.h>

#include <ecdma/ec.h>
/* enum ecdma_ec_stat, ecdma_ec_calc_stats() */
#include "../../drivers/ecdma/ec_priv.h"

#include "ecdma_ktest.h"

#define B_MAX_THREADS	8
#define B_MAX_DEPTH	256
#define B_MAX_BLOCK	SZ_1M
#define B_SAMPLES	64

static unsigned int ms = 1500;
module_param(ms, uint, 0444);
MODULE_PARM_DESC(ms, "milliseconds measured per point");
static int bk = 10;
module_param_named(k, bk, int, 0444);
MODULE_PARM_DESC(k, "data blocks per stripe");
static int bm = 4;
module_param_named(m, bm, int, 0444);
MODULE_PARM_DESC(m, "code blocks per stripe");
static int bblock = 65536;
module_param_named(block, bblock, int, 0444);
MODULE_PARM_DESC(block, "bytes per block");
static unsigned int depth = 8;
module_param(depth, uint, 0444);
MODULE_PARM_DESC(depth, "requests in flight per thread");

/* One posting kthread; its calc is affine to @cpu. */
struct b_thread {
	struct ecdma_ec_calc *calc;
	int cpu;
	u8 *buf;
	struct ecdma_ec_sge *sge;
	struct ecdma_ec_mem mem;
	struct ecdma_ec_wr *wrs;	/* depth slots, reused in order */
	wait_queue_head_t wq;		/* woken by completions */
	atomic_t ndone;			/* ->done ran */
	atomic_t nerr;			/* of those, failed */
	int status;			/* the last failure */
	unsigned int posted;		/* owner only */
	int post_ret;
	bool stuck;			/* some never completed */
	ktime_t end;			/* last completion */
	u64 stats[ECDMA_EC_STAT_NR];
	bool ref_ok;			/* sampled bytes match */
	int vret[2];			/* VALIDATE clean, then flipped */
	u32 vres[2];
	u32 vwant;			/* bits the flip must set */
	struct completion exited;
};

static DECLARE_COMPLETION(b_go);
static ktime_t b_deadline;
static int b_cpus[B_MAX_THREADS];

static u8 *b_blk(struct b_thread *t, int i)
{
	return t->buf + (size_t)i * bblock;
}

/* ->done: atomic context, in order per calc */
static void b_done(struct ecdma_ec_wr *wr)
{
	struct b_thread *t = wr->ctx;

	if (wr->status) {
		WRITE_ONCE(t->status, wr->status);
		atomic_inc(&t->nerr);
	}
	/* the owner reuses the slot once the count moves */
	smp_mb__before_atomic();
	atomic_inc(&t->ndone);
	wake_up(&t->wq);
}

static unsigned int b_inflight(struct b_thread *t)
{
	return t->posted - (unsigned int)atomic_read_acquire(&t->ndone);
}

/* The last stripe: sampled bytes, then VALIDATE clean and with a flip. */
static void b_check(struct b_thread *t)
{
	const u8 *mat = ecdma_ec_calc_matrix(t->calc);
	struct ecdma_ec_wr wr = { };
	int s, i, j, d = get_random_u32() % bk;
	size_t b, off = get_random_u32() % bblock;

	t->ref_ok = true;
	for (s = 0; s < B_SAMPLES; s++) {
		b = get_random_u32() % bblock;
		for (j = 0; j < bm; j++) {
			u8 v = 0;

			for (i = 0; i < bk; i++)
				v ^= ktest_mul(mat[i * bm + j], b_blk(t, i)[b]);
			if (v != b_blk(t, bk + j)[b])
				t->ref_ok = false;
		}
	}
	for (j = 0; j < bm; j++)
		if (mat[d * bm + j])
			t->vwant |= BIT(j);
	for (s = 0; s < 2; s++) {
		memset(&wr, 0, sizeof(wr));
		wr.opcode = ECDMA_EC_OP_VALIDATE;
		wr.mem = &t->mem;
		b_blk(t, d)[off] ^= s ? 0x5a : 0;
		t->vret[s] = ecdma_ec_post_sync(t->calc, &wr);
		t->vres[s] = wr.result;
	}
	b_blk(t, d)[off] ^= 0x5a;
}

static int b_thread_fn(void *arg)
{
	struct b_thread *t = arg;
	struct ecdma_ec_wr *wr;
	int ret;

	wait_for_completion(&b_go);
	while (ktime_before(ktime_get(), b_deadline) &&
	       !atomic_read(&t->nerr)) {
		while (b_inflight(t) < depth) {
			wr = &t->wrs[t->posted % depth];
			memset(wr, 0, sizeof(*wr));
			wr->opcode = ECDMA_EC_OP_ENCODE;
			wr->mem = &t->mem;
			wr->done = b_done;
			wr->ctx = t;
			ret = ecdma_ec_post(t->calc, wr);
			if (ret) {
				t->post_ret = ret;
				goto drain;
			}
			t->posted++;
		}
		wait_event_timeout(t->wq, b_inflight(t) < depth, HZ);
	}
drain:
	t->stuck = !wait_event_timeout(t->wq, !b_inflight(t), 60 * HZ);
	t->end = ktime_get();
	if (!t->stuck) {
		ecdma_ec_calc_stats(t->calc, t->stats);
		if (atomic_read(&t->ndone))
			b_check(t);
	}
	kthread_complete_and_exit(&t->exited, 0);
}

static int b_setup(struct ecdma_ec_provider *prov, struct b_thread *t,
		   int cpu)
{
	struct ecdma_ec_calc_attr a = {
		.k = bk,
		.m = bm,
		.w = ECDMA_EC_W,
		.max_inflight = depth,
		.affinity_hint = cpu,
		.matrix_type = ECDMA_EC_MATRIX_VANDERMONDE,
	};
	int i, ret;

	t->cpu = cpu;
	init_waitqueue_head(&t->wq);
	init_completion(&t->exited);
	t->sge = kcalloc(bk + bm, sizeof(*t->sge), GFP_KERNEL);
	t->wrs = kcalloc(depth, sizeof(*t->wrs), GFP_KERNEL);
	t->buf = kvmalloc_node((size_t)(bk + bm) * bblock,
			       GFP_KERNEL | __GFP_NOWARN, cpu_to_node(cpu));
	if (!t->sge || !t->wrs || !t->buf)
		return -ENOMEM;
	get_random_bytes(t->buf, (size_t)(bk + bm) * bblock);
	for (i = 0; i < bk + bm; i++)
		ktest_sge(&t->sge[i], b_blk(t, i), bblock);
	ktest_mem(&t->mem, t->sge, bk, t->sge + bk, bm, bblock);
	t->calc = ecdma_ec_alloc_calc(prov, &a);
	if (IS_ERR(t->calc)) {
		ret = PTR_ERR(t->calc);
		t->calc = NULL;
		return ret;
	}
	return 0;
}

/* after the thread ended: dealloc cancels anything still posted */
static void b_teardown(struct b_thread *t)
{
	if (t->calc)
		ecdma_ec_dealloc_calc(t->calc);
	kvfree(t->buf);
	kfree(t->wrs);
	kfree(t->sge);
}

static bool b_thread_ok(struct b_thread *t)
{
	unsigned int nd = atomic_read(&t->ndone), ne = atomic_read(&t->nerr);
	bool ok = !t->stuck && !t->post_ret && !ne && nd && t->ref_ok &&
		  !t->vret[0] && !t->vres[0] && !t->vret[1] && t->vwant &&
		  t->vres[1] == t->vwant;

	if (!ok)
		pr_info("# cpu %d: posted %u done %u errors %u (status %d) post %d stuck %d ref_ok %d validate %d/%#x flipped %d/%#x want %#x\n",
			t->cpu, t->posted, nd, ne, READ_ONCE(t->status),
			t->post_ret, t->stuck, t->ref_ok, t->vret[0],
			t->vres[0], t->vret[1], t->vres[1], t->vwant);
	return ok;
}

/* Run n set-up threads and report the point; false on any failure. */
static bool b_run(struct b_thread *ts, int n, u64 *base)
{
	u64 bytes = 0, wrs = 0, worker = 0, inl = 0, ns, kbps, mbps, eff = 0;
	struct task_struct *task[B_MAX_THREADS];
	ktime_t start, end;
	int i, bad = 0;

	for (i = 0; i < n; i++) {
		task[i] = kthread_create(b_thread_fn, &ts[i], "ecdma_bench/%d",
					 ts[i].cpu);
		if (IS_ERR(task[i])) {
			pr_info("# cpu %d: kthread_create: %ld\n", ts[i].cpu,
				PTR_ERR(task[i]));
			/* never woken: their function does not run */
			while (i--)
				kthread_stop(task[i]);
			return false;
		}
		kthread_bind(task[i], ts[i].cpu);
	}
	reinit_completion(&b_go);
	for (i = 0; i < n; i++)
		wake_up_process(task[i]);
	start = ktime_get();
	b_deadline = ktime_add_ms(start, ms);
	complete_all(&b_go);
	end = start;
	for (i = 0; i < n; i++) {
		struct b_thread *t = &ts[i];

		while (!wait_for_completion_timeout(&t->exited, 10 * HZ))
			;
		if (!b_thread_ok(t))
			bad++;
		if (ktime_after(t->end, end))
			end = t->end;
		bytes += (u64)(atomic_read(&t->ndone) - atomic_read(&t->nerr)) *
			 bk * bblock;
		wrs += atomic_read(&t->ndone);
		worker += t->stats[ECDMA_EC_STAT_WORKER_OPS];
		inl += t->stats[ECDMA_EC_STAT_INLINE_OPS];
	}
	ns = max_t(u64, ktime_to_ns(ktime_sub(end, start)), 1);
	kbps = div64_u64(bytes * 1000000, ns);
	mbps = div_u64(kbps, 1000);
	if (n == 1)
		*base = kbps;
	if (*base)
		eff = div64_u64(kbps * 100, (u64)n * *base);
	pr_info("# scaling threads=%d data_MBps=%llu per_thread_MBps=%llu efficiency_pct=%llu\n",
		n, mbps, div_u64(mbps, n), eff);
	pr_info("# engine threads=%d wrs=%llu worker_ops=%llu inline_ops=%llu wall_ms=%llu\n",
		n, wrs, worker, inl, div_u64(ns, NSEC_PER_MSEC));
	return !bad;
}

/* One point: n threads on the first n online CPUs */
static void b_point(struct ecdma_ec_provider *prov, int n, u64 *base)
{
	struct b_thread *ts;
	bool ok = false;
	char name[32];
	int i, ret;

	snprintf(name, sizeof(name), "scaling_threads_%d", n);
	ts = kcalloc(n, sizeof(*ts), GFP_KERNEL);
	if (!ts)
		goto out;
	for (i = 0; i < n; i++) {
		ret = b_setup(prov, &ts[i], b_cpus[i]);
		if (ret) {
			pr_info("# cpu %d: setup: %d\n", b_cpus[i], ret);
			break;
		}
	}
	if (i == n)
		ok = b_run(ts, n, base);
	for (i = 0; i < n; i++)
		b_teardown(&ts[i]);
	kfree(ts);
out:
	if (!ok && n == 1)
		*base = 0;
	ktest_result(ok, name);
}

static bool b_params_ok(struct ecdma_ec_provider *prov)
{
	struct ecdma_ec_caps caps;

	if (ecdma_ec_query_caps(prov, &caps))
		return false;
	return ms && bk >= 1 && bk <= caps.max_k && bm >= 1 &&
	       bm <= min_t(u32, caps.max_m, 32) && bblock > 0 &&
	       bblock <= B_MAX_BLOCK && !(bblock % caps.block_align) &&
	       depth >= 1 && depth <= min_t(u32, caps.max_inflight,
					    B_MAX_DEPTH) &&
	       (caps.flags & ECDMA_EC_CAP_VALIDATE);
}

static int __init ecdma_ec_bench_init(void)
{
	struct ecdma_ec_provider *prov;
	int n, cpu, ncpu = 0;
	u64 base = 0;

	for_each_online_cpu(cpu) {
		if (ncpu == B_MAX_THREADS)
			break;
		b_cpus[ncpu++] = cpu;
	}
	ktest_gf_init();
	pr_info("KTAP version 1\n");
	pr_info("# ms=%u k=%d m=%d block=%d depth=%u cpus=%d\n", ms, bk, bm,
		bblock, depth, ncpu);
	prov = ecdma_ec_provider_get("cpu");
	if (IS_ERR(prov)) {
		ktest_result(false, "provider_get");
		goto out;
	}
	if (!b_params_ok(prov))
		ktest_result(false, "params_supported");
	else
		for (n = 1; n <= ncpu; n++)
			b_point(prov, n, &base);
	ecdma_ec_provider_put(prov);
out:
	return ktest_summary();
}

static void __exit ecdma_ec_bench_exit(void)
{
}

module_init(ecdma_ec_bench_init);
module_exit(ecdma_ec_bench_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("ecdma developers");
MODULE_DESCRIPTION("Scaling benchmark of the ecdma EC verbs CPU provider");
MODULE_INFO(test, "Y");
ECDMA_MODULE_IMPORT_NS();
