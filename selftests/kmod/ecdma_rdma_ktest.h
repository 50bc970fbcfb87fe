/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the ecdma_rdma test and bench modules: "nodes" on one RDMA
 * device, each pair joined by RC QP pairs ("links", a few lanes each) made
 * with the one set of QP attributes the modules share, their RS(k,m)
 * calcs, device buffers filled with random data, waiting for primitives
 * (and flushing every QP when they hang), and a reference decode (its own
 * GF(2^8) inversion, not ecdma's).
 *
 * Test code only.  Include after ecdma_ktest.h.
 */
#ifndef _ECDMA_RDMA_KTEST_H
#define _ECDMA_RDMA_KTEST_H

#include <linux/completion.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/minmax.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include <ecdma/ec_rdma.h>

#define KR_MAXN		8	/* nodes */
#define KR_LANES	2	/* QP pairs per pair of nodes */
#define KR_MAXK		16	/* k of kr_decode_coefs() */
#define KR_MAXB		16	/* k + m of a struct kr_stripe */

/*
 * What every test module's QPs are made with: deep enough queues for a
 * stripe's blocks in flight, and retries that ride out a loaded TCG guest.
 */
static const struct ecdma_rdma_qp_attr kr_qattr = {
	.send_depth = 64,
	.recv_depth = 64,
	.retry_cnt = 6,
	.rnr_retry = 7,
	.timeout = 14,
};

/**
 * kr_calc_attr() - the attributes of the modules' RS(k,m) calcs
 * @k: data blocks
 * @m: code blocks
 * @polling: a polling calc instead of one with completion callbacks
 *
 * Return: w 8, a Cauchy matrix, 256 requests in flight, no CPU affinity.
 */
static inline struct ecdma_ec_calc_attr kr_calc_attr(int k, int m,
						     bool polling)
{
	return (struct ecdma_ec_calc_attr) {
		.k = k,
		.m = m,
		.w = 8,
		.max_inflight = 256,
		.affinity_hint = -1,
		.polling = polling,
		.matrix_type = ECDMA_EC_MATRIX_CAUCHY,
	};
}

/**
 * kr_calc() - allocate a calc with kr_calc_attr()
 * @prov: the provider (the RDMA device's)
 * @k: data blocks
 * @m: code blocks
 * @polling: a polling calc
 *
 * Return: the calc, or an ERR_PTR.
 */
static inline struct ecdma_ec_calc *kr_calc(struct ecdma_ec_provider *prov,
					    int k, int m, bool polling)
{
	struct ecdma_ec_calc_attr attr = kr_calc_attr(k, m, polling);

	return ecdma_ec_alloc_calc(prov, &attr);
}

/*
 * A calc on the CPU provider with @calc's k, m and matrix: the tests' own
 * checks take kernel addresses, whatever @calc's provider takes (a device
 * engine's blocks are its DMA addresses).  ERR_PTR on failure.
 */
static inline struct ecdma_ec_calc *kr_cpu_twin(struct ecdma_ec_calc *calc)
{
	struct ecdma_ec_provider *cpu = ecdma_ec_provider_get("cpu");
	struct ecdma_ec_calc_attr attr = kr_calc_attr(ecdma_ec_calc_k(calc),
						      ecdma_ec_calc_m(calc),
						      false);
	struct ecdma_ec_calc *twin;

	if (IS_ERR(cpu))
		return ERR_CAST(cpu);
	attr.matrix_type = ECDMA_EC_MATRIX_USER;
	attr.encode_matrix = ecdma_ec_calc_matrix(calc);
	twin = ecdma_ec_alloc_calc(cpu, &attr);
	ecdma_ec_provider_put(cpu);
	return twin;
}

/**
 * struct kr_net - nodes and the QPs between them
 * @dev: the RDMA device
 * @n: nodes
 * @attr: what the QPs are created with
 * @q: q[a][b][l] is node a's end of lane l between a and b
 */
struct kr_net {
	struct ecdma_rdma_dev *dev;
	int n;
	struct ecdma_rdma_qp_attr attr;
	struct ecdma_rdma_qp *q[KR_MAXN][KR_MAXN][KR_LANES];
};

/* Connect two new QPs (a's and b's end); 0 or a negative errno. */
static inline int kr_pair(struct ecdma_rdma_dev *dev,
			  const struct ecdma_rdma_qp_attr *attr,
			  struct ecdma_rdma_qp **qa, struct ecdma_rdma_qp **qb)
{
	struct ecdma_rdma_qp_addr aa, ab;
	int ret;

	*qa = ecdma_rdma_qp_create(dev, attr);
	*qb = ecdma_rdma_qp_create(dev, attr);
	ret = IS_ERR(*qa) ? PTR_ERR(*qa) : IS_ERR(*qb) ? PTR_ERR(*qb) : 0;
	if (!ret)
		ret = ecdma_rdma_qp_addr(*qa, &aa) ?: ecdma_rdma_qp_addr(*qb, &ab);
	if (!ret)
		ret = ecdma_rdma_qp_connect(*qa, &ab) ?:
		      ecdma_rdma_qp_connect(*qb, &aa);
	if (ret) {
		ecdma_rdma_qp_destroy(*qa);
		ecdma_rdma_qp_destroy(*qb);
		*qa = NULL;
		*qb = NULL;
	}
	return ret;
}

/* (Re)create lane @l between @a and @b. */
static inline int kr_link(struct kr_net *net, int a, int b, int l)
{
	ecdma_rdma_qp_destroy(net->q[a][b][l]);
	ecdma_rdma_qp_destroy(net->q[b][a][l]);
	return kr_pair(net->dev, &net->attr, &net->q[a][b][l],
		       &net->q[b][a][l]);
}

/* Every lane between every two of the first @n nodes. */
static inline int kr_net_init(struct kr_net *net, struct ecdma_rdma_dev *dev,
			      int n, int lanes,
			      const struct ecdma_rdma_qp_attr *attr)
{
	int a, b, l, ret;

	memset(net, 0, sizeof(*net));
	net->dev = dev;
	net->n = n;
	net->attr = *attr;
	for (a = 0; a < n; a++)
		for (b = a + 1; b < n; b++)
			for (l = 0; l < lanes; l++) {
				ret = kr_link(net, a, b, l);
				if (ret)
					return ret;
			}
	return 0;
}

static inline void kr_net_exit(struct kr_net *net)
{
	int a, b, l;

	for (a = 0; a < KR_MAXN; a++)
		for (b = 0; b < KR_MAXN; b++)
			for (l = 0; l < KR_LANES; l++) {
				ecdma_rdma_qp_destroy(net->q[a][b][l]);
				net->q[a][b][l] = NULL;
			}
}

/* Bytes node @a received (@tx: sent) on all its QPs. */
static inline u64 kr_node_bytes(const struct kr_net *net, int a, bool tx)
{
	struct ecdma_rdma_qp_stats st;
	u64 sum = 0;
	int b, l;

	for (b = 0; b < KR_MAXN; b++)
		for (l = 0; l < KR_LANES; l++) {
			if (!net->q[a][b][l])
				continue;
			ecdma_rdma_qp_stats(net->q[a][b][l], &st);
			sum += tx ? st.tx_bytes : st.rx_bytes;
		}
	return sum;
}

/* Bytes sent by every node: what crossed the wire. */
static inline u64 kr_wire_bytes(const struct kr_net *net)
{
	u64 sum = 0;
	int a;

	for (a = 0; a < KR_MAXN; a++)
		sum += kr_node_bytes(net, a, true);
	return sum;
}

/**
 * struct kr_wait - wait for a number of primitives
 * @left: primitives not completed, plus one for the submitter
 * @done: completed when @left reaches 0
 */
struct kr_wait {
	atomic_t left;
	struct completion done;
};

static inline void kr_wait_init(struct kr_wait *w)
{
	atomic_set(&w->left, 1);
	init_completion(&w->done);
}

static inline void kr_op_done(struct ecdma_rdma_op *op)
{
	struct kr_wait *w = op->ctx;

	if (atomic_dec_and_test(&w->left))
		complete(&w->done);
}

/* Count @op on @w before its submission ... */
static inline void kr_arm(struct kr_wait *w, struct ecdma_rdma_op *op)
{
	op->done = kr_op_done;
	op->ctx = w;
	atomic_inc(&w->left);
}

/* ... and uncount it when the submission failed; returns @ret */
static inline int kr_armed(struct kr_wait *w, int ret)
{
	if (ret)
		atomic_dec(&w->left);
	return ret;
}

/* Submit through @submit with @w counting it; returns the submit's error. */
#define kr_submit(w, op, submit) ({					\
	struct kr_wait *__w = (w);					\
	kr_arm(__w, (op));						\
	kr_armed(__w, (submit));					\
})

