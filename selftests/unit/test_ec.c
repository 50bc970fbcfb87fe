// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the EC verbs validation (drivers/ecdma/ec_validate.c) and
 * execution (drivers/ecdma/ec_exec.c, ec_plan.c) code: every opcode against a
 * byte-at-a-time reference with its own shift-and-add multiply and against
 * ISA-L, random k, m, block sizes and alignments, both generated matrix
 * types, per-WR matrices, in-place outputs, chunked execution with small
 * budgets, the fast-path dispatch (stand-ins for lib/raid6 and xor_blocks
 * that check every precondition) and SIMD sectioning (a fake SIMD algo that
 * checks it only runs inside fpu_begin/fpu_end).
 */
#include <isa-l/erasure_code.h>

#include "ecdma_compat.h"
#include "ec_priv.h"
#include "gf.h"
#include "gf_algo.h"
#include "ecdma_test.h"

#define T_MAX_K		ECDMA_EC_MAX_K
#define T_MAX_M		ECDMA_EC_MAX_M

/* ---------------------------------------------------------------------- */
/* Reference                                                              */
/* ---------------------------------------------------------------------- */

static u8 slow_pow2(int e)
{
	u8 r = 1;

	while (e-- > 0)
		r = test_slow_mul(r, 2);
	return r;
}

/* out[j] = (acc ? out[j] : 0) ^ sum coef[i * nout + j] * in[i], by byte */
static void ref_product(size_t len, int nin, int nout, const u8 *coef,
			u8 *const *in, u8 *const *out, bool acc)
{
	size_t b;
	int i, j;

	for (b = 0; b < len; b++) {
		u8 v[T_MAX_M];

		for (j = 0; j < nout; j++) {
			v[j] = acc ? out[j][b] : 0;
			for (i = 0; i < nin; i++)
				v[j] ^= test_slow_mul(coef[i * nout + j], in[i][b]);
		}
		for (j = 0; j < nout; j++)
			out[j][b] = v[j];
	}
}

/* ISA-L encode with a verbs-layout k x m matrix */
static void isal_encode(int len, int k, int m, const u8 *mat, u8 **in,
			u8 **out)
{
	u8 *a = test_alloc((size_t)k * m), *tbls = test_alloc(32 * k * m);
	int i, j;

	for (i = 0; i < k; i++)
		for (j = 0; j < m; j++)
			a[j * k + i] = mat[i * m + j];
	ec_init_tables(k, m, a, tbls);
	ec_encode_data(len, k, m, tbls, in, out);
	free(a);
	free(tbls);
}

/* ---------------------------------------------------------------------- */
/* Hooks: stand-ins for lib/raid6, xor_blocks and kernel_fpu              */
/* ---------------------------------------------------------------------- */

static struct {
	int in_fpu;
	unsigned long sections;
	unsigned long pq_calls;
	unsigned long xor_calls;
	unsigned long violations;
	unsigned long nt_calls;	/* fake_simd calls asked for NT stores */
	unsigned long algo_pq_calls;	/* fake_simd's ->pq */
	bool pq_refuse_acc;	/* like a raid6 algo without xor_syndrome */
} hk;

/* applied by tcalc_init() when set */
static const struct ecdma_ec_exec_policy *t_pol;

static void hk_violation(const char *what)
{
	if (hk.violations++ < 5)
		ksft_print_msg("hook precondition violated: %s\n", what);
}

static void hk_fpu_begin(void *ctx)
{
	(void)ctx;
	if (hk.in_fpu)
		hk_violation("nested fpu_begin");
	hk.in_fpu = 1;
	hk.sections++;
}

static void hk_fpu_end(void *ctx)
{
	(void)ctx;
	if (!hk.in_fpu)
		hk_violation("fpu_end outside a section");
	hk.in_fpu = 0;
}

static bool hk_aligned(const void *p)
{
	return !((unsigned long)p % ECDMA_EC_FAST_PTR_ALIGN);
}

static bool hk_overlap(const u8 *a, const u8 *b, size_t len)
{
	return a < b + len && b < a + len;
}

static bool hk_pq(void *ctx, int nsrc, size_t bytes, void **ptrs, bool acc)
{
	u8 *p = ptrs[nsrc], *q = ptrs[nsrc + 1];
	size_t b;
	int i;

	(void)ctx;
	if (hk.in_fpu)
		hk_violation("pq inside an fpu section");
	if (nsrc < 2 || !bytes || bytes % ECDMA_EC_FAST_LEN_ALIGN)
		hk_violation("pq size");
	for (i = 0; i < nsrc + 2; i++) {
		if (!hk_aligned(ptrs[i]))
			hk_violation("pq alignment");
		if (i < nsrc && (hk_overlap(ptrs[i], p, bytes) ||
				 hk_overlap(ptrs[i], q, bytes)))
			hk_violation("pq output aliases a source");
	}
	if (acc && hk.pq_refuse_acc)
		return false;
	for (b = 0; b < bytes; b++) {
		u8 pv = 0, qv = 0;

		/* Horner from the top, like lib/raid6 */
		for (i = nsrc - 1; i >= 0; i--) {
			u8 d = ((u8 *)ptrs[i])[b];

			pv ^= d;
			qv = test_slow_mul(qv, 2) ^ d;
		}
		p[b] = acc ? p[b] ^ pv : pv;
		q[b] = acc ? q[b] ^ qv : qv;
	}
	hk.pq_calls++;
	return true;
}

static void hk_xor(void *ctx, unsigned int count, size_t bytes, void *dest,
		   void **srcs)
{
	unsigned int i;
	size_t b;

	(void)ctx;
	if (hk.in_fpu)
		hk_violation("xor inside an fpu section");
	if (!count || count > 4 || !bytes || bytes % ECDMA_EC_FAST_LEN_ALIGN)
		hk_violation("xor size");
	if (!hk_aligned(dest))
		hk_violation("xor alignment");
	for (i = 0; i < count; i++) {
		if (!hk_aligned(srcs[i]))
			hk_violation("xor alignment");
		if (hk_overlap(srcs[i], dest, bytes))
			hk_violation("xor dest aliases a source");
	}
	for (b = 0; b < bytes; b++)
		for (i = 0; i < count; i++)
			((u8 *)dest)[b] ^= ((u8 *)srcs[i])[b];
	hk.xor_calls++;
}

static const struct ecdma_ec_exec_hooks hooks_all = {
	.fpu_begin = hk_fpu_begin,
	.fpu_end = hk_fpu_end,
	.pq = hk_pq,
	.xor = hk_xor,
	.xor_max = 4,
};

static const struct ecdma_ec_exec_hooks hooks_fpu_only = {
	.fpu_begin = hk_fpu_begin,
	.fpu_end = hk_fpu_end,
};

/* A "SIMD" algo: the generic kernels, checking they run in a section. */
static void fake_encode(size_t len, int k, int m, const u8 *tbls,
			const u8 *const *in, u8 *const *out, unsigned int flags)
{
	if (!hk.in_fpu)
		hk_violation("fpu algo encode outside a section");
	hk.nt_calls += !!(flags & ECDMA_GF_NT);
	ecdma_gf_algo_generic.encode(len, k, m, tbls, in, out, flags);
}

static void fake_xor(size_t len, int k, const u8 *const *in, u8 *out,
		     unsigned int flags)
{
	if (!hk.in_fpu)
		hk_violation("fpu algo xor outside a section");
	hk.nt_calls += !!(flags & ECDMA_GF_NT);
	ecdma_gf_algo_generic.xor(len, k, in, out, flags);
}

/* RAID-6 P and Q by Horner's rule a byte at a time, as the SIMD ->pq */
static void fake_pq(size_t len, int k, const u8 *const *in, u8 *const *out,
		    unsigned int flags)
{
	size_t b;
	int i;

	if (!hk.in_fpu)
		hk_violation("fpu algo pq outside a section");
	hk.nt_calls += !!(flags & ECDMA_GF_NT);
	hk.algo_pq_calls++;
	for (b = 0; b < len; b++) {
		u8 p = in[k - 1][b], q = p;

		for (i = k - 2; i >= 0; i--) {
			p ^= in[i][b];
			q = (u8)(q << 1) ^ (q & 0x80 ? 0x1d : 0) ^ in[i][b];
		}
		if (flags & ECDMA_GF_ACC) {
			p ^= out[0][b];
			q ^= out[1][b];
		}
		out[0][b] = p;
		out[1][b] = q;
	}
}

static void fake_prep(const u8 *matrix, int k, int m, u8 *tbls)
{
	ecdma_gf_prep_nibble(matrix, k, m, tbls);
}

/* different prep function: tables are not shared with generic */
static const struct ecdma_gf_algo fake_simd = {
	.name = "fake-simd",
	.priority = 100,
	.fpu = true,
	.tbl_bytes = ECDMA_GF_NIBBLE_TBL_BYTES,
	.prep = fake_prep,
	.encode = fake_encode,
	.xor = fake_xor,
	.pq = fake_pq,
};

/* ---------------------------------------------------------------------- */
/* Test calcs and blocks                                                  */
/* ---------------------------------------------------------------------- */

enum t_mat { T_VANDERMONDE, T_CAUCHY, T_RANDOM };

struct tcalc {
	int k, m;
	u8 *matrix;
	void *mem;
	struct ecdma_ec_xctx *x;
};

static void tcalc_free(struct tcalc *c)
{
	free(c->matrix);
	free(c->mem);
	memset(c, 0, sizeof(*c));
}

