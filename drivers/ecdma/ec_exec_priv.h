/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ecdma EC verbs executor internals, shared by ec_exec.c (the context and
 * running a plan) and ec_plan.c (turning a work request into a plan); pure.
 */
#ifndef _ECDMA_EC_EXEC_PRIV_H
#define _ECDMA_EC_EXEC_PRIV_H

#include "ecdma_compat.h"
#include "ec_priv.h"
#include "gf_algo.h"

enum xc_kind {
	XC_NOP,
	XC_GEMM,
	XC_VALIDATE,
	XC_COPY,
};

/* xor_alias values other than an input index */
#define XC_ALIAS_NONE	-1
#define XC_ALIAS_MANY	-2

/**
 * struct xc_dec - one cached decode matrix of the calc matrix
 * @key: erasure bitmap over the k + m blocks
 * @nerr: number of erasures (columns of @coef); -1 when unused
 * @pq: @coef has the RAID-6 P/Q shape
 * @ones: @coef is one all-ones column
 * @coef: k x @nerr decode matrix
 * @tbls: tables of @coef for the context's algo
 */
struct xc_dec {
	u64 key[ECDMA_EC_DEC_KEY_WORDS];
	int nerr;
	bool pq;
	bool ones;
	u8 *coef;
	u8 *tbls;
};

/**
 * struct xc_plan - the work request being executed
 * @wr: it, or NULL when idle
 * @kind: enum xc_kind
 * @nin: inputs
 * @nout: outputs (or compared blocks)
 * @len: bytes per block
 * @off: bytes done
 * @accumulate: outputs ^= product
 * @coef: nin x nout coefficients
 * @tbls: tables of @coef by @tbls_algo's prep, or NULL (made in wr_tbls)
 * @tbls_algo: see @tbls
 * @pq: RAID-6 P/Q coefficients
 * @q: one output with the RAID-6 Q coefficients
 * @ones: one all-ones output
 * @out_alias: some output is the same block as some input
 * @xor_alias: with @ones: the input that is the output, or XC_ALIAS_*
 * @cached: outputs taken as cached: cached-output policy, no NT stores
 * @result: VALIDATE mismatch bits so far
 */
struct xc_plan {
	struct ecdma_ec_wr *wr;
	enum xc_kind kind;
	int nin;
	int nout;
	u32 len;
	u32 off;
	bool accumulate;
	const u8 *coef;
	const u8 *tbls;
	const struct ecdma_gf_algo *tbls_algo;
	bool pq;
	bool q;
	bool ones;
	bool out_alias;
	int xor_alias;
	bool cached;
	u32 result;
};

/**
 * struct ecdma_ec_xctx - execution context of one calc
 * @k: data blocks
 * @m: code blocks
 * @max_in: most plan inputs (UPDATE: m + 2k)
 * @max_out: most plan outputs (m)
 * @matrix: calc matrix, k x m
 * @algo: preferred algo
 * @nofpu: fallback without SIMD
 * @hooks: environment, or NULL
 * @simd: the executor allows SIMD and fast paths now
 * @pol: ecdma_ec_exec_set_policy()
 * @fpu_on: inside hooks->fpu_begin()
 * @calc_pq: calc matrix has the RAID-6 shape
 * @calc_ones: calc matrix is one all-ones column
 * @enc_tbls: tables of @matrix for @algo
 * @wr_coef: max_in x max_out built coefficients (UPDATE)
 * @wr_tbls: tables made on demand for the current plan
 * @wr_tbls_algo: whose format @wr_tbls holds for the current plan, or NULL
 * @in: plan input blocks
 * @out: plan output blocks
 * @pin: @in at the current offset
 * @pout: outputs at the current offset
 * @ptrs: fast path pointer list, max_in + 2
 * @vout: VALIDATE scratch blocks, max_out x ECDMA_EC_VAL_CHUNK
 * @pscr: P scratch of the Q-only fast path, ECDMA_EC_Q_CHUNK bytes
 * @gf_scratch: for ecdma_gf_decode_matrix()
 * @ndec: decode cache entries
 * @dec_next: next victim
 * @dec: the decode cache
 * @reuse: where the context wrote lately, for the store choice
 * @p: current plan
 * @st: counters
 */
struct ecdma_ec_xctx {
	int k;
	int m;
	int max_in;
	int max_out;
	const u8 *matrix;
	const struct ecdma_gf_algo *algo;
	const struct ecdma_gf_algo *nofpu;
	const struct ecdma_ec_exec_hooks *hooks;
	bool simd;
	struct ecdma_ec_exec_policy pol;
	bool fpu_on;
	bool calc_pq;
	bool calc_ones;
	u8 *enc_tbls;
	u8 *wr_coef;
	u8 *wr_tbls;
	const struct ecdma_gf_algo *wr_tbls_algo;
	const u8 **in;
	u8 **out;
	const u8 **pin;
	u8 **pout;
	void **ptrs;
	u8 **vout;
	u8 *pscr;
	u8 *gf_scratch;
	int ndec;
	int dec_next;
	struct xc_dec dec[ECDMA_EC_DEC_CACHE];
	struct ecdma_gf_reuse reuse;
	struct xc_plan p;
	struct ecdma_ec_exec_stats st;
};

/* ec_plan.c */
bool ecdma_ec_is_pq(const u8 *coef, int nin, int nout);
bool ecdma_ec_is_ones(const u8 *coef, int nin, int nout);
int ecdma_ec_plan(struct ecdma_ec_xctx *x, struct ecdma_ec_wr *wr);

#endif /* _ECDMA_EC_EXEC_PRIV_H */
