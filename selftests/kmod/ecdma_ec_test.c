// SPDX-License-Identifier: GPL-2.0
/*
 * In-kernel test of the ecdma EC verbs API (include/ecdma/ec.h) on the CPU
 * provider, through the exported API only.
 *
 * Runs at load and prints KTAP lines ("ecdma_ec_test: ok 3 name"), then
 * "ecdma_ec_test: N passed, M failed".  Loading fails (-EINVAL) when any
 * test failed, so "modprobe ecdma_ec_test" is itself the verdict.
 *
 * Covered: sync and async encode, decode, update, validate, copy and nop
 * over random k, m and block sizes, both generated matrix types and
 * per-WR matrices, checked against a byte-at-a-time reference with its
 * own GF(2^8) tables; callback and polling calcs; completion order and
 * exactly-once ->done, also with several posting threads and concurrent
 * inline progress; inline progress with preemption off, interrupts off
 * and from softirq; work pinned to affinity_hint; dealloc cancelling;
 * encode_send over mock QPs (post order, parity at post time, errors); and
 * every misuse returning its documented errno with the calc still working
 * afterwards.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/irqflags.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/prandom.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>

#include <rdma/ib_verbs.h>

#include <ecdma/ec.h>
/* enum ecdma_ec_stat, ecdma_ec_calc_stats() */
#include "../../drivers/ecdma/ec_priv.h"
#include "../../drivers/ecdma/prov_cpu.h"

#include "ecdma_ktest.h"

#define T_MAXB		(ECDMA_EC_MAX_K + ECDMA_EC_MAX_M)
#define T_TIMEOUT	(60 * HZ)

static struct rnd_state t_rnd;

static u32 t_rand(u32 n)
{
	return n ? prandom_u32_state(&t_rnd) % n : 0;
}

static int t_range(int lo, int hi)
{
	return lo + (int)t_rand(hi - lo + 1);
}

static void t_fill(void *buf, size_t len)
{
	prandom_bytes_state(&t_rnd, buf, len);
}

/* ---------------------------------------------------------------------- */
/* Buffers                                                                */
/* ---------------------------------------------------------------------- */

/* n blocks of len bytes, 64-byte aligned or at random misalignments */
struct t_buf {
	u8 *arena;
	int n;
	size_t len;
	u8 **b;
	struct ecdma_ec_sge *sge;
};

static void t_buf_free(struct t_buf *t)
{
	if (!t)
		return;
	vfree(t->arena);
	kfree(t->b);
	kfree(t->sge);
	kfree(t);
}

static struct t_buf *t_buf_alloc(int n, size_t len, bool aligned)
{
	size_t stride = ALIGN(len + 64, 64);
	struct t_buf *t;
	int i;

	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return NULL;
	t->b = kcalloc(n, sizeof(*t->b), GFP_KERNEL);
	t->sge = kcalloc(n, sizeof(*t->sge), GFP_KERNEL);
	t->arena = vmalloc(stride * n);
	if (!t->b || !t->sge || !t->arena) {
		t_buf_free(t);
		return NULL;
	}
	t->n = n;
	t->len = len;
	for (i = 0; i < n; i++) {
		t->b[i] = t->arena + i * stride +
			  (aligned ? 0 : t_range(1, 63));
		t_fill(t->b[i], len);
		ktest_sge(&t->sge[i], t->b[i], len);
	}
	return t;
}

static size_t t_len(void)
{
	static const size_t lens[] = {
		1, 63, 512, 1000, 4096, 4096 + 17, 8192, 3 * 512 + 5, 16384,
	};

	if (!t_rand(4))
		return t_range(1, 20000);
	return lens[t_rand(ARRAY_SIZE(lens))];
}

static struct ecdma_ec_provider *t_prov;

static struct ecdma_ec_calc *t_calc(int k, int m, enum ecdma_ec_matrix_type t,
				    bool polling, int max_inflight, int cpu)
{
	struct ecdma_ec_calc_attr attr = {
		.k = k,
		.m = m,
		.w = 8,
		.max_inflight = max_inflight,
		.affinity_hint = cpu,
		.polling = polling,
		.matrix_type = t,
	};

	return ecdma_ec_alloc_calc(t_prov, &attr);
}

/* largest k with an MDS Vandermonde code for m (ISA-L's safe ranges) */
static int t_vand_kmax(int m)
{
	return m <= 3 ? 256 - m : m == 4 ? 21 : m == 5 ? 5 : 4;
}

static void t_km(enum ecdma_ec_matrix_type t, int kmax, int *k, int *m)
{
	*m = t_range(1, ECDMA_EC_MAX_M);
	if (t == ECDMA_EC_MATRIX_VANDERMONDE)
		kmax = min(kmax, t_vand_kmax(*m));
	*k = t_range(1, min(kmax, 256 - *m));
}

/* ---------------------------------------------------------------------- */
/* Async bookkeeping                                                      */
/* ---------------------------------------------------------------------- */

/*
 * The struct lives on the waiter's stack.  A waker must not touch it once the
 * waiter can see its count: it counts and wakes under wq.lock, and the count
 * is read only under that lock (t_ndone()), so a waiter that saw it has waited
 * for the waker's unlock.  (atomic_inc() then wake_up() let a waiter return and
 * reuse the stack while wake_up() still held the lock: the debug kernel's
 * "spinlock already unlocked".)
 */
struct t_async {
	int done;		/* guarded by wq.lock */
	int next_seq;
	int order_bad;
	int twice;
	wait_queue_head_t wq;
};

struct t_wr {
	struct ecdma_ec_wr wr;
	struct t_async *a;
	int seq;
	int calls;
	int status;
	int cpu;
};

static void t_async_init(struct t_async *a)
{
	a->done = 0;
	a->next_seq = 0;
	a->order_bad = 0;
	a->twice = 0;
	init_waitqueue_head(&a->wq);
}

static void t_done(struct ecdma_ec_wr *wr)
{
	struct t_wr *t = container_of(wr, struct t_wr, wr);
	struct t_async *a = t->a;
	unsigned long flags;

	if (t->calls++)
		a->twice++;
	if (t->seq != a->next_seq)
		a->order_bad++;
	a->next_seq = t->seq + 1;
	t->status = wr->status;
	t->cpu = raw_smp_processor_id();
	spin_lock_irqsave(&a->wq.lock, flags);
	a->done++;
	wake_up_locked(&a->wq);
	spin_unlock_irqrestore(&a->wq.lock, flags);
	/* @a may be gone now */
}

/* How many ->done ran; once this is seen the wakers are out of @a. */
static int t_ndone(struct t_async *a)
{
	unsigned long flags;
	int n;

	spin_lock_irqsave(&a->wq.lock, flags);
	n = a->done;
	spin_unlock_irqrestore(&a->wq.lock, flags);
	return n;
}

static bool t_wait(struct t_async *a, int n)
{
	return wait_event_timeout(a->wq, t_ndone(a) >= n,
				  T_TIMEOUT) > 0;
}

/* ---------------------------------------------------------------------- */
/* Tests                                                                  */
/* ---------------------------------------------------------------------- */

static void test_provider(void)
{
	struct ecdma_ec_provider *p;
	struct ecdma_ec_caps caps;
	int bad = 0;

	T_CHECK(!ecdma_ec_query_caps(t_prov, &caps));
	T_CHECK(caps.max_k == ECDMA_EC_MAX_K && caps.max_m == ECDMA_EC_MAX_M);
	T_CHECK(caps.w_mask & BIT(7));
	T_CHECK(caps.flags & ECDMA_EC_CAP_UPDATE);
	T_CHECK(caps.flags & ECDMA_EC_CAP_VALIDATE);
	T_CHECK(caps.flags & ECDMA_EC_CAP_INPLACE);
	T_CHECK(caps.max_inflight >= 1);
	p = ecdma_ec_provider_get(NULL);
	T_CHECK(p == t_prov);
	ecdma_ec_provider_put(p);
	p = ecdma_ec_provider_get("no-such-provider");
	T_CHECK(PTR_ERR(p) == -ENODEV);
	T_CHECK(ecdma_ec_query_caps(NULL, &caps) == -EINVAL);
	ktest_result(!bad, "provider_get_and_caps");
}

/*
 * Encode k data blocks into m (or per-WR nin x nout) and compare with the
 * reference.  @mode: 0 sync, 1 async verbs wrapper, 2 generic post.
 */
