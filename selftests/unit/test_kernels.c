// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the GF(2^8) compute kernels behind the algorithm table
 * (drivers/ecdma/gf_algo.h): every usable algo against the byte-at-a-time
 * reference ecdma_gf_ref_encode() and against ISA-L, over random k, m,
 * lengths, misalignments, coefficients (0 and 1 included), accumulate,
 * outputs aliasing inputs, and non-temporal stores (ECDMA_GF_NT) on
 * aligned and misaligned outputs; the same for XOR and the P+Q op.
 */
#include <isa-l/erasure_code.h>

#include "ecdma_compat.h"
#include "gf.h"
#include "gf_algo.h"
#ifdef __x86_64__
#include "gf_simd.h"
#endif
#include "ecdma_test.h"

enum coef_mode {
	COEF_RANDOM,		/* uniform bytes */
	COEF_MIXED,		/* half of them 0 or 1 */
	COEF_ZERO_ONE,		/* only 0 and 1 */
	COEF_ZERO,		/* all 0 */
	COEF_POW2,		/* some outputs RAID-6 Q style, c(i, j) = 2^i */
	COEF_MODES,
};

struct enc_case {
	int k, m;
	size_t len;
	enum coef_mode coef;
	bool accumulate;
	int nalias;		/* outputs that are one of the inputs */
	bool nt;		/* pass ECDMA_GF_NT */
	bool aligned;		/* outputs 64-byte aligned */
};

/* 64-byte aligned, so that outputs can meet the NT stores' alignment */
static u8 *alloc64(size_t len)
{
	void *p = aligned_alloc(64, (len + 63) & ~(size_t)63);

	if (!p) {
		ksft_print_msg("out of memory (%zu bytes)\n", len);
		exit(2);
	}
	return p;
}

static unsigned int gf_flags(bool accumulate, bool nt)
{
	return (accumulate ? ECDMA_GF_ACC : 0) | (nt ? ECDMA_GF_NT : 0);
}

static u8 rnd_coef(enum coef_mode mode)
{
	switch (mode) {
	case COEF_MIXED:
		return test_rnd(2) ? (u8)test_rnd(2) : (u8)test_rnd64();
	case COEF_ZERO_ONE:
		return (u8)test_rnd(2);
	case COEF_ZERO:
		return 0;
	default:
		return (u8)test_rnd64();
	}
}

static u8 *dup_buf(const u8 *src, size_t len)
{
	u8 *p = test_alloc(len);

	memcpy(p, src, len);
	return p;
}

/*
 * One encode case: random data at random misalignments, outputs possibly
 * aliasing inputs; compare with the reference run on private copies.
 * Returns 0 when the algo got it right.
 */
