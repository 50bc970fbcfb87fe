// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for drivers/ecdma/gf.c: field arithmetic against a slow
 * shift-and-add multiply and ISA-L, generated matrices against ISA-L's,
 * the MDS check, matrix inversion and verbs decode matrices (round trips
 * through ISA-L's encoder and ours).
 */
#include <isa-l/erasure_code.h>

#include "ecdma_compat.h"
#include "gf.h"
#include "gf_algo.h"
#include "ecdma_test.h"

static void test_mul_all_pairs(void)
{
	unsigned int a, b, bad = 0, bad_isal = 0;

	for (a = 0; a < 256; a++) {
		for (b = 0; b < 256; b++) {
			u8 p = ecdma_gf_mul(a, b);

			bad += p != test_slow_mul(a, b);
			bad_isal += p != gf_mul(a, b);
		}
	}
	ksft_test_result(!bad && !bad_isal,
			 "gf_mul_all_pairs (%u vs shift-add, %u vs isal wrong)\n",
			 bad, bad_isal);
}

static void test_field_laws(void)
{
	unsigned int a, b, n, bad = 0;

	for (a = 0; a < 256; a++) {
		bad += ecdma_gf_mul(a, 1) != a || ecdma_gf_mul(a, 0) != 0;
		for (b = 0; b < 256; b++)
			bad += ecdma_gf_mul(a, b) != ecdma_gf_mul(b, a);
	}
	for (n = 0; n < 200000; n++) {
		u8 x = test_rnd64(), y = test_rnd64(), z = test_rnd64();

		bad += ecdma_gf_mul(ecdma_gf_mul(x, y), z) !=
		       ecdma_gf_mul(x, ecdma_gf_mul(y, z));
		bad += ecdma_gf_mul(x, y ^ z) !=
		       (ecdma_gf_mul(x, y) ^ ecdma_gf_mul(x, z));
	}
	ksft_test_result(!bad, "gf_field_laws (%u violations)\n", bad);
}

static void test_inv_all(void)
{
	unsigned int a, bad = 0;

	for (a = 1; a < 256; a++) {
		u8 i = ecdma_gf_inv(a);

		bad += test_slow_mul(a, i) != 1 || i != gf_inv(a);
	}
	bad += ecdma_gf_inv(0) != 0;
	ksft_test_result(!bad, "gf_inv_all (%u wrong)\n", bad);
}

static void test_pow2(void)
{
	unsigned int bad = 0;
	u8 p = 1;
	int e;

	for (e = 0; e < 1000; e++) {
		bad += ecdma_gf_pow2(e) != p;
		/* negative exponents are powers of 1/2 */
		bad += test_slow_mul(ecdma_gf_pow2(-e), p) != 1;
		p = test_slow_mul(p, 2);
	}
	bad += ecdma_gf_pow2(255) != 1 || ecdma_gf_pow2(8) != 0x1d;
	ksft_test_result(!bad, "gf_pow2 (%u wrong)\n", bad);
}

/*
 * ISA-L matrices are (k + m) x k, code row j at a[(k + j) * k + i]; ours
 * are k x m with matrix[i * m + j].
 */
static void isal_to_verbs(const u8 *a, int k, int m, u8 *matrix)
{
	int i, j;

	for (i = 0; i < k; i++)
		for (j = 0; j < m; j++)
			matrix[i * m + j] = a[(k + j) * k + i];
}

static void test_gen_vandermonde(void)
{
	u8 *a = test_alloc(256 * 255), *want = test_alloc(255 * 16);
	u8 *got = test_alloc(255 * 16);
	int k, m, made = 0, bad = 0;

	for (m = 1; m <= 16; m++) {
		for (k = 1; k <= 255 && k + m <= 256; k++) {
			int ret = ecdma_gf_gen_matrix(ECDMA_EC_MATRIX_VANDERMONDE,
						      k, m, got);

			if (k > ecdma_gf_vandermonde_max_k(m)) {
				bad += ret != -EDOM;
				continue;
			}
			if (ret) {
				bad++;
				continue;
			}
			gf_gen_rs_matrix(a, k + m, k);
			isal_to_verbs(a, k, m, want);
			bad += !!memcmp(got, want, k * m);
			made++;
		}
	}
	/* m = 2 is RAID-6: P = 1, Q = 2^i (raid6_gfexp) */
	if (ecdma_gf_gen_matrix(ECDMA_EC_MATRIX_VANDERMONDE, 20, 2, got))
		bad++;
	for (k = 0; k < 20; k++)
		bad += got[k * 2] != 1 || got[k * 2 + 1] != ecdma_gf_pow2(k);
	ksft_test_result(!bad,
			 "gen_vandermonde_matches_isal (%d matrices, %d bad)\n",
			 made, bad);
	free(a);
	free(want);
	free(got);
}

static void test_gen_cauchy(void)
{
	u8 *a = test_alloc(256 * 255), *want = test_alloc(255 * 16);
	u8 *got = test_alloc(255 * 16);
	int k, m, made = 0, bad = 0;

	for (m = 1; m <= 16; m++) {
		for (k = 1; k <= 255 && k + m <= 256; k++) {
			if (ecdma_gf_gen_matrix(ECDMA_EC_MATRIX_CAUCHY, k, m,
						got)) {
				bad++;
				continue;
			}
			gf_gen_cauchy1_matrix(a, k + m, k);
			isal_to_verbs(a, k, m, want);
			bad += !!memcmp(got, want, k * m);
			made++;
		}
	}
	ksft_test_result(!bad, "gen_cauchy_matches_isal (%d matrices, %d bad)\n",
			 made, bad);
	free(a);
	free(want);
	free(got);
}

static void test_gen_bad_args(void)
{
	static const struct { int type, k, m; } cases[] = {
		{ ECDMA_EC_MATRIX_CAUCHY, 0, 2 },
		{ ECDMA_EC_MATRIX_CAUCHY, -1, 2 },
		{ ECDMA_EC_MATRIX_CAUCHY, 256, 1 },
		{ ECDMA_EC_MATRIX_CAUCHY, 4, 0 },
		{ ECDMA_EC_MATRIX_CAUCHY, 4, 17 },
		{ ECDMA_EC_MATRIX_CAUCHY, 255, 2 },	/* k + m > 256 */
		{ ECDMA_EC_MATRIX_VANDERMONDE, 241, 16 },
		{ ECDMA_EC_MATRIX_USER, 4, 2 },
		{ 42, 4, 2 },
	};
	u8 buf[300 * 17];
	unsigned int i, bad = 0;

	memset(buf, 0xa5, sizeof(buf));
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		bad += ecdma_gf_gen_matrix(cases[i].type, cases[i].k,
					   cases[i].m, buf) != -EINVAL;
	/* non-MDS Vandermonde: -EDOM and nothing written */
	bad += ecdma_gf_gen_matrix(ECDMA_EC_MATRIX_VANDERMONDE, 22, 4, buf) !=
	       -EDOM;
	bad += ecdma_gf_gen_matrix(ECDMA_EC_MATRIX_VANDERMONDE, 5, 6, buf) !=
	       -EDOM;
	for (i = 0; i < sizeof(buf); i++)
		bad += buf[i] != 0xa5;
	bad += ecdma_gf_gen_matrix(ECDMA_EC_MATRIX_CAUCHY, 255, 1, buf) != 0;
	bad += ecdma_gf_gen_matrix(ECDMA_EC_MATRIX_CAUCHY, 240, 16, buf) != 0;
	ksft_test_result(!bad, "gen_matrix_bad_args (%u wrong)\n", bad);
}

static u64 binom(int n, int s)
{
	u64 c = 1;
	int i;

	for (i = 1; i <= s; i++)
		c = c * (n - s + i) / i;
	return c;
}

static void test_mds_minors(void)
{
	unsigned int bad = 0;
	int k, m;

	/* sum_s C(k,s) C(m,s) = C(k + m, m) - 1 (Vandermonde's identity) */
	for (k = 1; k <= 40; k++)
		for (m = 1; m <= 16; m++)
			bad += ecdma_gf_mds_minors(k, m) != binom(k + m, m) - 1;
	bad += ecdma_gf_mds_minors(255, 16) != U64_MAX;
	bad += ecdma_gf_mds_minors(0, 4) != 0;
	ksft_test_result(!bad, "mds_minors_count (%u wrong)\n", bad);
}

/* Reference: invert every square submatrix, by brute force. */
static bool slow_is_mds(const u8 *mat, int k, int m)
{
	u8 sub[16 * 16], inv[16 * 16];
	unsigned int rows, cols;

	for (rows = 1; rows < (1u << k); rows++) {
		for (cols = 1; cols < (1u << m); cols++) {
			int s = __builtin_popcount(rows), n = 0, i, j;

			if (s != __builtin_popcount(cols))
				continue;
			for (i = 0; i < k; i++) {
				if (!(rows & (1u << i)))
					continue;
				for (j = 0; j < m; j++)
					if (cols & (1u << j))
						sub[n++] = mat[i * m + j];
			}
			if (gf_invert_matrix(sub, inv, s))
				return false;
		}
	}
	return true;
}

static void test_mds_check(void)
{
	u8 mat[255 * 16], scratch[ECDMA_GF_MDS_SCRATCH];
	unsigned int bad = 0, n, agree = 0;
	int k, m, i;

	/* Cauchy: MDS for every (k, m) the budget allows */
	for (n = 0; n < 40; n++) {
		m = test_rnd_range(1, 16);
		k = test_rnd_range(1, m > 6 ? 8 : 24);
		ecdma_gf_gen_matrix(ECDMA_EC_MATRIX_CAUCHY, k, m, mat);
		bad += !ecdma_gf_matrix_is_mds(mat, k, m, scratch);
	}
	ecdma_gf_gen_matrix(ECDMA_EC_MATRIX_CAUCHY, 10, 4, mat);
	bad += !ecdma_gf_matrix_is_mds(mat, 10, 4, scratch);

	/* a zero coefficient is a singular 1x1 submatrix */
	mat[3 * 4 + 2] = 0;
	bad += ecdma_gf_matrix_is_mds(mat, 10, 4, scratch);

	/* hand-made: only a 2x2 minor is singular */
	ecdma_gf_gen_matrix(ECDMA_EC_MATRIX_CAUCHY, 6, 3, mat);
	mat[4 * 3 + 2] = ecdma_gf_mul(mat[4 * 3 + 1],
				      ecdma_gf_mul(mat[1 * 3 + 2],
						   ecdma_gf_inv(mat[1 * 3 + 1])));
	bad += ecdma_gf_matrix_is_mds(mat, 6, 3, scratch);
	/* hand-made: all-ones parity is RAID-5 twice, 2x2 minors are 0 */
	memset(mat, 1, 4 * 2);
	bad += ecdma_gf_matrix_is_mds(mat, 4, 2, scratch);
	memset(mat, 1, 4 * 1);
	bad += !ecdma_gf_matrix_is_mds(mat, 4, 1, scratch);

	/* random small matrices agree with brute force */
	for (n = 0; n < 300; n++) {
		bool want, got;

		k = test_rnd_range(1, 6);
		m = test_rnd_range(1, 5);
		for (i = 0; i < k * m; i++)
			mat[i] = test_rnd(4) ? (u8)test_rnd_range(1, 255) :
					       (u8)test_rnd(3);
		want = slow_is_mds(mat, k, m);
		got = ecdma_gf_matrix_is_mds(mat, k, m, scratch);
		bad += want != got;
		agree += want;
	}
	ksft_test_result(!bad,
			 "mds_check_cauchy_and_singular (%u wrong, %u random MDS)\n",
			 bad, agree);
}

/*
 * Both sides of every Vandermonde bound: MDS at max_k, not MDS at
 * max_k + 1 (m >= 4; for m <= 3 the bound is the k + m <= 256 limit and
 * the proof is in gf.c, so check a sizeable k).
 */
static void test_mds_vandermonde_bounds(void)
{
	u8 *a = test_alloc(256 * 255), *mat = test_alloc(255 * 16);
	u8 scratch[ECDMA_GF_MDS_SCRATCH];
	unsigned int bad = 0;
	int m, k;

	for (m = 1; m <= 16; m++) {
		k = ecdma_gf_vandermonde_max_k(m);
		if (m <= 3) {
			bad += k + m != 256 && k != 255;
			k = m == 3 ? 64 : k;
		}
		gf_gen_rs_matrix(a, k + m, k);
		isal_to_verbs(a, k, m, mat);
		if (!ecdma_gf_matrix_is_mds(mat, k, m, scratch)) {
			ksft_print_msg("vandermonde k=%d m=%d not MDS\n", k, m);
			bad++;
		}
		if (m <= 3)
			continue;
		gf_gen_rs_matrix(a, k + 1 + m, k + 1);
		isal_to_verbs(a, k + 1, m, mat);
		if (ecdma_gf_matrix_is_mds(mat, k + 1, m, scratch)) {
			ksft_print_msg("vandermonde k=%d m=%d is MDS\n", k + 1, m);
			bad++;
		}
	}
	ksft_test_result(!bad, "mds_vandermonde_bounds (%u wrong)\n", bad);
	free(a);
	free(mat);
}

static void test_mds_budget(void)
{
	u8 *mat = test_alloc(255 * 16), scratch[ECDMA_GF_MDS_SCRATCH];
	bool ok;

	/* Cauchy is MDS, but 200 x 8 is far beyond the budget: refused */
	ecdma_gf_gen_matrix(ECDMA_EC_MATRIX_CAUCHY, 200, 8, mat);
	ok = ecdma_gf_mds_minors(200, 8) > ECDMA_GF_MDS_MAX_MINORS &&
	     !ecdma_gf_matrix_is_mds(mat, 200, 8, scratch) &&
	     !ecdma_gf_matrix_is_mds(mat, 0, 8, scratch) &&
	     !ecdma_gf_matrix_is_mds(mat, 4, 17, scratch);
	ksft_test_result(ok, "mds_refuses_over_budget_and_bad_args\n");
	free(mat);
}

static void mat_mul(const u8 *a, const u8 *b, u8 *c, int n)
{
	int i, j, x;

	for (i = 0; i < n; i++) {
		for (j = 0; j < n; j++) {
			u8 s = 0;

			for (x = 0; x < n; x++)
				s ^= ecdma_gf_mul(a[i * n + x], b[x * n + j]);
			c[i * n + j] = s;
		}
	}
}

static bool is_identity(const u8 *a, int n)
{
	int i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < n; j++) {
			u8 want = i == j;

			if (a[i * n + j] != want)
				return false;
		}
	}
	return true;
}

