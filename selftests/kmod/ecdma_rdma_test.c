// SPDX-License-Identifier: GPL-2.0
/*
 * In-kernel test of ecdma_rdma (include/ecdma/ec_rdma.h) on a real RDMA
 * device (Soft-RoCE in the VM), through the exported API only.
 *
 * Eight "nodes" on the one device, every two joined by two RC QP pairs,
 * each node with its own buffers:
 *  - ec-send of RS(4,2) and RS(10,4) stripes of 4 KiB..1 MiB from node 0
 *    to the holders of the k + m blocks, by SEND and by RDMA WRITE into
 *    fast-registered buffers; the holders' blocks are checked byte for
 *    byte against the source and a reference encode, and by VALIDATE
 *    (which must also catch a corrupted byte);
 *  - the verbs-shaped ecdma_ec_encode_send() on the same QPs;
 *  - a lost block repaired along a chain of the survivors' holders with
 *    recv-ec-send (whole blocks and in slices), and centrally with
 *    recv-ec; byte-exact, and the repairing node receives one block
 *    (chain) or k blocks (central);
 * Misuse and faults are in ecdma_rdma_fault_test, device removal in
 * ecdma_rdma_remove_test.
 *
 * Runs at load, prints KTAP lines and fails the load when a test failed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/random.h>

#include "ecdma_ktest.h"
#include "ecdma_rdma_ktest.h"

#define T_NODES		8
#define T_TIMEOUT	(120 * HZ)

static char *dev;
module_param(dev, charp, 0444);
MODULE_PARM_DESC(dev, "RDMA device (default: the first RoCE device)");

static struct rnd_state t_rnd;
static struct ecdma_ec_provider *t_prov;
static struct kr_net t_net;
/* a wait timed out: the QPs are gone, stop testing */
static bool t_hung;

/* Wait; on a timeout flush everything so nothing points at us any more. */
static bool t_wait(struct kr_wait *w)
{
	enum kr_wait_end end = kr_wait_flush(&t_net, w, T_TIMEOUT);

	if (end == KR_DONE)
		return true;
	/* the QPs are gone: stop testing */
	t_hung = true;
	if (end == KR_STUCK)
		pr_info("# ... and still after flushing every QP\n");
	return false;
}

/* ---------------------------------------------------------------------- */
/* ec-send                                                                */
/* ---------------------------------------------------------------------- */

/* One stripe from node 0; block i by RDMA WRITE when bit i of @writes. */
static int t_ec_send_one(struct ecdma_ec_calc *calc, u32 bs, u32 writes)
{
	struct ecdma_rdma_ec_send *es;
	struct kr_stripe st;
	struct kr_wait w;
	int bad = 0, i, n, h, l;
	long res;

	es = kzalloc(sizeof(*es), GFP_KERNEL);
	if (!es || kr_stripe_alloc(&t_net, &st, calc, bs, &t_rnd)) {
		kfree(es);
		return 1;
	}
	n = st.k + st.m;
	kr_wait_init(&w);
	for (i = 0; i < n; i++) {
		h = kr_holder(&t_net, i);
		l = kr_lane(&t_net, i);
		es->blocks[i].buf = st.src[i];
		es->dest[i].qp = t_net.q[0][h][l];
		if (writes & BIT(i)) {
			T_CHECK(!ecdma_rdma_buf_reg(t_net.q[h][0][l], st.dst[i]));
			T_CHECK(st.dst[i]->rkey);
			es->dest[i].write = true;
			es->dest[i].remote_addr = st.dst[i]->iova;
			es->dest[i].rkey = st.dst[i]->rkey;
		} else {
			T_CHECK(!kr_stripe_rx(&t_net, &st, &w, i));
		}
	}
	/* the code blocks hold garbage until encoded */
	for (i = st.k; i < n; i++)
		memset(st.src[i]->addr, 0xa5, bs);
	es->calc = calc;
	es->block_size = bs;
	T_CHECK(!kr_submit(&w, &es->op, ecdma_rdma_ec_send(es)));
	if (!t_wait(&w))
		return bad + 1;

	T_CHECK(es->op.status == 0);
	for (i = 0; i < n; i++) {
		T_CHECK(es->stripe_status[i] == 0);
		T_CHECK(!st.rx[i] || st.rx[i]->op.status == 0);
		T_CHECK(kr_block_ok(&st, i));
	}
	res = kr_validate(&st);
	T_CHECK(res == 0);
	/* VALIDATE sees a corrupted byte in the last code block */
	((u8 *)st.dst[n - 1]->addr)[bs / 2] ^= 0x40;
	res = kr_validate(&st);
	T_CHECK(res == BIT(st.m - 1));

	for (i = 0; i < n; i++)
		if (writes & BIT(i)) {
			h = kr_holder(&t_net, i);
			ecdma_rdma_buf_unreg(t_net.q[h][0][kr_lane(&t_net, i)],
					     st.dst[i]);
			T_CHECK(!st.dst[i]->rkey);
		}
	kr_stripe_free(&st);
	kfree(es);
	return bad;
}

