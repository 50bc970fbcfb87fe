// SPDX-License-Identifier: GPL-2.0
/* CPU provider: tunables, P+Q/XOR paths and stores (calibrated or sysfs) */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/irqflags.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <asm/cacheflush.h>
#include <asm/fpu/api.h>

#include "ec_priv.h"
#include "ecdma_compat_raid.h"
#include "prov_cpu.h"
#include "gf_algo.h"
#include "gf_cal.h"
#include "gf_simd.h"

/* defaults; see enum ecdma_cpu_tunable */
#define CPU_WORKER_BUDGET	(128 * 1024L)
/* smaller: ecdma_ec_progress() callers may have preemption off */
#define CPU_INLINE_BUDGET	(64 * 1024L)
#define CPU_SECTION_OPS		64
#define CPU_NT_THRESHOLD	((long)ECDMA_GF_NT_MIN_DEFAULT)

/* read once per section: a change applies from the next one */
static long ecdma_cpu_tunables[ECDMA_CPU_TUNABLE_NR] = {
	[ECDMA_CPU_WORKER_BUDGET] = CPU_WORKER_BUDGET,
	[ECDMA_CPU_INLINE_BUDGET] = CPU_INLINE_BUDGET,
	[ECDMA_CPU_SECTION_OPS] = CPU_SECTION_OPS,
	[ECDMA_CPU_NT_THRESHOLD] = CPU_NT_THRESHOLD,
};

static const long ecdma_cpu_tunable_range[ECDMA_CPU_TUNABLE_NR][2] = {
	[ECDMA_CPU_WORKER_BUDGET] = { 4096, 16L << 20 },
	[ECDMA_CPU_INLINE_BUDGET] = { 4096, 16L << 20 },
	[ECDMA_CPU_SECTION_OPS] = { 1, 4096 },
	[ECDMA_CPU_NT_THRESHOLD] = { 0, 1L << 30 },
};

/**
 * ecdma_cpu_tunable_get() - read a CPU provider tunable
 * @t: which
 * Return: its value.
 */
long ecdma_cpu_tunable_get(enum ecdma_cpu_tunable t)
{
	return READ_ONCE(ecdma_cpu_tunables[t]);
}
EXPORT_SYMBOL_GPL(ecdma_cpu_tunable_get);	/* for the test modules */

/**
 * ecdma_cpu_tunable_set() - change a CPU provider tunable
 * @t: which
 * @val: new value
 * Context: any; applies from the next execution section.
 * Return: 0, or -EINVAL (nothing changed) when @val is out of range.
 */
int ecdma_cpu_tunable_set(enum ecdma_cpu_tunable t, long val)
{
	if (val < ecdma_cpu_tunable_range[t][0] ||
	    val > ecdma_cpu_tunable_range[t][1])
		return -EINVAL;
	WRITE_ONCE(ecdma_cpu_tunables[t], val);
	return 0;
}

/* one class's word in the strings below ("nt(k>=255)", "lib/gf") */
#define ECDMA_CPU_WORD	16

const char *const ecdma_cpu_path_names[ECDMA_CPU_PATH_NR] = {
	[ECDMA_CPU_PATH_AUTO] = "auto",
	[ECDMA_CPU_PATH_LIB] = "lib",
	[ECDMA_CPU_PATH_GF] = "gf",
};

/* guards the variables below; executors read theirs locklessly */
static DEFINE_MUTEX(ecdma_cpu_cal_lock);
static struct ecdma_gf_cal ecdma_cpu_cal;
static const char *ecdma_cpu_cal_algo;
/* [pq]: the sysfs choice for P+Q (1) and XOR (0) */
static enum ecdma_cpu_path ecdma_cpu_path_set[2];
/* [pq][band]: bit c: lib/raid6 (1) or xor_blocks() (0) computes class c */
static u8 ecdma_cpu_lib[2][ECDMA_GF_BAND_NR] = {
	{ ECDMA_GF_CLS_ALL, ECDMA_GF_CLS_ALL },
	{ ECDMA_GF_CLS_ALL, ECDMA_GF_CLS_ALL },
};

