// SPDX-License-Identifier: GPL-2.0
/*
 * A/B of two builds of ecdma's GF kernels in one process: both are
 * dlopen()ed, and each round times A then B (or B then A, alternating) on
 * the same buffers, so a noisy host moves both alike.  The answer per cell
 * is the median over rounds of B's GB/s over A's.
 *
 * Cells: XOR, P+Q, RS m = 1, 3, 4, 8; k = 4, 10; 4 KiB, 64 KiB, 1 MiB
 * blocks; hot (one stripe again and again) and cold (walking 512 MiB);
 * regular and NT stores; and two layouts: "cont", the blocks of a stripe
 * back to back (as make bench lays them out), and "scat", each block at
 * its own place, out of order, as md's stripe pages are.
 *
 *   make -C tools/bench ab [OLD=<git rev>]   this tree (B) against OLD (A)
 *   abtest [-a algo] [-k k1,k2] [-r rounds] A.so B.so   (k: 4,10 unless -k)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ecdma_compat.h"
#include "gf.h"
#include "gf_algo.h"
#include "ecdma/ec.h"

#define POOL		(512UL << 20)
#define MAX_ROUNDS	63

static const char *const ops[] = { "xor", "pq", "rs1", "rs3", "rs4", "rs8" };
static int ks[] = { 4, 10 };	/* -k a,b */
static const size_t blocks[] = { 4096, 65536, 1 << 20 };

struct ab {
	const struct ecdma_gf_algo *a[2];
	u8 *pool;
	int rounds;
	/* per group (op, layout, stores, cache): sum of log ratios, cells */
	double lsum[6][2][2][2];
	int n[6][2][2][2];
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_dbl(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_dbl);
	return v[n / 2];
}

static const struct ecdma_gf_algo *load(const char *so, const char *algo)
{
	char sym[64];
	void *h = dlopen(so, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);

	if (!h) {
		fprintf(stderr, "abtest: %s\n", dlerror());
		exit(2);
	}
	snprintf(sym, sizeof(sym), "ecdma_gf_algo_%s", algo);
	if (!dlsym(h, sym)) {
		fprintf(stderr, "abtest: %s: no %s\n", so, sym);
		exit(2);
	}
	return dlsym(h, sym);
}

/* block offsets of one stripe in its span; returns the span */
static size_t layout(bool scat, int n, size_t b, size_t *pos)
{
	size_t slot = scat ? b + 3 * 4096 : b;
	int i, j;

	for (i = 0; i < n; i++)
		pos[i] = i * slot + (scat ? 4096 * (rand() % 3) : 0);
	for (i = n - 1; scat && i > 0; i--) {
		size_t t = pos[i];

		j = rand() % (i + 1);
		pos[i] = pos[j];
		pos[j] = t;
	}
	return n * slot;
}

static void call(const struct ecdma_gf_algo *a, int op, int k, int m,
		 size_t b, const u8 *tbls, const u8 *const *in, u8 *const *out,
		 unsigned int flags)
{
	if (!op)
		a->xor(b, k, in, out[0], flags);
	else
		ecdma_gf_encode(a, op == 1, b, k, m, tbls, in, out, flags);
}

