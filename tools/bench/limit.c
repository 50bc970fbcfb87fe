// SPDX-License-Identifier: GPL-2.0
/*
 * The physical limit of a cell: plain loops that read the cell's k input
 * streams (and its m outputs when it accumulates) and write its m output
 * streams, XOR and nothing else, as fast as the memory system allows.
 * Each cell times several shapes (vectors per stream in a row, regular or
 * non-temporal stores, prefetchnta as lib/raid6 does) in the same
 * turns as everything else; the best of them per repeat is the
 * limit.  Anything that computes the same cell moves at least those
 * bytes, so no implementation can beat it: a cell above 100% is a flaw
 * of the model (a shape missing here), not a success.
 *
 * Also the single-stream memory probe printed with every run.
 */
#include <stdlib.h>
#include <immintrin.h>

#include "bench.h"

#define LIM_AVX512	__attribute__((target("avx2,avx512f,avx512bw")))
#define LIM_AVX2	__attribute__((target("avx2")))

/*
 * One limit loop: @u vectors per stream in a row; @nt non-temporal
 * stores; @nta prefetchnta on each line right before its load; @desc the
 * last input first (as ISA-L, lib/raid6 and ecdma read them: with blocks
 * back to back the order decides what a stride prefetcher fetches).  @u,
 * @nt, @nta and @desc are constants after inlining.
 */
static __always_inline LIM_AVX512 void z_body(size_t len, int k, int m,
					      u8 *const *in,
					      u8 *const *out, bool acc,
					      int u, bool nt, bool nta,
					      bool desc)
{
	size_t off;
	int i, j, n, v;

	for (off = 0; off < len; off += u * 64) {
		__m512i a[4];

#pragma GCC unroll 4
		for (v = 0; v < u; v++)
			a[v] = _mm512_setzero_si512();
		for (n = 0; n < k; n++) {
			i = desc ? k - 1 - n : n;
#pragma GCC unroll 4
			for (v = 0; v < u; v++) {
				const u8 *p = in[i] + off + v * 64;

				if (nta)
					_mm_prefetch((const char *)p, _MM_HINT_NTA);
				a[v] = _mm512_xor_si512(a[v], _mm512_loadu_si512(p));
			}
		}
		for (j = 0; acc && j < m; j++) {
#pragma GCC unroll 4
			for (v = 0; v < u; v++) {
				__m512i o = _mm512_loadu_si512(out[j] + off +
							       v * 64);

				a[v] = _mm512_xor_si512(a[v], o);
			}
		}
		for (j = 0; j < m; j++) {
#pragma GCC unroll 4
			for (v = 0; v < u; v++) {
				u8 *p = out[j] + off + v * 64;

				if (nt)
					_mm512_stream_si512((void *)p, a[v]);
				else
					_mm512_storeu_si512(p, a[v]);
			}
		}
	}
	if (nt)
		_mm_sfence();
}

static __always_inline LIM_AVX2 void y_body(size_t len, int k, int m,
					    u8 *const *in,
					    u8 *const *out, bool acc,
					    int u, bool nt, bool nta,
					    bool desc)
{
	size_t off;
	int i, j, n, v;

	for (off = 0; off < len; off += u * 32) {
		__m256i a[4];

#pragma GCC unroll 4
		for (v = 0; v < u; v++)
			a[v] = _mm256_setzero_si256();
		for (n = 0; n < k; n++) {
			i = desc ? k - 1 - n : n;
#pragma GCC unroll 4
			for (v = 0; v < u; v++) {
				const u8 *p = in[i] + off + v * 32;

				__m256i x;

				if (nta)
					_mm_prefetch((const char *)p, _MM_HINT_NTA);
				x = _mm256_loadu_si256((const void *)p);
				a[v] = _mm256_xor_si256(a[v], x);
			}
		}
		for (j = 0; acc && j < m; j++) {
#pragma GCC unroll 4
			for (v = 0; v < u; v++) {
				const void *q = out[j] + off + v * 32;
				__m256i o = _mm256_loadu_si256(q);

				a[v] = _mm256_xor_si256(a[v], o);
			}
		}
		for (j = 0; j < m; j++) {
#pragma GCC unroll 4
			for (v = 0; v < u; v++) {
				u8 *p = out[j] + off + v * 32;

				if (nt)
					_mm256_stream_si256((void *)p, a[v]);
				else
					_mm256_storeu_si256((void *)p, a[v]);
			}
		}
	}
	if (nt)
		_mm_sfence();
}

