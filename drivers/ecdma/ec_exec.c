// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma EC verbs: synchronous execution of work requests; pure code, shared
 * with the unit tests.  A context (struct ecdma_ec_xctx), one allocation
 * made with the calc, serves one executor at a time and never allocates.
 *
 * Each WR becomes a plan, a nin x nout coefficient matrix, run in byte
 * ranges against a budget so big WRs spread over short non-preemptible
 * sections; output bytes depend only on input bytes at the same offset, so
 * splitting is exact.  Fast paths (hooks) take the FPU themselves, so an
 * open SIMD section is closed before them.
 */
#include "ecdma_compat.h"
#include "ec_priv.h"
#include "gf.h"
#include "gf_algo.h"

#define XC_ALIGN(x)	(((x) + 63) & ~(size_t)63)

enum xc_kind {
	XC_NOP,
	XC_GEMM,
	XC_VALIDATE,
	XC_COPY,
};

/* xor_alias values other than an input index */
#define XC_ALIAS_NONE	-1
#define XC_ALIAS_MANY	-2

/**
 * struct xc_dec - one cached decode matrix of the calc matrix
 * @key: erasure bitmap over the k + m blocks
 * @nerr: number of erasures (columns of @coef); -1 when unused
 * @pq: @coef has the RAID-6 P/Q shape
 * @ones: @coef is one all-ones column
 * @coef: k x @nerr decode matrix
 * @tbls: tables of @coef for the context's algo
 */
struct xc_dec {
	u64 key[ECDMA_EC_DEC_KEY_WORDS];
	int nerr;
	bool pq;
	bool ones;
	u8 *coef;
	u8 *tbls;
};

/**
 * struct xc_plan - the work request being executed
 * @wr: it, or NULL when idle
 * @kind: enum xc_kind
 * @nin: inputs
 * @nout: outputs (or compared blocks)
 * @len: bytes per block
 * @off: bytes done
 * @accumulate: outputs ^= product
 * @coef: nin x nout coefficients
 * @tbls: tables of @coef by @tbls_algo's prep, or NULL (made in wr_tbls)
 * @tbls_algo: see @tbls
 * @pq: RAID-6 P/Q coefficients
 * @q: one output with the RAID-6 Q coefficients
 * @ones: one all-ones output
 * @out_alias: some output is the same block as some input
 * @xor_alias: with @ones: the input that is the output, or XC_ALIAS_*
 * @cached: outputs taken as cached: cached-output policy, no NT stores
 * @result: VALIDATE mismatch bits so far
 */
struct xc_plan {
	struct ecdma_ec_wr *wr;
	enum xc_kind kind;
	int nin;
	int nout;
	u32 len;
	u32 off;
	bool accumulate;
	const u8 *coef;
	const u8 *tbls;
	const struct ecdma_gf_algo *tbls_algo;
	bool pq;
	bool q;
	bool ones;
	bool out_alias;
	int xor_alias;
	bool cached;
	u32 result;
};

/**
 * struct ecdma_ec_xctx - execution context of one calc
 * @k: data blocks
 * @m: code blocks
 * @max_in: most plan inputs (UPDATE: m + 2k)
 * @max_out: most plan outputs (m)
 * @matrix: calc matrix, k x m
 * @algo: preferred algo
 * @nofpu: fallback without SIMD
 * @hooks: environment, or NULL
 * @simd: the executor allows SIMD and fast paths now
 * @pol: ecdma_ec_exec_set_policy()
 * @fpu_on: inside hooks->fpu_begin()
 * @calc_pq: calc matrix has the RAID-6 shape
 * @calc_ones: calc matrix is one all-ones column
 * @enc_tbls: tables of @matrix for @algo
 * @wr_coef: max_in x max_out built coefficients (UPDATE)
 * @wr_tbls: tables made on demand for the current plan
 * @wr_tbls_algo: whose format @wr_tbls holds for the current plan, or NULL
 * @in: plan input blocks
 * @out: plan output blocks
 * @pin: @in at the current offset
 * @pout: outputs at the current offset
 * @ptrs: fast path pointer list, max_in + 2
 * @vout: VALIDATE scratch blocks, max_out x ECDMA_EC_VAL_CHUNK
 * @pscr: P scratch of the Q-only fast path, ECDMA_EC_Q_CHUNK bytes
 * @gf_scratch: for ecdma_gf_decode_matrix()
 * @ndec: decode cache entries
 * @dec_next: next victim
 * @dec: the decode cache
 * @reuse: where the context wrote lately, for the store choice
 * @p: current plan
 * @st: counters
 */