static int t_one_encode(enum ecdma_ec_matrix_type type, int kmax, int mode,
			bool per_wr, bool acc, bool inplace)
{
	struct ecdma_ec_sge cs[ECDMA_EC_MAX_M];
	struct ecdma_ec_comp comp = { };
	struct ecdma_ec_mem mem;
	struct ecdma_ec_calc *calc;
	struct t_buf *d = NULL, *c = NULL, *ref = NULL;
	u8 *cout[ECDMA_EC_MAX_M], *wm = NULL;
	const u8 *coef;
	size_t len = t_len();
	int k, m, nin, nout, i, j, bad = 0;

	t_km(type, kmax, &k, &m);
	calc = t_calc(k, m, type, false, 16, -1);
	if (IS_ERR(calc)) {
		pr_info("# alloc k=%d m=%d: %ld\n", k, m, PTR_ERR(calc));
		return 1;
	}
	nin = k;
	nout = m;
	coef = ecdma_ec_calc_matrix(calc);
	if (per_wr) {
		nin = t_range(1, k);
		nout = t_range(1, m);
		wm = kmalloc(nin * nout, GFP_KERNEL);
		if (!wm)
			goto out;
		t_fill(wm, nin * nout);
		/* sometimes the exact RAID-6 P/Q (lib/raid6 fast path) */
		if (nout == 2 && nin >= 2 && !t_rand(2)) {
			u8 q = 1;

			for (i = 0; i < nin; i++, q = ktest_mul(q, 2)) {
				wm[2 * i] = 1;
				wm[2 * i + 1] = q;
			}
		}
		coef = wm;
	}
	d = t_buf_alloc(nin, len, t_rand(2));
	c = t_buf_alloc(nout, len, t_rand(2));
	ref = t_buf_alloc(nout, len, true);
	if (!d || !c || !ref) {
		bad++;
		goto out;
	}
	for (j = 0; j < nout; j++) {
		cout[j] = inplace && j < nin && t_rand(2) ? d->b[j] : c->b[j];
		ktest_sge(&cs[j], cout[j], len);
		memcpy(ref->b[j], cout[j], len);
	}
	{
		struct t_buf *cp = t_buf_alloc(nin, len, true);

		if (!cp) {
			bad++;
			goto out;
		}
		for (i = 0; i < nin; i++)
			memcpy(cp->b[i], d->b[i], len);
		ktest_ref(len, nin, nout, coef, cp->b, ref->b, acc);
		t_buf_free(cp);
	}
	ktest_mem(&mem, d->sge, nin, cs, nout, len);

	if (mode == 1 && !per_wr && !acc) {
		struct t_async a;
		struct t_wr tw = { .a = &a };

		/* verbs wrapper: comp.done is the callback */
		t_async_init(&a);
		comp.done = NULL;
		T_CHECK(ecdma_ec_encode_async(calc, &mem, &comp) == -EINVAL);
		/* same through the generic post, with a callback */
		tw.wr.opcode = ECDMA_EC_OP_ENCODE;
		tw.wr.mem = &mem;
		tw.wr.done = t_done;
		T_CHECK(!ecdma_ec_post(calc, &tw.wr));
		T_CHECK(t_wait(&a, 1));
		T_CHECK(tw.status == 0 && tw.calls == 1);
	} else if (mode == 0 && !per_wr && !acc) {
		T_CHECK(!ecdma_ec_encode_sync(calc, &mem));
	} else {
		struct ecdma_ec_wr wr = {
			.opcode = ECDMA_EC_OP_ENCODE,
			.flags = acc ? ECDMA_EC_WR_ACCUMULATE : 0,
			.mem = &mem,
			.matrix = wm,
		};

		T_CHECK(!ecdma_ec_post_sync(calc, &wr));
		T_CHECK(!wr.result);
	}
	for (j = 0; j < nout; j++)
		T_CHECK(!memcmp(cout[j], ref->b[j], len));
	if (bad)
		pr_info("# encode k=%d m=%d nin=%d nout=%d len=%zu mode=%d\n",
			k, m, nin, nout, len, mode);
out:
	t_buf_free(d);
	t_buf_free(c);
	t_buf_free(ref);
	kfree(wm);
	ecdma_ec_dealloc_calc(calc);
	return bad;
}

static void test_encode(const char *name, enum ecdma_ec_matrix_type type,
			int kmax, bool per_wr, bool acc, bool inplace, int iters)
{
	int it, bad = 0;

	for (it = 0; it < iters; it++)
		bad += !!t_one_encode(type, kmax, it % 3, per_wr, acc,
				      inplace);
	ktest_result(!bad, name);
}

/* comp-based async encode through the verbs wrapper */
struct t_comp {
	struct ecdma_ec_comp comp;
	struct completion done;
	int calls;
};

static void t_comp_done(struct ecdma_ec_comp *comp)
{
	struct t_comp *t = container_of(comp, struct t_comp, comp);

	t->calls++;
	complete(&t->done);
}

static void test_verbs_async(void)
{
	struct ecdma_ec_calc *calc;
	struct ecdma_ec_mem mem;
	struct t_buf *b, *ref;
	struct t_comp tc = { };
	u8 era[12] = { 0 };
	const u8 *e;
	int bad = 0, i;
	size_t len = 4096 + 100;

	calc = t_calc(8, 4, ECDMA_EC_MATRIX_CAUCHY, false, 8, -1);
	if (IS_ERR(calc)) {
		ktest_result(false, "verbs_async_wrappers");
		return;
	}
	e = ecdma_ec_calc_matrix(calc);
	b = t_buf_alloc(12, len, false);
	ref = t_buf_alloc(12, len, true);
	if (!b || !ref) {
		bad++;
		goto out;
	}
	ktest_ref(len, 8, 4, e, b->b, ref->b + 8, false);
	for (i = 0; i < 8; i++)
		memcpy(ref->b[i], b->b[i], len);
	ktest_mem(&mem, b->sge, 8, b->sge + 8, 4, len);

	init_completion(&tc.done);
	tc.comp.done = t_comp_done;
	tc.comp.status = 1;
	T_CHECK(!ecdma_ec_encode_async(calc, &mem, &tc.comp));
	T_CHECK(wait_for_completion_timeout(&tc.done, T_TIMEOUT));
	T_CHECK(tc.comp.status == 0 && tc.calls == 1);
	for (i = 8; i < 12; i++)
		T_CHECK(!memcmp(b->b[i], ref->b[i], len));

	/* decode_async: lose data 2 and code 1 */
	memset(b->b[2], 0, len);
	memset(b->b[9], 0, len);
	era[2] = 1;
	era[9] = 1;
	reinit_completion(&tc.done);
	T_CHECK(!ecdma_ec_decode_async(calc, &mem, era, NULL, &tc.comp));
	T_CHECK(wait_for_completion_timeout(&tc.done, T_TIMEOUT));
	T_CHECK(tc.comp.status == 0 && tc.calls == 2);
	for (i = 0; i < 12; i++)
		T_CHECK(!memcmp(b->b[i], ref->b[i], len));
out:
	t_buf_free(b);
	t_buf_free(ref);
	ecdma_ec_dealloc_calc(calc);
	ktest_result(!bad, "verbs_async_wrappers");
}

/*
 * encode_send over mock QPs: a zeroed ib_device whose ops.post_send records
 * each post (wr_id, QP, whether the block matched its expected contents at
 * post time) and fails the one whose wr_id is t_es.fail_id.
 */
#define T_ES_K		6
#define T_ES_M		3
#define T_ES_CODE	100	/* wr_id of code stripe j: T_ES_CODE + j */
#define T_ES_MAXREC	(2 * (T_ES_K + T_ES_M))

struct t_es_rec {
	struct ib_qp *qp;
	u64 wr_id;
	bool match;
};

static struct {
	spinlock_t lock;	/* guards the records */
	u64 fail_id;
	int n;
	struct t_es_rec rec[T_ES_MAXREC];
	const u8 *expect[T_ES_K + T_ES_M];	/* by stripe index */
	size_t len;
	/* posted from a NOP's ->done, so the encode cannot run meanwhile */
	struct ecdma_ec_wr trigger;
	struct ecdma_ec_calc *calc;
	struct ecdma_ec_mem *mem;
	struct ecdma_ec_stripe *ds, *cs;
	struct t_comp *tc;
	int ret, n_at_return;
	/* records at comp->done time */
	int n_at_done;
} t_es;

static int t_es_post_send(struct ib_qp *qp, const struct ib_send_wr *wr,
			  const struct ib_send_wr **bad)
{
	const struct ib_sge *sg = wr->sg_list;
	u64 id = wr->wr_id;
	int idx = id >= T_ES_CODE ? T_ES_K + (int)(id - T_ES_CODE) : (int)id;
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&t_es.lock, flags);
	if (id == t_es.fail_id) {
		*bad = wr;
		ret = -ENOMEM;
	} else if (t_es.n < T_ES_MAXREC) {
		struct t_es_rec *r = &t_es.rec[t_es.n++];

		r->qp = qp;
		r->wr_id = id;
		r->match = idx >= 0 && idx < T_ES_K + T_ES_M &&
			   sg && sg->length == t_es.len &&
			   !memcmp((void *)(unsigned long)sg->addr,
				   t_es.expect[idx], t_es.len);
	}
	spin_unlock_irqrestore(&t_es.lock, flags);
	return ret;
}

static int t_es_count(void)
{
	unsigned long flags;
	int n;

	spin_lock_irqsave(&t_es.lock, flags);
	n = t_es.n;
	spin_unlock_irqrestore(&t_es.lock, flags);
	return n;
}

static void t_es_reset(u64 fail_id)
{
	unsigned long flags;

	spin_lock_irqsave(&t_es.lock, flags);
	t_es.n = 0;
	t_es.fail_id = fail_id;
	spin_unlock_irqrestore(&t_es.lock, flags);
}

static void t_es_trigger(struct ecdma_ec_wr *wr)
{
	t_es.ret = ecdma_ec_encode_send(t_es.calc, t_es.mem, t_es.ds, t_es.cs,
					&t_es.tc->comp);
	t_es.n_at_return = t_es_count();
}

static void t_es_comp_done(struct ecdma_ec_comp *comp)
{
	t_es.n_at_done = t_es_count();
	t_comp_done(comp);
}

/* posts k data then m code stripes, in order, on the right QPs */
static int t_es_check_posts(struct ib_qp **qps, int ncode)
{
	int bad = 0, i;

	T_CHECK(t_es.n == T_ES_K + ncode);
	for (i = 0; i < t_es.n && i < T_ES_K + ncode; i++) {
		u64 id = i < T_ES_K ? i : T_ES_CODE + i - T_ES_K;

		T_CHECK(t_es.rec[i].wr_id == id && t_es.rec[i].qp == qps[i] &&
			t_es.rec[i].match);
	}
	return bad;
}

