/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU engine calibration per block-size class and store kind, hot and cold;
 * pure code shared by prov_cpu_cal.c, make bench and the unit tests.
 */
#ifndef _ECDMA_GF_CAL_H
#define _ECDMA_GF_CAL_H

#include "ecdma_compat.h"
#include "gf_algo.h"

/* ECDMA_GF_CAL_DISKS (gf_algo.h) and the most outputs: the wide band */
/* data blocks of the narrow band's (P+Q and XOR only: lib or GF algo) */
#define ECDMA_GF_CAL_NARROW	4
#define ECDMA_GF_CAL_OUTS	4
#define ECDMA_GF_CAL_BLOCKS	(ECDMA_GF_CAL_DISKS + ECDMA_GF_CAL_OUTS)
/* cold measurements work in one stripe of big blocks */
#define ECDMA_GF_CAL_COLD_BYTES	(ECDMA_GF_CAL_BLOCKS * ECDMA_GF_CAL_BIG)
/*
 * The big class's hot store question is asked of a stripe of twice the L2
 * (gf_cal.c), in blocks of at most this; the L2 taken if CPUID reports none
 */
#define ECDMA_GF_CAL_NT_BIG_MAX	(512 * 1024)
#define ECDMA_GF_L2_DEFAULT	(1024 * 1024ULL)
/* the buffer ecdma_gf_calibrate() works in: that stripe at its biggest */
#define ECDMA_GF_CAL_BUF_BYTES	(ECDMA_GF_CAL_BLOCKS * ECDMA_GF_CAL_NT_BIG_MAX)
/*
 * Most inputs of a class's own hot store measurement (NT or regular on
 * cached outputs; ecdma_gf_cal_nt_disks[]): the 64 KiB class's 8-input
 * stripe sits where the two tie (gf_cal.c).
 */
#define ECDMA_GF_CAL_NT_DISKS	12
/* its table scratch: P+Q of 12, RS(8,4) and RS(12,4) tables of any algo */
#define ECDMA_GF_CAL_TBL_BYTES	\
	((2 * ECDMA_GF_CAL_NT_DISKS + ECDMA_GF_CAL_OUTS * \
	  (ECDMA_GF_CAL_DISKS + ECDMA_GF_CAL_NT_DISKS)) * \
	 ECDMA_GF_NIBBLE_TBL_BYTES)
/* reuse window if no cache sizes; too small only forgoes NT gains */
#define ECDMA_GF_REUSE_DEFAULT	(8ULL << 20)

#define ECDMA_GF_CAL_ROUNDS	3	/* at most; each measures all ways */
/* a hot measurement lasts at least this long (gf_cal.c) */
#define ECDMA_GF_CAL_HOT_NS	200000ULL
/* a class's hot store question per kind, at most, or it is not asked */
#define ECDMA_GF_CAL_NT_Q_NS	10000000ULL
/* rounds start within this long (struct ecdma_gf_cal_env's @max_ns) */
#define ECDMA_GF_CAL_MAX_NS	40000000ULL
/* or, rounds that should end within this many times as long: 400 ms */
#define ECDMA_GF_CAL_LONG	10
/* the kernel's code for cached outputs only if 1/this faster (gf_cal.c) */
#define ECDMA_GF_CAL_LIB_EDGE	32
/* and for outputs not cached, where one flushed stripe is noisier */
#define ECDMA_GF_CAL_LIB_EDGE_COLD	16

/*
 * The cache probe where CPUID reports none (gf_llc.c): stripes of
 * ECDMA_GF_LLC_MIN << i bytes, i < ECDMA_GF_LLC_STEPS; a stripe counts as
 * cached if re-run at least ECDMA_GF_LLC_GAIN / 1000 times as fast as cold.
 */
#define ECDMA_GF_LLC_MIN	(4ULL << 20)
#define ECDMA_GF_LLC_STEPS	4
#define ECDMA_GF_LLC_BUF_BYTES	(ECDMA_GF_LLC_MIN << (ECDMA_GF_LLC_STEPS - 1))
#define ECDMA_GF_LLC_GAIN	1100
#define ECDMA_GF_LLC_ROUNDS	3
#define ECDMA_GF_LLC_BUDGET	2	/* x ECDMA_GF_CAL_MAX_NS: 80 ms */