/* [pq][band]: the same, for outputs that are not in the cache */
static u8 ecdma_cpu_lib_cold[2][ECDMA_GF_BAND_NR] = {
	{ ECDMA_GF_CLS_ALL, ECDMA_GF_CLS_ALL },
	{ ECDMA_GF_CLS_ALL, ECDMA_GF_CLS_ALL },
};

/* [kind]: bit c: NT stores for class c outputs not cached, as calibrated */
static u8 ecdma_cpu_nt_cls[ECDMA_GF_KIND_NR];
/* [class]: the block of its hot store question (ecdma_gf_nt_mask()) */
static u32 ecdma_cpu_nt_block[ECDMA_GF_CLS_NR];
/* nt_threshold was set to a number: it decides, not the calibration */
static bool ecdma_cpu_nt_fixed;
/* the calibration's reuse window (ecdma_gf_reused()) */
static u64 ecdma_cpu_reuse_window = ECDMA_GF_REUSE_DEFAULT;

static u64 ecdma_cpu_cal_now(void)
{
	return ktime_get_ns();
}

static void ecdma_cpu_cal_flush(void *p, size_t len)
{
	clflush_cache_range(p, len);
}

static void ecdma_cpu_cal_fpu(bool on)
{
	if (on)
		kernel_fpu_begin();
	else
		kernel_fpu_end();
}

/* lib/raid6 and xor_blocks() manage the FPU themselves */
static void ecdma_cpu_cal_pq(int disks, size_t bytes, void **ptrs)
{
	ecdma_raid6_gen(disks, bytes, ptrs);
}

static void ecdma_cpu_cal_xor(unsigned int count, size_t bytes, void *dest,
			      void **srcs)
{
	ecdma_xor_lib(count, bytes, dest, srcs);
}

static void ecdma_cpu_cal_resched(void)
{
	cond_resched();
}

/* Resolve "auto" and the store policy; ecdma_cpu_cal_lock held. */
static void ecdma_cpu_apply(void)
{
	const struct ecdma_gf_cal *c = &ecdma_cpu_cal;
	int pq, kind, b;

	for (pq = 0; pq < 2; pq++) {
		for (b = 0; b < ECDMA_GF_BAND_NR; b++) {
			u8 lib, cold;

			switch (ecdma_cpu_path_set[pq]) {
			case ECDMA_CPU_PATH_LIB:
				lib = ECDMA_GF_CLS_ALL;
				cold = lib;
				break;
			case ECDMA_CPU_PATH_GF:
				lib = 0;
				cold = 0;
				break;
			default:
				/* unmeasured: as ecdma_gf_cal_init() chose */
				lib = pq ? c->lib_pq[b] : c->lib_xor[b];
				cold = pq ? c->lib_pq_cold[b] :
				       c->lib_xor_cold[b];
				break;
			}
			WRITE_ONCE(ecdma_cpu_lib[pq][b], lib);
			WRITE_ONCE(ecdma_cpu_lib_cold[pq][b], cold);
		}
	}
	for (kind = 0; kind < ECDMA_GF_KIND_NR; kind++)
		WRITE_ONCE(ecdma_cpu_nt_cls[kind], c->nt[kind]);
	for (b = 0; b < ECDMA_GF_CLS_NR; b++)
		WRITE_ONCE(ecdma_cpu_nt_block[b], c->nt_block[b]);
	WRITE_ONCE(ecdma_cpu_reuse_window, c->reuse_window);
}

/* one word when every class's is the same, else "4k:a 64k:b big:c" */
static int ecdma_cpu_words_str(char *buf, size_t size,
			       char (*one)[ECDMA_CPU_WORD])
{
	int c, len = 0;

	if (!strcmp(one[0], one[1]) && !strcmp(one[1], one[2]))
		return scnprintf(buf, size, "%s", one[0]);
	for (c = 0; c < ECDMA_GF_CLS_NR; c++)
		len += scnprintf(buf + len, size - len, "%s%s:%s",
				 c ? " " : "", ecdma_gf_cls_names[c], one[c]);
	return len;
}

