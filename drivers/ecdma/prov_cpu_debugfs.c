// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma debugfs, the CPU provider's file: "calibration", what
 * ecdma_cpu_calibrate() measured at load (prov_cpu_cal.c) and what each
 * path and store kind uses now.  For debugging, not ABI (admin guide).
 */
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/seq_file.h>

#include "ec_priv.h"
#include "ecdma_compat_raid.h"
#include "prov_cpu.h"
#include "gf_algo.h"
#include "gf_cal.h"

/* "<kind>[4] lib h/c gf h/c gf_nt h/c" per kind measured in band @b */
static void calibration_show_rows(struct seq_file *m,
				  const struct ecdma_gf_cal *cal, int b, int c)
{
	int kind, way;

	for (kind = 0; kind < ECDMA_GF_KIND_NR; kind++) {
		if (b == ECDMA_GF_BAND_NARROW && kind == ECDMA_GF_KIND_RS)
			continue;
		seq_printf(m, "%s", ecdma_gf_kind_names[kind]);
		if (b == ECDMA_GF_BAND_NARROW)
			seq_printf(m, "%d", ECDMA_GF_CAL_NARROW);
		for (way = 0; way < ECDMA_GF_CAL_WAYS; way++) {
			const u32 *v = cal->mbps[b][c][kind][way];

			seq_printf(m, " %s %u/%u", ecdma_gf_cal_way_names[way],
				   v[0], v[1]);
		}
		/* the kinds that have the kernel's code to beat */
		if (kind != ECDMA_GF_KIND_RS)
			seq_printf(m, " gf_cold_won %u",
				   cal->gf_cold_won[b][c][kind]);
		seq_putc(m, '\n');
	}
}

/*
 * "nt_hot inputs n block b [fits_l2]" and "<kind><n> gf h gf_nt h": the hot
 * store measurement with n inputs of b bytes that decides the class's NT on
 * cached outputs, where one was made ("fits_l2": not asked, regular;
 * "<kind><n> slow": too slow to ask, regular); "rs4x4 gf h gf_nt h": RS
 * with as many outputs as inputs, big blocks (ECDMA_GF_NT_SQUARE)
 */
static void calibration_show_nt_hot(struct seq_file *m,
				    const struct ecdma_gf_cal *cal, int c)
{
	int kind;

	if (!ecdma_gf_cal_nt_disks[c])
		return;
	seq_printf(m, "nt_hot inputs %d block %u%s\n",
		   ecdma_gf_cal_nt_disks[c], cal->nt_block[c],
		   cal->nt_fits & BIT(c) ? " fits_l2" : "");
	for (kind = 0; kind < ECDMA_GF_KIND_NR; kind++) {
		const u32 *h = cal->nt_hot[c][kind];

		if (h[0])
			seq_printf(m, "%s%d gf %u gf_nt %u\n",
				   ecdma_gf_kind_names[kind],
				   ecdma_gf_cal_nt_disks[c], h[0], h[1]);
		else if (cal->nt_slow[kind] & BIT(c))
			seq_printf(m, "%s%d slow\n", ecdma_gf_kind_names[kind],
				   ecdma_gf_cal_nt_disks[c]);
	}
	if (c == ECDMA_GF_CLS_BIG && cal->nt_square[0])
		seq_printf(m, "rs%dx%d gf %u gf_nt %u\n", ECDMA_GF_CAL_OUTS,
			   ECDMA_GF_CAL_OUTS, cal->nt_square[0],
			   cal->nt_square[1]);
}

/* "<kind>_nt<suffix>" and bit c of @bits per class */
static void calibration_show_nt(struct seq_file *m, int kind,
				const char *suffix, unsigned int bits)
{
	int c;

	seq_printf(m, "%s_nt%s", ecdma_gf_kind_names[kind], suffix);
	for (c = 0; c < ECDMA_GF_CLS_NR; c++)
		seq_printf(m, " %u", !!(bits & BIT(c)));
	seq_putc(m, '\n');
}

static int calibration_show(struct seq_file *m, void *v)
{
	struct ecdma_gf_cal cal;
	const char *algo;
	char str[ECDMA_CPU_PATH_STR];
	int c, kind, pq, b;
	long nt;

	algo = ecdma_cpu_calibration(&cal);
	if (!cal.done) {
		seq_puts(m, "# not measured (no usable FPU or memory at the time)\n");
	} else {
		seq_printf(m, "# MB/s of data hot/cold, %d data blocks (<kind>%d: %d), gf algo %s, raid6 %s, %d rounds\n",
			   ECDMA_GF_CAL_DISKS, ECDMA_GF_CAL_NARROW,
			   ECDMA_GF_CAL_NARROW, algo, ecdma_raid6_name(),
			   cal.rounds);
		for (c = 0; c < ECDMA_GF_CLS_NR; c++) {
			seq_printf(m, "class %s block %u\n",
				   ecdma_gf_cls_names[c], cal.block[c]);
			calibration_show_nt_hot(m, &cal, c);
			for (b = ECDMA_GF_BAND_NR - 1; b >= 0; b--)
				calibration_show_rows(m, &cal, b, c);
		}
		seq_printf(m, "nt_write %u\ncalibration_ms %llu\n", cal.nt_wr,
			   div_u64(cal.ns, NSEC_PER_MSEC));
	}
	/* outputs written within the window count as cached: no NT */
	seq_printf(m, "llc %llu\nllc_source %s\nllc_gain", cal.llc,
		   ecdma_gf_llc_src_names[cal.llc_src]);
	for (c = 0; c < ECDMA_GF_LLC_STEPS; c++)
		seq_printf(m, " %u", cal.llc_gain[c]);
	seq_printf(m, "\nl2 %llu\nreuse_window %llu\n", cal.l2,
		   cal.reuse_window);
	for (pq = 1; pq >= 0; pq--) {
		enum ecdma_cpu_path p = ecdma_cpu_path_get(pq);

		ecdma_cpu_path_str(pq, str, sizeof(str));
		seq_printf(m, "%s_path %s -> %s\n", pq ? "pq" : "xor",
			   ecdma_cpu_path_names[p], str);
	}
	nt = ecdma_cpu_nt();
	for (kind = 0; kind < ECDMA_GF_KIND_NR; kind++) {
		if (nt >= 0)
			scnprintf(str, sizeof(str), "from %ld bytes", nt);
		else
			ecdma_cpu_nt_str(kind, str, sizeof(str));
		seq_printf(m, "%s_stores %s -> %s\n", ecdma_gf_kind_names[kind],
			   nt >= 0 ? "nt_threshold" : "auto", str);
	}
	/*
	 * As calibrated, per class: NT (1) or regular stores (0), for
	 * outputs not cached (_nt) and cached (_nt_cached).
	 */
	for (kind = 0; cal.done && kind < ECDMA_GF_KIND_NR; kind++) {
		calibration_show_nt(m, kind, "", cal.nt[kind]);
		calibration_show_nt(m, kind, "_cached",
				    cal.nt[kind] >> ECDMA_GF_CLS_NR);
	}
	/* big cached outputs at least as many as the inputs (1: as _cached) */
	if (cal.done)
		seq_printf(m, "rs_nt_cached_square %u\n",
			   !!(cal.nt[ECDMA_GF_KIND_RS] & ECDMA_GF_NT_SQUARE));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(calibration);

/**
 * ecdma_cpu_debugfs_init() - add the calibration file
 * @dir: ecdma's debugfs directory, removed with it
 */
void ecdma_cpu_debugfs_init(struct dentry *dir)
{
	debugfs_create_file("calibration", 0400, dir, NULL,
			    &calibration_fops);
}