static void test_encode_send(void)
{
	struct ecdma_ec_stripe ds[T_ES_K], cs[T_ES_M];
	struct ib_send_wr swr[T_ES_K + T_ES_M];
	struct ib_sge sge[T_ES_K + T_ES_M];
	struct ib_qp *qps[T_ES_K + T_ES_M] = { };
	struct ecdma_ec_calc *calc, *pcalc = NULL;
	struct ecdma_ec_wr nop = { .opcode = ECDMA_EC_OP_NOP };
	struct ecdma_ec_mem mem, badmem;
	struct ib_device *dev;
	struct t_buf *b = NULL, *ref = NULL;
	struct t_comp tc = { };
	size_t len = 4096 + 37;
	int bad = 0, i;

	spin_lock_init(&t_es.lock);
	t_es_reset(U64_MAX);
	calc = t_calc(T_ES_K, T_ES_M, ECDMA_EC_MATRIX_CAUCHY, false, 8, -1);
	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (IS_ERR(calc) || !dev) {
		bad++;
		goto out;
	}
	for (i = 0; i < T_ES_K + T_ES_M; i++) {
		qps[i] = kzalloc(sizeof(*qps[i]), GFP_KERNEL);
		if (!qps[i]) {
			bad++;
			goto out;
		}
		qps[i]->device = dev;
	}
	dev->ops.post_send = t_es_post_send;
	b = t_buf_alloc(T_ES_K + T_ES_M, len, false);
	ref = t_buf_alloc(T_ES_M, len, true);
	if (!b || !ref) {
		bad++;
		goto out;
	}
	ktest_ref(len, T_ES_K, T_ES_M, ecdma_ec_calc_matrix(calc), b->b, ref->b,
		  false);
	ktest_mem(&mem, b->sge, T_ES_K, b->sge + T_ES_K, T_ES_M, len);
	t_es.len = len;
	for (i = 0; i < T_ES_K + T_ES_M; i++) {
		bool code = i >= T_ES_K;

		t_es.expect[i] = code ? ref->b[i - T_ES_K] : b->b[i];
		sge[i].addr = (u64)(unsigned long)b->b[i];
		sge[i].length = len;
		sge[i].lkey = 0;
		memset(&swr[i], 0, sizeof(swr[i]));
		swr[i].wr_id = code ? T_ES_CODE + i - T_ES_K : i;
		swr[i].sg_list = &sge[i];
		swr[i].num_sge = 1;
		swr[i].opcode = IB_WR_SEND;
		if (code) {
			cs[i - T_ES_K].qp = qps[i];
			cs[i - T_ES_K].wr = &swr[i];
			memset(b->b[i], 0, len);	/* stale until encoded */
		} else {
			ds[i].qp = qps[i];
			ds[i].wr = &swr[i];
		}
	}
	init_completion(&tc.done);
	tc.comp.done = t_es_comp_done;

	/*
	 * From a NOP's ->done: the calc is busy until it returns, so the
	 * encode cannot complete before the checks of what was posted.
	 */
	t_es.calc = calc;
	t_es.mem = &mem;
	t_es.ds = ds;
	t_es.cs = cs;
	t_es.tc = &tc;
	t_es.ret = 1;
	nop.done = t_es_trigger;
	T_CHECK(!ecdma_ec_post(calc, &nop));
	T_CHECK(wait_for_completion_timeout(&tc.done, T_TIMEOUT));
	T_CHECK(!ecdma_ec_post_sync(calc, &nop));	/* flush */
	T_CHECK(t_es.ret == 0 && t_es.n_at_return == T_ES_K);
	T_CHECK(tc.calls == 1 && tc.comp.status == 0);
	T_CHECK(t_es.n_at_done == T_ES_K + T_ES_M);
	bad += t_es_check_posts(qps, T_ES_M);

	/* misuse: nothing posted, nothing queued */
	t_es_reset(U64_MAX);
	T_CHECK(ecdma_ec_encode_send(calc, &mem, NULL, cs, &tc.comp) ==
		-EINVAL);
	T_CHECK(ecdma_ec_encode_send(calc, &mem, ds, NULL, &tc.comp) ==
		-EINVAL);
	T_CHECK(ecdma_ec_encode_send(calc, &mem, ds, cs, NULL) == -EINVAL);
	badmem = mem;
	badmem.num_data_sge--;
	T_CHECK(ecdma_ec_encode_send(calc, &badmem, ds, cs, &tc.comp) ==
		-EINVAL);
	cs[1].qp = NULL;
	T_CHECK(ecdma_ec_encode_send(calc, &mem, ds, cs, &tc.comp) ==
		-EINVAL);
	cs[1].qp = qps[T_ES_K + 1];
	pcalc = t_calc(T_ES_K, T_ES_M, ECDMA_EC_MATRIX_CAUCHY, true, 8, -1);
	T_CHECK(!IS_ERR(pcalc));
	if (!IS_ERR(pcalc))
		T_CHECK(ecdma_ec_encode_send(pcalc, &mem, ds, cs, &tc.comp) ==
			-EINVAL);
	T_CHECK(t_es_count() == 0);

	/* a data stripe fails: returned, the earlier ones posted, no encode */
	t_es_reset(2);
	T_CHECK(ecdma_ec_encode_send(calc, &mem, ds, cs, &tc.comp) ==
		-ENOMEM);
	T_CHECK(!ecdma_ec_post_sync(calc, &nop));	/* flush */
	T_CHECK(t_es_count() == 2 && tc.calls == 1);

	/* a code stripe fails: comp->status, the later ones not posted */
	t_es_reset(T_ES_CODE + 1);
	for (i = 0; i < T_ES_M; i++)
		memset(b->b[T_ES_K + i], 0, len);
	reinit_completion(&tc.done);
	tc.comp.status = 1;
	T_CHECK(!ecdma_ec_encode_send(calc, &mem, ds, cs, &tc.comp));
	T_CHECK(wait_for_completion_timeout(&tc.done, T_TIMEOUT));
	T_CHECK(!ecdma_ec_post_sync(calc, &nop));	/* flush */
	T_CHECK(tc.calls == 2 && tc.comp.status == -ENOMEM);
	bad += t_es_check_posts(qps, 1);
out:
	if (!IS_ERR_OR_NULL(pcalc))
		ecdma_ec_dealloc_calc(pcalc);
	if (!IS_ERR(calc))
		ecdma_ec_dealloc_calc(calc);
	for (i = 0; i < T_ES_K + T_ES_M; i++)
		kfree(qps[i]);
	kfree(dev);
	t_buf_free(b);
	t_buf_free(ref);
	ktest_result(!bad, "encode_send");
}

/* DECODE with the calc matrix: erased blocks come back (sync and async). */
static int t_one_decode(enum ecdma_ec_matrix_type type, int nerr_fixed,
			bool async, int kmax)
{
	struct ecdma_ec_mem mem;
	struct ecdma_ec_calc *calc;
	struct t_buf *b = NULL, *orig = NULL;
	u8 era[T_MAXB];
	size_t len = t_len();
	int k, m, n, i, r, bad = 0;

	t_km(type, kmax, &k, &m);
	if (nerr_fixed > m)
		m = nerr_fixed;
	if (type == ECDMA_EC_MATRIX_VANDERMONDE)
		k = min(k, t_vand_kmax(m));
	calc = t_calc(k, m, type, false, 8, -1);
	if (IS_ERR(calc))
		return 1;
	n = k + m;
	b = t_buf_alloc(n, len, t_rand(2));
	orig = t_buf_alloc(n, len, true);
	if (!b || !orig) {
		bad++;
		goto out;
	}
	ktest_mem(&mem, b->sge, k, b->sge + k, m, len);
	T_CHECK(!ecdma_ec_encode_sync(calc, &mem));
	for (i = 0; i < n; i++)
		memcpy(orig->b[i], b->b[i], len);

	for (r = 0; r < 3; r++) {
		int nerr = nerr_fixed ? nerr_fixed : t_range(1, m), e = 0;

		memset(era, 0, n);
		while (e < nerr) {
			i = t_rand(n);
			if (!era[i]) {
				era[i] = 1;
				memset(b->b[i], 0xa5, len);
				e++;
			}
		}
		if (async) {
			struct t_async a;
			struct t_wr tw = { .a = &a };

			t_async_init(&a);
			tw.wr.opcode = ECDMA_EC_OP_DECODE;
			tw.wr.mem = &mem;
			tw.wr.erasures = era;
			tw.wr.done = t_done;
			T_CHECK(!ecdma_ec_post(calc, &tw.wr));
			T_CHECK(t_wait(&a, 1));
			T_CHECK(!tw.status);
		} else {
			T_CHECK(!ecdma_ec_decode_sync(calc, &mem, era, NULL));
		}
		for (i = 0; i < n; i++)
			T_CHECK(!memcmp(b->b[i], orig->b[i], len));
	}
	if (bad)
		pr_info("# decode k=%d m=%d len=%zu\n", k, m, len);
out:
	t_buf_free(b);
	t_buf_free(orig);
	ecdma_ec_dealloc_calc(calc);
	return bad;
}

static void test_decode(const char *name, enum ecdma_ec_matrix_type type,
			int nerr, int iters)
{
	int it, bad = 0;

	for (it = 0; it < iters; it++)
		bad += !!t_one_decode(type, nerr, it & 1, 30);
	ktest_result(!bad, name);
}

/* RAID-6: k = 8, lose two data blocks */
static void test_decode_2_erasures(void)
{
	struct ecdma_ec_calc *calc;
	struct ecdma_ec_mem mem;
	struct t_buf *b, *orig;
	u8 era[10] = { 0 };
	int bad = 0, i;

	calc = t_calc(8, 2, ECDMA_EC_MATRIX_VANDERMONDE, false, 4, -1);
	b = t_buf_alloc(10, 4096, true);
	orig = t_buf_alloc(10, 4096, true);
	if (IS_ERR(calc) || !b || !orig) {
		bad++;
		goto out;
	}
	ktest_mem(&mem, b->sge, 8, b->sge + 8, 2, 4096);
	T_CHECK(!ecdma_ec_encode_sync(calc, &mem));
	for (i = 0; i < 10; i++)
		memcpy(orig->b[i], b->b[i], 4096);
	era[3] = 1;
	era[6] = 1;
	memset(b->b[3], 0, 4096);
	memset(b->b[6], 0, 4096);
	T_CHECK(!ecdma_ec_decode_sync(calc, &mem, era, NULL));
	for (i = 0; i < 10; i++)
		T_CHECK(!memcmp(b->b[i], orig->b[i], 4096));
out:
	t_buf_free(b);
	t_buf_free(orig);
	if (!IS_ERR(calc))
		ecdma_ec_dealloc_calc(calc);
	ktest_result(!bad, "decode_2_erasures");
}

