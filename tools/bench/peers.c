// SPDX-License-Identifier: GPL-2.0
/*
 * The peers make bench times next to ecdma: ISA-L (libisal-dev), the
 * kernel's lib/raid6 and xor_avx template built in userspace, and the
 * scalar loops async_tx falls back to when a DMA channel cannot do a
 * recovery product.  Entries that need AVX-512 are skipped without it.
 */
#include <string.h>

#include <isa-l/erasure_code.h>
#include <isa-l/raid.h>

#include "bench.h"
#include "peers.h"

typedef void (*isal_enc_fn)(int, int, int, unsigned char *,
			    unsigned char **, unsigned char **);
typedef void (*isal_upd_fn)(int, int, int, int, unsigned char *,
			    unsigned char *, unsigned char **);
typedef int (*isal_gen_fn)(int, int, void **);

static void isal_enc_run(const struct impl *im, struct cfg *c)
{
	((isal_enc_fn)im->p)(c->B, c->nin, c->nout, c->isal_tbls, c->in,
			     c->out);
}

/* update: old and new data each folded into the parities (mad shape) */
static void isal_upd_run(const struct impl *im, struct cfg *c)
{
	isal_upd_fn f = (isal_upd_fn)im->p;

	f(c->B, c->k, c->m, c->upd, c->isal_tbls, c->in[0], c->out);
	f(c->B, c->k, c->m, c->upd, c->isal_tbls, c->in[1], c->out);
}

static void isal_pq_run(const struct impl *im, struct cfg *c)
{
	void *v[MAXK + 2];
	int i;

	for (i = 0; i < c->nin; i++)
		v[i] = c->in[i];
	v[c->nin] = c->out[0];
	v[c->nin + 1] = c->out[1];
	((isal_gen_fn)im->p)(c->nin + c->nout, c->B, v);
}

static void raid6_gen_run(const struct impl *im, struct cfg *c)
{
	const struct raid6_calls *r = im->p;
	void *v[MAXK + 2];
	int i;

	for (i = 0; i < c->nin; i++)
		v[i] = c->in[i];
	v[c->nin] = c->out[0];
	v[c->nin + 1] = c->out[1];
	r->gen_syndrome(c->nin + 2, c->B, v);
}

/* disks: k data (failed ones are the two outputs), P, Q */
static void recov_ptrs(const struct cfg *c, void **v)
{
	int i, s = 0;

	for (i = 0; i < c->k; i++)
		v[i] = i == c->fa ? c->out[0] : i == c->fb ? c->out[1] :
		       c->in[s++];
	v[c->k] = c->in[c->k - 2];
	v[c->k + 1] = c->in[c->k - 1];
}

static void raid6_rec_run(const struct impl *im, struct cfg *c)
{
	const struct raid6_recov_calls *r = im->p;
	void *v[MAXK + 2];
	size_t off;
	int i;

	/* md calls it per page: it uses a PAGE_SIZE zero page inside */
	for (off = 0; off < c->B; off += 4096) {
		recov_ptrs(c, v);
		for (i = 0; i < c->k + 2; i++)
			v[i] = (u8 *)v[i] + off;
		r->data2(c->k + 2, 4096, c->fa, c->fb, v);
	}
}

/*
 * async_raid6_2data_recov through a DMA_PQ channel whose sum_product falls
 * back to software: gen_syndrome with the failed pages as P'/Q', two XORs,
 * the scalar async_sum_product loop, one XOR.
 */
static void async_rec_run(const struct impl *im, struct cfg *c)
{
	void *v[MAXK + 2], *s[2];
	u8 *p, *q, *dp, *dq;
	const u8 *amul, *bmul;
	size_t n;

	recov_ptrs(c, v);
	p = v[c->k];
	q = v[c->k + 1];
	dp = v[c->fa];
	dq = v[c->fb];
	v[c->fa] = (void *)(c->in[c->k]);	/* zero page */
	v[c->fb] = (void *)(c->in[c->k]);
	v[c->k] = dp;
	v[c->k + 1] = dq;
	raid6_call.gen_syndrome(c->k + 2, c->B, v);
	s[0] = p;
	kxor_avx(1, c->B, dp, s);
	s[0] = q;
	kxor_avx(1, c->B, dq, s);
	amul = raid6_gfmul[raid6_gfexi[c->fb - c->fa]];
	bmul = raid6_gfmul[raid6_gfinv[raid6_gfexp[c->fa] ^
				       raid6_gfexp[c->fb]]];
	for (n = 0; n < c->B; n++)
		dq[n] = amul[dp[n]] ^ bmul[dq[n]];	/* Db */
	s[0] = dq;
	kxor_avx(1, c->B, dp, s);			/* Da */
}

