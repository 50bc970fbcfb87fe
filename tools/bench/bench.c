// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma `make bench`: ecdma's GF(2^8) kernels (drivers/ecdma, built in
 * userspace exactly as in the module: -O2, SIMD only in functions with
 * their own target attributes) against ISA-L, the kernel's lib/raid6 and
 * xor_avx template (built in userspace from linux-source) and a memory
 * bandwidth probe, in one run, pinned to one CPU.
 *
 * Every implementation is checked bit-exact against a byte-at-a-time
 * reference (and ISA-L against the same reference) on the exact buffers
 * before it is timed; a mismatch aborts.
 *
 * Throughput is data bytes per second (k * block for encode, P+Q, XOR,
 * decode and recovery; one block for update), median of REPS repeats.
 *
 * Scaling: the best algo on n = 1 .. ncpu threads, each pinned to its own
 * CPU with its own stripes, as the engine runs one worker per CPU.
 *
 * Usage: bench [-q] [outdir]   (-q: quick, for smoke tests)
 * Environment: BENCH_CPU (first CPU, default 0), BENCH_ONLY (comma-separated
 * ops, e.g. "pq,xor,scaling").
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <immintrin.h>

#include <isa-l/erasure_code.h>
#include <isa-l/raid.h>

#include "gf.h"
#include "gf_algo.h"

#include "peers.h"

#define MAXK	12
#define MAXM	4
#define REPS	5
#define POOL	(512UL << 20)

static int quick;
static double min_t_hot = 0.010, min_t_cold = 0.020;
static FILE *csv;
static u8 *pool, *hotbuf;
static double rd_bw, wr_bw, wr_nt_bw;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "bench: FATAL: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

static void *xalloc(size_t n)
{
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap %zu: %s", n, strerror(errno));
	madvise(p, n, MADV_HUGEPAGE);
	return p;
}

static uint64_t rs = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return rs;
}

static void fill(u8 *p, size_t n)
{
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		uint64_t r = rnd();

		memcpy(p + i, &r, 8);
	}
	for (; i < n; i++)
		p[i] = rnd();
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* ---------------------------------------------------------------------- */
/* Memory bandwidth probe                                                 */
/* ---------------------------------------------------------------------- */

static uint64_t probe_read(const u8 *p, size_t n)
{
	__m512i a = _mm512_setzero_si512(), b = a, c = a, d = a;
	size_t i;

	for (i = 0; i < n; i += 256) {
		a = _mm512_xor_si512(a, _mm512_load_si512(p + i));
		b = _mm512_xor_si512(b, _mm512_load_si512(p + i + 64));
		c = _mm512_xor_si512(c, _mm512_load_si512(p + i + 128));
		d = _mm512_xor_si512(d, _mm512_load_si512(p + i + 192));
	}
	a = _mm512_xor_si512(_mm512_xor_si512(a, b), _mm512_xor_si512(c, d));
	return _mm512_reduce_add_epi64(a);
}

static void probe_write(u8 *p, size_t n, int nt)
{
	__m512i v = _mm512_set1_epi8(0x5a);
	size_t i;

	if (nt) {
		for (i = 0; i < n; i += 64)
			_mm512_stream_si512((void *)(p + i), v);
		_mm_sfence();
	} else {
		for (i = 0; i < n; i += 64)
			_mm512_store_si512(p + i, v);
	}
}

static double probe(int what)
{
	double r[REPS], t;
	size_t n = quick ? POOL / 4 : POOL;
	uint64_t sink = 0;
	int i;

	for (i = 0; i < REPS; i++) {
		t = now();
		if (what == 0)
			sink += probe_read(pool, n);
		else
			probe_write(pool, n, what == 2);
		r[i] = n / (now() - t) / 1e9;
	}
	if (sink == 1)		/* keep the reads */
		printf("#\n");
	qsort(r, REPS, sizeof(r[0]), cmp_dbl);
	return r[REPS / 2];
}

/* ---------------------------------------------------------------------- */
/* Cells                                                                  */
/* ---------------------------------------------------------------------- */

enum op { OP_ENC, OP_PQ, OP_XOR, OP_DEC, OP_UPD, OP_REC, OP_SP, OP_MULT,
	  OP_NR };
static const char *const op_name[OP_NR] = {
	"encode", "pq", "xor", "decode", "update", "recov2", "sumprod", "mult",
};

/*
 * A configuration: nin inputs and nout outputs per stripe (buffers in that
 * order in the stripe), coefficient matrix coef[i * nout + j].
 */
struct cfg {
	enum op op;
	int k, m, e;		/* code shape; e: erasures (decode) */
	int nin, nout;
	u8 coef[(MAXK + MAXM) * MAXM * 2];
	u8 isal_tbls[MAXK * MAXM * 32 * 2];
	u8 isal_mat[(MAXK + MAXM) * MAXK];	/* ISA-L rows, k columns */
	int fa, fb;		/* recovery: failed data disks */
	int upd;		/* update: which data block changed */
	size_t B;
	int cold;
	/* per stripe: pointers */
	u8 *in[MAXK + MAXM + 2], *out[MAXM + 2];
};

struct impl;
typedef void (*run_fn)(const struct impl *im, struct cfg *c);
typedef int (*ok_fn)(const struct impl *im, const struct cfg *c);

