// SPDX-License-Identifier: GPL-2.0
/*
 * EC verbs torture test: several kthreads post random work requests
 * (encode with the calc or a per-WR matrix, with or without accumulate,
 * decode, update, validate, copy, nop; random block sizes and
 * alignments; sync and async) to several shared calcs (callback and
 * polling, generated and user matrices, with and without affinity) at
 * once, and check every result against a byte-at-a-time reference with
 * its own GF(2^8) tables.  Each calc's async completions must arrive in
 * posting order and exactly once, and nothing may stay stuck.
 *
 * Runs at load for duration_s seconds and prints KTAP lines
 * ("ecdma_torture: ok 3 name") and "ecdma_torture: N passed, M failed";
 * the load fails (-EINVAL) when anything failed.  With faults=1, results
 * with -EIO (ecdma's debugfs fault injection) are accepted and counted.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bottom_half.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/prandom.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>

#include <ecdma/ec.h>

#include "ecdma_ktest.h"

#define T_MAX_K		20
#define T_MAX_M		4
#define T_MAX_SGE	(T_MAX_M + 2 * T_MAX_K)
#define T_MAX_BS	4096
#define T_PAD		64
#define T_MAX_CALCS	16
#define T_MAX_THREADS	16
#define T_MAX_QD	32

static unsigned int threads = 4;
module_param(threads, uint, 0444);
MODULE_PARM_DESC(threads, "posting kthreads (1-16)");
static unsigned int calcs = 4;
module_param(calcs, uint, 0444);
MODULE_PARM_DESC(calcs, "calcs shared by the threads (1-16)");
static unsigned int duration_s = 10;
module_param(duration_s, uint, 0444);
MODULE_PARM_DESC(duration_s, "seconds to run");
static unsigned int qdepth = 8;
module_param(qdepth, uint, 0444);
MODULE_PARM_DESC(qdepth, "async requests in flight per thread (1-32)");
static bool faults;
module_param(faults, bool, 0444);
MODULE_PARM_DESC(faults, "accept -EIO completions (fault injection on)");
static ulong seed;
module_param(seed, ulong, 0444);
MODULE_PARM_DESC(seed, "random seed (0: random)");

/**
 * struct t_calc - a shared calc
 * @calc: the calc
 * @k: its k
 * @m: its m
 * @mat: its k x m encode matrix
 * @polling: completions only through ecdma_ec_poll()
 * @post_lock: guards @post_seq; held across ecdma_ec_post() so sequence
 *	numbers follow posting order
 * @post_seq: next sequence number of an async request
 * @done_seq: last sequence number completed plus one; only touched by
 *	completions, which the calc serializes
 * @poll_lock: serializes ecdma_ec_poll() callers, as the API requires
 */
struct t_calc {
	struct ecdma_ec_calc *calc;
	int k;
	int m;
	const u8 *mat;
	bool polling;
	spinlock_t post_lock; /* guards post_seq, see above */
	u64 post_seq;
	u64 done_seq;
	spinlock_t poll_lock; /* serializes ecdma_ec_poll() */
};

struct t_thread;

/**
 * struct t_job - one work request and what it must produce
 * @node: on the owner's done list once completed
 * @t: owning thread
 * @tc: calc it was posted to
 * @wr: the request
 * @mem: its layout
 * @sge: data then code scatter/gather entries
 * @buf: the blocks
 * @exp: expected contents of the outputs
 * @out: the outputs (blocks in @buf)
 * @nout: number of outputs
 * @bs: block size
 * @exp_result: VALIDATE: expected mismatch bits
 * @seq: async: sequence number on @tc
 * @ndone: times ->done ran
 * @mat: per-WR matrix
 * @era: DECODE erasures
 * @du: UPDATE data map
 * @cu: UPDATE code map
 */
struct t_job {
	struct list_head node;
	struct t_thread *t;
	struct t_calc *tc;
	struct ecdma_ec_wr wr;
	struct ecdma_ec_mem mem;
	struct ecdma_ec_sge sge[T_MAX_SGE];
	u8 *buf;
	u8 *exp;
	u8 *out[T_MAX_M];
	int nout;
	int bs;
	u32 exp_result;
	u64 seq;
	atomic_t ndone;
	u8 mat[T_MAX_K * T_MAX_M];
	u8 era[T_MAX_K + T_MAX_M];
	u8 du[T_MAX_K];
	u8 cu[T_MAX_M];
};