struct ecdma_ec_xctx {
	int k;
	int m;
	int max_in;
	int max_out;
	const u8 *matrix;
	const struct ecdma_gf_algo *algo;
	const struct ecdma_gf_algo *nofpu;
	const struct ecdma_ec_exec_hooks *hooks;
	bool simd;
	struct ecdma_ec_exec_policy pol;
	bool fpu_on;
	bool calc_pq;
	bool calc_ones;
	u8 *enc_tbls;
	u8 *wr_coef;
	u8 *wr_tbls;
	const struct ecdma_gf_algo *wr_tbls_algo;
	const u8 **in;
	u8 **out;
	const u8 **pin;
	u8 **pout;
	void **ptrs;
	u8 **vout;
	u8 *pscr;
	u8 *gf_scratch;
	int ndec;
	int dec_next;
	struct xc_dec dec[ECDMA_EC_DEC_CACHE];
	struct ecdma_gf_reuse reuse;
	struct xc_plan p;
	struct ecdma_ec_exec_stats st;
};

static inline u8 *xc_ptr(u64 addr)
{
	return (u8 *)(unsigned long)addr;
}

/* Two algos can share tables when they prepare them the same way. */
static bool xc_same_fmt(const struct ecdma_gf_algo *a,
			const struct ecdma_gf_algo *b)
{
	return a == b || (a->prep == b->prep && a->tbl_bytes == b->tbl_bytes);
}

/* RAID-6 shape, nin >= 2: column @q is {02}^i, column @p (unless -1) 1 */
static bool xc_is_raid6(const u8 *coef, int nin, int nout, int p, int q)
{
	u8 g = 1;
	int i;

	if (nin < 2)
		return false;
	for (i = 0; i < nin; i++) {
		if ((p >= 0 && coef[i * nout + p] != 1) ||
		    coef[i * nout + q] != g)
			return false;
		g = ecdma_gf_mul(g, 2);
	}
	return true;
}

static bool xc_is_pq(const u8 *coef, int nin, int nout)
{
	return nout == 2 && xc_is_raid6(coef, nin, 2, 0, 1);
}

/* One output, Q alone */
static bool xc_is_q(const u8 *coef, int nin, int nout)
{
	return nout == 1 && xc_is_raid6(coef, nin, 1, -1, 0);
}

static bool xc_is_ones(const u8 *coef, int nin, int nout)
{
	int i;

	if (nout != 1)
		return false;
	for (i = 0; i < nin; i++)
		if (coef[i] != 1)
			return false;
	return true;
}

/* Construction */

static int xc_ndec(int k, int m, unsigned int tbl_bytes)
{
	size_t entry = (size_t)k * m * (tbl_bytes + 1);
	size_t n = ECDMA_EC_DEC_CACHE_BYTES / entry;

	return n < 1 ? 1 : n > ECDMA_EC_DEC_CACHE ? ECDMA_EC_DEC_CACHE : n;
}

/* Reserve @bytes at *@off of @base (NULL: only count). */
static void *xc_take(u8 *base, size_t *off, size_t bytes)
{
	void *p = base ? base + *off : NULL;

	*off = XC_ALIGN(*off + bytes);
	return p;
}

/* Lay the context out in @base, or only size it when @base is NULL. */
static size_t xc_carve(struct ecdma_ec_xctx *x, u8 *base, int k, int m,
		       unsigned int tb, unsigned int tb_max)
{
	int max_in = m + 2 * k, max_out = m, ndec = xc_ndec(k, m, tb), i;
	size_t off = XC_ALIGN(sizeof(*x));
	u8 *val;

	x->enc_tbls = xc_take(base, &off, (size_t)k * m * tb);
	x->wr_coef = xc_take(base, &off, (size_t)max_in * max_out);
	x->wr_tbls = xc_take(base, &off, (size_t)max_in * max_out * tb_max);
	x->in = xc_take(base, &off, max_in * sizeof(*x->in));
	x->pin = xc_take(base, &off, max_in * sizeof(*x->pin));
	x->out = xc_take(base, &off, max_out * sizeof(*x->out));
	x->pout = xc_take(base, &off, max_out * sizeof(*x->pout));
	x->ptrs = xc_take(base, &off, (max_in + 2) * sizeof(*x->ptrs));
	x->vout = xc_take(base, &off, max_out * sizeof(*x->vout));
	val = xc_take(base, &off, (size_t)max_out * ECDMA_EC_VAL_CHUNK);
	x->pscr = xc_take(base, &off, ECDMA_EC_Q_CHUNK);
	x->gf_scratch = xc_take(base, &off, ECDMA_GF_DECODE_SCRATCH);
	for (i = 0; i < ndec; i++) {
		x->dec[i].coef = xc_take(base, &off, (size_t)k * m);
		x->dec[i].tbls = xc_take(base, &off, (size_t)k * m * tb);
	}
	if (base) {
		for (i = 0; i < max_out; i++)
			x->vout[i] = val + i * ECDMA_EC_VAL_CHUNK;
		x->max_in = max_in;
		x->max_out = max_out;
		x->ndec = ndec;
	}
	return off;
}

