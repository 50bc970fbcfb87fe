// SPDX-License-Identifier: GPL-2.0
/*
 * NT against regular stores for outputs that are not in the cache, with
 * the inputs in the cache and not: the case the engine asks NT for
 * (ecdma_gf_reused() said "not cached").  RS encode with the best algo,
 * outputs streamed through a ring four times the size of any LLC here.
 *
 *   make -C tools/bench ntprobe
 */
#include "ecdma_compat.h"
#include "gf.h"
#include "gf_algo.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#define RING		(512UL << 20)
#define DATA		(256UL << 20)	/* of data per timed run */
#define HOT_IN		(16UL << 20)
#define REPEATS		5

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* GB/s of data, best of REPEATS; @hot: the same inputs every call */
static double run(const struct ecdma_gf_algo *a, const u8 *tbls, int k,
		  int m, size_t b, bool hot, bool nt, u8 *ring, u8 *hot_in)
{
	double best = 0;
	int rep, i;

	for (rep = 0; rep < REPEATS; rep++) {
		size_t pos = 0, stripe = (k + m) * b, done;
		const u8 *in[16];
		u8 *out[16];
		double t = now();

		for (done = 0; done < DATA; done += k * b, pos += stripe) {
			if (pos + stripe > RING)
				pos = 0;
			for (i = 0; i < k; i++)
				in[i] = (hot ? hot_in : ring + pos) + i * b;
			for (i = 0; i < m; i++)
				out[i] = ring + pos + (k + i) * b;
			a->encode(b, k, m, tbls, in, out, nt ? ECDMA_GF_NT : 0);
		}
		_mm_sfence();
		t = now() - t;
		if (DATA / t / 1e9 > best)
			best = DATA / t / 1e9;
	}
	return best;
}

int main(void)
{
	static const int ks[] = { 4, 6, 8, 10 }, ms[] = { 1, 2, 4 };
	static const size_t bs[] = { 64 << 10, 1 << 20 };
	static u8 mat[16 * 16], tbls[16 * 16 * 256];
	const struct ecdma_gf_algo *a = ecdma_gf_algo_find(NULL);
	u8 *ring = aligned_alloc(4096, RING);
	u8 *hot_in = aligned_alloc(4096, HOT_IN);
	unsigned int bi, ki, mi;

	if (!ring || !hot_in)
		return 1;
	memset(ring, 1, RING);
	memset(hot_in, 3, HOT_IN);
	printf("# %s: GB/s of data, outputs not cached; nt/regular\n",
	       a->name);
	for (bi = 0; bi < 2; bi++)
		for (ki = 0; ki < 4; ki++)
			for (mi = 0; mi < 3; mi++) {
				int k = ks[ki], m = ms[mi];
				size_t b = bs[bi];
				double r[2][2];
				int hot, nt;

				ecdma_gf_gen_matrix(ECDMA_EC_MATRIX_CAUCHY, k,
						    m, mat);
				a->prep(mat, k, m, tbls);
				for (hot = 0; hot < 2; hot++)
					for (nt = 0; nt < 2; nt++)
						r[hot][nt] = run(a, tbls, k, m,
								 b, hot, nt,
								 ring, hot_in);
				printf("%5zuK k=%2d m=%d", b >> 10, k, m);
				for (hot = 1; hot >= 0; hot--)
					printf("  inputs %s: regular %5.1f nt %5.1f (%.2fx)",
					       hot ? "cached" : "cold",
					       r[hot][0], r[hot][1],
					       r[hot][1] / r[hot][0]);
				putchar('\n');
			}
	return 0;
}