/**
 * struct t_thread - a posting kthread
 * @id: index
 * @rnd: its random state
 * @lock: guards @done (completions run in any context)
 * @done: completed async jobs, to verify
 * @wq: woken by completions
 * @inflight: async jobs posted and not yet verified; owner only
 * @ops: requests verified, by opcode
 * @bad: failed checks
 * @faulted: requests completed with an injected fault
 * @overflow: posts refused with -EOVERFLOW
 * @exited: signalled when the thread ends
 */
struct t_thread {
	int id;
	struct rnd_state rnd;
	spinlock_t lock; /* guards done */
	struct list_head done;
	wait_queue_head_t wq;
	int inflight;
	unsigned long ops[ECDMA_EC_OP_MAX];
	unsigned long bad;
	unsigned long faulted;
	unsigned long overflow;
	struct completion exited;
};

static struct t_calc t_calcs[T_MAX_CALCS];
static struct t_thread t_threads[T_MAX_THREADS];
static unsigned long t_end;
static atomic_t t_order_bad = ATOMIC_INIT(0);
static atomic_t t_msgs = ATOMIC_INIT(0);

#define t_err(fmt, ...) do {						\
		if (atomic_inc_return(&t_msgs) <= 20)			\
			pr_info("# " fmt "\n", ##__VA_ARGS__);		\
	} while (0)

static u32 t_rand(struct t_thread *t, u32 n)
{
	return n ? prandom_u32_state(&t->rnd) % n : 0;
}

/* ---------------------------------------------------------------------- */
/* Jobs                                                                   */
/* ---------------------------------------------------------------------- */

static void t_job_free(struct t_job *j)
{
	if (!j)
		return;
	kvfree(j->buf);
	kvfree(j->exp);
	kfree(j);
}

static int t_pick_bs(struct t_thread *t)
{
	switch (t_rand(t, 4)) {
	case 0:
		return 1 + t_rand(t, 64);
	case 1:
		return 512 * (1 + t_rand(t, T_MAX_BS / 512));
	default:
		return 1 + t_rand(t, T_MAX_BS);
	}
}

/*
 * Build a random request on @tc: layout, inputs, expected outputs.  The
 * blocks are @nblk slots of the job buffer, each at a random offset.
 */
static struct t_job *t_job_make(struct t_thread *t, struct t_calc *tc)
{
	int k = tc->k, m = tc->m, nblk, bs, i, jx, nd = 0, nc = 0, off;
	u8 *blk[T_MAX_SGE], *old[T_MAX_M];
	struct t_job *j;
	size_t stride;
	u32 op;

	j = kzalloc(sizeof(*j), GFP_KERNEL);
	if (!j)
		return NULL;
	j->t = t;
	j->tc = tc;
	atomic_set(&j->ndone, 0);
	bs = t_pick_bs(t);
	j->bs = bs;
	stride = bs + T_PAD;
	nblk = T_MAX_SGE;
	j->buf = kvmalloc(stride * nblk, GFP_KERNEL);
	j->exp = kvmalloc((size_t)bs * T_MAX_M, GFP_KERNEL);
	if (!j->buf || !j->exp) {
		t_job_free(j);
		return NULL;
	}
	off = t_rand(t, 2) ? 0 : t_rand(t, T_PAD);
	for (i = 0; i < nblk; i++) {
		blk[i] = j->buf + i * stride + off;
		prandom_bytes_state(&t->rnd, blk[i], bs);
	}

	op = t_rand(t, 20);
	if (op < 7)
		j->wr.opcode = ECDMA_EC_OP_ENCODE;
	else if (op < 11)
		j->wr.opcode = ECDMA_EC_OP_DECODE;
	else if (op < 14)
		j->wr.opcode = ECDMA_EC_OP_UPDATE;
	else if (op < 17)
		j->wr.opcode = ECDMA_EC_OP_VALIDATE;
	else if (op < 19)
		j->wr.opcode = ECDMA_EC_OP_COPY;
	else
		j->wr.opcode = ECDMA_EC_OP_NOP;

