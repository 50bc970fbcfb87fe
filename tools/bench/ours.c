// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma's implementations in make bench: every usable GF algo, the best
 * one with each kind of store forced, and the engine as the kernel runs
 * it: the CPU provider's calibration (gf_cal.c, the same code the module
 * runs at load) decides per block-size class between lib/raid6 or
 * xor_blocks() and the best algo, and between regular and NT stores, and
 * blocks are processed in the executor's pieces (worker_budget).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <immintrin.h>

#include "bench.h"
#include "peers.h"
#include "gf_simd.h"

static struct impl algos[8];
static int nalgos;

static void engine_run(const struct impl *im, struct cfg *c);

static void ours_run(const struct impl *im, struct cfg *c)
{
	const struct ecdma_gf_algo *a = im->p;
	unsigned int flags = (c->op == OP_UPD ? ECDMA_GF_ACC : 0) |
			     (im->stores == STORES_NT ? ECDMA_GF_NT : 0);

	if (c->op == OP_XOR)
		a->xor(c->B, c->nin, (const u8 *const *)c->in, c->out[0],
		       flags);
	else
		ecdma_gf_encode(a, c->op == OP_PQ, c->B, c->nin, c->nout,
				im->tbls, (const u8 *const *)c->in, c->out,
				flags);
}

static void engine_prep(struct impl *im, const struct cfg *c);
static void chain_run(const struct impl *im, struct cfg *c);
static void chain_prep(struct impl *im, const struct cfg *c);

void ours_prep(struct impl *im, const struct cfg *c)
{
	const struct ecdma_gf_algo *a = im->p;

	if (im->run == chain_run)
		return chain_prep(im, c);
	if (im->run == engine_run)
		engine_prep(im, c);
	free(im->tbls);
	im->tbls = aligned_alloc(64, 64 + (size_t)a->tbl_bytes * c->nin *
				 c->nout);
	if (!im->tbls)
		die("oom");
	a->prep(c->coef, c->nin, c->nout, im->tbls);
}

/* xor_blocks() as the executor's fast path calls it: copy, then 4 a call */
static void lib_xor(u8 *dest, u8 *const *src, int n, size_t len)
{
	int s;

	memcpy(dest, src[0], len);
	for (s = 1; s < n; s += 4)
		kxor_avx(n - s < 4 ? n - s : 4, len, dest, (void **)src + s);
}

/*
 * The engine: ec_exec.c's choices for this block size (class) and kind:
 * P+Q and XOR on the kernel's code when the calibration chose it, NT
 * stores where it chose them.  With @im->u, in pieces of ENGINE_BUDGET
 * bytes over all blocks, as xc_range() cuts them for the worker's
 * sections (worker_budget).
 */
enum { ENGINE_GF, ENGINE_GF_XOR, ENGINE_LIB_PQ, ENGINE_LIB_XOR };

static int engine_path(enum ecdma_gf_kind kind, bool lib_pq, bool lib_xor)
{
	if (kind == ECDMA_GF_KIND_PQ && lib_pq)
		return ENGINE_LIB_PQ;
	if (kind == ECDMA_GF_KIND_XOR && lib_xor)
		return ENGINE_LIB_XOR;
	return kind == ECDMA_GF_KIND_XOR ? ENGINE_GF_XOR : ENGINE_GF;
}