static const char *const shapes[] = {
	"limit 1 vector/stream regular",
	"limit 2 vectors/stream regular",
	"limit 4 vectors/stream regular",
	"limit 2 vectors/stream regular last first",
	"limit 4 vectors/stream regular last first",
	"limit 2 vectors/stream regular prefetchnta last first",
	"limit 1 vector/stream nt",
	"limit 2 vectors/stream nt",
	"limit 4 vectors/stream nt",
	"limit 4 vectors/stream nt last first",
	"limit 4 vectors/stream nt prefetchnta",
};

/* shapes[] before this one store regularly, the rest non-temporally */
#define LIM_FIRST_NT	6

/* shape @sh with @m constant where the caller makes it one */
static __always_inline LIM_AVX512 void z_shape(int sh, size_t len, int k,
					       int m, u8 *const *in,
					       u8 *const *out, bool acc)
{
	switch (sh) {
	case 0:
		z_body(len, k, m, in, out, acc, 1, false, false, false);
		break;
	case 1:
		z_body(len, k, m, in, out, acc, 2, false, false, false);
		break;
	case 2:
		z_body(len, k, m, in, out, acc, 4, false, false, false);
		break;
	case 3:
		z_body(len, k, m, in, out, acc, 2, false, false, true);
		break;
	case 4:
		z_body(len, k, m, in, out, acc, 4, false, false, true);
		break;
	case 5:
		z_body(len, k, m, in, out, acc, 2, false, true, true);
		break;
	case 6:
		z_body(len, k, m, in, out, acc, 1, true, false, false);
		break;
	case 7:
		z_body(len, k, m, in, out, acc, 2, true, false, false);
		break;
	case 8:
		z_body(len, k, m, in, out, acc, 4, true, false, false);
		break;
	case 9:
		z_body(len, k, m, in, out, acc, 4, true, false, true);
		break;
	default:
		z_body(len, k, m, in, out, acc, 4, true, true, false);
		break;
	}
}

static __always_inline LIM_AVX2 void y_shape(int sh, size_t len, int k,
					     int m, u8 *const *in,
					     u8 *const *out, bool acc)
{
	switch (sh) {
	case 0:
		y_body(len, k, m, in, out, acc, 1, false, false, false);
		break;
	case 1:
		y_body(len, k, m, in, out, acc, 2, false, false, false);
		break;
	case 2:
		y_body(len, k, m, in, out, acc, 4, false, false, false);
		break;
	case 3:
		y_body(len, k, m, in, out, acc, 2, false, false, true);
		break;
	case 4:
		y_body(len, k, m, in, out, acc, 4, false, false, true);
		break;
	case 5:
		y_body(len, k, m, in, out, acc, 2, false, true, true);
		break;
	case 6:
		y_body(len, k, m, in, out, acc, 1, true, false, false);
		break;
	case 7:
		y_body(len, k, m, in, out, acc, 2, true, false, false);
		break;
	case 8:
		y_body(len, k, m, in, out, acc, 4, true, false, false);
		break;
	case 9:
		y_body(len, k, m, in, out, acc, 4, true, false, true);
		break;
	default:
		y_body(len, k, m, in, out, acc, 4, true, true, false);
		break;
	}
}

/*
 * Up to 4 outputs with m a constant, as ecdma's kernels have it for each
 * pass: the limit must not lose to them on loop overhead.
 */
static LIM_AVX512 void z_run(int sh, size_t len, int k, int m,
			     u8 *const *in, u8 *const *out, bool acc)
{
	switch (m) {
	case 1:
		z_shape(sh, len, k, 1, in, out, acc);
		break;
	case 2:
		z_shape(sh, len, k, 2, in, out, acc);
		break;
	case 3:
		z_shape(sh, len, k, 3, in, out, acc);
		break;
	case 4:
		z_shape(sh, len, k, 4, in, out, acc);
		break;
	default:
		z_shape(sh, len, k, m, in, out, acc);
		break;
	}
}

