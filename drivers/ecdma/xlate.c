// SPDX-License-Identifier: GPL-2.0
/* prep -> EC verbs WRs; CONTINUE accumulates into P/Q, no implied sources */
#include "xlate.h"

/* XOR and P rows: every source counts once. */
static const u8 ecdma_xlate_ones[ECDMA_XLATE_MAX_SRC] = {
	[0 ... ECDMA_XLATE_MAX_SRC - 1] = 1,
};

static void xlate_nop(struct ecdma_xlate_wr *x)
{
	x->opcode = ECDMA_EC_OP_NOP;
	x->wr_flags = 0;
	x->nr_code = 0;
	x->nr_data = 0;
	x->result_bit[0] = 0;
	x->result_bit[1] = 0;
	x->matrix = NULL;
}

static void xlate_init(struct ecdma_xlate_wr *x, enum ecdma_op_type type,
		       size_t len)
{
	xlate_nop(x);
	x->type = type;
	x->len = len;
}

static int xlate_check(const struct ecdma_xlate_wr *x, unsigned int src_cnt,
		       size_t len)
{
	if (!src_cnt || src_cnt > x->cap || src_cnt > ECDMA_XLATE_MAX_SRC ||
	    len > ECDMA_XLATE_MAX_LEN)
		return -EINVAL;
	return 0;
}

static void xlate_sge(struct ecdma_ec_sge *sge, u64 addr, u32 len)
{
	sge->addr = addr;
	sge->length = len;
	sge->lkey = 0;
}

static void xlate_add_data(struct ecdma_xlate_wr *x, const u64 *src,
			   unsigned int src_cnt)
{
	unsigned int i;

	for (i = 0; i < src_cnt; i++)
		xlate_sge(&x->data[x->nr_data++], src[i], x->len);
}

static void xlate_add_code(struct ecdma_xlate_wr *x, u64 addr, u8 result_bit)
{
	x->result_bit[x->nr_code] = result_bit;
	xlate_sge(&x->code[x->nr_code++], addr, x->len);
}

/*
 * Single-row ENCODE whose code block is also a c == 1 source (async_xor): drop
 * it, toggle ACCUMULATE, so reads and writes are disjoint (else CAP_INPLACE).
 */
static void xlate_fold_code_source(struct ecdma_xlate_wr *x)
{
	unsigned int k, rest;

	for (k = 0; k < x->nr_data; k++)
		if (x->data[k].addr == x->code[0].addr && x->matrix[k] == 1)
			break;
	if (k == x->nr_data)
		return;

	if (x->nr_data == 1) {
		if (!(x->wr_flags & ECDMA_EC_WR_ACCUMULATE))
			xlate_nop(x);
		return;
	}

	rest = x->nr_data - k - 1;
	memmove(&x->data[k], &x->data[k + 1], rest * sizeof(x->data[0]));
	if (x->matrix == x->mat)
		memmove(&x->mat[k], &x->mat[k + 1], rest);
	x->nr_data--;
	x->wr_flags ^= ECDMA_EC_WR_ACCUMULATE;
}

/* P and/or Q rows over @src; left a NOP when both are disabled */
static void xlate_pq_rows(struct ecdma_xlate_wr *x,
			  enum ecdma_ec_opcode opcode, const u64 *pq,
			  const u64 *src, unsigned int src_cnt, const u8 *scf,
			  unsigned long flags)
{
	bool has_p = !(flags & ECDMA_XLATE_PQ_DISABLE_P);
	bool has_q = !(flags & ECDMA_XLATE_PQ_DISABLE_Q);
	unsigned int i;

	if (!has_p && !has_q)
		return;

	x->opcode = opcode;
	xlate_add_data(x, src, src_cnt);
	if (has_p)
		xlate_add_code(x, pq[0], ECDMA_XLATE_SUM_P);
	if (has_q)
		xlate_add_code(x, pq[1], ECDMA_XLATE_SUM_Q);

	if (has_p && has_q) {
		for (i = 0; i < src_cnt; i++) {
			x->mat[2 * i] = 1;
			x->mat[2 * i + 1] = scf[i];
		}
		x->matrix = x->mat;
	} else if (has_p) {
		x->matrix = ecdma_xlate_ones;
	} else {
		memcpy(x->mat, scf, src_cnt);
		x->matrix = x->mat;
	}
}

/**
 * ecdma_xlate_memcpy - translate device_prep_dma_memcpy
 * @x: WR to fill
 * @dst: destination address
 * @src: source address
 * @len: bytes
 *
 * Return: 0, or -EINVAL when @len is too large or @x has no room (unbound).
 */
int ecdma_xlate_memcpy(struct ecdma_xlate_wr *x, u64 dst, u64 src,
		       size_t len)
{
	if (len > ECDMA_XLATE_MAX_LEN || !x->cap)
		return -EINVAL;
	xlate_init(x, ECDMA_OP_MEMCPY, len);
	if (!len || dst == src)
		return 0;

	x->opcode = ECDMA_EC_OP_COPY;
	xlate_add_data(x, &src, 1);
	xlate_add_code(x, dst, 0);
	return 0;
}

/**
 * ecdma_xlate_xor - translate device_prep_dma_xor
 * @x: WR to fill
 * @dst: destination; never an implicit source, but may be one of @src
 * @src: @src_cnt source addresses
 * @src_cnt: 1..ECDMA_XLATE_MAX_SRC, and at most @x->cap
 * @len: bytes per block
 *
 * Return: 0, or -EINVAL for a bad source count or length.
 */
