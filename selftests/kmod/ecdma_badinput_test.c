// SPDX-License-Identifier: GPL-2.0
/*
 * Bad input to the ecdma EC verbs API, beyond what ecdma_ec_test covers:
 * extreme and negative attribute values, negative, zero and huge sizes and
 * counts, wrapping addresses, wrong layouts for every opcode, erasure maps
 * with unusual non-zero bytes, too many erasures, a singular user matrix
 * too big for the MDS check at alloc (its DECODE must fail, not corrupt),
 * unaligned blocks and odd sizes (accepted, exact), and -EOVERFLOW on a
 * callback calc.  Every refused call must return its documented errno,
 * leave the request untouched and count in post_rejected, and a correct
 * operation must work right after it.
 *
 * Runs at load; prints KTAP lines and "N passed, M failed"; the load
 * fails (-EINVAL) when a test failed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/limits.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/smp.h>

#include <ecdma/ec.h>
/* enum ecdma_ec_stat, ecdma_ec_calc_stats() */
#include "../../drivers/ecdma/ec_priv.h"

#include "ecdma_ktest.h"

#define B_MAXB	(ECDMA_EC_MAX_K + ECDMA_EC_MAX_M)

static struct ecdma_ec_provider *b_prov;

/**
 * struct b_bufs - blocks for one test
 * @mem: one allocation holding them
 * @blk: the blocks, each @bs bytes at offset @off in its slot
 * @sge: an entry per block
 * @n: blocks
 * @bs: block size
 */
struct b_bufs {
	u8 *mem;
	u8 *blk[B_MAXB];
	struct ecdma_ec_sge sge[B_MAXB];
	int n;
	int bs;
};

static void b_free(struct b_bufs *b)
{
	if (b) {
		kvfree(b->mem);
		kfree(b);
	}
}

static struct b_bufs *b_alloc(int n, int bs, int off)
{
	size_t stride = bs + 64;
	struct b_bufs *b;
	int i;

	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return NULL;
	b->mem = kvmalloc(stride * n, GFP_KERNEL);
	if (!b->mem) {
		kfree(b);
		return NULL;
	}
	b->n = n;
	b->bs = bs;
	for (i = 0; i < n; i++) {
		b->blk[i] = b->mem + i * stride + off;
		get_random_bytes(b->blk[i], bs);
		ktest_sge(&b->sge[i], b->blk[i], bs);
	}
	return b;
}

static struct ecdma_ec_calc *b_calc(int k, int m, bool polling, int maxi,
				    int cpu, enum ecdma_ec_matrix_type type,
				    const u8 *mat)
{
	struct ecdma_ec_calc_attr a = {
		.k = k, .m = m, .w = ECDMA_EC_W, .max_inflight = maxi,
		.affinity_hint = cpu, .polling = polling,
		.matrix_type = type, .encode_matrix = mat,
	};

	return ecdma_ec_alloc_calc(b_prov, &a);
}

/* One correct encode with the calc matrix, checked: the calc still works. */
static int b_still_works(struct ecdma_ec_calc *calc)
{
	int k = ecdma_ec_calc_k(calc), m = ecdma_ec_calc_m(calc);
	struct b_bufs *b = NULL, *ref = NULL;
	struct ecdma_ec_mem mem;
	int bad = 0, j;

	b = b_alloc(k + m, 333, 5);
	ref = b_alloc(m, 333, 0);
	if (!b || !ref) {
		bad++;
		goto out;
	}
	ktest_ref(333, k, m, ecdma_ec_calc_matrix(calc), b->blk, ref->blk,
		  false);
	ktest_mem(&mem, b->sge, k, b->sge + k, m, 333);
	T_CHECK(!ecdma_ec_encode_sync(calc, &mem));
	for (j = 0; j < m; j++)
		T_CHECK(!memcmp(b->blk[k + j], ref->blk[j], 333));
out:
	b_free(b);
	b_free(ref);
	return bad;
}

static u64 b_stat(struct ecdma_ec_calc *calc, enum ecdma_ec_stat s)
{
	u64 *v = kcalloc(ECDMA_EC_STAT_NR, sizeof(*v), GFP_KERNEL);
	u64 r = 0;

	if (v) {
		ecdma_ec_calc_stats(calc, v);
		r = v[s];
		kfree(v);
	}
	return r;
}

