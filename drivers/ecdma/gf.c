// SPDX-License-Identifier: GPL-2.0
/*
 * GF(2^8) arithmetic and coding matrices for ecdma (polynomial 0x11d).
 * Includes only ecdma_compat.h and gf.h, for the userspace unit tests;
 * never sleeps or allocates (callers pass ECDMA_GF_*_SCRATCH bytes).
 */
#include "ecdma_compat.h"
#include "gf.h"

/* log2(x), [0] unused; static: no init ordering, same in the unit tests */
const u8 ecdma_gf_log_tbl[256] = {
	0x00, 0x00, 0x01, 0x19, 0x02, 0x32, 0x1a, 0xc6,
	0x03, 0xdf, 0x33, 0xee, 0x1b, 0x68, 0xc7, 0x4b,
	0x04, 0x64, 0xe0, 0x0e, 0x34, 0x8d, 0xef, 0x81,
	0x1c, 0xc1, 0x69, 0xf8, 0xc8, 0x08, 0x4c, 0x71,
	0x05, 0x8a, 0x65, 0x2f, 0xe1, 0x24, 0x0f, 0x21,
	0x35, 0x93, 0x8e, 0xda, 0xf0, 0x12, 0x82, 0x45,
	0x1d, 0xb5, 0xc2, 0x7d, 0x6a, 0x27, 0xf9, 0xb9,
	0xc9, 0x9a, 0x09, 0x78, 0x4d, 0xe4, 0x72, 0xa6,
	0x06, 0xbf, 0x8b, 0x62, 0x66, 0xdd, 0x30, 0xfd,
	0xe2, 0x98, 0x25, 0xb3, 0x10, 0x91, 0x22, 0x88,
	0x36, 0xd0, 0x94, 0xce, 0x8f, 0x96, 0xdb, 0xbd,
	0xf1, 0xd2, 0x13, 0x5c, 0x83, 0x38, 0x46, 0x40,
	0x1e, 0x42, 0xb6, 0xa3, 0xc3, 0x48, 0x7e, 0x6e,
	0x6b, 0x3a, 0x28, 0x54, 0xfa, 0x85, 0xba, 0x3d,
	0xca, 0x5e, 0x9b, 0x9f, 0x0a, 0x15, 0x79, 0x2b,
	0x4e, 0xd4, 0xe5, 0xac, 0x73, 0xf3, 0xa7, 0x57,
	0x07, 0x70, 0xc0, 0xf7, 0x8c, 0x80, 0x63, 0x0d,
	0x67, 0x4a, 0xde, 0xed, 0x31, 0xc5, 0xfe, 0x18,
	0xe3, 0xa5, 0x99, 0x77, 0x26, 0xb8, 0xb4, 0x7c,
	0x11, 0x44, 0x92, 0xd9, 0x23, 0x20, 0x89, 0x2e,
	0x37, 0x3f, 0xd1, 0x5b, 0x95, 0xbc, 0xcf, 0xcd,
	0x90, 0x87, 0x97, 0xb2, 0xdc, 0xfc, 0xbe, 0x61,
	0xf2, 0x56, 0xd3, 0xab, 0x14, 0x2a, 0x5d, 0x9e,
	0x84, 0x3c, 0x39, 0x53, 0x47, 0x6d, 0x41, 0xa2,
	0x1f, 0x2d, 0x43, 0xd8, 0xb7, 0x7b, 0xa4, 0x76,
	0xc4, 0x17, 0x49, 0xec, 0x7f, 0x0c, 0x6f, 0xf6,
	0x6c, 0xa1, 0x3b, 0x52, 0x29, 0x9d, 0x55, 0xaa,
	0xfb, 0x60, 0x86, 0xb1, 0xbb, 0xcc, 0x3e, 0x5a,
	0xcb, 0x59, 0x5f, 0xb0, 0x9c, 0xa9, 0xa0, 0x51,
	0x0b, 0xf5, 0x16, 0xeb, 0x7a, 0x75, 0x2c, 0xd7,
	0x4f, 0xae, 0xd5, 0xe9, 0xe6, 0xe7, 0xad, 0xe8,
	0x74, 0xd6, 0xf4, 0xea, 0xa8, 0x50, 0x58, 0xaf,
};

