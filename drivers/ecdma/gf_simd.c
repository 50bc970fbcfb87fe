// SPDX-License-Identifier: GPL-2.0
/*
 * Non-SIMD helpers of the x86-64 GF(2^8) kernels: CPU checks, GFNI, ordering.
 */
#include "ecdma_compat.h"
#include "gf.h"
#include "gf_algo.h"
#include "gf_simd.h"

#ifdef __KERNEL__
#include <asm/cpufeature.h>
#include <asm/fpu/api.h>
#include <asm/fpu/types.h>
#include <asm/processor.h>

static void simd_cpuid(u32 leaf, u32 sub, u32 *r)
{
	if (leaf >= 0x80000000 ? leaf > cpuid_eax(0x80000000) :
				 leaf > cpuid_eax(0))
		memset(r, 0, 4 * sizeof(*r));
	else
		cpuid_count(leaf, sub, &r[0], &r[1], &r[2], &r[3]);
}

/**
 * ecdma_simd_has() - can this CPU and the OS run these SIMD extensions?
 * @feats: ECDMA_SIMD_* bits
 *
 * Return: true when CPUID and the enabled XSAVE state allow all of @feats.
 */
bool ecdma_simd_has(unsigned int feats)
{
	u64 xmask = XFEATURE_MASK_SSE | XFEATURE_MASK_YMM;

	if (!boot_cpu_has(X86_FEATURE_AVX) || !boot_cpu_has(X86_FEATURE_AVX2))
		return false;
	if (feats & ECDMA_SIMD_AVX512) {
		if (!boot_cpu_has(X86_FEATURE_AVX512F) ||
		    !boot_cpu_has(X86_FEATURE_AVX512BW) ||
		    !boot_cpu_has(X86_FEATURE_AVX512VL))
			return false;
		xmask |= XFEATURE_MASK_AVX512;
	}
	if ((feats & ECDMA_SIMD_GFNI) && !boot_cpu_has(X86_FEATURE_GFNI))
		return false;
	return cpu_has_xfeatures(xmask, NULL);
}
#else
#include <cpuid.h>

bool ecdma_simd_has(unsigned int feats)
{
	unsigned int a, b, c, d, lo, hi;
	u64 xcr0, xmask = 0x6;		/* SSE, AVX */

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & BIT(27)) ||
	    !(c & BIT(28)))
		return false;
	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(b & BIT(5)))
		return false;
	if (feats & ECDMA_SIMD_AVX512) {
		if ((b & (BIT(16) | BIT(30) | BIT(31))) !=
		    (BIT(16) | BIT(30) | BIT(31)))
			return false;
		xmask |= 0xe0;		/* opmask, ZMM_Hi256, Hi16_ZMM */
	}
	if ((feats & ECDMA_SIMD_GFNI) && !(c & BIT(8)))
		return false;
	asm volatile("xgetbv" : "=a" (lo), "=d" (hi) : "c" (0));
	xcr0 = ((u64)hi << 32) | lo;
	return (xcr0 & xmask) == xmask;
}

static void simd_cpuid(u32 leaf, u32 sub, u32 *r)
{
	if (!__get_cpuid_count(leaf, sub, &r[0], &r[1], &r[2], &r[3]))
		memset(r, 0, 4 * sizeof(*r));
}
#endif

/*
 * Largest data/unified cache of CPUID leaf 4 or 0x8000001d at @level (0:
 * any level); 0 if none
 */
static u64 simd_leaf_cache(u32 leaf, u32 level)
{
	u64 best = 0;
	u32 r[4], sub;

	for (sub = 0; sub < 16; sub++) {
		u32 type;
		u64 size;

		simd_cpuid(leaf, sub, r);
		type = r[0] & 0x1f;
		if (!type)
			break;
		if (type == 2)		/* instruction cache */
			continue;
		if (level && ((r[0] >> 5) & 7) != level)
			continue;
		size = (u64)((r[1] >> 22) + 1) * (((r[1] >> 12) & 0x3ff) + 1) *
		       ((r[1] & 0xfff) + 1) * ((u64)r[2] + 1);
		best = max(best, size);
	}
	return best;
}

