// SPDX-License-Identifier: GPL-2.0
/*
 * Calibration of the CPU engine's store policy and fast paths (gf_cal.h).
 *
 * Per block-size class and kind (XOR, P+Q, RS), each candidate (lib/raid6
 * or xor_blocks(), the GF algo with regular or NT stores) is timed hot and
 * cold, called as the executor calls it: no fixed threshold holds across
 * hosts.  P+Q and XOR are timed with 4 inputs too (the narrow band): the
 * winner can differ between 4 and 8 (ecdma-simd.rst, "The number of
 * inputs").  Rounds interleave the candidates so a slow moment hits all
 * alike; each keeps its best.  Clock, cache flush and FPU sections come from
 * struct ecdma_gf_cal_env; nothing is allocated.
 */
#include "ecdma_compat.h"
#include "gf.h"
#include "gf_algo.h"
#include "gf_cal.h"

const char *const ecdma_gf_cls_names[ECDMA_GF_CLS_NR] = {
	[ECDMA_GF_CLS_4K] = "4k",
	[ECDMA_GF_CLS_64K] = "64k",
	[ECDMA_GF_CLS_BIG] = "big",
};

const char *const ecdma_gf_kind_names[ECDMA_GF_KIND_NR] = {
	[ECDMA_GF_KIND_XOR] = "xor",
	[ECDMA_GF_KIND_PQ] = "pq",
	[ECDMA_GF_KIND_RS] = "rs",
};

/* data blocks measured per band */
const u8 ecdma_gf_cal_disks[ECDMA_GF_BAND_NR] = {
	[ECDMA_GF_BAND_NARROW] = ECDMA_GF_CAL_NARROW,
	[ECDMA_GF_BAND_WIDE] = ECDMA_GF_CAL_DISKS,
};

/*
 * The hot store question (NT or regular stores on cached outputs) of a
 * class, asked where the answer is not the moment's: past the L2, since
 * within it regular stores win, and around it the two tie.  At 64 KiB with
 * 12 inputs (a 1 MiB stripe: on a 1 MiB L2 NT won 1.2x, ecdma-simd.rst),
 * applied from 8 inputs; not at all where that stripe fits in the L2.  For
 * the big class, 8 inputs of a block that makes the stripe twice the L2
 * (cal_nt_block()), applied from that much data: on a 2 MiB L2 the 1 MiB
 * stripe of 128 KiB blocks chose regular stores and 1 MiB blocks ran 1.1x
 * faster with NT (ecdma_gf_nt_mask()).
 */
const u8 ecdma_gf_cal_nt_disks[ECDMA_GF_CLS_NR] = {
	[ECDMA_GF_CLS_64K] = ECDMA_GF_CAL_NT_DISKS,
	[ECDMA_GF_CLS_BIG] = ECDMA_GF_CAL_DISKS,
};

const char *const ecdma_gf_cal_way_names[ECDMA_GF_CAL_WAYS] = {
	[ECDMA_GF_CAL_LIB] = "lib",
	[ECDMA_GF_CAL_REG] = "gf",
	[ECDMA_GF_CAL_NT] = "gf_nt",
};

/*
 * Calls per hot measurement (after one to warm up), per class, at least;
 * and as many more as fit in ECDMA_GF_CAL_HOT_NS: a candidate's first
 * microseconds are not its steady speed, and two calls of 64 KiB blocks
 * (5-10 us here) flipped the XOR choice between loads (ecdma-simd.rst).
 * A slow host (TCG) spends the time in the calls it has to make anyway.
 */
static const u8 cal_hot_calls[ECDMA_GF_CLS_NR] = { 8, 2, 1 };
#define CAL_HOT_CALLS_MAX	4096
/* blocks of one request, at most: the 64 KiB class's hot store question */
#define CAL_BLOCKS_MAX	(ECDMA_GF_CAL_NT_DISKS + ECDMA_GF_CAL_OUTS)
static_assert(CAL_BLOCKS_MAX * 65536 <= ECDMA_GF_CAL_BUF_BYTES);
static_assert(ECDMA_GF_CAL_BLOCKS * ECDMA_GF_CAL_NT_BIG_MAX <=
	      ECDMA_GF_CAL_BUF_BYTES);
static_assert(ECDMA_GF_CAL_COLD_BYTES + 2 * ECDMA_GF_CAL_OUTS *
	      ECDMA_GF_CAL_NT_BIG_MAX <= ECDMA_GF_CAL_BUF_BYTES);