static int tcalc_init(struct tcalc *c, int k, int m, enum t_mat type,
		      const struct ecdma_gf_algo *algo,
		      const struct ecdma_ec_exec_hooks *hooks)
{
	struct ecdma_ec_exec_cfg cfg;
	size_t size;

	memset(c, 0, sizeof(*c));
	c->k = k;
	c->m = m;
	c->matrix = test_alloc((size_t)k * m);
	if (type == T_RANDOM)
		test_rnd_fill(c->matrix, (size_t)k * m);
	else if (ecdma_gf_gen_matrix(type == T_VANDERMONDE ?
				     ECDMA_EC_MATRIX_VANDERMONDE :
				     ECDMA_EC_MATRIX_CAUCHY, k, m, c->matrix))
		return -1;
	cfg.k = k;
	cfg.m = m;
	cfg.matrix = c->matrix;
	cfg.algo = algo ? algo : &ecdma_gf_algo_generic;
	cfg.hooks = hooks;
	size = ecdma_ec_exec_size(&cfg);
	if (!size)
		return -1;
	c->mem = test_alloc(size);
	c->x = ecdma_ec_exec_init(c->mem, &cfg);
	if (!c->x)
		return -1;
	ecdma_ec_exec_set_simd(c->x, !!hooks);
	if (t_pol)
		ecdma_ec_exec_set_policy(c->x, t_pol);
	return 0;
}

/* random (k, m) for which the matrix type exists */
static void rnd_km(enum t_mat type, int kmax, int *k, int *m)
{
	*m = test_rnd_range(1, T_MAX_M);
	if (type == T_VANDERMONDE) {
		int lim = ecdma_gf_vandermonde_max_k(*m);

		*k = test_rnd_range(1, min(min(lim, kmax), 256 - *m));
	} else {
		*k = test_rnd_range(1, min(kmax, 256 - *m));
	}
}

static const size_t t_lens[] = {
	1, 7, 63, 64, 65, 511, 512, 513, 1000, 1024, 2048, 4096, 4109,
	8192, 3 * 512 + 100,
};

static size_t rnd_len(void)
{
	if (test_rnd(4) == 0)
		return test_rnd_range(1, 12000);
	return t_lens[test_rnd(ARRAY_SIZE(t_lens))];
}

/* A block at a chosen misalignment, sized exactly (ASan sees overruns). */
struct tblk {
	void *raw;
	u8 *p;
};

static void blk_alloc(struct tblk *b, size_t len, bool aligned)
{
	size_t off = aligned ? 0 : test_rnd_range(1, 63);

	if (posix_memalign(&b->raw, 64, off + len)) {
		ksft_print_msg("out of memory\n");
		exit(2);
	}
	b->p = (u8 *)b->raw + off;
	test_rnd_fill(b->p, len);
}

static void blks_alloc(struct tblk *b, int n, size_t len, int align_mode)
{
	int i;

	/* 0: all aligned, 1: all random, 2: one misaligned */
	for (i = 0; i < n; i++)
		blk_alloc(&b[i], len, align_mode == 0 ||
			  (align_mode == 2 && i != n - 1) ||
			  (align_mode == 1 && test_rnd(2)));
}

static void blks_free(struct tblk *b, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(b[i].raw);
}

static void sge_set(struct ecdma_ec_sge *s, const u8 *p, size_t len)
{
	s->addr = (u64)(unsigned long)p;
	s->length = (u32)len;
	s->lkey = 0;
}

/* Execute with a random small budget per call (or all at once). */
/* @mem: @nd data SGEs @ds and @nc code SGEs @cs of @len bytes each */
static void mem_init(struct ecdma_ec_mem *mem, struct ecdma_ec_sge *ds, int nd,
		     struct ecdma_ec_sge *cs, int nc, size_t len)
{
	memset(mem, 0, sizeof(*mem));
	mem->data_blocks = ds;
	mem->num_data_sge = nd;
	mem->code_blocks = cs;
	mem->num_code_sge = nc;
	mem->block_size = (int)len;
}

/* @wr: an @op request on @nd data SGEs @ds and @nc code SGEs @cs, in @mem */
static void wr_init(struct ecdma_ec_wr *wr, struct ecdma_ec_mem *mem,
		    enum ecdma_ec_opcode op, struct ecdma_ec_sge *ds, int nd,
		    struct ecdma_ec_sge *cs, int nc, size_t len)
{
	mem_init(mem, ds, nd, cs, nc, len);
	memset(wr, 0, sizeof(*wr));
	wr->opcode = op;
	wr->mem = mem;
}

static int run_wr(struct tcalc *c, struct ecdma_ec_wr *wr, bool chunked)
{
	long budget;

	if (!chunked)
		return ecdma_ec_exec_wr(c->x, wr);
	if (ecdma_ec_exec_start(c->x, wr))
		return wr->status;
	do {
		budget = test_rnd_range(1, 20000);
		if (test_rnd(3) == 0)	/* switch executors' SIMD rights */
			ecdma_ec_exec_fpu_put(c->x);
	} while (!ecdma_ec_exec_run(c->x, &budget));
	ecdma_ec_exec_fpu_put(c->x);
	return wr->status;
}

static const struct ecdma_ec_caps t_caps = {
	.max_k = T_MAX_K,
	.max_m = T_MAX_M,
	.w_mask = BIT(ECDMA_EC_W - 1),
	.max_inflight = ECDMA_EC_MAX_INFLIGHT,
	.block_align = 1,
	.flags = ECDMA_EC_CAP_UPDATE | ECDMA_EC_CAP_INPLACE |
		 ECDMA_EC_CAP_VALIDATE,
};

/* ---------------------------------------------------------------------- */
/* Validation                                                             */
/* ---------------------------------------------------------------------- */

static void test_attr(void)
{
	struct ecdma_ec_calc_attr good = {
		.k = 10, .m = 4, .w = 8, .max_inflight = 16,
		.affinity_hint = -1,
		.matrix_type = ECDMA_EC_MATRIX_CAUCHY,
	}, a;
	u8 mat[4];
	unsigned int bad = 0;

#define ATTR(expr, want) do {					\
		a = good;					\
		expr;						\
		if (ecdma_ec_validate_attr(&t_caps, &a) != (want)) {	\
			bad++;					\
			ksft_print_msg("attr: %s\n", #expr);	\
		}						\
	} while (0)

	ATTR((void)0, 0);
	ATTR(a.k = 0, -EINVAL);
	ATTR(a.k = -1, -EINVAL);
	ATTR(a.k = 256, -EINVAL);
	ATTR(a.m = 0, -EINVAL);
	ATTR(a.m = 17, -EINVAL);
	ATTR(a.w = 4, -EINVAL);
	ATTR(a.w = 0, -EINVAL);
	ATTR(a.w = 16, -EINVAL);
	ATTR(a.max_inflight = 0, -EINVAL);
	ATTR(a.max_inflight = ECDMA_EC_MAX_INFLIGHT + 1, -EINVAL);
	ATTR(a.max_inflight = ECDMA_EC_MAX_INFLIGHT, 0);
	ATTR(a.affinity_hint = -2, -EINVAL);
	ATTR(a.affinity_hint = 3, 0);
	ATTR(a.matrix_type = 7, -EINVAL);
	ATTR(a.encode_matrix = mat, -EINVAL);
	ATTR(a.matrix_type = ECDMA_EC_MATRIX_USER, -EINVAL);
	ATTR((a.matrix_type = ECDMA_EC_MATRIX_USER, a.encode_matrix = mat), 0);
	ATTR((a.k = 250, a.m = 7), -EINVAL);	/* k + m > 256 */
	ATTR((a.k = 255, a.m = 16, a.matrix_type = ECDMA_EC_MATRIX_USER,
	      a.encode_matrix = mat), 0);
	ATTR((a.k = 1, a.m = 1), 0);
#undef ATTR
	bad += ecdma_ec_validate_attr(&t_caps, NULL) != -EINVAL;
	bad += ecdma_ec_validate_attr(NULL, &good) != -EINVAL;
	ksft_test_result(!bad, "validate_attr (%u wrong)\n", bad);
}

