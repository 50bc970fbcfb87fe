// SPDX-License-Identifier: GPL-2.0
/*
 * make bench, summary: issue #12's targets with the geometric mean and the
 * worst cell, the engine against the best variant timed, issue #23's
 * per-cell acceptance (each cell below says why), % of each
 * cell's measured limit (cells above 100% flagged as model errors),
 * spreads above 10%, and the engine's ratios to every peer.
 *
 * Every ratio of two implementations in a cell is the median over the
 * repeats of their per-repeat ratio: they ran back to back in each
 * repeat, so a slow moment of the host cancels out.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "peers.h"

#define NOISE	0.10

static const struct result *find(int cell, const char *id)
{
	const struct cell *cl = &cells[cell];
	int i;

	for (i = cl->first; i < cl->first + cl->n; i++)
		if (!strcmp(res[i].id, id))
			return &res[i];
	return NULL;
}

/*
 * a against the best of b[0..nb) in the cell (the highest median): the
 * median of the per-repeat ratios; 0 when something is missing.  (Not the
 * per-repeat maximum of the b's: that picks the luckier of two noisy
 * copies of the same code and biases every ratio down.)
 */
static double ratio_best(int cell, const char *a, const char *const *b,
			 int nb, double *spread, const struct result **best)
{
	const struct result *ra = find(cell, a), *rb = NULL, *r;
	double v[MAXREPS];
	int i, rep;

	if (!ra)
		return 0;
	for (i = 0; i < nb; i++) {
		r = find(cell, b[i]);
		if (!r)
			return 0;
		if (!rb || r->med > rb->med)
			rb = r;
	}
	*spread = fmax(ra->spread, rb->spread);
	*best = rb;
	for (rep = 0; rep < reps; rep++)
		v[rep] = rb->rep[rep] > 0 ? ra->rep[rep] / rb->rep[rep] : 0;
	return median(v, reps);
}

static double ratio(int cell, const char *a, const char *const *b, int nb,
		    double *spread)
{
	const struct result *best;

	return ratio_best(cell, a, b, nb, spread, &best);
}

/* @r below @every by less than the cell's @spread: not told apart */
static bool within_noise(double r, double every, double spread)
{
	return r > every * (1 - spread);
}

static const char *cell_str(int cell)
{
	static char buf[8][64];
	static int n;
	const struct cell *cl = &cells[cell];
	char *s = buf[n++ % 8];

	snprintf(s, 64, "%s k=%d m=%d%s %zuK %s", op_name[cl->op], cl->k,
		 cl->m, cl->e && cl->op == OP_DEC ? " e" : "", cl->B >> 10,
		 cl->cold ? "cold" : "hot");
	if (cl->op == OP_DEC)
		snprintf(s, 64, "decode k=%d e=%d %zuK %s", cl->k, cl->e,
			 cl->B >> 10, cl->cold ? "cold" : "hot");
	return s;
}

/*
 * One target over the cells of @op (and @cache: 0 hot, 1 cold, -1 both):
 * engine-like @a against the best of @b; want the geometric mean >= @gm
 * and every cell >= @every (0: no per-cell target).
 */
static void target(FILE *out, const char *name, enum op op, int cache,
		   const char *a, const char *const *b, int nb, double gm,
		   double every)
{
	double lg = 0, worst = 1e9, sp, r, wsp = 0;
	int c, n = 0, below = 0, wc = -1;
	bool met;

	for (c = 0; c < ncells; c++) {
		if (cells[c].op != op || (cache >= 0 && cells[c].cold != cache))
			continue;
		r = ratio(c, a, b, nb, &sp);
		if (r <= 0)
			continue;
		lg += log(r);
		n++;
		below += every > 0 && r < every;
		if (r < worst) {
			worst = r;
			wc = c;
			wsp = sp;
		}
	}
	if (!n)
		return;
	met = exp(lg / n) >= gm && (!every || worst >= every);
	fprintf(out, "%-58s %-4s geomean %5.2fx  worst %5.2fx (%s, spread %2.0f%%)  want",
		name, cache < 0 ? "" : cache ? "cold" : "hot", exp(lg / n),
		worst, wc >= 0 ? cell_str(wc) : "-", 100 * wsp);
	if (gm > 0)
		fprintf(out, " geomean >= %.2fx", gm);
	if (every > 0)
		fprintf(out, "%s every cell >= %.2fx", gm > 0 ? "," : "",
			every);
	fprintf(out, ": %s", met ? "MET" : "MISSED");
	if (below)
		fprintf(out, " (%d of %d cells below)", below, n);
	fprintf(out, "\n");
	if (!every || !below)
		return;
	for (c = 0; c < ncells; c++) {
		if (cells[c].op != op || (cache >= 0 && cells[c].cold != cache))
			continue;
		r = ratio(c, a, b, nb, &sp);
		if (r > 0 && r < every)
			fprintf(out, "    below: %-28s %5.2fx (spread %2.0f%%%s)\n",
				cell_str(c), r, 100 * sp,
				within_noise(r, every, sp) ? ", within the noise" :
				"");
	}
}