	switch (j->wr.opcode) {
	case ECDMA_EC_OP_ENCODE: {
		bool acc = t_rand(t, 3) == 0;
		const u8 *coef = tc->mat;

		nd = k;
		nc = m;
		if (t_rand(t, 2)) {
			nd = 1 + t_rand(t, k);
			nc = 1 + t_rand(t, m);
			prandom_bytes_state(&t->rnd, j->mat, nd * nc);
			j->wr.matrix = j->mat;
			coef = j->mat;
		}
		if (acc)
			j->wr.flags = ECDMA_EC_WR_ACCUMULATE;
		for (jx = 0; jx < nc; jx++) {
			j->out[jx] = blk[nd + jx];
			old[jx] = j->exp + jx * bs;
			memcpy(old[jx], j->out[jx], bs);
		}
		ktest_ref(bs, nd, nc, coef, blk, old, acc);
		j->nout = nc;
		break;
	}
	case ECDMA_EC_OP_VALIDATE:
		nd = k;
		nc = m;
		ktest_ref(bs, k, m, tc->mat, blk, blk + k, false);
		for (jx = 0; jx < m; jx++) {
			if (t_rand(t, 3))
				continue;
			blk[k + jx][t_rand(t, bs)] ^= 1 + t_rand(t, 255);
			j->exp_result |= BIT(jx);
		}
		break;
	case ECDMA_EC_OP_DECODE: {
		int ne = 1 + t_rand(t, m), got = 0;

		nd = k;
		nc = m;
		ktest_ref(bs, k, m, tc->mat, blk, blk + k, false);
		while (got < ne) {
			i = t_rand(t, k + m);
			if (j->era[i])
				continue;
			j->era[i] = 1;
			got++;
		}
		for (i = 0; i < k + m; i++) {
			if (!j->era[i])
				continue;
			j->out[j->nout] = blk[i];
			memcpy(j->exp + j->nout * bs, blk[i], bs);
			prandom_bytes_state(&t->rnd, blk[i], bs);
			j->nout++;
		}
		j->wr.erasures = j->era;
		break;
	}
	case ECDMA_EC_OP_UPDATE: {
		int u = 0, uc = 0, ci[T_MAX_M], di[T_MAX_K];
		u8 *delta = NULL;

		while (!u)
			for (i = 0; i < k; i++)
				if (!t_rand(t, 3) || (i == k - 1 && !u)) {
					j->du[i] = 1;
					di[u++] = i;
				}
		while (!uc)
			for (i = 0; i < m; i++)
				if (t_rand(t, 2) || (i == m - 1 && !uc)) {
					j->cu[i] = 1;
					ci[uc++] = i;
				}
		/* data: c_j..., then d_i, d'_i pairs; code: c'_j... */
		nd = uc + 2 * u;
		nc = uc;
		delta = kmalloc(bs, GFP_KERNEL);
		if (!delta) {
			t_job_free(j);
			return NULL;
		}
		for (jx = 0; jx < uc; jx++) {
			u8 *e = j->exp + jx * bs;
			int b;

			memcpy(e, blk[jx], bs);
			for (i = 0; i < u; i++) {
				u8 c = tc->mat[di[i] * m + ci[jx]];

				for (b = 0; b < bs; b++)
					delta[b] = blk[uc + 2 * i][b] ^
						   blk[uc + 2 * i + 1][b];
				for (b = 0; b < bs; b++)
					e[b] ^= ktest_mul(c, delta[b]);
			}
			j->out[jx] = blk[nd + jx];
		}
		kfree(delta);
		j->nout = uc;
		j->wr.data_updates = j->du;
		j->wr.code_updates = j->cu;
		break;
	}
	case ECDMA_EC_OP_COPY:
		nd = 1;
		nc = 1;
		j->out[0] = blk[1];
		memcpy(j->exp, blk[0], bs);
		j->nout = 1;
		break;
	default:
		break;
	}