static void test_ec_send(int k, int m, const u32 *sizes, int nsizes)
{
	struct ecdma_ec_calc *calc = kr_calc(t_prov, k, m, false);
	char name[64];
	int s, bad;

	for (s = 0; s < nsizes && !t_hung; s++) {
		bad = IS_ERR(calc);
		/*
		 * SEND everywhere at the first size; SEND and RDMA WRITE
		 * alternating over the blocks at every size (the byte-wise
		 * reference dominates the time of the big ones)
		 */
		if (!bad && !s)
			bad = t_ec_send_one(calc, sizes[s], 0);
		if (!bad)
			bad = t_ec_send_one(calc, sizes[s], 0x55555555);
		snprintf(name, sizeof(name), "ec_send_rs%d_%d_%u", k, m,
			 sizes[s]);
		ktest_result(!bad, name);
	}
	if (!IS_ERR(calc))
		ecdma_ec_dealloc_calc(calc);
}

/* ---------------------------------------------------------------------- */
/* The verbs-shaped ecdma_ec_encode_send() on the same QPs                */
/* ---------------------------------------------------------------------- */

struct t_vsend;

struct t_vcqe {
	struct ib_cqe cqe;
	struct t_vsend *v;
};

struct t_vsend {
	struct t_vcqe cqe[ECDMA_RDMA_MAX_BLOCKS];
	atomic_t ok;
	struct ecdma_ec_comp comp;
	struct kr_wait *w;
};

static void t_vsend_wc(struct ib_cq *cq, struct ib_wc *wc)
{
	struct t_vsend *v = container_of(wc->wr_cqe, struct t_vcqe, cqe)->v;

	if (wc->status == IB_WC_SUCCESS)
		atomic_inc(&v->ok);
	if (atomic_dec_and_test(&v->w->left))
		complete(&v->w->done);
}

static void t_vsend_comp(struct ecdma_ec_comp *comp)
{
	struct t_vsend *v = container_of(comp, struct t_vsend, comp);

	if (atomic_dec_and_test(&v->w->left))
		complete(&v->w->done);
}