/*
 * % of @c's limit the engine reaches, the median over repeats.  With
 * @regular, 4 KiB cells take the best regular-store limit shape alone:
 * the engine never stores 4 KiB outputs non-temporally (issue #23's rule,
 * small outputs are read again soon), so there the NT shapes measure
 * stores it is not allowed to use.
 */
static double limit_pct(int c, const struct result *e, bool regular)
{
	const struct cell *cl = &cells[c];
	double v[MAXREPS], lim;
	int rep;

	if (!regular || cl->B > 4096)
		return e->pct;
	for (rep = 0; rep < reps; rep++) {
		lim = limit_rep(cl, rep, true);
		v[rep] = lim > 0 ? 100 * e->rep[rep] / lim : 0;
	}
	return median(v, reps);
}

/*
 * % of the limit the engine reaches, geomean and worst, over @op cells;
 * @regular: against the limit of the stores it may use (limit_pct()), a
 * second view printed beside the target, not instead of it.
 */
static void limit_target(FILE *out, enum op op, int cache, double want,
			 bool regular)
{
	double lg = 0, worst = 1e9;
	int c, n = 0, wc = -1;

	for (c = 0; c < ncells; c++) {
		const struct result *r = find(c, "engine");
		double pct;

		if (cells[c].op != op || cells[c].cold != cache || !r)
			continue;
		pct = limit_pct(c, r, regular);
		if (pct <= 0)
			continue;
		lg += log(pct);
		n++;
		if (pct < worst) {
			worst = pct;
			wc = c;
		}
	}
	if (!n)
		return;
	/* one decimal: a geomean printed "90%" may still be under 90 */
	fprintf(out, "%-58s %-4s geomean %5.1f%%  worst %4.0f%%  (%s)",
		regular ? "encode, % of it, 4 KiB vs regular-store shapes" :
		"encode, % of the multi-stream limit", cache ? "cold" : "hot",
		exp(lg / n), worst, cell_str(wc));
	if (regular)
		fprintf(out, "  (information)\n");
	else
		fprintf(out, "  want geomean >= %.0f%%: %s\n", want,
			exp(lg / n) >= want ? "MET" : "MISSED");
}

static char r6[64];	/* raid6_call's id */

