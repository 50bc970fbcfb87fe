// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma_rdma benchmark on one RDMA device (Soft-RoCE in the VM; make
 * bench runs it through tools/bench/vm-rdma.sh).
 *
 *  - send: an RS(k,m) stripe from node 0 to its holders, with ec-send
 *    (data sent while the encode runs, code sent from its completion)
 *    against encode-then-send by hand on the same QPs (encode, wait, then
 *    send the k + m blocks);
 *  - repair: one lost block rebuilt at node 0, along a chain of the
 *    survivors' holders with recv-ec-send (in slices, and whole blocks)
 *    against central repair (k survivors sent to node 0, recv-ec): time,
 *    bytes node 0 received, bytes on the wire.
 *
 * The variants alternate round by round, so that host noise hits them
 * alike; each line gives the median and the range over the rounds and
 * the ratio of the medians.  Every result is checked (the stripe that
 * arrived, the rebuilt block); a wrong one fails the load.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/sort.h>

#include "ecdma_ktest.h"
#include "ecdma_rdma_ktest.h"

#define B_NODES		8
#define B_MAXROUNDS	32
#define B_TIMEOUT	(120 * HZ)

static char *dev;
module_param(dev, charp, 0444);
MODULE_PARM_DESC(dev, "RDMA device (default: the first RoCE device)");

static unsigned int rounds = 7;
module_param(rounds, uint, 0444);
MODULE_PARM_DESC(rounds, "rounds per variant (1..32)");

static unsigned int send_kib = 256;
module_param(send_kib, uint, 0444);
MODULE_PARM_DESC(send_kib, "block size of the send comparison, KiB");

static unsigned int repair_kib = 1024;
module_param(repair_kib, uint, 0444);
MODULE_PARM_DESC(repair_kib, "block size of the repair comparison, KiB");

static struct rnd_state b_rnd;
static struct ecdma_ec_provider *b_prov;
static struct kr_net b_net;
static bool b_broken;

/* Wait; on a timeout every QP is flushed (kr_wait_flush()): stop */
static bool b_wait(struct kr_wait *w)
{
	if (kr_wait_flush(&b_net, w, B_TIMEOUT) == KR_DONE)
		return true;
	b_broken = true;
	return false;
}

static int b_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* median, min and max in microseconds, sorting @t */
static void b_stats(u64 *t, int n, u64 *med, u64 *lo, u64 *hi)
{
	sort(t, n, sizeof(*t), b_cmp_u64, NULL);
	*med = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
	*lo = t[0];
	*hi = t[n - 1];
	*med /= 1000;
	*lo /= 1000;
	*hi /= 1000;
}

/* x / y as "a.bc" */
static void b_ratio(char *buf, size_t len, u64 x, u64 y)
{
	u64 r = y ? div64_u64(x * 100, y) : 0;

	snprintf(buf, len, "%llu.%02llu", r / 100, r % 100);
}

/* ---------------------------------------------------------------------- */
/* ec-send against encode-then-send by hand                               */
/* ---------------------------------------------------------------------- */

