/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GF(2^8) arithmetic and coding matrices for ecdma, also built in the unit
 * tests.  Polynomial 0x11d, generator {02}, as lib/raid6, ISA-L and jerasure,
 * so parity is byte-compatible.  Matrices use the verbs layout: k x m
 * row-major, matrix[i * m + j] = coefficient of data i in code j; I implicit.
 */
#ifndef _ECDMA_GF_H
#define _ECDMA_GF_H

#include "ecdma_compat.h"
#include <ecdma/ec.h>

#define ECDMA_GF_POLY		0x11d

extern const u8 ecdma_gf_log_tbl[256];
extern const u8 ecdma_gf_exp_tbl[510];

/**
 * ecdma_gf_mul() - multiply two field elements
 * @a: factor
 * @b: factor
 *
 * Return: a * b in GF(2^8)/0x11d.
 */
static inline u8 ecdma_gf_mul(u8 a, u8 b)
{
	if (!a || !b)
		return 0;
	return ecdma_gf_exp_tbl[ecdma_gf_log_tbl[a] + ecdma_gf_log_tbl[b]];
}

/**
 * ecdma_gf_inv() - multiplicative inverse
 * @a: field element
 *
 * Return: b with a * b = 1, or 0 for a == 0 (as ISA-L's gf_inv()).
 */
static inline u8 ecdma_gf_inv(u8 a)
{
	if (!a)
		return 0;
	return ecdma_gf_exp_tbl[255 - ecdma_gf_log_tbl[a]];
}

u8 ecdma_gf_pow2(int e);

/* Scratch for any valid k and m, fixed so a calc context allocates it once */
#define ECDMA_GF_MDS_SCRATCH	(ECDMA_EC_MAX_M * (ECDMA_EC_MAX_M + 1))
#define ECDMA_GF_DECODE_SCRATCH	(3 * ECDMA_EC_MAX_M * ECDMA_EC_MAX_M)

#define ECDMA_GF_MDS_MAX_MINORS	BIT_ULL(22)	/* is_mds() false above this */

int ecdma_gf_gen_matrix(enum ecdma_ec_matrix_type type, int k, int m,
			u8 *matrix);
int ecdma_gf_vandermonde_max_k(int m);
u64 ecdma_gf_mds_minors(int k, int m);
bool ecdma_gf_matrix_is_mds(const u8 *matrix, int k, int m, u8 *scratch);
int ecdma_gf_invert_matrix(const u8 *in, u8 *out, int n, u8 *scratch);
int ecdma_gf_decode_matrix(const u8 *enc, int k, int m, const u8 *erasures,
			   u8 *dec, u8 *scratch);
void ecdma_gf_ref_encode(size_t len, int k, int m, const u8 *matrix,
			 const u8 *const *in, u8 *const *out, bool accumulate);

#endif /* _ECDMA_GF_H */