static void test_encode_send_verbs(void)
{
	struct ecdma_ec_calc *calc = kr_calc(t_prov, 4, 2, false);
	struct ecdma_ec_stripe ds[4], cs[2];
	struct ecdma_ec_caps caps;
	struct ecdma_ec_sge sge[6];
	struct ib_send_wr swr[6];
	struct ib_sge isge[6];
	struct ecdma_ec_mem mem;
	struct t_vsend *v;
	struct kr_stripe st;
	struct kr_wait w;
	u32 bs = 16384 + 64;
	int bad = 0, i;

	/* the verbs' encode_send takes kernel addresses: CPU providers */
	if (ecdma_ec_query_caps(t_prov, &caps) ||
	    !(caps.flags & ECDMA_EC_CAP_ENCODE_SEND)) {
		ktest_result_diag(true, "encode_send_verbs_on_qps",
				  "SKIP the engine has no encode_send");
		v = NULL;
		goto out_calc;
	}
	v = kzalloc(sizeof(*v), GFP_KERNEL);
	if (IS_ERR(calc) || !v ||
	    kr_stripe_alloc(&t_net, &st, calc, bs, &t_rnd)) {
		ktest_result(false, "encode_send_verbs_on_qps");
		goto out_calc;
	}
	kr_wait_init(&w);
	v->w = &w;
	for (i = 0; i < 6; i++) {
		T_CHECK(!kr_stripe_rx(&t_net, &st, &w, i));
		ktest_sge(&sge[i], st.src[i]->addr, bs);
		isge[i].addr = st.src[i]->dma;
		isge[i].length = bs;
		isge[i].lkey = st.src[i]->lkey;
		memset(&swr[i], 0, sizeof(swr[i]));
		v->cqe[i].cqe.done = t_vsend_wc;
		v->cqe[i].v = v;
		swr[i].wr_cqe = &v->cqe[i].cqe;
		swr[i].sg_list = &isge[i];
		swr[i].num_sge = 1;
		swr[i].opcode = IB_WR_SEND;
		swr[i].send_flags = IB_SEND_SIGNALED;
		if (i < 4) {
			ds[i].qp = ecdma_rdma_qp_ib(t_net.q[0][kr_holder(&t_net, i)]
							  [kr_lane(&t_net, i)]);
			ds[i].wr = &swr[i];
		} else {
			cs[i - 4].qp = ecdma_rdma_qp_ib(t_net.q[0][kr_holder(&t_net, i)]
							      [kr_lane(&t_net, i)]);
			cs[i - 4].wr = &swr[i];
		}
	}
	ktest_mem(&mem, sge, 4, sge + 4, 2, bs);
	/* the six sends and the comp */
	atomic_add(7, &w.left);
	v->comp.done = t_vsend_comp;
	if (ecdma_ec_encode_send(calc, &mem, ds, cs, &v->comp)) {
		bad++;
		atomic_sub(7, &w.left);
	}
	if (!t_wait(&w)) {
		ktest_result(false, "encode_send_verbs_on_qps");
		return;
	}
	T_CHECK(v->comp.status == 0 && atomic_read(&v->ok) == 6);
	for (i = 0; i < 6; i++)
		T_CHECK(st.rx[i]->op.status == 0 && kr_block_ok(&st, i));
	T_CHECK(kr_validate(&st) == 0);
	ktest_result(!bad, "encode_send_verbs_on_qps");
	kr_stripe_free(&st);
out_calc:
	kfree(v);
	if (!IS_ERR(calc))
		ecdma_ec_dealloc_calc(calc);
}

/* ---------------------------------------------------------------------- */
/* Repair: chain (recv-ec-send) and central (recv-ec)                     */
/* ---------------------------------------------------------------------- */

/**
 * struct t_repair - a stripe spread over its holders, one block lost
 * @calc: k, m and the matrix
 * @bs: block size
 * @blk: block i, on node kr_holder(i)
 * @lost: the lost block
 * @surv: the first k other blocks
 * @coef: lost = sum coef[t] * blk[surv[t]]
 * @out: the repaired block, at node 0
 */
struct t_repair {
	struct ecdma_ec_calc *calc;
	u32 bs;
	struct ecdma_rdma_buf *blk[ECDMA_RDMA_MAX_BLOCKS];
	int lost;
	int surv[KR_MAXK];
	u8 coef[KR_MAXK];
	struct ecdma_rdma_buf *out;
};

static void t_repair_free(struct t_repair *rp)
{
	int i;

	for (i = 0; i < ECDMA_RDMA_MAX_BLOCKS; i++)
		ecdma_rdma_buf_free(rp->blk[i]);
	ecdma_rdma_buf_free(rp->out);
}