static int check_encode(const struct ecdma_gf_algo *algo,
			const struct enc_case *c)
{
	int k = c->k, m = c->m, i, j, bad = 0;
	size_t len = c->len;
	u8 *mat = test_alloc(k * m), *tbls;
	u8 *ibase[255], *obase[16], *icopy[255], *ocopy[16];
	u8 *in[255], *out[16];
	int alias_of[16];	/* input index an output aliases, or -1 */
	bool aliased[255] = { false };

	for (i = 0; i < k * m; i++)
		mat[i] = rnd_coef(c->coef);
	if (c->coef == COEF_POW2) {
		/* geometric columns take generic's Horner path */
		for (j = 0; j < m; j++)
			if (test_rnd(2))
				for (i = 0; i < k; i++)
					mat[i * m + j] = ecdma_gf_pow2(i);
	}
	for (i = 0; i < k; i++) {
		unsigned int off = test_rnd(64);

		ibase[i] = test_alloc(off + len);
		in[i] = ibase[i] + off;
		test_rnd_fill(in[i], len);
	}
	for (j = 0; j < m; j++) {
		unsigned int off = c->aligned ? 0 : test_rnd(64);

		alias_of[j] = -1;
		obase[j] = alloc64(off + len);
		out[j] = obase[j] + off;
		test_rnd_fill(out[j], len);
	}
	/* alias distinct outputs to distinct inputs */
	for (j = 0; j < min(c->nalias, min(k, m)); j++) {
		int o, x;

		do {
			o = test_rnd(m);
		} while (alias_of[o] >= 0);
		do {
			x = test_rnd(k);
		} while (aliased[x]);
		aliased[x] = true;
		alias_of[o] = x;
		out[o] = in[x];
	}

	for (i = 0; i < k; i++)
		icopy[i] = dup_buf(in[i], len);
	for (j = 0; j < m; j++)
		ocopy[j] = dup_buf(out[j], len);
	ecdma_gf_ref_encode(len, k, m, mat, (const u8 *const *)icopy, ocopy,
			    c->accumulate);

	tbls = test_alloc((size_t)algo->tbl_bytes * k * m);
	algo->prep(mat, k, m, tbls);
	algo->encode(len, k, m, tbls, (const u8 *const *)in, out,
		     gf_flags(c->accumulate, c->nt));

	for (j = 0; j < m; j++) {
		if (memcmp(out[j], ocopy[j], len)) {
			size_t p = 0;

			while (out[j][p] == ocopy[j][p])
				p++;
			ksft_print_msg("%s: k=%d m=%d len=%zu coef=%d acc=%d nt=%d\n",
				       algo->name, k, m, len, c->coef,
				       c->accumulate, c->nt);
			ksft_print_msg("  out %d (alias of in %d) differs at %zu\n",
				       j, alias_of[j], p);
			bad++;
			break;
		}
	}
	for (i = 0; i < k; i++) {
		if (!aliased[i] && memcmp(in[i], icopy[i], len)) {
			ksft_print_msg("%s: k=%d m=%d len=%zu: input %d modified\n",
				       algo->name, k, m, len, i);
			bad++;
		}
	}

	free(tbls);
	free(mat);
	for (i = 0; i < k; i++) {
		free(ibase[i]);
		free(icopy[i]);
	}
	for (j = 0; j < m; j++) {
		free(obase[j]);
		free(ocopy[j]);
	}
	return bad;
}

static size_t rnd_len(void)
{
	switch (test_rnd(4)) {
	case 0:
		return test_rnd_range(1, 64);
	case 1:
		return test_rnd_range(65, 600);
	default:
		return test_rnd_range(1, 5000);
	}
}

static void test_encode_random(const struct ecdma_gf_algo *algo)
{
	unsigned int t, bad = 0;

	for (t = 0; t < 300 && !bad; t++) {
		struct enc_case c = {
			.k = test_rnd_range(1, 32),
			.m = test_rnd_range(1, 16),
			.len = rnd_len(),
			.coef = test_rnd(COEF_MODES),
			.accumulate = test_rnd(2),
			.nalias = test_rnd(3) ? 0 : test_rnd_range(1, 16),
		};

		bad += check_encode(algo, &c);
	}
	ksft_test_result(!bad, "%s: encode_random (%u cases)\n", algo->name, t);
}

/* ECDMA_GF_NT: the same bytes, aligned outputs or not, aliased or not */
static void test_encode_nt(const struct ecdma_gf_algo *algo)
{
	unsigned int t, bad = 0;

	for (t = 0; t < 200 && !bad; t++) {
		struct enc_case c = {
			.k = test_rnd_range(1, 24),
			.m = test_rnd_range(1, 16),
			.len = t < 20 ? (size_t)test_rnd_range(60000, 70000) :
					 rnd_len(),
			.coef = test_rnd(COEF_MODES),
			.accumulate = test_rnd(2),
			.nalias = test_rnd(4) ? 0 : test_rnd_range(1, 16),
			.nt = true,
			.aligned = test_rnd(4) != 0,
		};

		bad += check_encode(algo, &c);
	}
	ksft_test_result(!bad, "%s: encode_nt_stores (%u cases)\n", algo->name,
			 t);
}

static void test_encode_len_sweep(const struct ecdma_gf_algo *algo)
{
	unsigned int bad = 0;
	size_t len;

	/* AVX-512 steps are up to 4 x 64 bytes: two steps and every tail */
	for (len = 1; len <= 720 && !bad; len++) {
		struct enc_case c = {
			.k = test_rnd_range(1, 8),
			.m = test_rnd_range(1, 6),
			.len = len,
			.coef = len % 3 ? COEF_MIXED : COEF_POW2,
			.accumulate = len & 1,
		};

		bad += check_encode(algo, &c);
	}
	ksft_test_result(!bad, "%s: encode_every_len_1_720\n", algo->name);
}

