// SPDX-License-Identifier: GPL-2.0
/*
 * The last-level cache, measured where CPUID does not report it (gf_cal.h).
 *
 * Guests often see no cache leaves (CPUID 4 and 0x8000001d zero), and the
 * reuse window then falls back to a default that may be a quarter of the
 * cache the engine really shares: stripes that stay cached are taken as
 * cold, and get the choices made for memory.  So time what the window
 * predicts: an 8-input XOR of the GF algo over stripes of growing size,
 * run again at once (hot) against from flushed memory (cold).  Where the
 * re-run stops being clearly faster is the cache this CPU gets.
 */
#include "ecdma_compat.h"
#include "gf_algo.h"
#include "gf_cal.h"

const char *const ecdma_gf_llc_src_names[] = {
	[ECDMA_GF_LLC_NONE] = "none",
	[ECDMA_GF_LLC_CPUID] = "cpuid",
	[ECDMA_GF_LLC_PROBED] = "probed",
};

/* inputs of the probe's XOR; one output */
#define LLC_INS		8
/* bytes of each block per call: one FPU section, as the executor's */
#define LLC_PIECE	(64 * 1024)

/* the probe's stripe at @buf of @bytes once, XOR in LLC_PIECE pieces */
static void llc_run(const struct ecdma_gf_algo *algo,
		    const struct ecdma_gf_cal_env *env, u8 *buf, size_t bytes)
{
	size_t b = (bytes / (LLC_INS + 1)) & ~(size_t)4095, off, len;
	const u8 *in[LLC_INS];
	int i;

	for (off = 0; off < b; off += len) {
		len = min_t(size_t, b - off, LLC_PIECE);
		for (i = 0; i < LLC_INS; i++)
			in[i] = buf + i * b + off;
		if (env->fpu && algo->fpu)
			env->fpu(true);
		algo->xor(len, LLC_INS, in, buf + LLC_INS * b + off, 0);
		if (env->fpu && algo->fpu)
			env->fpu(false);
	}
}

/**
 * ecdma_gf_llc_pick() - the cache size a probe's gains show
 * @gain: [i]: cold time / hot time * 1000 of the stripe of
 *	ECDMA_GF_LLC_MIN << i bytes; 0: not measured
 * @n: entries of @gain
 *
 * A shared cache loses its gain over an octave or more, not at a step, so
 * where the run ends at a measured stripe the size is interpolated, linear
 * in the gain, between the last stripe with it and that one.
 *
 * Return: bytes: the biggest stripe of an unbroken run from the smallest
 * whose gain is at least ECDMA_GF_LLC_GAIN, or up to twice it where the
 * next gain falls below; 0 if the smallest has none.
 */
u64 ecdma_gf_llc_pick(const u16 *gain, int n)
{
	u64 llc;
	int i;

	for (i = 0; i < n && gain[i] >= ECDMA_GF_LLC_GAIN; i++)
		;
	if (!i)
		return 0;
	llc = ECDMA_GF_LLC_MIN << (i - 1);
	if (i == n || !gain[i])
		return llc;
	return llc + div64_u64(llc * (gain[i - 1] - ECDMA_GF_LLC_GAIN),
			       gain[i - 1] - gain[i]);
}

/**
 * ecdma_gf_llc_measure() - time re-runs against cold runs, stripe by stripe
 * @algo: the GF algo
 * @env: clock, flush, FPU sections; ECDMA_GF_LLC_BUDGET * @env->max_ns
 *	bounds the probe (the smallest stripe always runs)
 * @buf: ECDMA_GF_LLC_BUF_BYTES, any content, 4 KiB aligned
 * @gain: [ECDMA_GF_LLC_STEPS]: filled as ecdma_gf_llc_pick() reads it
 *
 * Best of ECDMA_GF_LLC_ROUNDS each, hot and cold: a shared host's memory
 * varies by tens of percent from one moment to the next (ecdma-simd.rst).
 * Stops at the first stripe without a gain; bigger ones have none either.
 * Return: ecdma_gf_llc_pick() of what was measured.
 */
u64 ecdma_gf_llc_measure(const struct ecdma_gf_algo *algo,
			 const struct ecdma_gf_cal_env *env, u8 *buf,
			 u16 *gain)
{
	u64 start = env->now_ns(), t, hot, cold;
	int i, rd;

	memset(gain, 0, ECDMA_GF_LLC_STEPS * sizeof(*gain));
	for (i = 0; i < ECDMA_GF_LLC_STEPS; i++) {
		size_t bytes = ECDMA_GF_LLC_MIN << i;

		if (i && (gain[i - 1] < ECDMA_GF_LLC_GAIN ||
			  div_u64(env->now_ns() - start,
				  ECDMA_GF_LLC_BUDGET) > env->max_ns))
			break;
		hot = U64_MAX;
		cold = U64_MAX;
		for (rd = 0; rd < ECDMA_GF_LLC_ROUNDS; rd++) {
			env->flush(buf, bytes);
			t = env->now_ns();
			llc_run(algo, env, buf, bytes);
			cold = min(cold, env->now_ns() - t);
			t = env->now_ns();
			llc_run(algo, env, buf, bytes);
			hot = min(hot, env->now_ns() - t);
			if (env->resched)
				env->resched();
		}
		gain[i] = min_t(u64, div64_u64(cold * 1000, max_t(u64, hot, 1)),
				U16_MAX);
	}
	return ecdma_gf_llc_pick(gain, ECDMA_GF_LLC_STEPS);
}