/* Encode a random stripe in place on the holders; 0 or -1 */
static int t_repair_init(struct t_repair *rp, struct ecdma_ec_calc *calc,
			 u32 bs, int lost)
{
	int k = ecdma_ec_calc_k(calc), m = ecdma_ec_calc_m(calc), i, t;
	struct ecdma_ec_sge sge[ECDMA_RDMA_MAX_BLOCKS];
	struct ecdma_ec_calc *twin;
	struct ecdma_ec_mem mem;

	memset(rp, 0, sizeof(*rp));
	rp->calc = calc;
	rp->bs = bs;
	rp->lost = lost;
	for (i = 0; i < k + m; i++) {
		rp->blk[i] = kr_buf(t_net.dev, bs, &t_rnd);
		if (IS_ERR(rp->blk[i]))
			return -1;
		ktest_sge(&sge[i], rp->blk[i]->addr, bs);
	}
	rp->out = ecdma_rdma_buf_alloc(t_net.dev, bs);
	if (IS_ERR(rp->out))
		return -1;
	memset(rp->out->addr, 0, bs);
	ktest_mem(&mem, sge, k, sge + k, m, bs);
	/* kernel addresses: encoded on a CPU twin of @calc */
	twin = kr_cpu_twin(calc);
	if (IS_ERR(twin))
		return -1;
	t = ecdma_ec_encode_sync(twin, &mem);
	ecdma_ec_dealloc_calc(twin);
	if (t)
		return -1;
	for (i = 0, t = 0; t < k; i++)
		if (i != lost)
			rp->surv[t++] = i;
	return kr_decode_coefs(k, m, ecdma_ec_calc_matrix(calc), rp->surv,
			       lost, rp->coef) ? -1 : 0;
}

/*
 * The chain: the survivors' holders, in order of first survivor, each
 * adding its blocks times their coefficients; the last one sends to node
 * 0, which only receives.  Returns the number of hops (0 on error).
 */
static int t_chain(struct t_repair *rp, u32 slices, unsigned int timeout_ms,
		   struct ecdma_rdma_recv_ec_send **hop, struct kr_wait *w,
		   int *bad)
{
	int k = ecdma_ec_calc_k(rp->calc), node[KR_MAXK + 1], nh = 0, t, j;
	struct ecdma_rdma_recv_ec_send *r;

	for (t = 0; t < k; t++) {
		int h = kr_holder(&t_net, rp->surv[t]);

		if (!nh || node[nh - 1] != h) {
			for (j = 0; j < nh && node[j] != h; j++)
				;
			if (j == nh)
				node[nh++] = h;
		}
	}
	node[nh] = 0;		/* the repairing node */
	for (j = nh; j >= 0; j--) {
		r = kzalloc(sizeof(*r), GFP_KERNEL);
		if (!r)
			return 0;
		hop[j] = r;
		r->calc = rp->calc;
		r->block_size = rp->bs;
		r->nr_slices = slices;
		r->op.timeout_ms = timeout_ms;
		r->upstream = j ? t_net.q[node[j]][node[j - 1]][0] : NULL;
		if (j == nh) {
			r->acc.buf = rp->out;
		} else {
			r->acc.buf = ecdma_rdma_buf_alloc(t_net.dev, rp->bs);
			if (IS_ERR(r->acc.buf)) {
				r->acc.buf = NULL;
				return 0;
			}
			r->downstream.qp = t_net.q[node[j]][node[j + 1]][0];
			for (t = 0; t < k; t++) {
				if (kr_holder(&t_net, rp->surv[t]) != node[j])
					continue;
				r->local[r->nr_local].buf = rp->blk[rp->surv[t]];
				r->coef[r->nr_local++] = rp->coef[t];
			}
		}
		/* downstream first: its receives are posted when data comes */
		if (kr_submit(w, &r->op, ecdma_rdma_recv_ec_send(r)))
			(*bad)++;
	}
	return nh;
}

static void t_chain_free(struct ecdma_rdma_recv_ec_send **hop, int n)
{
	int j;

	for (j = 0; j <= n; j++) {
		if (!hop[j])
			continue;
		/* the last hop's acc is the repair's output */
		if (hop[j]->downstream.qp)
			ecdma_rdma_buf_free(hop[j]->acc.buf);
		kfree(hop[j]);
		hop[j] = NULL;
	}
}