static void test_encode_coefs(const struct ecdma_gf_algo *algo)
{
	unsigned int t, bad = 0;

	for (t = 0; t < 60 && !bad; t++) {
		struct enc_case c = {
			.k = test_rnd_range(1, 20),
			.m = test_rnd_range(1, 16),
			.len = rnd_len(),
			.coef = t % 2 ? COEF_ZERO_ONE : COEF_ZERO,
			.accumulate = t % 4 >= 2,
			.nalias = t % 3,
		};

		bad += check_encode(algo, &c);
	}
	ksft_test_result(!bad, "%s: encode_coefficients_0_and_1\n", algo->name);
}

static void test_encode_alias(const struct ecdma_gf_algo *algo)
{
	unsigned int t, bad = 0;

	for (t = 0; t < 100 && !bad; t++) {
		int k = test_rnd_range(1, 20);
		struct enc_case c = {
			.k = k,
			.m = test_rnd_range(1, 16),
			.len = rnd_len(),
			.coef = test_rnd(COEF_MODES),
			.accumulate = test_rnd(2),
			.nalias = 16,	/* as many as possible */
		};

		/* in-place multiply and RAID-6 Q over a source */
		if (t < 10) {
			c.k = 1;
			c.m = 1;
		} else if (t < 20) {
			c.m = 2;
		}
		bad += check_encode(algo, &c);
	}
	ksft_test_result(!bad, "%s: encode_output_aliases_input\n", algo->name);
}

static void test_encode_big(const struct ecdma_gf_algo *algo)
{
	unsigned int t, bad = 0;

	for (t = 0; t < 24 && !bad; t++) {
		struct enc_case c = {
			.coef = t % 3 ? COEF_POW2 : COEF_MIXED,
			.accumulate = test_rnd(2),
			.nalias = test_rnd(2),
		};

		if (t < 12) {
			/* many sources */
			c.k = t < 4 ? 255 : test_rnd_range(33, 255);
			c.m = t < 2 ? 1 : test_rnd_range(1, 16);
			c.len = test_rnd_range(1, 700);
		} else {
			/* long blocks, odd lengths */
			c.k = test_rnd_range(1, 6);
			c.m = test_rnd_range(1, 4);
			c.len = test_rnd_range(60000, 70000) | 1;
		}
		bad += check_encode(algo, &c);
	}
	ksft_test_result(!bad, "%s: encode_large_k_and_long_blocks\n",
			 algo->name);
}

/*
 * More outputs than one pass holds (4, or 8 in avx512-gfni): the SIMD
 * kernels run every pass over a chunk (ecdma_simd_chunk()) before the
 * next.  Lengths just around one, two and three chunks, with aliased
 * outputs (computed in the last pass), NT stores and accumulate.
 */
static void test_encode_chunks(const struct ecdma_gf_algo *algo)
{
	static const int ks[] = { 1, 3, 10, 40, 100, 255 };
	static const int delta[] = { -321, -65, -1, 0, 1, 63, 64, 257 };
	unsigned int t, n, bad = 0;

	for (t = 0; t < 30 && !bad; t++) {
		int k = ks[t % ARRAY_SIZE(ks)];
		size_t chunk = 4096;
		struct enc_case c = {
			.k = k,
			.m = test_rnd(2) ? test_rnd_range(5, 8) :
					   test_rnd_range(9, 16),
			.coef = test_rnd(COEF_MODES),
			.accumulate = test_rnd(2),
			.nalias = test_rnd(3) ? 0 : test_rnd_range(1, 4),
			.nt = test_rnd(2),
			.aligned = test_rnd(2),
		};

#ifdef __x86_64__
		/* the steps of the 32- and 64-byte kernels round differently */
		chunk = ecdma_simd_chunk(k, t & 1 ? 128 : 256);
#endif
		if (k > 40)	/* the byte-at-a-time reference is slow */
			c.m = test_rnd(2) ? 5 : 9;
		n = k > 100 ? 1 : k > 10 ? 2 : 3;
		c.len = chunk * test_rnd_range(1, n) +
			delta[test_rnd(ARRAY_SIZE(delta))];
		bad += check_encode(algo, &c);
	}
	ksft_test_result(!bad, "%s: encode_multipass_chunk_edges (%u cases)\n",
			 algo->name, t);
}