/* One stripe to its holders; returns ns from submission to the last block */
static s64 b_send_round(struct kr_stripe *st, bool by_hand, int *bad)
{
	struct ecdma_rdma_recv_ec_send *tx[KR_MAXB] = { };
	struct ecdma_rdma_ec_send *es = NULL;
	int i, n = st->k + st->m;
	struct ecdma_ec_sge sge[KR_MAXB];
	struct ecdma_ec_mem mem;
	struct kr_wait w;
	s64 t0, t = -1;

	es = kzalloc(sizeof(*es), GFP_KERNEL);
	for (i = 0; by_hand && i < n; i++)
		tx[i] = kzalloc(sizeof(*tx[i]), GFP_KERNEL);
	for (i = 0; i < n; i++)
		if (!es || (by_hand && !tx[i])) {
			(*bad)++;
			goto out;
		}
	kr_wait_init(&w);
	for (i = 0; i < n; i++) {
		kfree(st->rx[i]);
		st->rx[i] = NULL;
		memset(st->dst[i]->addr, 0, st->bs);
		if (kr_stripe_rx(&b_net, st, &w, i))
			(*bad)++;
		ktest_sge(&sge[i], st->src[i]->addr, st->bs);
	}
	for (i = st->k; i < n; i++)
		memset(st->src[i]->addr, 0, st->bs);

	t0 = ktime_get_ns();
	if (by_hand) {
		ktest_mem(&mem, sge, st->k, sge + st->k, st->m, st->bs);
		if (ecdma_ec_encode_sync(st->calc, &mem))
			(*bad)++;
		for (i = 0; i < n; i++) {
			tx[i]->block_size = st->bs;
			tx[i]->nr_slices = 1;
			tx[i]->acc.buf = st->src[i];
			tx[i]->downstream.qp = b_net.q[0][kr_holder(&b_net, i)]
						       [kr_lane(&b_net, i)];
			if (kr_submit(&w, &tx[i]->op,
				      ecdma_rdma_recv_ec_send(tx[i])))
				(*bad)++;
		}
	} else {
		for (i = 0; i < n; i++) {
			es->blocks[i].buf = st->src[i];
			es->dest[i].qp = b_net.q[0][kr_holder(&b_net, i)]
						[kr_lane(&b_net, i)];
		}
		es->calc = st->calc;
		es->block_size = st->bs;
		if (kr_submit(&w, &es->op, ecdma_rdma_ec_send(es)))
			(*bad)++;
	}
	if (!b_wait(&w)) {
		(*bad)++;
		return -1;
	}
	t = ktime_get_ns() - t0;
	for (i = 0; i < n; i++)
		if (st->rx[i]->op.status || !kr_block_ok(st, i) ||
		    (tx[i] && tx[i]->op.status))
			(*bad)++;
	if (!by_hand && es->op.status)
		(*bad)++;
out:
	for (i = 0; i < n; i++)
		kfree(tx[i]);
	kfree(es);
	return t;
}

static int bench_send(int k, int m, u32 bs)
{
	struct ecdma_ec_calc *calc = kr_calc(b_prov, k, m, false);
	u64 t_es[B_MAXROUNDS], t_hand[B_MAXROUNDS], me, le, he, mh, lh, hh;
	struct kr_stripe st;
	char ratio[32];
	int bad = 0, r;
	s64 t;

	if (IS_ERR(calc) || kr_stripe_alloc(&b_net, &st, calc, bs, &b_rnd)) {
		if (!IS_ERR(calc))
			ecdma_ec_dealloc_calc(calc);
		return 1;
	}
	for (r = 0; r < rounds && !bad && !b_broken; r++) {
		/* alternate which goes first */
		t = b_send_round(&st, r & 1, &bad);
		if (r & 1)
			t_hand[r] = t;
		else
			t_es[r] = t;
		t = b_send_round(&st, !(r & 1), &bad);
		if (r & 1)
			t_es[r] = t;
		else
			t_hand[r] = t;
	}
	if (!bad && !b_broken) {
		b_stats(t_es, rounds, &me, &le, &he);
		b_stats(t_hand, rounds, &mh, &lh, &hh);
		b_ratio(ratio, sizeof(ratio), mh, me);
		pr_info("# rdma-bench send rs%d_%d block=%u ec_send_us=%llu [%llu..%llu] by_hand_us=%llu [%llu..%llu] by_hand/ec_send=%s\n",
			k, m, bs, me, le, he, mh, lh, hh, ratio);
	}
	if (!b_broken)
		kr_stripe_free(&st);
	ecdma_ec_dealloc_calc(calc);
	return bad;
}

/* ---------------------------------------------------------------------- */
/* Chain repair against central repair                                    */
/* ---------------------------------------------------------------------- */