struct impl {
	const char *name;
	const char *peer;	/* NULL: ours */
	run_fn run;
	ok_fn ok;
	const void *p;		/* algo, raid6 calls, ISA-L function */
	u8 *tbls;		/* prepared tables for the current cfg */
	int stores;		/* ours: STORES_* */
};

/*
 * Ours run with the engine's store policy (ecdma_gf_flags(): NT stores for
 * blocks of at least ECDMA_GF_NT_MIN_DEFAULT, the CPU provider's default
 * nt_threshold, unless accumulating), or with one kind of store forced, to
 * show what the policy buys.
 */
enum { STORES_POLICY, STORES_REGULAR, STORES_NT };

/* ---------- ours ---------- */

static void ours_prep(struct impl *im, const struct cfg *c)
{
	const struct ecdma_gf_algo *a = im->p;

	free(im->tbls);
	im->tbls = aligned_alloc(64, 64 + (size_t)a->tbl_bytes * c->nin *
				 c->nout);
	a->prep(c->coef, c->nin, c->nout, im->tbls);
}

static void ours_run(const struct impl *im, struct cfg *c)
{
	const struct ecdma_gf_algo *a = im->p;

	unsigned int flags;

	if (im->stores == STORES_POLICY)	/* as the executor does */
		flags = ecdma_gf_flags(c->B, c->op == OP_UPD,
				       ECDMA_GF_NT_MIN_DEFAULT, NULL, 0);
	else
		flags = (c->op == OP_UPD ? ECDMA_GF_ACC : 0) |
			(im->stores == STORES_NT ? ECDMA_GF_NT : 0);
	if (c->op == OP_XOR)
		a->xor(c->B, c->nin, (const u8 *const *)c->in, c->out[0],
		       flags);
	else
		a->encode(c->B, c->nin, c->nout, im->tbls,
			  (const u8 *const *)c->in, c->out, flags);
}

/* ---------- ISA-L ---------- */

typedef void (*isal_enc_fn)(int, int, int, unsigned char *,
			    unsigned char **, unsigned char **);
typedef void (*isal_upd_fn)(int, int, int, int, unsigned char *,
			    unsigned char *, unsigned char **);
typedef int (*isal_gen_fn)(int, int, void **);

static void isal_enc_run(const struct impl *im, struct cfg *c)
{
	((isal_enc_fn)im->p)(c->B, c->nin, c->nout, c->isal_tbls, c->in,
			     c->out);
}

/* update: old and new data each folded into the parities (mad shape) */
static void isal_upd_run(const struct impl *im, struct cfg *c)
{
	isal_upd_fn f = (isal_upd_fn)im->p;

	f(c->B, c->k, c->m, c->upd, c->isal_tbls, c->in[0], c->out);
	f(c->B, c->k, c->m, c->upd, c->isal_tbls, c->in[1], c->out);
}

static void isal_pq_run(const struct impl *im, struct cfg *c)
{
	void *v[MAXK + 2];
	int i;

	for (i = 0; i < c->nin; i++)
		v[i] = c->in[i];
	v[c->nin] = c->out[0];
	v[c->nin + 1] = c->out[1];
	((isal_gen_fn)im->p)(c->nin + c->nout, c->B, v);
}

/* ---------- lib/raid6 ---------- */

static void raid6_gen_run(const struct impl *im, struct cfg *c)
{
	const struct raid6_calls *r = im->p;
	void *v[MAXK + 2];
	int i;

	for (i = 0; i < c->nin; i++)
		v[i] = c->in[i];
	v[c->nin] = c->out[0];
	v[c->nin + 1] = c->out[1];
	r->gen_syndrome(c->nin + 2, c->B, v);
}

/* disks: k data (failed ones are the two outputs), P, Q */
static void recov_ptrs(const struct cfg *c, void **v)
{
	int i, s = 0;

	for (i = 0; i < c->k; i++)
		v[i] = i == c->fa ? c->out[0] : i == c->fb ? c->out[1] :
		       c->in[s++];
	v[c->k] = c->in[c->k - 2];
	v[c->k + 1] = c->in[c->k - 1];
}

static void raid6_rec_run(const struct impl *im, struct cfg *c)
{
	const struct raid6_recov_calls *r = im->p;
	void *v[MAXK + 2];

	size_t off;
	int i;

	/* md calls it per page: it uses a PAGE_SIZE zero page inside */
	for (off = 0; off < c->B; off += 4096) {
		recov_ptrs(c, v);
		for (i = 0; i < c->k + 2; i++)
			v[i] = (u8 *)v[i] + off;
		r->data2(c->k + 2, 4096, c->fa, c->fb, v);
	}
}

/*
 * async_raid6_2data_recov through a DMA_PQ channel whose sum_product falls
 * back to software: gen_syndrome with the failed pages as P'/Q', two XORs,
 * the scalar async_sum_product loop, one XOR.
 */
