// SPDX-License-Identifier: GPL-2.0
/*
 * Removal of the RDMA device while ecdma_rdma's primitives are in flight.
 *
 * The module sets up eight nodes on the device and puts work in flight
 * that only the removal can end (two recv-ec and three hops of a repair
 * chain waiting for data nobody sends, no timeout), a stream of ec-send
 * rounds from a kthread, and a fast-registered buffer.  Then it prints
 * "removal: ready" and waits: the VM script deletes the device (rdma link
 * delete, or unloads rdma_rxe).  Every primitive must complete, with
 * -ENODEV where it was cut, within the wait; every later call must fail
 * with -ENODEV; the handles must still free cleanly.
 *
 * One more ec-send has its encode on a calc of a provider of the test's
 * own that never executes anything, so the removal stays in its drain
 * until the test deallocates that calc.  Meanwhile every entry point that
 * would start or create something must fail -ENODEV, and nothing made in
 * that window may read as live once the removal is over.
 *
 * Runs at load, prints KTAP lines and fails the load when a test failed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/random.h>

/* struct ecdma_ec_provider, ecdma_ec_provider_register() */
#include "../../drivers/ecdma/ec_priv.h"

#include "ecdma_ktest.h"
#include "ecdma_rdma_ktest.h"

#define T_NODES		8
#define T_BS		4096

static char *dev;
module_param(dev, charp, 0444);
MODULE_PARM_DESC(dev, "RDMA device (default: the first RoCE device)");

static unsigned int wait_s = 60;
module_param(wait_s, uint, 0444);
MODULE_PARM_DESC(wait_s, "seconds to wait for the removal");

static struct rnd_state t_rnd;
static struct kr_net t_net;
static struct ecdma_ec_calc *t_calc;
/* QPs created before the removal and never connected */
static struct ecdma_rdma_qp *t_idle[2];
static struct ecdma_rdma_qp_addr t_idle_addr[2];

/* The ec-send stream, until the device goes */
static struct {
	struct task_struct *task;
	struct completion first;	/* a round went through */
	struct completion ended;	/* the stream stopped */
	bool stop;
	int rounds_ok;
	int enodev;			/* -ENODEV seen (submit or status) */
	int other;			/* any other error: a failure */
	bool hung;
} t_stream;

static int t_stream_round(struct kr_stripe *st, struct ecdma_rdma_ec_send *es)
{
	int i, ret, err = 0;
	struct kr_wait w;

	kr_wait_init(&w);
	for (i = 0; i < 6; i++) {
		kfree(st->rx[i]);
		st->rx[i] = NULL;
		ret = kr_stripe_rx(&t_net, st, &w, i);
		if (ret)
			err = err ?: ret;
		es->blocks[i].buf = st->src[i];
		es->dest[i].qp = t_net.q[0][kr_holder(&t_net, i)][kr_lane(&t_net, i)];
	}
	es->calc = t_calc;
	es->block_size = 256 << 10;
	if (!err) {
		ret = kr_submit(&w, &es->op, ecdma_rdma_ec_send(es));
		err = ret;
	}
	if (!kr_wait(&w, 120 * HZ)) {
		t_stream.hung = true;
		return -EIO;
	}
	if (err)
		return err;
	for (i = 0; i < 6; i++) {
		if (st->rx[i]->op.status)
			return st->rx[i]->op.status;
		if (es->stripe_status[i])
			return es->stripe_status[i];
	}
	return es->op.status;
}