/* as ecdma_cpu_words_str(); a class reads "@mask/@cold" where they differ */
static int ecdma_cpu_cls_str(char *buf, size_t size, unsigned int mask,
			     unsigned int cold, const char *yes,
			     const char *no)
{
	char one[ECDMA_GF_CLS_NR][ECDMA_CPU_WORD];
	int c;

	for (c = 0; c < ECDMA_GF_CLS_NR; c++) {
		const char *h = mask & BIT(c) ? yes : no;

		if (!(mask & BIT(c)) == !(cold & BIT(c)))
			scnprintf(one[c], sizeof(one[c]), "%s", h);
		else
			scnprintf(one[c], sizeof(one[c]), "%s/%s", h,
				  cold & BIT(c) ? yes : no);
	}
	return ecdma_cpu_words_str(buf, size, one);
}

/* as ecdma_cpu_cls_str() per band: "k<=6: x; k>=7: y" where they differ */
static int ecdma_cpu_band_str(char *buf, size_t size, const u8 *lib,
			      const u8 *cold)
{
	int n = ECDMA_GF_BAND_NARROW, w = ECDMA_GF_BAND_WIDE, len;

	if (lib[n] == lib[w] && cold[n] == cold[w])
		return ecdma_cpu_cls_str(buf, size, lib[w], cold[w], "lib",
					 "gf");
	len = scnprintf(buf, size, "k<=%d: ", ECDMA_GF_BAND_CUT);
	len += ecdma_cpu_cls_str(buf + len, size - len, lib[n], cold[n],
				 "lib", "gf");
	len += scnprintf(buf + len, size - len, "; k>=%d: ",
			 ECDMA_GF_BAND_CUT + 1);
	return len + ecdma_cpu_cls_str(buf + len, size - len, lib[w], cold[w],
				       "lib", "gf");
}

/* "regular" or "nt", as ecdma_cpu_cls_str(): "<cached>/<not cached>" */
static int ecdma_cpu_nt_cls_str(char *buf, size_t size, unsigned int nt)
{
	/* the cached bits sit above the others (ECDMA_GF_NT_CACHED()) */
	return ecdma_cpu_cls_str(buf, size, nt >> ECDMA_GF_CLS_NR, nt, "nt",
				 "regular");
}

/* "<what> [<lib> h/c ]gf h/c gf_nt h/c": one kind's measurements */
static int ecdma_cpu_cal_row(char *buf, size_t size, const char *what,
			     const char *lib, const u32 (*w)[2])
{
	int len = scnprintf(buf, size, "%s", what);

	if (lib)
		len += scnprintf(buf + len, size - len, " %s %u/%u", lib,
				 w[ECDMA_GF_CAL_LIB][0], w[ECDMA_GF_CAL_LIB][1]);
	return len + scnprintf(buf + len, size - len, " gf %u/%u gf_nt %u/%u",
			       w[ECDMA_GF_CAL_REG][0], w[ECDMA_GF_CAL_REG][1],
			       w[ECDMA_GF_CAL_NT][0], w[ECDMA_GF_CAL_NT][1]);
}

/* a class's measurements in band @b (RS only in the wide one) */
static void ecdma_cpu_cal_log_class(const struct ecdma_gf_cal *cal, int c,
				    int b)
{
	const u32 (*m)[ECDMA_GF_CAL_WAYS][2] = cal->mbps[b][c];
	char line[256];	/* with 10-digit numbers: 232 */
	int len;

	len = ecdma_cpu_cal_row(line, sizeof(line), "P+Q", "raid6",
				m[ECDMA_GF_KIND_PQ]);
	len += ecdma_cpu_cal_row(line + len, sizeof(line) - len, "; XOR",
				 "xor_blocks", m[ECDMA_GF_KIND_XOR]);
	if (b == ECDMA_GF_BAND_WIDE) {
		ecdma_cpu_cal_row(line + len, sizeof(line) - len, "; RS", NULL,
				  m[ECDMA_GF_KIND_RS]);
		pr_info("calibration %s (MB/s hot/cold): %s\n",
			ecdma_gf_cls_names[c], line);
		return;
	}
	pr_info("calibration %s, %d inputs (MB/s hot/cold): %s\n",
		ecdma_gf_cls_names[c], ECDMA_GF_CAL_NARROW, line);
}