int ecdma_xlate_xor(struct ecdma_xlate_wr *x, u64 dst, const u64 *src,
		    unsigned int src_cnt, size_t len)
{
	int ret = xlate_check(x, src_cnt, len);

	if (ret)
		return ret;
	xlate_init(x, ECDMA_OP_XOR, len);
	if (!len)
		return 0;

	x->opcode = ECDMA_EC_OP_ENCODE;
	xlate_add_data(x, src, src_cnt);
	xlate_add_code(x, dst, 0);
	x->matrix = ecdma_xlate_ones;
	xlate_fold_code_source(x);
	return 0;
}

/**
 * ecdma_xlate_xor_val - translate device_prep_dma_xor_val
 * @x: WR to fill
 * @src: @src_cnt addresses; src[0] is the parity
 * @src_cnt: 1..ECDMA_XLATE_MAX_SRC, and at most @x->cap
 * @len: bytes per block
 *
 * Reports SUM_CHECK_P_RESULT if the XOR of all blocks (or one block) is not 0.
 * Return: 0, or -EINVAL for a bad source count or length.
 */
int ecdma_xlate_xor_val(struct ecdma_xlate_wr *x, const u64 *src,
			unsigned int src_cnt, size_t len)
{
	int ret = xlate_check(x, src_cnt, len);

	if (ret)
		return ret;
	xlate_init(x, ECDMA_OP_XOR_VAL, len);
	if (!len)
		return 0;

	x->opcode = ECDMA_EC_OP_VALIDATE;
	xlate_add_code(x, src[0], ECDMA_XLATE_SUM_P);
	if (src_cnt == 1) {
		xlate_add_data(x, src, 1);
		x->mat[0] = 0;
		x->matrix = x->mat;
	} else {
		xlate_add_data(x, src + 1, src_cnt - 1);
		x->matrix = ecdma_xlate_ones;
	}
	return 0;
}

/**
 * ecdma_xlate_pq - translate device_prep_dma_pq
 * @x: WR to fill
 * @dst: dst[0] = P, dst[1] = Q; a disabled one is never read
 * @src: @src_cnt source addresses
 * @src_cnt: 1..ECDMA_XLATE_MAX_SRC, and at most @x->cap
 * @scf: @src_cnt Q coefficients
 * @len: bytes per block
 * @flags: dmaengine flags (DISABLE_P, DISABLE_Q, CONTINUE matter)
 *
 * Return: 0, or -EINVAL for a bad source count or length.
 */
int ecdma_xlate_pq(struct ecdma_xlate_wr *x, const u64 *dst, const u64 *src,
		   unsigned int src_cnt, const u8 *scf, size_t len,
		   unsigned long flags)
{
	int ret = xlate_check(x, src_cnt, len);

	if (ret)
		return ret;
	xlate_init(x, ECDMA_OP_PQ, len);
	if (!len)
		return 0;

	xlate_pq_rows(x, ECDMA_EC_OP_ENCODE, dst, src, src_cnt, scf, flags);
	if (x->opcode == ECDMA_EC_OP_NOP)
		return 0;
	if (flags & ECDMA_XLATE_PREP_CONTINUE)
		x->wr_flags |= ECDMA_EC_WR_ACCUMULATE;
	if (x->nr_code == 1)
		xlate_fold_code_source(x);
	return 0;
}

/**
 * ecdma_xlate_pq_val - translate device_prep_dma_pq_val
 * @x: WR to fill
 * @pq: pq[0] = P, pq[1] = Q; a disabled one is never read
 * @src: @src_cnt source addresses
 * @src_cnt: 1..ECDMA_XLATE_MAX_SRC, and at most @x->cap
 * @scf: @src_cnt Q coefficients
 * @len: bytes per block
 * @flags: dmaengine flags (DISABLE_P, DISABLE_Q matter)
 *
 * Reports SUM_CHECK_P/Q_RESULT for an enabled row that does not match.
 * Return: 0, or -EINVAL for a bad source count or length.
 */
int ecdma_xlate_pq_val(struct ecdma_xlate_wr *x, const u64 *pq,
		       const u64 *src, unsigned int src_cnt, const u8 *scf,
		       size_t len, unsigned long flags)
{
	int ret = xlate_check(x, src_cnt, len);

	if (ret)
		return ret;
	xlate_init(x, ECDMA_OP_PQ_VAL, len);
	if (!len)
		return 0;

	xlate_pq_rows(x, ECDMA_EC_OP_VALIDATE, pq, src, src_cnt, scf, flags);
	return 0;
}

/**
 * ecdma_xlate_interrupt - translate device_prep_dma_interrupt
 * @x: WR to fill
 */
void ecdma_xlate_interrupt(struct ecdma_xlate_wr *x)
{
	xlate_init(x, ECDMA_OP_INTERRUPT, 0);
}

/**
 * ecdma_xlate_result - map a VALIDATE WR result to sum_check_flags
 * @x: translated WR
 * @wr_result: the WR's result (bit j: code block j mismatched)
 *
 * Return: ECDMA_XLATE_SUM_* bits; 0 for anything but VALIDATE.
 */
u32 ecdma_xlate_result(const struct ecdma_xlate_wr *x, u32 wr_result)
{
	u32 res = 0;
	unsigned int j;

	if (x->opcode != ECDMA_EC_OP_VALIDATE)
		return 0;
	for (j = 0; j < x->nr_code; j++)
		if (wr_result & BIT(j))
			res |= x->result_bit[j];
	return res;
}

/**
 * ecdma_xlate_result_all - the result of a VALIDATE that failed to run
 * @x: translated WR
 *
 * Return: every ECDMA_XLATE_SUM_* bit @x could report: never a match.
 */
u32 ecdma_xlate_result_all(const struct ecdma_xlate_wr *x)
{
	return ecdma_xlate_result(x, BIT(ECDMA_XLATE_MAX_CODE) - 1);
}