static void test_wr_misuse(void)
{
	enum { K = 4, M = 2, BS = 256 };
	static u8 buf[K + M + 4][BS], era[K + M], du[K], cu[M];
	struct ecdma_ec_sge d[K + 4], c[M + 1];
	struct ecdma_ec_mem mem, mem0;
	struct ecdma_ec_wr wr, wr0;
	struct ecdma_ec_caps caps;
	u8 mat[K * M] = { 0 };
	unsigned int bad = 0;
	int i;

	for (i = 0; i < K + 4; i++)
		sge_set(&d[i], buf[i], BS);
	for (i = 0; i < M + 1; i++)
		sge_set(&c[i], buf[K + i], BS);
	memset(&mem0, 0, sizeof(mem0));
	mem0.data_blocks = d;
	mem0.num_data_sge = K;
	mem0.code_blocks = c;
	mem0.num_code_sge = M;
	mem0.block_size = BS;
	memset(&wr0, 0, sizeof(wr0));
	wr0.opcode = ECDMA_EC_OP_ENCODE;
	wr0.mem = &mem;

#define WR(expr, want) do {						\
		mem = mem0;						\
		wr = wr0;						\
		caps = t_caps;						\
		for (i = 0; i < K + 4; i++)				\
			sge_set(&d[i], buf[i], BS);			\
		for (i = 0; i < M + 1; i++)				\
			sge_set(&c[i], buf[K + i], BS);			\
		memset(era, 0, sizeof(era));				\
		memset(du, 0, sizeof(du));				\
		memset(cu, 0, sizeof(cu));				\
		expr;							\
		if (ecdma_ec_validate_wr(&caps, K, M, &wr) != (want)) {	\
			bad++;						\
			ksft_print_msg("wr: %s -> %d\n", #expr,	\
				ecdma_ec_validate_wr(&caps, K, M, &wr)); \
		}							\
	} while (0)

	WR((void)0, 0);
	WR(wr.opcode = ECDMA_EC_OP_MAX, -EINVAL);
	WR(wr.opcode = (enum ecdma_ec_opcode)-1, -EINVAL);
	WR(wr.flags = BIT(5), -EINVAL);
	WR(wr.flags = ECDMA_EC_WR_ACCUMULATE, 0);
	WR((wr.opcode = ECDMA_EC_OP_VALIDATE,
	    wr.flags = ECDMA_EC_WR_ACCUMULATE), -EINVAL);
	WR(wr.mem = NULL, -EINVAL);
	WR((wr.opcode = ECDMA_EC_OP_NOP, wr.mem = NULL), 0);
	WR(mem.block_size = 0, -EINVAL);
	WR(mem.block_size = -5, -EINVAL);
	WR((caps.block_align = 64, mem.block_size = 100), -EINVAL);
	WR(mem.num_data_sge = K - 1, -EINVAL);
	WR(mem.num_data_sge = K + 1, -EINVAL);
	WR(mem.num_code_sge = M - 1, -EINVAL);
	WR(mem.num_code_sge = M + 1, -EINVAL);
	WR(mem.num_data_sge = -1, -EINVAL);
	WR(mem.data_blocks = NULL, -EINVAL);
	WR(mem.code_blocks = NULL, -EINVAL);
	WR((wr.matrix = mat, mem.num_data_sge = K - 2, mem.num_code_sge = 1),
	   0);
	WR((wr.matrix = mat, mem.num_data_sge = K + 1), -EINVAL);
	WR((wr.matrix = mat, mem.num_data_sge = 0), -EINVAL);
	WR((wr.matrix = mat, mem.num_code_sge = 0), -EINVAL);
	WR(d[1].length = BS - 1, -EINVAL);
	WR(c[0].length = BS + 1, -EINVAL);
	WR(d[2].addr = 0, -EINVAL);
	WR(d[2].addr = ~0ULL - 10, -EINVAL);
	/* overlaps */
	WR(c[1].addr = c[0].addr, -EINVAL);		/* duplicate output */
	WR(c[1].addr = c[0].addr + 1, -EINVAL);
	WR(c[0].addr = d[1].addr, 0);			/* in place */
	WR((c[0].addr = d[1].addr, caps.flags &= ~ECDMA_EC_CAP_INPLACE),
	   -EINVAL);
	WR(c[0].addr = d[1].addr + 3, -EINVAL);	/* partial overlap */
	WR(c[0].addr = d[1].addr - BS + 1, -EINVAL);
	WR(c[0].addr = d[1].addr + BS, 0);		/* adjacent is fine */
	/* decode */
	WR((wr.opcode = ECDMA_EC_OP_DECODE, wr.erasures = era), 0);
	WR((wr.opcode = ECDMA_EC_OP_DECODE, era[0] = 1, era[5] = 1,
	    wr.erasures = era), 0);
	WR((wr.opcode = ECDMA_EC_OP_DECODE, era[0] = 1, era[1] = 1, era[2] = 1,
	    wr.erasures = era), -EINVAL);		/* more than m */
	WR(wr.opcode = ECDMA_EC_OP_DECODE, -EINVAL);	/* no map */
	WR((wr.opcode = ECDMA_EC_OP_DECODE, wr.erasures = era,
	    mem.num_code_sge = 1), -EINVAL);
	WR((wr.opcode = ECDMA_EC_OP_DECODE, wr.erasures = era,
	    wr.flags = ECDMA_EC_WR_ACCUMULATE), -EINVAL);
	/* erased block 0 written over survivor 1 */
	WR((wr.opcode = ECDMA_EC_OP_DECODE, era[0] = 1, wr.erasures = era,
	    d[0].addr = d[1].addr + 8), -EINVAL);
	/* erased 0 on top of survivor 5 that is not an input (k = 4) */
	WR((wr.opcode = ECDMA_EC_OP_DECODE, era[0] = 1, wr.erasures = era,
	    d[0].addr = c[1].addr), 0);
	/* two erased blocks on the same memory */
	WR((wr.opcode = ECDMA_EC_OP_DECODE, era[0] = 1, era[1] = 1,
	    wr.erasures = era, d[0].addr = d[1].addr), -EINVAL);
	/* update: 1 changed data, 2 updated codes: 2 + 2 inputs, 2 outputs */
	WR((wr.opcode = ECDMA_EC_OP_UPDATE, du[1] = 1, cu[0] = 1, cu[1] = 1,
	    wr.data_updates = du, wr.code_updates = cu), 0);
	WR((wr.opcode = ECDMA_EC_OP_UPDATE, du[1] = 1, cu[0] = 1, cu[1] = 1,
	    wr.data_updates = du, wr.code_updates = cu,
	    c[0].addr = d[0].addr), 0);			/* c' on c */
	WR((wr.opcode = ECDMA_EC_OP_UPDATE, du[1] = 1, cu[0] = 1,
	    wr.data_updates = du, wr.code_updates = cu), -EINVAL);
	WR((wr.opcode = ECDMA_EC_OP_UPDATE, cu[0] = 1, cu[1] = 1,
	    wr.data_updates = du, wr.code_updates = cu), -EINVAL);
	WR((wr.opcode = ECDMA_EC_OP_UPDATE, du[1] = 1, cu[0] = 1, cu[1] = 1,
	    wr.code_updates = cu), -EINVAL);
	WR((wr.opcode = ECDMA_EC_OP_UPDATE, du[1] = 1, du[2] = 1,
	    cu[0] = 1, cu[1] = 1, wr.data_updates = du, wr.code_updates = cu),
	   -EINVAL);				/* needs 6 inputs */
	WR((wr.opcode = ECDMA_EC_OP_UPDATE, du[1] = 1, du[2] = 1,
	    cu[0] = 1, cu[1] = 1, wr.data_updates = du, wr.code_updates = cu,
	    mem.num_data_sge = 6), 0);
	WR((wr.opcode = ECDMA_EC_OP_UPDATE, du[1] = 1, cu[0] = 1, cu[1] = 1,
	    wr.data_updates = du, wr.code_updates = cu,
	    caps.flags &= ~ECDMA_EC_CAP_UPDATE), -EOPNOTSUPP);
	/* validate: read only, overlaps allowed */
	WR(wr.opcode = ECDMA_EC_OP_VALIDATE, 0);
	WR((wr.opcode = ECDMA_EC_OP_VALIDATE, c[1].addr = c[0].addr), 0);
	WR((wr.opcode = ECDMA_EC_OP_VALIDATE,
	    caps.flags &= ~ECDMA_EC_CAP_VALIDATE), -EOPNOTSUPP);
	/* copy */
	WR((wr.opcode = ECDMA_EC_OP_COPY, mem.num_data_sge = 1,
	    mem.num_code_sge = 1), 0);
	WR((wr.opcode = ECDMA_EC_OP_COPY, mem.num_data_sge = 1,
	    mem.num_code_sge = 1, c[0].addr = d[0].addr + 5), 0);
	WR((wr.opcode = ECDMA_EC_OP_COPY, mem.num_data_sge = 2,
	    mem.num_code_sge = 1), -EINVAL);
#undef WR
	bad += ecdma_ec_validate_wr(&t_caps, K, M, NULL) != -EINVAL;
	ksft_test_result(!bad, "validate_wr_misuse (%u wrong)\n", bad);
}

/* ---------------------------------------------------------------------- */
/* Execution                                                              */
/* ---------------------------------------------------------------------- */

/*
 * ENCODE with the calc matrix, against ISA-L and the reference; optional
 * per-WR matrix, accumulate, in-place outputs, chunking.
 */
struct enc_opts {
	enum t_mat type;
	bool per_wr;
	bool acc;
	bool inplace;
	bool chunked;
	bool pq_like;	/* per-WR: P all ones, Q {02}^(i + shift), shift 0..2 */
	int align_mode;
	const struct ecdma_gf_algo *algo;
	const struct ecdma_ec_exec_hooks *hooks;
	int kmax;
	int fix_k, fix_m;
};

static int one_encode(const struct enc_opts *o, bool check_isal)
{
	struct ecdma_ec_sge ds[T_MAX_K], cs[T_MAX_M];
	struct tblk d[T_MAX_K], c[T_MAX_M];
	u8 *din[T_MAX_K], *ref[T_MAX_M], *iso[T_MAX_M], *cout[T_MAX_M];
	u8 *wmat = NULL;
	struct ecdma_ec_mem mem;
	struct ecdma_ec_wr wr;
	struct tcalc tc;
	int k, m, nin, nout, i, j, fail = 0;
	size_t len = rnd_len();
	const u8 *coef;

	if (o->fix_k) {
		k = o->fix_k;
		m = o->fix_m;
	} else {
		rnd_km(o->type, o->kmax ? o->kmax : T_MAX_K, &k, &m);
	}
	if (tcalc_init(&tc, k, m, o->type, o->algo, o->hooks)) {
		ksft_print_msg("calc init k=%d m=%d failed\n", k, m);
		return 1;
	}
	nin = k;
	nout = m;
	coef = tc.matrix;
	if (o->per_wr) {
		nin = test_rnd_range(1, k);
		nout = test_rnd_range(1, m);
		if (o->pq_like && m >= 2)
			nout = 2;
		wmat = test_alloc((size_t)nin * nout);
		test_rnd_fill(wmat, (size_t)nin * nout);
		if (o->pq_like && nout == 2) {
			int shift = test_rnd(3);

			for (i = 0; i < nin; i++) {
				wmat[2 * i] = 1;
				wmat[2 * i + 1] = slow_pow2(i + shift);
			}
		}
		coef = wmat;
	}
	blks_alloc(d, nin, len, o->align_mode);
	blks_alloc(c, nout, len, o->align_mode);
	for (i = 0; i < nin; i++) {
		din[i] = d[i].p;
		sge_set(&ds[i], d[i].p, len);
	}
	for (j = 0; j < nout; j++) {
		cout[j] = c[j].p;
		/* in place: output j on top of input j (if there is one) */
		if (o->inplace && j < nin && test_rnd(2))
			cout[j] = din[j];
		sge_set(&cs[j], cout[j], len);
		ref[j] = test_alloc(len);
		iso[j] = test_alloc(len);
		memcpy(ref[j], cout[j], len);
	}

	/* reference on private copies of the inputs */
	{
		u8 *cp[T_MAX_K];

		for (i = 0; i < nin; i++) {
			cp[i] = test_alloc(len);
			memcpy(cp[i], din[i], len);
		}
		ref_product(len, nin, nout, coef, cp, ref, o->acc);
		if (check_isal && !o->acc) {
			isal_encode((int)len, nin, nout, coef, cp, iso);
			for (j = 0; j < nout; j++)
				if (memcmp(iso[j], ref[j], len))
					fail |= 2;
		}
		for (i = 0; i < nin; i++)
			free(cp[i]);
	}

	wr_init(&wr, &mem, ECDMA_EC_OP_ENCODE, ds, nin, cs,
		nout, len);
	wr.flags = o->acc ? ECDMA_EC_WR_ACCUMULATE : 0;
	wr.matrix = wmat;
	wr.result = 0xdead;
	if (ecdma_ec_validate_wr(&t_caps, k, m, &wr))
		fail |= 4;
	else if (run_wr(&tc, &wr, o->chunked) || wr.result)
		fail |= 8;
	for (j = 0; j < nout; j++)
		if (memcmp(cout[j], ref[j], len))
			fail |= 1;
	if (fail)
		ksft_print_msg("encode k=%d m=%d nin=%d nout=%d len=%zu acc=%d fail=%d\n",
			       k, m, nin, nout, len, o->acc, fail);

	for (j = 0; j < nout; j++) {
		free(ref[j]);
		free(iso[j]);
	}
	blks_free(d, nin);
	blks_free(c, nout);
	free(wmat);
	tcalc_free(&tc);
	return fail;
}