/* stripes per cold measurement, at most */
#define CAL_COLD_STRIPES	8

struct cal_run {
	const struct ecdma_gf_algo *algo;
	const struct ecdma_gf_cal_env *env;
	const u8 *tbls_pq;
	const u8 *tbls_rs;
	const u8 *tbls_rs_nt;	/* RS(ECDMA_GF_CAL_NT_DISKS, 4) */
};

static int cal_outs(enum ecdma_gf_kind kind)
{
	switch (kind) {
	case ECDMA_GF_KIND_XOR:
		return 1;
	case ECDMA_GF_KIND_PQ:
		return 2;
	default:
		return ECDMA_GF_CAL_OUTS;
	}
}

static bool cal_usable(const struct ecdma_gf_cal_env *env, int band,
		       enum ecdma_gf_kind kind, enum ecdma_gf_cal_way way)
{
	/* RS has no other code to choose, and NT is chosen wide */
	if (band == ECDMA_GF_BAND_NARROW && kind == ECDMA_GF_KIND_RS)
		return false;
	if (way != ECDMA_GF_CAL_LIB)
		return true;
	if (kind == ECDMA_GF_KIND_PQ)
		return env->pq_lib;
	return kind == ECDMA_GF_KIND_XOR && env->xor_lib && env->xor_max;
}

/* lib/raid6 or xor_blocks() on one piece of @nd inputs, as xc_fast() */
static void cal_lib(const struct ecdma_gf_cal_env *env,
		    enum ecdma_gf_kind kind, unsigned int nd, size_t len,
		    void **ptrs)
{
	unsigned int c, s;

	if (kind == ECDMA_GF_KIND_PQ) {
		env->pq_lib(nd + 2, len, ptrs);
		return;
	}
	/* xor_blocks() only accumulates */
	memcpy(ptrs[nd], ptrs[0], len);
	for (s = 1; s < nd; s += c) {
		c = min_t(unsigned int, nd - s, env->xor_max);
		env->xor_lib(c, len, ptrs[nd], ptrs + s);
	}
}

/*
 * One request of @kind with @nd inputs over the stripe at @base, blocks of
 * @b bytes.  With fewer inputs than the tables were made for, the P+Q
 * tables give other coefficients at the same cost (->pq uses none).
 */
static void cal_call(const struct cal_run *r, enum ecdma_gf_kind kind,
		     enum ecdma_gf_cal_way way, unsigned int nd, size_t b,
		     u8 *base)
{
	const struct ecdma_gf_cal_env *env = r->env;
	const struct ecdma_gf_algo *algo = r->algo;
	const u8 *rs = nd > ECDMA_GF_CAL_DISKS ? r->tbls_rs_nt : r->tbls_rs;
	int nblk = nd + cal_outs(kind), i;
	unsigned int flags = way == ECDMA_GF_CAL_NT ? ECDMA_GF_NT : 0;
	void *ptrs[CAL_BLOCKS_MAX];
	size_t n = b, off, len;

	if (env->piece) {
		/* as xc_range(): a 512-byte multiple, at least 512 */
		n = (env->piece / nblk) & ~(size_t)511;
		n = min(max_t(size_t, n, 512), b);
	}
	for (off = 0; off < b; off += len) {
		len = min(n, b - off);
		for (i = 0; i < nblk; i++)
			ptrs[i] = base + i * b + off;
		if (way == ECDMA_GF_CAL_LIB) {
			cal_lib(env, kind, nd, len, ptrs);
			continue;
		}
		if (env->fpu && algo->fpu)
			env->fpu(true);
		if (kind == ECDMA_GF_KIND_XOR)
			algo->xor(len, nd, (const u8 *const *)ptrs, ptrs[nd],
				  flags);
		else
			ecdma_gf_encode(algo, kind == ECDMA_GF_KIND_PQ, len,
					nd, cal_outs(kind),
					kind == ECDMA_GF_KIND_PQ ? r->tbls_pq : rs,
					(const u8 *const *)ptrs,
					(u8 *const *)ptrs + nd, flags);
		if (env->fpu && algo->fpu)
			env->fpu(false);
	}
}

/*
 * MB/s of data of one candidate with @nd inputs of @b bytes (class @cls),
 * hot or cold, in @buf
 */