/* DECODE with a per-WR k x e matrix: the product over the first k survivors */
static void test_decode_wr_matrix(void)
{
	int it, bad = 0;

	for (it = 0; it < 20; it++) {
		struct ecdma_ec_calc *calc;
		struct ecdma_ec_mem mem;
		struct t_buf *b, *ref;
		/* tests run one at a time: keep big arrays off the stack */
		static u8 *in[ECDMA_EC_MAX_K];
		u8 era[T_MAXB] = { 0 }, *dm = NULL;
		int k, m, n, nerr, i, ni = 0, no = 0;
		size_t len = t_len();

		t_km(ECDMA_EC_MATRIX_CAUCHY, 40, &k, &m);
		n = k + m;
		nerr = t_range(1, m);
		calc = t_calc(k, m, ECDMA_EC_MATRIX_CAUCHY, false, 4, -1);
		b = t_buf_alloc(n, len, t_rand(2));
		ref = t_buf_alloc(nerr, len, true);
		dm = kmalloc(k * nerr, GFP_KERNEL);
		if (IS_ERR(calc) || !b || !ref || !dm) {
			bad++;
			goto next;
		}
		t_fill(dm, k * nerr);
		while (no < nerr) {
			i = t_rand(n);
			if (!era[i]) {
				era[i] = 1;
				no++;
			}
		}
		for (i = 0; i < n && ni < k; i++)
			if (!era[i])
				in[ni++] = b->b[i];
		ktest_ref(len, k, nerr, dm, in, ref->b, false);
		ktest_mem(&mem, b->sge, k, b->sge + k, m, len);
		T_CHECK(!ecdma_ec_decode_sync(calc, &mem, era, dm));
		for (i = 0, no = 0; i < n; i++)
			if (era[i])
				T_CHECK(!memcmp(b->b[i], ref->b[no++], len));
next:
		kfree(dm);
		t_buf_free(b);
		t_buf_free(ref);
		if (!IS_ERR(calc))
			ecdma_ec_dealloc_calc(calc);
	}
	ktest_result(!bad, "decode_per_wr_matrix");
}

/* UPDATE: new code blocks equal a full encode of the new data. */
static int t_one_update(bool async, bool inplace)
{
	/* tests run one at a time: keep big arrays off the stack */
	static struct ecdma_ec_sge ds[ECDMA_EC_MAX_M + 2 * 32];
	struct ecdma_ec_sge cs[ECDMA_EC_MAX_M];
	u8 du[32] = { 0 }, cu[ECDMA_EC_MAX_M] = { 0 };
	u8 *newd[32], *cnew[ECDMA_EC_MAX_M];
	struct ecdma_ec_calc *calc;
	struct ecdma_ec_mem mem;
	struct t_buf *d, *nd, *c, *co, *want;
	size_t len = t_len();
	int k, m, i, j, u = 0, uc = 0, n = 0, bad = 0;
	const u8 *e;

	t_km(ECDMA_EC_MATRIX_CAUCHY, 32, &k, &m);
	calc = t_calc(k, m, ECDMA_EC_MATRIX_CAUCHY, false, 4, -1);
	d = t_buf_alloc(k, len, t_rand(2));
	nd = t_buf_alloc(k, len, t_rand(2));
	c = t_buf_alloc(m, len, t_rand(2));
	co = t_buf_alloc(m, len, t_rand(2));
	want = t_buf_alloc(m, len, true);
	if (IS_ERR(calc) || !d || !nd || !c || !co || !want) {
		bad++;
		goto out;
	}
	e = ecdma_ec_calc_matrix(calc);
	ktest_mem(&mem, d->sge, k, c->sge, m, len);
	T_CHECK(!ecdma_ec_encode_sync(calc, &mem));
	for (i = 0; i < k; i++) {
		du[i] = !t_rand(3);
		u += du[i];
	}
	if (!u) {
		du[0] = 1;
		u = 1;
	}
	for (i = 0; i < k; i++)
		newd[i] = du[i] ? nd->b[i] : d->b[i];
	for (j = 0; j < m; j++) {
		cu[j] = t_rand(2);
		uc += cu[j];
	}
	if (!uc)
		cu[0] = 1;
	ktest_ref(len, k, m, e, newd, want->b, false);

	for (j = 0, uc = 0; j < m; j++) {
		if (!cu[j])
			continue;
		ktest_sge(&ds[n++], c->b[j], len);
		cnew[uc] = inplace ? c->b[j] : co->b[j];
		ktest_sge(&cs[uc], cnew[uc], len);
		uc++;
	}
	for (i = 0; i < k; i++) {
		if (!du[i])
			continue;
		ktest_sge(&ds[n++], d->b[i], len);
		ktest_sge(&ds[n++], nd->b[i], len);
	}
	ktest_mem(&mem, ds, n, cs, uc, len);
	if (async) {
		struct t_async a;
		struct t_wr tw = { .a = &a };

		t_async_init(&a);
		tw.wr.opcode = ECDMA_EC_OP_UPDATE;
		tw.wr.mem = &mem;
		tw.wr.data_updates = du;
		tw.wr.code_updates = cu;
		tw.wr.done = t_done;
		T_CHECK(!ecdma_ec_post(calc, &tw.wr));
		T_CHECK(t_wait(&a, 1));
		T_CHECK(!tw.status);
	} else {
		T_CHECK(!ecdma_ec_update_sync(calc, &mem, du, cu));
	}
	for (j = 0, uc = 0; j < m; j++)
		if (cu[j])
			T_CHECK(!memcmp(cnew[uc++], want->b[j], len));
out:
	t_buf_free(d);
	t_buf_free(nd);
	t_buf_free(c);
	t_buf_free(co);
	t_buf_free(want);
	if (!IS_ERR(calc))
		ecdma_ec_dealloc_calc(calc);
	return bad;
}

static void test_update(void)
{
	int it, bad = 0;

	for (it = 0; it < 24; it++)
		bad += !!t_one_update(it & 1, it & 2);
	ktest_result(!bad, "update_sync_async_inplace");
}

/* VALIDATE: bits for exactly the corrupted blocks; nothing written. */
static void test_validate(void)
{
	int it, bad = 0;

	for (it = 0; it < 24; it++) {
		struct ecdma_ec_calc *calc;
		struct ecdma_ec_mem mem;
		struct t_buf *b, *copy;
		enum ecdma_ec_matrix_type type = it & 1 ?
			ECDMA_EC_MATRIX_CAUCHY : ECDMA_EC_MATRIX_VANDERMONDE;
		size_t len = t_len();
		int k, m, n, i, j;
		u32 want = 0;

		t_km(type, 40, &k, &m);
		n = k + m;
		calc = t_calc(k, m, type, false, 4, -1);
		b = t_buf_alloc(n, len, t_rand(2));
		copy = t_buf_alloc(n, len, true);
		if (IS_ERR(calc) || !b || !copy) {
			bad++;
			goto next;
		}
		ktest_mem(&mem, b->sge, k, b->sge + k, m, len);
		T_CHECK(!ecdma_ec_encode_sync(calc, &mem));
		for (j = 0; j < m; j++) {
			if (t_rand(3))
				continue;
			b->b[k + j][t_rand(len)] ^= t_range(1, 255);
			want |= BIT(j);
		}
		for (i = 0; i < n; i++)
			memcpy(copy->b[i], b->b[i], len);
		{
			struct ecdma_ec_wr wr = {
				.opcode = ECDMA_EC_OP_VALIDATE,
				.mem = &mem,
			};

			T_CHECK(!ecdma_ec_post_sync(calc, &wr));
			T_CHECK(wr.result == want);
		}
		for (i = 0; i < n; i++)
			T_CHECK(!memcmp(copy->b[i], b->b[i], len));
next:
		t_buf_free(b);
		t_buf_free(copy);
		if (!IS_ERR(calc))
			ecdma_ec_dealloc_calc(calc);
	}
	ktest_result(!bad, "validate_mismatch_bits_read_only");
}

static void test_copy_nop(void)
{
	struct ecdma_ec_calc *calc;
	struct ecdma_ec_sge s[2];
	struct ecdma_ec_mem mem;
	int it, bad = 0;

	calc = t_calc(2, 1, ECDMA_EC_MATRIX_CAUCHY, false, 4, -1);
	if (IS_ERR(calc)) {
		ktest_result(false, "copy_memmove_and_nop");
		return;
	}
	for (it = 0; it < 40; it++) {
		size_t len = t_len(), total = 3 * len, so, dof;
		u8 *buf = vmalloc(total), *ref = vmalloc(total);
		struct ecdma_ec_wr wr = {
			.opcode = ECDMA_EC_OP_COPY,
			.mem = &mem,
		};

		if (!buf || !ref) {
			bad++;
			vfree(buf);
			vfree(ref);
			continue;
		}
		t_fill(buf, total);
		memcpy(ref, buf, total);
		so = t_rand(total - len + 1);
		dof = t_rand(total - len + 1);
		if (it & 1)	/* overlapping */
			dof = clamp_t(long, (long)so + t_range(-(int)len + 1,
							       len - 1),
				      0, total - len);
		memmove(ref + dof, ref + so, len);
		ktest_sge(&s[0], buf + so, len);
		ktest_sge(&s[1], buf + dof, len);
		ktest_mem(&mem, &s[0], 1, &s[1], 1, len);
		T_CHECK(!ecdma_ec_post_sync(calc, &wr));
		T_CHECK(!memcmp(buf, ref, total));
		vfree(buf);
		vfree(ref);
	}
	{
		struct ecdma_ec_wr wr = { .opcode = ECDMA_EC_OP_NOP };

		T_CHECK(!ecdma_ec_post_sync(calc, &wr));
	}
	ecdma_ec_dealloc_calc(calc);
	ktest_result(!bad, "copy_memmove_and_nop");
}

/*
 * Many async requests of mixed opcodes on one callback calc: ->done
 * exactly once each, in submission order; results right.
 */