static void test_encode_vs_isal(const struct ecdma_gf_algo *algo)
{
	unsigned int t, bad = 0;

	for (t = 0; t < 100 && !bad; t++) {
		int k = test_rnd_range(1, 32), m = test_rnd_range(1, 16);
		int len = test_rnd_range(1, 9000), i, j;
		u8 *mat = test_alloc(k * m), *a = test_alloc(k * m);
		u8 *tbls = test_alloc(32 * k * m), *ours;
		u8 *data[32], *code[16], *mine[16];

		for (i = 0; i < k * m; i++)
			mat[i] = rnd_coef(test_rnd(2) ? COEF_RANDOM :
					  COEF_MIXED);
		for (i = 0; i < k; i++)
			for (j = 0; j < m; j++)
				a[j * k + i] = mat[i * m + j];
		for (i = 0; i < k; i++) {
			data[i] = test_alloc(len);
			test_rnd_fill(data[i], len);
		}
		for (j = 0; j < m; j++) {
			code[j] = test_alloc(len);
			mine[j] = test_alloc(len);
		}
		ec_init_tables(k, m, a, tbls);
		ec_encode_data(len, k, m, tbls, data, code);

		ours = test_alloc((size_t)algo->tbl_bytes * k * m);
		algo->prep(mat, k, m, ours);
		algo->encode(len, k, m, ours, (const u8 *const *)data, mine,
			     false);
		for (j = 0; j < m; j++)
			bad += !!memcmp(code[j], mine[j], len);

		for (i = 0; i < k; i++)
			free(data[i]);
		for (j = 0; j < m; j++) {
			free(code[j]);
			free(mine[j]);
		}
		free(ours);
		free(tbls);
		free(a);
		free(mat);
	}
	ksft_test_result(!bad, "%s: encode_matches_isal (%u cases)\n",
			 algo->name, t);
}

/* out = (acc ? out : 0) ^ in[0..k), possibly with out == in[x] */
/* @k random inputs of @len bytes at random misalignments, and copies */
static void inputs_new(int k, size_t len, u8 **base, u8 **in, u8 **copy)
{
	int i;

	for (i = 0; i < k; i++) {
		unsigned int off = test_rnd(64);

		base[i] = test_alloc(off + len);
		in[i] = base[i] + off;
		test_rnd_fill(in[i], len);
		copy[i] = dup_buf(in[i], len);
	}
}

/* Frees inputs_new()'s; returns how many besides input @x were changed. */
static int inputs_done(int k, size_t len, int x, u8 **base, u8 **in,
		       u8 **copy)
{
	int i, bad = 0;

	for (i = 0; i < k; i++) {
		if (i != x && memcmp(in[i], copy[i], len))
			bad++;
		free(base[i]);
		free(copy[i]);
	}
	return bad;
}

/* A random output of @len bytes; with @nt mostly 64-byte aligned */
static u8 *output_new(size_t len, bool nt, u8 **base)
{
	u8 *out;

	*base = alloc64(64 + len);
	out = *base + (nt && test_rnd(4) ? 0 : test_rnd(64));
	test_rnd_fill(out, len);
	return out;
}

static int check_xor(const struct ecdma_gf_algo *algo, int k, size_t len,
		     bool accumulate, bool alias, bool nt)
{
	u8 *ibase[255], *in[255], *icopy[255], *obase, *out, *want;
	int i, x = -1, bad = 0;
	size_t p;

	inputs_new(k, len, ibase, in, icopy);
	out = output_new(len, nt, &obase);
	if (alias) {
		/* XOR dest == src[0] is what async_xor does; any works */
		x = test_rnd(2) ? 0 : (int)test_rnd(k);
		out = in[x];
	}
	want = dup_buf(out, len);
	for (p = 0; p < len; p++) {
		u8 v = accumulate ? want[p] : 0;

		for (i = 0; i < k; i++)
			v ^= icopy[i][p];
		want[p] = v;
	}

	algo->xor(len, k, (const u8 *const *)in, out, gf_flags(accumulate, nt));

	if (memcmp(out, want, len)) {
		ksft_print_msg("%s: xor k=%d len=%zu acc=%d alias=%d nt=%d wrong\n",
			       algo->name, k, len, accumulate, x, nt);
		bad++;
	}
	bad += inputs_done(k, len, x, ibase, in, icopy);
	free(obase);
	free(want);
	return bad;
}