static void async_rec_run(const struct impl *im, struct cfg *c)
{
	void *v[MAXK + 2], *s[2];
	u8 *p, *q, *dp, *dq;
	const u8 *amul, *bmul;
	size_t n;

	recov_ptrs(c, v);
	p = v[c->k];
	q = v[c->k + 1];
	dp = v[c->fa];
	dq = v[c->fb];
	v[c->fa] = (void *)(c->in[c->k]);	/* zero page */
	v[c->fb] = (void *)(c->in[c->k]);
	v[c->k] = dp;
	v[c->k + 1] = dq;
	raid6_call.gen_syndrome(c->k + 2, c->B, v);
	s[0] = p;
	kxor_avx(1, c->B, dp, s);
	s[0] = q;
	kxor_avx(1, c->B, dq, s);
	amul = raid6_gfmul[raid6_gfexi[c->fb - c->fa]];
	bmul = raid6_gfmul[raid6_gfinv[raid6_gfexp[c->fa] ^
				       raid6_gfexp[c->fb]]];
	for (n = 0; n < c->B; n++)
		dq[n] = amul[dp[n]] ^ bmul[dq[n]];	/* Db */
	s[0] = dq;
	kxor_avx(1, c->B, dp, s);			/* Da */
}

/*
 * The synchronous fallbacks of async_sum_product() and async_mult(): the
 * 1- and 2-source recovery products async_raid6_recov asks a DMA_PQ
 * channel for, computed with raid6_gfmul lookups byte by byte.
 */
static void async_sp_run(const struct impl *im, struct cfg *c)
{
	const u8 *amul = raid6_gfmul[c->coef[0]], *bmul = raid6_gfmul[c->coef[1]];
	const u8 *a = c->in[0], *b = c->in[1];
	u8 *o = c->out[0];
	size_t n;

	for (n = 0; n < c->B; n++)
		o[n] = amul[a[n]] ^ bmul[b[n]];
}

static void async_mult_run(const struct impl *im, struct cfg *c)
{
	const u8 *qmul = raid6_gfmul[c->coef[0]], *a = c->in[0];
	u8 *o = c->out[0];
	size_t n;

	for (n = 0; n < c->B; n++)
		o[n] = qmul[a[n]];
}

/* ---------- XOR peers ---------- */

static void isal_xor_run(const struct impl *im, struct cfg *c)
{
	void *v[MAXK + 1];
	int i;

	for (i = 0; i < c->nin; i++)
		v[i] = c->in[i];
	v[c->nin] = c->out[0];
	((isal_gen_fn)im->p)(c->nin + 1, c->B, v);
}

/* async_xor's synchronous path: memset, then <= 4 sources per pass */
static void kxor_run(const struct impl *im, struct cfg *c)
{
	int s;

	memset(c->out[0], 0, c->B);
	for (s = 0; s < c->nin; s += 4)
		kxor_avx(c->nin - s < 4 ? c->nin - s : 4, c->B, c->out[0],
			 (void **)c->in + s);
}

/* ---------------------------------------------------------------------- */
/* Reference and verification                                             */
/* ---------------------------------------------------------------------- */

static u8 mul_tbl[256][256];
static u8 *ref_out[MAXM + 2];

static void ref_run(const struct cfg *c, u8 **outs)
{
	size_t p;
	int i, j;

	for (j = 0; j < c->nout; j++) {
		u8 *o = outs[j];

		if (c->op == OP_UPD)
			memcpy(o, c->out[j], c->B);
		else
			memset(o, 0, c->B);
		for (i = 0; i < c->nin; i++) {
			const u8 *t = mul_tbl[c->coef[i * c->nout + j]];
			const u8 *s = c->in[i];

			for (p = 0; p < c->B; p++)
				o[p] ^= t[s[p]];
		}
	}
}

/* ---------------------------------------------------------------------- */
/* Stripes and timing                                                     */
/* ---------------------------------------------------------------------- */

static size_t nblocks(const struct cfg *c)
{
	return c->nin + c->nout;
}

/* point c->in/out at stripe s of the pool (cold) or the hot buffer */
static void stripe(struct cfg *c, size_t s)
{
	size_t n = nblocks(c), i;
	u8 *base = c->cold ? pool + s * (n + 1) * c->B : hotbuf;

	for (i = 0; i < (size_t)c->nin; i++)
		c->in[i] = base + i * c->B;
	for (i = 0; i < (size_t)c->nout; i++)
		c->out[i] = base + (c->nin + i) * c->B;
	if (c->op == OP_REC)	/* the zero page async recovery uses */
		c->in[c->k] = base + n * c->B;
}

static double data_bytes(const struct cfg *c)
{
	switch (c->op) {
	case OP_UPD:
		return c->B;
	case OP_DEC:
	case OP_REC:
		return (double)c->k * c->B;
	default:
		return (double)c->nin * c->B;
	}
}

/* memory-bound limit, GB/s of data: reads at rd_bw, writes at wr_bw */
static double mem_limit(const struct cfg *c)
{
	double r = (double)c->nin * c->B, w = (double)c->nout * c->B;

	if (c->op == OP_UPD)
		r += w;		/* parities are read too */
	return data_bytes(c) / (r / (rd_bw * 1e9) + w / (wr_bw * 1e9)) / 1e9;
}

static void time_impl(const struct impl *im, struct cfg *c, double *med,
		      double *best)
{
	double r[REPS], t0, t, min_t = c->cold ? min_t_cold : min_t_hot;
	size_t nstr = c->cold ? POOL / ((nblocks(c) + 1) * c->B) : 1, s = 0;
	long it;
	int rep;

	for (rep = 0; rep < REPS; rep++) {
		it = 0;
		t0 = now();
		do {
			int b;

			for (b = 0; b < 4; b++) {
				if (c->cold) {
					stripe(c, s);
					s = s + 1 == nstr ? 0 : s + 1;
				}
				im->run(im, c);
				it++;
			}
			t = now() - t0;
		} while (t < min_t);
		r[rep] = data_bytes(c) * it / t / 1e9;
	}
	qsort(r, REPS, sizeof(r[0]), cmp_dbl);
	*med = r[REPS / 2];
	*best = r[REPS - 1];
}