static void test_bad_attrs(void)
{
	static const struct {
		int k, m, w, maxi, cpu;
	} cases[] = {
		{ -1, 2, 8, 4, -1 }, { INT_MAX, 2, 8, 4, -1 },
		{ INT_MIN, 2, 8, 4, -1 }, { 4, -1, 8, 4, -1 },
		{ 4, INT_MAX, 8, 4, -1 }, { 4, 2, 0, 4, -1 },
		{ 4, 2, -8, 4, -1 }, { 4, 2, 7, 4, -1 }, { 4, 2, 9, 4, -1 },
		{ 4, 2, INT_MAX, 4, -1 }, { 4, 2, 8, -1, -1 },
		{ 4, 2, 8, INT_MAX, -1 }, { 4, 2, 8, INT_MIN, -1 },
		{ 4, 2, 8, 4, INT_MAX }, { 4, 2, 8, 4, INT_MIN },
		/* generated codes need k + m <= 256 */
		{ 255, 2, 8, 4, -1 },
	};
	struct ecdma_ec_calc_attr a;
	struct ecdma_ec_caps caps;
	struct ecdma_ec_calc *c;
	int bad = 0, i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		memset(&a, 0, sizeof(a));
		a.k = cases[i].k;
		a.m = cases[i].m;
		a.w = cases[i].w;
		a.max_inflight = cases[i].maxi;
		a.affinity_hint = cases[i].cpu;
		a.matrix_type = ECDMA_EC_MATRIX_CAUCHY;
		c = ecdma_ec_alloc_calc(b_prov, &a);
		if (PTR_ERR_OR_ZERO(c) != -EINVAL) {
			pr_info("# attr case %d: got %d\n", i,
				PTR_ERR_OR_ZERO(c));
			bad++;
		}
		if (!IS_ERR(c))
			ecdma_ec_dealloc_calc(c);
	}
	/* a generated matrix type with a matrix given as well */
	memset(&a, 0, sizeof(a));
	a.k = 2;
	a.m = 1;
	a.w = 8;
	a.max_inflight = 1;
	a.affinity_hint = -1;
	a.encode_matrix = ktest_exp;
	T_CHECK(PTR_ERR(ecdma_ec_alloc_calc(b_prov, &a)) == -EINVAL);
	a.matrix_type = -1;
	a.encode_matrix = NULL;
	T_CHECK(PTR_ERR(ecdma_ec_alloc_calc(b_prov, &a)) == -EINVAL);
	T_CHECK(PTR_ERR(ecdma_ec_provider_get("no-such-provider")) == -ENODEV);
	T_CHECK(ecdma_ec_query_caps(b_prov, NULL) == -EINVAL);
	T_CHECK(ecdma_ec_query_caps(ERR_PTR(-ENODEV), &caps) == -EINVAL);
	/* the limits themselves are fine */
	c = b_calc(ECDMA_EC_MAX_K, 1, false, ECDMA_EC_MAX_INFLIGHT, -1,
		   ECDMA_EC_MATRIX_CAUCHY, NULL);
	T_CHECK(!IS_ERR(c));
	if (!IS_ERR(c)) {
		bad += b_still_works(c);
		ecdma_ec_dealloc_calc(c);
	}
	c = b_calc(1, ECDMA_EC_MAX_M, false, 1, nr_cpu_ids - 1,
		   ECDMA_EC_MATRIX_CAUCHY, NULL);
	T_CHECK(!IS_ERR(c));
	if (!IS_ERR(c)) {
		bad += b_still_works(c);
		ecdma_ec_dealloc_calc(c);
	}
	ktest_result(!bad, "bad_attrs_einval");
}