struct b_repair {
	struct ecdma_ec_calc *calc;
	int k, m;
	u32 bs;
	int lost;
	struct ecdma_rdma_buf *blk[KR_MAXB];
	struct ecdma_rdma_buf *out;
	struct ecdma_rdma_buf *scratch[KR_MAXB];	/* node 0, central */
	struct ecdma_rdma_buf *acc[B_NODES];		/* per hop */
	int surv[KR_MAXK];
	u8 coef[KR_MAXK];
};

static void b_repair_free(struct b_repair *rp)
{
	int i;

	for (i = 0; i < KR_MAXB; i++) {
		ecdma_rdma_buf_free(rp->blk[i]);
		ecdma_rdma_buf_free(rp->scratch[i]);
	}
	for (i = 0; i < B_NODES; i++)
		ecdma_rdma_buf_free(rp->acc[i]);
	ecdma_rdma_buf_free(rp->out);
}

static int b_repair_init(struct b_repair *rp, int k, int m, u32 bs, int lost)
{
	struct ecdma_ec_sge sge[KR_MAXB];
	struct ecdma_ec_mem mem;
	int i, t;

	rp->k = k;
	rp->m = m;
	rp->bs = bs;
	rp->lost = lost;
	rp->calc = kr_calc(b_prov, k, m, false);
	if (IS_ERR(rp->calc))
		return -1;
	for (i = 0; i < k + m; i++) {
		rp->blk[i] = kr_buf(b_net.dev, bs, &b_rnd);
		rp->scratch[i] = ecdma_rdma_buf_alloc(b_net.dev, bs);
		if (IS_ERR(rp->blk[i]) || IS_ERR(rp->scratch[i]))
			return -1;
		ktest_sge(&sge[i], rp->blk[i]->addr, bs);
	}
	for (i = 0; i < B_NODES; i++) {
		rp->acc[i] = ecdma_rdma_buf_alloc(b_net.dev, bs);
		if (IS_ERR(rp->acc[i]))
			return -1;
	}
	rp->out = ecdma_rdma_buf_alloc(b_net.dev, bs);
	if (IS_ERR(rp->out))
		return -1;
	ktest_mem(&mem, sge, k, sge + k, m, bs);
	if (ecdma_ec_encode_sync(rp->calc, &mem))
		return -1;
	for (i = 0, t = 0; t < k; i++)
		if (i != lost)
			rp->surv[t++] = i;
	return kr_decode_coefs(k, m, ecdma_ec_calc_matrix(rp->calc), rp->surv,
			       lost, rp->coef);
}

/* Chain through the survivors' holders to node 0; returns ns. */
static s64 b_chain(struct b_repair *rp, u32 slices, int *bad)
{
	struct ecdma_rdma_recv_ec_send *hop[B_NODES + 1] = { };
	int node[B_NODES + 1], nh = 0, t, j;
	struct kr_wait w;
	s64 t0, ret = -1;

	for (t = 0; t < rp->k; t++) {
		int h = kr_holder(&b_net, rp->surv[t]);

		for (j = 0; j < nh && node[j] != h; j++)
			;
		if (j == nh)
			node[nh++] = h;
	}
	node[nh] = 0;
	for (j = 0; j <= nh; j++) {
		hop[j] = kzalloc(sizeof(*hop[j]), GFP_KERNEL);
		if (!hop[j])
			goto out;
	}
	memset(rp->out->addr, 0, rp->bs);
	kr_wait_init(&w);
	t0 = ktime_get_ns();
	for (j = nh; j >= 0; j--) {
		struct ecdma_rdma_recv_ec_send *r = hop[j];

		r->calc = rp->calc;
		r->block_size = rp->bs;
		r->nr_slices = slices;
		r->op.timeout_ms = 60000;
		r->upstream = j ? b_net.q[node[j]][node[j - 1]][0] : NULL;
		r->acc.buf = j == nh ? rp->out : rp->acc[j];
		if (j < nh) {
			r->downstream.qp = b_net.q[node[j]][node[j + 1]][0];
			for (t = 0; t < rp->k; t++) {
				if (kr_holder(&b_net, rp->surv[t]) != node[j])
					continue;
				r->local[r->nr_local].buf = rp->blk[rp->surv[t]];
				r->coef[r->nr_local++] = rp->coef[t];
			}
		}
		if (kr_submit(&w, &r->op, ecdma_rdma_recv_ec_send(r)))
			(*bad)++;
	}
	if (!b_wait(&w)) {
		(*bad)++;
		return -1;	/* the hops may still be referenced: keep them */
	}
	ret = ktime_get_ns() - t0;
	for (j = 0; j <= nh; j++)
		if (hop[j]->op.status)
			(*bad)++;
	if (memcmp(rp->out->addr, rp->blk[rp->lost]->addr, rp->bs))
		(*bad)++;
out:
	for (j = 0; j <= nh; j++)
		kfree(hop[j]);
	return ret;
}