	if (j->wr.opcode != ECDMA_EC_OP_NOP) {
		for (i = 0; i < nd + nc; i++)
			ktest_sge(&j->sge[i], blk[i], bs);
		ktest_mem(&j->mem, j->sge, nd, j->sge + nd, nc, bs);
		j->wr.mem = &j->mem;
	}
	return j;
}

/* Check a completed job; returns true when it is right. */
static bool t_job_check(struct t_job *j, int ret)
{
	struct t_thread *t = j->t;
	int i;

	if (atomic_read(&j->ndone) > 1) {
		t_err("thread %d: ->done ran %d times", t->id,
		      atomic_read(&j->ndone));
		return false;
	}
	if (faults && ret == -EIO) {
		t->faulted++;
		return true;
	}
	if (ret) {
		t_err("thread %d: op %d k %d m %d bs %d: status %d", t->id,
		      j->wr.opcode, j->tc->k, j->tc->m, j->bs, ret);
		return false;
	}
	t->ops[j->wr.opcode]++;
	if (j->wr.opcode == ECDMA_EC_OP_VALIDATE &&
	    j->wr.result != j->exp_result) {
		t_err("thread %d: validate k %d m %d bs %d: result %#x want %#x",
		      t->id, j->tc->k, j->tc->m, j->bs, j->wr.result,
		      j->exp_result);
		return false;
	}
	for (i = 0; i < j->nout; i++) {
		if (memcmp(j->out[i], j->exp + i * j->bs, j->bs)) {
			t_err("thread %d: op %d flags %u k %d m %d nd %d nc %d bs %d: output %d wrong",
			      t->id, j->wr.opcode, j->wr.flags, j->tc->k,
			      j->tc->m, j->mem.num_data_sge,
			      j->mem.num_code_sge, j->bs, i);
			return false;
		}
	}
	return true;
}

/* ->done of async jobs: any context, serialized per calc */
static void t_done(struct ecdma_ec_wr *wr)
{
	struct t_job *j = wr->ctx;
	struct t_calc *tc = j->tc;
	struct t_thread *t = j->t;
	unsigned long flags;

	if (atomic_inc_return(&j->ndone) == 1) {
		if (j->seq != tc->done_seq) {
			atomic_inc(&t_order_bad);
			t_err("calc %ld: completion seq %llu, expected %llu",
			      (long)(tc - t_calcs), j->seq, tc->done_seq);
		}
		tc->done_seq = j->seq + 1;
	}
	spin_lock_irqsave(&t->lock, flags);
	list_add_tail(&j->node, &t->done);
	spin_unlock_irqrestore(&t->lock, flags);
	wake_up(&t->wq);
}

/* Drive every calc: inline progress, and reap the polling ones. */
static void t_drive(struct t_thread *t)
{
	int i;

	for (i = 0; i < calcs; i++) {
		struct t_calc *tc = &t_calcs[i];

		switch (t_rand(t, 4)) {
		case 0:
			local_bh_disable();
			ecdma_ec_progress(tc->calc);
			local_bh_enable();
			break;
		case 1:
			ecdma_ec_progress(tc->calc);
			break;
		default:
			break;
		}
		if (tc->polling && spin_trylock_bh(&tc->poll_lock)) {
			ecdma_ec_poll(tc->calc, 16);
			spin_unlock_bh(&tc->poll_lock);
		}
	}
}

static void t_reap(struct t_thread *t)
{
	struct t_job *j, *n;
	unsigned long flags;
	LIST_HEAD(list);

	spin_lock_irqsave(&t->lock, flags);
	list_splice_init(&t->done, &list);
	spin_unlock_irqrestore(&t->lock, flags);
	list_for_each_entry_safe(j, n, &list, node) {
		list_del(&j->node);
		if (!t_job_check(j, j->wr.status))
			t->bad++;
		t->inflight--;
		t_job_free(j);
	}
}

static bool t_has_done(struct t_thread *t)
{
	return !list_empty_careful(&t->done);
}