static void cell(struct ab *t, int op, int k, size_t b, bool scat, bool nt,
		 bool cold)
{
	static u8 tbls[2][ECDMA_EC_MAX_K * ECDMA_EC_MAX_M * 32];
	int m = op == 0 ? 1 : op == 1 ? 2 : atoi(ops[op] + 2);
	unsigned int flags = nt ? ECDMA_GF_NT : 0;
	double gbs[2][MAX_ROUNDS], ratio[MAX_ROUNDS], r;
	u8 mat[ECDMA_EC_MAX_K * ECDMA_EC_MAX_M];
	size_t pos[ECDMA_EC_MAX_K + ECDMA_EC_MAX_M], span, stripes, s = 0;
	int i, rd, v;

	for (i = 0; i < k * m; i++)
		mat[i] = 2 + rand() % 250;
	for (i = 0; op == 1 && i < k; i++) {	/* RAID-6: 1 and {02}^i */
		mat[i * 2] = 1;
		mat[i * 2 + 1] = ecdma_gf_pow2(i);
	}
	for (v = 0; v < 2; v++)
		t->a[v]->prep(mat, k, m, tbls[v]);
	span = layout(scat, k + m, b, pos);
	stripes = cold ? POOL / span : 1;
	for (rd = 0; rd < t->rounds; rd++) {
		for (i = 0; i < 2; i++) {
			double t0 = now(), dt;
			long calls = 0;

			v = i ^ (rd & 1);
			do {
				const u8 *in[ECDMA_EC_MAX_K];
				u8 *out[ECDMA_EC_MAX_M];
				u8 *base = t->pool + s * span;
				int j;

				for (j = 0; j < k; j++)
					in[j] = base + pos[j];
				for (j = 0; j < m; j++)
					out[j] = base + pos[k + j];
				call(t->a[v], op, k, m, b, tbls[v], in, out,
				     flags);
				s = cold ? (s + 1) % stripes : 0;
				dt = now() - t0;
			} while (++calls < 16 || dt < (cold ? 0.006 : 0.003));
			gbs[v][rd] = (double)k * b * calls / dt / 1e9;
		}
		ratio[rd] = gbs[1][rd] / gbs[0][rd];
	}
	r = median(ratio, t->rounds);
	printf("%-4s %s %s %s k=%-2d %5zuK  A %6.1f  B %6.1f  B/A %.3f\n",
	       ops[op], scat ? "scat" : "cont", nt ? "nt " : "reg",
	       cold ? "cold" : "hot ", k, b >> 10,
	       median(gbs[0], t->rounds), median(gbs[1], t->rounds), r);
	fflush(stdout);
	t->lsum[op][scat][nt][cold] += log(r);
	t->n[op][scat][nt][cold]++;
}

/* -k a,b: the two input counts, 1 to 32 each */
static bool parse_ks(const char *arg)
{
	int n = 0;

	return sscanf(arg, "%d,%d%n", &ks[0], &ks[1], &n) == 2 && !arg[n] &&
	       ks[0] >= 1 && ks[0] <= 32 && ks[1] >= 1 && ks[1] <= 32;
}

int main(int argc, char **argv)
{
	static struct ab t;
	const char *algo = "avx512_gfni";
	int g, op, scat, nt, cold, opt;
	cpu_set_t cpus;
	size_t i;

	t.rounds = 9;
	while ((opt = getopt(argc, argv, "a:k:r:")) != -1) {
		if (opt == 'a')
			algo = optarg;
		else if (opt == 'k' && parse_ks(optarg))
			;
		else if (opt == 'r' && atoi(optarg) > 0 &&
			 atoi(optarg) <= MAX_ROUNDS)
			t.rounds = atoi(optarg);
		else
			goto usage;
	}
	if (argc - optind != 2)
		goto usage;
	t.a[0] = load(argv[optind], algo);
	t.a[1] = load(argv[optind + 1], algo);
	if (t.a[0]->usable && !t.a[0]->usable()) {
		printf("# %s: not usable on this CPU\n", algo);
		return 0;
	}
	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	sched_setaffinity(0, sizeof(cpus), &cpus);
	t.pool = aligned_alloc(4096, POOL);
	if (!t.pool)
		return 1;
	for (i = 0; i < POOL; i++)
		t.pool[i] = rand();
	printf("# %s: A %s, B %s, median of %d alternating rounds\n", algo,
	       argv[optind], argv[optind + 1], t.rounds);
	/* layout, stores, op, cache, k, block: the last varies fastest */
	for (g = 0; g < 2 * 2 * 6 * 2 * 2 * 3; g++)
		cell(&t, g / 12 % 6, ks[g / 3 % 2], blocks[g % 3],
		     g / 144, g / 72 % 2, g / 6 % 2);
	printf("# geomean B/A per group (6 cells each)\n");
	for (g = 0; g < 2 * 2 * 6 * 2; g++) {
		scat = g / 24;
		nt = g / 12 % 2;
		op = g / 2 % 6;
		cold = g % 2;
		printf("# %-4s %s %s %s %.3f\n", ops[op],
		       scat ? "scat" : "cont", nt ? "nt " : "reg",
		       cold ? "cold" : "hot ",
		       exp(t.lsum[op][scat][nt][cold] /
			   t.n[op][scat][nt][cold]));
	}
	return 0;
usage:
	fprintf(stderr, "usage: abtest [-a algo] [-k k1,k2] [-r rounds] A.so B.so\n");
	return 2;
}