static LIM_AVX2 void y_run(int sh, size_t len, int k, int m,
			   u8 *const *in, u8 *const *out, bool acc)
{
	switch (m) {
	case 1:
		y_shape(sh, len, k, 1, in, out, acc);
		break;
	case 2:
		y_shape(sh, len, k, 2, in, out, acc);
		break;
	case 3:
		y_shape(sh, len, k, 3, in, out, acc);
		break;
	case 4:
		y_shape(sh, len, k, 4, in, out, acc);
		break;
	default:
		y_shape(sh, len, k, m, in, out, acc);
		break;
	}
}

static void limit_run(const struct impl *im, struct cfg *c)
{
	if (have_avx512)
		z_run(im->u, c->B, c->nin, c->nout, c->in, c->out,
		      c->op == OP_UPD);
	else
		y_run(im->u, c->B, c->nin, c->nout, c->in, c->out,
		      c->op == OP_UPD);
}

/* @ims[n..]: every limit shape; returns the new n */
int limit_add(struct impl *ims, int n)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(shapes); i++)
		ims[n++] = (struct impl){
			.name = shapes[i], .id = "limit", .kind = K_LIMIT,
			.run = limit_run, .u = i, .noverify = true,
		};
	return n;
}

/*
 * The limit of @cl in repeat @rep: its best limit shape there, or with
 * @regular its best regular-store shape (0 if it timed none).
 */
double limit_rep(const struct cell *cl, int rep, bool regular)
{
	const int last = regular ? LIM_FIRST_NT : (int)ARRAY_SIZE(shapes);
	double lim = 0;
	int i, j;

	for (i = cl->first; i < cl->first + cl->n; i++) {
		if (res[i].kind != K_LIMIT)
			continue;
		for (j = 0; j < last; j++)
			if (res[i].name == shapes[j] && res[i].rep[rep] > lim)
				lim = res[i].rep[rep];
	}
	return lim;
}

/* ---------------------------------------------------------------------- */
/* Single-stream memory probe                                             */
/* ---------------------------------------------------------------------- */

static LIM_AVX2 u64 probe_read(const u8 *p, size_t n)
{
	__m256i a = _mm256_setzero_si256(), b = a, c = a, d = a;
	size_t i;

	for (i = 0; i < n; i += 128) {
		a = _mm256_xor_si256(a, _mm256_load_si256((const void *)(p + i)));
		b = _mm256_xor_si256(b, _mm256_load_si256((const void *)(p + i + 32)));
		c = _mm256_xor_si256(c, _mm256_load_si256((const void *)(p + i + 64)));
		d = _mm256_xor_si256(d, _mm256_load_si256((const void *)(p + i + 96)));
	}
	a = _mm256_xor_si256(_mm256_xor_si256(a, b), _mm256_xor_si256(c, d));
	return _mm256_extract_epi64(a, 0) ^ _mm256_extract_epi64(a, 3);
}

static LIM_AVX2 void probe_write(u8 *p, size_t n, int nt)
{
	__m256i v = _mm256_set1_epi8(0x5a);
	size_t i;

	if (nt) {
		for (i = 0; i < n; i += 32)
			_mm256_stream_si256((void *)(p + i), v);
		_mm_sfence();
	} else {
		for (i = 0; i < n; i += 32)
			_mm256_store_si256((void *)(p + i), v);
	}
}

/* median of 5 of each: read, regular write, NT write, GB/s */
void mem_probe(u8 *pool, size_t n, double *rd, double *wr, double *wr_nt)
{
	double r[3][5], t;
	u64 sink = 0;
	int i, w;

	for (i = 0; i < 5; i++)
		for (w = 0; w < 3; w++) {
			t = cpu_now();
			if (!w)
				sink += probe_read(pool, n);
			else
				probe_write(pool, n, w == 2);
			r[w][i] = n / (cpu_now() - t) / 1e9;
		}
	if (sink == 1)		/* keep the reads */
		printf("#\n");
	for (w = 0; w < 3; w++)
		qsort(r[w], 5, sizeof(r[w][0]), cmp_dbl);
	*rd = r[0][2];
	*wr = r[1][2];
	*wr_nt = r[2][2];
}