/* ecdma_gf_exp_tbl[e] = 2^e for e in 0..509, so sums of two logs need no mod */
const u8 ecdma_gf_exp_tbl[510] = {
	0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80,
	0x1d, 0x3a, 0x74, 0xe8, 0xcd, 0x87, 0x13, 0x26,
	0x4c, 0x98, 0x2d, 0x5a, 0xb4, 0x75, 0xea, 0xc9,
	0x8f, 0x03, 0x06, 0x0c, 0x18, 0x30, 0x60, 0xc0,
	0x9d, 0x27, 0x4e, 0x9c, 0x25, 0x4a, 0x94, 0x35,
	0x6a, 0xd4, 0xb5, 0x77, 0xee, 0xc1, 0x9f, 0x23,
	0x46, 0x8c, 0x05, 0x0a, 0x14, 0x28, 0x50, 0xa0,
	0x5d, 0xba, 0x69, 0xd2, 0xb9, 0x6f, 0xde, 0xa1,
	0x5f, 0xbe, 0x61, 0xc2, 0x99, 0x2f, 0x5e, 0xbc,
	0x65, 0xca, 0x89, 0x0f, 0x1e, 0x3c, 0x78, 0xf0,
	0xfd, 0xe7, 0xd3, 0xbb, 0x6b, 0xd6, 0xb1, 0x7f,
	0xfe, 0xe1, 0xdf, 0xa3, 0x5b, 0xb6, 0x71, 0xe2,
	0xd9, 0xaf, 0x43, 0x86, 0x11, 0x22, 0x44, 0x88,
	0x0d, 0x1a, 0x34, 0x68, 0xd0, 0xbd, 0x67, 0xce,
	0x81, 0x1f, 0x3e, 0x7c, 0xf8, 0xed, 0xc7, 0x93,
	0x3b, 0x76, 0xec, 0xc5, 0x97, 0x33, 0x66, 0xcc,
	0x85, 0x17, 0x2e, 0x5c, 0xb8, 0x6d, 0xda, 0xa9,
	0x4f, 0x9e, 0x21, 0x42, 0x84, 0x15, 0x2a, 0x54,
	0xa8, 0x4d, 0x9a, 0x29, 0x52, 0xa4, 0x55, 0xaa,
	0x49, 0x92, 0x39, 0x72, 0xe4, 0xd5, 0xb7, 0x73,
	0xe6, 0xd1, 0xbf, 0x63, 0xc6, 0x91, 0x3f, 0x7e,
	0xfc, 0xe5, 0xd7, 0xb3, 0x7b, 0xf6, 0xf1, 0xff,
	0xe3, 0xdb, 0xab, 0x4b, 0x96, 0x31, 0x62, 0xc4,
	0x95, 0x37, 0x6e, 0xdc, 0xa5, 0x57, 0xae, 0x41,
	0x82, 0x19, 0x32, 0x64, 0xc8, 0x8d, 0x07, 0x0e,
	0x1c, 0x38, 0x70, 0xe0, 0xdd, 0xa7, 0x53, 0xa6,
	0x51, 0xa2, 0x59, 0xb2, 0x79, 0xf2, 0xf9, 0xef,
	0xc3, 0x9b, 0x2b, 0x56, 0xac, 0x45, 0x8a, 0x09,
	0x12, 0x24, 0x48, 0x90, 0x3d, 0x7a, 0xf4, 0xf5,
	0xf7, 0xf3, 0xfb, 0xeb, 0xcb, 0x8b, 0x0b, 0x16,
	0x2c, 0x58, 0xb0, 0x7d, 0xfa, 0xe9, 0xcf, 0x83,
	0x1b, 0x36, 0x6c, 0xd8, 0xad, 0x47, 0x8e, 0x01,
	0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1d,
	0x3a, 0x74, 0xe8, 0xcd, 0x87, 0x13, 0x26, 0x4c,
	0x98, 0x2d, 0x5a, 0xb4, 0x75, 0xea, 0xc9, 0x8f,
	0x03, 0x06, 0x0c, 0x18, 0x30, 0x60, 0xc0, 0x9d,
	0x27, 0x4e, 0x9c, 0x25, 0x4a, 0x94, 0x35, 0x6a,
	0xd4, 0xb5, 0x77, 0xee, 0xc1, 0x9f, 0x23, 0x46,
	0x8c, 0x05, 0x0a, 0x14, 0x28, 0x50, 0xa0, 0x5d,
	0xba, 0x69, 0xd2, 0xb9, 0x6f, 0xde, 0xa1, 0x5f,
	0xbe, 0x61, 0xc2, 0x99, 0x2f, 0x5e, 0xbc, 0x65,
	0xca, 0x89, 0x0f, 0x1e, 0x3c, 0x78, 0xf0, 0xfd,
	0xe7, 0xd3, 0xbb, 0x6b, 0xd6, 0xb1, 0x7f, 0xfe,
	0xe1, 0xdf, 0xa3, 0x5b, 0xb6, 0x71, 0xe2, 0xd9,
	0xaf, 0x43, 0x86, 0x11, 0x22, 0x44, 0x88, 0x0d,
	0x1a, 0x34, 0x68, 0xd0, 0xbd, 0x67, 0xce, 0x81,
	0x1f, 0x3e, 0x7c, 0xf8, 0xed, 0xc7, 0x93, 0x3b,
	0x76, 0xec, 0xc5, 0x97, 0x33, 0x66, 0xcc, 0x85,
	0x17, 0x2e, 0x5c, 0xb8, 0x6d, 0xda, 0xa9, 0x4f,
	0x9e, 0x21, 0x42, 0x84, 0x15, 0x2a, 0x54, 0xa8,
	0x4d, 0x9a, 0x29, 0x52, 0xa4, 0x55, 0xaa, 0x49,
	0x92, 0x39, 0x72, 0xe4, 0xd5, 0xb7, 0x73, 0xe6,
	0xd1, 0xbf, 0x63, 0xc6, 0x91, 0x3f, 0x7e, 0xfc,
	0xe5, 0xd7, 0xb3, 0x7b, 0xf6, 0xf1, 0xff, 0xe3,
	0xdb, 0xab, 0x4b, 0x96, 0x31, 0x62, 0xc4, 0x95,
	0x37, 0x6e, 0xdc, 0xa5, 0x57, 0xae, 0x41, 0x82,
	0x19, 0x32, 0x64, 0xc8, 0x8d, 0x07, 0x0e, 0x1c,
	0x38, 0x70, 0xe0, 0xdd, 0xa7, 0x53, 0xa6, 0x51,
	0xa2, 0x59, 0xb2, 0x79, 0xf2, 0xf9, 0xef, 0xc3,
	0x9b, 0x2b, 0x56, 0xac, 0x45, 0x8a, 0x09, 0x12,
	0x24, 0x48, 0x90, 0x3d, 0x7a, 0xf4, 0xf5, 0xf7,
	0xf3, 0xfb, 0xeb, 0xcb, 0x8b, 0x0b, 0x16, 0x2c,
	0x58, 0xb0, 0x7d, 0xfa, 0xe9, 0xcf, 0x83, 0x1b,
	0x36, 0x6c, 0xd8, 0xad, 0x47, 0x8e,
};

