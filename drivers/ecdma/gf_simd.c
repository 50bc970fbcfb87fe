// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma x86-64 SIMD GF(2^8) kernels: CPU feature checks, GFNI matrices and
 * the pass ordering shared by gf_avx2.c, gf_avx512.c and gf_gfni.c.  No
 * SIMD code here.
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
 * CPUID bits and the XSAVE state the kernel enabled, as lib/raid6 checks.
 *
 * Return: true when all of @feats are usable.
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
 * The largest data or unified cache of the deterministic cache leaf @leaf
 * (4 on Intel, 0x8000001d on AMD: the same layout), in bytes; 0 if none.
 */
static u64 simd_leaf_cache(u32 leaf)
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
		size = (u64)((r[1] >> 22) + 1) * (((r[1] >> 12) & 0x3ff) + 1) *
		       ((r[1] & 0xfff) + 1) * ((u64)r[2] + 1);
		best = max(best, size);
	}
	return best;
}

/**
 * ecdma_simd_llc_bytes() - the last-level cache the CPU reports
 *
 * CPUID's deterministic cache parameters (leaf 4, or AMD's 0x8000001d),
 * the way the kernel's cacheinfo and glibc read them: the largest data or
 * unified cache, shared or not.  The store policy derives the window in
 * which an output it wrote is taken as still cached from it.
 *
 * Return: bytes, or 0 when the CPU does not say.
 */
u64 ecdma_simd_llc_bytes(void)
{
	u64 llc = simd_leaf_cache(4);

	return llc ? llc : simd_leaf_cache(0x8000001d);
}

/**
 * ecdma_gf_affine_matrix() - multiplication by @c as a vgf2p8affineqb matrix
 * @c: the constant
 *
 * Bit i of the product is the parity of (matrix byte 7 - i) & x, so byte
 * 7 - i holds bit i of c * 2^j at bit j.  Any polynomial works this way;
 * this is 0x11d's (vgf2p8mulb would be 0x11b's).
 *
 * Return: the matrix (byte-equal to ISA-L's gf_table_gfni[] entries).
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
 * With more outputs than one pass holds (m > ECDMA_SIMD_GROUP), the
 * kernels run every pass over a chunk before the next chunk, so passes
 * after the first find the chunk's k inputs in L1/L2 instead of memory
 * (or a shared L3 that other cores fill).  The k inputs of a chunk span
 * at most ECDMA_SIMD_CHUNK_BUDGET; a chunk is 4 KiB to 32 KiB per block,
 * whole pages for the prefetchers.  Measured on Zen 4 (32 MiB L3) with
 * DRAM-resident 1 MiB blocks and NT stores: 16-32 KiB chunks won 10%
 * (RS(10,8)) to 50% (RS(20,6)) over whole-block passes, 1 KiB chunks
 * lost 30%; in cache it made no difference.
 *
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
 * @in: input buffers
 * @out: output buffers
 * @ord: m out: the outputs in the order to compute them, in passes of
 *	ECDMA_SIMD_GROUP
 *
 * Outputs that are the same buffer as an input go last, so that every
 * pass but the last reads inputs nothing has written yet.
 *
 * Return: 0, or -1 when those outputs do not fit in the last pass.
 */
int ecdma_simd_order(int k, int m, const u8 *const *in, u8 *const *out,
		     int *ord)
{
	int i, j, n = 0, na = 0, last;
	u32 alias = 0;

	if (m <= ECDMA_SIMD_GROUP) {
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
	last = m - (m - 1) / ECDMA_SIMD_GROUP * ECDMA_SIMD_GROUP;
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
