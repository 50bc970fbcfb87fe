// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma GF(2^8) kernels, GFNI: vgf2p8affineqb with one 8x8 bit matrix per
 * coefficient (vgf2p8mulb is the AES field, not 0x11d), with AVX2 and
 * AVX-512 vectors.  See gf_simd_tmpl.h.
 */
#include "ecdma_compat.h"
#include "gf_algo.h"
#include "gf_simd.h"

#define SIMD_NAME(x)	gfni256_##x
#define SIMD_TGT	ECDMA_TGT_AVX2_GFNI
#define SIMD_VW		32
#define SIMD_GFNI	1
#define SIMD_UNROLL_G(g)	((g) <= 2 ? 4 : 2)
#include "gf_simd_tmpl.h"
#undef SIMD_NAME
#undef SIMD_TGT
#undef SIMD_VW
#undef SIMD_GFNI
#undef SIMD_UNROLL_G

#define SIMD_NAME(x)	gfni512_##x
#define SIMD_TGT	ECDMA_TGT_AVX512_GFNI
#define SIMD_VW		64
#define SIMD_GFNI	1
#define SIMD_UNROLL_G(g)	((g) <= 2 ? 4 : 2)
/*
 * Up to eight outputs a regular-store pass (NT passes keep four, see
 * S_(encode)): 32 registers hold 8 x 2 accumulators and the matrices are
 * broadcast loads, so m = 5-8 reads its inputs once instead of in two
 * passes.  Not under KASAN_STACK, where the accumulators live on the
 * stack with redzones and eight outputs pass the frame limit.
 */
#ifndef CONFIG_KASAN_STACK
#define SIMD_GROUP	8
#endif
#include "gf_simd_tmpl.h"

static bool gfni256_usable(void)
{
	return ecdma_simd_has(ECDMA_SIMD_AVX2 | ECDMA_SIMD_GFNI);
}

static bool gfni512_usable(void)
{
	return ecdma_simd_has(ECDMA_SIMD_AVX2 | ECDMA_SIMD_AVX512 |
			      ECDMA_SIMD_GFNI);
}

const struct ecdma_gf_algo ecdma_gf_algo_avx2_gfni = {
	.name		= "avx2-gfni",
	.usable		= gfni256_usable,
	.priority	= 30,
	.fpu		= true,
	.tbl_bytes	= ECDMA_GF_AFFINE_TBL_BYTES,
	.prep		= ecdma_gf_prep_affine,
	.encode		= gfni256_encode,
	.xor		= gfni256_xor,
};

const struct ecdma_gf_algo ecdma_gf_algo_avx512_gfni = {
	.name		= "avx512-gfni",
	.usable		= gfni512_usable,
	.priority	= 40,
	.fpu		= true,
	.tbl_bytes	= ECDMA_GF_AFFINE_TBL_BYTES,
	.prep		= ecdma_gf_prep_affine,
	.encode		= gfni512_encode,
	.xor		= gfni512_xor,
};
