/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ecdma `make bench`: shared definitions of the harness (bench.c), the
 * implementations it times (ours.c, peers.c, limit.c), the summary
 * (report.c) and the scaling run (scaling.c).
 */
#ifndef _ECDMA_BENCH_H
#define _ECDMA_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ecdma_compat.h"
#include "gf.h"
#include "gf_algo.h"
#include "gf_cal.h"

#define MAXK	12
#define MAXM	8
#define MAXREPS	21
#define MAXIMPLS	40	/* implementations timed in one cell */
#define POOL	(512UL << 20)
/* the CPU provider's worker_budget: the executor's pieces (xc_range()) */
#define ENGINE_BUDGET	(128 * 1024)

enum op { OP_ENC, OP_PQ, OP_XOR, OP_DEC, OP_UPD, OP_REC, OP_SP, OP_MULT,
	  OP_NR };
extern const char *const op_name[OP_NR];

/*
 * A configuration: nin inputs and nout outputs per stripe (buffers in that
 * order in the stripe), coefficient matrix coef[i * nout + j].
 */
struct cfg {
	enum op op;
	int k, m, e;		/* code shape; e: erasures (decode) */
	int nin, nout;
	u8 coef[(MAXK + MAXM) * MAXM];
	u8 isal_tbls[MAXK * MAXM * 32];
	int fa, fb;		/* recovery: failed data disks */
	int upd;		/* update: which data block changed */
	size_t B;
	int cold;
	/* the current stripe */
	u8 *in[MAXK + MAXM + 2], *out[MAXM + 2];
};

/* who an implementation is, for the summary */
enum kind {
	K_ENGINE,	/* ours as the kernel engine runs it (calibrated) */
	K_OURS,		/* ours, one algo and store kind */
	K_PEER,		/* ISA-L, lib/raid6, the kernel's xor, async_tx */
	K_LIMIT,	/* a plain k-read, m-write loop: the physical limit */
};

struct impl;
typedef void (*run_fn)(const struct impl *im, struct cfg *c);

/* ours: which stores */
enum { STORES_REGULAR, STORES_NT };

struct impl {
	const char *name;
	const char *id;		/* short stable name for the summary */
	enum kind kind;
	run_fn run;
	const void *p;		/* algo, raid6 calls, ISA-L function, ... */
	u8 *tbls;		/* ours: prepared tables for the current cfg */
	int stores;		/* ours: STORES_* */
	int u, nt, nta;		/* limit loops: shape; engine: u = sections */
	int path;		/* engine: ENGINE_* for the cell, outputs cached */
	int path_cold;		/* engine: the same, outputs not cached */
	unsigned int flags;	/* engine: ECDMA_GF_* for the current cell */
	unsigned int flags_cached;	/* the same, outputs cached */
	bool probe;		/* engine: asks ecdma_gf_reused() per call */
	bool noverify;		/* computes nothing meaningful (limits) */
	bool avx512;		/* needs AVX-512 (skipped without) */
};

/* which of ours a cell times besides the engine (ours_add()) */
#define C_ALGOS		0x1	/* every algo */
#define C_STORES	0x2	/* the best with each kind of store forced */
#define C_AVX2		0x4	/* the avx2 algo */

/* one cell (op, shape, block size, hot or cold) as timed */
struct cell {
	enum op op;
	int k, m, e;
	size_t B;
	int cold;
	int first, n;		/* its results: res[first .. first + n) */
	double limit[MAXREPS];	/* best limit shape, per repeat */
	double limit_med;
};

/* one implementation timed in one cell */
struct result {
	int cell;
	const char *name, *id;
	enum kind kind;
	double rep[MAXREPS];	/* GB/s of data, per repeat */
	double med, spread;	/* median; (q3 - q1) / median */
	double pct;		/* median over repeats of rep / limit, % */
};

extern struct cell *cells;
extern int ncells;
extern struct result *res;
extern int nres;
extern int reps;
extern FILE *csv;
extern double rd_bw, wr_bw, wr_nt_bw;

/* the engine's algo and what its calibration chose on this host */
extern const struct ecdma_gf_algo *best_algo;
extern struct ecdma_gf_cal cal;
extern bool have_avx512;

#ifndef __printf
#define __printf(a, b)	__ecdma_attr(format(printf, a, b))
#endif

void die(const char *fmt, ...) __printf(1, 2);
void *xalloc(size_t n);
void *xalloc_4k(size_t n);
int huge_pct(const void *p);
void fill(u8 *p, size_t n);
double cpu_now(void);
double wall_now(void);
int cmp_dbl(const void *a, const void *b);
double data_bytes(const struct cfg *c);

/* bench.c */
size_t nblocks(const struct cfg *c);
void stripe(struct cfg *c, size_t s);
double median(double *v, int n);

/* cells.c: the cells' matrices and the reference */
extern u8 mul_tbl[256][256];
extern u8 *ref_out[MAXM + 2];
void cfg_encode(struct cfg *c, int k, int m);
void cfg_pq(struct cfg *c, int k, enum op op);
void cfg_decode(struct cfg *c, int k, int m, int e);
void cfg_update(struct cfg *c, int k, int m);
void cfg_product(struct cfg *c, enum op op);
void cfg_recov(struct cfg *c, int k);
void make_consistent(struct cfg *c);

/* ours.c */
int ours_add(struct impl *ims, int n, const struct cfg *c, unsigned int which);
void ours_prep(struct impl *im, const struct cfg *c);
void ours_calibrate(void);
extern struct impl engine_impl;

/* peers.c */
extern const struct impl enc_peers[], pq_peers[], xor_peers[], dec_peers[],
	upd_peers[], rec_peers[], sp_peers[], mult_peers[];
void peers_init(void);

/* limit.c */
int limit_add(struct impl *ims, int n);
double limit_rep(const struct cell *cl, int rep, bool regular);
void mem_probe(u8 *pool, size_t n, double *rd, double *wr, double *wr_nt);

/* report.c */
void report(FILE *out);

/* scaling.c */
void run_scaling(u8 *pool, int quick);

#endif /* _ECDMA_BENCH_H */
