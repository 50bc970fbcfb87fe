// SPDX-License-Identifier: GPL-2.0
/*
 * Misuse and faults for ecdma_rdma's primitives on a real RDMA device
 * (Soft-RoCE in the VM): misuse gets its documented errno with nothing
 * posted; each fault must end in a clean error, in time, with the rest of
 * the stripe delivered and nothing left in flight.
 *
 *  - a data QP in error before an ec-send: that block fails -ENOTCONN at
 *    once, the others arrive;
 *  - a code QP in error: the data went out, the encode ran, the code block
 *    fails from the encode's completion (the middle of the stripe);
 *  - a QP taken to error while a dozen ec-sends are in flight: every one
 *    completes, each block either arrived or failed -ECANCELED/-ENOTCONN;
 *  - a receiver that never posts its receive: the sender's RNR retries
 *    run out, -ETIMEDOUT for that block only;
 *  - a recv-ec whose sources never send: -ETIMEDOUT after its timeout,
 *    its QPs disconnected;
 *  - a repair chain with a dead link: the hop behind it cannot even be
 *    submitted, the others time out; nobody hangs.
 *
 * Runs at load, prints KTAP lines and fails the load when a test failed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/random.h>

#include "ecdma_ktest.h"
#include "ecdma_rdma_ktest.h"

#define T_NODES		8
#define T_TIMEOUT	(60 * HZ)
#define T_LOAD_OPS	12

static char *dev;
module_param(dev, charp, 0444);
MODULE_PARM_DESC(dev, "RDMA device (default: the first RoCE device)");

static struct rnd_state t_rnd;
static struct ecdma_ec_provider *t_prov;
static struct ecdma_ec_calc *t_calc42;
static struct kr_net t_net;
static bool t_hung;

static bool t_wait(struct kr_wait *w)
{
	enum kr_wait_end end = kr_wait_flush(&t_net, w, T_TIMEOUT);

	if (end == KR_STUCK)
		t_hung = true;
	return end == KR_DONE;
}

/* Node 0's and the holder's end of block i's lane */
static struct ecdma_rdma_qp *t_sq(int i)
{
	return t_net.q[0][kr_holder(&t_net, i)][kr_lane(&t_net, i)];
}

static struct ecdma_rdma_qp *t_rq(int i)
{
	return t_net.q[kr_holder(&t_net, i)][0][kr_lane(&t_net, i)];
}

static int t_relink(int i)
{
	return kr_link(&t_net, 0, kr_holder(&t_net, i), kr_lane(&t_net, i));
}

/* An ec-send of @st to its holders, all by SEND, receives posted */
static int t_send(struct kr_stripe *st, struct ecdma_rdma_ec_send *es,
		  struct kr_wait *w, bool post_rx)
{
	int i, bad = 0;

	for (i = 0; i < st->k + st->m; i++) {
		if (post_rx)
			T_CHECK(!kr_stripe_rx(&t_net, st, w, i));
		es->blocks[i].buf = st->src[i];
		es->dest[i].qp = t_sq(i);
	}
	es->calc = st->calc;
	es->block_size = st->bs;
	T_CHECK(!kr_submit(w, &es->op, ecdma_rdma_ec_send(es)));
	return bad;
}

/* Block @dead's QP (node 0's end) in error before the ec-send. */
static void test_qp_error(int dead, const char *name)
{
	struct ecdma_rdma_ec_send *es = kzalloc(sizeof(*es), GFP_KERNEL);
	struct kr_stripe st;
	struct kr_wait w;
	int bad = 0, i;

	if (!es || kr_stripe_alloc(&t_net, &st, t_calc42, 65536, &t_rnd)) {
		kfree(es);
		ktest_result(false, name);
		return;
	}
	kr_wait_init(&w);
	ecdma_rdma_qp_disconnect(t_sq(dead));
	T_CHECK(ecdma_rdma_qp_state(t_sq(dead)) == -ENOTCONN);
	bad += t_send(&st, es, &w, true);
	/* the holder of the dead block waits: close its end too */
	ecdma_rdma_qp_disconnect(t_rq(dead));
	if (!t_wait(&w)) {
		ktest_result(false, name);
		return;
	}
	T_CHECK(es->op.status == -ENOTCONN);
	for (i = 0; i < 6; i++) {
		if (i == dead) {
			T_CHECK(es->stripe_status[i] == -ENOTCONN);
			T_CHECK(st.rx[i]->op.status == -ECANCELED);
			continue;
		}
		T_CHECK(es->stripe_status[i] == 0);
		T_CHECK(st.rx[i]->op.status == 0);
		T_CHECK(kr_block_ok(&st, i));
	}
	T_CHECK(!t_relink(dead));
	kr_stripe_free(&st);
	kfree(es);
	ktest_result(!bad, name);
}