/**
 * ecdma_gf_pow2() - power of the generator
 * @e: exponent, any integer (negative means a power of the inverse)
 *
 * Return: {02}^e, so ecdma_gf_pow2(i) is raid6_gfexp[i], Q's coefficient.
 */
u8 ecdma_gf_pow2(int e)
{
	e %= 255;
	if (e < 0)
		e += 255;
	return ecdma_gf_exp_tbl[e];
}

static bool gf_km_valid(int k, int m)
{
	return k >= 1 && k <= ECDMA_EC_MAX_K && m >= 1 && m <= ECDMA_EC_MAX_M &&
	       k + m <= 256;
}

/* dst[0..n) ^= c * src[0..n) */
static void gf_row_madd(u8 *dst, const u8 *src, u8 c, int n)
{
	unsigned int lc;
	int x;

	if (!c)
		return;
	lc = ecdma_gf_log_tbl[c];
	for (x = 0; x < n; x++)
		if (src[x])
			dst[x] ^= ecdma_gf_exp_tbl[lc + ecdma_gf_log_tbl[src[x]]];
}

/* row[0..n) *= c, c != 0 */
static void gf_row_scale(u8 *row, u8 c, int n)
{
	unsigned int lc = ecdma_gf_log_tbl[c];
	int x;

	for (x = 0; x < n; x++)
		if (row[x])
			row[x] = ecdma_gf_exp_tbl[lc + ecdma_gf_log_tbl[row[x]]];
}

/*
 * Largest k, by m, for which gf_gen_rs_matrix()'s Vandermonde code is MDS
 * (one bound per m: (k, m) is the corner of every larger matrix).  m <= 3
 * always; the rest from exhaustive search, re-checked by the unit tests.
 */
