// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the cache probe (drivers/ecdma/gf_llc.c): the size read
 * off given gains, the probe against a fake clock and a fake cache of a
 * given size, and what the calibration makes of its result.
 */
#include "ecdma_compat.h"
#include "gf.h"
#include "gf_algo.h"
#include "gf_cal.h"
#include "ecdma_test.h"

#define MIB	BIT_ULL(20)

/* gains as this project's Zen 5 guest measured them (ecdma-simd.rst) */
static void test_pick(void)
{
	static const struct {
		u16 gain[ECDMA_GF_LLC_STEPS];
		u64 llc;
	} t[] = {
		{ { 1490, 2000, 1550, 1270 }, 32 * MIB },
		/* 16 MiB + 16 * (1410 - 1100) / (1410 - 1050) */
		{ { 1570, 1740, 1410, 1050 }, 16 * MIB + 14447047 },
		{ { 1570, 1740, 1100, 1050 }, 16 * MIB },
		{ { 1180, 0, 0, 0 }, 4 * MIB },		/* out of time */
		{ { 1099, 2000, 2000, 2000 }, 0 },	/* none at the start */
		/* the first gap ends it: 4 + 4 * 400 / 450 */
		{ { 1500, 1050, 1300, 0 }, 4 * MIB + 3728270 },
		{ { 1100, 1100, 1100, 1100 }, 32 * MIB },
		{ { 0, 0, 0, 0 }, 0 },
	};
	unsigned int i, bad = 0;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		u64 got = ecdma_gf_llc_pick(t[i].gain, ECDMA_GF_LLC_STEPS);

		if (got != t[i].llc) {
			bad++;
			ksft_print_msg("case %u: %llu bytes, want %llu\n", i,
				       got, t[i].llc);
		}
	}
	ksft_test_result(!bad, "pick_where_an_unbroken_run_of_gains_ends\n");
}

/*
 * A fake host: time passes only in the algo's calls, 1 ns a byte for pages
 * touched since the last flush, 2 for flushed ones; and for all, if the
 * stripe flushed last is bigger than the fake cache (re-runs miss too).
 */
static struct {
	u64 now;
	u8 *buf;
	size_t cap, ws;
	bool cold[ECDMA_GF_LLC_BUF_BYTES / 4096];
	unsigned int in_fpu, bad_fpu, bad_len;
	unsigned long calls;
} lk;

static u64 lk_now(void)
{
	return lk.now;
}

static void lk_flush(void *p, size_t len)
{
	size_t off = (u8 *)p - lk.buf, pg;

	if ((u8 *)p < lk.buf || off >= ECDMA_GF_LLC_BUF_BYTES)
		return;		/* the calibration's own buffer */
	lk.ws = len;
	for (pg = off / 4096; pg < (off + len) / 4096; pg++)
		lk.cold[pg] = true;
}

static void lk_fpu(bool on)
{
	lk.bad_fpu += on == !!lk.in_fpu;
	lk.in_fpu = on;
}

static void lk_touch(const u8 *p, size_t len)
{
	size_t off = p - lk.buf, pg;

	if (p < lk.buf || off >= ECDMA_GF_LLC_BUF_BYTES) {
		lk.now += len;
		return;
	}
	for (pg = off / 4096; pg < DIV_ROUND_UP(off + len, 4096); pg++) {
		lk.now += 4096 * (lk.cold[pg] || lk.ws > lk.cap ? 2 : 1);
		lk.cold[pg] = false;
	}
}

static void lk_xor(size_t len, int k, const u8 *const *in, u8 *out,
		   unsigned int flags)
{
	int i;

	(void)flags;
	lk.bad_fpu += !lk.in_fpu;
	lk.bad_len += len > 64 * 1024;
	lk.calls++;
	for (i = 0; i < k; i++)
		lk_touch(in[i], len);
	lk_touch(out, len);
}

static void lk_encode(size_t len, int k, int m, const u8 *tbls,
		      const u8 *const *in, u8 *const *out, unsigned int flags)
{
	(void)m;
	(void)tbls;
	(void)in;
	(void)out;
	(void)flags;
	lk.now += len * k;
}

static void lk_prep(const u8 *matrix, int k, int m, u8 *tbls)
{
	(void)matrix;
	(void)k;
	(void)m;
	(void)tbls;
}

static const struct ecdma_gf_algo lk_algo = {
	.name = "fake",
	.fpu = true,
	.tbl_bytes = ECDMA_GF_NIBBLE_TBL_BYTES,
	.prep = lk_prep,
	.encode = lk_encode,
	.xor = lk_xor,
};

static const struct ecdma_gf_cal_env lk_env = {
	.now_ns = lk_now, .flush = lk_flush, .fpu = lk_fpu,
	.max_ns = ~0ULL,
};

