// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma EC verbs: synchronous WR execution (pure code, in unit tests too).  A
 * context, allocated with the calc, serves one executor at a time, never
 * allocates, and runs WRs in byte ranges: outputs depend on same-offset inputs.
 */
#include "ecdma_compat.h"
#include "ec_priv.h"
#include "ec_exec_priv.h"
#include "gf.h"
#include "gf_algo.h"

#define XC_ALIGN(x)	(((x) + 63) & ~(size_t)63)

static bool xc_same_fmt(const struct ecdma_gf_algo *a,
			const struct ecdma_gf_algo *b)
{
	return a == b || (a->prep == b->prep && a->tbl_bytes == b->tbl_bytes);
}

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
 * Return: bytes to allocate (any alignment), or 0 for an invalid @cfg.
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
EXPORT_SYMBOL_GPL(ecdma_ec_exec_size);

/**
 * ecdma_ec_exec_init() - build an execution context
 * @mem: ecdma_ec_exec_size() bytes
 * @cfg: what it is for
 *
 * Return: the context (inside @mem, SIMD off), or NULL for an invalid @cfg.
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
	for (i = 0; i < ECDMA_GF_BAND_NR; i++) {
		x->pol.fast_pq[i] = ECDMA_GF_CLS_ALL;
		x->pol.fast_xor[i] = ECDMA_GF_CLS_ALL;
		x->pol.fast_pq_cold[i] = ECDMA_GF_CLS_ALL;
		x->pol.fast_xor_cold[i] = ECDMA_GF_CLS_ALL;
	}
	for (i = 0; i < x->ndec; i++)
		x->dec[i].nerr = -1;
	algo->prep(x->matrix, x->k, x->m, x->enc_tbls);
	x->calc_pq = ecdma_ec_is_pq(x->matrix, x->k, x->m);
	x->calc_ones = ecdma_ec_is_ones(x->matrix, x->k, x->m);
	return x;
}
EXPORT_SYMBOL_GPL(ecdma_ec_exec_init);

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
 */
void ecdma_ec_exec_set_policy(struct ecdma_ec_xctx *x,
			      const struct ecdma_ec_exec_policy *pol)
{
	x->pol = *pol;
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
 * Return: 0 (then ecdma_ec_exec_run() until true), or -EINVAL, @wr finished,
 * for a layout or erasure pattern this calc cannot execute.
 */
int ecdma_ec_exec_start(struct ecdma_ec_xctx *x, struct ecdma_ec_wr *wr)
{
	int ret;

	memset(&x->p, 0, sizeof(x->p));
	x->p.wr = wr;
	x->wr_tbls_algo = NULL;
	ret = ecdma_ec_plan(x, wr);
	if (ret) {
		xc_finish(x, ret);
		return ret;
	}
	/* once per request: its pieces may run elsewhere */
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
 * Return: the request, outputs maybe partly written, to complete; or NULL.
 */
struct ecdma_ec_wr *ecdma_ec_exec_abort(struct ecdma_ec_xctx *x)
{
	struct ecdma_ec_wr *wr = x->p.wr;

	x->p.wr = NULL;
	ecdma_ec_exec_fpu_put(x);
	return wr;
}

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
 * Q alone (md's Q checks, rebuilds): lib/raid6, making P into scratch, still
 * beats the GF kernels.  Return: bytes done, in ECDMA_EC_FAST_LEN_ALIGN units.
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
 * plan outputs, aliasing matters.  Return: bytes done (aligned, <= @n).
 */
static u32 xc_fast(struct ecdma_ec_xctx *x, u32 ioff, u8 *const *outs,
		   u32 ooff, u32 n, bool acc, bool real)
{
	const struct ecdma_ec_exec_hooks *h = x->hooks;
	struct xc_plan *p = &x->p;
	unsigned int cls = BIT(ecdma_gf_cls(p->len));
	int band = ecdma_gf_band(p->nin);
	u8 fast_pq = p->cached ? x->pol.fast_pq[band] :
		     x->pol.fast_pq_cold[band];
	u8 fast_xor = p->cached ? x->pol.fast_xor[band] :
		      x->pol.fast_xor_cold[band];
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
	unsigned int flags = acc ? ECDMA_GF_ACC : 0, nt;
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
	if (!acc && real) {
		nt = ecdma_gf_nt_mask(x->pol.nt[xc_kind(p)], x->pol.nt_block,
				      p->len, p->nin, p->nout, p->out_alias);
		flags = ecdma_gf_flags(p->len, false, x->pol.nt_min, nt,
				       p->cached);
	}
	if (algo->fpu && (flags & ECDMA_GF_NT))
		x->st.nt_bytes += bytes;
	for (i = 0; i < p->nin; i++)
		x->pin[i] = x->in[i] + ioff;
	for (i = 0; i < p->nout; i++)
		x->pout[i] = outs[i] + ooff;
	if (p->ones)
		algo->xor(n, p->nin, x->pin, x->pout[0], flags);
	else if (p->pq && algo->pq)	/* as ecdma_gf_encode(), no tables */
		algo->pq(n, p->nin, x->pin, x->pout, flags);
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
 * Done: wr->status 0, wr->result the VALIDATE bits.  SIMD may stay open.
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
		/* memmove() ("rep movsb", slow in TCG) only if they overlap */
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
 * Return: wr->status; wr->done is not called.
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
EXPORT_SYMBOL_GPL(ecdma_ec_exec_wr);