static int t_stream_fn(void *arg)
{
	struct ecdma_rdma_ec_send *es = kzalloc(sizeof(*es), GFP_KERNEL);
	struct kr_stripe st;
	int ret;

	if (!es || kr_stripe_alloc(&t_net, &st, t_calc, 256 << 10, &t_rnd)) {
		t_stream.other++;
		kfree(es);
		complete(&t_stream.first);
		goto out;
	}
	while (!READ_ONCE(t_stream.stop)) {
		ret = t_stream_round(&st, es);
		if (!ret) {
			if (!t_stream.rounds_ok++)
				complete(&t_stream.first);
			continue;
		}
		if (ret == -ENODEV)
			t_stream.enodev++;
		else
			t_stream.other++;
		break;
	}
	if (!t_stream.rounds_ok)
		complete(&t_stream.first);
	if (!t_stream.hung) {
		kr_stripe_free(&st);
		kfree(es);
	}
out:
	complete(&t_stream.ended);
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

/* Work that only a removal ends: recv-ec and chain hops awaiting data. */
struct t_waiting {
	struct ecdma_rdma_recv_ec re[2];
	struct ecdma_rdma_recv_ec_send hop[3];
	struct ecdma_rdma_buf *buf;
	struct kr_wait w;
};

static int t_waiting_start(struct t_waiting *tw)
{
	int bad = 0, i, j;

	kr_wait_init(&tw->w);
	tw->buf = ecdma_rdma_buf_alloc(t_net.dev, 16 * T_BS);
	if (IS_ERR(tw->buf))
		return 1;
	for (j = 0; j < 2; j++) {
		struct ecdma_rdma_recv_ec *re = &tw->re[j];

		re->calc = t_calc;
		re->block_size = T_BS;
		for (i = 0; i < 6; i++) {
			re->blocks[i].buf = tw->buf;
			re->blocks[i].off = (j * 6 + i) * T_BS;
			if (i && i < 5)
				re->src[i] = t_net.q[0][kr_holder(&t_net, i)][0];
		}
		re->erasures[0] = 1;
		T_CHECK(!kr_submit(&tw->w, &re->op, ecdma_rdma_recv_ec(re)));
	}
	/* hops on nodes 2, 3, 0; the first (node 1) never runs */
	for (j = 0; j < 3; j++) {
		struct ecdma_rdma_recv_ec_send *r = &tw->hop[j];
		int node = j == 2 ? 0 : j + 2;

		r->block_size = T_BS;
		r->nr_slices = 2;
		r->acc.buf = tw->buf;
		r->acc.off = (12 + j) * T_BS;
		r->upstream = t_net.q[node][j + 1][1];
		if (j < 2)
			r->downstream.qp = t_net.q[node][j == 1 ? 0 : 3][1];
		T_CHECK(!kr_submit(&tw->w, &r->op, ecdma_rdma_recv_ec_send(r)));
	}
	return bad;
}

/*
 * The hold: a provider whose calcs never execute what is posted to them.
 * An ec-send whose encode sits on such a calc stays in flight, so the
 * removal waits in its drain until ecdma_ec_dealloc_calc() cancels the
 * encode.
 */
static int t_hold_calc_init(struct ecdma_ec_calc *calc)
{
	return 0;
}

static void t_hold_nop(struct ecdma_ec_calc *calc)
{
}

static const struct ecdma_ec_provider_ops t_hold_ops = {
	.calc_init = t_hold_calc_init,
	.calc_destroy = t_hold_nop,
	.kick = t_hold_nop,
	.quiesce = t_hold_nop,
};

static struct ecdma_ec_provider t_hold_prov = {
	.name = "ecdma_rdma_remove_test_hold",
	.ops = &t_hold_ops,
	.owner = THIS_MODULE,
};

static struct {
	bool registered;
	struct ecdma_ec_calc *calc;
	struct ecdma_rdma_ec_send *es;
	struct ecdma_rdma_buf *buf;	/* its blocks; never registered */
	struct kr_wait w;
} t_hold;

/* An ec-send over RDMA WRITEs into @reg whose encode never runs */
static int t_hold_start(struct ecdma_ec_provider *cpu,
			struct ecdma_ec_calc_attr *attr,
			struct ecdma_rdma_buf *reg)
{
	struct ecdma_rdma_ec_send *es;
	int i, ret;

	kr_wait_init(&t_hold.w);
	ret = ecdma_ec_query_caps(cpu, &t_hold_prov.caps) ?:
	      ecdma_ec_provider_register(&t_hold_prov);
	if (ret)
		return ret;
	t_hold.registered = true;
	t_hold.calc = ecdma_ec_alloc_calc(&t_hold_prov, attr);
	if (IS_ERR(t_hold.calc)) {
		ret = PTR_ERR(t_hold.calc);
		t_hold.calc = NULL;
		return ret;
	}
	t_hold.buf = ecdma_rdma_buf_alloc(t_net.dev, 8 * T_BS);
	t_hold.es = kzalloc(sizeof(*t_hold.es), GFP_KERNEL);
	if (IS_ERR(t_hold.buf) || !t_hold.es)
		return -ENOMEM;
	es = t_hold.es;
	es->calc = t_hold.calc;
	es->block_size = T_BS;
	for (i = 0; i < 6; i++) {
		es->blocks[i].buf = t_hold.buf;
		es->blocks[i].off = i * T_BS;
		/* lane 1 of 0-1 carries nothing else; WRITEs need no receive */
		es->dest[i].qp = t_net.q[0][1][1];
		es->dest[i].write = true;
		es->dest[i].remote_addr = reg->iova + i * T_BS;
		es->dest[i].rkey = reg->rkey;
	}
	ret = kr_submit(&t_hold.w, &es->op, ecdma_rdma_ec_send(es));
	if (ret)
		return ret;
	/* the submitter's share and the ec-send's, which waits for its encode */
	return atomic_read(&t_hold.w.left) == 2 ? 0 : -EIO;
}

/* Let the held ec-send complete: its encode is cancelled. */
static void t_hold_release(void)
{
	ecdma_ec_dealloc_calc(t_hold.calc);
	t_hold.calc = NULL;
}

static void t_hold_exit(void)
{
	t_hold_release();
	if (t_hold.registered)
		ecdma_ec_provider_unregister(&t_hold_prov);
	t_hold.registered = false;
	if (!IS_ERR_OR_NULL(t_hold.buf))
		ecdma_rdma_buf_free(t_hold.buf);
	t_hold.buf = NULL;
	kfree(t_hold.es);
	t_hold.es = NULL;
}

/* What calls made while the removal drained returned; all must be none */
static struct {
	struct ecdma_rdma_buf *buf;
	struct ecdma_rdma_qp *qp[2];
	struct ecdma_ec_provider *prov;
} t_win;

/* Keep @p if a call that had to fail made it, and say whether it failed */
#define T_WIN_KEEP(slot, p) ({						\
	typeof(p) __p = (p);						\
									\
	if (!IS_ERR(__p))						\
		(slot) = __p;						\
	PTR_ERR_OR_ZERO(__p);						\
})