/* ---------------------------------------------------------------------- */
/* Results                                                                */
/* ---------------------------------------------------------------------- */

struct result {
	enum op op;
	int k, m, e;
	size_t B;
	int cold;
	const char *impl;
	const char *peer;
	double med, best, limit;
};

static struct result *res;
static int nres, cres;

static void record(const struct cfg *c, const struct impl *im, double med,
		   double best)
{
	struct result *r;
	char blk[32];
	double lim = mem_limit(c);

	if (nres == cres) {
		cres = cres ? 2 * cres : 1024;
		res = realloc(res, cres * sizeof(*res));
	}
	r = &res[nres++];
	*r = (struct result){ c->op, c->k, c->m, c->e, c->B, c->cold,
			      im->name, im->peer, med, best, lim };
	snprintf(blk, sizeof(blk), "%zuK", c->B >> 10);
	printf("%-7s k=%2d m=%d e=%d %6s %-4s %-34s %8.2f %8.2f GB/s",
	       op_name[c->op], c->k, c->m, c->e, blk,
	       c->cold ? "cold" : "hot", im->name, med, best);
	if (c->cold)
		printf("  (%3.0f%% of mem limit %.1f)", 100 * med / lim, lim);
	printf("\n");
	fflush(stdout);
	fprintf(csv, "%s,%d,%d,%d,%zu,%s,%s,%s,%.3f,%.3f,%.3f,%.1f\n",
		op_name[c->op], c->k, c->m, c->e, c->B,
		c->cold ? "cold" : "hot", im->name, im->peer ? "peer" : "ours",
		med, best, lim, 100 * med / lim);
}

/* ---------------------------------------------------------------------- */
/* Configurations                                                         */
/* ---------------------------------------------------------------------- */

static u8 isal_full[(MAXK + MAXM) * MAXK];

static void cfg_encode(struct cfg *c, int k, int m)
{
	int i, j;

	memset(c, 0, sizeof(*c));
	c->op = OP_ENC;
	c->k = k;
	c->m = m;
	c->nin = k;
	c->nout = m;
	gf_gen_cauchy1_matrix(isal_full, k + m, k);
	for (j = 0; j < m; j++)
		for (i = 0; i < k; i++)
			c->coef[i * m + j] = isal_full[(k + j) * k + i];
	ec_init_tables(k, m, isal_full + k * k, c->isal_tbls);
}

static void cfg_pq(struct cfg *c, int k, enum op op)
{
	int i;

	memset(c, 0, sizeof(*c));
	c->op = op;
	c->k = k;
	c->m = op == OP_XOR ? 1 : 2;
	c->nin = k;
	c->nout = c->m;
	for (i = 0; i < k; i++) {
		c->coef[i * c->m] = 1;
		if (op == OP_PQ)
			c->coef[i * 2 + 1] = ecdma_gf_pow2(i);
	}
}

/* decode e erased data blocks 0..e-1 of RS(k,m) from the next k blocks */
static void cfg_decode(struct cfg *c, int k, int m, int e)
{
	u8 b[MAXK * MAXK], d[MAXK * MAXK], dm[MAXM * MAXK];
	int i, j;

	cfg_encode(c, k, m);
	c->op = OP_DEC;
	c->e = e;
	c->nin = k;
	c->nout = e;
	for (i = 0; i < k; i++)		/* survivors: blocks e .. e+k-1 */
		memcpy(b + i * k, isal_full + (e + i) * k, k);
	if (gf_invert_matrix(b, d, k))
		die("singular decode matrix");
	for (j = 0; j < e; j++)
		for (i = 0; i < k; i++) {
			dm[j * k + i] = d[j * k + i];
			c->coef[i * e + j] = d[j * k + i];
		}
	ec_init_tables(k, e, dm, c->isal_tbls);
}

/* update of data block u of RS(k,m): inputs old, new; outputs parities */
static void cfg_update(struct cfg *c, int k, int m)
{
	int j;

	cfg_encode(c, k, m);
	c->op = OP_UPD;
	c->upd = k / 2;
	c->nin = 2;
	for (j = 0; j < m; j++) {
		c->coef[j] = isal_full[(k + j) * k + c->upd];
		c->coef[m + j] = c->coef[j];
	}
}

/* recovery products: 2 sources (sum_product) or 1 (mult), as async_tx */
static void cfg_product(struct cfg *c, enum op op)
{
	int fa = 1, fb = 3;

	memset(c, 0, sizeof(*c));
	c->op = op;
	c->k = op == OP_SP ? 2 : 1;
	c->m = 1;
	c->nin = c->k;
	c->nout = 1;
	c->coef[0] = raid6_gfexi[fb - fa];
	c->coef[1] = raid6_gfinv[raid6_gfexp[fa] ^ raid6_gfexp[fb]];
	if (op == OP_MULT)
		c->coef[0] = raid6_gfinv[raid6_gfexp[fa]];
}