/* A QP goes to error while T_LOAD_OPS ec-sends are in flight on it. */
static void test_qp_error_under_load(void)
{
	struct ecdma_rdma_ec_send *es[T_LOAD_OPS + 1] = { };
	struct kr_stripe *st;
	int bad = 0, i, j, failed = 0, dead = 5, arrived = 0;
	struct kr_wait w;

	st = kcalloc(T_LOAD_OPS + 1, sizeof(*st), GFP_KERNEL);
	if (!st)
		goto fail;
	for (j = 0; j <= T_LOAD_OPS; j++) {
		es[j] = kzalloc(sizeof(*es[j]), GFP_KERNEL);
		if (!es[j] || kr_stripe_alloc(&t_net, &st[j], t_calc42, 16384,
					      &t_rnd))
			goto fail;
	}
	kr_wait_init(&w);
	for (j = 0; j < T_LOAD_OPS; j++)
		bad += t_send(&st[j], es[j], &w, true);
	/* code block 1 of each: posted from the encodes' completions */
	ecdma_rdma_qp_disconnect(t_sq(dead));
	/* and one more that surely finds it closed */
	bad += t_send(&st[T_LOAD_OPS], es[T_LOAD_OPS], &w, true);
	ecdma_rdma_qp_disconnect(t_rq(dead));
	if (!t_wait(&w)) {
		ktest_result(false, "qp_error_under_load");
		return;
	}
	for (j = 0; j <= T_LOAD_OPS; j++) {
		int s = es[j]->stripe_status[dead];

		for (i = 0; i < 6; i++) {
			if (i == dead)
				continue;
			T_CHECK(es[j]->stripe_status[i] == 0);
			T_CHECK(st[j].rx[i]->op.status == 0);
			T_CHECK(kr_block_ok(&st[j], i));
		}
		T_CHECK(s == 0 || s == -ECANCELED || s == -ENOTCONN);
		T_CHECK(es[j]->op.status == s);
		/* a send may arrive and still be flushed before its ACK */
		if (!s)
			T_CHECK(st[j].rx[dead]->op.status == 0 &&
				kr_block_ok(&st[j], dead));
		failed += !!s;
		arrived += !st[j].rx[dead]->op.status;
	}
	T_CHECK(es[T_LOAD_OPS]->stripe_status[dead] == -ENOTCONN);
	pr_info("# qp_error_under_load: block %d failed in %d of %d ec-sends, arrived in %d\n",
		dead, failed, T_LOAD_OPS + 1, arrived);
	T_CHECK(!t_relink(dead));
	ktest_result(!bad, "qp_error_under_load");
	goto out;
fail:
	ktest_result(false, "qp_error_under_load");
out:
	for (j = 0; st && j <= T_LOAD_OPS; j++) {
		kr_stripe_free(&st[j]);
		kfree(es[j]);
	}
	kfree(st);
}

/* Block 3 goes over a lane with few RNR retries; its peer never posts. */
static void test_receiver_never_posts(void)
{
	struct ecdma_rdma_qp_attr qa = kr_qattr;
	struct ecdma_rdma_qp *qa_end = NULL, *qb_end = NULL;
	struct ecdma_rdma_ec_send *es = kzalloc(sizeof(*es), GFP_KERNEL);
	struct kr_stripe st;
	struct kr_wait w;
	int bad = 0, i;
	unsigned long t0;

	qa.rnr_retry = 2;
	if (!es || kr_pair(t_net.dev, &qa, &qa_end, &qb_end) ||
	    kr_stripe_alloc(&t_net, &st, t_calc42, 4096, &t_rnd)) {
		kfree(es);
		ecdma_rdma_qp_destroy(qa_end);
		ecdma_rdma_qp_destroy(qb_end);
		ktest_result(false, "receiver_never_posts_recv");
		return;
	}
	kr_wait_init(&w);
	for (i = 0; i < 6; i++) {
		if (i != 3)
			T_CHECK(!kr_stripe_rx(&t_net, &st, &w, i));
		es->blocks[i].buf = st.src[i];
		es->dest[i].qp = i == 3 ? qa_end : t_sq(i);
	}
	es->calc = t_calc42;
	es->block_size = 4096;
	t0 = jiffies;
	T_CHECK(!kr_submit(&w, &es->op, ecdma_rdma_ec_send(es)));
	if (!t_wait(&w)) {
		ktest_result(false, "receiver_never_posts_recv");
		return;
	}
	T_CHECK(es->stripe_status[3] == -ETIMEDOUT);
	T_CHECK(es->op.status == -ETIMEDOUT);
	for (i = 0; i < 6; i++)
		if (i != 3)
			T_CHECK(!es->stripe_status[i] && kr_block_ok(&st, i));
	pr_info("# receiver_never_posts_recv: failed after %u ms\n",
		jiffies_to_msecs(jiffies - t0));
	ecdma_rdma_qp_destroy(qa_end);
	ecdma_rdma_qp_destroy(qb_end);
	kr_stripe_free(&st);
	kfree(es);
	ktest_result(!bad, "receiver_never_posts_recv");
}