/* ec_exec.c's choices for this cell, for cached outputs and for others */
static void engine_prep(struct impl *im, const struct cfg *c)
{
	unsigned int cls = BIT(ecdma_gf_cls(c->B));
	int b = ecdma_gf_band(c->nin);
	enum ecdma_gf_kind kind = ECDMA_GF_KIND_RS;

	if (c->op == OP_XOR)
		kind = ECDMA_GF_KIND_XOR;
	else if (c->op == OP_PQ)
		kind = ECDMA_GF_KIND_PQ;
	/* by whether the outputs are cached; engine_run() asks per call */
	im->flags = ecdma_gf_flags(c->B, c->op == OP_UPD, 0, cal.nt[kind],
				   false);
	im->flags_cached = ecdma_gf_flags(c->B, c->op == OP_UPD, 0,
					  ecdma_gf_nt_mask(cal.nt[kind],
							   cal.nt_block, c->B,
							   c->nin, c->nout,
							   false),
					  true);
	im->probe = c->op != OP_UPD && cls != BIT(ECDMA_GF_CLS_4K);
	im->path = engine_path(kind, cal.lib_pq[b] & cls,
			       cal.lib_xor[b] & cls);
	im->path_cold = engine_path(kind, cal.lib_pq_cold[b] & cls,
				    cal.lib_xor_cold[b] & cls);
}

/*
 * Inlined: two more calls with their frames cost about 5% of a hot 4 KiB
 * XOR here, which the "engine vs best variant" table would charge to the
 * choice; the module's request pays its own, larger costs elsewhere.
 */
static __always_inline void
engine_piece(const struct impl *im, const struct cfg *c, int path,
	     unsigned int flags, size_t len, u8 **pin, u8 **pout)
{
	void *v[MAXK + 2];

	switch (path) {
	case ENGINE_LIB_PQ:
		memcpy(v, pin, c->nin * sizeof(v[0]));
		v[c->nin] = pout[0];
		v[c->nin + 1] = pout[1];
		raid6_call.gen_syndrome(c->nin + 2, len, v);
		break;
	case ENGINE_LIB_XOR:
		lib_xor(pout[0], pin, c->nin, len);
		break;
	case ENGINE_GF_XOR:
		best_algo->xor(len, c->nin, (const u8 *const *)pin, pout[0],
			       flags);
		break;
	default:
		ecdma_gf_encode(best_algo, c->op == OP_PQ, len, c->nin,
				c->nout, im->tbls, (const u8 *const *)pin, pout,
				flags);
		break;
	}
}

/* where each engine (whole, in sections) wrote lately, as ec_exec.c's */
static struct ecdma_gf_reuse engine_reuse[2];

/* @im->u: in pieces of ENGINE_BUDGET bytes over all blocks (xc_range()) */
static void engine_sections(const struct impl *im, struct cfg *c, int path,
			    unsigned int flags)
{
	int nblk = c->nin + c->nout, i;
	size_t n = (ENGINE_BUDGET / nblk) & ~(size_t)511, off, len;
	u8 *pin[MAXK + MAXM + 2], *pout[MAXM + 2];

	n = n < 512 ? 512 : n;
	for (off = 0; off < c->B; off += len) {
		len = c->B - off < n ? c->B - off : n;
		for (i = 0; i < c->nin; i++)
			pin[i] = c->in[i] + off;
		for (i = 0; i < c->nout; i++)
			pout[i] = c->out[i] + off;
		engine_piece(im, c, path, flags, len, pin, pout);
	}
}

/*
 * What the whole call costs besides the kernel is what the module's
 * request costs for the choice: one look at the reuse tracker past 4 KiB
 * (not when accumulating); the pieces' arithmetic only when there are any.
 */
static void engine_run(const struct impl *im, struct cfg *c)
{
	unsigned int flags = im->flags;
	int path = im->path;

	/* ecdma_ec_exec_start(): once per request, on the first output */
	if (im->probe &&
	    !ecdma_gf_reused(&engine_reuse[!!im->u], cal.reuse_window,
			     c->out[0], (u64)(c->nin + c->nout) * c->B))
		path = im->path_cold;
	else
		flags = im->flags_cached;
	if (im->u && c->B * (c->nin + c->nout) > ENGINE_BUDGET)
		engine_sections(im, c, path, flags);
	else
		engine_piece(im, c, path, flags, c->B, c->in, c->out);
}