/* a class's own hot store measurement, if it has one */
static void ecdma_cpu_cal_log_nt_hot(const struct ecdma_gf_cal *cal, int c)
{
	const u32 (*h)[2] = cal->nt_hot[c];

	if (!ecdma_gf_cal_nt_disks[c])
		return;
	if (cal->nt_fits & BIT(c)) {
		pr_info("calibration %s, %d inputs of %u KiB hot: not measured, fits in the L2 (%llu KiB): regular stores on cached outputs\n",
			ecdma_gf_cls_names[c], ecdma_gf_cal_nt_disks[c],
			cal->nt_block[c] >> 10, cal->l2 >> 10);
		return;
	}
	/* 0 0: too slow to ask (struct ecdma_gf_cal's @nt_slow) */
	pr_info("calibration %s, %d inputs of %u KiB (MB/s hot): P+Q gf %u gf_nt %u; XOR gf %u gf_nt %u; RS gf %u gf_nt %u\n",
		ecdma_gf_cls_names[c], ecdma_gf_cal_nt_disks[c],
		cal->nt_block[c] >> 10,
		h[ECDMA_GF_KIND_PQ][0], h[ECDMA_GF_KIND_PQ][1],
		h[ECDMA_GF_KIND_XOR][0], h[ECDMA_GF_KIND_XOR][1],
		h[ECDMA_GF_KIND_RS][0], h[ECDMA_GF_KIND_RS][1]);
	if (c == ECDMA_GF_CLS_BIG && cal->nt_square[0])
		pr_info("calibration %s, RS %d inputs %d outputs of %u KiB (MB/s hot): gf %u gf_nt %u\n",
			ecdma_gf_cls_names[c], ECDMA_GF_CAL_OUTS,
			ECDMA_GF_CAL_OUTS, cal->nt_block[c] >> 10,
			cal->nt_square[0], cal->nt_square[1]);
}

static void ecdma_cpu_cal_log(const struct ecdma_gf_cal *cal,
			      const char *algo)
{
	char pq[ECDMA_CPU_PATH_STR], xor[ECDMA_CPU_PATH_STR], nt[3][64];
	int c, k;

	for (c = 0; c < ECDMA_GF_CLS_NR; c++) {
		ecdma_cpu_cal_log_class(cal, c, ECDMA_GF_BAND_WIDE);
		ecdma_cpu_cal_log_class(cal, c, ECDMA_GF_BAND_NARROW);
		ecdma_cpu_cal_log_nt_hot(cal, c);
	}
	ecdma_cpu_band_str(pq, sizeof(pq), cal->lib_pq, cal->lib_pq_cold);
	ecdma_cpu_band_str(xor, sizeof(xor), cal->lib_xor, cal->lib_xor_cold);
	for (k = 0; k < ECDMA_GF_KIND_NR; k++)
		ecdma_cpu_nt_cls_str(nt[k], sizeof(nt[k]), cal->nt[k]);
	pr_info("calibrated: raid6 %s, gf %s, %d rounds in %llu ms: P+Q %s, XOR %s; stores (NT writes %u MB/s, LLC %llu KiB %s, L2 %llu KiB, reuse window %llu KiB): xor %s, pq %s, rs %s\n",
		raid6_call.name, algo, cal->rounds,
		div_u64(cal->ns, NSEC_PER_MSEC), pq, xor, cal->nt_wr,
		cal->llc >> 10, ecdma_gf_llc_src_names[cal->llc_src],
		cal->l2 >> 10,
		cal->reuse_window >> 10,
		nt[ECDMA_GF_KIND_XOR], nt[ECDMA_GF_KIND_PQ],
		nt[ECDMA_GF_KIND_RS]);
}

/**
 * ecdma_cpu_calibrate() - measure the candidates with @algo; sets "auto"
 * @algo: the GF algo new calcs get
 *
 * Unmeasured (no FPU or memory): the kernel's code, regular stores.
 * Context: process context; sleeps, allocates ECDMA_GF_CAL_BUF_BYTES, and
 * ECDMA_GF_LLC_BUF_BYTES while it measures the cache if CPUID reports none.
 */