/**
 * ecdma_simd_llc_bytes() - the last-level cache the CPU reports
 * Return: bytes (read as cacheinfo and glibc do), or 0 if the CPU won't say.
 */
u64 ecdma_simd_llc_bytes(void)
{
	u64 llc = simd_leaf_cache(4, 0);

	return llc ? llc : simd_leaf_cache(0x8000001d, 0);
}

/**
 * ecdma_simd_l2_bytes() - the level-2 cache of one core the CPU reports
 * Return: bytes, or 0 if the CPU won't say.
 */
u64 ecdma_simd_l2_bytes(void)
{
	u64 l2 = simd_leaf_cache(4, 2);

	return l2 ? l2 : simd_leaf_cache(0x8000001d, 2);
}

/**
 * ecdma_gf_affine_matrix() - multiplication by @c as a vgf2p8affineqb matrix
 * @c: the constant
 *
 * Return: the matrix, byte 7 - i holding bit i of c * 2^j at bit j, as
 * ISA-L's gf_table_gfni[] (vgf2p8mulb would be 0x11b's field).
 */
u64 ecdma_gf_affine_matrix(u8 c)
{
	u64 a = 0;
	int i, j;

	for (j = 0; j < 8; j++) {
		u8 p = ecdma_gf_mul(c, BIT(j));

		for (i = 0; i < 8; i++)
			if (p & BIT(i))
				a |= BIT_ULL(8 * (7 - i) + j);
	}
	return a;
}

/**
 * ecdma_gf_prep_affine() - GFNI tables for a whole matrix
 * @matrix: k x m, verbs layout (matrix[i * m + j])
 * @k: inputs
 * @m: outputs
 * @tbls: k * m * ECDMA_GF_AFFINE_TBL_BYTES out, (i, j) at (j * k + i) * 8
 */
void ecdma_gf_prep_affine(const u8 *matrix, int k, int m, u8 *tbls)
{
	int i, j;

	for (j = 0; j < m; j++)
		for (i = 0; i < k; i++) {
			u64 a = ecdma_gf_affine_matrix(matrix[i * m + j]);

			memcpy(tbls + (j * k + i) * ECDMA_GF_AFFINE_TBL_BYTES,
			       &a, sizeof(a));
		}
}

/**
 * ecdma_simd_chunk() - bytes per chunk of a multi-pass encode
 * @k: inputs
 * @step: the kernel's longest step in bytes (a power of two)
 *
 * Passes run chunk by chunk, so later ones find its k inputs in L1/L2.
 * Return: the chunk, a multiple of @step.
 */
size_t ecdma_simd_chunk(int k, size_t step)
{
	size_t c = ECDMA_SIMD_CHUNK_BUDGET / max(k, 1);

	c = min_t(size_t, max_t(size_t, c, 4096), 32768);
	return c & ~(step - 1);
}

/**
 * ecdma_simd_order() - order outputs for dot-product passes
 * @k: inputs
 * @m: outputs
 * @group: outputs per pass
 * @in: input buffers
 * @out: output buffers
 * @ord: m out: the outputs in computing order, in passes of @group
 *
 * Outputs aliasing an input go last, so earlier passes read unwritten input.
 * Return: 0, or -1 when those outputs do not fit in the last pass.
 */
int ecdma_simd_order(int k, int m, int group, const u8 *const *in,
		     u8 *const *out, int *ord)
{
	int i, j, n = 0, na = 0, last;
	u32 alias = 0;

	if (m <= group) {
		for (j = 0; j < m; j++)
			ord[j] = j;
		return 0;
	}
	for (j = 0; j < m; j++)
		for (i = 0; i < k; i++)
			if (out[j] == in[i]) {
				alias |= BIT(j);
				na++;
				break;
			}
	last = m - (m - 1) / group * group;
	if (na > last)
		return -1;
	for (j = 0; j < m; j++)
		if (!(alias & BIT(j)))
			ord[n++] = j;
	for (j = 0; j < m; j++)
		if (alias & BIT(j))
			ord[n++] = j;
	return 0;
}