static u32 cal_measure(const struct cal_run *r, unsigned int nd, size_t b,
		       enum ecdma_gf_cls cls, enum ecdma_gf_kind kind,
		       enum ecdma_gf_cal_way way, bool cold, u8 *buf)
{
	const struct ecdma_gf_cal_env *env = r->env;
	size_t stripe = (nd + ECDMA_GF_CAL_OUTS) * b;
	int calls = cal_hot_calls[cls], i;
	u64 t;

	if (cold) {
		calls = min_t(int, ECDMA_GF_CAL_COLD_BYTES / stripe,
			      CAL_COLD_STRIPES);
		env->flush(buf, calls * stripe);
	} else {
		cal_call(r, kind, way, nd, b, buf);
	}
	t = env->now_ns();
	for (i = 0; i < calls; i++)
		cal_call(r, kind, way, nd, b, buf + (cold ? i * stripe : 0));
	for (; !cold && i < CAL_HOT_CALLS_MAX &&
	     env->now_ns() - t < ECDMA_GF_CAL_HOT_NS; i++)
		cal_call(r, kind, way, nd, b, buf);
	calls = i;
	t = env->now_ns() - t;
	/* bytes * 1000 / ns: MB/s */
	return div_u64((u64)nd * b * calls * 1000,
		       (u32)min_t(u64, max_t(u64, t, 1), U32_MAX));
}

/* a hot NT copy (XOR of one input): how fast NT outputs leave the CPU */
static void cal_copy_nt(const struct cal_run *r, const u8 *in, u8 *out,
			size_t b)
{
	const struct ecdma_gf_cal_env *env = r->env;

	if (env->fpu && r->algo->fpu)
		env->fpu(true);
	r->algo->xor(b, 1, &in, out, ECDMA_GF_NT);
	if (env->fpu && r->algo->fpu)
		env->fpu(false);
}

static u32 cal_nt_write(const struct cal_run *r, u8 *buf)
{
	size_t b = ECDMA_GF_CAL_BIG;
	int calls = cal_hot_calls[ECDMA_GF_CLS_4K], i;
	u8 *out = buf + ECDMA_GF_CAL_DISKS * b;
	u64 t;

	cal_copy_nt(r, buf, out, b);		/* warm the input */
	t = r->env->now_ns();
	for (i = 0; i < calls; i++)
		cal_copy_nt(r, buf, out, b);
	t = r->env->now_ns() - t;
	return div_u64((u64)b * calls * 1000,
		       (u32)min_t(u64, max_t(u64, t, 1), U32_MAX));
}

/* class @c's hot store question, ecdma_gf_cal_nt_disks[c] inputs */
static void cal_nt_hot(const struct cal_run *r, int c, int kind, u8 *buf,
		       struct ecdma_gf_cal *cal)
{
	u32 *m = cal->nt_hot[c][kind];
	u32 reg = cal->mbps[ECDMA_GF_BAND_WIDE][c][kind][ECDMA_GF_CAL_REG][0];
	u64 data = (u64)ecdma_gf_cal_nt_disks[c] * cal->nt_block[c];
	int i;

	if (cal->nt_fits & BIT(c))
		return;
	/*
	 * Two warm-ups and two calls at the wide band's hot speed: where that
	 * is longer than the question is worth (TCG: RS at 30 MB/s), it is not
	 * asked, and regular stores stay.
	 */
	if (!reg || div_u64(4 * data * 1000, reg) > ECDMA_GF_CAL_NT_Q_NS) {
		if (!m[0])
			cal->nt_slow[kind] |= BIT(c);
		return;
	}
	cal->nt_slow[kind] &= ~BIT(c);
	for (i = 0; i < 2; i++)
		m[i] = max(m[i], cal_measure(r, ecdma_gf_cal_nt_disks[c],
					     cal->nt_block[c], c, kind,
					     i ? ECDMA_GF_CAL_NT :
					     ECDMA_GF_CAL_REG, false, buf));
	/*
	 * As many outputs as inputs, big blocks: the NT writes are as much
	 * as the reads, and where their speed is the limit regular stores
	 * win though the 8-input stripe chose NT (ECDMA_GF_NT_SQUARE).  Past
	 * the cold measurements' part of @buf, whose last RS parity stays.
	 */
	if (c != ECDMA_GF_CLS_BIG || kind != ECDMA_GF_KIND_RS)
		return;
	for (i = 0; i < 2; i++)
		cal->nt_square[i] = max(cal->nt_square[i],
					cal_measure(r, ECDMA_GF_CAL_OUTS,
						    cal->nt_block[c], c, kind,
						    i ? ECDMA_GF_CAL_NT :
						    ECDMA_GF_CAL_REG, false,
						    buf + ECDMA_GF_CAL_COLD_BYTES));
}

