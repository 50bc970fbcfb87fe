// SPDX-License-Identifier: GPL-2.0
/*
 * make bench, the cells' contents: coefficient matrices of encode
 * (ISA-L's Cauchy), P+Q, XOR, decode, update and recovery, and the
 * byte-at-a-time reference every implementation is checked against.
 */
#include <stdlib.h>
#include <string.h>

#include <isa-l/erasure_code.h>

#include "bench.h"
#include "peers.h"

u8 mul_tbl[256][256];
u8 *ref_out[MAXM + 2];

static u8 isal_full[(MAXK + MAXM) * MAXK];

void cfg_encode(struct cfg *c, int k, int m)
{
	int i, j;

	memset(c, 0, sizeof(*c));
	c->op = OP_ENC;
	c->k = k;
	c->m = m;
	c->nin = k;
	c->nout = m;
	gf_gen_cauchy1_matrix(isal_full, k + m, k);
	for (j = 0; j < m; j++)
		for (i = 0; i < k; i++)
			c->coef[i * m + j] = isal_full[(k + j) * k + i];
	ec_init_tables(k, m, isal_full + k * k, c->isal_tbls);
}

void cfg_pq(struct cfg *c, int k, enum op op)
{
	int i;

	memset(c, 0, sizeof(*c));
	c->op = op;
	c->k = k;
	c->m = op == OP_XOR ? 1 : 2;
	c->nin = k;
	c->nout = c->m;
	for (i = 0; i < k; i++) {
		c->coef[i * c->m] = 1;
		if (op == OP_PQ)
			c->coef[i * 2 + 1] = ecdma_gf_pow2(i);
	}
}

/* decode e erased data blocks 0..e-1 of RS(k,m) from the next k blocks */
void cfg_decode(struct cfg *c, int k, int m, int e)
{
	u8 b[MAXK * MAXK], d[MAXK * MAXK], dm[MAXM * MAXK];
	int i, j;

	cfg_encode(c, k, m);
	c->op = OP_DEC;
	c->e = e;
	c->nin = k;
	c->nout = e;
	for (i = 0; i < k; i++)		/* survivors: blocks e .. e+k-1 */
		memcpy(b + i * k, isal_full + (e + i) * k, k);
	if (gf_invert_matrix(b, d, k))
		die("singular decode matrix");
	for (j = 0; j < e; j++)
		for (i = 0; i < k; i++) {
			dm[j * k + i] = d[j * k + i];
			c->coef[i * e + j] = d[j * k + i];
		}
	ec_init_tables(k, e, dm, c->isal_tbls);
}

/* update of data block u of RS(k,m): inputs old, new; outputs parities */
void cfg_update(struct cfg *c, int k, int m)
{
	int j;

	cfg_encode(c, k, m);
	c->op = OP_UPD;
	c->upd = k / 2;
	c->nin = 2;
	for (j = 0; j < m; j++) {
		c->coef[j] = isal_full[(k + j) * k + c->upd];
		c->coef[m + j] = c->coef[j];
	}
}

/* recovery products: 2 sources (sum_product) or 1 (mult), as async_tx */
void cfg_product(struct cfg *c, enum op op)
{
	int fa = 1, fb = 3;

	memset(c, 0, sizeof(*c));
	c->op = op;
	c->k = op == OP_SP ? 2 : 1;
	c->m = 1;
	c->nin = c->k;
	c->nout = 1;
	c->coef[0] = raid6_gfexi[fb - fa];
	c->coef[1] = raid6_gfinv[raid6_gfexp[fa] ^ raid6_gfexp[fb]];
	if (op == OP_MULT)
		c->coef[0] = raid6_gfinv[raid6_gfexp[fa]];
}

/*
 * RAID-6 with k data disks, data disks fa < fb lost: 2 outputs from the
 * k - 2 surviving data blocks, P and Q (in that order).
 */