static void t_post_one(struct t_thread *t)
{
	struct t_calc *tc = &t_calcs[t_rand(t, calcs)];
	unsigned long flags;
	struct t_job *j;
	int ret;

	j = t_job_make(t, tc);
	if (!j) {
		usleep_range(1000, 2000);
		return;
	}
	if (!t_rand(t, 4)) {
		/* sync: completes directly, also on a polling calc */
		ret = ecdma_ec_post_sync(tc->calc, &j->wr);
		if (ret == -EOVERFLOW) {
			t->overflow++;
		} else {
			atomic_set(&j->ndone, 1);
			if (!t_job_check(j, ret))
				t->bad++;
		}
		t_job_free(j);
		return;
	}
	j->wr.done = t_done;
	j->wr.ctx = j;
	spin_lock_irqsave(&tc->post_lock, flags);
	j->seq = tc->post_seq;
	ret = ecdma_ec_post(tc->calc, &j->wr);
	if (!ret)
		tc->post_seq++;
	spin_unlock_irqrestore(&tc->post_lock, flags);
	if (ret) {
		if (ret == -EOVERFLOW) {
			t->overflow++;
		} else {
			t_err("thread %d: post op %d: %d", t->id,
			      j->wr.opcode, ret);
			t->bad++;
		}
		t_job_free(j);
		t_drive(t);
		return;
	}
	t->inflight++;
}

static int t_thread_fn(void *arg)
{
	struct t_thread *t = arg;
	unsigned long stuck;

	while (time_before(jiffies, t_end)) {
		t_reap(t);
		if (t->inflight < qdepth) {
			t_post_one(t);
		} else {
			t_drive(t);
			wait_event_timeout(t->wq, t_has_done(t),
					   msecs_to_jiffies(2));
		}
		if (!t_rand(t, 8))
			t_drive(t);
		cond_resched();
	}
	/* drain: everything posted must complete */
	stuck = jiffies + 60 * HZ;
	while (t->inflight && time_before(jiffies, stuck)) {
		t_drive(t);
		wait_event_timeout(t->wq, t_has_done(t), msecs_to_jiffies(2));
		t_reap(t);
	}
	if (t->inflight) {
		t_err("thread %d: %d requests never completed", t->id,
		      t->inflight);
		t->bad++;
	}
	kthread_complete_and_exit(&t->exited, 0);
}

static int t_calcs_alloc(struct ecdma_ec_provider *prov)
{
	u8 raid6[T_MAX_K * 2];
	int i, cpu;
	u32 r;

	for (i = 0; i < T_MAX_K; i++) {
		raid6[2 * i] = 1;
		raid6[2 * i + 1] = ktest_exp[i];
	}
	for (i = 0; i < calcs; i++) {
		struct t_calc *tc = &t_calcs[i];
		struct ecdma_ec_calc_attr a = {
			.w = ECDMA_EC_W,
			.max_inflight = 4 + 12 * (i % 3),
			.affinity_hint = -1,
			.matrix_type = ECDMA_EC_MATRIX_CAUCHY,
		};

		r = get_random_u32();
		a.k = 1 + r % T_MAX_K;
		a.m = 1 + (r >> 8) % T_MAX_M;
		switch (i % 4) {
		case 1:
			a.polling = true;
			break;
		case 2:
			a.matrix_type = ECDMA_EC_MATRIX_USER;
			a.m = 2;
			a.encode_matrix = raid6;
			/* the last CPU: the one CPU hotplug tests take down */
			cpu = cpumask_last(cpu_online_mask);
			a.affinity_hint = cpu < nr_cpu_ids ? cpu : -1;
			break;
		case 3:
			a.matrix_type = ECDMA_EC_MATRIX_VANDERMONDE;
			a.k = 1 + r % 8;
			a.m = 1 + (r >> 8) % 3;
			a.affinity_hint = cpumask_first(cpu_online_mask);
			break;
		default:
			break;
		}
		tc->calc = ecdma_ec_alloc_calc(prov, &a);
		if (IS_ERR(tc->calc)) {
			pr_info("# calc %d (k %d m %d type %d): %ld\n", i, a.k,
				a.m, a.matrix_type, PTR_ERR(tc->calc));
			tc->calc = NULL;
			return -EINVAL;
		}
		tc->k = a.k;
		tc->m = a.m;
		tc->mat = ecdma_ec_calc_matrix(tc->calc);
		tc->polling = a.polling;
		spin_lock_init(&tc->post_lock);
		spin_lock_init(&tc->poll_lock);
		pr_info("# calc %d: k %d m %d type %d polling %d cpu %d\n", i,
			a.k, a.m, a.matrix_type, a.polling, a.affinity_hint);
	}
	return 0;
}

