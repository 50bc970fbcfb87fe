/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ecdma SIMD RAID-6 P+Q kernel (->pq), part of gf_simd_tmpl.h: included
 * from it, for the vpshufb algos only, with its S_* macros and helpers
 * (S_(ld), S_(put), S_(zero)) defined.
 */

/*
 * RAID-6 P and Q by Horner's rule, as lib/raid6 does: Q = (..(d[k-1] * 2 ^
 * d[k-2]) * 2 ..) ^ d[0].  A multiply by {02} is an add, a sign mask and
 * 0x1d: three cheap operations where the tables take a split and two
 * vpshufb per input.  (GFNI's one affine per input costs no more: those
 * algos keep encode.)  @u vectors a step, every input read before the
 * step's stores, so an output may be an input.
 */
static __always_inline SIMD_TGT void
S_(pq_step)(size_t off, int k, int u, bool nt, bool acc, const u8 *const *in,
	    u8 *po, u8 *qo)
{
	S_V p[S_UMAX], q[S_UMAX], poly, d, hi;
	int i, v;

	memset(&poly, 0x1d, sizeof(poly));
#pragma GCC unroll 4
	for (v = 0; v < u; v++) {
		p[v] = S_(ld)(in[k - 1] + off + v * SIMD_VW);
		q[v] = p[v];
	}
	for (i = k - 2; i >= 0; i--)
#pragma GCC unroll 4
		for (v = 0; v < u; v++) {
			d = S_(ld)(in[i] + off + v * SIMD_VW);
			p[v] ^= d;
			/* {02} * q: shift left, 0x1d where the top bit was */
			hi = q[v] < S_(zero)();
			q[v] = (S_V)((S_VB)q[v] + (S_VB)q[v]) ^ (hi & poly) ^ d;
		}
#pragma GCC unroll 4
	for (v = 0; v < u; v++) {
		if (acc) {
			p[v] ^= S_(ld)(po + off + v * SIMD_VW);
			q[v] ^= S_(ld)(qo + off + v * SIMD_VW);
		}
		S_(put)(po + off + v * SIMD_VW, p[v], nt);
		S_(put)(qo + off + v * SIMD_VW, q[v], nt);
	}
}

static __always_inline SIMD_TGT void
S_(pq_body)(size_t len, int k, const u8 *const *in, u8 *po, u8 *qo,
	    bool nt, bool acc)
{
	size_t off;

	for (off = 0; off + 4 * SIMD_VW <= len; off += 4 * SIMD_VW)
		S_(pq_step)(off, k, 4, nt, acc, in, po, qo);
	for (; off + SIMD_VW <= len; off += SIMD_VW)
		S_(pq_step)(off, k, 1, nt, acc, in, po, qo);
}

static SIMD_TGT void S_(pq_r)(size_t len, int k, const u8 *const *in,
			      u8 *po, u8 *qo, bool acc)
{
	S_(pq_body)(len, k, in, po, qo, false, acc);
}

static SIMD_TGT void S_(pq_nt)(size_t len, int k, const u8 *const *in,
			       u8 *po, u8 *qo, bool acc)
{
	S_(pq_body)(len, k, in, po, qo, true, acc);
	ecdma_sfence();
}

static SIMD_TGT void S_(pq)(size_t len, int k, const u8 *const *in,
			    u8 *const *out, unsigned int flags)
{
	size_t body = len & ~(size_t)(SIMD_VW - 1), b;
	bool acc = flags & ECDMA_GF_ACC;
	int i;

	if (k < 1)
		return;
	if ((flags & ECDMA_GF_NT) &&
	    !(((unsigned long)out[0] | (unsigned long)out[1]) & (SIMD_VW - 1)))
		S_(pq_nt)(body, k, in, out[0], out[1], acc);
	else
		S_(pq_r)(body, k, in, out[0], out[1], acc);
	/* tail: each byte read from every input before it is written */
	for (b = body; b < len; b++) {
		u8 p = in[k - 1][b], q = p;

		for (i = k - 2; i >= 0; i--) {
			p ^= in[i][b];
			q = (u8)(q << 1) ^ (q & 0x80 ? 0x1d : 0) ^ in[i][b];
		}
		out[0][b] = (acc ? out[0][b] : 0) ^ p;
		out[1][b] = (acc ? out[1][b] : 0) ^ q;
	}
}
