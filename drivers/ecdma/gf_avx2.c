// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma GF(2^8) kernels, AVX2: vpshufb on the split-nibble tables shared
 * with the generic algo, two 32-byte vectors per step.  See gf_simd_tmpl.h.
 */
#include "ecdma_compat.h"
#include "gf_algo.h"
#include "gf_simd.h"

#define SIMD_NAME(x)	avx2_##x
#define SIMD_TGT	ECDMA_TGT_AVX2
#define SIMD_VW		32
#define SIMD_GFNI	0
#define SIMD_UNROLL_G(g)	2
#include "gf_simd_tmpl.h"

static bool avx2_usable(void)
{
	return ecdma_simd_has(ECDMA_SIMD_AVX2);
}

const struct ecdma_gf_algo ecdma_gf_algo_avx2 = {
	.name		= "avx2",
	.usable		= avx2_usable,
	.priority	= 10,
	.fpu		= true,
	.tbl_bytes	= ECDMA_GF_NIBBLE_TBL_BYTES,
	.prep		= ecdma_gf_prep_nibble,
	.encode		= avx2_encode,
	.xor		= avx2_xor,
	.pq		= avx2_pq,
};