static const struct ecdma_gf_algo *
xc_algo(const struct ecdma_ec_exec_cfg *cfg)
{
	/* without FPU hooks a SIMD algo can never run */
	if (!cfg->algo || (cfg->algo->fpu &&
			   (!cfg->hooks || !cfg->hooks->fpu_begin ||
			    !cfg->hooks->fpu_end)))
		return &ecdma_gf_algo_generic;
	return cfg->algo;
}

static bool xc_cfg_ok(const struct ecdma_ec_exec_cfg *cfg)
{
	return cfg && cfg->k >= 1 && cfg->k <= ECDMA_EC_MAX_K &&
	       cfg->m >= 1 && cfg->m <= ECDMA_EC_MAX_M && cfg->matrix;
}

/**
 * ecdma_ec_exec_size() - bytes needed for an execution context
 * @cfg: what it is for
 *
 * Return: the size to allocate and pass to ecdma_ec_exec_init() (any
 * alignment), or 0 for an invalid @cfg.
 */
size_t ecdma_ec_exec_size(const struct ecdma_ec_exec_cfg *cfg)
{
	const struct ecdma_gf_algo *algo;
	struct ecdma_ec_xctx x;

	if (!xc_cfg_ok(cfg))
		return 0;
	algo = xc_algo(cfg);
	return xc_carve(&x, NULL, cfg->k, cfg->m, algo->tbl_bytes,
			max(algo->tbl_bytes,
			    ecdma_gf_algo_generic.tbl_bytes)) + 63;
}

/**
 * ecdma_ec_exec_init() - build an execution context
 * @mem: ecdma_ec_exec_size() bytes
 * @cfg: what it is for
 *
 * Return: the context (inside @mem, SIMD off until set_simd()), or NULL
 * for an invalid @cfg.
 */
struct ecdma_ec_xctx *ecdma_ec_exec_init(void *mem,
					 const struct ecdma_ec_exec_cfg *cfg)
{
	const struct ecdma_gf_algo *algo;
	struct ecdma_ec_xctx *x;
	u8 *base;
	int i;

	if (!mem || !xc_cfg_ok(cfg))
		return NULL;
	algo = xc_algo(cfg);
	base = (u8 *)XC_ALIGN((unsigned long)mem);
	x = (struct ecdma_ec_xctx *)base;
	memset(x, 0, sizeof(*x));
	xc_carve(x, base, cfg->k, cfg->m, algo->tbl_bytes,
		 max(algo->tbl_bytes, ecdma_gf_algo_generic.tbl_bytes));
	x->k = cfg->k;
	x->m = cfg->m;
	x->matrix = cfg->matrix;
	x->algo = algo;
	x->nofpu = &ecdma_gf_algo_generic;
	x->hooks = cfg->hooks;
	x->pol.fast_pq = ECDMA_GF_CLS_ALL;
	x->pol.fast_xor = ECDMA_GF_CLS_ALL;
	x->pol.fast_pq_cold = ECDMA_GF_CLS_ALL;
	x->pol.fast_xor_cold = ECDMA_GF_CLS_ALL;
	for (i = 0; i < x->ndec; i++)
		x->dec[i].nerr = -1;
	algo->prep(x->matrix, x->k, x->m, x->enc_tbls);
	x->calc_pq = xc_is_pq(x->matrix, x->k, x->m);
	x->calc_ones = xc_is_ones(x->matrix, x->k, x->m);
	return x;
}

/**
 * ecdma_ec_exec_stats() - counters of a context
 * @x: the context
 *
 * Return: the counters; racy to read while an executor runs.
 */
const struct ecdma_ec_exec_stats *
ecdma_ec_exec_stats(const struct ecdma_ec_xctx *x)
{
	return &x->st;
}

/**
 * ecdma_ec_exec_fpu_put() - leave the SIMD section, if one is open
 * @x: the context
 *
 * Call before completions, sleeping or giving up the CPU.
 */
void ecdma_ec_exec_fpu_put(struct ecdma_ec_xctx *x)
{
	if (x->fpu_on) {
		x->hooks->fpu_end(x->hooks->ctx);
		x->fpu_on = false;
	}
}

/**
 * ecdma_ec_exec_set_simd() - allow or forbid SIMD for the next ranges
 * @x: the context
 * @allowed: the executing context may use the FPU (kernel: task context,
 *	or irq_fpu_usable() with interrupts enabled)
 *
 * Without SIMD: the generic algo and no fast path, with the same results.
 */