/*
 * The removal started and waits for the held ec-send: nothing new may
 * start or be created, on the device or on any QP or buffer of it.
 */
static void test_while_draining(struct ecdma_rdma_dev *rdev,
				struct ecdma_rdma_buf *reg)
{
	struct ecdma_rdma_recv_ec_send *res = kzalloc(sizeof(*res), GFP_KERNEL);
	struct ecdma_rdma_ec_send *es = kzalloc(sizeof(*es), GFP_KERNEL);
	struct ecdma_rdma_recv_ec *re = kzalloc(sizeof(*re), GFP_KERNEL);
	struct ecdma_rdma_qp *q = t_net.q[0][1][0];
	struct ecdma_rdma_qp_addr a = { }, wa[2];
	struct kr_wait w;
	int bad = 0, i;

	kr_wait_init(&w);
	T_CHECK(!ecdma_rdma_dev_alive(rdev));
	/* still draining: the buffers are unmapped only after it */
	T_CHECK(READ_ONCE(reg->dma));

	T_CHECK(ecdma_rdma_dev_get(ecdma_rdma_dev_name(rdev)) ==
		ERR_PTR(-ENODEV));
	T_CHECK(T_WIN_KEEP(t_win.prov, ecdma_rdma_dev_provider(rdev)) ==
		-ENODEV);
	T_CHECK(T_WIN_KEEP(t_win.buf, ecdma_rdma_buf_alloc(rdev, T_BS)) ==
		-ENODEV);
	for (i = 0; i < 2; i++)
		T_CHECK(T_WIN_KEEP(t_win.qp[i],
				   ecdma_rdma_qp_create(rdev, &kr_qattr)) ==
			-ENODEV);
	/* should they exist, connect them: they must not read live later */
	if (t_win.qp[0] && t_win.qp[1] &&
	    !ecdma_rdma_qp_addr(t_win.qp[0], &wa[0]) &&
	    !ecdma_rdma_qp_addr(t_win.qp[1], &wa[1])) {
		ecdma_rdma_qp_connect(t_win.qp[0], &wa[1]);
		ecdma_rdma_qp_connect(t_win.qp[1], &wa[0]);
	}