/**
 * enum ecdma_gf_llc_src - where struct ecdma_gf_cal's @llc comes from
 * @ECDMA_GF_LLC_NONE: nowhere: the default reuse window
 * @ECDMA_GF_LLC_CPUID: the CPU's cache leaves
 * @ECDMA_GF_LLC_PROBED: ecdma_gf_llc_measure() (0 if it saw no cache)
 */
enum ecdma_gf_llc_src {
	ECDMA_GF_LLC_NONE,
	ECDMA_GF_LLC_CPUID,
	ECDMA_GF_LLC_PROBED,
};

extern const char *const ecdma_gf_llc_src_names[];

/**
 * enum ecdma_gf_cal_way - the candidates for one kind of operation
 * @ECDMA_GF_CAL_LIB: lib/raid6 (P+Q) or xor_blocks() (XOR); none for RS
 * @ECDMA_GF_CAL_REG: the GF algo with regular stores
 * @ECDMA_GF_CAL_NT: the GF algo with non-temporal stores
 * @ECDMA_GF_CAL_WAYS: number of candidates
 */
enum ecdma_gf_cal_way {
	ECDMA_GF_CAL_LIB,
	ECDMA_GF_CAL_REG,
	ECDMA_GF_CAL_NT,
	ECDMA_GF_CAL_WAYS,
};

/**
 * struct ecdma_gf_cal_env - what a calibration needs from where it runs
 * @now_ns: a monotonic clock, in ns
 * @flush: evict @len bytes at @p from every cache level (clflush)
 * @fpu: enter (@on) or leave a SIMD section; NULL where none is needed
 * @pq_lib: raid6_call.gen_syndrome(disks, bytes, ptrs); NULL: not measured
 * @xor_lib: xor_blocks(count, bytes, dest, srcs); NULL: not measured
 * @xor_max: most sources @xor_lib takes at once
 * @piece: bytes of all blocks per call, as xc_range() splits; 0: whole
 * @llc: bytes of the last-level cache (ecdma_simd_llc_bytes()); 0: unknown
 * @l2: bytes of one core's L2 (ecdma_simd_l2_bytes()); 0: unknown
 * @llc_buf: ECDMA_GF_LLC_BUF_BYTES to measure it in if @llc is 0, or NULL
 * @max_ns: no new round starts after this long (the first always runs),
 *	unless it should end within ECDMA_GF_CAL_LONG times as long;
 *	the cache probe, before, gets ECDMA_GF_LLC_BUDGET times as long
 * @resched: called between measurements (cond_resched()), or NULL
 */
struct ecdma_gf_cal_env {
	u64 (*now_ns)(void);
	void (*flush)(void *p, size_t len);
	void (*fpu)(bool on);
	void (*pq_lib)(int disks, size_t bytes, void **ptrs);
	void (*xor_lib)(unsigned int count, size_t bytes, void *dest,
			void **srcs);
	unsigned int xor_max;
	size_t piece;
	u64 llc;
	u64 l2;
	u8 *llc_buf;
	u64 max_ns;
	void (*resched)(void);
};