static void run_encode_test(const char *name, struct enc_opts o, int iters,
			    bool isal)
{
	unsigned int bad = 0;
	int it;

	for (it = 0; it < iters; it++) {
		struct enc_opts oi = o;

		if (oi.align_mode < 0)
			oi.align_mode = test_rnd(3);
		bad += !!one_encode(&oi, isal);
	}
	ksft_test_result(!bad, "%s (%u/%d wrong)\n", name, bad, iters);
}

/* Encode a stripe with the calc matrix (reference), for decode/update. */
static void stripe_encode(struct tcalc *tc, u8 **blk, size_t len)
{
	ref_product(len, tc->k, tc->m, tc->matrix, blk, blk + tc->k, false);
}

static void rnd_erasures(u8 *era, int k, int m, int nerr)
{
	int n = 0;

	memset(era, 0, k + m);
	while (n < nerr) {
		int i = test_rnd(k + m);

		if (!era[i]) {
			era[i] = 1;
			n++;
		}
	}
}

/* DECODE with the calc matrix: erased blocks come back. */
static int one_decode(enum t_mat type, const struct ecdma_ec_exec_hooks *hooks,
		      const struct ecdma_gf_algo *algo, bool chunked,
		      int repeats, struct tcalc *keep)
{
	struct ecdma_ec_sge sg[T_MAX_K + T_MAX_M];
	struct tblk b[T_MAX_K + T_MAX_M];
	u8 *orig[T_MAX_K + T_MAX_M], *p[T_MAX_K + T_MAX_M];
	u8 era[T_MAX_K + T_MAX_M];
	struct ecdma_ec_mem mem;
	struct ecdma_ec_wr wr;
	struct tcalc tc;
	int k, m, i, r, fail = 0, n;
	size_t len = rnd_len();

	rnd_km(type, 40, &k, &m);
	if (tcalc_init(&tc, k, m, type, algo, hooks))
		return 1;
	n = k + m;
	blks_alloc(b, n, len, test_rnd(3));
	for (i = 0; i < n; i++) {
		p[i] = b[i].p;
		sge_set(&sg[i], p[i], len);
	}
	stripe_encode(&tc, p, len);
	for (i = 0; i < n; i++) {
		orig[i] = test_alloc(len);
		memcpy(orig[i], p[i], len);
	}
	mem_init(&mem, sg, k, sg + k, m, len);

	rnd_erasures(era, k, m, test_rnd_range(1, m));
	for (r = 0; r < repeats; r++) {
		if (r && test_rnd(2))	/* new pattern or the same (cache) */
			rnd_erasures(era, k, m, test_rnd_range(0, m));
		for (i = 0; i < n; i++)
			if (era[i])
				memset(p[i], 0x5a, len);
		memset(&wr, 0, sizeof(wr));
		wr.opcode = ECDMA_EC_OP_DECODE;
		wr.mem = &mem;
		wr.erasures = era;
		if (ecdma_ec_validate_wr(&t_caps, k, m, &wr) ||
		    run_wr(&tc, &wr, chunked))
			fail |= 2;
		for (i = 0; i < n; i++)
			if (memcmp(p[i], orig[i], len))
				fail |= 1;
	}
	if (fail)
		ksft_print_msg("decode k=%d m=%d len=%zu fail=%d\n", k, m, len,
			       fail);
	for (i = 0; i < n; i++)
		free(orig[i]);
	blks_free(b, n);
	if (keep)
		*keep = tc;
	else
		tcalc_free(&tc);
	return fail;
}

/* DECODE with a per-WR decode matrix: the product over the survivors. */
static int one_decode_wr_matrix(void)
{
	struct ecdma_ec_sge sg[T_MAX_K + T_MAX_M];
	struct tblk b[T_MAX_K + T_MAX_M];
	u8 *p[T_MAX_K + T_MAX_M], *in[T_MAX_K], *ref[T_MAX_M];
	u8 era[T_MAX_K + T_MAX_M], *dm;
	struct ecdma_ec_mem mem;
	struct ecdma_ec_wr wr;
	struct tcalc tc;
	int k, m, i, n, nerr, ni = 0, no = 0, fail = 0;
	size_t len = rnd_len();

	rnd_km(T_CAUCHY, 60, &k, &m);
	if (tcalc_init(&tc, k, m, T_CAUCHY, NULL, NULL))
		return 1;
	n = k + m;
	nerr = test_rnd_range(1, m);
	rnd_erasures(era, k, m, nerr);
	dm = test_alloc((size_t)k * nerr);
	test_rnd_fill(dm, (size_t)k * nerr);
	blks_alloc(b, n, len, 1);
	for (i = 0; i < n; i++) {
		p[i] = b[i].p;
		sge_set(&sg[i], p[i], len);
		if (!era[i] && ni < k)
			in[ni++] = p[i];
		else if (era[i])
			ref[no++] = test_alloc(len);
	}
	ref_product(len, k, nerr, dm, in, ref, false);
	mem_init(&mem, sg, k, sg + k, m, len);
	memset(&wr, 0, sizeof(wr));
	wr.opcode = ECDMA_EC_OP_DECODE;
	wr.mem = &mem;
	wr.erasures = era;
	wr.matrix = dm;
	if (ecdma_ec_validate_wr(&t_caps, k, m, &wr) ||
	    run_wr(&tc, &wr, test_rnd(2)))
		fail |= 2;
	for (i = 0, no = 0; i < n; i++)
		if (era[i] && memcmp(p[i], ref[no++], len))
			fail |= 1;
	for (i = 0; i < nerr; i++)
		free(ref[i]);
	free(dm);
	blks_free(b, n);
	tcalc_free(&tc);
	return fail;
}

/*
 * UPDATE: new codes equal a full encode of the new data; optionally c' in
 * place of c, optionally a per-WR (k x m) matrix.
 */
static int one_update(bool per_wr, bool chunked)
{
	struct ecdma_ec_sge ds[T_MAX_M + 2 * 40], cs[T_MAX_M];
	u8 *data[40], *newd[40], *code[T_MAX_M], *want[T_MAX_M + 40];
	u8 *cnew[T_MAX_M], du[40], cu[T_MAX_M];
	struct tblk bd[40], bn[40], bc[T_MAX_M], bo[T_MAX_M];
	const u8 *e;
	struct ecdma_ec_mem mem;
	struct ecdma_ec_wr wr;
	struct tcalc tc;
	int k, m, i, j, u = 0, uc = 0, nd = 0, fail = 0;
	size_t len = rnd_len();
	u8 *wmat = NULL;
	bool inplace = test_rnd(2);

	rnd_km(T_CAUCHY, 40, &k, &m);
	if (tcalc_init(&tc, k, m, T_CAUCHY, NULL, test_rnd(2) ? &hooks_all :
		       NULL))
		return 1;
	e = tc.matrix;
	if (per_wr) {
		wmat = test_alloc((size_t)k * m);
		test_rnd_fill(wmat, (size_t)k * m);
		e = wmat;
	}
	blks_alloc(bd, k, len, 0);
	blks_alloc(bn, k, len, 0);
	blks_alloc(bc, m, len, 0);
	blks_alloc(bo, m, len, 0);
	for (i = 0; i < k; i++) {
		data[i] = bd[i].p;
		du[i] = test_rnd(3) == 0;
		newd[i] = du[i] ? bn[i].p : data[i];
		u += du[i];
	}
	if (!u) {
		du[0] = 1;
		newd[0] = bn[0].p;
		u = 1;
	}
	for (j = 0; j < m; j++) {
		code[j] = bc[j].p;
		cu[j] = test_rnd(2);
		uc += cu[j];
	}
	if (!uc) {
		cu[m - 1] = 1;
		uc = 1;
	}
	/* old codes from the old data, wanted codes from the new data */
	ref_product(len, k, m, e, data, code, false);
	for (j = 0; j < m; j++)
		want[j] = test_alloc(len);
	ref_product(len, k, m, e, newd, want, false);

	for (j = 0, uc = 0; j < m; j++) {
		if (!cu[j])
			continue;
		sge_set(&ds[nd++], code[j], len);
		cnew[uc] = inplace ? code[j] : bo[j].p;
		sge_set(&cs[uc], cnew[uc], len);
		uc++;
	}
	for (i = 0; i < k; i++) {
		if (!du[i])
			continue;
		sge_set(&ds[nd++], data[i], len);
		sge_set(&ds[nd++], newd[i], len);
	}
	wr_init(&wr, &mem, ECDMA_EC_OP_UPDATE, ds, nd, cs,
		uc, len);
	wr.data_updates = du;
	wr.code_updates = cu;
	wr.matrix = wmat;
	if (ecdma_ec_validate_wr(&t_caps, k, m, &wr) ||
	    run_wr(&tc, &wr, chunked))
		fail |= 2;
	for (j = 0, uc = 0; j < m; j++)
		if (cu[j] && memcmp(cnew[uc++], want[j], len))
			fail |= 1;
	if (fail)
		ksft_print_msg("update k=%d m=%d u=%d len=%zu fail=%d\n", k, m,
			       u, len, fail);
	for (j = 0; j < m; j++)
		free(want[j]);
	blks_free(bd, k);
	blks_free(bn, k);
	blks_free(bc, m);
	blks_free(bo, m);
	free(wmat);
	tcalc_free(&tc);
	return fail;
}