static void test_invert_random(void)
{
	u8 *a = test_alloc(255 * 255), *inv = test_alloc(255 * 255);
	u8 *prod = test_alloc(255 * 255), *scratch = test_alloc(255 * 255);
	u8 *isal_in = test_alloc(255 * 255), *isal_out = test_alloc(255 * 255);
	unsigned int bad = 0, n_ok = 0, n_sing = 0, t;

	for (t = 0; t < 400; t++) {
		int n = t < 380 ? test_rnd_range(1, 24) : test_rnd_range(25, 255);
		int ret, iret, i;

		for (i = 0; i < n * n; i++)
			a[i] = test_rnd(6) ? (u8)test_rnd64() : 0;
		if (t % 7 == 0 && n > 1) {
			/* make it singular: row r = c * row s */
			int r = test_rnd(n), s = (r + 1 + test_rnd(n - 1)) % n;
			u8 c = test_rnd64();

			for (i = 0; i < n; i++)
				a[r * n + i] = ecdma_gf_mul(c, a[s * n + i]);
		}
		memcpy(isal_in, a, n * n);
		memcpy(prod, a, n * n);
		ret = ecdma_gf_invert_matrix(a, inv, n, scratch);
		iret = gf_invert_matrix(isal_in, isal_out, n);
		bad += !!memcmp(prod, a, n * n);	/* input untouched */
		bad += (ret == 0) != (iret == 0);
		if (ret) {
			bad += ret != -EINVAL;
			n_sing++;
			continue;
		}
		n_ok++;
		bad += !!memcmp(inv, isal_out, n * n);
		mat_mul(a, inv, prod, n);
		bad += !is_identity(prod, n);
		mat_mul(inv, a, prod, n);
		bad += !is_identity(prod, n);
		/* in place */
		memcpy(prod, a, n * n);
		bad += ecdma_gf_invert_matrix(prod, prod, n, scratch) != 0;
		bad += !!memcmp(prod, inv, n * n);
	}
	bad += ecdma_gf_invert_matrix(a, inv, 0, scratch) != -EINVAL;
	a[0] = 0;
	bad += ecdma_gf_invert_matrix(a, inv, 1, scratch) != -EINVAL;
	ksft_test_result(!bad && n_ok && n_sing,
			 "invert_matrix (%u invertible, %u singular, %u wrong)\n",
			 n_ok, n_sing, bad);
	free(a);
	free(inv);
	free(prod);
	free(scratch);
	free(isal_in);
	free(isal_out);
}

