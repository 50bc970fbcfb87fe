/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ecdma x86-64 SIMD GF(2^8) kernels: shared definitions.
 *
 * GNU C vector extensions and GCC builtins inside target("...") functions,
 * no <immintrin.h> or per-file CFLAGS: only those functions touch vector
 * registers, the rest keeps -mno-sse, and the files build in userspace too.
 * In the kernel, ec_exec.c and prov_cpu.c wrap them in kernel_fpu_begin()
 * and kernel_fpu_end().  Sparse gets typed stand-ins (__CHECKER__).
 */
#ifndef _ECDMA_GF_SIMD_H
#define _ECDMA_GF_SIMD_H

#include "ecdma_compat.h"
#include <ecdma/ec.h>

typedef s8 ecdma_v32qi __attribute__((__vector_size__(32)));
typedef s16 ecdma_v16hi __attribute__((__vector_size__(32)));
typedef s64 ecdma_v4di __attribute__((__vector_size__(32)));
typedef s8 ecdma_v64qi __attribute__((__vector_size__(64)));
typedef s16 ecdma_v32hi __attribute__((__vector_size__(64)));
typedef s64 ecdma_v8di __attribute__((__vector_size__(64)));
/* unsigned bytes: wrapping adds (a signed overflow is undefined) */
typedef u8 ecdma_v32qu __attribute__((__vector_size__(32)));
typedef u8 ecdma_v64qu __attribute__((__vector_size__(64)));

typedef s64 ecdma_v2di __attribute__((__vector_size__(16)));
typedef s32 ecdma_v4si __attribute__((__vector_size__(16)));
typedef s32 ecdma_v16si __attribute__((__vector_size__(64)));

/* unaligned, may-alias views for loads and stores */
typedef s64 ecdma_v2di_u __attribute__((__vector_size__(16),
					       __aligned__(1), __may_alias__));
typedef s8 ecdma_v32qi_u __attribute__((__vector_size__(32),
					  __aligned__(1), __may_alias__));
typedef s8 ecdma_v64qi_u __attribute__((__vector_size__(64),
					  __aligned__(1), __may_alias__));

#define ECDMA_TGT_AVX2		__attribute__((__target__("avx2")))
#define ECDMA_TGT_AVX512	__attribute__((__target__( \
				"avx2,avx512f,avx512bw,avx512vl")))
#define ECDMA_TGT_AVX2_GFNI	__attribute__((__target__("avx2,gfni")))
#define ECDMA_TGT_AVX512_GFNI	__attribute__((__target__( \
				"avx2,avx512f,avx512bw,avx512vl,gfni")))

#ifdef __CHECKER__
/* sparse parses neither vector literals nor these builtins */
#define ECDMA_ZERO32			((ecdma_v32qi)0)
#define ECDMA_ZERO64			((ecdma_v64qi)0)
#define ecdma_pshufb256(t, x)		((void)(x), (t))
#define ecdma_pshufb512(t, x)		((void)(x), (t))
#define ecdma_affine256(x, a)		((void)(a), (x))
#define ecdma_affine512(x, a)		((void)(a), (x))
#define ecdma_ldmask512(p, z, k)	((void)(p), (void)(k), (z))
#define ecdma_stmask512(p, v, k)	((void)(p), (void)(v), (void)(k))
#define ecdma_bcast16x2(l)		((void)(l), ECDMA_ZERO32)
#define ecdma_bcast16x4(l)		((void)(l), ECDMA_ZERO64)
#define ecdma_stream256(p, v)		((void)(p), (void)(v))
#define ecdma_stream512(p, v)		((void)(p), (void)(v))
#else
#define ECDMA_ZERO64			((ecdma_v64qi) { 0 })
#define ECDMA_ZERO16SI			((ecdma_v16si) { 0 })
/* the builtins take plain-char vectors (GCC's __v32qi, __v64qi) */
#define ECDMA_C32(x)	((char __attribute__((__vector_size__(32))))(x))
#define ECDMA_C64(x)	((char __attribute__((__vector_size__(64))))(x))
#define ecdma_pshufb256(t, x) \
	((ecdma_v32qi)__builtin_ia32_pshufb256(ECDMA_C32(t), ECDMA_C32(x)))