void ecdma_ec_exec_set_simd(struct ecdma_ec_xctx *x, bool allowed)
{
	if (!allowed)
		ecdma_ec_exec_fpu_put(x);
	x->simd = allowed && x->hooks;
}

/**
 * ecdma_ec_exec_set_policy() - choose fast paths and store kind
 * @x: the context
 * @pol: the policy for the next ranges (copied)
 *
 * Only speed changes: every path computes the same bytes.
 */
void ecdma_ec_exec_set_policy(struct ecdma_ec_xctx *x,
			      const struct ecdma_ec_exec_policy *pol)
{
	x->pol = *pol;
}

/* Plans */

static void xc_key(const u8 *erasures, int n, u64 *key)
{
	int i;

	memset(key, 0, ECDMA_EC_DEC_KEY_WORDS * sizeof(*key));
	for (i = 0; i < n; i++)
		if (erasures[i])
			key[i / 64] |= 1ULL << (i % 64);
}

/* Decode matrix of the calc matrix for @erasures, from the cache. */
static const struct xc_dec *xc_dec_get(struct ecdma_ec_xctx *x,
				       const u8 *erasures, int *err)
{
	u64 key[ECDMA_EC_DEC_KEY_WORDS];
	struct xc_dec *d;
	int i, e;

	xc_key(erasures, x->k + x->m, key);
	for (i = 0; i < x->ndec; i++) {
		d = &x->dec[i];
		if (d->nerr >= 0 && !memcmp(d->key, key, sizeof(key))) {
			x->st.dec_hits++;
			return d;
		}
	}

	x->st.dec_misses++;
	d = &x->dec[x->dec_next];
	x->dec_next = (x->dec_next + 1) % x->ndec;
	d->nerr = -1;
	e = ecdma_gf_decode_matrix(x->matrix, x->k, x->m, erasures, d->coef,
				   x->gf_scratch);
	if (e <= 0) {
		*err = e ? e : -EINVAL;
		return NULL;
	}
	x->algo->prep(d->coef, x->k, e, d->tbls);
	memcpy(d->key, key, sizeof(key));
	d->pq = xc_is_pq(d->coef, x->k, e);
	d->ones = xc_is_ones(d->coef, x->k, e);
	d->nerr = e;
	return d;
}

static int xc_plan_decode(struct ecdma_ec_xctx *x, struct xc_plan *p,
			  const struct ecdma_ec_wr *wr)
{
	const struct ecdma_ec_mem *mem = wr->mem;
	const struct xc_dec *d;
	int i, nerr, k = x->k, err = 0;

	nerr = ecdma_ec_count_set(wr->erasures, k + x->m);
	if (nerr > x->m)
		return -EINVAL;
	if (!nerr) {
		p->kind = XC_NOP;
		return 0;
	}
	for (i = 0; i < k + x->m; i++) {
		u64 addr = i < k ? mem->data_blocks[i].addr :
				   mem->code_blocks[i - k].addr;

		if (wr->erasures[i])
			x->out[p->nout++] = xc_ptr(addr);
		else if (p->nin < k)
			x->in[p->nin++] = xc_ptr(addr);
	}

	if (wr->matrix) {
		p->coef = wr->matrix;
		p->pq = xc_is_pq(p->coef, k, nerr);
		p->ones = xc_is_ones(p->coef, k, nerr);
		return 0;
	}
	d = xc_dec_get(x, wr->erasures, &err);
	if (!d)
		return err;
	p->coef = d->coef;
	p->tbls = d->tbls;
	p->tbls_algo = x->algo;
	p->pq = d->pq;
	p->ones = d->ones;
	return 0;
}

/*
 * c'_j = c_j ^ sum_i E(i, j) (d_i ^ d'_i) as one product over [c_j...] ++
 * [d_i, d'_i...]: identity rows for the c_j, E(i, .) for d_i and d'_i.
 */