static const u8 gf_vandermonde_max_k[ECDMA_EC_MAX_M + 1] = {
	[1] = 255, [2] = 254, [3] = 253, [4] = 21, [5] = 5,
	[6 ... ECDMA_EC_MAX_M] = 4,
};

/**
 * ecdma_gf_vandermonde_max_k() - largest k with an MDS Vandermonde code
 * @m: number of code blocks
 *
 * Return: the largest k for which ecdma_gf_gen_matrix() makes a
 * ECDMA_EC_MATRIX_VANDERMONDE matrix (k x m), or 0 for an invalid @m.
 */
int ecdma_gf_vandermonde_max_k(int m)
{
	if (m < 1 || m > ECDMA_EC_MAX_M)
		return 0;
	return gf_vandermonde_max_k[m];
}

/**
 * ecdma_gf_gen_matrix() - make a systematic encode matrix
 * @type: ECDMA_EC_MATRIX_VANDERMONDE or ECDMA_EC_MATRIX_CAUCHY
 * @k: data blocks, 1..255
 * @m: code blocks, 1..16, with k + m <= 256
 * @matrix: k * m bytes out, verbs layout (matrix[i * m + j])
 *
 * VANDERMONDE is gf_gen_rs_matrix()'s (2^j)^i (m = 2: RAID-6), MDS up to
 * ecdma_gf_vandermonde_max_k(); CAUCHY is 1 / ((k + j) ^ i), always MDS.
 *
 * Return: 0; -EINVAL for a bad @type, @k or @m; -EDOM when the Vandermonde
 * code for this (k, m) is not MDS (@matrix is then left untouched).
 */
int ecdma_gf_gen_matrix(enum ecdma_ec_matrix_type type, int k, int m,
			u8 *matrix)
{
	int i, j;

	if (!gf_km_valid(k, m))
		return -EINVAL;

	switch (type) {
	case ECDMA_EC_MATRIX_VANDERMONDE:
		if (k > gf_vandermonde_max_k[m])
			return -EDOM;
		for (i = 0; i < k; i++) {
			u8 x = ecdma_gf_pow2(i), p = 1;

			/* (2^j)^i == (2^i)^j: walk the powers of 2^i */
			for (j = 0; j < m; j++) {
				matrix[i * m + j] = p;
				p = ecdma_gf_mul(p, x);
			}
		}
		return 0;
	case ECDMA_EC_MATRIX_CAUCHY:
		/* x = k + j and y = i are disjoint, so (k + j) ^ i != 0 */
		for (i = 0; i < k; i++)
			for (j = 0; j < m; j++)
				matrix[i * m + j] = ecdma_gf_inv((k + j) ^ i);
		return 0;
	default:
		return -EINVAL;
	}
}

/**
 * ecdma_gf_mds_minors() - cost of ecdma_gf_matrix_is_mds()
 * @k: data blocks
 * @m: code blocks
 *
 * Return: sum over s of C(k, s) * C(m, s), the square submatrices of a
 * k x m matrix, saturated at U64_MAX; 0 when @k or @m is below 1.
 */
u64 ecdma_gf_mds_minors(int k, int m)
{
	u64 ck = 1, cm = 1, sum = 0;
	int s;

	if (k < 1 || m < 1)
		return 0;
	for (s = 1; s <= min(k, m); s++) {
		/* C(n, s) = C(n, s - 1) * (n - s + 1) / s, exact in order */
		if (ck > div_u64(U64_MAX, k) || cm > div_u64(U64_MAX, m))
			return U64_MAX;
		ck = div_u64(ck * (k - s + 1), s);
		cm = div_u64(cm * (m - s + 1), s);
		if (ck > div_u64(U64_MAX - sum, cm))
			return U64_MAX;
		sum += ck * cm;
	}
	return sum;
}

/*
 * Reduce @row (on columns @cols) against the @t basis vectors (1 at their
 * pivot, 0 at earlier ones); if independent, store it as vector @t.
 */
static bool gf_mds_add_row(const u8 *row, const u8 *cols, int s, u8 *basis,
			   u8 *pivot, int t)
{
	u8 *v = basis + t * s;
	int r, x;

	for (x = 0; x < s; x++)
		v[x] = row[cols[x]];
	for (r = 0; r < t; r++)
		gf_row_madd(v, basis + r * s, v[pivot[r]], s);
	for (x = 0; x < s; x++) {
		if (v[x]) {
			pivot[t] = x;
			gf_row_scale(v, ecdma_gf_inv(v[x]), s);
			return true;
		}
	}
	return false;
}