/* Drop the submitter's share and wait; false on timeout. */
static inline bool kr_wait(struct kr_wait *w, unsigned long timeout)
{
	if (atomic_dec_and_test(&w->left))
		complete(&w->done);
	return wait_for_completion_timeout(&w->done, timeout);
}

/* How kr_wait_flush() ended */
enum kr_wait_end {
	KR_DONE,	/* every primitive completed in time */
	KR_FLUSHED,	/* they completed once every QP was flushed */
	KR_STUCK,	/* not even then */
};

/**
 * kr_wait_flush() - kr_wait(), and on a timeout flush every QP of @net
 * @net: the nodes the primitives run on
 * @w: the wait
 * @timeout: how long to wait, in jiffies, before flushing and again after
 *
 * Destroying the QPs (kr_net_exit()) completes whatever still waits on
 * them, so that nothing points at the caller's memory any more; the test
 * cannot go on with @net after that.
 *
 * Return: the &enum kr_wait_end.
 */
static inline enum kr_wait_end kr_wait_flush(struct kr_net *net,
					     struct kr_wait *w,
					     unsigned long timeout)
{
	if (kr_wait(w, timeout))
		return KR_DONE;
	pr_info("# primitives still in flight after %lu s\n", timeout / HZ);
	kr_net_exit(net);
	if (!wait_for_completion_timeout(&w->done, timeout))
		return KR_STUCK;
	return KR_FLUSHED;
}