static int xc_plan_update(struct ecdma_ec_xctx *x, struct xc_plan *p,
			  const struct ecdma_ec_wr *wr)
{
	const struct ecdma_ec_mem *mem = wr->mem;
	const u8 *e = wr->matrix ? wr->matrix : x->matrix;
	int i, j, r, c, uc = mem->num_code_sge;
	u8 *coef = x->wr_coef;

	p->nin = mem->num_data_sge;
	p->nout = uc;
	if (p->nin > x->max_in || uc > x->max_out)
		return -EINVAL;
	for (i = 0; i < p->nin; i++)
		x->in[i] = xc_ptr(mem->data_blocks[i].addr);
	for (j = 0; j < uc; j++)
		x->out[j] = xc_ptr(mem->code_blocks[j].addr);

	memset(coef, 0, (size_t)p->nin * uc);
	for (r = 0; r < uc; r++)
		coef[r * uc + r] = 1;
	for (i = 0, r = uc; i < x->k; i++) {
		if (!wr->data_updates[i])
			continue;
		if (r + 1 >= p->nin)
			return -EINVAL;
		for (j = 0, c = 0; j < x->m; j++) {
			if (!wr->code_updates[j])
				continue;
			if (c >= uc)
				return -EINVAL;
			coef[r * uc + c] = e[i * x->m + j];
			coef[(r + 1) * uc + c] = e[i * x->m + j];
			c++;
		}
		r += 2;
	}
	if (r != p->nin)
		return -EINVAL;
	p->coef = coef;
	return 0;
}

static int xc_plan_linear(struct ecdma_ec_xctx *x, struct xc_plan *p,
			  const struct ecdma_ec_wr *wr)
{
	const struct ecdma_ec_mem *mem = wr->mem;
	int i;

	p->nin = mem->num_data_sge;
	p->nout = mem->num_code_sge;
	if (p->nin < 1 || p->nin > x->k || p->nout < 1 || p->nout > x->m)
		return -EINVAL;
	for (i = 0; i < p->nin; i++)
		x->in[i] = xc_ptr(mem->data_blocks[i].addr);
	for (i = 0; i < p->nout; i++)
		x->out[i] = xc_ptr(mem->code_blocks[i].addr);
	if (wr->matrix) {
		p->coef = wr->matrix;
		p->pq = xc_is_pq(p->coef, p->nin, p->nout);
		p->q = xc_is_q(p->coef, p->nin, p->nout);
		p->ones = xc_is_ones(p->coef, p->nin, p->nout);
	} else {
		if (p->nin != x->k || p->nout != x->m)
			return -EINVAL;
		p->coef = x->matrix;
		p->tbls = x->enc_tbls;
		p->tbls_algo = x->algo;
		p->pq = x->calc_pq;
		p->q = xc_is_q(x->matrix, x->k, x->m);
		p->ones = x->calc_ones;
	}
	return 0;
}

static void xc_plan_alias(struct ecdma_ec_xctx *x, struct xc_plan *p)
{
	int i, j;

	p->xor_alias = XC_ALIAS_NONE;
	for (j = 0; j < p->nout; j++) {
		for (i = 0; i < p->nin; i++) {
			if (x->out[j] != x->in[i])
				continue;
			p->out_alias = true;
			if (p->nout == 1)
				p->xor_alias = p->xor_alias == XC_ALIAS_NONE ?
					       i : XC_ALIAS_MANY;
		}
	}
}

static int xc_plan(struct ecdma_ec_xctx *x, struct ecdma_ec_wr *wr)
{
	struct xc_plan *p = &x->p;
	const struct ecdma_ec_mem *mem = wr->mem;
	int ret;

	if (wr->opcode == ECDMA_EC_OP_NOP) {
		p->kind = XC_NOP;
		return 0;
	}
	if (!mem || mem->block_size < 1)
		return -EINVAL;
	p->len = mem->block_size;

	switch (wr->opcode) {
	case ECDMA_EC_OP_COPY:
		if (mem->num_data_sge != 1 || mem->num_code_sge != 1)
			return -EINVAL;
		p->kind = XC_COPY;
		p->nin = 1;
		p->nout = 1;
		x->in[0] = xc_ptr(mem->data_blocks[0].addr);
		x->out[0] = xc_ptr(mem->code_blocks[0].addr);
		return 0;
	case ECDMA_EC_OP_ENCODE:
		p->kind = XC_GEMM;
		p->accumulate = wr->flags & ECDMA_EC_WR_ACCUMULATE;
		ret = xc_plan_linear(x, p, wr);
		break;
	case ECDMA_EC_OP_VALIDATE:
		p->kind = XC_VALIDATE;
		return xc_plan_linear(x, p, wr);
	case ECDMA_EC_OP_DECODE:
		if (!wr->erasures || mem->num_data_sge != x->k ||
		    mem->num_code_sge != x->m)
			return -EINVAL;
		p->kind = XC_GEMM;
		ret = xc_plan_decode(x, p, wr);
		break;
	case ECDMA_EC_OP_UPDATE:
		if (!wr->data_updates || !wr->code_updates)
			return -EINVAL;
		p->kind = XC_GEMM;
		ret = xc_plan_update(x, p, wr);
		break;
	default:
		return -EINVAL;
	}
	if (!ret && p->kind == XC_GEMM)
		xc_plan_alias(x, p);
	return ret;
}