/*
 * The module with fuse=0 (dma_fuse.c): async_raid6_2data_recov()'s five
 * operations one after the other, each on the best algo: the syndrome of
 * the survivors into the two lost blocks (their coefficients skip the lost
 * disks, so not lib/raid6's), dp ^= P, dq ^= Q, dq = A*dp + B*dq in place,
 * dp ^= dq.  The engine's cell is the composed one pass (fuse=1).
 */
static void chain_prep(struct impl *im, const struct cfg *c)
{
	const struct ecdma_gf_algo *a = im->p;
	u8 m[2 * MAXK];
	int i, s = 0;

	for (i = 0; i < c->k; i++) {
		if (i == c->fa || i == c->fb)
			continue;
		m[2 * s] = 1;
		m[2 * s++ + 1] = raid6_gfexp[i];
	}
	free(im->tbls);
	im->tbls = aligned_alloc(64, 64 + (size_t)a->tbl_bytes * 2 * c->k);
	if (!im->tbls)
		die("oom");
	a->prep(m, c->k - 2, 2, im->tbls);
	m[0] = raid6_gfexi[c->fb - c->fa];
	m[1] = raid6_gfinv[raid6_gfexp[c->fa] ^ raid6_gfexp[c->fb]];
	a->prep(m, 2, 1, im->tbls + (size_t)a->tbl_bytes * 2 * (c->k - 2));
}

static void chain_run(const struct impl *im, struct cfg *c)
{
	const struct ecdma_gf_algo *a = im->p;
	u8 *dp = c->out[0], *dq = c->out[1];
	const u8 *in[2];
	u8 *out[1];

	a->encode(c->B, c->k - 2, 2, im->tbls, (const u8 *const *)c->in,
		  c->out, 0);
	in[0] = c->in[c->k - 2];
	a->xor(c->B, 1, in, dp, ECDMA_GF_ACC);
	in[0] = c->in[c->k - 1];
	a->xor(c->B, 1, in, dq, ECDMA_GF_ACC);
	in[0] = dp;
	in[1] = dq;
	out[0] = dq;
	a->encode(c->B, 2, 1,
		  im->tbls + (size_t)a->tbl_bytes * 2 * (c->k - 2), in, out, 0);
	in[0] = dq;
	a->xor(c->B, 1, in, dp, ECDMA_GF_ACC);
}

struct impl engine_impl = {
	.name = "ecdma engine (calibrated)", .id = "engine",
	.kind = K_ENGINE, .run = engine_run,
};

/* @ims[n..]: the engine, then ours as @which says; returns the new n */
int ours_add(struct impl *ims, int n, const struct cfg *c, unsigned int which)
{
	int i;

	ims[n] = engine_impl;
	ims[n++].p = best_algo;
	if (c->op == OP_REC)
		ims[n++] = (struct impl){
			.name = "ecdma best algo: the five operations (fuse=0)",
			.id = "chain", .kind = K_OURS, .run = chain_run,
			.p = best_algo,
		};
	/* the executor's sections split big blocks: the same, in pieces */
	if (c->B * nblocks(c) > ENGINE_BUDGET) {
		ims[n] = engine_impl;
		ims[n].name = "ecdma engine in 128 KiB sections";
		ims[n].id = "engine-sections";
		ims[n].kind = K_OURS;
		ims[n].u = 1;
		ims[n++].p = best_algo;
	}
	for (i = 0; i < nalgos; i++) {
		const struct ecdma_gf_algo *a = algos[i].p;
		bool best = a == best_algo;

		if ((which & C_STORES) && best) {
			ims[n] = algos[i];
			ims[n].stores = STORES_REGULAR;
			ims[n++].id = "best-regular";
			ims[n] = algos[i];
			ims[n].stores = STORES_NT;
			ims[n].id = "best-nt";
			if (asprintf((char **)&ims[n++].name, "ecdma %s nt stores",
				     a->name) < 0)
				die("oom");
		} else if (!best && ((which & C_ALGOS) ||
				     ((which & C_AVX2) && !strcmp(a->name, "avx2")))) {
			ims[n++] = algos[i];
		}
	}
	return n;
}