void ecdma_cpu_calibrate(const struct ecdma_gf_algo *algo)
{
	struct ecdma_gf_cal_env env = {
		.now_ns = ecdma_cpu_cal_now,
		.flush = ecdma_cpu_cal_flush,
		.fpu = ecdma_cpu_cal_fpu,
		.pq_lib = ecdma_cpu_cal_pq,
		.xor_lib = ecdma_cpu_cal_xor,
		.xor_max = ECDMA_XOR_LIB_MAX,
		/* sections of the worker: the executor splits blocks so */
		.piece = ecdma_cpu_tunable_get(ECDMA_CPU_WORKER_BUDGET),
		.max_ns = ECDMA_GF_CAL_MAX_NS,
		.resched = ecdma_cpu_cal_resched,
		.llc = ecdma_simd_llc_bytes(),
		.l2 = ecdma_simd_l2_bytes(),
	};
	struct ecdma_gf_cal *cal;
	u8 *buf = NULL, *tbls = NULL;
	size_t i;

	cal = kmalloc(sizeof(*cal), GFP_KERNEL);
	if (!cal)
		return;
	ecdma_gf_cal_init(cal);
	buf = kvmalloc(ECDMA_GF_CAL_BUF_BYTES, GFP_KERNEL);
	tbls = kmalloc(ECDMA_GF_CAL_TBL_BYTES, GFP_KERNEL);
	if (!buf || !tbls)
		goto out_apply;
	/* the SIMD candidates need the FPU here, as at every other load */
	if (algo->fpu && (irqs_disabled() || !irq_fpu_usable()))
		goto out_apply;
	/* without it, the default reuse window: only NT gains forgone */
	if (!env.llc)
		env.llc_buf = kvmalloc(ECDMA_GF_LLC_BUF_BYTES,
				       GFP_KERNEL | __GFP_NOWARN);
	/* any content times alike; get_random_bytes() is slow if emulated */
	for (i = 0; i < ECDMA_GF_CAL_BUF_BYTES / sizeof(u64); i++)
		((u64 *)buf)[i] = i * 0x9e3779b97f4a7c15ULL;
	ecdma_gf_calibrate(algo, &env, buf, tbls, cal);
out_apply:
	mutex_lock(&ecdma_cpu_cal_lock);
	ecdma_cpu_cal = *cal;
	ecdma_cpu_cal_algo = algo->name;
	ecdma_cpu_apply();
	mutex_unlock(&ecdma_cpu_cal_lock);
	if (cal->done)
		ecdma_cpu_cal_log(cal, algo->name);
	kvfree(env.llc_buf);
	kfree(tbls);
	kvfree(buf);
	kfree(cal);
}

/**
 * ecdma_cpu_exec_policy() - the policy executors apply in a section
 * @pol: filled in
 * Context: any; lock-free.
 */
void ecdma_cpu_exec_policy(struct ecdma_ec_exec_policy *pol)
{
	bool fixed = READ_ONCE(ecdma_cpu_nt_fixed);
	int kind, b;

	pol->nt_min = fixed ? ecdma_cpu_tunable_get(ECDMA_CPU_NT_THRESHOLD) : 0;
	for (b = 0; b < ECDMA_GF_BAND_NR; b++) {
		pol->fast_pq[b] = READ_ONCE(ecdma_cpu_lib[1][b]);
		pol->fast_xor[b] = READ_ONCE(ecdma_cpu_lib[0][b]);
		pol->fast_pq_cold[b] = READ_ONCE(ecdma_cpu_lib_cold[1][b]);
		pol->fast_xor_cold[b] = READ_ONCE(ecdma_cpu_lib_cold[0][b]);
	}
	for (kind = 0; kind < ECDMA_GF_KIND_NR; kind++)
		pol->nt[kind] = fixed ? 0 : READ_ONCE(ecdma_cpu_nt_cls[kind]);
	for (b = 0; b < ECDMA_GF_CLS_NR; b++)
		pol->nt_block[b] = READ_ONCE(ecdma_cpu_nt_block[b]);
	pol->reuse_window = READ_ONCE(ecdma_cpu_reuse_window);
}

/**
 * ecdma_cpu_set_path() - choose who computes P+Q or XOR
 * @pq: P+Q (true) or XOR (false)
 * @path: the choice, for every block-size class
 * Context: process context.  Applies from the next execution section.
 * Return: 0, or -EINVAL for an unknown @path.
 */