	/* QPs made before: connected, and never connected */
	T_CHECK(ecdma_rdma_qp_addr(q, &a) == -ENODEV);
	T_CHECK(ecdma_rdma_qp_addr(t_idle[0], &a) == -ENODEV);
	T_CHECK(ecdma_rdma_qp_connect(t_idle[0], &t_idle_addr[1]) == -ENODEV);
	T_CHECK(ecdma_rdma_qp_connect(q, &t_idle_addr[1]) == -ENODEV);
	T_CHECK(ecdma_rdma_qp_state(q) == -ENODEV);
	T_CHECK(ecdma_rdma_qp_state(t_idle[0]) == -ENODEV);
	T_CHECK(!ecdma_rdma_qp_ib(q));
	T_CHECK(!ecdma_rdma_qp_ib(t_idle[0]));

	/* buffers made before: unregistered, and registered */
	T_CHECK(ecdma_rdma_buf_reg(q, t_hold.buf) == -ENODEV);
	T_CHECK(!t_hold.buf->rkey);
	T_CHECK(ecdma_rdma_buf_reg(q, reg) == -ENODEV);

	/* the primitives, well-formed, on QPs and buffers made before */
	if (es) {
		es->calc = t_calc;
		es->block_size = T_BS;
		for (i = 0; i < 6; i++) {
			es->blocks[i].buf = reg;
			es->blocks[i].off = i * T_BS;
			es->dest[i].qp = q;
		}
		T_CHECK(kr_submit(&w, &es->op, ecdma_rdma_ec_send(es)) ==
			-ENODEV);
	}
	if (res) {
		res->block_size = T_BS;
		res->nr_slices = 1;
		res->upstream = q;
		res->acc.buf = reg;
		T_CHECK(kr_submit(&w, &res->op, ecdma_rdma_recv_ec_send(res)) ==
			-ENODEV);
	}
	if (re) {
		re->calc = t_calc;
		re->block_size = T_BS;
		for (i = 0; i < 6; i++) {
			re->blocks[i].buf = reg;
			re->blocks[i].off = i * T_BS;
			if (i)
				re->src[i] = q;
		}
		re->erasures[0] = 1;
		T_CHECK(kr_submit(&w, &re->op, ecdma_rdma_recv_ec(re)) ==
			-ENODEV);
	}
	/* and the removal did not move on meanwhile */
	T_CHECK(READ_ONCE(reg->dma));
	T_CHECK(atomic_read(&t_hold.w.left) == 2);
	ktest_result(!bad, "new_calls_fail_enodev_while_draining");

	/* none should have started; one that did must end before the free */
	if (!kr_wait(&w, 60 * HZ)) {
		pr_info("# leaking a primitive that did not complete\n");
		return;
	}
	kfree(es);
	kfree(res);
	kfree(re);
}

/* After the removal: what the window made (if anything) reads dead */
static void test_window_objects_dead(void)
{
	int bad = 0, i;

	for (i = 0; i < 2; i++) {
		T_CHECK(ecdma_rdma_qp_state(t_idle[i]) == -ENODEV);
		T_CHECK(!ecdma_rdma_qp_ib(t_idle[i]));
		if (!t_win.qp[i])
			continue;
		T_CHECK(ecdma_rdma_qp_state(t_win.qp[i]) == -ENODEV);
		T_CHECK(!ecdma_rdma_qp_ib(t_win.qp[i]));
	}
	if (t_win.buf)
		T_CHECK(!t_win.buf->dma && !t_win.buf->lkey);
	ktest_result(!bad, "nothing_from_the_window_reads_live");
}

static void t_win_exit(void)
{
	int i;

	for (i = 0; i < 2; i++) {
		ecdma_rdma_qp_destroy(t_win.qp[i]);
		t_win.qp[i] = NULL;
	}
	ecdma_rdma_buf_free(t_win.buf);
	t_win.buf = NULL;
	ecdma_ec_provider_put(t_win.prov);
	t_win.prov = NULL;
}