/* ISA-L's ec_encode_data() for a verbs-layout matrix */
static void isal_encode(int len, int k, int m, const u8 *matrix, u8 **data,
			u8 **code)
{
	u8 *a = test_alloc(k * m), *tbls = test_alloc(32 * k * m);
	int i, j;

	for (i = 0; i < k; i++)
		for (j = 0; j < m; j++)
			a[j * k + i] = matrix[i * m + j];
	ec_init_tables(k, m, a, tbls);
	ec_encode_data(len, k, m, tbls, data, code);
	free(a);
	free(tbls);
}

static void our_encode(size_t len, int k, int m, const u8 *matrix,
		       const u8 *const *in, u8 *const *out)
{
	const struct ecdma_gf_algo *algo = ecdma_gf_algo_find(NULL);
	u8 *tbls = test_alloc((size_t)algo->tbl_bytes * k * m);

	algo->prep(matrix, k, m, tbls);
	algo->encode(len, k, m, tbls, in, out, false);
	free(tbls);
}

struct stripe {
	int k, m;
	size_t len;
	u8 *blk[256];		/* data 0..k-1, then code */
	u8 *isal_code[16];
};

static void stripe_free(struct stripe *s)
{
	int i;

	for (i = 0; i < s->k + s->m; i++)
		free(s->blk[i]);
	for (i = 0; i < s->m; i++)
		free(s->isal_code[i]);
}