/* A device buffer of @len random bytes (or an ERR_PTR). */
static inline struct ecdma_rdma_buf *kr_buf(struct ecdma_rdma_dev *dev,
					    size_t len,
					    struct rnd_state *rnd)
{
	struct ecdma_rdma_buf *buf = ecdma_rdma_buf_alloc(dev, len);

	if (!IS_ERR(buf))
		prandom_bytes_state(rnd, buf->addr, len);
	return buf;
}

static inline u8 kr_gf_inv(u8 a)
{
	return ktest_exp[255 - ktest_log[a]];
}

/**
 * kr_decode_coefs() - coefficients that rebuild one block from k others
 * @k: data blocks
 * @m: code blocks
 * @enc: the k x m encode matrix
 * @surv: the k surviving block indices
 * @lost: the block to rebuild
 * @coef: out: lost = sum coef[t] * block surv[t]
 *
 * Return: 0, or -EINVAL when the survivors are not independent.
 */
static inline int kr_decode_coefs(int k, int m, const u8 *enc, const int *surv,
				  int lost, u8 *coef)
{
	u8 a[KR_MAXK][2 * KR_MAXK];
	int r, c, p, i, j;
	u8 f;

	if (k > KR_MAXK)
		return -EINVAL;
	/* [G_surv | I], G row i: unit vector (i < k) or code column */
	memset(a, 0, sizeof(a));
	for (r = 0; r < k; r++) {
		for (c = 0; c < k; c++)
			a[r][c] = surv[r] < k ? surv[r] == c :
				  enc[c * m + surv[r] - k];
		a[r][k + r] = 1;
	}
	for (c = 0; c < k; c++) {
		for (p = c; p < k && !a[p][c]; p++)
			;
		if (p == k)
			return -EINVAL;
		for (j = 0; j < 2 * k; j++)
			swap(a[c][j], a[p][j]);
		f = kr_gf_inv(a[c][c]);
		for (j = 0; j < 2 * k; j++)
			a[c][j] = ktest_mul(a[c][j], f);
		for (r = 0; r < k; r++) {
			if (r == c || !a[r][c])
				continue;
			f = a[r][c];
			for (j = 0; j < 2 * k; j++)
				a[r][j] ^= ktest_mul(f, a[c][j]);
		}
	}
	/* data = inv . survivors; a code block is its column of data */
	for (j = 0; j < k; j++) {
		if (lost < k) {
			coef[j] = a[lost][k + j];
			continue;
		}
		coef[j] = 0;
		for (i = 0; i < k; i++)
			coef[j] ^= ktest_mul(enc[i * m + lost - k], a[i][k + j]);
	}
	return 0;
}

/* ---------------------------------------------------------------------- */
/* Stripes: k + m blocks at node 0, sent to their holders                 */
/* ---------------------------------------------------------------------- */

/* Block i lives on node 1 + i % (n - 1), on lane i / (n - 1) from node 0. */
static inline int kr_holder(const struct kr_net *net, int i)
{
	return 1 + i % (net->n - 1);
}

static inline int kr_lane(const struct kr_net *net, int i)
{
	return i / (net->n - 1);
}

/**
 * struct kr_stripe - a stripe and where it goes
 * @k: data blocks
 * @m: code blocks
 * @bs: block size
 * @calc: the calc that encodes it
 * @src: the blocks at node 0 (code blocks: to be encoded)
 * @dst: the blocks at their holders
 * @ref: what each block must hold: @src data, reference code
 * @refcode: the reference code blocks (m * @bs)
 * @rx: receive-only recv-ec-send at the holder, per block, or NULL
 */
