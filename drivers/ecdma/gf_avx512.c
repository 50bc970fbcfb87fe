// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma GF(2^8) kernels, AVX-512BW: vpshufb on the split-nibble tables
 * shared with the generic algo, 64-byte vectors, masked tail loads.  Four
 * vectors per output per step; under KASAN_STACK the redzones of the
 * spills would pass the debug kernel's frame limit, so three or four
 * outputs take two there.  See gf_simd_tmpl.h.
 */
#include "ecdma_compat.h"
#include "gf_algo.h"
#include "gf_simd.h"

#define SIMD_NAME(x)	avx512_##x
#define SIMD_TGT	ECDMA_TGT_AVX512
#define SIMD_VW		64
#define SIMD_GFNI	0
#ifdef CONFIG_KASAN_STACK
#define SIMD_UNROLL_G(g)	((g) <= 2 ? 4 : 2)
#else
#define SIMD_UNROLL_G(g)	4
#endif
/*
 * Two with NT stores (outputs, so most likely inputs, not cached): at four
 * vectors a step's ~16 operations per vector and output leave room in the
 * out-of-order window for fewer inputs' loads (ecdma-simd.rst).
 */
#define SIMD_UNROLL_NT_G(g)	2
#include "gf_simd_tmpl.h"

static bool avx512_usable(void)
{
	return ecdma_simd_has(ECDMA_SIMD_AVX2 | ECDMA_SIMD_AVX512);
}

const struct ecdma_gf_algo ecdma_gf_algo_avx512 = {
	.name		= "avx512",
	.usable		= avx512_usable,
	.priority	= 20,
	.fpu		= true,
	.tbl_bytes	= ECDMA_GF_NIBBLE_TBL_BYTES,
	.prep		= ecdma_gf_prep_nibble,
	.encode		= avx512_encode,
	.xor		= avx512_xor,
	.pq		= avx512_pq,
};