/*
 * Every candidate of every class in @band once, hot and cold; keep the
 * best, and count the rounds the GF algo beat the kernel's code cold.
 */
static void cal_band(const struct cal_run *r, int band, u8 *buf,
		     struct ecdma_gf_cal *cal)
{
	unsigned int nd = ecdma_gf_cal_disks[band];
	int c, kind, way, cold;

	for (c = 0; c < ECDMA_GF_CLS_NR; c++) {
		for (kind = 0; kind < ECDMA_GF_KIND_NR; kind++) {
			u32 cold_now[ECDMA_GF_CAL_WAYS] = { 0 };

			for (way = 0; way < ECDMA_GF_CAL_WAYS; way++) {
				u32 *m = cal->mbps[band][c][kind][way];

				if (!cal_usable(r->env, band, kind, way))
					continue;
				for (cold = 0; cold < 2; cold++) {
					u32 v = cal_measure(r, nd,
							    ecdma_gf_cal_block(c),
							    c, kind, way, cold,
							    buf);

					m[cold] = max(m[cold], v);
					if (cold)
						cold_now[way] = v;
				}
				if (r->env->resched)
					r->env->resched();
			}
			if (cold_now[ECDMA_GF_CAL_LIB] &&
			    max(cold_now[ECDMA_GF_CAL_REG],
				cold_now[ECDMA_GF_CAL_NT]) >
			    cold_now[ECDMA_GF_CAL_LIB])
				cal->gf_cold_won[band][c][kind]++;
			if (band == ECDMA_GF_BAND_WIDE && ecdma_gf_cal_nt_disks[c])
				cal_nt_hot(r, c, kind, buf, cal);
		}
	}
}

static void cal_round(const struct cal_run *r, u8 *buf,
		      struct ecdma_gf_cal *cal)
{
	int band;

	for (band = 0; band < ECDMA_GF_BAND_NR; band++)
		cal_band(r, band, buf, cal);
}

/**
 * ecdma_gf_cal_init() - a calibration that has not run
 * @cal: reset to the choices of an unmeasured host
 *
 * The kernel's own code for P+Q and XOR, regular stores everywhere.
 */
void ecdma_gf_cal_init(struct ecdma_gf_cal *cal)
{
	int c, band;

	memset(cal, 0, sizeof(*cal));
	cal->reuse_window = ecdma_gf_reuse_window(0);
	for (c = 0; c < ECDMA_GF_CLS_NR; c++)
		cal->block[c] = ecdma_gf_cal_block(c);
	for (band = 0; band < ECDMA_GF_BAND_NR; band++) {
		cal->lib_pq[band] = ECDMA_GF_CLS_ALL;
		cal->lib_xor[band] = ECDMA_GF_CLS_ALL;
		cal->lib_pq_cold[band] = ECDMA_GF_CLS_ALL;
		cal->lib_xor_cold[band] = ECDMA_GF_CLS_ALL;
	}
}

/**
 * ecdma_gf_reuse_window() - how much traffic an output stays cached for
 * @llc: bytes of the last-level cache; 0: unknown
 *
 * Return: bytes: 3/4 of @llc, as glibc's NT threshold, since inputs and
 * other users share the cache.
 */
u64 ecdma_gf_reuse_window(u64 llc)
{
	return llc ? llc / 4 * 3 : ECDMA_GF_REUSE_DEFAULT;
}

/* @lib beats @gf by more than 1/@edge */
static bool cal_lib_beats(u32 lib, u32 gf, u32 edge)
{
	return (u64)lib * edge > (u64)gf * (edge + 1);
}

/*
 * Some requests of class @c in @band get NT stores on cached outputs: as
 * many inputs as the band takes, blocks as big as the class takes
 */
