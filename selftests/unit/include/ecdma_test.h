/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by ecdma's userspace unit tests: a seeded PRNG so every
 * failure reproduces (the seed is printed as a KTAP diagnostic line and
 * can be forced with ECDMA_SEED=<n>), and checked allocation.
 *
 * Buffers come from malloc() sized exactly, so ASan flags any access past
 * either end, including by kernels that are meant to handle tails.
 */
#ifndef _ECDMA_TEST_H
#define _ECDMA_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ecdma_compat.h"
#include "ktap.h"

static u64 test_rng_state;

/* splitmix64: tiny, full period, good enough for test data */
static inline u64 test_rnd64(void)
{
	u64 z = (test_rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* uniform in [0, n), n >= 1 (the bias for n << 2^64 does not matter) */
static inline unsigned int test_rnd(unsigned int n)
{
	return (unsigned int)(test_rnd64() % n);
}

/* uniform in [lo, hi] */
static inline int test_rnd_range(int lo, int hi)
{
	return lo + (int)test_rnd((unsigned int)(hi - lo + 1));
}

static inline void test_rnd_fill(void *buf, size_t len)
{
	unsigned char *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (unsigned char)test_rnd64();
}

/* Seed from ECDMA_SEED, else from the clock; print it either way. */
static inline u64 test_rng_init(void)
{
	const char *env = getenv("ECDMA_SEED");
	u64 seed;

	if (env && *env)
		seed = strtoull(env, NULL, 0);
	else
		seed = (u64)time(NULL) * 2654435761ULL ^ (u64)getpid();
	test_rng_state = seed;
	ksft_print_msg("seed=%llu (rerun with ECDMA_SEED=%llu)\n", seed, seed);
	return seed;
}

/*
 * Reference GF(2^8) multiply, independent of ecdma's tables: carry-less,
 * reduced modulo 0x11d one bit at a time.
 */
static inline u8 test_slow_mul(u8 a, u8 b)
{
	unsigned int r = 0, x = a;

	while (b) {
		if (b & 1)
			r ^= x;
		x <<= 1;
		if (x & 0x100)
			x ^= 0x11d;
		b >>= 1;
	}
	return (u8)r;
}

static inline void *test_alloc(size_t len)
{
	void *p = malloc(len ? len : 1);

	if (!p) {
		ksft_print_msg("out of memory (%zu bytes)\n", len);
		exit(2);
	}
	return p;
}

#endif /* _ECDMA_TEST_H */