/*
 * RAID-6 with k data disks, data disks fa < fb lost: 2 outputs from the
 * k - 2 surviving data blocks, P and Q (in that order).
 */
static void cfg_recov(struct cfg *c, int k)
{
	u8 g[(MAXK + 2) * MAXK], b[MAXK * MAXK], d[MAXK * MAXK];
	int i, j, r = 0;

	memset(c, 0, sizeof(*c));
	c->op = OP_REC;
	c->k = k;
	c->m = 2;
	c->e = 2;
	c->nin = k;
	c->nout = 2;
	c->fa = 1;
	c->fb = k / 2 + 1;
	memset(g, 0, sizeof(g));
	for (i = 0; i < k; i++) {
		g[i * k + i] = 1;
		g[k * k + i] = 1;
		g[(k + 1) * k + i] = ecdma_gf_pow2(i);
	}
	for (i = 0; i < k + 2; i++)
		if (i != c->fa && i != c->fb)
			memcpy(b + r++ * k, g + i * k, k);
	if (gf_invert_matrix(b, d, k))
		die("singular recovery matrix");
	for (j = 0; j < 2; j++)
		for (i = 0; i < k; i++)
			c->coef[i * 2 + j] = d[(j ? c->fb : c->fa) * k + i];
}

/* ---------------------------------------------------------------------- */

static struct impl ours[8];
static int nours;

/* our impl of algo @name; falls back to the best one */
static struct impl *our(const char *name)
{
	int i;

	for (i = 0; i < nours; i++)
		if (!strcmp(((const struct ecdma_gf_algo *)ours[i].p)->name,
			    name))
			return &ours[i];
	return &ours[0];
}

static const struct ecdma_gf_algo *best_algo;
static const char *only;	/* BENCH_ONLY: comma-separated ops */

static int want(enum op op)
{
	const char *p = only;
	size_t n = strlen(op_name[op]);

	if (!p)
		return 1;
	while ((p = strstr(p, op_name[op]))) {
		if ((p == only || p[-1] == ',') && (!p[n] || p[n] == ','))
			return 1;
		p += n;
	}
	return 0;
}

/* the best algo with each kind of store forced, next to the policy */
static void add_variants(struct impl *ims, int *n)
{
	static const struct { int stores; const char *s; } v[] = {
		{ STORES_REGULAR, "regular stores" },
		{ STORES_NT, "nt stores" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		char *nm;

		if (asprintf(&nm, "ecdma %s %s", best_algo->name, v[i].s) < 0)
			die("oom");
		ims[*n] = ours[0];
		ims[*n].name = nm;
		ims[*n].stores = v[i].stores;
		++*n;
	}
}

static void add_ours(void)
{
	static const char *const names[] = { "avx512-gfni", "avx2-gfni", "avx512", "avx2",
				"generic" };
	size_t i;

	best_algo = ecdma_gf_algo_find(NULL);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		const struct ecdma_gf_algo *a = ecdma_gf_algo_find(names[i]);
		char *n;

		if (!a)
			continue;
		if (asprintf(&n, "ecdma %s%s", a->name,
			     a == best_algo ? " (best)" : "") < 0)
			die("oom");
		ours[nours++] = (struct impl){ n, NULL, ours_run, NULL, a };
	}
}

/*
 * Set up the stripe data (identical in every stripe of the pool would be
 * cheating the caches: the pool is filled with random data once).  For
 * outputs that are real data (decode, recovery), the expected result is
 * the original data; make the inputs consistent with it.
 */
static void make_consistent(struct cfg *c)
{
	u8 *tmp[MAXM + 2];
	int i;

	stripe(c, 0);
	if (c->op == OP_DEC) {
		/* blocks: data e..k-1 then parities; fill data 0..k-1 */
		struct cfg enc;
		u8 *data[MAXK], *par[MAXM];

		cfg_encode(&enc, c->k, c->m);
		for (i = 0; i < c->k; i++)
			data[i] = malloc(c->B);
		for (i = 0; i < c->m; i++)
			par[i] = malloc(c->B);
		for (i = 0; i < c->k; i++)
			fill(data[i], c->B);
		ec_encode_data_base(c->B, c->k, c->m, enc.isal_tbls, data,
				    par);
		for (i = 0; i < c->k; i++)	/* survivors */
			memcpy(c->in[i], i + c->e < c->k ? data[i + c->e] :
			       par[i + c->e - c->k], c->B);
		for (i = 0; i < c->e; i++)	/* expected */
			memcpy(ref_out[i], data[i], c->B);
		for (i = 0; i < c->k; i++)
			free(data[i]);
		for (i = 0; i < c->m; i++)
			free(par[i]);
		return;
	}
	if (c->op == OP_REC) {
		u8 *data[MAXK + 2];
		int s = 0;

		for (i = 0; i < c->k + 2; i++) {
			data[i] = malloc(c->B);
			if (i < c->k)
				fill(data[i], c->B);
		}
		memset(data[c->k], 0, c->B);
		memset(data[c->k + 1], 0, c->B);
		for (i = 0; i < c->k; i++) {
			size_t p;
			u8 g = ecdma_gf_pow2(i);

			for (p = 0; p < c->B; p++) {
				data[c->k][p] ^= data[i][p];
				data[c->k + 1][p] ^= mul_tbl[g][data[i][p]];
			}
		}
		for (i = 0; i < c->k; i++)
			if (i != c->fa && i != c->fb)
				memcpy(c->in[s++], data[i], c->B);
		memcpy(c->in[c->k - 2], data[c->k], c->B);
		memcpy(c->in[c->k - 1], data[c->k + 1], c->B);
		memset(c->in[c->k], 0, c->B);
		memcpy(ref_out[0], data[c->fa], c->B);
		memcpy(ref_out[1], data[c->fb], c->B);
		for (i = 0; i < c->k + 2; i++)
			free(data[i]);
		return;
	}
	for (i = 0; i < c->nout; i++)
		tmp[i] = ref_out[i];
	ref_run(c, tmp);
}