static void test_xor(const struct ecdma_gf_algo *algo)
{
	unsigned int t, bad = 0;

	for (t = 0; t < 400 && !bad; t++) {
		int k = test_rnd_range(1, 32);
		size_t len = rnd_len();

		if (t < 20)
			k = test_rnd_range(33, 255);	/* many sources */
		else if (t < 24)
			k = 0;				/* zero or unchanged */
		else if (t < 324)
			len = t - 23;			/* every len 1..300 */
		else if (t >= 390)
			len = test_rnd_range(60000, 70000);
		bad += check_xor(algo, k, len, test_rnd(2), k && test_rnd(2),
				 false);
	}
	ksft_test_result(!bad, "%s: xor_vs_reference (%u cases)\n",
			 algo->name, t);
}

static void test_xor_nt(const struct ecdma_gf_algo *algo)
{
	unsigned int t, bad = 0;

	for (t = 0; t < 200 && !bad; t++) {
		int k = t < 10 ? test_rnd_range(33, 255) : test_rnd_range(0, 32);
		size_t len = t < 30 ? (size_t)test_rnd_range(60000, 70000) :
					      rnd_len();

		bad += check_xor(algo, k, len, test_rnd(2), k && test_rnd(2),
				 true);
	}
	ksft_test_result(!bad, "%s: xor_nt_stores (%u cases)\n", algo->name,
			 t);
}

/*
 * The P+Q op (@pq, Horner's rule) against the reference encode of the
 * RAID-6 matrix: P all ones, Q {02}^i.  Any k, length and alignment,
 * accumulate, NT on aligned or not, P or Q being one of the inputs.
 */
static int check_pq(const struct ecdma_gf_algo *algo, int k, size_t len,
		    bool accumulate, bool nt, int alias)
{
	u8 *ibase[255], *in[255], *icopy[255], *obase[2], *out[2], *ocopy[2];
	u8 *mat = test_alloc((size_t)k * 2);
	int i, j, x = -1, bad = 0;

	for (i = 0; i < k; i++) {
		mat[i * 2] = 1;
		mat[i * 2 + 1] = ecdma_gf_pow2(i);
	}
	inputs_new(k, len, ibase, in, icopy);
	for (j = 0; j < 2; j++)
		out[j] = output_new(len, nt, &obase[j]);
	if (alias >= 0) {
		x = (int)test_rnd(k);
		out[alias] = in[x];
	}
	for (j = 0; j < 2; j++)
		ocopy[j] = dup_buf(out[j], len);
	ecdma_gf_ref_encode(len, k, 2, mat, (const u8 *const *)icopy, ocopy,
			    accumulate);

	algo->pq(len, k, (const u8 *const *)in, out, gf_flags(accumulate, nt));

	for (j = 0; j < 2; j++)
		if (memcmp(out[j], ocopy[j], len)) {
			ksft_print_msg("%s: pq k=%d len=%zu acc=%d nt=%d out %d=in %d: %c bad\n",
				       algo->name, k, len, accumulate, nt,
				       alias, x, j ? 'Q' : 'P');
			bad++;
		}
	bad += inputs_done(k, len, x, ibase, in, icopy);
	for (j = 0; j < 2; j++) {
		free(obase[j]);
		free(ocopy[j]);
	}
	free(mat);
	return bad;
}

static void test_pq(const struct ecdma_gf_algo *algo)
{
	unsigned int t, bad = 0;

	if (!algo->pq) {
		ksft_test_result_skip("%s: pq: no P+Q op (encode does it)\n",
				      algo->name);
		return;
	}
	for (t = 0; t < 500 && !bad; t++) {
		int k = test_rnd_range(1, 32);
		size_t len = rnd_len();

		if (t < 20)
			k = test_rnd_range(33, 255);	/* many sources */
		else if (t < 320)
			len = t - 19;			/* every len 1..300 */
		else if (t >= 480)
			len = test_rnd_range(60000, 70000);
		bad += check_pq(algo, k, len, test_rnd(2), test_rnd(2),
				(int)test_rnd(4) - 2);
	}
	ksft_test_result(!bad, "%s: pq_vs_reference (%u cases)\n", algo->name,
			 t);
}