static u64 lk_measure(size_t cap, const struct ecdma_gf_cal_env *env,
		      u16 *gain)
{
	memset(lk.cold, 0, sizeof(lk.cold));
	lk.cap = cap;
	lk.ws = 0;
	lk.calls = 0;
	return ecdma_gf_llc_measure(&lk_algo, env, lk.buf, gain);
}

static void test_measure(void)
{
	struct ecdma_gf_cal_env env = lk_env;
	u16 g[ECDMA_GF_LLC_STEPS];
	unsigned int bad = 0;

	lk.buf = test_alloc(ECDMA_GF_LLC_BUF_BYTES);
	/* no cache: no gain at the first stripe, nothing more measured */
	bad += lk_measure(0, &env, g) != 0;
	bad += g[0] != 1000 || g[1] || g[2] || g[3];
	/* 12 MiB: 4 and 8 MiB stripes gain, 16 does not, 32 not tried */
	bad += lk_measure(12 * MIB, &env, g) != 8 * MIB + 8 * MIB * 9 / 10;
	bad += g[0] != 2000 || g[1] != 2000 || g[2] != 1000 || g[3];
	/* more than the probe holds: its biggest stripe */
	bad += lk_measure(64 * MIB, &env, g) != 32 * MIB;
	bad += g[0] != 2000 || g[3] != 2000;
	bad += lk.bad_fpu || lk.bad_len || !lk.calls;
	ksft_test_result(!bad, "measure_a_fake_cache (%u %u %u %u)\n", g[0],
			 g[1], g[2], g[3]);

	/* out of time after the first stripe: that one counts */
	env.max_ns = 0;
	bad = lk_measure(64 * MIB, &env, g) != 4 * MIB;
	bad += g[0] != 2000 || g[1];
	ksft_test_result(!bad, "time_budget_ends_the_probe\n");
}

/* the calibration: the probe where the env has no cache size, and a floor */
static void test_calibrate(void)
{
	struct ecdma_gf_cal_env env = lk_env;
	u8 *buf = test_alloc(ECDMA_GF_CAL_BUF_BYTES);
	u8 *tbls = test_alloc(ECDMA_GF_CAL_TBL_BYTES);
	struct ecdma_gf_cal cal;
	unsigned int bad = 0;

	env.max_ns = 0;		/* one calibration round is enough here */
	env.llc_buf = lk.buf;
	lk.cap = 64 * MIB;
	memset(lk.cold, 0, sizeof(lk.cold));
	bad += ecdma_gf_calibrate(&lk_algo, &env, buf, tbls, &cal) != 0;
	/* the probe's own budget: four times max_ns, 0 here; one stripe */
	bad += cal.llc != 4 * MIB || cal.llc_src != ECDMA_GF_LLC_PROBED;
	/* 4 MiB would make 3: the default stays */
	bad += cal.reuse_window != ECDMA_GF_REUSE_DEFAULT;
	bad += cal.llc_gain[0] != 2000;

	env.max_ns = 10ULL * 1000 * 1000 * 1000;
	memset(lk.cold, 0, sizeof(lk.cold));
	bad += ecdma_gf_calibrate(&lk_algo, &env, buf, tbls, &cal) != 0;
	bad += cal.llc != 32 * MIB || cal.reuse_window != 24 * MIB;

	/* no gain: probed, nothing found, the default */
	lk.cap = 0;
	memset(lk.cold, 0, sizeof(lk.cold));
	bad += ecdma_gf_calibrate(&lk_algo, &env, buf, tbls, &cal) != 0;
	bad += cal.llc || cal.llc_src != ECDMA_GF_LLC_PROBED ||
	       cal.reuse_window != ECDMA_GF_REUSE_DEFAULT;

	/* CPUID's word is taken: no probe */
	env.llc = 16 * MIB;
	lk.calls = 0;
	bad += ecdma_gf_calibrate(&lk_algo, &env, buf, tbls, &cal) != 0;
	bad += cal.llc != 16 * MIB || cal.llc_src != ECDMA_GF_LLC_CPUID ||
	       cal.reuse_window != 12 * MIB || cal.llc_gain[0];

	/* neither: the default, unprobed */
	env.llc = 0;
	env.llc_buf = NULL;
	bad += ecdma_gf_calibrate(&lk_algo, &env, buf, tbls, &cal) != 0;
	bad += cal.llc || cal.llc_src != ECDMA_GF_LLC_NONE ||
	       cal.reuse_window != ECDMA_GF_REUSE_DEFAULT;
	bad += lk.bad_fpu;
	ksft_test_result(!bad, "calibration_probes_only_without_cpuid (%u)\n",
			 bad);
	free(buf);
	free(tbls);
}

int main(void)
{
	ksft_print_header();
	ksft_set_plan(4);
	test_pick();
	test_measure();
	test_calibrate();
	free(lk.buf);
	return ksft_finished();
}