static void verify(const struct impl *im, struct cfg *c)
{
	u8 *save[MAXM + 2];
	int j;

	stripe(c, 0);
	for (j = 0; j < c->nout; j++) {
		save[j] = malloc(c->B);
		memcpy(save[j], c->out[j], c->B);	/* update starts here */
	}
	im->run(im, c);
	for (j = 0; j < c->nout; j++)
		if (memcmp(c->out[j], ref_out[j], c->B))
			die("%s: %s k=%d m=%d e=%d B=%zu: output %d differs from the reference",
			    im->name, op_name[c->op], c->k, c->m, c->e, c->B,
			    j);
	for (j = 0; j < c->nout; j++) {
		memcpy(c->out[j], save[j], c->B);
		free(save[j]);
	}
}

static void run_cell(struct cfg *c, struct impl *ims, int n)
{
	double med, best;
	int i, t;

	for (i = 0; i < n; i++) {
		if (!ims[i].peer)
			ours_prep(&ims[i], c);
		c->cold = 0;
		verify(&ims[i], c);
	}
	for (t = 0; t < 2; t++) {
		c->cold = t;
		for (i = 0; i < n; i++) {
			time_impl(&ims[i], c, &med, &best);
			record(c, &ims[i], med, best);
		}
	}
	c->cold = 0;
}

/* the hot stripe holds reference-consistent data; pool stays random */
static void setup_cell(struct cfg *c)
{
	c->cold = 0;
	make_consistent(c);
}

/* ---------------------------------------------------------------------- */
/* The matrix: who is timed in which cell                                 */
/* ---------------------------------------------------------------------- */

#define PEER(name, kind, fn, p) { name, kind, fn, NULL, (const void *)(p) }

static const struct impl enc_peers[] = {
	PEER("isal ec_encode_data", "isal", isal_enc_run, ec_encode_data),
	PEER("isal ec_encode_data_avx512", "isal-avx512", isal_enc_run,
	     ec_encode_data_avx512),
	PEER("isal ec_encode_data_avx2", "isal-avx2", isal_enc_run,
	     ec_encode_data_avx2),
	{ }
};

static const struct impl pq_peers[] = {
	PEER("isal pq_gen", "isal", isal_pq_run, pq_gen),
	PEER("isal pq_gen_avx512", "isal-avx512", isal_pq_run, pq_gen_avx512),
	PEER("isal pq_gen_avx2", "isal-avx2", isal_pq_run, pq_gen_avx2),
	PEER("lib/raid6 avx512x4", "raid6-avx512x4", raid6_gen_run,
	     &raid6_avx512x4),
	PEER("lib/raid6 avx512x2", "raid6-avx512x2", raid6_gen_run,
	     &raid6_avx512x2),
	PEER("lib/raid6 avx2x4", "raid6-avx2x4", raid6_gen_run, &raid6_avx2x4),
	{ }
};

static const struct impl xor_peers[] = {
	PEER("isal xor_gen", "isal", isal_xor_run, xor_gen),
	PEER("isal xor_gen_avx512", "isal-avx512", isal_xor_run,
	     xor_gen_avx512),
	PEER("kernel xor_avx (async_xor sync)", "xor_avx", kxor_run, NULL),
	{ }
};

static const struct impl dec_peers[] = {
	PEER("isal ec_encode_data", "isal", isal_enc_run, ec_encode_data),
	{ }
};

static const struct impl upd_peers[] = {
	PEER("isal ec_encode_data_update", "isal", isal_upd_run,
	     ec_encode_data_update),
	{ }
};

static const struct impl rec_peers[] = {
	PEER("lib/raid6 recov_avx512", "raid6-recov-avx512", raid6_rec_run,
	     &raid6_recov_avx512),
	PEER("lib/raid6 recov_avx2", "raid6-recov-avx2", raid6_rec_run,
	     &raid6_recov_avx2),
	PEER("async_tx scalar fallback", "async-scalar", async_rec_run, NULL),
	{ }
};

static const struct impl sp_peers[] = {
	PEER("async_sum_product scalar", "async-scalar", async_sp_run, NULL),
	{ }
};

static const struct impl mult_peers[] = {
	PEER("async_mult scalar", "async-scalar", async_mult_run, NULL),
	{ }
};

/* which of ours time_cell() runs besides the best algo */
#define C_ALGOS		0x1	/* every algo */
#define C_STORES	0x2	/* the best with each kind of store forced */
#define C_AVX2		0x4	/* the avx2 algo */

/*
 * Verify and time cell @c with blocks of @B bytes against @peers (ended by
 * an empty entry), unless BENCH_ONLY skips it.
 */