/* recv-ec at node 0 whose sources never send: the timeout ends it. */
static void test_recv_timeout(void)
{
	struct ecdma_rdma_recv_ec *re = kzalloc(sizeof(*re), GFP_KERNEL);
	struct ecdma_rdma_buf *b = ecdma_rdma_buf_alloc(t_net.dev, 4096 * 6);
	unsigned long t0, ms;
	struct kr_wait w;
	int bad = 0, i;

	if (!re || IS_ERR(b)) {
		kfree(re);
		if (!IS_ERR(b))
			ecdma_rdma_buf_free(b);
		ktest_result(false, "recv_ec_timeout");
		return;
	}
	kr_wait_init(&w);
	re->calc = t_calc42;
	re->block_size = 4096;
	re->op.timeout_ms = 500;
	for (i = 0; i < 6; i++) {
		re->blocks[i].buf = b;
		re->blocks[i].off = i * 4096;
		if (i && i < 5)
			re->src[i] = t_net.q[0][kr_holder(&t_net, i)][kr_lane(&t_net, i)];
	}
	re->erasures[0] = 1;
	t0 = jiffies;
	T_CHECK(!kr_submit(&w, &re->op, ecdma_rdma_recv_ec(re)));
	if (!t_wait(&w)) {
		ktest_result(false, "recv_ec_timeout");
		return;
	}
	ms = jiffies_to_msecs(jiffies - t0);
	T_CHECK(re->op.status == -ETIMEDOUT);
	T_CHECK(ms >= 500);
	for (i = 1; i < 5; i++) {
		T_CHECK(ecdma_rdma_qp_state(re->src[i]) == -ENOTCONN);
		T_CHECK(!t_relink(i));
	}
	pr_info("# recv_ec_timeout: completed after %lu ms\n", ms);
	ecdma_rdma_buf_free(b);
	kfree(re);
	ktest_result(!bad, "recv_ec_timeout");
}

/*
 * A chain 1 -> 2 -> 3 -> 4 -> 0 whose link 1 -> 2 is dead on node 2's
 * side: node 2 cannot post its receives, node 1's sends find no peer,
 * nodes 3 and 0 wait for the timeout.
 */
static void test_chain_dead_link(void)
{
	struct ecdma_rdma_recv_ec_send *r[5] = { };
	struct ecdma_rdma_buf *b[5] = { };
	struct kr_wait w;
	int bad = 0, j, ret, submitted = 0;

	kr_wait_init(&w);
	for (j = 0; j < 5; j++) {
		r[j] = kzalloc(sizeof(*r[j]), GFP_KERNEL);
		b[j] = kr_buf(t_net.dev, 65536, &t_rnd);
		if (!r[j] || IS_ERR(b[j])) {
			bad++;
			goto out;
		}
	}
	ecdma_rdma_qp_disconnect(t_net.q[2][1][0]);
	/* hop j on node j + 1; the last on node 0 */
	for (j = 4; j >= 0; j--) {
		int node = j == 4 ? 0 : j + 1, prev = j, next = j == 3 ? 0 : j + 2;

		r[j]->block_size = 65536;
		r[j]->nr_slices = 4;
		r[j]->op.timeout_ms = 1500;
		r[j]->acc.buf = b[j];
		r[j]->upstream = j ? t_net.q[node][prev][0] : NULL;
		if (j < 4)
			r[j]->downstream.qp = t_net.q[node][next][0];
		ret = kr_submit(&w, &r[j]->op, ecdma_rdma_recv_ec_send(r[j]));
		if (j == 1)
			T_CHECK(ret == -ENOTCONN);	/* nothing posted */
		else
			T_CHECK(!ret);
		submitted += !ret;
	}
	if (!t_wait(&w)) {
		ktest_result(false, "chain_dead_link");
		return;
	}
	for (j = 0; j < 5; j++)
		if (j != 1)
			T_CHECK(r[j]->op.status == -ETIMEDOUT);
	pr_info("# chain_dead_link: %d hops submitted, each ended -ETIMEDOUT\n",
		submitted);
	T_CHECK(!kr_link(&t_net, 1, 2, 0) && !kr_link(&t_net, 2, 3, 0) &&
		!kr_link(&t_net, 3, 4, 0) && !kr_link(&t_net, 4, 0, 0));
out:
	for (j = 0; j < 5; j++) {
		kfree(r[j]);
		if (!IS_ERR_OR_NULL(b[j]))
			ecdma_rdma_buf_free(b[j]);
	}
	ktest_result(!bad, "chain_dead_link");
}