/*
 * The synchronous fallbacks of async_sum_product() and async_mult(): the
 * 1- and 2-source recovery products async_raid6_recov asks a DMA_PQ
 * channel for, computed with raid6_gfmul lookups byte by byte.
 */
static void async_sp_run(const struct impl *im, struct cfg *c)
{
	const u8 *amul = raid6_gfmul[c->coef[0]], *bmul = raid6_gfmul[c->coef[1]];
	const u8 *a = c->in[0], *b = c->in[1];
	u8 *o = c->out[0];
	size_t n;

	for (n = 0; n < c->B; n++)
		o[n] = amul[a[n]] ^ bmul[b[n]];
}

static void async_mult_run(const struct impl *im, struct cfg *c)
{
	const u8 *qmul = raid6_gfmul[c->coef[0]], *a = c->in[0];
	u8 *o = c->out[0];
	size_t n;

	for (n = 0; n < c->B; n++)
		o[n] = qmul[a[n]];
}

static void isal_xor_run(const struct impl *im, struct cfg *c)
{
	void *v[MAXK + 1];
	int i;

	for (i = 0; i < c->nin; i++)
		v[i] = c->in[i];
	v[c->nin] = c->out[0];
	((isal_gen_fn)im->p)(c->nin + 1, c->B, v);
}

/* async_xor's synchronous path: memset, then <= 4 sources per pass */
static void kxor_run(const struct impl *im, struct cfg *c)
{
	int s;

	memset(c->out[0], 0, c->B);
	for (s = 0; s < c->nin; s += 4)
		kxor_avx(c->nin - s < 4 ? c->nin - s : 4, c->B, c->out[0],
			 (void **)c->in + s);
}

#define PEER(name, id, fn, p, z) { name, id, K_PEER, fn, \
	(const void *)(p), .avx512 = z }

const struct impl enc_peers[] = {
	PEER("isal ec_encode_data", "isal", isal_enc_run, ec_encode_data, 0),
	PEER("isal ec_encode_data_avx512", "isal-avx512", isal_enc_run,
	     ec_encode_data_avx512, 1),
	PEER("isal ec_encode_data_avx2", "isal-avx2", isal_enc_run,
	     ec_encode_data_avx2, 0),
	{ }
};

const struct impl pq_peers[] = {
	PEER("isal pq_gen", "isal", isal_pq_run, pq_gen, 0),
	PEER("isal pq_gen_avx512", "isal-avx512", isal_pq_run, pq_gen_avx512,
	     1),
	PEER("isal pq_gen_avx2", "isal-avx2", isal_pq_run, pq_gen_avx2, 0),
	PEER("lib/raid6 avx512x4", "raid6-avx512x4", raid6_gen_run,
	     &raid6_avx512x4, 1),
	PEER("lib/raid6 avx512x2", "raid6-avx512x2", raid6_gen_run,
	     &raid6_avx512x2, 1),
	PEER("lib/raid6 avx2x4", "raid6-avx2x4", raid6_gen_run, &raid6_avx2x4,
	     0),
	{ }
};

const struct impl xor_peers[] = {
	PEER("isal xor_gen", "isal", isal_xor_run, xor_gen, 0),
	PEER("isal xor_gen_avx512", "isal-avx512", isal_xor_run,
	     xor_gen_avx512, 1),
	PEER("kernel xor_avx (async_xor sync)", "xor_avx", kxor_run, NULL, 0),
	{ }
};

const struct impl dec_peers[] = {
	PEER("isal ec_encode_data", "isal", isal_enc_run, ec_encode_data, 0),
	{ }
};

const struct impl upd_peers[] = {
	PEER("isal ec_encode_data_update", "isal", isal_upd_run,
	     ec_encode_data_update, 0),
	{ }
};

const struct impl rec_peers[] = {
	PEER("lib/raid6 recov_avx512", "raid6-recov-avx512", raid6_rec_run,
	     &raid6_recov_avx512, 1),
	PEER("lib/raid6 recov_avx2", "raid6-recov-avx2", raid6_rec_run,
	     &raid6_recov_avx2, 0),
	PEER("async_tx scalar fallback", "async-scalar", async_rec_run, NULL,
	     0),
	{ }
};

const struct impl sp_peers[] = {
	PEER("async_sum_product scalar", "async-scalar", async_sp_run, NULL,
	     0),
	{ }
};

const struct impl mult_peers[] = {
	PEER("async_mult scalar", "async-scalar", async_mult_run, NULL, 0),
	{ }
};

/* raid6_call as the kernel picks it on this CPU (priority, no benchmark) */
void peers_init(void)
{
	raid6_call = have_avx512 ? raid6_avx512x4 : raid6_avx2x4;
}
