/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ecdma SIMD GF(2^8) kernel template, included once per algo by
 * gf_avx2.c, gf_avx512.c and gf_gfni.c after defining:
 *
 *   SIMD_NAME(x)	prefix for the generated functions
 *   SIMD_TGT		the function target attribute (gf_simd.h)
 *   SIMD_VW		vector width, 32 or 64
 *   SIMD_GFNI		1: vgf2p8affineqb matrices, 0: vpshufb nibble tables
 *   SIMD_UNROLL_G(g)	vectors per output per step for g outputs, 1 to 4
 *   SIMD_UNROLL_NT_G(g)	optional: the same for passes with NT stores
 *   SIMD_GROUP		optional: outputs a regular-store pass, 4 or 8
 *
 * A step reads SIMD_UNROLL_G(g) vectors of each input in turn (as
 * lib/raid6's avx512x4) into up to SIMD_GROUP output registers and
 * writes each output once.  More outputs take more passes, chunk by chunk;
 * outputs aliasing an input go in the last pass (ecdma_simd_order()).
 * Tails and layouts the passes cannot order take a staged one-vector path.
 * ECDMA_GF_NT on vector-aligned outputs means vmovntdq, then sfence.
 * No software prefetch: it lost or made no difference.
 */

#define S_(x)	SIMD_NAME(x)

#if SIMD_VW == 64
#define S_V	ecdma_v64qi
#define S_VU	ecdma_v64qi_u
#define S_VH	ecdma_v32hi
#define S_VB	ecdma_v64qu
#define S_VQ	ecdma_v8di
#define S_PSHUFB(t, x)	ecdma_pshufb512((t), (x))
#define S_AFFINE(x, a)	ecdma_affine512((x), (a))
#else
#define S_V	ecdma_v32qi
#define S_VU	ecdma_v32qi_u
#define S_VH	ecdma_v16hi
#define S_VB	ecdma_v32qu
#define S_VQ	ecdma_v4di
#define S_PSHUFB(t, x)	ecdma_pshufb256((t), (x))
#define S_AFFINE(x, a)	ecdma_affine256((x), (a))
#endif

/* vectors per output in a step for @g outputs per pass, at most S_UMAX */
#define S_UNROLL(g)	SIMD_UNROLL_G(g)
/* the same with NT stores (the outputs, so likely the inputs, not cached) */
#ifdef SIMD_UNROLL_NT_G
#define S_UNROLL_NT(g)	SIMD_UNROLL_NT_G(g)
#else
#define S_UNROLL_NT(g)	SIMD_UNROLL_G(g)
#endif
#define S_UMAX		4
#ifdef SIMD_GROUP
#define S_GROUP		SIMD_GROUP
#else
#define S_GROUP		ECDMA_SIMD_GROUP
#endif

#if SIMD_GFNI
#define S_TB	ECDMA_GF_AFFINE_TBL_BYTES
#else
#define S_TB	ECDMA_GF_NIBBLE_TBL_BYTES
#endif

static __always_inline SIMD_TGT S_V S_(ld)(const u8 *p)
{
	return *(const S_VU *)p;
}

static __always_inline SIMD_TGT void S_(st)(u8 *p, S_V v)
{
	*(S_VU *)p = v;
}

/* non-temporal store: @p must be SIMD_VW aligned */
static __always_inline SIMD_TGT void S_(st_nt)(u8 *p, S_V v)
{
#if SIMD_VW == 64
	ecdma_stream512(p, v);
#else
	ecdma_stream256(p, v);
#endif
}

/* a regular or, for @nt, a non-temporal store */
static __always_inline SIMD_TGT void S_(put)(u8 *p, S_V v, bool nt)
{
	if (nt)
		S_(st_nt)(p, v);
	else
		S_(st)(p, v);
}

static __always_inline SIMD_TGT S_V S_(zero)(void)
{
	S_V z = { 0 };

	return z;
}

/* @n <= SIMD_VW bytes at @p, the rest zero */
static __always_inline SIMD_TGT S_V S_(ld_part)(const u8 *p, size_t n)
{
#if SIMD_VW == 64
	return ecdma_ldmask512(p, S_(zero)(),
			       n >= 64 ? ~0ULL : (1ULL << n) - 1);
#else
	u8 buf[SIMD_VW] = { 0 };

	memcpy(buf, p, n);
	return S_(ld)(buf);
#endif
}

/* A multiplier: the matrix, or the lo/hi nibble tables in every lane. */
struct S_(coef) {
	S_V a;
#if !SIMD_GFNI
	S_V b;
#endif
};

/* An input vector (@r), with its nibbles split for vpshufb. */
struct S_(x) {
	S_V r;
	S_V a;
#if !SIMD_GFNI
	S_V b;
#endif
};

static __always_inline SIMD_TGT struct S_(coef) S_(coef)(const u8 *t)
{
	struct S_(coef) c;
#if defined(__CHECKER__)
	/* sparse cannot parse vector initializers */
	memset(&c, *t, sizeof(c));
#elif SIMD_GFNI
	u64 q;

	memcpy(&q, t, sizeof(q));
#if SIMD_VW == 64
	c.a = (S_V)(S_VQ) { q, q, q, q, q, q, q, q };
#else
	c.a = (S_V)(S_VQ) { q, q, q, q };
#endif
#else
	/* vbroadcasti128 / vbroadcasti32x4: a load, no shuffle uop */
	ecdma_v2di l = *(const ecdma_v2di_u *)t;
	ecdma_v2di h = *(const ecdma_v2di_u *)(t + 16);

#if SIMD_VW == 64
	c.a = ecdma_bcast16x4(l);
	c.b = ecdma_bcast16x4(h);
#else
	c.a = ecdma_bcast16x2(l);
	c.b = ecdma_bcast16x2(h);
#endif
#endif
	return c;
}

static __always_inline SIMD_TGT struct S_(x) S_(split)(S_V v)
{
	struct S_(x) x;

	x.r = v;
#if SIMD_GFNI
	x.a = v;
#else
	S_V mask;

	memset(&mask, 0x0f, sizeof(mask));
	x.a = v & mask;
	x.b = (S_V)((S_VH)v >> 4) & mask;
#endif
	return x;
}

static __always_inline SIMD_TGT S_V S_(mul)(struct S_(x) x,
					   struct S_(coef) c)
{
#if SIMD_GFNI
	return S_AFFINE(x.a, c.a);
#else
	return S_PSHUFB(c.a, x.a) ^ S_PSHUFB(c.b, x.b);
#endif
}

/*
 * The @n-th input a step reads, for @g outputs: the last first, as ISA-L
 * and lib/raid6 read them.  Blocks back to back in memory, at a constant
 * stride, read first to last lead a stride prefetcher past the stripe:
 * on Zen 5 that made cached stripes much slower (and cold ones, whose
 * next stripe follows, a little faster).  Scattered blocks, as md's
 * pages are, run the same either way.  Passes of more than four outputs
 * keep first to last, which measured faster cold (ecdma-simd.rst).
 */
static __always_inline int S_(input)(int n, int k, int g)
{
	return g <= ECDMA_SIMD_GROUP ? k - 1 - n : n;
}

/*
 * One step at @off: @u vectors (<= S_UMAX) of outputs o[0..g-1], tables
 * t[j].  Reading @u vectors per input gives longer runs per stream and
 * more multiplies per loaded table.  @ones: output 0 is RAID P, a plain
 * XOR.  @g, @u, @ones, @nt and @acc are constants after inlining, so the
 * loops unroll and the g * u accumulators stay in registers.
 */
static __always_inline SIMD_TGT void
S_(step)(size_t off, int k, int g, int u, bool ones, bool nt,
	 const u8 *const *t, const u8 *const *in, u8 *const *o, bool acc)
{
	S_V a[S_GROUP][S_UMAX];
	int i, j, n, v;

#pragma GCC unroll 8
	for (j = 0; j < g; j++)
#pragma GCC unroll 4
		for (v = 0; v < u; v++)
			a[j][v] = S_(zero)();
	for (n = 0; n < k; n++) {
		const u8 *p;
		struct S_(x) x[S_UMAX];

		i = S_(input)(n, k, g);
		p = in[i] + off;
#pragma GCC unroll 4
		for (v = 0; v < u; v++)
			x[v] = S_(split)(S_(ld)(p + v * SIMD_VW));
#pragma GCC unroll 8
		for (j = 0; j < g; j++) {
			struct S_(coef) c;

			if (!j && ones) {
#pragma GCC unroll 4
				for (v = 0; v < u; v++)
					a[0][v] ^= x[v].r;
				continue;
			}
			c = S_(coef)(t[j] + i * S_TB);
#pragma GCC unroll 4
			for (v = 0; v < u; v++)
				a[j][v] ^= S_(mul)(x[v], c);
		}
	}
	/* every old output is loaded before the first store */
	if (acc)
#pragma GCC unroll 8
		for (j = 0; j < g; j++)
#pragma GCC unroll 4
			for (v = 0; v < u; v++)
				a[j][v] ^= S_(ld)(o[j] + off + v * SIMD_VW);
#pragma GCC unroll 8
	for (j = 0; j < g; j++)
#pragma GCC unroll 4
		for (v = 0; v < u; v++)
			S_(put)(o[j] + off + v * SIMD_VW, a[j][v], nt);
}

/* One pass over bytes [off, end), both multiples of SIMD_VW. */
static __always_inline SIMD_TGT void
S_(dot)(size_t off, size_t end, int k, int g, bool ones, bool nt,
	const u8 *const *t, const u8 *const *in, u8 *const *o, bool acc)
{
	const int u = nt ? S_UNROLL_NT(g) : S_UNROLL(g);

	for (; off + u * SIMD_VW <= end; off += u * SIMD_VW)
		S_(step)(off, k, g, u, ones, nt, t, in, o, acc);
	for (; off < end; off += SIMD_VW)
		S_(step)(off, k, g, 1, ones, nt, t, in, o, acc);
}

/* Is every coefficient in these @k tables 1? */
static bool S_(all_ones)(int k, const u8 *t)
{
	int i;

	for (i = 0; i < k; i++) {
#if SIMD_GFNI
		u64 q;

		memcpy(&q, t + i * S_TB, sizeof(q));
		if (q != ecdma_gf_affine_identity)
			return false;
#else
		if (t[i * S_TB + 1] != 1)	/* lo[1] == c */
			return false;
#endif
	}
	return true;
}

/*
 * One dot function per @g, @ones and @nt, so each inner loop specialises;
 * all inline into S_(encode) (the compiler stopped doing that by itself
 * when the wide passes came in, and the calls cost 2-7% on 4 KiB blocks).
 * Not under KASAN_STACK: there the forced inlining passes the frame limit.
 */
#ifdef CONFIG_KASAN_STACK
#define S_INLINE
#else
#define S_INLINE	__always_inline
#endif
#define S_DOT(g, ones, nt, sfx)						\
static S_INLINE SIMD_TGT void						\
S_(dot##sfx)(size_t off, size_t end, int k, const u8 *const *t,		\
	     const u8 *const *in, u8 *const *o, bool acc)		\
{									\
	S_(dot)(off, end, k, g, ones, nt, t, in, o, acc);		\
}

S_DOT(1, false, false, 1_r)
S_DOT(2, false, false, 2_r)
S_DOT(3, false, false, 3_r)
S_DOT(4, false, false, 4_r)
S_DOT(1, true, false, 1p_r)
S_DOT(2, true, false, 2p_r)
S_DOT(3, true, false, 3p_r)
S_DOT(4, true, false, 4p_r)
S_DOT(1, false, true, 1_nt)
S_DOT(2, false, true, 2_nt)
S_DOT(3, false, true, 3_nt)
S_DOT(4, false, true, 4_nt)
S_DOT(1, true, true, 1p_nt)
S_DOT(2, true, true, 2p_nt)
S_DOT(3, true, true, 3p_nt)
S_DOT(4, true, true, 4p_nt)

/* pass@sfx: the dot function for @sel = g + (RAID-P output ? 4 : 0) */
#define S_PASS(sfx)							\
static S_INLINE SIMD_TGT void S_(pass##sfx)(int sel, size_t off, size_t end,	\
				   int k,				\
				   const u8 *const *t,			\
				   const u8 *const *in, u8 *const *o,	\
				   bool acc)				\
{									\
	switch (sel) {							\
	case 1:								\
		S_(dot1##sfx)(off, end, k, t, in, o, acc);		\
		break;							\
	case 2:								\
		S_(dot2##sfx)(off, end, k, t, in, o, acc);		\
		break;							\
	case 3:								\
		S_(dot3##sfx)(off, end, k, t, in, o, acc);		\
		break;							\
	case 4:								\
		S_(dot4##sfx)(off, end, k, t, in, o, acc);		\
		break;							\
	case 5:								\
		S_(dot1p##sfx)(off, end, k, t, in, o, acc);		\
		break;							\
	case 6:								\
		S_(dot2p##sfx)(off, end, k, t, in, o, acc);		\
		break;							\
	case 7:								\
		S_(dot3p##sfx)(off, end, k, t, in, o, acc);		\
		break;							\
	default:							\
		S_(dot4p##sfx)(off, end, k, t, in, o, acc);		\
		break;							\
	}								\
}

S_PASS(_r)
S_PASS(_nt)
#undef S_PASS

#if S_GROUP > 4
S_DOT(5, false, false, 5_r)
S_DOT(6, false, false, 6_r)
S_DOT(7, false, false, 7_r)
S_DOT(8, false, false, 8_r)
S_DOT(5, true, false, 5p_r)
S_DOT(6, true, false, 6p_r)
S_DOT(7, true, false, 7p_r)
S_DOT(8, true, false, 8p_r)

/*
 * 5-8 outputs, regular stores: @sel = g + 4 + (RAID-P output ? 4 : 0).
 * Not inlined, so S_(encode) keeps the narrow passes inline as before.
 */
static noinline SIMD_TGT void
S_(pass_wide)(int sel, size_t off, size_t end, int k, const u8 *const *t,
	      const u8 *const *in, u8 *const *o, bool acc)
{
	switch (sel) {
	case 9:
		S_(dot5_r)(off, end, k, t, in, o, acc);
		break;
	case 10:
		S_(dot6_r)(off, end, k, t, in, o, acc);
		break;
	case 11:
		S_(dot7_r)(off, end, k, t, in, o, acc);
		break;
	case 12:
		S_(dot8_r)(off, end, k, t, in, o, acc);
		break;
	case 13:
		S_(dot5p_r)(off, end, k, t, in, o, acc);
		break;
	case 14:
		S_(dot6p_r)(off, end, k, t, in, o, acc);
		break;
	case 15:
		S_(dot7p_r)(off, end, k, t, in, o, acc);
		break;
	default:
		S_(dot8p_r)(off, end, k, t, in, o, acc);
		break;
	}
}
#endif
#undef S_DOT
#undef S_INLINE

/*
 * One column of every output: @n <= SIMD_VW bytes at @off.  The results
 * are staged and written only after every input (and old output) has
 * been read, so any exact aliasing is fine.
 */
static SIMD_TGT void S_(column)(size_t off, size_t n, int k, int m,
				const u8 *tbls, const u8 *const *in,
				u8 *const *out, bool acc)
{
	u8 stage[ECDMA_EC_MAX_M][SIMD_VW];
	int i, j;

	for (j = 0; j < m; j++) {
		S_V a = acc ? S_(ld_part)(out[j] + off, n) : S_(zero)();

		for (i = 0; i < k; i++)
			a ^= S_(mul)(S_(split)(S_(ld_part)(in[i] + off, n)),
				     S_(coef)(tbls + (j * k + i) * S_TB));
		S_(st)(stage[j], a);
	}
	for (j = 0; j < m; j++)
		memcpy(out[j] + off, stage[j], n);
}

static SIMD_TGT void S_(encode)(size_t len, int k, int m, const u8 *tbls,
				const u8 *const *in, u8 *const *out,
				unsigned int flags)
{
	size_t body = len & ~(size_t)(SIMD_VW - 1), off, end, chunk;
	bool acc = flags & ECDMA_GF_ACC, fence = false;
	const u8 *t[ECDMA_EC_MAX_M];
	u8 *o[ECDMA_EC_MAX_M];
	int ord[ECDMA_EC_MAX_M];
	int sel[ECDMA_SIMD_PASSES];
	bool nt[ECDMA_SIMD_PASSES];
	/*
	 * NT stores: passes of 4 outputs even where registers hold 8 (more
	 * NT streams at a time than write-combining buffers hold; see
	 * ecdma-simd.rst).
	 */
	int grp = flags & ECDMA_GF_NT ? ECDMA_SIMD_GROUP : S_GROUP;
	int j, g, n, np = 0, mm = m;

	if (m > ECDMA_EC_MAX_M || k < 1)
		return;
	if (body && ecdma_simd_order(k, m, grp, in, out, ord) < 0) {
		/* more aliased outputs than one pass holds: column by column */
		for (off = 0; off < body; off += SIMD_VW)
			S_(column)(off, SIMD_VW, k, m, tbls, in, out, acc);
		m = 0;
	}
	/* passes of up to @grp outputs, in ord[] order */
	for (j = 0; body && j < m; j += g, np++) {
		g = min(m - j, grp);
		for (n = 0; n < g; n++) {
			t[j + n] = tbls + (size_t)ord[j + n] * k * S_TB;
			o[j + n] = out[ord[j + n]];
		}
		/* 1-8 for 1-4 outputs, 9-16 for 5-8 (S_(pass_wide)) */
		sel[np] = g + (g > 4 ? 4 : 0) + (S_(all_ones)(k, t[j]) ? 4 : 0);
		/* NT per pass: only where every output is vector aligned */
		nt[np] = flags & ECDMA_GF_NT;
		for (n = 0; nt[np] && n < g; n++)
			if ((unsigned long)o[j + n] & (SIMD_VW - 1))
				nt[np] = false;
		/* an earlier pass's NT stores need the fence all the same */
		fence |= nt[np];
	}
	/* one pass: no need to chunk, the inputs are read once anyway */
	chunk = np > 1 ? ecdma_simd_chunk(k, S_UMAX * SIMD_VW) : body;
	for (off = 0; off < body; off = end) {
		end = body - off > chunk ? off + chunk : body;
		for (n = 0; n < np; n++) {
			int g0 = n * grp;

#if S_GROUP > 4
			if (sel[n] > 8) {
				S_(pass_wide)(sel[n], off, end, k, t + g0, in,
					      o + g0, acc);
				continue;
			}
#endif
			if (nt[n])
				S_(pass_nt)(sel[n], off, end, k, t + g0, in,
					    o + g0, acc);
			else
				S_(pass_r)(sel[n], off, end, k, t + g0, in,
					   o + g0, acc);
		}
	}
	if (fence)
		ecdma_sfence();
	if (body < len)
		S_(column)(body, len - body, k, mm, tbls, in, out, acc);
}

/*
 * out = (acc ? out : 0) ^ in[0] ^ ... ^ in[k - 1], 4 vectors a step, the
 * inputs last first as in S_(input)()
 */
static __always_inline SIMD_TGT void
S_(xor_body)(size_t len, int k, const u8 *const *in, u8 *out, bool acc,
	     bool nt)
{
	size_t off, p;
	int i;

	for (off = 0; off + 4 * SIMD_VW <= len; off += 4 * SIMD_VW) {
		const u8 *s = acc ? out + off : in[k - 1] + off;
		S_V v0, v1, v2, v3;

		v0 = S_(ld)(s);
		v1 = S_(ld)(s + SIMD_VW);
		v2 = S_(ld)(s + 2 * SIMD_VW);
		v3 = S_(ld)(s + 3 * SIMD_VW);

		for (i = k - 1 - !acc; i >= 0; i--) {
			s = in[i] + off;
			v0 ^= S_(ld)(s);
			v1 ^= S_(ld)(s + SIMD_VW);
			v2 ^= S_(ld)(s + 2 * SIMD_VW);
			v3 ^= S_(ld)(s + 3 * SIMD_VW);
		}
		S_(put)(out + off, v0, nt);
		S_(put)(out + off + SIMD_VW, v1, nt);
		S_(put)(out + off + 2 * SIMD_VW, v2, nt);
		S_(put)(out + off + 3 * SIMD_VW, v3, nt);
	}
	for (; off + SIMD_VW <= len; off += SIMD_VW) {
		S_V v = S_(ld)(acc ? out + off : in[0] + off);

		for (i = !acc; i < k; i++)
			v ^= S_(ld)(in[i] + off);
		S_(put)(out + off, v, nt);
	}
	if (nt)
		ecdma_sfence();
	/* tail: each byte read from every input before it is written */
	for (p = off; p < len; p++) {
		u8 x = acc ? out[p] : 0;

		for (i = 0; i < k; i++)
			x ^= in[i][p];
		out[p] = x;
	}
}

static SIMD_TGT void S_(xor_r)(size_t len, int k, const u8 *const *in,
			       u8 *out, bool acc)
{
	S_(xor_body)(len, k, in, out, acc, false);
}

static SIMD_TGT void S_(xor_nt)(size_t len, int k, const u8 *const *in,
				u8 *out, bool acc)
{
	S_(xor_body)(len, k, in, out, acc, true);
}

static SIMD_TGT void S_(xor)(size_t len, int k, const u8 *const *in, u8 *out,
			     unsigned int flags)
{
	bool acc = flags & ECDMA_GF_ACC;

	if (!k && !acc) {
		memset(out, 0, len);
		return;
	}
	if ((flags & ECDMA_GF_NT) && !((unsigned long)out & (SIMD_VW - 1)))
		S_(xor_nt)(len, k, in, out, acc);
	else
		S_(xor_r)(len, k, in, out, acc);
}

/* RAID-6 P+Q by Horner's rule, for the vpshufb algos */
#if !SIMD_GFNI
#include "gf_simd_pq_tmpl.h"
#endif

#undef S_V
#undef S_VU
#undef S_VH
#undef S_VB
#undef S_VQ
#undef S_PSHUFB
#undef S_AFFINE
#undef S_TB
#undef S_UNROLL
#undef S_UNROLL_NT
#undef S_UMAX
#undef S_GROUP
#undef S_