static void time_cell(struct cfg *c, size_t B, unsigned int which,
		      const struct impl *peers)
{
	struct impl ims[32];
	size_t i;
	int n = 0;

	if (!want(c->op))
		return;
	for (i = 0; i < (which & C_ALGOS ? (size_t)nours : 1); i++)
		ims[n++] = ours[i];
	if (which & C_STORES)
		add_variants(ims, &n);
	if (which & C_AVX2)
		ims[n++] = *our("avx2");
	for (; peers->name; peers++)
		ims[n++] = *peers;
	c->B = B;
	setup_cell(c);
	run_cell(c, ims, n);
}

/* ---------------------------------------------------------------------- */
/* Scaling over CPUs                                                      */
/* ---------------------------------------------------------------------- */

#define SC_MAXT	8

struct sc_thread {
	pthread_t tid;
	int cpu;
	struct cfg c;		/* own copy: own stripe pointers */
	struct impl im;
	u8 *base;		/* own part of the pool (cold) or own stripe */
	size_t nstr;
	long iters;
	double secs;
};

static pthread_barrier_t sc_bar;
static double sc_time;

static void *sc_run(void *arg)
{
	struct sc_thread *t = arg;
	size_t n = nblocks(&t->c), s = 0, i;
	cpu_set_t set;
	double t0;

	CPU_ZERO(&set);
	CPU_SET(t->cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		die("pthread_setaffinity_np(%d)", t->cpu);
	pthread_barrier_wait(&sc_bar);
	t0 = now();
	do {
		u8 *b = t->base + s * (n + 1) * t->c.B;

		for (i = 0; i < (size_t)t->c.nin; i++)
			t->c.in[i] = b + i * t->c.B;
		for (i = 0; i < (size_t)t->c.nout; i++)
			t->c.out[i] = b + (t->c.nin + i) * t->c.B;
		s = s + 1 == t->nstr ? 0 : s + 1;
		t->im.run(&t->im, &t->c);
		t->iters++;
	} while ((t->iters & 7) || now() - t0 < sc_time);
	t->secs = now() - t0;
	return NULL;
}

/* @nt threads on CPUs cpu0.. running cell @c (B, cold set) with @im */
static double sc_point(const struct cfg *c, const struct impl *im, int nt,
		       const int *cpus)
{
	struct sc_thread th[SC_MAXT];
	size_t per = (nblocks(c) + 1) * c->B;
	double bytes = 0, secs = 0;
	int i;

	pthread_barrier_init(&sc_bar, NULL, nt);
	for (i = 0; i < nt; i++) {
		th[i] = (struct sc_thread){ .cpu = cpus[i], .c = *c,
					    .im = *im };
		if (c->cold) {
			th[i].nstr = POOL / nt / per;
			th[i].base = pool + (size_t)i * (POOL / nt);
		} else {
			/* own pages, filled: not the shared zero page */
			th[i].nstr = 1;
			th[i].base = xalloc(per);
			fill(th[i].base, per);
		}
		if (pthread_create(&th[i].tid, NULL, sc_run, &th[i]))
			die("pthread_create");
	}
	for (i = 0; i < nt; i++) {
		pthread_join(th[i].tid, NULL);
		bytes += data_bytes(c) * th[i].iters;
		secs = th[i].secs > secs ? th[i].secs : secs;
		if (!c->cold)
			munmap(th[i].base, per);
	}
	pthread_barrier_destroy(&sc_bar);
	return bytes / secs / 1e9;
}

static void sc_report(const struct cfg *c, int n, double g, double one)
{
	const char *cache = c->cold ? "cold" : "hot";

	printf("scaling %-6s k=%2d m=%d %6zuK %-4s threads=%d %8.2f GB/s",
	       op_name[c->op], c->k, c->m, c->B >> 10, cache, n, g);
	printf("  (%.2fx of 1 thread, %3.0f%% efficiency)\n", g / one,
	       100 * g / (one * n));
	fprintf(csv, "scaling-%s,%d,%d,%d,%zu,%s,threads=%d,ours,%.3f,%.3f,0,0\n",
		op_name[c->op], c->k, c->m, n, c->B, cache, n, g, g);
}

static void run_scaling(void)
{
	static const struct { enum op op; int k; size_t B; } cells[] = {
		{ OP_PQ, 10, 4096 }, { OP_ENC, 10, 65536 },
		{ OP_ENC, 10, 1 << 20 }, { OP_XOR, 10, 4096 },
	};
	int cpus[SC_MAXT], ncpu = 0, cpu, ci, cold, n;
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		die("sched_getaffinity");
	/* the bench itself ran pinned: widen to every CPU the process may use */
	for (cpu = 0; cpu < CPU_SETSIZE && ncpu < SC_MAXT; cpu++)
		if (CPU_ISSET(cpu, &set))
			cpus[ncpu++] = cpu;
	sc_time = quick ? 0.05 : 0.2;
	printf("# scaling: best algo, engine store policy, 1..%d threads, one per CPU\n",
	       ncpu);
	for (ci = 0; ci < (int)ARRAY_SIZE(cells); ci++) {
		struct cfg c;
		struct impl im = ours[0];
		double one = 0;

		if (cells[ci].op == OP_ENC)
			cfg_encode(&c, cells[ci].k, 4);
		else
			cfg_pq(&c, cells[ci].k, cells[ci].op);
		c.B = cells[ci].B;
		im.tbls = NULL;
		ours_prep(&im, &c);
		for (cold = 0; cold < 2; cold++) {
			c.cold = cold;
			for (n = 1; n <= ncpu; n++) {
				double r[3], g;
				int rep;

				/* median of 3: one slow moment skews a point */
				for (rep = 0; rep < 3; rep++)
					r[rep] = sc_point(&c, &im, n, cpus);
				qsort(r, 3, sizeof(r[0]), cmp_dbl);
				g = r[1];

				if (n == 1)
					one = g;
				sc_report(&c, n, g, one);
			}
		}
		free(im.tbls);
	}
}

int main(int argc, char **argv)
{
	static const int ks[] = { 4, 6, 10, 12 };
	static const size_t bs[] = { 4096, 65536, 1 << 20 };
	const char *outdir = "build/bench";
	struct cfg c;
	cpu_set_t set;
	char path[512];
	double t_start = now();
	int a, ki, m, bi, e, i, cpu = 0;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "-q"))
			quick = 1;
		else
			outdir = argv[a];
	}
	if (getenv("BENCH_CPU"))
		cpu = atoi(getenv("BENCH_CPU"));
	only = getenv("BENCH_ONLY");
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity(%d): %s", cpu, strerror(errno));
	if (quick) {
		min_t_hot = 0.002;
		min_t_cold = 0.004;
	}
	snprintf(path, sizeof(path), "%s/bench.csv", outdir);
	csv = fopen(path, "w");
	if (!csv)
		die("%s: %s", path, strerror(errno));
	fprintf(csv, "op,k,m,e,block,cache,impl,kind,median_gbps,best_gbps,%s\n",
		"mem_limit_gbps,pct_of_limit");

	for (a = 0; a < 256; a++)
		for (i = 0; i < 256; i++)
			mul_tbl[a][i] = ecdma_gf_mul(a, i);
	pool = xalloc(POOL);
	hotbuf = xalloc(32 << 20);
	fill(pool, POOL);
	fill(hotbuf, 32 << 20);
	for (i = 0; i < MAXM + 2; i++)
		ref_out[i] = malloc(1 << 20);

	rd_bw = probe(0);
	wr_bw = probe(1);
	wr_nt_bw = probe(2);
	fill(pool, POOL);
	printf("# pinned to CPU %d; %d repeats, median; GB/s of data (1e9 B/s)\n",
	       cpu, REPS);
	printf("# memory probe: read %.2f GB/s, write %.2f GB/s (regular), %.2f GB/s (NT)\n",
	       rd_bw, wr_bw, wr_nt_bw);
	printf("# mem limit = data / (reads / read_bw + writes / write_bw)\n");
	fprintf(csv, "membw,0,0,0,%zu,cold,read,probe,%.3f,%.3f,0,0\n", POOL,
		rd_bw, rd_bw);
	fprintf(csv, "membw,0,0,0,%zu,cold,write,probe,%.3f,%.3f,0,0\n", POOL,
		wr_bw, wr_bw);
	fprintf(csv, "membw,0,0,0,%zu,cold,write-nt,probe,%.3f,%.3f,0,0\n",
		POOL, wr_nt_bw, wr_nt_bw);

	add_ours();
	raid6_call = raid6_avx512x4;

	/* RS encode */
	for (ki = 0; ki < 4; ki++)
		for (m = 1; m <= MAXM; m++)
			for (bi = 0; bi < 3; bi++) {
				cfg_encode(&c, ks[ki], m);
				time_cell(&c, bs[bi], C_ALGOS | C_STORES,
					  enc_peers);
			}
	for (ki = 0; ki < 4; ki++)
		for (bi = 0; bi < 3; bi++) {
			cfg_pq(&c, ks[ki], OP_PQ);
			time_cell(&c, bs[bi], C_STORES | C_AVX2,
				  pq_peers);
			cfg_pq(&c, ks[ki], OP_XOR);
			time_cell(&c, bs[bi], C_STORES | C_AVX2,
				  xor_peers);
			/* decode 1..m erasures (m = 4), update, recovery */
			for (e = 1; e <= MAXM; e++) {
				cfg_decode(&c, ks[ki], MAXM, e);
				time_cell(&c, bs[bi], 0, dec_peers);
			}
			cfg_update(&c, ks[ki], MAXM);
			time_cell(&c, bs[bi], 0, upd_peers);
			cfg_recov(&c, ks[ki]);
			time_cell(&c, bs[bi], C_AVX2, rec_peers);
		}
	/* the recovery products alone */
	for (bi = 0; bi < 3; bi++) {
		cfg_product(&c, OP_SP);
		time_cell(&c, bs[bi], C_AVX2, sp_peers);
		cfg_product(&c, OP_MULT);
		time_cell(&c, bs[bi], C_AVX2, mult_peers);
	}
	if (!only || strstr(only, "scaling")) {
		CPU_ZERO(&set);
		for (i = 0; i < CPU_SETSIZE; i++)
			CPU_SET(i, &set);
		sched_setaffinity(0, sizeof(set), &set);
		run_scaling();
	}
	fclose(csv);
	printf("# bench: %d cells, %.0f s\n", nres, now() - t_start);
	return 0;
}