/*
 * Encode random data with ISA-L and with us (must agree), erase a random
 * pattern of 1..m blocks, decode with our decode matrix and our encode
 * kernel, compare.
 */
static int decode_round_trip(int type, int k, int m, size_t len,
			     unsigned int patterns, unsigned int *ndec)
{
	u8 enc[255 * 16], era[256], dec[255 * 16];
	u8 scratch[ECDMA_GF_DECODE_SCRATCH];
	const u8 *in[255];
	u8 *out[16], *got[16];
	struct stripe s = { .k = k, .m = m, .len = len };
	int i, j, bad = 0;
	unsigned int p;

	if (ecdma_gf_gen_matrix(type, k, m, enc))
		return 1;
	for (i = 0; i < k + m; i++) {
		s.blk[i] = test_alloc(len);
		if (i < k)
			test_rnd_fill(s.blk[i], len);
	}
	for (j = 0; j < m; j++)
		s.isal_code[j] = test_alloc(len);
	isal_encode(len, k, m, enc, s.blk, s.isal_code);
	our_encode(len, k, m, enc, (const u8 *const *)s.blk, s.blk + k);
	for (j = 0; j < m; j++)
		bad += !!memcmp(s.blk[k + j], s.isal_code[j], len);

	for (j = 0; j < m; j++)
		got[j] = test_alloc(len);
	for (p = 0; p < patterns && !bad; p++) {
		int e = test_rnd_range(1, m), n = 0, r = 0, ret;

		memset(era, 0, sizeof(era));
		while (n < e) {
			i = test_rnd(k + m);
			n += !era[i];
			era[i] = 1;
		}
		ret = ecdma_gf_decode_matrix(enc, k, m, era, dec, scratch);
		if (ret != e) {
			ksft_print_msg("decode k=%d m=%d e=%d: ret %d\n",
				       k, m, e, ret);
			bad++;
			break;
		}
		for (i = 0; i < k + m && r < k; i++)
			if (!era[i])
				in[r++] = s.blk[i];
		n = 0;
		for (i = 0; i < k + m; i++) {
			if (era[i]) {
				out[n] = got[n];
				n++;
			}
		}
		our_encode(len, k, e, dec, in, out);
		n = 0;
		for (i = 0; i < k + m; i++) {
			if (!era[i])
				continue;
			if (memcmp(got[n], s.blk[i], len)) {
				ksft_print_msg("decode k=%d m=%d: block %d wrong\n",
					       k, m, i);
				bad++;
			}
			n++;
		}
		(*ndec)++;
	}
	for (j = 0; j < m; j++)
		free(got[j]);
	stripe_free(&s);
	return bad;
}