/* The k survivors sent as they are to node 0, which decodes; returns ns. */
static s64 b_central(struct b_repair *rp, int *bad)
{
	struct ecdma_rdma_recv_ec_send *tx[KR_MAXK] = { };
	struct ecdma_rdma_recv_ec *re;
	struct kr_wait w;
	int i, t, s;
	s64 t0, ret = -1;

	re = kzalloc(sizeof(*re), GFP_KERNEL);
	for (t = 0; t < rp->k; t++) {
		tx[t] = kzalloc(sizeof(*tx[t]), GFP_KERNEL);
		if (!tx[t])
			goto out;
	}
	if (!re)
		goto out;
	memset(rp->out->addr, 0, rp->bs);
	re->calc = rp->calc;
	re->block_size = rp->bs;
	re->op.timeout_ms = 60000;
	for (i = 0; i < rp->k + rp->m; i++)
		re->blocks[i].buf = i == rp->lost ? rp->out : rp->scratch[i];
	re->erasures[rp->lost] = 1;
	for (t = 0; t < rp->k; t++) {
		s = rp->surv[t];
		re->src[s] = b_net.q[0][kr_holder(&b_net, s)][kr_lane(&b_net, s)];
		tx[t]->block_size = rp->bs;
		tx[t]->nr_slices = 1;
		tx[t]->acc.buf = rp->blk[s];
		tx[t]->downstream.qp =
			b_net.q[kr_holder(&b_net, s)][0][kr_lane(&b_net, s)];
	}
	kr_wait_init(&w);
	t0 = ktime_get_ns();
	if (kr_submit(&w, &re->op, ecdma_rdma_recv_ec(re)))
		(*bad)++;
	for (t = 0; t < rp->k; t++)
		if (kr_submit(&w, &tx[t]->op, ecdma_rdma_recv_ec_send(tx[t])))
			(*bad)++;
	if (!b_wait(&w)) {
		(*bad)++;
		return -1;
	}
	ret = ktime_get_ns() - t0;
	if (re->op.status ||
	    memcmp(rp->out->addr, rp->blk[rp->lost]->addr, rp->bs))
		(*bad)++;
	for (t = 0; t < rp->k; t++)
		if (tx[t]->op.status)
			(*bad)++;
out:
	for (t = 0; t < rp->k; t++)
		kfree(tx[t]);
	kfree(re);
	return ret;
}