static void test_bad_layouts(void)
{
	enum { K = 5, M = 3, BS = 512 };
	struct ecdma_ec_sge d[K + 8], c[M + 4], d0[K + 8], c0[M + 4];
	u8 era[K + M], du[K], cu[M], mat[K * M];
	struct ecdma_ec_mem mem, mem0;
	struct ecdma_ec_wr wr, wr0;
	struct ecdma_ec_calc *calc;
	struct b_bufs *b;
	u64 rej0;
	int bad = 0, nrej = 0, i, ret;

	calc = b_calc(K, M, false, 8, -1, ECDMA_EC_MATRIX_CAUCHY, NULL);
	b = b_alloc(K + M + 12, BS, 0);
	if (IS_ERR(calc) || !b) {
		bad++;
		goto out;
	}
	for (i = 0; i < K + 8; i++)
		d[i] = b->sge[i];
	for (i = 0; i < M + 4; i++)
		c[i] = b->sge[K + 8 + i];
	memcpy(d0, d, sizeof(d));
	memcpy(c0, c, sizeof(c));
	ktest_mem(&mem0, d, K, c, M, BS);
	memset(&wr0, 0, sizeof(wr0));
	wr0.opcode = ECDMA_EC_OP_ENCODE;
	wr0.mem = &mem;
	memset(mat, 3, sizeof(mat));
	rej0 = b_stat(calc, ECDMA_EC_STAT_POST_REJECTED);

#define B_POST(expr, want) do {						\
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
		wr.status = 4242;					\
		wr.result = 4242;					\
		ret = ecdma_ec_post_sync(calc, &wr);			\
		if (ret != w_) {					\
			pr_info("# post %s: got %d want %d\n", #expr,	\
				ret, w_);				\
			bad++;						\
		}							\
		if (w_ && (wr.status != 4242 || wr.result != 4242)) {	\
			pr_info("# post %s: wr changed\n", #expr);	\
			bad++;						\
		}							\
		if (w_ == -EINVAL)					\
			nrej++;						\
		bad += b_still_works(calc);				\
	} while (0)

	B_POST((void)0, 0);
	/* sizes: negative, huge, lengths not matching */
	B_POST(mem.block_size = -1, -EINVAL);
	B_POST(mem.block_size = INT_MIN, -EINVAL);
	B_POST(mem.block_size = INT_MAX, -EINVAL);
	B_POST(d[0].length = 0, -EINVAL);
	B_POST(c[M - 1].length = U32_MAX, -EINVAL);
	/* counts: negative, zero, huge; missing arrays */
	B_POST(mem.num_data_sge = -1, -EINVAL);
	B_POST(mem.num_code_sge = -1, -EINVAL);
	B_POST(mem.num_data_sge = INT_MIN, -EINVAL);
	B_POST(mem.num_code_sge = 0, -EINVAL);
	B_POST(mem.num_data_sge = 0, -EINVAL);
	B_POST(mem.num_data_sge = INT_MAX, -EINVAL);
	B_POST(mem.data_blocks = NULL, -EINVAL);
	B_POST(mem.code_blocks = NULL, -EINVAL);
	/* an address range that wraps around */
	B_POST(d[1].addr = U64_MAX - 100, -EINVAL);
	B_POST(c[0].addr = 0, -EINVAL);
	/* per-WR matrix: more outputs than m, no inputs */
	B_POST((wr.matrix = mat, mem.num_code_sge = M + 1), -EINVAL);
	B_POST((wr.matrix = mat, mem.num_data_sge = 0), -EINVAL);
	B_POST((wr.matrix = mat, mem.num_data_sge = 2, mem.num_code_sge = 1),
	       0);
	/* validate with the wrong counts */
	B_POST((wr.opcode = ECDMA_EC_OP_VALIDATE, mem.num_code_sge = M - 1),
	       -EINVAL);
	/* DECODE: wrong counts, all erased, > m erased with odd bytes */
	B_POST((wr.opcode = ECDMA_EC_OP_DECODE, wr.erasures = era,
		era[0] = 1, mem.num_data_sge = K - 1), -EINVAL);
	B_POST((wr.opcode = ECDMA_EC_OP_DECODE, wr.erasures = era,
		era[0] = 1, mem.num_code_sge = M - 1), -EINVAL);
	B_POST((wr.opcode = ECDMA_EC_OP_DECODE, wr.erasures = era,
		memset(era, 1, sizeof(era))), -EINVAL);
	B_POST((wr.opcode = ECDMA_EC_OP_DECODE, wr.erasures = era,
		era[0] = 0xff, era[2] = 0x80, era[K] = 2, era[K + 1] = 7),
	       -EINVAL);
	/* non-zero bytes other than 1 are erasures too; none is a no-op */
	B_POST((wr.opcode = ECDMA_EC_OP_DECODE, wr.erasures = era,
		era[0] = 0xff, era[K + 2] = 0x80), 0);
	B_POST((wr.opcode = ECDMA_EC_OP_DECODE, wr.erasures = era), 0);
	/* UPDATE: no code updated, wrong counts, missing maps */
	B_POST((wr.opcode = ECDMA_EC_OP_UPDATE, wr.data_updates = du,
		wr.code_updates = cu, du[0] = 1), -EINVAL);
	B_POST((wr.opcode = ECDMA_EC_OP_UPDATE, wr.data_updates = du,
		wr.code_updates = cu, du[0] = 1, cu[1] = 1,
		mem.num_data_sge = 4, mem.num_code_sge = 1), -EINVAL);
	B_POST((wr.opcode = ECDMA_EC_OP_UPDATE, wr.data_updates = du,
		wr.code_updates = cu, du[0] = 1, cu[1] = 1,
		mem.num_data_sge = 3, mem.num_code_sge = 2), -EINVAL);
	B_POST((wr.opcode = ECDMA_EC_OP_UPDATE, wr.code_updates = cu,
		cu[1] = 1, mem.num_data_sge = 3, mem.num_code_sge = 1),
	       -EINVAL);
	B_POST((wr.opcode = ECDMA_EC_OP_UPDATE, wr.data_updates = du,
		wr.code_updates = cu, du[0] = 9, du[4] = 0xff, cu[1] = 0x40,
		mem.num_data_sge = 5, mem.num_code_sge = 1), 0);
	/* COPY needs exactly one block each way */
	B_POST((wr.opcode = ECDMA_EC_OP_COPY, mem.num_data_sge = 1,
		mem.num_code_sge = 0), -EINVAL);
	B_POST((wr.opcode = ECDMA_EC_OP_COPY, mem.num_data_sge = 1,
		mem.num_code_sge = 2), -EINVAL);
	/* opcodes and flags out of range */
	B_POST(wr.opcode = -1, -EINVAL);
	B_POST(wr.opcode = INT_MAX, -EINVAL);
	B_POST(wr.flags = U32_MAX, -EINVAL);
	B_POST((wr.opcode = ECDMA_EC_OP_UPDATE,
		wr.flags = ECDMA_EC_WR_ACCUMULATE), -EINVAL);
#undef B_POST
	T_CHECK(ecdma_ec_post(calc, NULL) == -EINVAL);
	nrej++;
	T_CHECK(ecdma_ec_poll(calc, 0) == -EINVAL);	/* not polling */
	T_CHECK(b_stat(calc, ECDMA_EC_STAT_POST_REJECTED) - rej0 == nrej);
	T_CHECK(!b_stat(calc, ECDMA_EC_STAT_ERRORS));
	bad += b_still_works(calc);
out:
	b_free(b);
	if (!IS_ERR(calc))
		ecdma_ec_dealloc_calc(calc);
	ktest_result(!bad, "bad_layouts_einval_state_unchanged");
}

