/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ecdma: dmaengine prep -> EC verbs WR translation, pure (also in unit tests).
 * Flags/results mirror dma_ctrl_flags and sum_check_flags (prep.c checks); all
 * is copied into the WR, so caller arrays may change; a disabled P/Q is unread.
 */
#ifndef _ECDMA_XLATE_H
#define _ECDMA_XLATE_H

#include "ecdma_compat.h"
#include <ecdma/ec.h>

#define ECDMA_XLATE_MAX_SRC	255	/* sources of one prep (max_xor/pq) */
#define ECDMA_XLATE_MAX_CODE	2	/* P and Q */
#define ECDMA_XLATE_MAX_LEN	0x7fffffffU	/* ec_mem.block_size: an int */

/* enum dma_ctrl_flags */
#define ECDMA_XLATE_PREP_INTERRUPT	BIT(0)
#define ECDMA_XLATE_CTRL_ACK		BIT(1)
#define ECDMA_XLATE_PQ_DISABLE_P	BIT(2)
#define ECDMA_XLATE_PQ_DISABLE_Q	BIT(3)
#define ECDMA_XLATE_PREP_CONTINUE	BIT(4)
#define ECDMA_XLATE_PREP_FENCE		BIT(5)

/* enum sum_check_flags: SUM_CHECK_P_RESULT, SUM_CHECK_Q_RESULT */
#define ECDMA_XLATE_SUM_P	BIT(0)
#define ECDMA_XLATE_SUM_Q	BIT(1)

/**
 * enum ecdma_op_type - dmaengine operation types, the unit of accounting
 * @ECDMA_OP_MEMCPY: device_prep_dma_memcpy
 * @ECDMA_OP_XOR: device_prep_dma_xor
 * @ECDMA_OP_XOR_VAL: device_prep_dma_xor_val
 * @ECDMA_OP_PQ: device_prep_dma_pq
 * @ECDMA_OP_PQ_VAL: device_prep_dma_pq_val
 * @ECDMA_OP_INTERRUPT: device_prep_dma_interrupt
 * @ECDMA_OP_NR: number of types
 */
enum ecdma_op_type {
	ECDMA_OP_MEMCPY,
	ECDMA_OP_XOR,
	ECDMA_OP_XOR_VAL,
	ECDMA_OP_PQ,
	ECDMA_OP_PQ_VAL,
	ECDMA_OP_INTERRUPT,
	ECDMA_OP_NR,
};

/**
 * struct ecdma_xlate_wr - one translated dmaengine operation
 * @opcode: ECDMA_EC_OP_NOP, _ENCODE, _VALIDATE or _COPY
 * @wr_flags: ECDMA_EC_WR_* (ACCUMULATE)
 * @type: enum ecdma_op_type of the prep call
 * @nr_code: code (output or compared) blocks, 0..2
 * @nr_data: data (input) blocks, 0..@cap
 * @cap: sources @data and @mat have room for; more fail with -EINVAL
 * @result_bit: VALIDATE: the ECDMA_XLATE_SUM_* bit code block j maps to
 * @len: bytes per block; every used sge has this length
 * @matrix: @nr_data x @nr_code row-major, in @mat or shared; NULL: NOP, COPY
 * @code: code blocks, laid out as struct ecdma_ec_mem expects
 * @data: data blocks, likewise: @cap entries, the caller's storage
 * @mat: per-operation coefficients: 2 * @cap, the caller's storage
 */
struct ecdma_xlate_wr {
	enum ecdma_ec_opcode opcode;
	u32 wr_flags;
	u8 type;
	u8 nr_code;
	u16 nr_data;
	u16 cap;
	u8 result_bit[ECDMA_XLATE_MAX_CODE];
	u32 len;
	const u8 *matrix;
	struct ecdma_ec_sge code[ECDMA_XLATE_MAX_CODE];
	struct ecdma_ec_sge *data;
	u8 *mat;
};

/* Room for @cap sources (@mat: 2 * @cap): small ops need not hold MAX_SRC */
static inline void ecdma_xlate_bind(struct ecdma_xlate_wr *x,
				    struct ecdma_ec_sge *data, u8 *mat,
				    unsigned int cap)
{
	x->data = data;
	x->mat = mat;
	x->cap = cap;
}

int ecdma_xlate_memcpy(struct ecdma_xlate_wr *x, u64 dst, u64 src,
		       size_t len);
int ecdma_xlate_xor(struct ecdma_xlate_wr *x, u64 dst, const u64 *src,
		    unsigned int src_cnt, size_t len);
int ecdma_xlate_xor_val(struct ecdma_xlate_wr *x, const u64 *src,
			unsigned int src_cnt, size_t len);
int ecdma_xlate_pq(struct ecdma_xlate_wr *x, const u64 *dst, const u64 *src,
		   unsigned int src_cnt, const u8 *scf, size_t len,
		   unsigned long flags);
int ecdma_xlate_pq_val(struct ecdma_xlate_wr *x, const u64 *pq,
		       const u64 *src, unsigned int src_cnt, const u8 *scf,
		       size_t len, unsigned long flags);
void ecdma_xlate_interrupt(struct ecdma_xlate_wr *x);

u32 ecdma_xlate_result(const struct ecdma_xlate_wr *x, u32 wr_result);
u32 ecdma_xlate_result_all(const struct ecdma_xlate_wr *x);

/* xlate_run.c: the front's last resort, on the CPU */
int ecdma_xlate_run(const struct ecdma_xlate_wr *x, u32 *wr_result);

#endif /* _ECDMA_XLATE_H */