static void test_chain_repair(int k, int m, u32 bs, u32 slices, int lost)
{
	struct ecdma_rdma_recv_ec_send *hop[KR_MAXK + 1] = { };
	struct ecdma_ec_calc *calc = kr_calc(t_prov, k, m, false);
	u64 rx0, wire0, rx, wire;
	struct t_repair rp = { };
	struct kr_wait w;
	int bad = 0, nh = 0, j;
	char name[80];

	snprintf(name, sizeof(name), "chain_repair_rs%d_%d_%u_slices%u_lost%d",
		 k, m, bs, slices, lost);
	if (IS_ERR(calc) || t_repair_init(&rp, calc, bs, lost)) {
		ktest_result(false, name);
		goto out;
	}
	kr_wait_init(&w);
	rx0 = kr_node_bytes(&t_net, 0, false);
	wire0 = kr_wire_bytes(&t_net);
	nh = t_chain(&rp, slices, 60000, hop, &w, &bad);
	T_CHECK(nh > 0);
	if (!t_wait(&w)) {
		ktest_result(false, name);
		return;
	}
	for (j = 0; j <= nh && hop[j]; j++)
		T_CHECK(hop[j]->op.status == 0);
	T_CHECK(!memcmp(rp.out->addr, rp.blk[lost]->addr, bs));
	/* node 0 received one block; each hop sent one */
	rx = kr_node_bytes(&t_net, 0, false) - rx0;
	wire = kr_wire_bytes(&t_net) - wire0;
	T_CHECK(rx == bs);
	T_CHECK(wire == (u64)nh * bs);
	pr_info("# %s: %d hops, node 0 received %llu, wire %llu\n", name, nh,
		rx, wire);
	ktest_result(!bad, name);
out:
	t_chain_free(hop, nh);
	if (!IS_ERR(calc)) {
		t_repair_free(&rp);
		ecdma_ec_dealloc_calc(calc);
	}
}

static void test_central_repair(int k, int m, u32 bs, int lost)
{
	struct ecdma_rdma_recv_ec_send *tx[KR_MAXK] = { };
	struct ecdma_ec_calc *calc = kr_calc(t_prov, k, m, false);
	struct ecdma_rdma_buf *rb[ECDMA_RDMA_MAX_BLOCKS] = { };
	struct ecdma_rdma_recv_ec *re = NULL;
	u64 rx0, wire0, rx, wire;
	struct t_repair rp = { };
	struct kr_wait w;
	int bad = 0, t, i, s;
	char name[64];

	snprintf(name, sizeof(name), "central_repair_rs%d_%d_%u_lost%d", k, m,
		 bs, lost);
	re = kzalloc(sizeof(*re), GFP_KERNEL);
	if (!re || IS_ERR(calc) || t_repair_init(&rp, calc, bs, lost)) {
		ktest_result(false, name);
		goto out;
	}
	kr_wait_init(&w);
	rx0 = kr_node_bytes(&t_net, 0, false);
	wire0 = kr_wire_bytes(&t_net);
	/* node 0 receives the survivors into its own buffers and decodes */
	re->calc = calc;
	re->block_size = bs;
	re->op.timeout_ms = 60000;
	for (i = 0; i < k + m; i++) {
		rb[i] = i == lost ? rp.out : ecdma_rdma_buf_alloc(t_net.dev, bs);
		if (IS_ERR(rb[i])) {
			rb[i] = NULL;
			bad++;
			goto wait;
		}
		re->blocks[i].buf = rb[i];
	}
	re->erasures[lost] = 1;
	for (t = 0; t < k; t++) {
		s = rp.surv[t];
		re->src[s] = t_net.q[0][kr_holder(&t_net, s)][kr_lane(&t_net, s)];
	}
	T_CHECK(!kr_submit(&w, &re->op, ecdma_rdma_recv_ec(re)));
	/* each holder sends its survivors as they are */
	for (t = 0; t < k; t++) {
		s = rp.surv[t];
		tx[t] = kzalloc(sizeof(*tx[t]), GFP_KERNEL);
		if (!tx[t]) {
			bad++;
			break;
		}
		tx[t]->block_size = bs;
		tx[t]->nr_slices = 1;
		tx[t]->acc.buf = rp.blk[s];
		tx[t]->downstream.qp =
			t_net.q[kr_holder(&t_net, s)][0][kr_lane(&t_net, s)];
		T_CHECK(!kr_submit(&w, &tx[t]->op, ecdma_rdma_recv_ec_send(tx[t])));
	}
wait:
	if (!t_wait(&w)) {
		ktest_result(false, name);
		return;
	}
	T_CHECK(re->op.status == 0);
	for (t = 0; t < k; t++)
		T_CHECK(tx[t] && tx[t]->op.status == 0);
	T_CHECK(!memcmp(rp.out->addr, rp.blk[lost]->addr, bs));
	rx = kr_node_bytes(&t_net, 0, false) - rx0;
	wire = kr_wire_bytes(&t_net) - wire0;
	T_CHECK(rx == (u64)k * bs);
	T_CHECK(wire == (u64)k * bs);
	pr_info("# %s: node 0 received %llu, wire %llu\n", name, rx, wire);
	ktest_result(!bad, name);
out:
	for (i = 0; i < ECDMA_RDMA_MAX_BLOCKS; i++)
		if (i != lost)
			ecdma_rdma_buf_free(rb[i]);
	for (t = 0; t < KR_MAXK; t++)
		kfree(tx[t]);
	kfree(re);
	if (!IS_ERR(calc)) {
		t_repair_free(&rp);
		ecdma_ec_dealloc_calc(calc);
	}
}