static bool cal_nt_cached_some(const struct ecdma_gf_cal *cal, int band,
			       int c, enum ecdma_gf_kind kind)
{
	int nin = band == ECDMA_GF_BAND_NARROW ? ECDMA_GF_BAND_CUT : U8_MAX;
	size_t len = c == ECDMA_GF_CLS_BIG ? (size_t)U32_MAX :
		     ecdma_gf_cal_block(c);

	return ecdma_gf_nt_mask(cal->nt[kind], cal->nt_block, len, nin,
				cal_outs(kind), false) &
	       BIT(ECDMA_GF_NT_CACHED(c));
}

/* lib/raid6 or xor_blocks() per class in @band, for cached outputs or not */
static void cal_decide_lib(struct ecdma_gf_cal *cal, int band)
{
	int c, kind;

	cal->lib_pq[band] = 0;
	cal->lib_xor[band] = 0;
	cal->lib_pq_cold[band] = 0;
	cal->lib_xor_cold[band] = 0;
	for (c = 0; c < ECDMA_GF_CLS_NR; c++) {
		for (kind = 0; kind < ECDMA_GF_KIND_NR; kind++) {
			u32 (*m)[2] = cal->mbps[band][c][kind];
			const u32 *lib = m[ECDMA_GF_CAL_LIB];
			u32 gf_cold = m[cal->nt[kind] & BIT(c) ?
					ECDMA_GF_CAL_NT : ECDMA_GF_CAL_REG][1];
			/*
			 * Cached: the kernel's code only where it beats the
			 * GF algo clearly with every store kind the band's
			 * requests of this class get.  A near tie at the one
			 * request measured is no tie at others: lib/raid6
			 * tied the GF algo's NT stores with 8 inputs of
			 * 64 KiB and ran 0.41x of them with 12; xor_blocks()
			 * beat its regular stores on 128 KiB blocks and ran
			 * 0.78x of its NT stores on 1 MiB (ecdma-simd.rst).
			 */
			bool hot = cal_lib_beats(lib[0], m[ECDMA_GF_CAL_REG][0],
						 ECDMA_GF_CAL_LIB_EDGE) &&
				   (!cal_nt_cached_some(cal, band, c, kind) ||
				    cal_lib_beats(lib[0], m[ECDMA_GF_CAL_NT][0],
						  ECDMA_GF_CAL_LIB_EDGE));
			/*
			 * Cold the same way, by a wider edge and in at least
			 * half the rounds: one stripe from flushed memory
			 * varies by several percent from one load to the next,
			 * and read so lib/raid6 ran 2-3% ahead of the GF algo's
			 * NT stores where those ran 0.99-1.14x of it in make
			 * bench's cold P+Q cells (ecdma-simd.rst).
			 */
			bool half = 2 * cal->gf_cold_won[band][c][kind] <=
				    cal->rounds;
			/* the engine takes every 4 KiB output as cached */
			bool cold = c == ECDMA_GF_CLS_4K ? hot :
				    half && cal_lib_beats(lib[1], gf_cold,
							  ECDMA_GF_CAL_LIB_EDGE_COLD);

			if (kind == ECDMA_GF_KIND_PQ) {
				cal->lib_pq[band] |= hot ? BIT(c) : 0;
				cal->lib_pq_cold[band] |= cold ? BIT(c) : 0;
			} else if (kind == ECDMA_GF_KIND_XOR) {
				cal->lib_xor[band] |= hot ? BIT(c) : 0;
				cal->lib_xor_cold[band] |= cold ? BIT(c) : 0;
			}
		}
	}
	/*
	 * Cached big P+Q outputs go to lib/raid6 (NT stores, on x86) only
	 * where it won hot at 64 KiB too.  Its 128 KiB blocks make a working
	 * set about the L2's size, where the cache sets of the buffer's
	 * pages decided the GF algo's speed from one load to the next
	 * (ecdma-simd.rst); and a cached output is read again, which NT
	 * stores make slower.
	 */
	if (!(cal->lib_pq[band] & BIT(ECDMA_GF_CLS_64K)))
		cal->lib_pq[band] &= ~BIT(ECDMA_GF_CLS_BIG);
}

/**
 * ecdma_gf_cal_decide() - choose from the measurements
 * @cal: @mbps filled in; @lib_pq, @lib_xor and @nt are set
 *
 * Per class and kind: NT for outputs not cached when faster cold or hot
 * than regular stores (8 inputs), and for cached ones too when faster
 * hot.  Per band too: for cached outputs, the
 * kernel's code when faster hot than the GF algo by 1/ECDMA_GF_CAL_LIB_EDGE
 * with each store kind such requests get (for big P+Q blocks, only if so
 * at 64 KiB too); for others, when faster cold than the GF algo with the
 * store kind chosen by 1/ECDMA_GF_CAL_LIB_EDGE_COLD, in half the rounds.
 * 4 KiB outputs count as cached: md reads its parity pages again soon.
 */