static void test_async_order(void)
{
	enum { N = 200 };
	struct ecdma_ec_calc *calc;
	struct ecdma_ec_mem *mem = NULL;
	struct t_buf *b = NULL, *ref = NULL;
	struct t_wr *tw = NULL;
	struct t_async a;
	size_t len = 4096;
	int bad = 0, i, j, ret;

	calc = t_calc(6, 3, ECDMA_EC_MATRIX_CAUCHY, false, N, -1);
	if (IS_ERR(calc)) {
		ktest_result(false, "async_completion_order");
		return;
	}
	tw = kcalloc(N, sizeof(*tw), GFP_KERNEL);
	mem = kcalloc(N, sizeof(*mem), GFP_KERNEL);
	b = t_buf_alloc(6 + 3 * N, len, true);
	ref = t_buf_alloc(3, len, true);
	if (!tw || !mem || !b || !ref) {
		bad++;
		goto out;
	}
	ktest_ref(len, 6, 3, ecdma_ec_calc_matrix(calc), b->b, ref->b, false);
	t_async_init(&a);
	for (i = 0; i < N; i++) {
		tw[i].a = &a;
		tw[i].seq = i;
		tw[i].wr.done = t_done;
		tw[i].wr.opcode = i % 7 ? ECDMA_EC_OP_ENCODE : ECDMA_EC_OP_NOP;
		ktest_mem(&mem[i], b->sge, 6, b->sge + 6 + 3 * i, 3, len);
		tw[i].wr.mem = &mem[i];
		ret = ecdma_ec_post(calc, &tw[i].wr);
		T_CHECK(!ret);
		if (ret)
			break;
	}
	T_CHECK(t_wait(&a, i));
	T_CHECK(!a.order_bad && !a.twice);
	for (i = 0; i < N; i++) {
		T_CHECK(tw[i].calls == 1 && !tw[i].status);
		if (tw[i].wr.opcode != ECDMA_EC_OP_ENCODE)
			continue;
		for (j = 0; j < 3; j++)
			T_CHECK(!memcmp(b->b[6 + 3 * i + j], ref->b[j], len));
	}
out:
	ecdma_ec_dealloc_calc(calc);
	t_buf_free(b);
	t_buf_free(ref);
	kfree(mem);
	kfree(tw);
	ktest_result(!bad, "async_completion_order");
}

/* Polling calc: ->done only inside ecdma_ec_poll(), in order. */
static void test_polling(void)
{
	enum { N = 40 };
	struct ecdma_ec_calc *calc;
	struct ecdma_ec_mem mem;
	struct t_buf *b;
	struct t_wr *tw;
	struct t_async a;
	unsigned long end;
	int bad = 0, i, got = 0, r;

	calc = t_calc(4, 2, ECDMA_EC_MATRIX_VANDERMONDE, true, N, -1);
	tw = kcalloc(N, sizeof(*tw), GFP_KERNEL);
	b = t_buf_alloc(6, 2048, true);
	if (IS_ERR(calc) || !tw || !b) {
		bad++;
		goto out;
	}
	ktest_mem(&mem, b->sge, 4, b->sge + 4, 2, 2048);
	t_async_init(&a);
	for (i = 0; i < N; i++) {
		tw[i].a = &a;
		tw[i].seq = i;
		tw[i].wr.opcode = ECDMA_EC_OP_ENCODE;
		tw[i].wr.mem = &mem;
		tw[i].wr.done = t_done;
		T_CHECK(!ecdma_ec_post(calc, &tw[i].wr));
	}
	/* let the worker execute everything; nothing may complete yet */
	msleep(200);
	ecdma_ec_progress(calc);
	T_CHECK(t_ndone(&a) == 0);
	T_CHECK(ecdma_ec_poll(calc, 0) == 0);
	T_CHECK(ecdma_ec_poll(calc, -1) == -EINVAL);
	end = jiffies + T_TIMEOUT;
	while (got < N && time_before(jiffies, end)) {
		r = ecdma_ec_poll(calc, 7);
		T_CHECK(r >= 0 && r <= 7);
		if (r <= 0) {
			ecdma_ec_progress(calc);
			usleep_range(1000, 2000);
			continue;
		}
		got += r;
		T_CHECK(t_ndone(&a) == got);
	}
	T_CHECK(got == N);
	T_CHECK(!a.order_bad && !a.twice);
	T_CHECK(ecdma_ec_poll(calc, 5) == 0);
	/* sync on a polling calc completes without polling */
	{
		struct ecdma_ec_wr wr = {
			.opcode = ECDMA_EC_OP_ENCODE,
			.mem = &mem,
		};

		T_CHECK(!ecdma_ec_post_sync(calc, &wr));
	}
out:
	if (!IS_ERR(calc))
		ecdma_ec_dealloc_calc(calc);
	t_buf_free(b);
	kfree(tw);
	ktest_result(!bad, "polling_calc_reaps_in_order");
}

/*
 * Inline progress the way async_tx waits: spinning with preemption off on
 * the CPU the calc's worker is bound to, so only inline execution can
 * finish the work.  A large request first, so the worker may have left it
 * half done.  Then the same with interrupts off.
 */
static void test_inline_progress(void)
{
	enum { N = 24 };
	struct ecdma_ec_calc *calc;
	struct ecdma_ec_mem mem, big;
	struct t_buf *b, *bb;
	struct t_wr *tw;
	struct t_async a;
	unsigned long flags, end;
	cpumask_var_t saved;
	int bad = 0, i, cpu;

	/* stay on the CPU the calc's worker is bound to */
	if (!alloc_cpumask_var(&saved, GFP_KERNEL)) {
		ktest_result(false, "inline_progress_preempt_and_irqs_off");
		return;
	}
	cpumask_copy(saved, current->cpus_ptr);
	cpu = cpumask_first(cpu_online_mask);
	T_CHECK(!set_cpus_allowed_ptr(current, cpumask_of(cpu)));
	calc = t_calc(10, 4, ECDMA_EC_MATRIX_CAUCHY, false, N + 1, cpu);
	tw = kcalloc(N + 1, sizeof(*tw), GFP_KERNEL);
	b = t_buf_alloc(14, 4096, true);
	bb = t_buf_alloc(14, 256 * 1024, true);
	if (IS_ERR(calc) || !tw || !b || !bb) {
		bad++;
		goto out;
	}
	ktest_mem(&mem, b->sge, 10, b->sge + 10, 4, 4096);
	ktest_mem(&big, bb->sge, 10, bb->sge + 10, 4, 256 * 1024);
	t_async_init(&a);
	for (i = 0; i <= N; i++) {
		tw[i].a = &a;
		tw[i].seq = i;
		tw[i].wr.opcode = ECDMA_EC_OP_ENCODE;
		tw[i].wr.mem = i ? &mem : &big;
		tw[i].wr.done = t_done;
	}

	/* preemption off, on the worker's CPU */
	preempt_disable();
	for (i = 0; i <= N / 2; i++)
		T_CHECK(!ecdma_ec_post(calc, &tw[i].wr));
	end = jiffies + 20 * HZ;
	while (t_ndone(&a) <= N / 2 && time_before(jiffies, end)) {
		ecdma_ec_progress(calc);
		cpu_relax();
	}
	preempt_enable();
	T_CHECK(t_ndone(&a) == N / 2 + 1);

	/* interrupts off */
	local_irq_save(flags);
	for (; i <= N; i++)
		T_CHECK(!ecdma_ec_post(calc, &tw[i].wr));
	end = 2000000;
	while (t_ndone(&a) <= N && end--)
		ecdma_ec_progress(calc);
	local_irq_restore(flags);
	T_CHECK(t_wait(&a, N + 1));
	T_CHECK(!a.order_bad && !a.twice);
	T_CHECK(raw_smp_processor_id() == cpu);
out:
	if (!IS_ERR(calc))
		ecdma_ec_dealloc_calc(calc);
	set_cpus_allowed_ptr(current, saved);
	free_cpumask_var(saved);
	t_buf_free(b);
	t_buf_free(bb);
	kfree(tw);
	ktest_result(!bad, "inline_progress_preempt_and_irqs_off");
}

/*
 * Inline progress from softirq: a timer posts the requests to a calc whose
 * worker is bound to the timer's CPU and calls ecdma_ec_progress() until
 * they are done, all inside the one timer callback.  The worker cannot
 * run on that CPU meanwhile, so every completion must come from progress
 * in softirq; one that does nothing there leaves them to the worker later
 * and fails the test.
 */
struct t_timer {
	struct timer_list timer;
	struct ecdma_ec_calc *calc;
	struct t_wr *tw;
	int n;
	int calls;
	int done_in_softirq;
	bool fired;
};

static void t_timer_fn(struct timer_list *t)
{
	struct t_timer *tt = ecdma_timer_container_of(tt, t, timer);
	struct t_async *a = tt->tw[0].a;
	int i;

	tt->fired = true;
	for (i = 0; i < tt->n; i++)
		if (ecdma_ec_post(tt->calc, &tt->tw[i].wr))
			return;
	while (t_ndone(a) < tt->n && tt->calls < 100000) {
		tt->calls++;
		ecdma_ec_progress(tt->calc);
	}
	tt->done_in_softirq = t_ndone(a);
}

static void test_softirq_progress(void)
{
	enum { N = 16 };
	struct ecdma_ec_calc *calc;
	struct ecdma_ec_mem mem;
	struct t_timer tt = { };
	struct t_buf *b;
	struct t_wr *tw;
	struct t_async a;
	int bad = 0, i, cpu = cpumask_first(cpu_online_mask);
	char diag[64];

	calc = t_calc(5, 3, ECDMA_EC_MATRIX_CAUCHY, false, N, cpu);
	tw = kcalloc(N, sizeof(*tw), GFP_KERNEL);
	b = t_buf_alloc(8, 8192, true);
	if (IS_ERR(calc) || !tw || !b) {
		bad++;
		goto out;
	}
	ktest_mem(&mem, b->sge, 5, b->sge + 5, 3, 8192);
	t_async_init(&a);
	tt.calc = calc;
	tt.tw = tw;
	tt.n = N;
	timer_setup_on_stack(&tt.timer, t_timer_fn, 0);
	for (i = 0; i < N; i++) {
		tw[i].a = &a;
		tw[i].seq = i;
		tw[i].wr.opcode = ECDMA_EC_OP_ENCODE;
		tw[i].wr.mem = &mem;
		tw[i].wr.done = t_done;
	}
	tt.timer.expires = jiffies + 1;
	add_timer_on(&tt.timer, cpu);
	T_CHECK(t_wait(&a, N));
	timer_delete_sync(&tt.timer);
	ecdma_timer_destroy_on_stack(&tt.timer);
	T_CHECK(tt.fired);
	T_CHECK(tt.done_in_softirq == N);
	T_CHECK(!a.order_bad && !a.twice);
out:
	if (!IS_ERR(calc))
		ecdma_ec_dealloc_calc(calc);
	t_buf_free(b);
	kfree(tw);
	snprintf(diag, sizeof(diag), "%d of %d done in softirq, %d progress calls",
		 tt.done_in_softirq, N, tt.calls);
	ktest_result_diag(!bad, "softirq_progress", diag);
}