static void rep_targets(FILE *out)
{
	static const char *const pq[] = { r6, "isal" };
	static const char *const isal[] = { "isal" };
	static const char *const var[] = { "best-regular", "best-nt", r6 };
	static const char *const xvar[] = {
		"best-regular", "best-nt", "xor_avx"
	};
	static const char *const chain[] = { "chain" };
	int cache;

	snprintf(r6, sizeof(r6), "raid6-%s", raid6_call.name);
	fprintf(out, "== issue #12 targets: the engine as the kernel runs it");
	fprintf(out, " (calibrated path and stores) ==\n");
	fprintf(out, "== per cell the median of per-repeat ratios;");
	fprintf(out, " geomean and worst over 4 KiB, 64 KiB, 1 MiB ==\n");
	for (cache = 0; cache < 2; cache++)
		target(out, "P+Q vs best of lib/raid6 (raid6_call) and isal pq_gen",
		       OP_PQ, cache, "engine", pq, 2, 0, 1.0);
	target(out, "RS encode vs isal ec_encode_data (best dispatch)", OP_ENC,
	       0, "engine", isal, 1, 2.0, 1.0);
	target(out, "RS encode vs isal ec_encode_data (best dispatch)", OP_ENC,
	       1, "engine", isal, 1, 1.2, 1.0);
	for (cache = 0; cache < 2; cache++)
		target(out, "XOR vs isal xor_gen", OP_XOR, cache, "engine",
		       isal, 1, 0, 1.0);
	limit_target(out, OP_ENC, 1, 90, false);
	limit_target(out, OP_ENC, 1, 0, true);
	for (cache = 0; cache < 2; cache++)
		target(out, "decode vs isal ec_encode_data", OP_DEC, cache,
		       "engine", isal, 1, 0, 1.0);
	for (cache = 0; cache < 2; cache++)
		target(out, "update vs isal ec_encode_data_update", OP_UPD,
		       cache, "engine", isal, 1, 0, 1.0);

	fprintf(out, "\n== the engine's choice vs the best variant timed");
	fprintf(out, " (best algo regular / NT, lib) ==\n");
	for (cache = 0; cache < 2; cache++) {
		target(out, "encode: engine vs best of regular, nt", OP_ENC,
		       cache, "engine", var, 2, 0, 1.0);
		target(out, "P+Q: engine vs best of regular, nt, lib/raid6",
		       OP_PQ, cache, "engine", var, 3, 0, 1.0);
		target(out, "XOR: engine vs best of regular, nt, xor_avx",
		       OP_XOR, cache, "engine", xvar, 3, 0, 1.0);
	}
	/* the module composes only where its probe measured this >= 1 */
	for (cache = 0; cache < 2; cache++)
		target(out, "recovery: composed vs five operations (fuse)",
		       OP_REC, cache, "engine", chain, 1, 0, 1.0);
}

#define ACC_LINE	160	/* bytes of one "below" line of accept() */

/* @r writes with NT stores: ours so built, or lib/raid6 (its SIMD syndromes) */
static bool nt_stores(const struct result *r)
{
	return !strcmp(r->id, "best-nt") ||
	       (!strncmp(r->id, "raid6-", 6) &&
		strncmp(r->id, "raid6-recov", 11));
}

/*
 * Issue #23's per-cell acceptance: the engine against the best of @b in
 * every cell of @op, >= @every.  A cell below is one of three kinds, and
 * the verdict says which: within its spread (the two are not told apart
 * by this run), 4 KiB where the best is the NT variant (4 KiB outputs
 * take regular stores by design, hot or cold: md reads its parity again
 * soon, and issue #23 rules NT out for them), or a miss.  Only misses make
 * it MISSED.
 */
static void accept(FILE *out, const char *name, enum op op, int cache,
		   const char *const *b, int nb, double every)
{
	int c, n = 0, noise = 0, nt4k = 0, miss = 0, nb_lines = 0;
	char *lines = calloc(ncells, ACC_LINE);
	const struct result *best;
	double sp, r;

	if (!lines)
		die("oom");
	fprintf(out, "%-58s %-4s every cell >= %.2fx: ", name,
		cache ? "cold" : "hot", every);
	for (c = 0; c < ncells; c++) {
		if (cells[c].op != op || cells[c].cold != cache)
			continue;
		r = ratio_best(c, "engine", b, nb, &sp, &best);
		if (r <= 0)
			continue;
		n++;
		if (r >= every)
			continue;
		if (cells[c].B == 4096 && nt_stores(best))
			nt4k++;
		else if (within_noise(r, every, sp))
			noise++;
		else
			miss++;
		snprintf(lines + ACC_LINE * nb_lines++, ACC_LINE,
			 "    below: %-28s %5.2fx of %s (spread %2.0f%%)\n",
			 cell_str(c), r, best->name, 100 * sp);
	}
	fprintf(out, "%s (%d cells", miss ? "MISSED" : "MET", n);
	if (miss)
		fprintf(out, "; %d below beyond their spread", miss);
	if (noise)
		fprintf(out, "; %d below within their spread", noise);
	if (nt4k)
		fprintf(out, "; %d 4 KiB below NT stores, not used there",
			nt4k);
	fprintf(out, ")\n");
	for (c = 0; c < nb_lines; c++)
		fputs(lines + ACC_LINE * c, out);
	free(lines);
}