void ecdma_gf_cal_decide(struct ecdma_gf_cal *cal)
{
	int c, kind, band;

	for (kind = 0; kind < ECDMA_GF_KIND_NR; kind++) {
		cal->nt[kind] = 0;
		for (c = 0; c < ECDMA_GF_CLS_NR; c++) {
			u32 (*m)[2] = cal->mbps[ECDMA_GF_BAND_WIDE][c][kind];
			bool hot_nt = false;

			if (c == ECDMA_GF_CLS_4K || !m[ECDMA_GF_CAL_NT][1])
				continue;
			/*
			 * Hot: from about the L2's size, writing the outputs
			 * around the cache keeps the inputs in it
			 * (ecdma-simd.rst).  By the measurement with more
			 * inputs where there is one.
			 */
			if (!((cal->nt_fits | cal->nt_slow[kind]) & BIT(c))) {
				u32 reg = m[ECDMA_GF_CAL_REG][0];
				u32 nt = m[ECDMA_GF_CAL_NT][0];

				if (cal->nt_hot[c][kind][0]) {
					reg = cal->nt_hot[c][kind][0];
					nt = cal->nt_hot[c][kind][1];
				}
				hot_nt = nt > reg;
			}
			/*
			 * Outputs not cached: NT where it won cold, whatever
			 * the number of inputs (the engine asks only for
			 * outputs it did not write lately, ecdma_gf_reused(),
			 * and there fewer inputs per output favour NT more, as
			 * regular stores must first read every line in); or
			 * where it won hot, since regular stores only lose
			 * more when they must read the lines in.  The cold
			 * number is one flushed stripe and once read a tie
			 * where NT won 1.5x hot and 1.1-1.5x in make bench.
			 */
			if (!hot_nt &&
			    m[ECDMA_GF_CAL_NT][1] <= m[ECDMA_GF_CAL_REG][1])
				continue;
			cal->nt[kind] |= BIT(c);
			/* cached outputs too where NT won hot */
			if (!hot_nt)
				continue;
			cal->nt[kind] |= BIT(ECDMA_GF_NT_CACHED(c));
			if (c == ECDMA_GF_CLS_BIG &&
			    (kind != ECDMA_GF_KIND_RS || !cal->nt_square[0] ||
			     cal->nt_square[1] > cal->nt_square[0]))
				cal->nt[kind] |= ECDMA_GF_NT_SQUARE;
		}
	}
	for (band = 0; band < ECDMA_GF_BAND_NR; band++)
		cal_decide_lib(cal, band);
}

/*
 * The big class's hot question in blocks that make its stripe twice the L2,
 * 64 KiB multiples from the class's calibration block up
 */
static u32 cal_nt_block(u64 l2)
{
	u64 b = 2 * l2 / ECDMA_GF_CAL_BLOCKS;

	b = DIV_ROUND_UP(b, 65536) * 65536;
	return min_t(u64, max_t(u64, b, ECDMA_GF_CAL_BIG),
		     ECDMA_GF_CAL_NT_BIG_MAX);
}

/* which classes ask their hot store question, and of which block */
static void cal_nt_questions(struct ecdma_gf_cal *cal)
{
	u64 l2 = cal->l2 ? cal->l2 : ECDMA_GF_L2_DEFAULT;
	int c;

	for (c = 0; c < ECDMA_GF_CLS_NR; c++) {
		if (!ecdma_gf_cal_nt_disks[c])
			continue;
		cal->nt_block[c] = c == ECDMA_GF_CLS_BIG ?
				   cal_nt_block(l2) :
				   ecdma_gf_cal_block(c);
		if ((u64)(ecdma_gf_cal_nt_disks[c] + ECDMA_GF_CAL_OUTS) *
		    cal->nt_block[c] < l2)
			cal->nt_fits |= BIT(c);
	}
}