/*
 * A user matrix too big for the MDS check at alloc is taken as is; a
 * DECODE it cannot serve (singular) completes with -EINVAL and writes
 * nothing, and the calc keeps working.
 */
static void test_singular_user_matrix(void)
{
	enum { K = 120, M = 16, BS = 256 };
	struct ecdma_ec_calc *calc;
	struct ecdma_ec_mem mem;
	struct b_bufs *b = NULL;
	u8 *mat, *era, *copy = NULL;
	int bad = 0;

	mat = kmalloc(K * M + K + M, GFP_KERNEL);
	if (!mat) {
		ktest_result(false, "singular_user_matrix_decode_fails_cleanly");
		return;
	}
	era = mat + K * M;
	memset(mat, 1, K * M);		/* every 2x2 minor is singular */
	calc = b_calc(K, M, false, 4, -1, ECDMA_EC_MATRIX_USER, mat);
	if (IS_ERR(calc)) {
		pr_info("# alloc: %ld (too big for the MDS check?)\n",
			PTR_ERR(calc));
		bad++;
		goto out;
	}
	b = b_alloc(K + M, BS, 0);
	copy = kmalloc(BS, GFP_KERNEL);
	if (!b || !copy) {
		bad++;
		goto out;
	}
	memset(era, 0, K + M);
	era[3] = 1;
	era[70] = 1;
	memcpy(copy, b->blk[3], BS);
	ktest_mem(&mem, b->sge, K, b->sge + K, M, BS);
	T_CHECK(ecdma_ec_decode_sync(calc, &mem, era, NULL) == -EINVAL);
	T_CHECK(!memcmp(copy, b->blk[3], BS));
	T_CHECK(b_stat(calc, ECDMA_EC_STAT_ERRORS) == 1);
	/* one erasure: the all-ones code is plain parity, decodable */
	era[70] = 0;
	T_CHECK(ecdma_ec_decode_sync(calc, &mem, era, NULL) == 0);
	bad += b_still_works(calc);
out:
	b_free(b);
	kfree(copy);
	if (!IS_ERR(calc))
		ecdma_ec_dealloc_calc(calc);
	kfree(mat);
	ktest_result(!bad, "singular_user_matrix_decode_fails_cleanly");
}