struct kr_stripe {
	int k, m;
	u32 bs;
	struct ecdma_ec_calc *calc;
	struct ecdma_ec_calc *vcalc;
	struct ecdma_rdma_buf *src[KR_MAXB];
	struct ecdma_rdma_buf *dst[KR_MAXB];
	u8 *ref[KR_MAXB];
	u8 *refcode;
	struct ecdma_rdma_recv_ec_send *rx[KR_MAXB];
};

static inline void kr_stripe_free(struct kr_stripe *st)
{
	int i;

	for (i = 0; i < KR_MAXB; i++) {
		ecdma_rdma_buf_free(st->src[i]);
		ecdma_rdma_buf_free(st->dst[i]);
		kfree(st->rx[i]);
	}
	vfree(st->refcode);
	if (!IS_ERR_OR_NULL(st->vcalc))
		ecdma_ec_dealloc_calc(st->vcalc);
	memset(st, 0, sizeof(*st));
}

/* Random data at node 0, zeroed holders, the reference code; 0 or errno */
static inline int kr_stripe_alloc(struct kr_net *net, struct kr_stripe *st,
				  struct ecdma_ec_calc *calc, u32 bs,
				  struct rnd_state *rnd)
{
	u8 *in[KR_MAXB], *at[KR_MAXB], *out[KR_MAXB];
	u32 off, len;
	int i, n;

	memset(st, 0, sizeof(*st));
	st->k = ecdma_ec_calc_k(calc);
	st->m = ecdma_ec_calc_m(calc);
	st->bs = bs;
	st->calc = calc;
	n = st->k + st->m;
	if (n > KR_MAXB)
		return -EINVAL;
	st->vcalc = kr_cpu_twin(calc);
	if (IS_ERR(st->vcalc)) {
		int ret = PTR_ERR(st->vcalc);

		st->vcalc = NULL;
		return ret;
	}
	st->refcode = vmalloc(st->m * (size_t)bs);
	if (!st->refcode)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		st->src[i] = kr_buf(net->dev, bs, rnd);
		st->dst[i] = ecdma_rdma_buf_alloc(net->dev, bs);
		if (IS_ERR(st->src[i]) || IS_ERR(st->dst[i])) {
			int ret = IS_ERR(st->src[i]) ? PTR_ERR(st->src[i]) :
				  PTR_ERR(st->dst[i]);

			kr_stripe_free(st);
			return ret;
		}
		memset(st->dst[i]->addr, 0, bs);
		st->ref[i] = i < st->k ? st->src[i]->addr :
			     st->refcode + (i - st->k) * (size_t)bs;
		in[i] = st->src[i]->addr;
	}
	/* a byte at a time: MiB blocks take seconds in TCG, so yield */
	for (off = 0; off < bs; off += len) {
		len = min_t(u32, bs - off, SZ_64K);
		for (i = 0; i < n; i++) {
			at[i] = in[i] + off;
			out[i] = st->ref[i] + off;
		}
		ktest_ref(len, st->k, st->m, ecdma_ec_calc_matrix(calc), at,
			  out + st->k, false);
		cond_resched();
	}
	return 0;
}

/* Have block i's holder receive it (SEND); 0 or the submit's errno */
static inline int kr_stripe_rx(struct kr_net *net, struct kr_stripe *st,
			       struct kr_wait *w, int i)
{
	struct ecdma_rdma_recv_ec_send *r;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	st->rx[i] = r;
	r->block_size = st->bs;
	r->nr_slices = 1;
	r->upstream = net->q[kr_holder(net, i)][0][kr_lane(net, i)];
	r->acc.buf = st->dst[i];
	return kr_submit(w, &r->op, ecdma_rdma_recv_ec_send(r));
}

static inline bool kr_block_ok(const struct kr_stripe *st, int i)
{
	return !memcmp(st->dst[i]->addr, st->ref[i], st->bs);
}

/* VALIDATE the holders' blocks on @calc: the mismatch bits, or -1 */
static inline long kr_validate(struct kr_stripe *st)
{
	struct ecdma_ec_sge sge[KR_MAXB];
	struct ecdma_ec_wr wr = { .opcode = ECDMA_EC_OP_VALIDATE };
	struct ecdma_ec_mem mem;
	int i;

	for (i = 0; i < st->k + st->m; i++)
		ktest_sge(&sge[i], st->dst[i]->addr, st->bs);
	ktest_mem(&mem, sge, st->k, sge + st->k, st->m, st->bs);
	wr.mem = &mem;
	if (ecdma_ec_post_sync(st->vcalc, &wr))
		return -1;
	return wr.result;
}

#endif /* _ECDMA_RDMA_KTEST_H */