static void rep_accept(FILE *out)
{
	static const char *const pq[] = { r6, "isal" };
	static const char *const isal[] = { "isal" };
	static const char *const var[] = { "best-regular", "best-nt", r6 };
	static const char *const ev[] = { "best-regular", "best-nt" };
	static const char *const xvar[] = {
		"best-regular", "best-nt", "xor_avx"
	};
	int cache;

	fprintf(out, "\n== issue #23 acceptance: per cell, the engine against");
	fprintf(out, " its best variant (>= 0.95x) and the best peer (>= 0.97x)");
	fprintf(out, " ==\n");
	for (cache = 0; cache < 2; cache++) {
		accept(out, "P+Q: engine vs best variant", OP_PQ, cache, var,
		       3, 0.95);
		accept(out, "XOR: engine vs best variant", OP_XOR, cache, xvar,
		       3, 0.95);
		accept(out, "RS encode: engine vs best variant", OP_ENC, cache,
		       ev, 2, 0.95);
		accept(out, "P+Q: engine vs best peer", OP_PQ, cache, pq, 2,
		       0.97);
		accept(out, "RS encode: engine vs best peer (ISA-L)", OP_ENC,
		       cache, isal, 1, 0.97);
	}
}

/* model errors, noisy cells */
static void checks(FILE *out)
{
	int i, over = 0, noisy = 0, cellsn = 0, c;

	fprintf(out, "\n== above the measured limit");
	fprintf(out, " (model errors: a loop shape the limit lacks) ==\n");
	for (i = 0; i < nres; i++)
		if (res[i].kind != K_LIMIT && res[i].pct > 100) {
			if (over++ < 20)
				fprintf(out, "    %-28s %-40s %4.0f%% of %.2f GB/s\n",
					cell_str(res[i].cell), res[i].name,
					res[i].pct,
					cells[res[i].cell].limit_med);
		}
	fprintf(out, "%d results above 100%% of their cell's limit\n", over);

	for (c = 0; c < ncells; c++) {
		bool bad = false;

		for (i = cells[c].first; i < cells[c].first + cells[c].n; i++)
			bad |= res[i].kind != K_LIMIT && res[i].spread > NOISE;
		noisy += bad;
		cellsn++;
	}
	fprintf(out, "\n== spread: cells where an implementation's");
	fprintf(out, " (q3 - q1) / median exceeds %.0f%% ==\n", 100 * NOISE);
	fprintf(out, "%d of %d cells; their ratios are less certain", noisy,
		cellsn);
	fprintf(out, " (the spread is listed with each miss above)\n");
}

/* the engine against every peer, per op and cache, and % of the limit */
static void ratios(FILE *out)
{
	static const char *const ids[] = {
		"isal", "isal-avx512", "isal-avx2", "raid6-avx512x4",
		"raid6-avx512x2", "raid6-avx2x4", "xor_avx",
		"raid6-recov-avx512", "raid6-recov-avx2", "async-scalar", "chain",
		"best-regular", "best-nt", "limit",
	};
	enum op op;
	size_t p;
	int cache;

	fprintf(out, "\n== the engine / peer");
	fprintf(out, " (geomean, min, max over cells; limit: best limit shape) ==\n");
	for (op = 0; op < OP_NR; op++)
		for (cache = 0; cache < 2; cache++)
			for (p = 0; p < ARRAY_SIZE(ids); p++) {
				double lg = 0, mn = 1e9, mx = 0, sp, r;
				const char *b[1] = { ids[p] };
				int c, n = 0;

				for (c = 0; c < ncells; c++) {
					if (cells[c].op != op ||
					    cells[c].cold != cache)
						continue;
					if (!strcmp(ids[p], "limit"))
						r = find(c, "engine") ?
						    find(c, "engine")->pct / 100 : 0;
					else
						r = ratio(c, "engine", b, 1, &sp);
					if (r <= 0)
						continue;
					lg += log(r);
					n++;
					mn = fmin(mn, r);
					mx = fmax(mx, r);
				}
				if (!n)
					continue;
				fprintf(out, "%-7s %-4s vs %-20s %6.2fx",
					op_name[op], cache ? "cold" : "hot",
					ids[p], exp(lg / n));
				fprintf(out, " (min %5.2fx, max %6.2fx, %2d cells)\n",
					mn, mx, n);
			}
}