int ecdma_cpu_set_path(bool pq, enum ecdma_cpu_path path)
{
	if (path < 0 || path >= ECDMA_CPU_PATH_NR)
		return -EINVAL;
	mutex_lock(&ecdma_cpu_cal_lock);
	ecdma_cpu_path_set[pq] = path;
	ecdma_cpu_apply();
	mutex_unlock(&ecdma_cpu_cal_lock);
	return 0;
}

/**
 * ecdma_cpu_path_get() - the choice for P+Q or XOR
 * @pq: P+Q (true) or XOR (false)
 * Return: the choice (possibly ECDMA_CPU_PATH_AUTO); its effect:
 * ecdma_cpu_path_str().
 */
enum ecdma_cpu_path ecdma_cpu_path_get(bool pq)
{
	enum ecdma_cpu_path p;

	mutex_lock(&ecdma_cpu_cal_lock);
	p = ecdma_cpu_path_set[pq];
	mutex_unlock(&ecdma_cpu_cal_lock);
	return p;
}

/**
 * ecdma_cpu_path_str() - the classes' paths for humans and sysfs
 * @pq: P+Q (true) or XOR (false)
 * @buf: filled in, as ecdma_cpu_band_str() ("gf/lib": gf if cached)
 * @size: of @buf, ECDMA_CPU_PATH_STR is enough
 * Return: the length written.
 */
int ecdma_cpu_path_str(bool pq, char *buf, size_t size)
{
	u8 lib[ECDMA_GF_BAND_NR], cold[ECDMA_GF_BAND_NR];

	mutex_lock(&ecdma_cpu_cal_lock);
	memcpy(lib, ecdma_cpu_lib[pq], sizeof(lib));
	memcpy(cold, ecdma_cpu_lib_cold[pq], sizeof(cold));
	mutex_unlock(&ecdma_cpu_cal_lock);
	return ecdma_cpu_band_str(buf, size, lib, cold);
}

/**
 * ecdma_cpu_set_nt() - who decides the store kind
 * @threshold: NT stores for blocks from this many bytes (0: none), for
 *	every kind; -1: the calibration decides per class ("auto")
 * Context: process context.  Applies from the next execution section.
 * Return: 0, or -EINVAL (nothing changed) when out of nt_threshold's range.
 */
int ecdma_cpu_set_nt(long threshold)
{
	int ret = 0;

	mutex_lock(&ecdma_cpu_cal_lock);
	if (threshold >= 0)
		ret = ecdma_cpu_tunable_set(ECDMA_CPU_NT_THRESHOLD, threshold);
	if (!ret)
		WRITE_ONCE(ecdma_cpu_nt_fixed, threshold >= 0);
	mutex_unlock(&ecdma_cpu_cal_lock);
	return ret;
}

/**
 * ecdma_cpu_nt() - the store kind's decider
 * Return: the fixed threshold, or -1 while the calibration decides.
 */
long ecdma_cpu_nt(void)
{
	if (!READ_ONCE(ecdma_cpu_nt_fixed))
		return -1;
	return ecdma_cpu_tunable_get(ECDMA_CPU_NT_THRESHOLD);
}

/**
 * ecdma_cpu_nt_str() - the calibrated store kinds for humans
 * @kind: which kind of operation
 * @buf: filled in, as ecdma_cpu_nt_cls_str()
 * @size: of @buf
 * Return: the length written.
 */
int ecdma_cpu_nt_str(enum ecdma_gf_kind kind, char *buf, size_t size)
{
	return ecdma_cpu_nt_cls_str(buf, size,
				    READ_ONCE(ecdma_cpu_nt_cls[kind]));
}

/**
 * ecdma_cpu_calibration() - the last measurement
 * @cal: filled in
 * Return: the GF algo it measured, or NULL before the first one.
 */
const char *ecdma_cpu_calibration(struct ecdma_gf_cal *cal)
{
	const char *algo;

	mutex_lock(&ecdma_cpu_cal_lock);
	*cal = ecdma_cpu_cal;
	algo = ecdma_cpu_cal_algo;
	mutex_unlock(&ecdma_cpu_cal_lock);
	return algo;
}
