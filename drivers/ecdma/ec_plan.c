// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma EC verbs: turning a work request into a plan (inputs, outputs, a
 * nin x nout coefficient matrix and its shape) for ec_exec.c to run; pure
 * code, shared with the unit tests.  Decode matrices come from a cache.
 */
#include "ecdma_compat.h"
#include "ec_priv.h"
#include "ec_exec_priv.h"
#include "gf.h"
#include "gf_algo.h"

static inline u8 *xc_ptr(u64 addr)
{
	return (u8 *)(unsigned long)addr;
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

/**
 * ecdma_ec_is_pq() - does a coefficient matrix have the RAID-6 P/Q shape?
 * @coef: @nin x @nout coefficients
 * @nin: inputs (rows)
 * @nout: outputs (columns)
 *
 * Return: true for two columns, P (all 1) and Q ({02}^i), over >= 2 inputs.
 */
bool ecdma_ec_is_pq(const u8 *coef, int nin, int nout)
{
	return nout == 2 && xc_is_raid6(coef, nin, 2, 0, 1);
}

/* One output, Q alone */
static bool xc_is_q(const u8 *coef, int nin, int nout)
{
	return nout == 1 && xc_is_raid6(coef, nin, 1, -1, 0);
}

/**
 * ecdma_ec_is_ones() - is a coefficient matrix one all-ones column (XOR)?
 * @coef: @nin x @nout coefficients
 * @nin: inputs (rows)
 * @nout: outputs (columns)
 *
 * Return: true when @nout is 1 and every coefficient is 1.
 */
bool ecdma_ec_is_ones(const u8 *coef, int nin, int nout)
{
	int i;

	if (nout != 1)
		return false;
	for (i = 0; i < nin; i++)
		if (coef[i] != 1)
			return false;
	return true;
}

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
	d->pq = ecdma_ec_is_pq(d->coef, x->k, e);
	d->ones = ecdma_ec_is_ones(d->coef, x->k, e);
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
		p->pq = ecdma_ec_is_pq(p->coef, k, nerr);
		p->ones = ecdma_ec_is_ones(p->coef, k, nerr);
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
		p->pq = ecdma_ec_is_pq(p->coef, p->nin, p->nout);
		p->q = xc_is_q(p->coef, p->nin, p->nout);
		p->ones = ecdma_ec_is_ones(p->coef, p->nin, p->nout);
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

/**
 * ecdma_ec_plan() - turn a work request into the context's plan
 * @x: the context; @x->p zeroed but for its wr
 * @wr: a work request that passed ecdma_ec_validate_wr() for this calc
 *
 * Fills @x->p and the context's block lists; writes nothing but the context
 * (the decode cache included).
 *
 * Return: 0, or -EINVAL for a layout or erasure pattern this calc cannot
 * execute (or the error of a decode matrix that cannot be made).
 */
int ecdma_ec_plan(struct ecdma_ec_xctx *x, struct ecdma_ec_wr *wr)
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