/* VALIDATE: bits for exactly the corrupted code blocks, nothing written. */
static int one_validate(enum t_mat type, const struct ecdma_ec_exec_hooks *h,
			bool per_wr, bool chunked)
{
	struct ecdma_ec_sge sg[T_MAX_K + T_MAX_M];
	struct tblk b[T_MAX_K + T_MAX_M];
	u8 *p[T_MAX_K + T_MAX_M], *copy[T_MAX_K + T_MAX_M], *wmat = NULL;
	struct ecdma_ec_mem mem;
	struct ecdma_ec_wr wr;
	struct tcalc tc;
	int k, m, i, j, n, fail = 0;
	size_t len = rnd_len();
	u32 want = 0;

	rnd_km(type, 60, &k, &m);
	if (per_wr && test_rnd(2)) {	/* RAID-6 P/Q per WR: fast path */
		m = 2;
		k = test_rnd_range(2, 60);
	}
	if (tcalc_init(&tc, k, m, per_wr ? T_CAUCHY : type, NULL, h))
		return 1;
	n = k + m;
	blks_alloc(b, n, len, test_rnd(3));
	for (i = 0; i < n; i++) {
		p[i] = b[i].p;
		sge_set(&sg[i], p[i], len);
	}
	if (per_wr) {
		wmat = test_alloc((size_t)k * m);
		if (m == 2)
			ecdma_gf_gen_matrix(ECDMA_EC_MATRIX_VANDERMONDE, k, 2,
					    wmat);
		else
			test_rnd_fill(wmat, (size_t)k * m);
		ref_product(len, k, m, wmat, p, p + k, false);
	} else {
		stripe_encode(&tc, p, len);
	}
	for (j = 0; j < m; j++) {
		if (test_rnd(3))
			continue;
		p[k + j][test_rnd(len)] ^= (u8)test_rnd_range(1, 255);
		want |= BIT(j);
	}
	for (i = 0; i < n; i++) {
		copy[i] = test_alloc(len);
		memcpy(copy[i], p[i], len);
	}
	mem_init(&mem, sg, k, sg + k, m, len);
	memset(&wr, 0, sizeof(wr));
	wr.opcode = ECDMA_EC_OP_VALIDATE;
	wr.mem = &mem;
	wr.matrix = wmat;
	if (ecdma_ec_validate_wr(&t_caps, k, m, &wr) ||
	    run_wr(&tc, &wr, chunked))
		fail |= 2;
	if (wr.result != want)
		fail |= 1;
	for (i = 0; i < n; i++) {
		if (memcmp(copy[i], p[i], len))
			fail |= 4;
		free(copy[i]);
	}
	if (fail)
		ksft_print_msg("validate k=%d m=%d len=%zu want=%x got=%x fail=%d\n",
			       k, m, len, want, wr.result, fail);
	blks_free(b, n);
	free(wmat);
	tcalc_free(&tc);
	return fail;
}

static void test_copy_nop(void)
{
	struct ecdma_ec_sge s[2];
	struct ecdma_ec_mem mem;
	struct ecdma_ec_wr wr;
	struct tcalc tc;
	unsigned int bad = 0;
	int it;

	if (tcalc_init(&tc, 3, 2, T_CAUCHY, NULL, &hooks_all)) {
		ksft_test_result_fail("copy_and_nop (init)\n");
		return;
	}
	for (it = 0; it < 300; it++) {
		size_t len = rnd_len(), total = 3 * len + 64, so, dof;
		u8 *buf = test_alloc(total), *ref = test_alloc(total);

		test_rnd_fill(buf, total);
		memcpy(ref, buf, total);
		so = test_rnd(total - len + 1);
		/* half of the time overlapping */
		if (test_rnd(2) && len > 1) {
			long delta = test_rnd_range(-(int)len + 1, len - 1);

			dof = (long)so + delta < 0 ? 0 :
			      (size_t)((long)so + delta);
			if (dof + len > total)
				dof = total - len;
		} else {
			dof = test_rnd(total - len + 1);
		}
		memmove(ref + dof, ref + so, len);
		sge_set(&s[0], buf + so, len);
		sge_set(&s[1], buf + dof, len);
		mem_init(&mem, &s[0], 1, &s[1], 1, len);
		memset(&wr, 0, sizeof(wr));
		wr.opcode = ECDMA_EC_OP_COPY;
		wr.mem = &mem;
		bad += ecdma_ec_validate_wr(&t_caps, 3, 2, &wr) != 0;
		bad += run_wr(&tc, &wr, test_rnd(2)) != 0;
		bad += !!memcmp(buf, ref, total);
		free(buf);
		free(ref);
	}
	memset(&wr, 0, sizeof(wr));
	wr.opcode = ECDMA_EC_OP_NOP;
	wr.status = 5;
	wr.result = 7;
	bad += ecdma_ec_validate_wr(&t_caps, 3, 2, &wr) != 0;
	bad += ecdma_ec_exec_wr(tc.x, &wr) != 0 || wr.status || wr.result;
	bad += ecdma_ec_exec_busy(tc.x);
	tcalc_free(&tc);
	ksft_test_result(!bad, "copy_memmove_and_nop (%u wrong)\n", bad);
}

/* DECODE with no erasures is a no-op; blocks untouched. */
static void test_decode_zero_erasures(void)
{
	struct ecdma_ec_sge sg[6];
	struct tblk b[6];
	u8 era[6] = { 0 }, *copy[6];
	struct ecdma_ec_mem mem;
	struct ecdma_ec_wr wr;
	struct tcalc tc;
	unsigned int bad = 0;
	int i;

	if (tcalc_init(&tc, 4, 2, T_VANDERMONDE, NULL, NULL)) {
		ksft_test_result_fail("decode_zero_erasures (init)\n");
		return;
	}
	blks_alloc(b, 6, 700, 0);
	for (i = 0; i < 6; i++) {
		sge_set(&sg[i], b[i].p, 700);
		copy[i] = test_alloc(700);
		memcpy(copy[i], b[i].p, 700);
	}
	mem_init(&mem, sg, 4, sg + 4, 2, 700);
	memset(&wr, 0, sizeof(wr));
	wr.opcode = ECDMA_EC_OP_DECODE;
	wr.mem = &mem;
	wr.erasures = era;
	bad += ecdma_ec_validate_wr(&t_caps, 4, 2, &wr) != 0;
	bad += run_wr(&tc, &wr, true) != 0;
	for (i = 0; i < 6; i++) {
		bad += !!memcmp(copy[i], b[i].p, 700);
		free(copy[i]);
	}
	blks_free(b, 6);
	tcalc_free(&tc);
	ksft_test_result(!bad, "decode_zero_erasures_is_nop (%u wrong)\n", bad);
}

static void hk_reset(void)
{
	memset(&hk, 0, sizeof(hk));
}

static void test_fast_pq(void)
{
	struct enc_opts o = {
		.type = T_VANDERMONDE, .align_mode = 0, .hooks = &hooks_all,
		.fix_m = 2,
	};
	unsigned int bad = 0;
	int it;

	hk_reset();
	for (it = 0; it < 150; it++) {
		o.fix_k = test_rnd_range(2, 40);
		o.acc = test_rnd(2);
		o.chunked = test_rnd(2);
		bad += !!one_encode(&o, false);
	}
	/* P/Q fast path must not have been used for aliasing or misaligned */
	ksft_test_result(!bad && hk.pq_calls && !hk.violations,
			 "fast_pq_dispatch (%u wrong, %lu pq calls, %lu violations)\n",
			 bad, hk.pq_calls, hk.violations);

	hk_reset();
	bad = 0;
	for (it = 0; it < 150; it++) {
		o.fix_k = test_rnd_range(2, 40);
		o.acc = test_rnd(2);
		o.inplace = test_rnd(2);
		o.align_mode = test_rnd(3);
		o.chunked = test_rnd(2);
		hk.pq_refuse_acc = test_rnd(2);
		bad += !!one_encode(&o, false);
	}
	/* per-WR P/Q-like matrices: only exact {02}^i may take the fast path */
	o.per_wr = true;
	o.pq_like = true;
	o.type = T_CAUCHY;
	hk.pq_refuse_acc = false;
	for (it = 0; it < 150; it++) {
		o.fix_k = test_rnd_range(2, 60);
		o.fix_m = test_rnd_range(2, T_MAX_M);
		o.acc = test_rnd(2);
		o.inplace = test_rnd(2);
		o.align_mode = test_rnd(2) ? 0 : test_rnd(3);
		o.chunked = test_rnd(2);
		bad += !!one_encode(&o, false);
	}
	ksft_test_result(!bad && !hk.violations,
			 "fast_pq_skipped_when_unusable (%u wrong, %lu violations)\n",
			 bad, hk.violations);
}

/*
 * Q alone ({02}^i, one output): ENCODE and VALIDATE take the RAID-6 fast
 * path with P into scratch (only exact {02}^i, not accumulating), and the
 * results are those of the reference product.
 */