/**
 * ecdma_gf_matrix_is_mds() - is [I | E] a maximum distance separable code?
 * @matrix: E, k x m, verbs layout
 * @k: data blocks, 1..255
 * @m: code blocks, 1..16
 * @scratch: ECDMA_GF_MDS_SCRATCH bytes
 *
 * MDS iff every square submatrix of E is invertible; each is checked, depth
 * first.  Above ECDMA_GF_MDS_MAX_MINORS of them (ecdma_gf_mds_minors())
 * this returns false: "not shown to be MDS".
 *
 * Return: true when every square submatrix of @matrix is invertible.
 */
bool ecdma_gf_matrix_is_mds(const u8 *matrix, int k, int m, u8 *scratch)
{
	u8 *basis = scratch, *pivot = scratch + m * m;
	u8 cols[ECDMA_EC_MAX_M];
	int idx[ECDMA_EC_MAX_M];
	unsigned int mask;
	int s, t, j;

	if (k < 1 || k > ECDMA_EC_MAX_K || m < 1 || m > ECDMA_EC_MAX_M)
		return false;
	if (ecdma_gf_mds_minors(k, m) > ECDMA_GF_MDS_MAX_MINORS)
		return false;

	for (mask = 1; mask < BIT(m); mask++) {
		s = 0;
		for (j = 0; j < m; j++)
			if (mask & BIT(j))
				cols[s++] = j;
		if (s > k)
			continue;

		/* idx[0..t] are the data rows chosen so far, increasing */
		t = 0;
		idx[0] = 0;
		for (;;) {
			if (idx[t] > k - (s - t)) {
				/* too few rows left to complete this depth */
				if (!t)
					break;
				idx[--t]++;
				continue;
			}
			if (!gf_mds_add_row(matrix + idx[t] * m, cols, s,
					    basis, pivot, t))
				return false;
			if (t + 1 == s) {
				idx[t]++;
			} else {
				idx[t + 1] = idx[t] + 1;
				t++;
			}
		}
	}
	return true;
}

/**
 * ecdma_gf_invert_matrix() - invert an n x n matrix (Gauss-Jordan)
 * @in: n x n, row-major; not modified
 * @out: n x n inverse; may be the same buffer as @in
 * @n: size, >= 1
 * @scratch: n * n bytes
 *
 * Return: 0, or -EINVAL when @in is singular or @n < 1 (@out undefined).
 */
int ecdma_gf_invert_matrix(const u8 *in, u8 *out, int n, u8 *scratch)
{
	u8 *a = scratch, pinv;
	int col, r;

	if (n < 1)
		return -EINVAL;
	memcpy(a, in, n * n);
	memset(out, 0, n * n);
	for (r = 0; r < n; r++)
		out[r * n + r] = 1;

	for (col = 0; col < n; col++) {
		u8 *prow = a + col * n, *orow = out + col * n;

		for (r = col; r < n && !a[r * n + col]; r++)
			;
		if (r == n)
			return -EINVAL;
		if (r != col) {
			/* swap rows; columns left of @col are zero in both */
			u8 *a2 = a + r * n, *o2 = out + r * n, tmp;
			int x;

			for (x = col; x < n; x++) {
				tmp = prow[x];
				prow[x] = a2[x];
				a2[x] = tmp;
			}
			for (x = 0; x < n; x++) {
				tmp = orow[x];
				orow[x] = o2[x];
				o2[x] = tmp;
			}
		}
		pinv = ecdma_gf_inv(prow[col]);
		gf_row_scale(orow, pinv, n);
		gf_row_scale(prow + col, pinv, n - col);
		for (r = 0; r < n; r++) {
			u8 c = a[r * n + col];

			if (r == col || !c)
				continue;
			gf_row_madd(a + r * n + col, prow + col, c, n - col);
			gf_row_madd(out + r * n, orow, c, n);
		}
	}
	return 0;
}