static void test_decode_round_trip(void)
{
	unsigned int ndec = 0, t;
	int bad = 0;

	/* RAID-6 and the classic RS shapes, then random ones */
	bad += decode_round_trip(ECDMA_EC_MATRIX_VANDERMONDE, 4, 2, 4096, 30,
				 &ndec);
	bad += decode_round_trip(ECDMA_EC_MATRIX_VANDERMONDE, 10, 4, 1000, 60,
				 &ndec);
	bad += decode_round_trip(ECDMA_EC_MATRIX_CAUCHY, 8, 3, 777, 30, &ndec);
	bad += decode_round_trip(ECDMA_EC_MATRIX_VANDERMONDE, 253, 3, 65, 20,
				 &ndec);
	bad += decode_round_trip(ECDMA_EC_MATRIX_CAUCHY, 240, 16, 33, 20,
				 &ndec);
	for (t = 0; t < 60; t++) {
		int m = test_rnd_range(1, 16), k = test_rnd_range(1, 32);
		int type = test_rnd(2) && k <= ecdma_gf_vandermonde_max_k(m) ?
			   ECDMA_EC_MATRIX_VANDERMONDE : ECDMA_EC_MATRIX_CAUCHY;

		bad += decode_round_trip(type, k, m, test_rnd_range(1, 3000),
					 10, &ndec);
	}
	ksft_test_result(!bad, "decode_round_trip (%u patterns, %d bad)\n",
			 ndec, bad);
}