/* Work runs on the affinity_hint CPU when no one progresses inline. */
static void test_affinity(void)
{
	enum { N = 8 };
	struct ecdma_ec_calc *calc;
	struct ecdma_ec_mem mem;
	struct t_buf *b;
	struct t_wr *tw;
	struct t_async a;
	int bad = 0, i, cpu;

	cpu = cpumask_last(cpu_online_mask);
	calc = t_calc(3, 2, ECDMA_EC_MATRIX_CAUCHY, false, N, cpu);
	tw = kcalloc(N, sizeof(*tw), GFP_KERNEL);
	b = t_buf_alloc(5, 4096, true);
	if (IS_ERR(calc) || !tw || !b) {
		bad++;
		goto out;
	}
	ktest_mem(&mem, b->sge, 3, b->sge + 3, 2, 4096);
	t_async_init(&a);
	for (i = 0; i < N; i++) {
		tw[i].a = &a;
		tw[i].seq = i;
		tw[i].cpu = -1;
		tw[i].wr.opcode = ECDMA_EC_OP_ENCODE;
		tw[i].wr.mem = &mem;
		tw[i].wr.done = t_done;
		T_CHECK(!ecdma_ec_post(calc, &tw[i].wr));
	}
	T_CHECK(t_wait(&a, N));
	for (i = 0; i < N; i++)
		T_CHECK(tw[i].cpu == cpu);
out:
	if (!IS_ERR(calc))
		ecdma_ec_dealloc_calc(calc);
	t_buf_free(b);
	kfree(tw);
	ktest_result(!bad, "worker_runs_on_affinity_cpu");
}

/* Several posting threads and inline progress threads on one calc. */
struct t_stress {
	struct ecdma_ec_calc *calc;
	struct ecdma_ec_mem *mem;
	struct t_wr *tw;
	struct t_async a;
	spinlock_t lock; /* orders seq numbers like the calc orders posts */
	int next;
	int n;
	atomic_t posters;
	int errors;
};

static int t_poster(void *arg)
{
	struct t_stress *s = arg;
	unsigned long flags;
	int i, ret = 0;

	for (;;) {
		spin_lock_irqsave(&s->lock, flags);
		i = s->next;
		if (i < s->n) {
			s->tw[i].seq = i;
			ret = ecdma_ec_post(s->calc, &s->tw[i].wr);
			if (!ret)
				s->next++;
		}
		spin_unlock_irqrestore(&s->lock, flags);
		if (i >= s->n)
			break;
		if (ret == -EOVERFLOW)
			ecdma_ec_progress(s->calc);
		else if (ret)
			s->errors++;
		if (!(i % 16))
			cond_resched();
	}
	atomic_dec(&s->posters);
	return 0;
}

static int t_progressor(void *arg)
{
	struct t_stress *s = arg;

	while (t_ndone(&s->a) < s->n && !kthread_should_stop()) {
		preempt_disable();
		ecdma_ec_progress(s->calc);
		preempt_enable();
		cond_resched();
	}
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

static void test_stress(void)
{
	enum { N = 2000, POSTERS = 3, PROGRESSORS = 2 };
	struct task_struct *prog[PROGRESSORS] = { };
	struct t_buf *b = NULL;
	struct t_stress *s;
	int bad = 0, i;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s) {
		ktest_result(false, "stress_posters_and_progress");
		return;
	}
	s->calc = t_calc(4, 2, ECDMA_EC_MATRIX_VANDERMONDE, false, 64, -1);
	s->tw = kcalloc(N, sizeof(*s->tw), GFP_KERNEL);
	s->mem = kcalloc(1, sizeof(*s->mem), GFP_KERNEL);
	b = t_buf_alloc(6, 1024, true);
	if (IS_ERR(s->calc) || !s->tw || !s->mem || !b) {
		bad++;
		goto out;
	}
	ktest_mem(s->mem, b->sge, 4, b->sge + 4, 2, 1024);
	t_async_init(&s->a);
	spin_lock_init(&s->lock);
	s->n = N;
	for (i = 0; i < N; i++) {
		s->tw[i].a = &s->a;
		s->tw[i].wr.opcode = i % 5 ? ECDMA_EC_OP_ENCODE :
					     ECDMA_EC_OP_NOP;
		s->tw[i].wr.mem = s->mem;
		s->tw[i].wr.done = t_done;
	}
	atomic_set(&s->posters, POSTERS);
	for (i = 0; i < PROGRESSORS; i++) {
		prog[i] = kthread_run(t_progressor, s, "ecdma_t_prog%d", i);
		if (IS_ERR(prog[i])) {
			prog[i] = NULL;
			bad++;
		}
	}
	for (i = 0; i < POSTERS; i++) {
		struct task_struct *t = kthread_run(t_poster, s,
						    "ecdma_t_post%d", i);

		if (IS_ERR(t)) {
			atomic_dec(&s->posters);
			bad++;
		}
	}
	if (!bad) {
		T_CHECK(t_wait(&s->a, N));
		while (atomic_read(&s->posters))
			usleep_range(1000, 2000);
	}
	for (i = 0; i < PROGRESSORS; i++)
		if (prog[i])
			kthread_stop(prog[i]);
	T_CHECK(!s->errors);
	T_CHECK(!s->a.order_bad && !s->a.twice);
	for (i = 0; i < N && !bad; i++)
		T_CHECK(s->tw[i].calls == 1 && !s->tw[i].status);
out:
	if (!IS_ERR(s->calc)) {
		/* posters may not have started: make sure none is left */
		while (atomic_read(&s->posters))
			usleep_range(1000, 2000);
		ecdma_ec_dealloc_calc(s->calc);
	}
	t_buf_free(b);
	kfree(s->mem);
	kfree(s->tw);
	kfree(s);
	ktest_result(!bad, "stress_posters_and_progress");
}

/*
 * Dealloc with work queued: every ->done exactly once, in order; the
 * completed ones (status 0) before the cancelled ones (-ECANCELED).
 */
static void test_dealloc_cancel(void)
{
	enum { N = 32 };
	struct ecdma_ec_calc *calc;
	struct ecdma_ec_mem mem;
	struct t_buf *b;
	struct t_wr *tw;
	struct t_async a;
	int bad = 0, i, seen_cancel = 0, ncancel = 0;

	calc = t_calc(8, 4, ECDMA_EC_MATRIX_CAUCHY, false, N, -1);
	tw = kcalloc(N, sizeof(*tw), GFP_KERNEL);
	b = t_buf_alloc(12, 512 * 1024, true);
	if (IS_ERR(calc) || !tw || !b) {
		bad++;
		if (!IS_ERR(calc))
			ecdma_ec_dealloc_calc(calc);
		goto out;
	}
	ktest_mem(&mem, b->sge, 8, b->sge + 8, 4, 512 * 1024);
	t_async_init(&a);
	for (i = 0; i < N; i++) {
		tw[i].a = &a;
		tw[i].seq = i;
		tw[i].wr.opcode = ECDMA_EC_OP_ENCODE;
		tw[i].wr.mem = &mem;
		tw[i].wr.done = t_done;
		T_CHECK(!ecdma_ec_post(calc, &tw[i].wr));
	}
	ecdma_ec_dealloc_calc(calc);
	T_CHECK(t_ndone(&a) == N);
	T_CHECK(!a.order_bad && !a.twice);
	for (i = 0; i < N; i++) {
		T_CHECK(tw[i].calls == 1);
		if (tw[i].status == -ECANCELED) {
			seen_cancel = 1;
			ncancel++;
		} else {
			T_CHECK(!tw[i].status && !seen_cancel);
		}
	}
	pr_info("# dealloc cancelled %d of %d\n", ncancel, N);
out:
	t_buf_free(b);
	kfree(tw);
	ktest_result(!bad, "dealloc_cancels_in_order");
}

/* A calc that still works: one correct encode, checked. */
static int t_still_works(struct ecdma_ec_calc *calc)
{
	int k = ecdma_ec_calc_k(calc), m = ecdma_ec_calc_m(calc), j, bad = 0;
	struct ecdma_ec_mem mem;
	struct t_buf *b, *ref;

	b = t_buf_alloc(k + m, 600, false);
	ref = t_buf_alloc(m, 600, true);
	if (!b || !ref) {
		bad++;
		goto out;
	}
	ktest_ref(600, k, m, ecdma_ec_calc_matrix(calc), b->b, ref->b, false);
	ktest_mem(&mem, b->sge, k, b->sge + k, m, 600);
	T_CHECK(!ecdma_ec_encode_sync(calc, &mem));
	for (j = 0; j < m; j++)
		T_CHECK(!memcmp(b->b[k + j], ref->b[j], 600));
out:
	t_buf_free(b);
	t_buf_free(ref);
	return bad;
}