/* ---------------------------------------------------------------------- */
/* Misuse: each documented errno, nothing posted, nothing in flight      */
/* ---------------------------------------------------------------------- */

static void t_noop_done(struct ecdma_rdma_op *op)
{
	/* never called: each submission below must fail */
	*(int *)op->ctx += 1;
}

static void test_bad_input(void)
{
	struct ecdma_ec_calc *calc = kr_calc(t_prov, 4, 2, false);
	struct ecdma_ec_calc *pcalc = kr_calc(t_prov, 4, 2, true);
	struct ecdma_ec_calc *big = kr_calc(t_prov, 30, 4, false);
	struct ecdma_rdma_qp_attr qa = kr_qattr;
	struct ecdma_rdma_recv_ec_send *r;
	struct ecdma_rdma_ec_send *es;
	struct ecdma_rdma_recv_ec *re;
	struct ecdma_rdma_qp_addr addr;
	struct ecdma_rdma_buf *buf;
	struct ecdma_rdma_qp *q = t_net.q[0][1][0];
	int bad = 0, called = 0, i;

	es = kzalloc(sizeof(*es), GFP_KERNEL);
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	re = kzalloc(sizeof(*re), GFP_KERNEL);
	buf = ecdma_rdma_buf_alloc(t_net.dev, 8192);
	if (!es || !r || !re || IS_ERR(buf) || IS_ERR(calc) || IS_ERR(pcalc) ||
	    IS_ERR(big)) {
		ktest_result(false, "bad_input");
		goto out;
	}

	/* ec-send */
	es->op.done = t_noop_done;
	es->op.ctx = &called;
	es->calc = calc;
	es->block_size = 4096;
	for (i = 0; i < 6; i++) {
		es->blocks[i].buf = buf;
		es->dest[i].qp = q;
	}
	es->op.done = NULL;
	T_CHECK(ecdma_rdma_ec_send(es) == -EINVAL);
	es->op.done = t_noop_done;
	es->calc = pcalc;
	T_CHECK(ecdma_rdma_ec_send(es) == -EINVAL);
	es->calc = big;
	T_CHECK(ecdma_rdma_ec_send(es) == -EINVAL);
	es->calc = calc;
	es->blocks[3].off = 8192 - 4095;
	T_CHECK(ecdma_rdma_ec_send(es) == -EINVAL);
	es->blocks[3].off = 0;
	es->dest[5].qp = NULL;
	T_CHECK(ecdma_rdma_ec_send(es) == -EINVAL);
	es->dest[5].qp = q;
	es->block_size = 0;
	T_CHECK(ecdma_rdma_ec_send(es) == -EINVAL);

	/* recv-ec-send */
	r->op.done = t_noop_done;
	r->op.ctx = &called;
	r->block_size = 4096;
	r->acc.buf = buf;
	r->upstream = q;
	r->nr_slices = 0;
	T_CHECK(ecdma_rdma_recv_ec_send(r) == -EINVAL);
	r->nr_slices = ECDMA_RDMA_MAX_SLICES + 1;
	T_CHECK(ecdma_rdma_recv_ec_send(r) == -EINVAL);
	r->nr_slices = 1;
	r->nr_local = 1;	/* local blocks need a calc */
	r->local[0].buf = buf;
	T_CHECK(ecdma_rdma_recv_ec_send(r) == -EINVAL);
	r->nr_local = ECDMA_RDMA_MAX_LOCAL + 1;
	r->calc = calc;
	T_CHECK(ecdma_rdma_recv_ec_send(r) == -EINVAL);
	r->nr_local = 0;
	r->upstream = NULL;	/* neither upstream nor downstream */
	T_CHECK(ecdma_rdma_recv_ec_send(r) == -EINVAL);

	/* recv-ec */
	re->op.done = t_noop_done;
	re->op.ctx = &called;
	re->calc = calc;
	re->block_size = 4096;
	for (i = 0; i < 6; i++)
		re->blocks[i].buf = buf;
	T_CHECK(ecdma_rdma_recv_ec(re) == -EINVAL);	/* no erasure */
	memset(re->erasures, 1, 3);
	T_CHECK(ecdma_rdma_recv_ec(re) == -EINVAL);	/* more than m */
	re->erasures[2] = 0;
	re->src[1] = q;					/* erased with a source */
	T_CHECK(ecdma_rdma_recv_ec(re) == -EINVAL);

	/* QPs and buffers */
	qa.timeout = 0;
	T_CHECK(PTR_ERR(ecdma_rdma_qp_create(t_net.dev, &qa)) == -EINVAL);
	qa = kr_qattr;
	qa.send_depth = 0;
	T_CHECK(PTR_ERR(ecdma_rdma_qp_create(t_net.dev, &qa)) == -EINVAL);
	T_CHECK(PTR_ERR(ecdma_rdma_buf_alloc(t_net.dev, 0)) == -EINVAL);
	T_CHECK(PTR_ERR(ecdma_rdma_buf_alloc(t_net.dev, 5 << 20)) == -EINVAL);
	T_CHECK(!ecdma_rdma_qp_addr(q, &addr));
	T_CHECK(ecdma_rdma_qp_connect(q, &addr) == -EINVAL);	/* connected */
	T_CHECK(!ecdma_rdma_buf_reg(q, buf));
	T_CHECK(ecdma_rdma_buf_reg(q, buf) == -EBUSY);
	ecdma_rdma_buf_unreg(q, buf);

	T_CHECK(called == 0);
	T_CHECK(ecdma_rdma_qp_state(q) == 0);
	ktest_result(!bad, "bad_input");
out:
	if (!IS_ERR_OR_NULL(buf))
		ecdma_rdma_buf_free(buf);
	kfree(es);
	kfree(r);
	kfree(re);
	if (!IS_ERR(calc))
		ecdma_ec_dealloc_calc(calc);
	if (!IS_ERR(pcalc))
		ecdma_ec_dealloc_calc(pcalc);
	if (!IS_ERR(big))
		ecdma_ec_dealloc_calc(big);
}