/* Unaligned addresses and odd sizes are accepted and exact. */
static void test_unaligned(void)
{
	static const int sizes[] = { 1, 3, 63, 65, 511, 513, 4097, 12289 };
	struct ecdma_ec_calc *calc;
	struct ecdma_ec_mem mem;
	struct b_bufs *b, *ref;
	int bad = 0, i, j, off;

	calc = b_calc(7, 3, false, 4, -1, ECDMA_EC_MATRIX_CAUCHY, NULL);
	if (IS_ERR(calc)) {
		ktest_result(false, "unaligned_odd_sizes_exact");
		return;
	}
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		off = 1 + i * 7 % 63;
		b = b_alloc(10, sizes[i], off);
		ref = b_alloc(3, sizes[i], 0);
		if (!b || !ref) {
			bad++;
		} else {
			ktest_ref(sizes[i], 7, 3, ecdma_ec_calc_matrix(calc),
				  b->blk, ref->blk, false);
			ktest_mem(&mem, b->sge, 7, b->sge + 7, 3, sizes[i]);
			T_CHECK(!ecdma_ec_encode_sync(calc, &mem));
			for (j = 0; j < 3; j++)
				T_CHECK(!memcmp(b->blk[7 + j], ref->blk[j],
						sizes[i]));
		}
		b_free(b);
		b_free(ref);
	}
	ecdma_ec_dealloc_calc(calc);
	ktest_result(!bad, "unaligned_odd_sizes_exact");
}

static void b_nop_done(struct ecdma_ec_wr *wr)
{
	atomic_inc((atomic_t *)wr->ctx);
}

/*
 * -EOVERFLOW on a callback calc: its worker is bound to this CPU, which
 * cannot run it while we keep preemption disabled, so max_inflight posts
 * stay queued and one more overflows.  Afterwards everything completes
 * and posting works again.
 */
static void test_overflow_callback(void)
{
	enum { MAXI = 5 };
	struct ecdma_ec_wr w[MAXI + 1];
	struct ecdma_ec_calc *calc;
	unsigned long end;
	atomic_t done = ATOMIC_INIT(0);
	int bad = 0, i, cpu, ret[MAXI + 1];

	cpu = get_cpu();
	put_cpu();
	calc = b_calc(2, 1, false, MAXI, cpu, ECDMA_EC_MATRIX_CAUCHY, NULL);
	if (IS_ERR(calc)) {
		ktest_result(false, "overflow_callback_calc");
		return;
	}
	memset(w, 0, sizeof(w));
	for (i = 0; i <= MAXI; i++) {
		w[i].opcode = ECDMA_EC_OP_NOP;
		w[i].done = b_nop_done;
		w[i].ctx = &done;
	}
	preempt_disable();
	if (smp_processor_id() == cpu) {
		for (i = 0; i <= MAXI; i++)
			ret[i] = ecdma_ec_post(calc, &w[i]);
		preempt_enable();
		for (i = 0; i < MAXI; i++)
			T_CHECK(!ret[i]);
		T_CHECK(ret[MAXI] == -EOVERFLOW);
	} else {
		/* migrated before disabling preemption: nothing to prove */
		preempt_enable();
		for (i = 0; i < MAXI; i++)
			T_CHECK(!ecdma_ec_post(calc, &w[i]));
	}
	end = jiffies + 30 * HZ;
	while (atomic_read(&done) < MAXI && time_before(jiffies, end))
		usleep_range(500, 1000);
	T_CHECK(atomic_read(&done) == MAXI);
	T_CHECK(b_stat(calc, ECDMA_EC_STAT_POST_OVERFLOW) <= 1);
	T_CHECK(!ecdma_ec_post(calc, &w[MAXI]));
	end = jiffies + 30 * HZ;
	while (atomic_read(&done) < MAXI + 1 && time_before(jiffies, end))
		usleep_range(500, 1000);
	T_CHECK(atomic_read(&done) == MAXI + 1);
	bad += b_still_works(calc);
	ecdma_ec_dealloc_calc(calc);
	ktest_result(!bad, "overflow_callback_calc");
}

static int __init ecdma_badinput_init(void)
{
	ktest_gf_init();
	pr_info("KTAP version 1\n");
	b_prov = ecdma_ec_provider_get("cpu");
	if (IS_ERR(b_prov))
		return ktest_abort("provider_get");
	test_bad_attrs();
	test_bad_layouts();
	test_singular_user_matrix();
	test_unaligned();
	test_overflow_callback();
	ecdma_ec_provider_put(b_prov);
	return ktest_summary();
}

static void __exit ecdma_badinput_exit(void)
{
}

module_init(ecdma_badinput_init);
module_exit(ecdma_badinput_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("ecdma developers");
MODULE_DESCRIPTION("Bad input tests of the ecdma EC verbs API");
MODULE_INFO(test, "Y");
ECDMA_MODULE_IMPORT_NS();