static void xc_finish(struct ecdma_ec_xctx *x, int status)
{
	struct ecdma_ec_wr *wr = x->p.wr;

	wr->status = status;
	wr->result = status ? 0 : x->p.result;
	x->p.wr = NULL;
}

/**
 * ecdma_ec_exec_start() - make @wr the context's current work request
 * @x: the context, idle
 * @wr: a work request that passed ecdma_ec_validate_wr() for this calc
 *
 * Writes nothing but the context; on failure @wr is finished.
 *
 * Return: 0 (then ecdma_ec_exec_run() until true), or -EINVAL for a layout
 * or erasure pattern this calc cannot execute.
 */
int ecdma_ec_exec_start(struct ecdma_ec_xctx *x, struct ecdma_ec_wr *wr)
{
	int ret;

	memset(&x->p, 0, sizeof(x->p));
	x->p.wr = wr;
	x->wr_tbls_algo = NULL;
	ret = xc_plan(x, wr);
	if (ret) {
		xc_finish(x, ret);
		return ret;
	}
	/*
	 * Once per request (pieces may run elsewhere).  Aliased, accumulated
	 * and 4 KiB outputs (md rereads its parity soon) count as cached.
	 */
	x->p.cached = true;
	if (x->p.kind == XC_GEMM && !x->p.accumulate && x->p.nout &&
	    ecdma_gf_cls(x->p.len) != ECDMA_GF_CLS_4K)
		x->p.cached = ecdma_gf_reused(&x->reuse, x->pol.reuse_window,
					      x->out[0],
					      (u64)(x->p.nin + x->p.nout) *
					      x->p.len) || x->p.out_alias;
	return 0;
}

/**
 * ecdma_ec_exec_busy() - is a work request started and not finished?
 * @x: the context
 *
 * Return: true while ecdma_ec_exec_run() has work to do.
 */
bool ecdma_ec_exec_busy(const struct ecdma_ec_xctx *x)
{
	return x->p.wr;
}

/**
 * ecdma_ec_exec_abort() - drop the current work request
 * @x: the context
 *
 * Return: the dropped request, outputs maybe partly written, for the
 * caller to complete; NULL when idle.
 */
struct ecdma_ec_wr *ecdma_ec_exec_abort(struct ecdma_ec_xctx *x)
{
	struct ecdma_ec_wr *wr = x->p.wr;

	x->p.wr = NULL;
	ecdma_ec_exec_fpu_put(x);
	return wr;
}

/* Execution */

static bool xc_aligned(void *const *ptrs, int n)
{
	unsigned long a = 0;
	int i;

	for (i = 0; i < n; i++)
		a |= (unsigned long)ptrs[i];
	return !(a & (ECDMA_EC_FAST_PTR_ALIGN - 1));
}

/* Tables of the plan's coefficients in @algo's format. */
static const u8 *xc_tbls(struct ecdma_ec_xctx *x,
			 const struct ecdma_gf_algo *algo)
{
	struct xc_plan *p = &x->p;

	if (p->tbls && xc_same_fmt(p->tbls_algo, algo))
		return p->tbls;
	if (!x->wr_tbls_algo || !xc_same_fmt(x->wr_tbls_algo, algo)) {
		algo->prep(p->coef, p->nin, p->nout, x->wr_tbls);
		x->wr_tbls_algo = algo;
	}
	return x->wr_tbls;
}

/*
 * Q alone (md's Q checks, rebuilds): lib/raid6 beats the GF kernels even
 * making P too, into ECDMA_EC_Q_CHUNK of scratch; never accumulating.
 * Return: bytes done, a multiple of ECDMA_EC_FAST_LEN_ALIGN.
 */
static u32 xc_fast_q(struct ecdma_ec_xctx *x, u32 ioff, u8 *q, u32 n)
{
	const struct ecdma_ec_exec_hooks *h = x->hooks;
	struct xc_plan *p = &x->p;
	u32 o, piece;
	int i;

	for (o = 0; o < n; o += piece) {
		piece = min_t(u32, n - o, ECDMA_EC_Q_CHUNK);
		for (i = 0; i < p->nin; i++)
			x->ptrs[i] = (void *)(x->in[i] + ioff + o);
		x->ptrs[p->nin] = x->pscr;
		x->ptrs[p->nin + 1] = q + o;
		if (!xc_aligned(x->ptrs, p->nin + 2))
			break;
		ecdma_ec_exec_fpu_put(x);
		if (!h->pq(h->ctx, p->nin, piece, x->ptrs, false))
			break;
		x->st.fast_pq_bytes += (u64)piece * (p->nin + 1);
	}
	return o;
}