static int bench_repair(int k, int m, u32 bs, u32 slices, int lost)
{
	static const char *const name[] = { "chain_sliced", "chain_whole",
					    "central" };
	/* module init is the only user: no need for the stack */
	static u64 t[3][B_MAXROUNDS];
	static struct b_repair rp;
	u64 rx[3], wire[3], med[3], lo[3], hi[3];
	char r1[32], r2[32];
	int bad = 0, r, v, i;

	memset(&rp, 0, sizeof(rp));
	if (b_repair_init(&rp, k, m, bs, lost)) {
		b_repair_free(&rp);
		if (!IS_ERR_OR_NULL(rp.calc))
			ecdma_ec_dealloc_calc(rp.calc);
		return 1;
	}
	for (r = 0; r < rounds && !bad && !b_broken; r++) {
		for (i = 0; i < 3; i++) {
			u64 rx0 = kr_node_bytes(&b_net, 0, false);
			u64 wire0 = kr_wire_bytes(&b_net);
			s64 ns;

			/* rotate the order round by round */
			v = (i + r) % 3;
			ns = v == 2 ? b_central(&rp, &bad) :
			     b_chain(&rp, v ? 1 : slices, &bad);
			t[v][r] = ns;
			rx[v] = kr_node_bytes(&b_net, 0, false) - rx0;
			wire[v] = kr_wire_bytes(&b_net) - wire0;
		}
	}
	if (!bad && !b_broken) {
		for (v = 0; v < 3; v++) {
			b_stats(t[v], rounds, &med[v], &lo[v], &hi[v]);
			pr_info("# rdma-bench repair rs%d_%d block=%u %s slices=%u us=%llu [%llu..%llu] repairer_rx=%llu wire=%llu\n",
				k, m, bs, name[v], v == 0 ? slices : 1,
				med[v], lo[v], hi[v], rx[v], wire[v]);
		}
		b_ratio(r1, sizeof(r1), med[2], med[0]);
		b_ratio(r2, sizeof(r2), med[1], med[0]);
		pr_info("# rdma-bench repair rs%d_%d block=%u central/chain_sliced=%s chain_whole/chain_sliced=%s\n",
			k, m, bs, r1, r2);
	}
	if (!b_broken)
		b_repair_free(&rp);
	ecdma_ec_dealloc_calc(rp.calc);
	return bad;
}

static int __init ecdma_rdma_bench_init(void)
{
	struct ecdma_rdma_dev *rdev;
	int ret;

	ktest_gf_init();
	prandom_seed_state(&b_rnd, get_random_u64());
	if (!rounds || rounds > B_MAXROUNDS || !send_kib || send_kib > 4096 ||
	    !repair_kib || repair_kib > 4096)
		return ktest_abort("parameters");
	rdev = ecdma_rdma_dev_get(dev);
	if (IS_ERR(rdev))
		return ktest_abort("rdma_device_found");
	b_prov = ecdma_rdma_dev_provider(rdev);
	ret = IS_ERR(b_prov) ? PTR_ERR(b_prov) :
	      kr_net_init(&b_net, rdev, B_NODES, KR_LANES, &kr_qattr);
	ktest_result(!ret, "setup");
	if (ret)
		goto out;

	ktest_result(!bench_send(4, 2, send_kib << 10), "send_rs4_2");
	if (!b_broken)
		ktest_result(!bench_send(10, 4, send_kib << 10), "send_rs10_4");
	if (!b_broken)
		ktest_result(!bench_repair(4, 2, repair_kib << 10, 8, 1),
			     "repair_rs4_2");
	if (!b_broken)
		ktest_result(!bench_repair(10, 4, repair_kib << 10, 8, 3),
			     "repair_rs10_4");
out:
	kr_net_exit(&b_net);
	if (!IS_ERR_OR_NULL(b_prov))
		ecdma_ec_provider_put(b_prov);
	ecdma_rdma_dev_put(rdev);
	return ktest_summary();
}

static void __exit ecdma_rdma_bench_exit(void)
{
}

module_init(ecdma_rdma_bench_init);
module_exit(ecdma_rdma_bench_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ecdma_rdma benchmark: ec-send against encode-then-send, chain against central repair");
MODULE_INFO(test, "Y");
ECDMA_MODULE_IMPORT_NS();