static void test_algo_table(void)
{
	const struct ecdma_gf_algo *const *a, *best = ecdma_gf_algo_find(NULL);
	unsigned int bad = 0, n = 0;

	for (a = ecdma_gf_algos; *a; a++, n++) {
		bool usable = !(*a)->usable || (*a)->usable();

		bad += !(*a)->name || !(*a)->prep || !(*a)->encode ||
		       !(*a)->xor || !(*a)->tbl_bytes;
		bad += ecdma_gf_algo_find((*a)->name) != (usable ? *a : NULL);
		if (usable && best)
			bad += (*a)->priority > best->priority;
	}
	bad += !best || !n;
	bad += ecdma_gf_algo_find("generic") != &ecdma_gf_algo_generic;
	bad += ecdma_gf_algo_generic.fpu || ecdma_gf_algo_generic.usable;
	bad += !!ecdma_gf_algo_find("no-such-algo");
	ksft_test_result(!bad, "algo_table (%u algos, best %s)\n", n,
			 best ? best->name : "none");
}

static void test_nibble_tables(void)
{
	u8 mine[32], theirs[32], mat[20 * 7], a[20 * 7];
	u8 tbls[20 * 7 * 32], itbls[20 * 7 * 32];
	unsigned int c, bad = 0;
	int i, j;

	for (c = 0; c < 256; c++) {
		ecdma_gf_nibble_tbl(c, mine);
		gf_vect_mul_init(c, theirs);
		bad += !!memcmp(mine, theirs, 32);
	}
	test_rnd_fill(mat, sizeof(mat));
	for (i = 0; i < 20; i++)
		for (j = 0; j < 7; j++)
			a[j * 20 + i] = mat[i * 7 + j];
	ecdma_gf_prep_nibble(mat, 20, 7, tbls);
	ec_init_tables(20, 7, a, itbls);
	bad += !!memcmp(tbls, itbls, sizeof(tbls));
	ksft_test_result(!bad, "nibble_tables_match_isal\n");
}

#ifdef __x86_64__
/* bit i of the product is the parity of matrix byte 7 - i AND x */
static u8 affine_apply(u64 a, u8 x)
{
	u8 r = 0;
	int i;

	for (i = 0; i < 8; i++)
		if (__builtin_parity((unsigned int)((a >> (8 * (7 - i))) & x)))
			r |= BIT(i);
	return r;
}

static void test_affine_matrices(void)
{
	u8 mat[9 * 5], tbls[9 * 5 * ECDMA_GF_AFFINE_TBL_BYTES];
	unsigned int c, x, bad = 0;
	int i, j;

	for (c = 0; c < 256; c++) {
		u64 a = ecdma_gf_affine_matrix(c);

		for (x = 0; x < 256; x++)
			bad += affine_apply(a, x) != ecdma_gf_mul(c, x);
	}
	bad += ecdma_gf_affine_matrix(1) != ecdma_gf_affine_identity;
	test_rnd_fill(mat, sizeof(mat));
	ecdma_gf_prep_affine(mat, 9, 5, tbls);
	for (i = 0; i < 9; i++)
		for (j = 0; j < 5; j++) {
			u64 a;

			memcpy(&a, tbls + (j * 9 + i) * 8, 8);
			bad += a != ecdma_gf_affine_matrix(mat[i * 5 + j]);
		}
	ksft_test_result(!bad, "gfni_affine_matrices_are_0x11d_products\n");
}
#else
static void test_affine_matrices(void)
{
	ksft_test_result_skip("gfni_affine_matrices: not x86-64\n");
}
#endif

#define TESTS_PER_ALGO	11

static void run_algo(const struct ecdma_gf_algo *algo)
{
	if (algo->usable && !algo->usable()) {
		int i;

		for (i = 0; i < TESTS_PER_ALGO; i++)
			ksft_test_result_skip("%s: not usable on this CPU\n",
					      algo->name);
		return;
	}
	test_encode_random(algo);
	test_encode_len_sweep(algo);
	test_encode_coefs(algo);
	test_encode_alias(algo);
	test_encode_big(algo);
	test_encode_chunks(algo);
	test_encode_vs_isal(algo);
	test_encode_nt(algo);
	test_xor(algo);
	test_xor_nt(algo);
	test_pq(algo);
}

int main(void)
{
	const struct ecdma_gf_algo *const *a;
	unsigned int n = 0;

	for (a = ecdma_gf_algos; *a; a++)
		n++;
	ksft_print_header();
	ksft_set_plan(3 + TESTS_PER_ALGO * n);
	test_rng_init();

	test_algo_table();
	test_nibble_tables();
	test_affine_matrices();
	for (a = ecdma_gf_algos; *a; a++)
		run_algo(*a);
	return ksft_finished();
}
