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
 * Runs at load, prints KTAP lines and fails the load when a test failed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/random.h>

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

static const struct ecdma_rdma_qp_attr t_qattr = {
	.send_depth = 64,
	.recv_depth = 64,
	.retry_cnt = 6,
	.rnr_retry = 7,
	.timeout = 14,
};

#define T_CHECK(cond) do {						\
		if (!(cond)) {						\
			pr_info("# %s:%d: failed: %s\n", __func__,	\
				__LINE__, #cond);			\
			bad++;						\
		}							\
	} while (0)

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
	T_CHECK(PTR_ERR(ecdma_rdma_qp_create(rdev, &t_qattr)) == -ENODEV);
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

static int __init ecdma_rdma_remove_test_init(void)
{
	struct ecdma_ec_calc_attr attr = {
		.k = 4,
		.m = 2,
		.w = 8,
		.max_inflight = 256,
		.affinity_hint = -1,
		.matrix_type = ECDMA_EC_MATRIX_CAUCHY,
	};
	struct ecdma_rdma_buf *reg = ERR_PTR(-ENOMEM);
	struct ecdma_ec_provider *prov;
	struct ecdma_rdma_dev *rdev;
	struct t_waiting *tw;
	bool removed = false;
	int bad = 0, ret, j;

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
	      kr_net_init(&t_net, rdev, T_NODES, KR_LANES, &t_qattr);
	if (!ret) {
		reg = ecdma_rdma_buf_alloc(rdev, 65536);
		ret = IS_ERR(reg) ? PTR_ERR(reg) :
		      ecdma_rdma_buf_reg(t_net.q[1][0][0], reg);
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
	ktest_result(!bad, "work_in_flight");

	pr_info("removal: ready\n");
	/* only the removal completes the waiting work */
	removed = kr_wait(&tw->w, wait_s * HZ);
	bad = 0;
	T_CHECK(removed);
	if (!removed) {
		/* none came: stop the stream, then flush everything */
		WRITE_ONCE(t_stream.stop, true);
		if (t_stream.task &&
		    !wait_for_completion_timeout(&t_stream.ended, 120 * HZ)) {
			ktest_result(false, "waiting_work_failed_enodev");
			goto out_leak;
		}
		kr_net_exit(&t_net);
		if (!wait_for_completion_timeout(&tw->w.done, 60 * HZ)) {
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

	if (removed)
		test_after_removal(rdev, reg);
out:
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
MODULE_IMPORT_NS(ECDMA);
