// SPDX-License-Identifier: GPL-2.0
/*
 * Generic C GF(2^8) kernels for ecdma, and the algorithm table.
 *
 * Dot product: each 64-byte chunk of every input is read once into
 * per-output accumulators before any output chunk is written, which also
 * makes an output aliasing an input safe.  No SSE in the kernel, so 64-bit
 * SWAR: c * x is the XOR of the doublings x * 2^b for the bits b of c,
 * faster than byte-wise nibble lookups.  The tables stay ISA-L's
 * split-nibble ones, shared with the pshufb algos; generic reads c back
 * (lo[1] == c).  No FPU: builds unchanged in selftests/unit.
 */
#include "ecdma_compat.h"
#include "gf.h"
#include "gf_algo.h"
#ifdef __x86_64__
#include "gf_simd.h"
#endif

#define GEN_CHUNK	64
#define GEN_WORDS	8	/* the gen_*() helpers are written for 8 */

/* Unaligned-safe; a constant-size memcpy() compiles to one mov. */
static __always_inline u64 gen_load64(const u8 *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/**
 * ecdma_gf_nibble_tbl() - split-nibble multiplication table for one constant
 * @c: the constant
 * @tbl: ECDMA_GF_NIBBLE_TBL_BYTES out: c * x for x = 0..15, then
 *	c * (x << 4) for x = 0..15 (byte-equal to ISA-L's gf_vect_mul_init())
 */
void ecdma_gf_nibble_tbl(u8 c, u8 *tbl)
{
	int x;

	for (x = 0; x < 16; x++) {
		tbl[x] = ecdma_gf_mul(c, x);
		tbl[16 + x] = ecdma_gf_mul(c, x << 4);
	}
}

/**
 * ecdma_gf_prep_nibble() - split-nibble tables for a whole matrix
 * @matrix: k x m, verbs layout (matrix[i * m + j])
 * @k: inputs
 * @m: outputs
 * @tbls: k * m * ECDMA_GF_NIBBLE_TBL_BYTES out, (i, j) at (j * k + i) * 32,
 *	as ISA-L's ec_init_tables() for a[j * k + i] = matrix[i * m + j]
 */
void ecdma_gf_prep_nibble(const u8 *matrix, int k, int m, u8 *tbls)
{
	int i, j;

	for (j = 0; j < m; j++)
		for (i = 0; i < k; i++)
			ecdma_gf_nibble_tbl(matrix[i * m + j],
					    tbls + (j * k + i) *
					    ECDMA_GF_NIBBLE_TBL_BYTES);
}

/*
 * Written out word by word (gcc -O2 keeps such loops rolled), so after
 * inlining a chunk in a local u64[GEN_WORDS] lives in registers.
 */
static __always_inline void gen_ld(u64 *v, const u8 *p)
{
	v[0] = gen_load64(p);
	v[1] = gen_load64(p + 8);
	v[2] = gen_load64(p + 16);
	v[3] = gen_load64(p + 24);
	v[4] = gen_load64(p + 32);
	v[5] = gen_load64(p + 40);
	v[6] = gen_load64(p + 48);
	v[7] = gen_load64(p + 56);
}

static __always_inline void gen_xor_ld(u64 *v, const u8 *p)
{
	v[0] ^= gen_load64(p);
	v[1] ^= gen_load64(p + 8);
	v[2] ^= gen_load64(p + 16);
	v[3] ^= gen_load64(p + 24);
	v[4] ^= gen_load64(p + 32);
	v[5] ^= gen_load64(p + 40);
	v[6] ^= gen_load64(p + 48);
	v[7] ^= gen_load64(p + 56);
}

static __always_inline void gen_st(u8 *p, const u64 *v)
{
	memcpy(p, v, GEN_CHUNK);
}

static __always_inline void gen_xor(u64 *v, const u64 *x)
{
	v[0] ^= x[0];
	v[1] ^= x[1];
	v[2] ^= x[2];
	v[3] ^= x[3];
	v[4] ^= x[4];
	v[5] ^= x[5];
	v[6] ^= x[6];
	v[7] ^= x[7];
}

/* {02} * each byte of x: shift left, reduce the bytes whose top bit fell off */
static __always_inline u64 gen_mul2(u64 x)
{
	u64 top = x & 0x8080808080808080ULL;

	return ((x << 1) & 0xfefefefefefefefeULL) ^
	       ((top - (top >> 7)) & 0x1d1d1d1d1d1d1d1dULL);
}

static __always_inline void gen_mul2_chunk(u64 *d, const u64 *s)
{
	d[0] = gen_mul2(s[0]);
	d[1] = gen_mul2(s[1]);
	d[2] = gen_mul2(s[2]);
	d[3] = gen_mul2(s[3]);
	d[4] = gen_mul2(s[4]);
	d[5] = gen_mul2(s[5]);
	d[6] = gen_mul2(s[6]);
	d[7] = gen_mul2(s[7]);
}

/*
 * One chunk at @off, @n bytes of it real (a tail is zero-padded).  The 2^b
 * multiples of an input chunk are made once, on first need, for all m
 * outputs.  @horner outputs (c(i, j) = 2^i, RAID-6 Q) take Horner's rule,
 * one doubling per input instead of seven.  All inputs and old outputs
 * are read before any output is written, so aliasing is safe.
 */
static __always_inline void gen_encode_chunk(size_t off, size_t n, int k,
					     int m, const u8 *tbls,
					     const u8 *const *in,
					     u8 *const *out, bool accumulate,
					     u32 horner,
					     u64 acc[][GEN_WORDS])
{
	u64 pw[8][GEN_WORDS];
	size_t p;
	int i, j, b;

	for (j = 0; j < m; j++)
		memset(acc[j], 0, GEN_CHUNK);
	for (i = k - 1; i >= 0; i--) {
		bool powers = false;

		if (n == GEN_CHUNK) {
			gen_ld(pw[0], in[i] + off);
		} else {
			memset(pw[0], 0, GEN_CHUNK);
			memcpy(pw[0], in[i] + off, n);
		}
		for (j = 0; j < m; j++) {
			/* lo[1] == c * 1: the coefficient itself */
			u8 c = tbls[(j * k + i) * ECDMA_GF_NIBBLE_TBL_BYTES + 1];
			u64 t[GEN_WORDS];

			if (horner & BIT(j)) {
				gen_mul2_chunk(acc[j], acc[j]);
				gen_xor(acc[j], pw[0]);
				continue;
			}
			if (!c)
				continue;
			if (c == 1) {
				gen_xor(acc[j], pw[0]);
				continue;
			}
			if (!powers) {
				for (b = 1; b < 8; b++)
					gen_mul2_chunk(pw[b], pw[b - 1]);
				powers = true;
			}
			memset(t, 0, sizeof(t));
			for (b = 0; b < 8; b++)
				if (c & BIT(b))
					gen_xor(t, pw[b]);
			gen_xor(acc[j], t);
		}
	}
	if (accumulate) {
		for (j = 0; j < m; j++) {
			if (n == GEN_CHUNK) {
				gen_xor_ld(acc[j], out[j] + off);
				continue;
			}
			for (p = 0; p < n; p++)
				((u8 *)acc[j])[p] ^= out[j][off + p];
		}
	}
	for (j = 0; j < m; j++)
		memcpy(out[j] + off, acc[j], n);
}

/* Outputs whose coefficients are c(i, j) = 2^i for every input i. */
static u32 gen_horner_outputs(int k, int m, const u8 *tbls)
{
	u32 horner = 0;
	int i, j;

	if (k < 2)
		return 0;
	for (j = 0; j < m; j++) {
		for (i = 0; i < k; i++)
			if (tbls[(j * k + i) * ECDMA_GF_NIBBLE_TBL_BYTES + 1] !=
			    ecdma_gf_exp_tbl[i])
				break;
		if (i == k)
			horner |= BIT(j);
	}
	return horner;
}

static void gen_encode(size_t len, int k, int m, const u8 *tbls,
		       const u8 *const *in, u8 *const *out, unsigned int flags)
{
	bool accumulate = flags & ECDMA_GF_ACC;
	/* with gen_encode_chunk()'s multiples, under the 2 KiB FRAME_WARN */
	u64 acc[ECDMA_EC_MAX_M][GEN_WORDS];
	u32 horner;
	size_t off;

	if (m > ECDMA_EC_MAX_M)
		return;
	horner = gen_horner_outputs(k, m, tbls);
	for (off = 0; off + GEN_CHUNK <= len; off += GEN_CHUNK)
		gen_encode_chunk(off, GEN_CHUNK, k, m, tbls, in, out,
				 accumulate, horner, acc);
	if (off < len)
		gen_encode_chunk(off, len - off, k, m, tbls, in, out,
				 accumulate, horner, acc);
}

/* ECDMA_GF_NT is a hint the generic code does without */
static void gen_xor_blocks(size_t len, int k, const u8 *const *in, u8 *out,
			   unsigned int flags)
{
	bool accumulate = flags & ECDMA_GF_ACC;
	u64 v[GEN_WORDS];
	size_t off, p;
	int i;

	if (!k && !accumulate) {
		memset(out, 0, len);
		return;
	}
	for (off = 0; off + GEN_CHUNK <= len; off += GEN_CHUNK) {
		/* start from out or in[0] instead of from zero */
		gen_ld(v, accumulate ? out + off : in[0] + off);
		for (i = !accumulate; i < k; i++)
			gen_xor_ld(v, in[i] + off);
		gen_st(out + off, v);
	}
	/* tail: byte by byte, each byte read from every input before written */
	for (p = off; p < len; p++) {
		u8 x = accumulate ? out[p] : 0;

		for (i = 0; i < k; i++)
			x ^= in[i][p];
		out[p] = x;
	}
}

const struct ecdma_gf_algo ecdma_gf_algo_generic = {
	.name		= "generic",
	.usable		= NULL,
	.priority	= 0,
	.fpu		= false,
	.tbl_bytes	= ECDMA_GF_NIBBLE_TBL_BYTES,
	.prep		= ecdma_gf_prep_nibble,
	.encode		= gen_encode,
	.xor		= gen_xor_blocks,
};
EXPORT_SYMBOL_GPL(ecdma_gf_algo_generic);

/* every compiled-in algo: a new one adds its entry under its arch guard */
const struct ecdma_gf_algo *const ecdma_gf_algos[] = {
	&ecdma_gf_algo_generic,
#ifdef __x86_64__
	&ecdma_gf_algo_avx2,
	&ecdma_gf_algo_avx512,
	&ecdma_gf_algo_avx2_gfni,
	&ecdma_gf_algo_avx512_gfni,
#endif
	NULL,
};

/**
 * ecdma_gf_algo_find() - look up a usable algo
 * @name: exact name, or NULL for the best one
 *
 * Return: the algo, or NULL when no algo called @name exists or this CPU
 * cannot run it.  For NULL @name, the highest priority one (first on a
 * tie): never NULL, "generic" is always usable.
 */
const struct ecdma_gf_algo *ecdma_gf_algo_find(const char *name)
{
	const struct ecdma_gf_algo *const *a, *best = NULL;

	for (a = ecdma_gf_algos; *a; a++) {
		if ((*a)->usable && !(*a)->usable())
			continue;
		if (name) {
			if (!strcmp((*a)->name, name))
				return *a;
		} else if (!best || (*a)->priority > best->priority) {
			best = *a;
		}
	}
	return best;
}