void cfg_recov(struct cfg *c, int k)
{
	u8 g[(MAXK + 2) * MAXK], b[MAXK * MAXK], d[MAXK * MAXK];
	int i, j, r = 0;

	memset(c, 0, sizeof(*c));
	c->op = OP_REC;
	c->k = k;
	c->m = 2;
	c->e = 2;
	c->nin = k;
	c->nout = 2;
	c->fa = 1;
	c->fb = k / 2 + 1;
	memset(g, 0, sizeof(g));
	for (i = 0; i < k; i++) {
		g[i * k + i] = 1;
		g[k * k + i] = 1;
		g[(k + 1) * k + i] = ecdma_gf_pow2(i);
	}
	for (i = 0; i < k + 2; i++)
		if (i != c->fa && i != c->fb)
			memcpy(b + r++ * k, g + i * k, k);
	if (gf_invert_matrix(b, d, k))
		die("singular recovery matrix");
	for (j = 0; j < 2; j++)
		for (i = 0; i < k; i++)
			c->coef[i * 2 + j] = d[(j ? c->fb : c->fa) * k + i];
}

static void ref_run(const struct cfg *c, u8 **outs)
{
	size_t p;
	int i, j;

	for (j = 0; j < c->nout; j++) {
		u8 *o = outs[j];

		if (c->op == OP_UPD)
			memcpy(o, c->out[j], c->B);
		else
			memset(o, 0, c->B);
		for (i = 0; i < c->nin; i++) {
			const u8 *t = mul_tbl[c->coef[i * c->nout + j]];
			const u8 *s = c->in[i];

			for (p = 0; p < c->B; p++)
				o[p] ^= t[s[p]];
		}
	}
}

/*
 * Set up the hot stripe (the pool stays random).  For outputs that are
 * real data (decode, recovery), the expected result is the original data;
 * make the inputs consistent with it.
 */
/*
 * Set up the hot stripe (the pool stays random).  For outputs that are
 * real data (decode, recovery), the expected result is the original data;
 * make the inputs consistent with it.
 */
void make_consistent(struct cfg *c)
{
	u8 *tmp[MAXM + 2];
	int i;

	stripe(c, 0);
	if (c->op == OP_DEC) {
		/* blocks: data e..k-1 then parities; fill data 0..k-1 */
		struct cfg enc;
		u8 *data[MAXK], *par[MAXM];

		cfg_encode(&enc, c->k, c->m);
		for (i = 0; i < c->k; i++)
			data[i] = malloc(c->B);
		for (i = 0; i < c->m; i++)
			par[i] = malloc(c->B);
		for (i = 0; i < c->k; i++)
			fill(data[i], c->B);
		ec_encode_data_base(c->B, c->k, c->m, enc.isal_tbls, data,
				    par);
		for (i = 0; i < c->k; i++)	/* survivors */
			memcpy(c->in[i], i + c->e < c->k ? data[i + c->e] :
			       par[i + c->e - c->k], c->B);
		for (i = 0; i < c->e; i++)	/* expected */
			memcpy(ref_out[i], data[i], c->B);
		for (i = 0; i < c->k; i++)
			free(data[i]);
		for (i = 0; i < c->m; i++)
			free(par[i]);
		return;
	}
	if (c->op == OP_REC) {
		u8 *data[MAXK + 2];
		int s = 0;

		for (i = 0; i < c->k + 2; i++) {
			data[i] = malloc(c->B);
			if (i < c->k)
				fill(data[i], c->B);
		}
		memset(data[c->k], 0, c->B);
		memset(data[c->k + 1], 0, c->B);
		for (i = 0; i < c->k; i++) {
			size_t p;
			u8 g = ecdma_gf_pow2(i);

			for (p = 0; p < c->B; p++) {
				data[c->k][p] ^= data[i][p];
				data[c->k + 1][p] ^= mul_tbl[g][data[i][p]];
			}
		}
		for (i = 0; i < c->k; i++)
			if (i != c->fa && i != c->fb)
				memcpy(c->in[s++], data[i], c->B);
		memcpy(c->in[c->k - 2], data[c->k], c->B);
		memcpy(c->in[c->k - 1], data[c->k + 1], c->B);
		memset(c->in[c->k], 0, c->B);
		memcpy(ref_out[0], data[c->fa], c->B);
		memcpy(ref_out[1], data[c->fb], c->B);
		for (i = 0; i < c->k + 2; i++)
			free(data[i]);
		return;
	}
	for (i = 0; i < c->nout; i++)
		tmp[i] = ref_out[i];
	ref_run(c, tmp);
}