static int one_q(bool exact, bool acc, bool validate, bool chunked,
		 int align_mode)
{
	struct ecdma_ec_sge sg[T_MAX_K + 1];
	struct tblk b[T_MAX_K + 1];
	u8 *p[T_MAX_K + 1], *want, *copy[T_MAX_K + 1], wmat[T_MAX_K];
	struct ecdma_ec_mem mem;
	struct ecdma_ec_wr wr;
	struct tcalc tc;
	int k = test_rnd_range(2, 60), i, fail = 0;
	size_t len = rnd_len();
	u32 want_res = 0;

	if (tcalc_init(&tc, k, 2, T_CAUCHY, NULL, &hooks_all))
		return 1;
	for (i = 0; i < k; i++)
		wmat[i] = slow_pow2(i + !exact);
	blks_alloc(b, k + 1, len, align_mode);
	for (i = 0; i <= k; i++) {
		p[i] = b[i].p;
		sge_set(&sg[i], p[i], len);
	}
	want = test_alloc(len);
	memcpy(want, p[k], len);
	ref_product(len, k, 1, wmat, p, &want, acc && !validate);
	if (validate) {
		memcpy(p[k], want, len);
		if (test_rnd(2)) {
			p[k][test_rnd(len)] ^= (u8)test_rnd_range(1, 255);
			want_res = 1;
		}
	}
	for (i = 0; i <= k; i++) {
		copy[i] = test_alloc(len);
		memcpy(copy[i], p[i], len);
	}
	mem_init(&mem, sg, k, sg + k, 1, len);
	memset(&wr, 0, sizeof(wr));
	wr.opcode = validate ? ECDMA_EC_OP_VALIDATE : ECDMA_EC_OP_ENCODE;
	if (acc && !validate)
		wr.flags = ECDMA_EC_WR_ACCUMULATE;
	wr.mem = &mem;
	wr.matrix = wmat;
	if (ecdma_ec_validate_wr(&t_caps, k, 2, &wr) || run_wr(&tc, &wr, chunked))
		fail |= 2;
	if (validate && wr.result != want_res)
		fail |= 1;
	if (!validate && memcmp(p[k], want, len))
		fail |= 1;
	/* sources never written; VALIDATE writes nothing */
	for (i = 0; i < k + validate; i++)
		if (memcmp(copy[i], p[i], len))
			fail |= 4;
	if (fail)
		ksft_print_msg("q k=%d len=%zu exact=%d acc=%d val=%d fail=%d\n",
			       k, len, exact, acc, validate, fail);
	for (i = 0; i <= k; i++)
		free(copy[i]);
	free(want);
	blks_free(b, k + 1);
	tcalc_free(&tc);
	return fail;
}

static void test_fast_q(void)
{
	unsigned int bad = 0, it;
	unsigned long calls;

	/* exact {02}^i, aligned, not accumulating: the fast path runs */
	hk_reset();
	for (it = 0; it < 100; it++)
		bad += !!one_q(true, false, test_rnd(2), test_rnd(2), 0);
	calls = hk.pq_calls;
	/* shifted exponents, accumulate, misaligned: right, and no misuse */
	for (it = 0; it < 200; it++)
		bad += !!one_q(test_rnd(2), test_rnd(2), test_rnd(2),
			       test_rnd(2), test_rnd(3));
	ksft_test_result(!bad && calls && !hk.violations,
			 "fast_q_alone (%u wrong, %lu pq calls, %lu violations)\n",
			 bad, calls, hk.violations);
}

/* @iters random XOR WRs through hooks_all; returns the wrong ones */
static unsigned int xor_loop(int iters)
{
	static const u8 ones[T_MAX_K] = { [0 ... T_MAX_K - 1] = 1 };
	unsigned int bad = 0;
	int it;

	for (it = 0; it < iters; it++) {
		struct ecdma_ec_sge ds[20], cs[1];
		struct tblk d[20], c;
		u8 *in[20], *ref, *out, *cp[20];
		struct ecdma_ec_mem mem;
		struct ecdma_ec_wr wr;
		struct tcalc tc;
		int nin = test_rnd_range(1, 20), i, alias = -1;
		size_t len = test_rnd(2) ? 4096 : rnd_len();
		bool acc = test_rnd(2);

		if (tcalc_init(&tc, 20, 1, T_CAUCHY, NULL, &hooks_all)) {
			bad++;
			continue;
		}
		blks_alloc(d, nin, len, test_rnd(4) ? 0 : 2);
		blks_alloc(&c, 1, len, 0);
		out = c.p;
		if (test_rnd(2)) {	/* dest is one of the sources */
			alias = test_rnd(nin);
			out = d[alias].p;
		}
		ref = test_alloc(len);
		memcpy(ref, out, len);
		for (i = 0; i < nin; i++) {
			in[i] = d[i].p;
			cp[i] = test_alloc(len);
			memcpy(cp[i], in[i], len);
			sge_set(&ds[i], in[i], len);
		}
		ref_product(len, nin, 1, ones, cp, &ref, acc);
		sge_set(&cs[0], out, len);
		wr_init(&wr, &mem, ECDMA_EC_OP_ENCODE, ds, nin, cs,
			1, len);
		wr.flags = acc ? ECDMA_EC_WR_ACCUMULATE : 0;
		wr.matrix = ones;
		bad += ecdma_ec_validate_wr(&t_caps, 20, 1, &wr) != 0;
		bad += run_wr(&tc, &wr, test_rnd(2)) != 0;
		bad += !!memcmp(out, ref, len);
		for (i = 0; i < nin; i++)
			free(cp[i]);
		free(ref);
		blks_free(d, nin);
		blks_free(&c, 1);
		tcalc_free(&tc);
	}
	return bad;
}

static void test_fast_xor(void)
{
	unsigned int bad;

	hk_reset();
	bad = xor_loop(300);
	ksft_test_result(!bad && hk.xor_calls && !hk.violations,
			 "fast_xor_dispatch (%u wrong, %lu xor calls, %lu violations)\n",
			 bad, hk.xor_calls, hk.violations);
}

/*
 * One encode WR of @len-byte aligned blocks under t_pol: (k, m) = (4, 2)
 * Vandermonde (exact P+Q), Cauchy (RS) or, with @xor, 6 sources XORed.
 * Returns the wrong bytes' count (0 or more); @nt_bytes: the calc's
 * nt_bytes after it.
 */