static void test_after_removal(struct ecdma_rdma_dev *rdev,
			       struct ecdma_rdma_buf *reg)
{
	struct ecdma_rdma_ec_send *es = kzalloc(sizeof(*es), GFP_KERNEL);
	struct ecdma_rdma_qp *q = t_net.q[0][1][0];
	struct ecdma_rdma_buf *buf;
	int bad = 0, i;

	T_CHECK(!ecdma_rdma_dev_alive(rdev));
	T_CHECK(ecdma_rdma_qp_state(q) == -ENODEV);
	T_CHECK(!ecdma_rdma_qp_ib(q));
	/* the removal unmaps the buffers after the primitives completed */
	for (i = 0; i < 100 && READ_ONCE(reg->dma); i++)
		msleep(100);
	T_CHECK(!reg->rkey && !reg->lkey && !reg->dma);
	buf = ecdma_rdma_buf_alloc(rdev, 4096);
	T_CHECK(PTR_ERR(buf) == -ENODEV);
	T_CHECK(PTR_ERR(ecdma_rdma_qp_create(rdev, &kr_qattr)) == -ENODEV);
	T_CHECK(ecdma_rdma_buf_reg(q, reg) == -ENODEV);
	if (es) {
		es->op.done = kr_op_done;
		es->calc = t_calc;
		es->block_size = 4096;
		for (i = 0; i < 6; i++) {
			es->blocks[i].buf = reg;
			es->dest[i].qp = q;
		}
		T_CHECK(ecdma_rdma_ec_send(es) == -ENODEV);
	}
	T_CHECK(ecdma_rdma_dev_get(ecdma_rdma_dev_name(rdev)) ==
		ERR_PTR(-ENODEV));
	kfree(es);
	ktest_result(!bad, "calls_after_removal_fail_enodev");
}

/* The held ec-send ends once the hold is released, cut by the removal */
static bool test_held_ec_send(void)
{
	struct ecdma_rdma_ec_send *es = t_hold.es;
	int bad = 0;
	bool done;

	t_hold_release();
	done = kr_wait(&t_hold.w, 60 * HZ);
	T_CHECK(done);
	if (done) {
		T_CHECK(es->op.status == -ENODEV);
		/* the encode was cancelled: no code block was sent */
		T_CHECK(es->stripe_status[4] == -ECANCELED &&
			es->stripe_status[5] == -ECANCELED);
	}
	ktest_result(!bad, "held_ec_send_failed_enodev");
	return done;
}