/*
 * Fast paths for @n bytes at input offset @ioff into @outs at @ooff; @real:
 * @outs are the plan's outputs (not VALIDATE scratch), aliasing matters.
 * Return: bytes done, a multiple of ECDMA_EC_FAST_LEN_ALIGN, at most @n.
 */
static u32 xc_fast(struct ecdma_ec_xctx *x, u32 ioff, u8 *const *outs,
		   u32 ooff, u32 n, bool acc, bool real)
{
	const struct ecdma_ec_exec_hooks *h = x->hooks;
	struct xc_plan *p = &x->p;
	unsigned int cls = BIT(ecdma_gf_cls(p->len));
	u8 fast_pq = p->cached ? x->pol.fast_pq : x->pol.fast_pq_cold;
	u8 fast_xor = p->cached ? x->pol.fast_xor : x->pol.fast_xor_cold;
	int i, cnt, s, alias;
	void *dest;

	if (p->pq && h->pq && (fast_pq & cls) &&
	    !(real && p->out_alias)) {
		for (i = 0; i < p->nin; i++)
			x->ptrs[i] = (void *)(x->in[i] + ioff);
		x->ptrs[p->nin] = outs[0] + ooff;
		x->ptrs[p->nin + 1] = outs[1] + ooff;
		if (!xc_aligned(x->ptrs, p->nin + 2))
			return 0;
		ecdma_ec_exec_fpu_put(x);
		if (!h->pq(h->ctx, p->nin, n, x->ptrs, acc))
			return 0;
		x->st.fast_pq_bytes += (u64)n * (p->nin + 2);
		return n;
	}
	if (p->q && h->pq && !acc && (fast_pq & cls) &&
	    !(real && p->out_alias))
		return xc_fast_q(x, ioff, outs[0] + ooff, n);

	alias = real ? p->xor_alias : XC_ALIAS_NONE;
	if (!p->ones || !h->xor || !h->xor_max || !(fast_xor & cls) ||
	    alias == XC_ALIAS_MANY || (acc && alias >= 0))
		return 0;
	dest = outs[0] + ooff;
	for (i = 0, cnt = 0; i < p->nin; i++)
		if (i != alias)
			x->ptrs[cnt++] = (void *)(x->in[i] + ioff);
	x->ptrs[cnt] = dest;
	if (!xc_aligned(x->ptrs, cnt + 1))
		return 0;
	ecdma_ec_exec_fpu_put(x);
	s = 0;
	if (!acc && alias < 0) {
		/* dest = in[0] ^ ...: xor_blocks only accumulates */
		memcpy(dest, x->ptrs[0], n);
		s = 1;
	}
	while (s < cnt) {
		int c = min_t(int, cnt - s, h->xor_max);

		h->xor(h->ctx, c, n, dest, x->ptrs + s);
		s += c;
	}
	x->st.fast_xor_bytes += (u64)n * (p->nin + 1);
	return n;
}

/* What the plan computes, for the per-class store policy. */
static enum ecdma_gf_kind xc_kind(const struct xc_plan *p)
{
	if (p->ones)
		return ECDMA_GF_KIND_XOR;
	return p->pq ? ECDMA_GF_KIND_PQ : ECDMA_GF_KIND_RS;
}

/* GF algo kernels for @n bytes; @real as for xc_fast() */
static void xc_gf(struct ecdma_ec_xctx *x, u32 ioff, u8 *const *outs,
		  u32 ooff, u32 n, bool acc, bool real)
{
	const struct ecdma_gf_algo *algo = x->algo;
	struct xc_plan *p = &x->p;
	u64 bytes = (u64)n * (p->nin + p->nout);
	unsigned int flags = ECDMA_GF_ACC;
	int i;

	if (algo->fpu) {
		if (x->simd) {
			if (!x->fpu_on) {
				x->hooks->fpu_begin(x->hooks->ctx);
				x->fpu_on = true;
				x->st.fpu_sections++;
			}
		} else {
			algo = x->nofpu;
			x->st.nofpu_bytes += bytes;
		}
	}
	/* by the block's class, not the piece's; never NT into scratch */
	if (!acc)
		flags = real ? ecdma_gf_flags(p->len, false, x->pol.nt_min,
					      x->pol.nt_kmin[xc_kind(p)],
					      p->nin, p->cached) : 0;
	if (algo->fpu && (flags & ECDMA_GF_NT))
		x->st.nt_bytes += bytes;
	for (i = 0; i < p->nin; i++)
		x->pin[i] = x->in[i] + ioff;
	for (i = 0; i < p->nout; i++)
		x->pout[i] = outs[i] + ooff;
	if (p->ones)
		algo->xor(n, p->nin, x->pin, x->pout[0], flags);
	else
		algo->encode(n, p->nin, p->nout, xc_tbls(x, algo), x->pin,
			     x->pout, flags);
	x->st.gf_bytes += bytes;
}