static int __init ecdma_torture_init(void)
{
	struct ecdma_ec_provider *prov;
	unsigned long total = 0, faulted = 0, overflow = 0;
	char diag[160];
	int i, n;

	threads = clamp(threads, 1U, (unsigned int)T_MAX_THREADS);
	calcs = clamp(calcs, 1U, (unsigned int)T_MAX_CALCS);
	qdepth = clamp(qdepth, 1U, (unsigned int)T_MAX_QD);
	if (!seed)
		seed = get_random_u32();
	ktest_gf_init();
	pr_info("KTAP version 1\n");
	pr_info("# seed=%lu threads=%u calcs=%u duration_s=%u qdepth=%u faults=%d\n",
		seed, threads, calcs, duration_s, qdepth, faults);

	prov = ecdma_ec_provider_get("cpu");
	if (IS_ERR(prov)) {
		ktest_result(false, "provider_get");
		goto out;
	}
	if (t_calcs_alloc(prov)) {
		ktest_result(false, "calcs_alloc");
		goto out_free;
	}
	ktest_result(true, "calcs_alloc");

	t_end = jiffies + duration_s * HZ;
	for (i = 0; i < threads; i++) {
		struct t_thread *t = &t_threads[i];
		struct task_struct *task;

		t->id = i;
		prandom_seed_state(&t->rnd, seed + i);
		spin_lock_init(&t->lock);
		INIT_LIST_HEAD(&t->done);
		init_waitqueue_head(&t->wq);
		init_completion(&t->exited);
		task = kthread_run(t_thread_fn, t, "ecdma_torture/%d", i);
		if (IS_ERR(task)) {
			ktest_result(false, "kthread_run");
			threads = i;
			break;
		}
	}
	for (i = 0; i < threads; i++) {
		struct t_thread *t = &t_threads[i];
		unsigned long ops = 0;

		/* wake up now and then: long runs are not hung tasks */
		while (!wait_for_completion_timeout(&t->exited, 10 * HZ))
			;
		for (n = 0; n < ECDMA_EC_OP_MAX; n++)
			ops += t->ops[n];
		snprintf(diag, sizeof(diag),
			 "ops %lu (enc %lu dec %lu upd %lu val %lu copy %lu nop %lu) faulted %lu overflow %lu",
			 ops, t->ops[ECDMA_EC_OP_ENCODE],
			 t->ops[ECDMA_EC_OP_DECODE], t->ops[ECDMA_EC_OP_UPDATE],
			 t->ops[ECDMA_EC_OP_VALIDATE], t->ops[ECDMA_EC_OP_COPY],
			 t->ops[ECDMA_EC_OP_NOP], t->faulted, t->overflow);
		snprintf(diag + strlen(diag), sizeof(diag) - strlen(diag),
			 " bad %lu", t->bad);
		ktest_result_diag(!t->bad && ops > 0,
				  "thread_results_verified", diag);
		total += ops;
		faulted += t->faulted;
		overflow += t->overflow;
	}
	snprintf(diag, sizeof(diag), "%d out of order", atomic_read(&t_order_bad));
	ktest_result_diag(!atomic_read(&t_order_bad),
			  "per_calc_completion_order", diag);
	pr_info("# total ops %lu faulted %lu overflow %lu\n", total, faulted,
		overflow);
out_free:
	for (i = 0; i < calcs; i++)
		if (t_calcs[i].calc)
			ecdma_ec_dealloc_calc(t_calcs[i].calc);
	ecdma_ec_provider_put(prov);
out:
	return ktest_summary();
}

static void __exit ecdma_torture_exit(void)
{
}

module_init(ecdma_torture_init);
module_exit(ecdma_torture_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("ecdma developers");
MODULE_DESCRIPTION("Torture test of the ecdma EC verbs API");
MODULE_INFO(test, "Y");
ECDMA_MODULE_IMPORT_NS();