static unsigned int policy_wr(enum t_mat type, bool xor, int k, size_t len,
			      u64 *nt_bytes)
{
	static const u8 ones[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
	int m = xor ? 1 : 2, j;
	struct ecdma_ec_sge ds[8], cs[2];
	struct tblk d[8], c[2];
	u8 *ref[2], *cp[8], *outs[2];
	struct ecdma_ec_mem mem;
	struct ecdma_ec_wr wr;
	struct tcalc tc;
	unsigned int bad = 0;

	if (tcalc_init(&tc, k, m, type, &fake_simd, &hooks_all))
		return 1;
	blks_alloc(d, k, len, 0);
	blks_alloc(c, m, len, 0);
	for (j = 0; j < k; j++) {
		cp[j] = d[j].p;
		sge_set(&ds[j], d[j].p, len);
	}
	for (j = 0; j < m; j++) {
		ref[j] = test_alloc(len);
		outs[j] = c[j].p;
		sge_set(&cs[j], c[j].p, len);
	}
	ref_product(len, k, m, xor ? ones : tc.matrix, cp, ref, false);
	wr_init(&wr, &mem, ECDMA_EC_OP_ENCODE, ds, k, cs, m, len);
	if (xor)
		wr.matrix = ones;
	bad += run_wr(&tc, &wr, test_rnd(2)) != 0;
	for (j = 0; j < m; j++) {
		bad += !!memcmp(outs[j], ref[j], len);
		free(ref[j]);
	}
	*nt_bytes = ecdma_ec_exec_stats(tc.x)->nt_bytes;
	blks_free(d, k);
	blks_free(c, m);
	tcalc_free(&tc);
	return bad;
}

/*
 * Policy: fast paths off means off, and per block-size class; NT by block
 * size (nt_min) or by class and kind (nt), never
 * for accumulate or VALIDATE scratch.
 */
static void test_policy(void)
{
	static const size_t lens[] = { 100, 4095, 4096, 10000, 70000 };
	struct ecdma_ec_exec_policy off = { 0 };
	struct ecdma_ec_exec_policy nt = {
		.nt_min = 4096,
		.fast_pq = { ECDMA_GF_CLS_ALL, ECDMA_GF_CLS_ALL },
		.fast_xor = { ECDMA_GF_CLS_ALL, ECDMA_GF_CLS_ALL },
	};
	struct ecdma_ec_exec_policy cls = { 0 };
	struct enc_opts o = {
		.type = T_VANDERMONDE, .align_mode = 0, .hooks = &hooks_all,
		.fix_m = 2,
	};
	unsigned int bad = 0, i, phase;
	u64 ntb;
	int it;

	hk_reset();
	t_pol = &off;
	for (it = 0; it < 100; it++) {
		o.fix_k = test_rnd_range(2, 40);
		o.acc = test_rnd(2);
		o.chunked = test_rnd(2);
		bad += !!one_encode(&o, false);
	}
	bad += xor_loop(100);
	ksft_test_result(!bad && !hk.pq_calls && !hk.xor_calls &&
			 !hk.violations,
			 "policy_fast_paths_off (%u wrong, %lu pq, %lu xor calls)\n",
			 bad, hk.pq_calls, hk.xor_calls);

	/*
	 * Fast paths for some classes and bands of inputs only: P+Q 4 KiB
	 * with 4 inputs, big blocks with 8; XOR 64 KiB with 6, 4 KiB with 8.
	 */
	hk_reset();
	bad = 0;
	cls.fast_pq[ECDMA_GF_BAND_NARROW] = BIT(ECDMA_GF_CLS_4K);
	cls.fast_pq[ECDMA_GF_BAND_WIDE] = BIT(ECDMA_GF_CLS_BIG);
	cls.fast_xor[ECDMA_GF_BAND_NARROW] = BIT(ECDMA_GF_CLS_64K);
	cls.fast_xor[ECDMA_GF_BAND_WIDE] = BIT(ECDMA_GF_CLS_4K);
	memcpy(cls.fast_pq_cold, cls.fast_pq, sizeof(cls.fast_pq));
	memcpy(cls.fast_xor_cold, cls.fast_xor, sizeof(cls.fast_xor));
	t_pol = &cls;
	for (i = 0; i < 4 * ARRAY_SIZE(lens); i++) {
		size_t len = lens[i % ARRAY_SIZE(lens)] & ~(size_t)511;
		bool xor = i >= 2 * ARRAY_SIZE(lens);
		bool wide = i / ARRAY_SIZE(lens) % 2;
		int k = wide ? 8 : xor ? 6 : 4;
		unsigned long before = xor ? hk.xor_calls : hk.pq_calls;
		u8 mask = (xor ? cls.fast_xor : cls.fast_pq)[ecdma_gf_band(k)];
		bool want = mask & BIT(ecdma_gf_cls(len));

		if (!len)
			continue;
		bad += policy_wr(T_VANDERMONDE, xor, k, len, &ntb);
		bad += ((xor ? hk.xor_calls : hk.pq_calls) > before) != want;
	}
	ksft_test_result(!bad && !hk.violations,
			 "policy_fast_paths_by_class_and_band (%u wrong, %lu pq, %lu xor calls)\n",
			 bad, hk.pq_calls, hk.xor_calls);

	/*
	 * NT: phase 0 exactly for blocks >= nt_min; 1: nt_min 0, no class:
	 * never; 2: RS of the 64 KiB class only (other kinds' and classes'
	 * choices must not leak into RS); 3: every class of the other kinds,
	 * none of RS: never.
	 */
	hk_reset();
	bad = 0;
	t_pol = &nt;
	for (i = 0; i < 4 * ARRAY_SIZE(lens); i++) {
		struct ecdma_ec_sge ds[4], cs[2];
		struct tblk d[4], c[2];
		u8 *ref[2], *cp[4], *outs[2];
		size_t len = lens[i % ARRAY_SIZE(lens)];
		struct ecdma_ec_mem mem;
		struct ecdma_ec_wr wr;
		struct tcalc tc;
		u64 before;
		bool want;
		int j, k;

		phase = i / ARRAY_SIZE(lens);
		if (phase == 1)
			nt.nt_min = 0;
		if (phase >= 2) {
			for (k = 0; k < ECDMA_GF_KIND_NR; k++)
				nt.nt[k] = ECDMA_GF_CLS_ALL;
			nt.nt[ECDMA_GF_KIND_RS] = phase == 2 ?
				BIT(ECDMA_GF_CLS_64K) : 0;
		}
		want = phase >= 2 ? phase == 2 &&
		       ecdma_gf_cls(len) == ECDMA_GF_CLS_64K :
		       nt.nt_min && len >= nt.nt_min;
		if (tcalc_init(&tc, 4, 2, T_CAUCHY, &fake_simd,
			       &hooks_fpu_only)) {
			bad++;
			continue;
		}
		blks_alloc(d, 4, len, 0);
		blks_alloc(c, 2, len, 0);
		for (j = 0; j < 4; j++) {
			cp[j] = d[j].p;
			sge_set(&ds[j], d[j].p, len);
		}
		for (j = 0; j < 2; j++) {
			ref[j] = test_alloc(len);
			outs[j] = c[j].p;
			sge_set(&cs[j], c[j].p, len);
		}
		ref_product(len, 4, 2, tc.matrix, cp, ref, false);
		wr_init(&wr, &mem, ECDMA_EC_OP_ENCODE, ds, 4, cs,
			2, len);
		before = hk.nt_calls;
		bad += run_wr(&tc, &wr, test_rnd(2)) != 0;
		for (j = 0; j < 2; j++)
			bad += !!memcmp(outs[j], ref[j], len);
		bad += (hk.nt_calls > before) != want;
		bad += (ecdma_ec_exec_stats(tc.x)->nt_bytes ==
			(u64)len * 6) != want;
		/* accumulating: the outputs were just read, never NT */
		before = hk.nt_calls;
		wr.flags = ECDMA_EC_WR_ACCUMULATE;
		bad += run_wr(&tc, &wr, false) != 0;
		bad += hk.nt_calls != before;
		for (j = 0; j < 2; j++)
			bad += outs[j][0] || memcmp(outs[j], outs[j] + 1,
						    len - 1);
		wr.flags = 0;
		/* that zeroed the code blocks: put the right ones back */
		for (j = 0; j < 2; j++)
			memcpy(outs[j], ref[j], len);
		/* VALIDATE computes into scratch: never NT */
		before = hk.nt_calls;
		wr.opcode = ECDMA_EC_OP_VALIDATE;
		bad += run_wr(&tc, &wr, false) != 0 || wr.result != 0;
		bad += hk.nt_calls != before;
		for (j = 0; j < 2; j++)
			free(ref[j]);
		blks_free(d, 4);
		blks_free(c, 2);
		tcalc_free(&tc);
	}
	t_pol = NULL;
	ksft_test_result(!bad && !hk.violations,
			 "policy_nt_by_block_size_and_class (%u wrong, %lu nt calls)\n",
			 bad, hk.nt_calls);
}

/*
 * Outputs the calc wrote within the reuse window get regular stores, new
 * ones NT (by class, as calibrated); a window of 0 never counts outputs
 * as cached; UPDATE's code blocks, read by the request, never get NT.
 * Where the class's NT won hot too (@hot), cached outputs get NT as well
 * (1 MiB blocks: enough data, ecdma_gf_nt_mask()), but never one that is
 * also an input (UPDATE in place); with fewer outputs than inputs without
 * ECDMA_GF_NT_SQUARE too (the executor passes the request's outputs).
 */
static void test_policy_reuse(void)
{
	static const struct {
		u64 window;
		int blk;	/* which output pair the WR writes */
		bool update;
		bool hot;	/* NT for cached outputs too */
		bool nt;	/* expected */
	} steps[] = {
		{ 1 << 30, 0, false, false, true },	/* first time: cold */
		{ 1 << 30, 0, false, false, false },	/* again: cached */
		{ 1 << 30, 1, false, false, true },	/* other outputs */
		{ 1 << 30, 0, false, false, false },	/* the first, 2 ago */
		{ 0, 0, false, false, true },		/* no window */
		{ 0, 1, true, false, false },		/* UPDATE */
		{ 1 << 30, 0, false, true, true },	/* cached, NT hot */
		{ 1 << 30, 0, false, true, true },	/* again */
		{ 1 << 30, 1, true, true, false },	/* UPDATE in place */
		{ 1 << 30, 0, false, false, false },	/* cached, NT cold */
	};
	const size_t len = 1 << 20;
	struct ecdma_ec_exec_policy pol = { 0 };
	struct ecdma_ec_sge ds[4], cs[2], ns[4], us[4];
	static const u8 du[4] = { 1 }, cu[2] = { 1, 1 };
	struct tblk d[4], c[4], nd[4];
	u8 *cp[4], *ref[2], *outs[2];
	struct ecdma_ec_mem mem;
	struct ecdma_ec_wr wr;
	unsigned int bad = 0, i;
	struct tcalc tc;
	int j, k;

	hk_reset();
	if (tcalc_init(&tc, 4, 2, T_CAUCHY, &fake_simd, &hooks_fpu_only)) {
		ksft_test_result_fail("policy_nt_not_on_cached_outputs\n");
		return;
	}
	blks_alloc(d, 4, len, 0);
	blks_alloc(nd, 4, len, 0);
	blks_alloc(c, 4, len, 0);
	for (j = 0; j < 4; j++) {
		cp[j] = d[j].p;
		sge_set(&ds[j], d[j].p, len);
		sge_set(&ns[j], nd[j].p, len);
	}
	for (j = 0; j < 2; j++)
		ref[j] = test_alloc(len);
	ref_product(len, 4, 2, tc.matrix, cp, ref, false);
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		unsigned long before = hk.nt_calls;

		pol.reuse_window = steps[i].window;
		for (k = 0; k < ECDMA_GF_KIND_NR; k++) {
			pol.nt[k] = ECDMA_GF_CLS_ALL & ~BIT(ECDMA_GF_CLS_4K);
			if (steps[i].hot)
				pol.nt[k] |=
					BIT(ECDMA_GF_NT_CACHED(ECDMA_GF_CLS_64K)) |
					BIT(ECDMA_GF_NT_CACHED(ECDMA_GF_CLS_BIG));
		}
		ecdma_ec_exec_set_policy(tc.x, &pol);
		for (j = 0; j < 2; j++) {
			outs[j] = c[2 * steps[i].blk + j].p;
			sge_set(&cs[j], outs[j], len);
		}
		if (steps[i].update) {
			/* in place: c' = c ^ E(0, .) (d0 ^ nd0) into c */
			us[0] = cs[0];
			us[1] = cs[1];
			us[2] = ds[0];
			us[3] = ns[0];
			wr_init(&wr, &mem, ECDMA_EC_OP_UPDATE, us, 4, cs, 2,
				len);
			wr.data_updates = du;
			wr.code_updates = cu;
		} else {
			wr_init(&wr, &mem, ECDMA_EC_OP_ENCODE, ds, 4, cs, 2,
				len);
		}
		bad += run_wr(&tc, &wr, test_rnd(2)) != 0;
		if (!steps[i].update)
			for (j = 0; j < 2; j++)
				bad += !!memcmp(outs[j], ref[j], len);
		bad += (hk.nt_calls > before) != steps[i].nt;
	}
	for (j = 0; j < 2; j++)
		free(ref[j]);
	blks_free(d, 4);
	blks_free(nd, 4);
	blks_free(c, 4);
	tcalc_free(&tc);
	ksft_test_result(!bad && !hk.violations,
			 "policy_nt_not_on_cached_outputs (%u wrong, %lu nt calls)\n",
			 bad, hk.nt_calls);
}