/* NT / regular stores of the best algo, per block size and cache */
static void rep_stores(FILE *out)
{
	static const size_t bs[] = { 4096, 65536, 1 << 20 };
	static const char *const reg[] = { "best-regular" };
	size_t b;
	int cache;

	fprintf(out, "\n== nt / regular stores, best algo, encode + P+Q + XOR");
	fprintf(out, " (geomean, min, max) ==\n");
	for (b = 0; b < ARRAY_SIZE(bs); b++)
		for (cache = 0; cache < 2; cache++) {
			double lg = 0, mn = 1e9, mx = 0, sp, r;
			int c, n = 0;

			for (c = 0; c < ncells; c++) {
				if (cells[c].B != bs[b] ||
				    cells[c].cold != cache ||
				    (cells[c].op != OP_ENC &&
				     cells[c].op != OP_PQ &&
				     cells[c].op != OP_XOR))
					continue;
				r = ratio(c, "best-nt", reg, 1, &sp);
				if (r <= 0)
					continue;
				lg += log(r);
				n++;
				mn = fmin(mn, r);
				mx = fmax(mx, r);
			}
			if (!n)
				continue;
			fprintf(out, "block %7zu %-4s nt/regular %5.2fx", bs[b],
				cache ? "cold" : "hot", exp(lg / n));
			fprintf(out, " (min %4.2fx, max %4.2fx, %d cells)\n", mn,
				mx, n);
		}
}

static void rep_cal(FILE *out)
{
	int c, k, n = ECDMA_GF_BAND_NARROW, w = ECDMA_GF_BAND_WIDE;

	fprintf(out, "# engine calibration here (gf_cal.c): gf %s, raid6 %s,",
		best_algo->name, raid6_call.name);
	fprintf(out, " NT writes %u MB/s; per class: P+Q path, XOR path",
		cal.nt_wr);
	fprintf(out, " (outputs cached/not; k<=%d inputs, more),",
		ECDMA_GF_BAND_CUT);
	fprintf(out, " stores for xor/pq/rs");
	fprintf(out, " on outputs cached/not (last-level cache %llu KiB %s,",
		cal.llc >> 10, ecdma_gf_llc_src_names[cal.llc_src]);
	fprintf(out, " reuse window %llu KiB; L2 %llu KiB: NT on cached",
		cal.reuse_window >> 10, cal.l2 >> 10);
	fprintf(out, " outputs from %d blocks of 64k %u KiB, big %u KiB)\n",
		ECDMA_GF_CAL_DISKS, cal.nt_block[ECDMA_GF_CLS_64K] >> 10,
		cal.nt_block[ECDMA_GF_CLS_BIG] >> 10);
	for (c = 0; c < ECDMA_GF_CLS_NR; c++) {
		fprintf(out, "#   %-3s P+Q %s/%s %s/%s, XOR %s/%s %s/%s, nt",
			ecdma_gf_cls_names[c],
			cal.lib_pq[n] & BIT(c) ? "lib" : "gf",
			cal.lib_pq_cold[n] & BIT(c) ? "lib" : "gf",
			cal.lib_pq[w] & BIT(c) ? "lib" : "gf",
			cal.lib_pq_cold[w] & BIT(c) ? "lib" : "gf",
			cal.lib_xor[n] & BIT(c) ? "lib" : "gf",
			cal.lib_xor_cold[n] & BIT(c) ? "lib" : "gf",
			cal.lib_xor[w] & BIT(c) ? "lib" : "gf",
			cal.lib_xor_cold[w] & BIT(c) ? "lib" : "gf");
		for (k = 0; k < ECDMA_GF_KIND_NR; k++)
			fprintf(out, " %s:%s/%s", ecdma_gf_kind_names[k],
				cal.nt[k] & BIT(ECDMA_GF_NT_CACHED(c)) ?
				"nt" : "regular",
				cal.nt[k] & BIT(c) ? "nt" : "regular");
		fprintf(out, "\n");
	}
}

/* the summary to @out and stdout */
void report(FILE *out)
{
	FILE *o[2] = { out, stdout };
	int i;

	for (i = 0; i < 2; i++) {
		fprintf(o[i], "\n");
		rep_cal(o[i]);
		rep_targets(o[i]);
		rep_accept(o[i]);
		checks(o[i]);
		rep_stores(o[i]);
		ratios(o[i]);
	}
}