static int __init ecdma_rdma_fault_test_init(void)
{
	struct ecdma_rdma_dev *rdev;
	int ret;

	ktest_gf_init();
	prandom_seed_state(&t_rnd, get_random_u64());
	rdev = ecdma_rdma_dev_get(dev);
	if (IS_ERR(rdev))
		return ktest_abort("rdma_device_found");
	t_prov = ecdma_rdma_dev_provider(rdev);
	t_calc42 = IS_ERR(t_prov) ? ERR_CAST(t_prov) :
		   kr_calc(t_prov, 4, 2, false);
	ret = IS_ERR(t_calc42) ? PTR_ERR(t_calc42) :
	      kr_net_init(&t_net, rdev, T_NODES, KR_LANES, &kr_qattr);
	ktest_result(!ret, "setup");
	if (ret)
		goto out;

	test_bad_input();
	test_qp_error(1, "qp_error_data_block");
	if (!t_hung)
		test_qp_error(4, "qp_error_code_block_mid_stripe");
	if (!t_hung)
		test_qp_error_under_load();
	if (!t_hung)
		test_receiver_never_posts();
	if (!t_hung)
		test_recv_timeout();
	if (!t_hung)
		test_chain_dead_link();
out:
	kr_net_exit(&t_net);
	if (!IS_ERR_OR_NULL(t_calc42))
		ecdma_ec_dealloc_calc(t_calc42);
	if (!IS_ERR_OR_NULL(t_prov))
		ecdma_ec_provider_put(t_prov);
	ecdma_rdma_dev_put(rdev);
	return ktest_summary();
}

static void __exit ecdma_rdma_fault_test_exit(void)
{
}

module_init(ecdma_rdma_fault_test_init);
module_exit(ecdma_rdma_fault_test_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ecdma_rdma fault tests (QP errors, RNR, timeouts) on a real RDMA device");
MODULE_INFO(test, "Y");
ECDMA_MODULE_IMPORT_NS();