static void test_misuse_alloc(void)
{
	struct ecdma_ec_calc_attr good = {
		.k = 4, .m = 2, .w = 8, .max_inflight = 4,
		.affinity_hint = -1, .matrix_type = ECDMA_EC_MATRIX_CAUCHY,
	}, a;
	u8 user[4 * 2];
	int bad = 0, i;

#define T_ALLOC(expr, want) do {					\
		struct ecdma_ec_calc *c;				\
		long w_ = (want);					\
									\
		a = good;						\
		expr;							\
		c = ecdma_ec_alloc_calc(t_prov, &a);			\
		if (IS_ERR(c) ? PTR_ERR(c) != w_ : w_ != 0) {		\
			pr_info("# alloc %s: got %ld want %ld\n", #expr,	\
				IS_ERR(c) ? PTR_ERR(c) : 0L, w_);	\
			bad++;						\
		}							\
		if (!IS_ERR(c)) {					\
			bad += t_still_works(c);			\
			ecdma_ec_dealloc_calc(c);			\
		}							\
	} while (0)

	T_ALLOC((void)0, 0);
	T_ALLOC(a.k = 0, -EINVAL);
	T_ALLOC(a.k = 256, -EINVAL);
	T_ALLOC(a.m = 0, -EINVAL);
	T_ALLOC(a.m = ECDMA_EC_MAX_M + 1, -EINVAL);
	T_ALLOC(a.w = 4, -EINVAL);
	T_ALLOC(a.w = 16, -EINVAL);
	T_ALLOC(a.max_inflight = 0, -EINVAL);
	T_ALLOC(a.max_inflight = ECDMA_EC_MAX_INFLIGHT + 1, -EINVAL);
	T_ALLOC(a.affinity_hint = -2, -EINVAL);
	T_ALLOC(a.affinity_hint = nr_cpu_ids, -EINVAL);
	T_ALLOC(a.matrix_type = 9, -EINVAL);
	T_ALLOC(a.matrix_type = ECDMA_EC_MATRIX_USER, -EINVAL);
	T_ALLOC((a.k = 250, a.m = 8), -EINVAL);
	/* Vandermonde with m = 5 is MDS only up to small k */
	T_ALLOC((a.k = 60, a.m = 5,
		 a.matrix_type = ECDMA_EC_MATRIX_VANDERMONDE), -EINVAL);
	/* singular user matrix: a zero coefficient (a 1x1 minor) */
	for (i = 0; i < 8; i++)
		user[i] = i + 1;
	user[5] = 0;
	T_ALLOC((a.matrix_type = ECDMA_EC_MATRIX_USER, a.encode_matrix = user),
		-EINVAL);
	/* equal rows: a singular 2x2 minor */
	memset(user, 7, sizeof(user));
	T_ALLOC((a.matrix_type = ECDMA_EC_MATRIX_USER, a.encode_matrix = user),
		-EINVAL);
	/* a good user matrix: {1, 2^i} rows (RAID-6) */
	for (i = 0; i < 4; i++) {
		user[2 * i] = 1;
		user[2 * i + 1] = ktest_exp[i];
	}
	T_ALLOC((a.matrix_type = ECDMA_EC_MATRIX_USER, a.encode_matrix = user),
		0);
	T_CHECK(PTR_ERR(ecdma_ec_alloc_calc(NULL, &good)) == -EINVAL);
	T_CHECK(PTR_ERR(ecdma_ec_alloc_calc(t_prov, NULL)) == -EINVAL);
#undef T_ALLOC
	ktest_result(!bad, "misuse_alloc_errnos");
}

static void test_misuse_post(void)
{
	enum { K = 4, M = 2, BS = 1024 };
	struct ecdma_ec_sge d[K + 4], c[M + 1], d0[K + 4], c0[M + 1];
	u8 era[K + M], du[K], cu[M], mat[K * M];
	struct ecdma_ec_calc *calc;
	struct ecdma_ec_mem mem, mem0;
	struct ecdma_ec_wr wr, wr0;
	struct ecdma_ec_comp comp = { };
	struct t_buf *b;
	int bad = 0, i, ret;

	calc = t_calc(K, M, ECDMA_EC_MATRIX_VANDERMONDE, false, 8, -1);
	b = t_buf_alloc(K + M + 5, BS, true);
	if (IS_ERR(calc) || !b) {
		bad++;
		goto out;
	}
	for (i = 0; i < K + 4; i++)
		ktest_sge(&d[i], b->b[i], BS);
	for (i = 0; i < M + 1; i++)
		ktest_sge(&c[i], b->b[K + 4 + i], BS);
	memcpy(d0, d, sizeof(d));
	memcpy(c0, c, sizeof(c));
	ktest_mem(&mem0, d, K, c, M, BS);
	memset(&wr0, 0, sizeof(wr0));
	wr0.opcode = ECDMA_EC_OP_ENCODE;
	wr0.mem = &mem;
	memset(mat, 1, sizeof(mat));

#define T_POST(expr, want) do {						\
		int w_ = (want);					\
									\
		mem = mem0;						\
		wr = wr0;						\
		memcpy(d, d0, sizeof(d));				\
		memcpy(c, c0, sizeof(c));				\
		memset(era, 0, sizeof(era));				\
		memset(du, 0, sizeof(du));				\
		memset(cu, 0, sizeof(cu));				\
		expr;							\
		wr.status = 12345;					\
		ret = ecdma_ec_post_sync(calc, &wr);			\
		if (ret != w_) {					\
			pr_info("# post %s: got %d want %d\n", #expr,	\
				ret, w_);				\
			bad++;						\
		}							\
		if (w_ && wr.status != 12345) {				\
			pr_info("# post %s: wr changed\n", #expr);	\
			bad++;						\
		}							\
		bad += t_still_works(calc);				\
	} while (0)

	T_POST((void)0, 0);
	T_POST(wr.opcode = ECDMA_EC_OP_MAX, -EINVAL);
	T_POST(wr.flags = BIT(7), -EINVAL);
	T_POST((wr.opcode = ECDMA_EC_OP_DECODE,
		wr.flags = ECDMA_EC_WR_ACCUMULATE, wr.erasures = era), -EINVAL);
	T_POST(wr.mem = NULL, -EINVAL);
	T_POST(mem.num_data_sge = K - 1, -EINVAL);	/* wrong sge counts */
	T_POST(mem.num_data_sge = K + 1, -EINVAL);
	T_POST(mem.num_code_sge = M + 1, -EINVAL);
	T_POST(mem.block_size = 0, -EINVAL);
	T_POST(d[1].length = BS / 2, -EINVAL);		/* length != block_size */
	T_POST(c[0].length = BS + 1, -EINVAL);
	T_POST(d[0].addr = 0, -EINVAL);
	T_POST((wr.matrix = mat, mem.num_data_sge = K + 1), -EINVAL);
	T_POST(c[1] = c[0], -EINVAL);			/* duplicate outputs */
	T_POST(c[1].addr = c[0].addr + 16, -EINVAL);	/* overlapping outputs */
	T_POST(c[0].addr = d[2].addr + 1, -EINVAL);	/* partial overlap */
	T_POST(c[0] = d[2], 0);				/* in place is fine */
	T_POST((wr.opcode = ECDMA_EC_OP_DECODE, wr.erasures = era,
		era[0] = 1, era[1] = 1, era[4] = 1), -EINVAL);	/* > m */
	T_POST(wr.opcode = ECDMA_EC_OP_DECODE, -EINVAL);	/* no map */
	T_POST((wr.opcode = ECDMA_EC_OP_DECODE, wr.erasures = era,
		era[0] = 1, era[1] = 1, d[0] = d[1]), -EINVAL);	/* dup out */
	T_POST((wr.opcode = ECDMA_EC_OP_UPDATE, wr.data_updates = du,
		wr.code_updates = cu, cu[0] = 1), -EINVAL);	/* no change */
	T_POST((wr.opcode = ECDMA_EC_OP_UPDATE, wr.data_updates = du,
		wr.code_updates = cu, du[1] = 1, cu[0] = 1), -EINVAL);
	T_POST((wr.opcode = ECDMA_EC_OP_UPDATE, wr.data_updates = du,
		wr.code_updates = cu, du[1] = 1, cu[0] = 1,
		mem.num_data_sge = 3, mem.num_code_sge = 1), 0);
	T_POST((wr.opcode = ECDMA_EC_OP_COPY, mem.num_data_sge = 2,
		mem.num_code_sge = 1), -EINVAL);
	T_POST((wr.opcode = ECDMA_EC_OP_COPY, mem.num_data_sge = 1,
		mem.num_code_sge = 1), 0);
	T_POST((wr.opcode = ECDMA_EC_OP_VALIDATE,
		wr.flags = ECDMA_EC_WR_ACCUMULATE), -EINVAL);
	T_POST((wr.opcode = ECDMA_EC_OP_NOP, wr.mem = NULL), 0);
#undef T_POST
	T_CHECK(ecdma_ec_post_sync(calc, NULL) == -EINVAL);
	T_CHECK(ecdma_ec_encode_async(calc, &mem0, &comp) == -EINVAL);
	T_CHECK(ecdma_ec_encode_async(calc, &mem0, NULL) == -EINVAL);
	T_CHECK(ecdma_ec_poll(calc, 1) == -EINVAL);	/* not polling */
	bad += t_still_works(calc);
out:
	t_buf_free(b);
	if (!IS_ERR(calc))
		ecdma_ec_dealloc_calc(calc);
	ktest_result(!bad, "misuse_post_errnos_state_unchanged");
}

/* -EOVERFLOW past max_inflight (a polling calc holds them until reaped). */
static void test_overflow(void)
{
	enum { MAXI = 3 };
	struct ecdma_ec_calc *calc;
	struct ecdma_ec_wr w[MAXI + 1];
	unsigned long end;
	int bad = 0, i, got = 0, r;

	calc = t_calc(3, 1, ECDMA_EC_MATRIX_CAUCHY, true, MAXI, -1);
	if (IS_ERR(calc)) {
		ktest_result(false, "inflight_overflow");
		return;
	}
	memset(w, 0, sizeof(w));
	for (i = 0; i < MAXI; i++)
		T_CHECK(!ecdma_ec_post(calc, &w[i]));
	T_CHECK(ecdma_ec_post(calc, &w[MAXI]) == -EOVERFLOW);
	end = jiffies + T_TIMEOUT;
	while (!got && time_before(jiffies, end)) {
		ecdma_ec_progress(calc);
		got = ecdma_ec_poll(calc, 1);
		if (!got)
			usleep_range(1000, 2000);
	}
	T_CHECK(got == 1);
	T_CHECK(ecdma_ec_post(calc, &w[MAXI]) == 0);
	T_CHECK(ecdma_ec_post(calc, &w[0]) == -EOVERFLOW);
	got = 0;
	end = jiffies + T_TIMEOUT;
	while (got < MAXI && time_before(jiffies, end)) {
		ecdma_ec_progress(calc);
		r = ecdma_ec_poll(calc, MAXI);
		got += max(r, 0);
		if (!r)
			usleep_range(1000, 2000);
	}
	T_CHECK(got == MAXI);
	bad += t_still_works(calc);
	ecdma_ec_dealloc_calc(calc);
	ktest_result(!bad, "inflight_overflow");
}