static void xc_product(struct ecdma_ec_xctx *x, u32 ioff, u8 *const *outs,
		       u32 ooff, u32 n, bool acc, bool real)
{
	u32 done = 0;

	if (x->simd && n >= ECDMA_EC_FAST_LEN_ALIGN)
		done = xc_fast(x, ioff, outs, ooff,
			       n & ~(ECDMA_EC_FAST_LEN_ALIGN - 1), acc, real);
	if (done < n)
		xc_gf(x, ioff + done, outs, ooff + done, n - done, acc, real);
}

static void xc_validate(struct ecdma_ec_xctx *x, u32 off, u32 n)
{
	struct xc_plan *p = &x->p;
	u32 all = (u32)(BIT(p->nout) - 1), o, piece;
	int j;

	for (o = 0; o < n && p->result != all; o += piece) {
		piece = min_t(u32, n - o, ECDMA_EC_VAL_CHUNK);
		xc_product(x, off + o, x->vout, 0, piece, false, false);
		for (j = 0; j < p->nout; j++)
			if (!(p->result & BIT(j)) &&
			    memcmp(x->vout[j], x->out[j] + off + o, piece))
				p->result |= BIT(j);
	}
}

static bool xc_overlap(const u8 *a, const u8 *b, u32 len)
{
	return a < b + len && b < a + len;
}

/* Bytes for the next range: what the budget pays for, at least one unit. */
static u32 xc_range(u32 left, int blocks, long budget)
{
	u64 n = budget > 0 ? (u64)budget / blocks : 0;

	n &= ~(u64)(ECDMA_EC_FAST_LEN_ALIGN - 1);
	if (n < ECDMA_EC_FAST_LEN_ALIGN)
		n = ECDMA_EC_FAST_LEN_ALIGN;
	return n < left ? (u32)n : left;
}

/**
 * ecdma_ec_exec_run() - execute part of the current work request
 * @x: the context
 * @budget: bytes of all blocks this call may spend, less what it spent
 *	(may go negative: each call does at least 512 bytes per block)
 *
 * On completion wr->status is 0 and wr->result the VALIDATE bits.  A SIMD
 * section may stay open for the next call: ecdma_ec_exec_fpu_put().
 *
 * Return: true when the work request is finished (or none was started).
 */
bool ecdma_ec_exec_run(struct ecdma_ec_xctx *x, long *budget)
{
	struct xc_plan *p = &x->p;
	u32 n = 0;

	if (!p->wr)
		return true;

	switch (p->kind) {
	case XC_NOP:
		n = p->len - p->off;	/* DECODE without erasures */
		break;
	case XC_COPY:
		/*
		 * memcpy() unless the blocks overlap (then in one piece): x86's
		 * memmove() is "rep movsb", slow under emulation (TCG)
		 */
		if (xc_overlap(x->in[0], x->out[0], p->len)) {
			n = p->len - p->off;
			memmove(x->out[0] + p->off, x->in[0] + p->off, n);
		} else {
			n = xc_range(p->len - p->off, 2, *budget);
			memcpy(x->out[0] + p->off, x->in[0] + p->off, n);
		}
		*budget -= 2L * n;
		break;
	case XC_GEMM:
		n = xc_range(p->len - p->off, p->nin + p->nout, *budget);
		xc_product(x, p->off, x->out, p->off, n, p->accumulate, true);
		*budget -= (long)n * (p->nin + p->nout);
		break;
	case XC_VALIDATE:
		n = xc_range(p->len - p->off, p->nin + p->nout, *budget);
		xc_validate(x, p->off, n);
		*budget -= (long)n * (p->nin + p->nout);
		if (p->result == (u32)(BIT(p->nout) - 1))
			n = p->len - p->off;	/* all mismatch: stop early */
		break;
	}
	p->off += n;
	if (p->off < p->len)
		return false;
	xc_finish(x, 0);
	return true;
}

/**
 * ecdma_ec_exec_wr() - execute a whole work request now
 * @x: the context, idle
 * @wr: a validated work request
 *
 * Start, run without a budget, close the SIMD section; no wr->done call.
 *
 * Return: wr->status.
 */
int ecdma_ec_exec_wr(struct ecdma_ec_xctx *x, struct ecdma_ec_wr *wr)
{
	long budget;

	if (!ecdma_ec_exec_start(x, wr)) {
		do {
			budget = LONG_MAX;
		} while (!ecdma_ec_exec_run(x, &budget));
	}
	ecdma_ec_exec_fpu_put(x);
	return wr->status;
}