static void test_decode_edges(void)
{
	u8 enc[255 * 16], era[256] = { 0 }, dec[255 * 16];
	u8 scratch[ECDMA_GF_DECODE_SCRATCH];
	unsigned int bad = 0;
	int i;

	ecdma_gf_gen_matrix(ECDMA_EC_MATRIX_CAUCHY, 6, 3, enc);
	memset(dec, 0x5a, sizeof(dec));
	bad += ecdma_gf_decode_matrix(enc, 6, 3, era, dec, scratch) != 0;
	for (i = 0; i < (int)sizeof(dec); i++)
		bad += dec[i] != 0x5a;
	/* more erasures than code blocks: fewer than k survivors */
	memset(era, 1, 9);
	era[1] = 0;
	era[3] = 0;
	bad += ecdma_gf_decode_matrix(enc, 6, 3, era, dec, scratch) != -EINVAL;
	bad += ecdma_gf_decode_matrix(enc, 0, 3, era, dec, scratch) != -EINVAL;
	bad += ecdma_gf_decode_matrix(enc, 6, 17, era, dec, scratch) != -EINVAL;
	/* e == m exactly, any non-zero byte counts as erased */
	memset(era, 0, sizeof(era));
	era[1] = 7;
	era[6] = 0xff;
	era[8] = 1;
	bad += ecdma_gf_decode_matrix(enc, 6, 3, era, dec, scratch) != 3;
	/* only code erased: dec is the code's own columns */
	memset(era, 0, sizeof(era));
	era[7] = 1;
	bad += ecdma_gf_decode_matrix(enc, 6, 3, era, dec, scratch) != 1;
	for (i = 0; i < 6; i++)
		bad += dec[i] != enc[i * 3 + 1];
	/* only data erased, first code survivors stand in: dec row = inverse */
	memset(era, 0, sizeof(era));
	era[0] = 1;
	bad += ecdma_gf_decode_matrix(enc, 6, 3, era, dec, scratch) != 1;
	bad += dec[5] != ecdma_gf_inv(enc[0]);
	/* not MDS: code 1 does not see data 2, so it cannot replace it */
	memset(era, 0, sizeof(era));
	enc[2 * 3 + 1] = 0;
	era[2] = 1;
	era[6] = 1;
	bad += ecdma_gf_decode_matrix(enc, 6, 3, era, dec, scratch) != -EINVAL;
	ksft_test_result(!bad, "decode_matrix_edge_cases (%u wrong)\n", bad);
}