/**
 * struct ecdma_gf_cal - what a calibration found and chose, for hot and cold
 * @done: it ran
 * @rounds: rounds measured
 * @ns: how long they took (after the cache probe)
 * @block: the block size measured for each class
 * @mbps: [band][class][kind][way][hot, cold]: best MB/s of data; 0: not
 *	measured (RS in the narrow band)
 * @lib_pq: [band]: bit c: lib/raid6 does P+Q of class c, outputs cached
 * @lib_xor: [band]: bit c: xor_blocks() does XOR of class c, outputs cached
 * @lib_pq_cold: as @lib_pq, for outputs that are not
 * @lib_xor_cold: as @lib_xor, for outputs that are not
 * @gf_cold_won: [band][class][kind]: rounds in which the GF algo (either
 *	store kind) was faster cold than the kernel's code; 0: lost all, or
 *	no kernel's code to compare with
 * @nt_hot: [class][kind][0 regular, 1 NT]: best MB/s hot of the GF algo
 *	with ecdma_gf_cal_nt_disks[class] inputs of @nt_block[class] bytes,
 *	where @nt's cached bit of that class is decided; 0: not measured (the
 *	wide band's numbers decide, unless @nt_fits says)
 * @nt_square: [0 regular, 1 NT]: best MB/s hot of RS of the big class with
 *	ECDMA_GF_CAL_OUTS inputs and as many outputs, of @nt_block bytes,
 *	asked with its hot question; decides ECDMA_GF_NT_SQUARE; 0: not
 *	measured (then as the class's hot question)
 * @nt_block: [class]: block of its hot store question, and the one whose
 *	ECDMA_GF_CAL_DISKS multiple a request needs for NT on cached outputs
 *	(ecdma_gf_nt_mask()); 0: the class's calibration block
 * @nt_fits: bit c: class c's hot store question was not asked, its stripe
 *	fitting in the L2: no NT on cached outputs of that class
 * @nt_slow: [kind]: bit c: the same for that kind, as it would have taken
 *	longer than ECDMA_GF_CAL_NT_Q_NS (in every round)
 * @nt: [kind]: bit c: NT stores pay for class c (measured in the wide band)
 *	on outputs not cached; bit ECDMA_GF_NT_CACHED(c): on cached ones too;
 *	ECDMA_GF_NT_SQUARE: big ones with as many outputs as inputs too
 * @nt_wr: MB/s of GF algo NT writes of cached input (reported); 0: not
 *	measured
 * @llc: last-level cache, bytes, from @env or measured; 0: unknown
 * @l2: L2 of one core, bytes, from @env; 0: unknown
 * @llc_src: where @llc comes from (enum ecdma_gf_llc_src)
 * @llc_gain: [i]: the probe's gain at its stripe i (ecdma_gf_llc_pick());
 *	0: not measured
 * @reuse_window: traffic window of ecdma_gf_reused(), bytes
 */
struct ecdma_gf_cal {
	bool done;
	int rounds;
	u64 ns;
	u32 block[ECDMA_GF_CLS_NR];
	u32 mbps[ECDMA_GF_BAND_NR][ECDMA_GF_CLS_NR][ECDMA_GF_KIND_NR]
		[ECDMA_GF_CAL_WAYS][2];
	u8 lib_pq[ECDMA_GF_BAND_NR];
	u8 lib_xor[ECDMA_GF_BAND_NR];
	u8 lib_pq_cold[ECDMA_GF_BAND_NR];
	u8 lib_xor_cold[ECDMA_GF_BAND_NR];
	u8 gf_cold_won[ECDMA_GF_BAND_NR][ECDMA_GF_CLS_NR][ECDMA_GF_KIND_NR];
	u32 nt_hot[ECDMA_GF_CLS_NR][ECDMA_GF_KIND_NR][2];
	u32 nt_square[2];
	u32 nt_block[ECDMA_GF_CLS_NR];
	u8 nt_fits;
	u8 nt_slow[ECDMA_GF_KIND_NR];
	u8 nt[ECDMA_GF_KIND_NR];
	u32 nt_wr;
	u64 llc;
	u64 l2;
	u8 llc_src;
	u16 llc_gain[ECDMA_GF_LLC_STEPS];
	u64 reuse_window;
};

extern const char *const ecdma_gf_cls_names[ECDMA_GF_CLS_NR];
extern const char *const ecdma_gf_kind_names[ECDMA_GF_KIND_NR];
extern const u8 ecdma_gf_cal_disks[ECDMA_GF_BAND_NR];
/* per class: inputs of its own hot store measurement; 0: none */
extern const u8 ecdma_gf_cal_nt_disks[ECDMA_GF_CLS_NR];
extern const char *const ecdma_gf_cal_way_names[ECDMA_GF_CAL_WAYS];

void ecdma_gf_cal_init(struct ecdma_gf_cal *cal);
int ecdma_gf_calibrate(const struct ecdma_gf_algo *algo,
		       const struct ecdma_gf_cal_env *env, u8 *buf, u8 *tbls,
		       struct ecdma_gf_cal *cal);
void ecdma_gf_cal_decide(struct ecdma_gf_cal *cal);
u64 ecdma_gf_reuse_window(u64 llc);
u64 ecdma_gf_llc_pick(const u16 *gain, int n);
u64 ecdma_gf_llc_measure(const struct ecdma_gf_algo *algo,
			 const struct ecdma_gf_cal_env *env, u8 *buf,
			 u16 *gain);

#endif /* _ECDMA_GF_CAL_H */