/**
 * ecdma_gf_calibrate() - measure and choose, on this host
 * @algo: the GF algo the engine runs
 * @env: clock, cache flush, FPU sections and the kernel's own code
 * @buf: ECDMA_GF_CAL_BUF_BYTES of memory, any content, any alignment of
 *	at least 64 bytes (lib/raid6's)
 * @tbls: ECDMA_GF_CAL_TBL_BYTES of scratch
 * @cal: the result; on error as ecdma_gf_cal_init() leaves it
 *
 * Measures the last-level cache first where @env has none to give and a
 * buffer to measure it in (ecdma_gf_llc_measure()).
 * Context: wherever @algo and @env's hooks may run; @env->resched between
 * measurements.
 * Return: 0, or -EINVAL when @env lacks a clock or a flush.
 */
int ecdma_gf_calibrate(const struct ecdma_gf_algo *algo,
		       const struct ecdma_gf_cal_env *env, u8 *buf, u8 *tbls,
		       struct ecdma_gf_cal *cal)
{
	struct cal_run r = { .algo = algo, .env = env, .tbls_pq = tbls };
	u8 mat[ECDMA_GF_CAL_NT_DISKS * ECDMA_GF_CAL_OUTS], *rs;
	u64 start;
	int i, rd;

	ecdma_gf_cal_init(cal);
	if (!env->now_ns || !env->flush)
		return -EINVAL;
	cal->llc = env->llc;
	cal->llc_src = env->llc ? ECDMA_GF_LLC_CPUID : ECDMA_GF_LLC_NONE;
	if (!env->llc && env->llc_buf) {
		cal->llc = ecdma_gf_llc_measure(algo, env, env->llc_buf,
						cal->llc_gain);
		cal->llc_src = ECDMA_GF_LLC_PROBED;
	}
	cal->reuse_window = ecdma_gf_reuse_window(cal->llc);
	cal->l2 = env->l2;
	cal_nt_questions(cal);
	/*
	 * A probe only widens the default: a small result is as likely a
	 * noisy moment of a shared host as a small cache (ecdma-simd.rst).
	 */
	if (cal->llc_src == ECDMA_GF_LLC_PROBED)
		cal->reuse_window = max(cal->reuse_window,
					ecdma_gf_reuse_window(0));
	/* P = sum D_i, Q = sum 2^i D_i; RS(8,4) and RS(12,4) Cauchy */
	for (i = 0; i < ECDMA_GF_CAL_NT_DISKS; i++) {
		mat[i * 2] = 1;
		mat[i * 2 + 1] = ecdma_gf_pow2(i);
	}
	algo->prep(mat, ECDMA_GF_CAL_NT_DISKS, 2, tbls);
	rs = tbls + 2 * ECDMA_GF_CAL_NT_DISKS * algo->tbl_bytes;
	ecdma_gf_gen_matrix(ECDMA_EC_MATRIX_CAUCHY, ECDMA_GF_CAL_DISKS,
			    ECDMA_GF_CAL_OUTS, mat);
	algo->prep(mat, ECDMA_GF_CAL_DISKS, ECDMA_GF_CAL_OUTS, rs);
	r.tbls_rs = rs;
	rs += ECDMA_GF_CAL_DISKS * ECDMA_GF_CAL_OUTS * algo->tbl_bytes;
	ecdma_gf_gen_matrix(ECDMA_EC_MATRIX_CAUCHY, ECDMA_GF_CAL_NT_DISKS,
			    ECDMA_GF_CAL_OUTS, mat);
	algo->prep(mat, ECDMA_GF_CAL_NT_DISKS, ECDMA_GF_CAL_OUTS, rs);
	r.tbls_rs_nt = rs;

	start = env->now_ns();
	for (rd = 0; rd < ECDMA_GF_CAL_ROUNDS; rd++) {
		u64 t = env->now_ns() - start;

		/*
		 * Within max_ns, or if this round too should end within
		 * ECDMA_GF_CAL_LONG of it: a host with slow memory (100 ms a
		 * round) would otherwise decide on one sample each, and one
		 * cold sample there was half the others (ecdma-simd.rst).
		 */
		if (rd && t > env->max_ns &&
		    div_u64(t, rd) * (rd + 1) > ECDMA_GF_CAL_LONG * env->max_ns)
			break;
		cal_round(&r, buf, cal);
		cal->nt_wr = max(cal->nt_wr, cal_nt_write(&r, buf));
		cal->rounds++;
	}
	cal->ns = env->now_ns() - start;
	cal->done = true;
	ecdma_gf_cal_decide(cal);
	return 0;
}