/* ---------------------------------------------------------------------- */

static int __init ecdma_rdma_test_init(void)
{
	static const u32 sizes42[] = { 4096, 65536 + 64, 1 << 20 };
	static const u32 sizes104[] = { 4096, 1 << 20 };
	struct ecdma_rdma_dev *rdev;
	int ret;

	ktest_gf_init();
	prandom_seed_state(&t_rnd, get_random_u64());
	rdev = ecdma_rdma_dev_get(dev);
	if (IS_ERR(rdev))
		return ktest_abort("rdma_device_found");
	ktest_result(true, "rdma_device_found");
	t_prov = ecdma_rdma_dev_provider(rdev);
	ret = IS_ERR(t_prov) ? PTR_ERR(t_prov) :
	      kr_net_init(&t_net, rdev, T_NODES, KR_LANES, &kr_qattr);
	ktest_result_diag(!ret, "qp_mesh_connected",
			  ret ? "could not create or connect the QPs" : NULL);
	if (ret)
		goto out;

	test_ec_send(4, 2, sizes42, ARRAY_SIZE(sizes42));
	test_ec_send(10, 4, sizes104, ARRAY_SIZE(sizes104));
	if (!t_hung)
		test_encode_send_verbs();
	if (!t_hung)
		test_chain_repair(4, 2, 65536, 1, 1);
	if (!t_hung)
		test_chain_repair(4, 2, 1 << 20, 8, 4);
	if (!t_hung)
		test_chain_repair(10, 4, 1 << 20, 16, 3);
	if (!t_hung)
		test_central_repair(4, 2, 1 << 20, 4);
	if (!t_hung)
		test_central_repair(10, 4, 1 << 20, 3);
out:
	kr_net_exit(&t_net);
	if (!IS_ERR_OR_NULL(t_prov))
		ecdma_ec_provider_put(t_prov);
	ecdma_rdma_dev_put(rdev);
	return ktest_summary();
}

static void __exit ecdma_rdma_test_exit(void)
{
}

module_init(ecdma_rdma_test_init);
module_exit(ecdma_rdma_test_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ecdma_rdma in-kernel tests (ec-send, repair chains) on a real RDMA device");
MODULE_INFO(test, "Y");
ECDMA_MODULE_IMPORT_NS();