/*
 * The fast paths per cache state: with lib/raid6 chosen for one state
 * only, it runs exactly for the requests the reuse window puts there
 * (exact P+Q at 64 KiB, outputs new, again, other, again).
 */
static void test_policy_paths_by_cache(void)
{
	static const bool cached[] = { false, true, false, true };
	const size_t len = 65536;
	struct ecdma_ec_exec_policy pol = { .reuse_window = 1 << 30 };
	struct ecdma_ec_sge ds[4], cs[2];
	struct tblk d[4], c[4];
	struct ecdma_ec_mem mem;
	struct ecdma_ec_wr wr;
	unsigned int bad = 0, i;
	struct tcalc tc;
	int j, lib_hot;

	hk_reset();
	for (lib_hot = 0; lib_hot < 2; lib_hot++) {
		for (j = 0; j < ECDMA_GF_BAND_NR; j++) {
			pol.fast_pq[j] = lib_hot ? ECDMA_GF_CLS_ALL : 0;
			pol.fast_pq_cold[j] = lib_hot ? 0 : ECDMA_GF_CLS_ALL;
		}
		if (tcalc_init(&tc, 4, 2, T_VANDERMONDE, &fake_simd,
			       &hooks_all)) {
			bad++;
			continue;
		}
		ecdma_ec_exec_set_policy(tc.x, &pol);
		blks_alloc(d, 4, len, 0);
		blks_alloc(c, 4, len, 0);
		for (j = 0; j < 4; j++)
			sge_set(&ds[j], d[j].p, len);
		for (i = 0; i < ARRAY_SIZE(cached); i++) {
			unsigned long before = hk.pq_calls;
			int o = i == 2 ? 2 : 0;

			sge_set(&cs[0], c[o].p, len);
			sge_set(&cs[1], c[o + 1].p, len);
			wr_init(&wr, &mem, ECDMA_EC_OP_ENCODE, ds, 4, cs, 2,
				len);
			bad += run_wr(&tc, &wr, false) != 0;
			bad += (hk.pq_calls > before) != (cached[i] == lib_hot);
		}
		blks_free(d, 4);
		blks_free(c, 4);
		tcalc_free(&tc);
	}
	ksft_test_result(!bad && !hk.violations,
			 "policy_paths_by_cache_state (%u wrong, %lu pq calls)\n",
			 bad, hk.pq_calls);
}

static void test_fpu_sections(void)
{
	struct enc_opts o = {
		.type = T_CAUCHY, .align_mode = -1, .algo = &fake_simd,
		.hooks = &hooks_fpu_only, .kmax = 50,
	};
	unsigned int bad = 0;
	int it;

	hk_reset();
	for (it = 0; it < 160; it++) {
		o.per_wr = it >= 100 || test_rnd(2);
		/* RAID-6 P+Q (shift 0 of three): the executor calls ->pq */
		o.pq_like = it >= 100;
		o.acc = test_rnd(2);
		o.inplace = test_rnd(2);
		o.chunked = test_rnd(2);
		bad += !!one_encode(&o, false);
		bad += !!one_decode(T_CAUCHY, &hooks_fpu_only, &fake_simd,
				    test_rnd(2), 3, NULL);
	}
	ksft_test_result(!bad && hk.sections && !hk.violations && !hk.in_fpu &&
			 hk.algo_pq_calls,
			 "fpu_sections_balanced (%u wrong, %lu sections, %lu violations, %lu pq)\n",
			 bad, hk.sections, hk.violations, hk.algo_pq_calls);

	/* SIMD not allowed: the fake algo never runs, results the same */
	hk_reset();
	bad = 0;
	for (it = 0; it < 50; it++) {
		struct ecdma_ec_sge ds[8], cs[3];
		struct tblk d[8], c[3];
		u8 *in[8], *ref[3];
		struct ecdma_ec_mem mem;
		struct ecdma_ec_wr wr;
		struct tcalc tc;
		size_t len = rnd_len();
		int i;

		if (tcalc_init(&tc, 8, 3, T_CAUCHY, &fake_simd,
			       &hooks_fpu_only)) {
			bad++;
			continue;
		}
		ecdma_ec_exec_set_simd(tc.x, false);
		blks_alloc(d, 8, len, 1);
		blks_alloc(c, 3, len, 1);
		for (i = 0; i < 8; i++) {
			in[i] = d[i].p;
			sge_set(&ds[i], in[i], len);
		}
		for (i = 0; i < 3; i++) {
			ref[i] = test_alloc(len);
			sge_set(&cs[i], c[i].p, len);
		}
		ref_product(len, 8, 3, tc.matrix, in, ref, false);
		wr_init(&wr, &mem, ECDMA_EC_OP_ENCODE, ds, 8, cs,
			3, len);
		bad += run_wr(&tc, &wr, test_rnd(2)) != 0;
		for (i = 0; i < 3; i++) {
			bad += !!memcmp(c[i].p, ref[i], len);
			free(ref[i]);
		}
		bad += ecdma_ec_exec_stats(tc.x)->nofpu_bytes == 0;
		blks_free(d, 8);
		blks_free(c, 3);
		tcalc_free(&tc);
	}
	ksft_test_result(!bad && !hk.sections && !hk.violations,
			 "nofpu_fallback_without_simd (%u wrong, %lu sections)\n",
			 bad, hk.sections);
}

static void test_decode_cache(void)
{
	const struct ecdma_ec_exec_stats *st;
	struct tcalc tc;
	unsigned int bad = 0;
	int it;

	for (it = 0; it < 30; it++) {
		bad += !!one_decode(test_rnd(2) ? T_CAUCHY : T_VANDERMONDE,
				    NULL, NULL, false, 12, &tc);
		st = ecdma_ec_exec_stats(tc.x);
		bad += st->dec_hits + st->dec_misses == 0;
		tcalc_free(&tc);
	}
	ksft_test_result(!bad, "decode_cache_hits_and_evictions (%u wrong)\n",
			 bad);
}

static void loop_test(const char *name, int iters, int (*fn)(void *),
		      void *arg)
{
	unsigned int bad = 0;
	int it;

	for (it = 0; it < iters; it++)
		bad += !!fn(arg);
	ksft_test_result(!bad, "%s (%u/%d wrong)\n", name, bad, iters);
}

static int f_decode(void *arg)
{
	const int *mode = arg;

	return one_decode(mode[0] ? T_VANDERMONDE : T_CAUCHY,
			  mode[1] ? &hooks_all : NULL, NULL, mode[2], 4, NULL);
}

static int f_decode_wr(void *arg)
{
	(void)arg;
	return one_decode_wr_matrix();
}

static int f_update(void *arg)
{
	const int *mode = arg;

	return one_update(mode[0], test_rnd(2));
}

static int f_validate(void *arg)
{
	const int *mode = arg;

	return one_validate(mode[0] ? T_VANDERMONDE : T_CAUCHY,
			    test_rnd(2) ? &hooks_all : NULL, mode[1],
			    test_rnd(2));
}

/* The same big k x m as the kernel's worst case: sizes and no overrun. */
static void test_big_calc(void)
{
	struct enc_opts o = {
		.type = T_RANDOM, .align_mode = 0, .fix_k = 255, .fix_m = 16,
		.chunked = true,
	};
	unsigned int bad = 0;

	bad += !!one_encode(&o, true);
	o.per_wr = true;
	bad += !!one_encode(&o, false);
	ksft_test_result(!bad, "encode_k255_m16 (%u wrong)\n", bad);
}

int main(void)
{
	static const int dv[3] = { 1, 0, 0 }, dc[3] = { 0, 1, 1 };
	static const int u0[1] = { 0 }, u1[1] = { 1 };
	static const int v0[2] = { 1, 0 }, v1[2] = { 0, 0 }, v2[2] = { 0, 1 };

	ksft_print_header();
	ksft_set_plan(31);
	test_rng_init();

	test_attr();
	test_wr_misuse();
	run_encode_test("encode_vandermonde_vs_isal",
			(struct enc_opts){ .type = T_VANDERMONDE,
					   .align_mode = -1 }, 150, true);
	run_encode_test("encode_cauchy_vs_isal",
			(struct enc_opts){ .type = T_CAUCHY, .align_mode = -1,
					   .kmax = 80 }, 150, true);
	run_encode_test("encode_per_wr_matrix",
			(struct enc_opts){ .type = T_CAUCHY, .per_wr = true,
					   .align_mode = -1, .kmax = 80 },
			150, true);
	run_encode_test("encode_accumulate",
			(struct enc_opts){ .type = T_CAUCHY, .acc = true,
					   .per_wr = true, .align_mode = -1,
					   .kmax = 80 }, 150, false);
	run_encode_test("encode_inplace",
			(struct enc_opts){ .type = T_CAUCHY, .inplace = true,
					   .per_wr = true, .align_mode = -1,
					   .kmax = 80 }, 150, false);
	run_encode_test("encode_chunked_with_fast_paths",
			(struct enc_opts){ .type = T_VANDERMONDE,
					   .chunked = true, .inplace = true,
					   .align_mode = -1,
					   .hooks = &hooks_all }, 150, false);
	test_big_calc();
	loop_test("decode_vandermonde", 150, f_decode, (void *)dv);
	loop_test("decode_cauchy_fast_chunked", 150, f_decode, (void *)dc);
	loop_test("decode_per_wr_matrix", 150, f_decode_wr, NULL);
	test_decode_zero_erasures();
	test_decode_cache();
	loop_test("update_calc_matrix", 200, f_update, (void *)u0);
	loop_test("update_per_wr_matrix", 200, f_update, (void *)u1);
	loop_test("validate_vandermonde", 150, f_validate, (void *)v0);
	loop_test("validate_cauchy", 150, f_validate, (void *)v1);
	loop_test("validate_per_wr_matrix", 150, f_validate, (void *)v2);
	test_copy_nop();
	test_fast_pq();
	test_fast_q();
	test_fast_xor();
	test_policy();
	test_policy_reuse();
	test_policy_paths_by_cache();
	test_fpu_sections();
	return ksft_finished();
}