#define ecdma_pshufb512(t, x) \
	((ecdma_v64qi)__builtin_ia32_pshufb512_mask(ECDMA_C64(t), \
	ECDMA_C64(x), ECDMA_C64(ECDMA_ZERO64), ~0ULL))
#define ecdma_affine256(x, a) \
	((ecdma_v32qi)__builtin_ia32_vgf2p8affineqb_v32qi(ECDMA_C32(x), \
	ECDMA_C32(a), 0))
#define ecdma_affine512(x, a) \
	((ecdma_v64qi)__builtin_ia32_vgf2p8affineqb_v64qi(ECDMA_C64(x), \
	ECDMA_C64(a), 0))
#define ecdma_ldmask512(p, z, k) \
	((ecdma_v64qi)__builtin_ia32_loaddquqi512_mask((const char *)(p), \
	ECDMA_C64(z), (k)))
#define ecdma_stmask512(p, v, k) \
	__builtin_ia32_storedquqi512_mask((char *)(p), ECDMA_C64(v), (k))
/* the 16-byte vector @l in every 128-bit lane */
#define ecdma_bcast16x2(l) \
	((ecdma_v32qi)__builtin_ia32_vbroadcastsi256((l)))
#define ecdma_bcast16x4(l) \
	((ecdma_v64qi)__builtin_ia32_broadcasti32x4_512((ecdma_v4si)(l), \
	ECDMA_ZERO16SI, (unsigned short)~0))
/* vmovntdq: @p aligned to the vector size */
#define ecdma_stream256(p, v) \
	__builtin_ia32_movntdq256((long long __attribute__(( \
	__vector_size__(32))) *)(p), (long long __attribute__(( \
	__vector_size__(32))))(v))
#define ecdma_stream512(p, v) \
	__builtin_ia32_movntdq512((long long __attribute__(( \
	__vector_size__(64))) *)(p), (long long __attribute__(( \
	__vector_size__(64))))(v))
#endif

/* orders the non-temporal stores before anything later */
static __always_inline void ecdma_sfence(void)
{
	asm volatile("sfence" ::: "memory");
}

/* CPU features the SIMD algos need (boot_cpu_has() or CPUID + XCR0). */
enum ecdma_simd_feat {
	ECDMA_SIMD_AVX2		= BIT(0),
	ECDMA_SIMD_AVX512	= BIT(1),	/* F + BW + VL */
	ECDMA_SIMD_GFNI		= BIT(2),
};

bool ecdma_simd_has(unsigned int feats);

/* GFNI tables: a vgf2p8affineqb u64 per coefficient, (j * k + i) order */
#define ECDMA_GF_AFFINE_TBL_BYTES	8
/* the matrix of coefficient 1 */
#define ecdma_gf_affine_identity	0x0102040810204080ULL

u64 ecdma_gf_affine_matrix(u8 c);
void ecdma_gf_prep_affine(const u8 *matrix, int k, int m, u8 *tbls);

/* the outputs of one pass of a dot-product kernel (at most 4) */
#define ECDMA_SIMD_GROUP	4
/* passes for ECDMA_EC_MAX_M outputs */
#define ECDMA_SIMD_PASSES	DIV_ROUND_UP(ECDMA_EC_MAX_M, ECDMA_SIMD_GROUP)
/* bytes of input a chunk of a multi-pass encode may span (all k blocks) */
#define ECDMA_SIMD_CHUNK_BUDGET	(256 * 1024)

u64 ecdma_simd_llc_bytes(void);
u64 ecdma_simd_l2_bytes(void);
size_t ecdma_simd_chunk(int k, size_t step);
int ecdma_simd_order(int k, int m, int group, const u8 *const *in,
		     u8 *const *out, int *ord);

extern const struct ecdma_gf_algo ecdma_gf_algo_avx2;
extern const struct ecdma_gf_algo ecdma_gf_algo_avx512;
extern const struct ecdma_gf_algo ecdma_gf_algo_avx2_gfni;
extern const struct ecdma_gf_algo ecdma_gf_algo_avx512_gfni;

#endif /* _ECDMA_GF_SIMD_H */