/**
 * ecdma_gf_decode_matrix() - decode matrix for a set of erasures
 * @enc: encode matrix, k x m, verbs layout
 * @k: data blocks, 1..255
 * @m: code blocks, 1..16, with k + m <= 256
 * @erasures: k + m bytes, non-zero = erased; 0..k-1 are data, k..k+m-1 code
 * @dec: k x e bytes out, dec[r * e + o]: coefficient of survivor r in o
 * @scratch: ECDMA_GF_DECODE_SCRATCH bytes (3 * ed * ed are used)
 *
 * EC verbs semantics: inputs are the first k survivors, outputs every erased
 * block, in index order.  The inputs are the surviving data then ed code
 * blocks (ed = erased data), so only an ed x ed system is inverted.
 *
 * Return: e, the number of erasures (0 leaves @dec untouched); -EINVAL for
 * bad @k/@m, more than @m erasures, or a code that cannot recover the data.
 */
int ecdma_gf_decode_matrix(const u8 *enc, int k, int m, const u8 *erasures,
			   u8 *dec, u8 *scratch)
{
	u8 lost[ECDMA_EC_MAX_M], keep[ECDMA_EC_MAX_M];
	u8 *mat, *inv;
	int e = 0, ed = 0, nk = 0, i, j, a, b, r, o, ret;

	if (!gf_km_valid(k, m))
		return -EINVAL;
	for (i = 0; i < k + m; i++)
		e += !!erasures[i];
	if (e > m)
		return -EINVAL;
	if (!e)
		return 0;

	/* erased data blocks, and the code blocks that stand in for them */
	for (i = 0; i < k; i++)
		if (erasures[i])
			lost[ed++] = i;
	for (j = 0; j < m && nk < ed; j++)
		if (!erasures[k + j])
			keep[nk++] = j;

	/* code keep[a] minus the known data = mat . d_lost: invert mat */
	mat = scratch;
	inv = scratch + ed * ed;
	for (a = 0; a < ed; a++)
		for (b = 0; b < ed; b++)
			mat[a * ed + b] = enc[lost[b] * m + keep[a]];
	if (ed) {
		ret = ecdma_gf_invert_matrix(mat, inv, ed, scratch + 2 * ed * ed);
		if (ret)
			return ret;
	}

	/* outputs 0..ed-1: the lost data, in index order */
	for (b = 0; b < ed; b++) {
		r = 0;
		for (i = 0; i < k; i++) {
			u8 c = 0;

			if (erasures[i])
				continue;
			for (a = 0; a < ed; a++)
				c ^= ecdma_gf_mul(inv[b * ed + a],
						  enc[i * m + keep[a]]);
			dec[r++ * e + b] = c;
		}
		for (a = 0; a < ed; a++)
			dec[r++ * e + b] = inv[b * ed + a];
	}

	/* outputs ed..e-1: lost code re-encoded, lost data via outputs < ed */
	o = ed;
	for (j = 0; j < m; j++) {
		if (!erasures[k + j])
			continue;
		r = 0;
		for (i = 0; i < k; i++)
			if (!erasures[i])
				dec[r++ * e + o] = enc[i * m + j];
		for (; r < k; r++)
			dec[r * e + o] = 0;
		for (b = 0; b < ed; b++) {
			u8 c = enc[lost[b] * m + j];

			for (r = 0; r < k; r++)
				dec[r * e + o] ^= ecdma_gf_mul(c, dec[r * e + b]);
		}
		o++;
	}
	return e;
}

/**
 * ecdma_gf_ref_encode() - byte-at-a-time reference encode, for tests
 * @len: bytes per block
 * @k: inputs
 * @m: outputs, 0..16
 * @matrix: k x m coefficients, verbs layout
 * @in: k input blocks
 * @out: m output blocks
 * @accumulate: XOR into @out instead of overwriting it
 *
 * out[j] = (accumulate ? out[j] : 0) ^ sum_i matrix[i * m + j] * in[i]; the
 * slow oracle of the optimized kernels, alias-safe like them.
 */
void ecdma_gf_ref_encode(size_t len, int k, int m, const u8 *matrix,
			 const u8 *const *in, u8 *const *out, bool accumulate)
{
	u8 v[ECDMA_EC_MAX_M];
	size_t p;
	int i, j;

	for (p = 0; p < len; p++) {
		/* read every input byte at p before writing any output */
		for (j = 0; j < m; j++) {
			v[j] = accumulate ? out[j][p] : 0;
			for (i = 0; i < k; i++)
				v[j] ^= ecdma_gf_mul(matrix[i * m + j], in[i][p]);
		}
		for (j = 0; j < m; j++)
			out[j][p] = v[j];
	}
}