/* ---------------------------------------------------------------------- */
/* The calibration, as the module runs it at load                         */
/* ---------------------------------------------------------------------- */

static u64 cal_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void cal_flush(void *p, size_t len)
{
	u8 *q = p;
	size_t i;

	_mm_mfence();
	for (i = 0; i < len; i += 64)
		_mm_clflush(q + i);
	_mm_mfence();
}

static void cal_pq(int disks, size_t bytes, void **ptrs)
{
	raid6_call.gen_syndrome(disks, bytes, ptrs);
}

static void cal_xor(unsigned int count, size_t bytes, void *dest,
		    void **srcs)
{
	kxor_avx(count, bytes, dest, srcs);
}

struct ecdma_gf_cal cal;

static const char *engine_path_name(int kind, bool lib_pq, bool lib_xor)
{
	int p = engine_path(kind, lib_pq, lib_xor);

	return p == ENGINE_LIB_PQ || p == ENGINE_LIB_XOR ? "lib" : "gf";
}

/* the calibration's measurements and choices for band @b */
static void cal_print_band(int b)
{
	int c, k;

	for (c = 0; c < ECDMA_GF_CLS_NR; c++) {
		for (k = 0; k < ECDMA_GF_KIND_NR; k++) {
			u32 (*m)[2] = cal.mbps[b][c][k];

			if (b == ECDMA_GF_BAND_NARROW && k == ECDMA_GF_KIND_RS)
				continue;
			printf("#   %-3s %-3s k=%-2d lib %6u/%-6u gf %6u/%-6u gf_nt %6u/%-6u -> %s",
			       ecdma_gf_cls_names[c], ecdma_gf_kind_names[k],
			       ecdma_gf_cal_disks[b], m[0][0], m[0][1],
			       m[1][0], m[1][1], m[2][0], m[2][1],
			       engine_path_name(k, cal.lib_pq[b] & BIT(c),
						cal.lib_xor[b] & BIT(c)));
			printf("/%s",
			       engine_path_name(k, cal.lib_pq_cold[b] & BIT(c),
						cal.lib_xor_cold[b] & BIT(c)));
			if (b == ECDMA_GF_BAND_WIDE && (cal.nt[k] & BIT(c)))
				printf(", nt%s", cal.nt[k] &
				       BIT(ECDMA_GF_NT_CACHED(c)) ?
				       " (cached too)" : "");
			if (k != ECDMA_GF_KIND_RS)
				printf(" (gf won cold %u/%d)",
				       cal.gf_cold_won[b][c][k], cal.rounds);
			printf("\n");
		}
	}
}