static int __init ecdma_rdma_remove_test_init(void)
{
	struct ecdma_ec_calc_attr attr = kr_calc_attr(4, 2, false);
	struct ecdma_rdma_buf *reg = ERR_PTR(-ENOMEM);
	struct ecdma_ec_provider *prov;
	struct ecdma_rdma_dev *rdev;
	struct t_waiting *tw;
	bool removed = false;
	int bad = 0, ret, i, j;

	ktest_gf_init();
	prandom_seed_state(&t_rnd, get_random_u64());
	init_completion(&t_stream.first);
	init_completion(&t_stream.ended);
	tw = kzalloc(sizeof(*tw), GFP_KERNEL);
	rdev = ecdma_rdma_dev_get(dev);
	if (IS_ERR(rdev) || !tw) {
		kfree(tw);
		ecdma_rdma_dev_put(rdev);
		return ktest_abort("rdma_device_found");
	}
	prov = ecdma_rdma_dev_provider(rdev);
	t_calc = IS_ERR(prov) ? ERR_CAST(prov) :
		 ecdma_ec_alloc_calc(prov, &attr);
	ret = IS_ERR(t_calc) ? PTR_ERR(t_calc) :
	      kr_net_init(&t_net, rdev, T_NODES, KR_LANES, &kr_qattr);
	if (!ret) {
		reg = ecdma_rdma_buf_alloc(rdev, 65536);
		ret = IS_ERR(reg) ? PTR_ERR(reg) :
		      ecdma_rdma_buf_reg(t_net.q[1][0][0], reg);
	}
	for (i = 0; !ret && i < 2; i++) {
		t_idle[i] = ecdma_rdma_qp_create(rdev, &kr_qattr);
		ret = IS_ERR(t_idle[i]) ? PTR_ERR(t_idle[i]) :
		      ecdma_rdma_qp_addr(t_idle[i], &t_idle_addr[i]);
		if (IS_ERR(t_idle[i]))
			t_idle[i] = NULL;
	}
	ktest_result(!ret, "setup");
	if (ret)
		goto out;

	bad = t_waiting_start(tw);
	t_stream.task = kthread_run(t_stream_fn, NULL, "ecdma_rdma_rm");
	if (IS_ERR(t_stream.task)) {
		t_stream.task = NULL;
		bad++;
	} else {
		wait_for_completion(&t_stream.first);
		T_CHECK(t_stream.rounds_ok > 0);
	}
	T_CHECK(!t_hold_start(prov, &attr, reg));
	ktest_result(!bad, "work_in_flight");

	pr_info("removal: ready\n");
	/* only the removal completes the waiting work */
	removed = kr_wait(&tw->w, wait_s * HZ);
	bad = 0;
	T_CHECK(removed);
	if (!removed) {
		/* none came: stop the stream, then flush everything */
		t_hold_release();
		WRITE_ONCE(t_stream.stop, true);
		if (t_stream.task &&
		    !wait_for_completion_timeout(&t_stream.ended, 120 * HZ)) {
			ktest_result(false, "waiting_work_failed_enodev");
			goto out_leak;
		}
		kr_net_exit(&t_net);
		if (!wait_for_completion_timeout(&tw->w.done, 60 * HZ) ||
		    !kr_wait(&t_hold.w, 60 * HZ)) {
			ktest_result(false, "waiting_work_failed_enodev");
			goto out_leak;
		}
	}
	for (j = 0; j < 2; j++)
		T_CHECK(tw->re[j].op.status == -ENODEV);
	for (j = 0; j < 3; j++)
		T_CHECK(tw->hop[j].op.status == -ENODEV);
	ktest_result(!bad, "waiting_work_failed_enodev");

	bad = 0;
	if (t_stream.task) {
		T_CHECK(wait_for_completion_timeout(&t_stream.ended, 60 * HZ));
		kthread_stop(t_stream.task);
	}
	T_CHECK(!t_stream.hung && !t_stream.other && t_stream.enodev == 1);
	pr_info("# ec-send stream: %d rounds, then -ENODEV\n",
		t_stream.rounds_ok);
	ktest_result(!bad, "ec_send_stream_failed_enodev");
	if (t_stream.hung)
		goto out_leak;

	if (removed) {
		/* the held ec-send keeps the removal in its drain */
		test_while_draining(rdev, reg);
		if (!test_held_ec_send())
			goto out_leak;
		test_after_removal(rdev, reg);
		test_window_objects_dead();
	}
out:
	t_hold_exit();
	t_win_exit();
	for (i = 0; i < 2; i++)
		ecdma_rdma_qp_destroy(t_idle[i]);
	kr_net_exit(&t_net);
	if (!IS_ERR(reg))
		ecdma_rdma_buf_free(reg);
	if (!IS_ERR_OR_NULL(tw->buf))
		ecdma_rdma_buf_free(tw->buf);
	kfree(tw);
	if (!IS_ERR_OR_NULL(t_calc))
		ecdma_ec_dealloc_calc(t_calc);
	if (!IS_ERR(prov))
		ecdma_ec_provider_put(prov);
	ecdma_rdma_dev_put(rdev);
	return ktest_summary();
out_leak:
	/* something still points at this memory: keep it */
	pr_info("# leaking the test's state: work did not complete\n");
	/* the provider must not outlive the module: release, unregister */
	t_hold_release();
	if (t_hold.registered)
		ecdma_ec_provider_unregister(&t_hold_prov);
	return ktest_summary();
}

static void __exit ecdma_rdma_remove_test_exit(void)
{
}

module_init(ecdma_rdma_remove_test_init);
module_exit(ecdma_rdma_remove_test_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ecdma_rdma: device removal with primitives in flight");
MODULE_INFO(test, "Y");
ECDMA_MODULE_IMPORT_NS();