int main(void)
{
	ksft_print_header();
	ksft_set_plan(16);
	test_rng_init();

	test_mul_all_pairs();
	test_field_laws();
	test_inv_all();
	test_pow2();
	test_gen_vandermonde();
	test_gen_cauchy();
	test_gen_bad_args();
	test_mds_minors();
	test_mds_check();
	test_mds_vandermonde_bounds();
	test_mds_budget();
	test_invert_random();
	test_decode_round_trip();
	test_decode_edges();
	/* the reference encoder is the oracle of test_kernels: check it too */
	{
		u8 enc[12 * 5], *d[12], *c[5], *ci[5];
		unsigned int bad = 0;
		int i;

		test_rnd_fill(enc, sizeof(enc));
		for (i = 0; i < 12; i++) {
			d[i] = test_alloc(1003);
			test_rnd_fill(d[i], 1003);
		}
		for (i = 0; i < 5; i++) {
			c[i] = test_alloc(1003);
			ci[i] = test_alloc(1003);
		}
		ecdma_gf_ref_encode(1003, 12, 5, enc, (const u8 *const *)d, c,
				    false);
		isal_encode(1003, 12, 5, enc, d, ci);
		for (i = 0; i < 5; i++)
			bad += !!memcmp(c[i], ci[i], 1003);
		/* accumulate: c ^= E.d again gives zero */
		ecdma_gf_ref_encode(1003, 12, 5, enc, (const u8 *const *)d, c,
				    true);
		for (i = 0; i < 5; i++)
			bad += c[i][0] || memcmp(c[i], c[i] + 1, 1002);
		ksft_test_result(!bad, "ref_encode_matches_isal\n");
		for (i = 0; i < 12; i++)
			free(d[i]);
		for (i = 0; i < 5; i++) {
			free(c[i]);
			free(ci[i]);
		}
	}
	/* decode for RAID-6 2-data loss equals lib/raid6's closed form */
	{
		u8 enc[20 * 2], era[22] = { 0 }, dec[20 * 2];
		u8 scratch[ECDMA_GF_DECODE_SCRATCH];
		int x = 3, y = 11, ret;
		u8 denom, bad;

		ecdma_gf_gen_matrix(ECDMA_EC_MATRIX_VANDERMONDE, 20, 2, enc);
		era[x] = 1;
		era[y] = 1;
		ret = ecdma_gf_decode_matrix(enc, 20, 2, era, dec, scratch);
		/*
		 * raid6_2data_recov: Dx = A (P + Pxy) + B (Q + Qxy) with
		 * A = g^(y-x) / (g^(y-x) + 1), B = g^-x / (g^(y-x) + 1); the
		 * survivors P, Q are rows 18 and 19 of dec.
		 */
		denom = ecdma_gf_inv(ecdma_gf_pow2(y - x) ^ 1);
		bad = ret != 2 ||
		      dec[18 * 2] != ecdma_gf_mul(ecdma_gf_pow2(y - x), denom) ||
		      dec[19 * 2] != ecdma_gf_mul(ecdma_gf_pow2(-x), denom);
		ksft_test_result(!bad, "decode_raid6_2data_closed_form\n");
	}
	return ksft_finished();
}