/* best_algo, the algo rows, and what the module would choose here */
void ours_calibrate(void)
{
	static const char *const names[] = {
		"avx512-gfni", "avx2-gfni", "avx512", "avx2", "generic"
	};
	struct ecdma_gf_cal_env env = {
		.now_ns = cal_now, .flush = cal_flush, .pq_lib = cal_pq,
		.xor_lib = cal_xor, .xor_max = 4, .piece = ENGINE_BUDGET,
		.max_ns = ECDMA_GF_CAL_MAX_NS, .llc = ecdma_simd_llc_bytes(),
		.l2 = ecdma_simd_l2_bytes(),
	};
	/* as the module's: its choices depend on the pages (ecdma-simd.rst) */
	u8 *buf = xalloc_4k(ECDMA_GF_CAL_BUF_BYTES);
	u8 *tbls = malloc(ECDMA_GF_CAL_TBL_BYTES);
	size_t i;
	u64 t0;
	int b;

	/* BENCH_ALGO: as the module's algo attribute, e.g. a host sans GFNI */
	best_algo = ecdma_gf_algo_find(getenv("BENCH_ALGO"));
	if (!best_algo)
		die("BENCH_ALGO=%s: no such algo usable here (%s)",
		    getenv("BENCH_ALGO"),
		    "avx512-gfni, avx2-gfni, avx512, avx2, generic");
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		const struct ecdma_gf_algo *a = ecdma_gf_algo_find(names[i]);
		char *n;

		if (!a)
			continue;
		if (asprintf(&n, "ecdma %s%s", a->name,
			     a == best_algo ? " regular stores" : "") < 0)
			die("oom");
		algos[nalgos++] = (struct impl){
			.name = n, .id = a->name, .kind = K_OURS,
			.run = ours_run, .p = a,
		};
	}
	fill(buf, ECDMA_GF_CAL_BUF_BYTES);
	/* as the module: measure the cache where CPUID reports none */
	if (!env.llc) {
		env.llc_buf = xalloc_4k(ECDMA_GF_LLC_BUF_BYTES);
		fill(env.llc_buf, ECDMA_GF_LLC_BUF_BYTES);
	}
	t0 = cal_now();
	if (ecdma_gf_calibrate(best_algo, &env, buf, tbls, &cal))
		die("calibration failed");
	t0 = cal_now() - t0;
	printf("# engine calibration (gf_cal.c, as at module load): gf %s,",
	       best_algo->name);
	printf(" raid6 %s, %d rounds in %.1f ms; MB/s hot/cold\n",
	       raid6_call.name, cal.rounds, t0 / 1e6);
	/* the wide band (8 inputs), then P+Q and XOR of the narrow one (4) */
	for (b = ECDMA_GF_BAND_NR - 1; b >= 0; b--)
		cal_print_band(b);
	/* the hot store measurements that decide NT on cached outputs */
	for (b = 0; b < ECDMA_GF_CLS_NR; b++) {
		if (!ecdma_gf_cal_nt_disks[b])
			continue;
		printf("#   %s k=%d %uK hot, cached NT by it:",
		       ecdma_gf_cls_names[b], ecdma_gf_cal_nt_disks[b],
		       cal.nt_block[b] >> 10);
		if (cal.nt_fits & BIT(b)) {
			printf(" not measured, fits in the L2: regular\n");
			continue;
		}
		for (i = 0; i < ECDMA_GF_KIND_NR; i++)
			printf(" %s gf %u gf_nt %u", ecdma_gf_kind_names[i],
			       cal.nt_hot[b][i][0], cal.nt_hot[b][i][1]);
		if (b == ECDMA_GF_CLS_BIG && cal.nt_square[0])
			printf("; rs k=%d m=%d gf %u gf_nt %u (m>=k: %s)",
			       ECDMA_GF_CAL_OUTS, ECDMA_GF_CAL_OUTS,
			       cal.nt_square[0], cal.nt_square[1],
			       cal.nt[ECDMA_GF_KIND_RS] & ECDMA_GF_NT_SQUARE ?
			       "nt" : "regular");
		printf("\n");
	}
	printf("#   NT writes (hot copy): %u MB/s\n", cal.nt_wr);
	printf("#   last-level cache %llu KiB (%s", cal.llc >> 10,
	       ecdma_gf_llc_src_names[cal.llc_src]);
	if (cal.llc_src == ECDMA_GF_LLC_PROBED) {
		printf(": re-run/cold");
		for (b = 0; b < ECDMA_GF_LLC_STEPS && cal.llc_gain[b]; b++)
			printf(" %llu MiB %.2fx",
			       (ECDMA_GF_LLC_MIN << b) >> 20,
			       cal.llc_gain[b] / 1000.0);
	}
	printf("), L2 %llu KiB, reuse window %llu KiB", cal.l2 >> 10,
	       cal.reuse_window >> 10);
	printf(" (outputs written within it count as cached)\n");
	if (env.llc_buf)
		munmap(env.llc_buf, ECDMA_GF_LLC_BUF_BYTES);
	free(tbls);
}