/*
 * A big request split over many sections and over both executors: posted
 * with preemption off on the CPU its worker is bound to, one inline
 * progress call runs its first section, then the worker runs the rest,
 * picking it up where the inline section left it.
 */
static void test_big(void)
{
	int cpu = cpumask_first(cpu_online_mask);
	size_t len = 1024 * 1024 + 333;
	long wb = ecdma_cpu_tunable_get(ECDMA_CPU_WORKER_BUDGET);
	long ib = ecdma_cpu_tunable_get(ECDMA_CPU_INLINE_BUDGET);
	struct ecdma_ec_calc *calc;
	struct ecdma_ec_mem mem;
	struct t_buf *b, *ref;
	struct t_async a;
	struct t_wr tw = { };
	u64 *v = kcalloc(ECDMA_EC_STAT_NR, sizeof(*v), GFP_KERNEL);
	u64 need;
	int bad = 0, j;
	char diag[96] = "";

	calc = t_calc(12, 3, ECDMA_EC_MATRIX_CAUCHY, false, 4, cpu);
	b = t_buf_alloc(15, len, false);
	ref = t_buf_alloc(3, len, true);
	if (IS_ERR(calc) || !b || !ref || !v) {
		bad++;
		goto out;
	}
	ktest_ref(len, 12, 3, ecdma_ec_calc_matrix(calc), b->b, ref->b, false);
	ktest_mem(&mem, b->sge, 12, b->sge + 12, 3, len);
	t_async_init(&a);
	tw.a = &a;
	tw.wr.opcode = ECDMA_EC_OP_ENCODE;
	tw.wr.mem = &mem;
	tw.wr.done = t_done;

	/* on the worker's CPU: it cannot run until preempt_enable() */
	T_CHECK(!set_cpus_allowed_ptr(current, cpumask_of(cpu)));
	preempt_disable();
	T_CHECK(!ecdma_ec_post(calc, &tw.wr));
	T_CHECK(!ecdma_ec_progress(calc));	/* a section, nothing completed */
	preempt_enable();
	set_cpus_allowed_ptr(current, cpu_possible_mask);
	T_CHECK(t_wait(&a, 1));
	T_CHECK(!tw.status);
	for (j = 0; j < 3; j++)
		T_CHECK(!memcmp(b->b[12 + j], ref->b[j], len));

	ecdma_ec_calc_stats(calc, v);
	/*
	 * A section touches its budget in bytes of blocks (15 blocks of len
	 * here), plus at most one more unit of each block: so this many
	 * sections at least, one of them inline.
	 */
	wb += 15 * ECDMA_EC_FAST_LEN_ALIGN;
	ib += 15 * ECDMA_EC_FAST_LEN_ALIGN;
	need = 1 + DIV_ROUND_UP(15 * len - min_t(u64, ib, 15 * len), wb);
	T_CHECK(v[ECDMA_EC_STAT_INLINE_CALLS] == 1);
	T_CHECK(v[ECDMA_EC_STAT_SECTIONS] >= need);
	T_CHECK(v[ECDMA_EC_STAT_WORKER_OPS] == 1 && !v[ECDMA_EC_STAT_INLINE_OPS]);
	snprintf(diag, sizeof(diag), "%llu sections (>= %llu), %llu inline",
		 v[ECDMA_EC_STAT_SECTIONS], need, v[ECDMA_EC_STAT_INLINE_CALLS]);
out:
	t_buf_free(b);
	t_buf_free(ref);
	kfree(v);
	if (!IS_ERR(calc))
		ecdma_ec_dealloc_calc(calc);
	ktest_result_diag(!bad, "big_request_split_over_sections_and_executors",
			  diag);
}

/* The counters account for what ran, and the fast paths are taken. */
static void test_counters(void)
{
	static const u8 ones[5] = { 1, 1, 1, 1, 1 };
	u64 *v = kcalloc(ECDMA_EC_STAT_NR, sizeof(*v), GFP_KERNEL);
	struct ecdma_ec_calc *calc;
	struct ecdma_ec_mem mem;
	struct t_buf *b, *u;
	u8 era[10] = { 0 };
	int bad = 0, i;

	calc = t_calc(8, 2, ECDMA_EC_MATRIX_VANDERMONDE, false, 4, -1);
	b = t_buf_alloc(10, 4096, true);
	u = t_buf_alloc(10, 4096, false);
	if (!v || IS_ERR(calc) || !b || !u) {
		bad++;
		goto out;
	}
	/* RAID-6 calc matrix, aligned: lib/raid6 */
	ktest_mem(&mem, b->sge, 8, b->sge + 8, 2, 4096);
	T_CHECK(!ecdma_ec_encode_sync(calc, &mem));
	/* XOR per-WR matrix, aligned: xor_blocks */
	{
		struct ecdma_ec_mem xm;
		struct ecdma_ec_wr wr = {
			.opcode = ECDMA_EC_OP_ENCODE,
			.mem = &xm,
			.matrix = ones,
		};

		ktest_mem(&xm, b->sge, 5, b->sge + 9, 1, 4096);
		T_CHECK(!ecdma_ec_post_sync(calc, &wr));
	}
	/* misaligned: GF kernels */
	ktest_mem(&mem, u->sge, 8, u->sge + 8, 2, 4096);
	T_CHECK(!ecdma_ec_encode_sync(calc, &mem));
	/* the same erasure pattern twice: a miss, then a hit */
	era[1] = 1;
	era[8] = 1;
	for (i = 0; i < 2; i++)
		T_CHECK(!ecdma_ec_decode_sync(calc, &mem, era, NULL));
	/* a refused post */
	mem.block_size = 0;
	T_CHECK(ecdma_ec_encode_sync(calc, &mem) == -EINVAL);

	ecdma_ec_calc_stats(calc, v);
	T_CHECK(v[ECDMA_EC_STAT_OPS + ECDMA_EC_OP_ENCODE] == 3);
	T_CHECK(v[ECDMA_EC_STAT_OPS + ECDMA_EC_OP_DECODE] == 2);
	T_CHECK(v[ECDMA_EC_STAT_BYTES + ECDMA_EC_OP_ENCODE] ==
		4096 * (10 + 6 + 10));
	T_CHECK(v[ECDMA_EC_STAT_WORKER_OPS] + v[ECDMA_EC_STAT_INLINE_OPS] ==
		5);
	T_CHECK(v[ECDMA_EC_STAT_POST_REJECTED] == 1);
	T_CHECK(!v[ECDMA_EC_STAT_ERRORS] && !v[ECDMA_EC_STAT_CANCELED]);
	T_CHECK(v[ECDMA_EC_STAT_FAST_PQ_BYTES] > 0);
	T_CHECK(v[ECDMA_EC_STAT_FAST_XOR_BYTES] > 0);
	T_CHECK(v[ECDMA_EC_STAT_GF_BYTES] > 0);
	T_CHECK(v[ECDMA_EC_STAT_DEC_MISSES] == 1);
	T_CHECK(v[ECDMA_EC_STAT_DEC_HITS] == 1);
	for (i = 0; i < ECDMA_EC_STAT_NR; i++)
		if (v[i])
			pr_info("# %s %llu\n", ecdma_ec_stat_names[i], v[i]);
out:
	t_buf_free(b);
	t_buf_free(u);
	if (!IS_ERR(calc))
		ecdma_ec_dealloc_calc(calc);
	kfree(v);
	ktest_result(!bad, "counters_and_fast_paths");
}

static int __init ecdma_ec_test_init(void)
{
	u64 seed = get_random_u64();

	prandom_seed_state(&t_rnd, seed);
	ktest_gf_init();
	pr_info("KTAP version 1\n");
	pr_info("# seed=%llu\n", seed);
	t_prov = ecdma_ec_provider_get("cpu");
	if (IS_ERR(t_prov))
		return ktest_abort("provider_get");

	test_provider();
	test_encode("encode_vandermonde", ECDMA_EC_MATRIX_VANDERMONDE, 40,
		    false, false, false, 30);
	test_encode("encode_cauchy", ECDMA_EC_MATRIX_CAUCHY, 40,
		    false, false, false, 30);
	test_encode("encode_per_wr_matrix", ECDMA_EC_MATRIX_CAUCHY, 40,
		    true, false, false, 30);
	test_encode("encode_accumulate", ECDMA_EC_MATRIX_CAUCHY, 40,
		    true, true, false, 20);
	test_encode("encode_inplace", ECDMA_EC_MATRIX_CAUCHY, 40,
		    true, false, true, 20);
	test_verbs_async();
	test_encode_send();
	test_decode("decode_vandermonde", ECDMA_EC_MATRIX_VANDERMONDE, 0, 16);
	test_decode("decode_cauchy", ECDMA_EC_MATRIX_CAUCHY, 0, 16);
	test_decode_2_erasures();
	test_decode_wr_matrix();
	test_update();
	test_validate();
	test_copy_nop();
	test_async_order();
	test_polling();
	test_inline_progress();
	test_softirq_progress();
	test_affinity();
	test_stress();
	test_dealloc_cancel();
	test_misuse_alloc();
	test_misuse_post();
	test_overflow();
	test_big();
	test_counters();

	ecdma_ec_provider_put(t_prov);
	return ktest_summary();
}

static void __exit ecdma_ec_test_exit(void)
{
}

module_init(ecdma_ec_test_init);
module_exit(ecdma_ec_test_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("ecdma developers");
MODULE_DESCRIPTION("In-kernel tests of the ecdma EC verbs API");
MODULE_INFO(test, "Y");
ECDMA_MODULE_IMPORT_NS();
