// SPDX-License-Identifier: GPL-2.0
/*
 * Composition of translated operations (fuse.h).  The state is symbolic:
 * each output's value is a row of coefficients over the blocks' values
 * before the chain.  An operation is absorbed by computing its outputs'
 * new rows from the current rows of what it reads, so in-place operations
 * and accumulation compose like any other read.  A chain is refused, never
 * approximated: blocks must be equal or disjoint, and the composed
 * operation must not read what it writes (a failed WR then leaves its
 * inputs intact for the fallback, as every other WR does).
 */
#include "fuse.h"
#include "gf.h"

/* Index of block @addr among @f's variables, or -1 */
static int fuse_var(const struct ecdma_fuse *f, u64 addr)
{
	unsigned int v;

	for (v = 0; v < f->nr_vars; v++)
		if (f->var[v] == addr)
			return v;
	return -1;
}

/* Whether @addr is equal to or disjoint from every block of @f */
static bool fuse_apart(const struct ecdma_fuse *f, u64 addr)
{
	unsigned int v;

	for (v = 0; v < f->nr_vars; v++)
		if (f->var[v] != addr && addr < f->var[v] + f->len &&
		    f->var[v] < addr + f->len)
			return false;
	for (v = 0; v < ECDMA_XLATE_MAX_CODE; v++)
		if (f->out[v] != addr && addr < f->out[v] + f->len &&
		    f->out[v] < addr + f->len)
			return false;
	return true;
}

/*
 * The current value of block @addr as a row over @f's variables: an
 * output's row once the first operation wrote it, else its own variable
 * (added when new).  False when there is no room or the block overlaps
 * another.
 */
static bool fuse_read(struct ecdma_fuse *f, u64 addr, u8 *row)
{
	unsigned int j;
	int v;

	for (j = 0; f->nr_ops && j < ECDMA_XLATE_MAX_CODE; j++) {
		if (f->out[j] == addr) {
			memcpy(row, f->row[j], ECDMA_FUSE_MAX_VARS);
			return true;
		}
	}
	v = fuse_var(f, addr);
	if (v < 0) {
		if (f->nr_vars == ECDMA_FUSE_MAX_VARS || !fuse_apart(f, addr))
			return false;
		v = f->nr_vars++;
		f->var[v] = addr;
	}
	memset(row, 0, ECDMA_FUSE_MAX_VARS);
	row[v] = 1;
	return true;
}

/* @dst ^= @c * @src over every variable */
static void fuse_row_madd(u8 *dst, const u8 *src, u8 c)
{
	unsigned int v;

	for (v = 0; c && v < ECDMA_FUSE_MAX_VARS; v++)
		dst[v] ^= ecdma_gf_mul(c, src[v]);
}

/**
 * ecdma_fuse_start - begin a chain with a P+Q operation
 * @f: the chain, initialised here
 * @x: the first operation: an ENCODE writing P and Q, not accumulating
 *	(async_gen_syndrome, whose outputs the chain goes on rewriting)
 *
 * Return: true when @x can begin a chain.
 */
bool ecdma_fuse_start(struct ecdma_fuse *f, const struct ecdma_xlate_wr *x)
{
	unsigned int i, j;
	u8 row[ECDMA_FUSE_MAX_VARS];

	if (x->type != ECDMA_OP_PQ || x->opcode != ECDMA_EC_OP_ENCODE ||
	    x->nr_code != ECDMA_XLATE_MAX_CODE || !x->len ||
	    (x->wr_flags & ECDMA_EC_WR_ACCUMULATE) ||
	    x->code[0].addr == x->code[1].addr)
		return false;

	memset(f, 0, sizeof(*f));
	f->len = x->len;
	f->out[0] = x->code[0].addr;
	f->out[1] = x->code[1].addr;
	if (!fuse_apart(f, f->out[0]) || !fuse_apart(f, f->out[1]))
		return false;
	/* nr_ops is 0: reads of P and Q here are of their old values */
	for (i = 0; i < x->nr_data; i++) {
		if (!fuse_read(f, x->data[i].addr, row))
			return false;
		for (j = 0; j < ECDMA_XLATE_MAX_CODE; j++)
			fuse_row_madd(f->row[j], row,
				      x->matrix[i * ECDMA_XLATE_MAX_CODE + j]);
	}
	f->nr_ops = 1;
	return true;
}

/**
 * ecdma_fuse_add - absorb the next operation of the chain
 * @f: the chain
 * @x: an ENCODE or COPY of the same length that writes only @f's outputs,
 *	or a NOP (async_mult by 1 in place translates to one)
 *
 * Return: true when absorbed; false leaves @f as it was.
 */
bool ecdma_fuse_add(struct ecdma_fuse *f, const struct ecdma_xlate_wr *x)
{
	u8 rows[ECDMA_XLATE_MAX_CODE][ECDMA_FUSE_MAX_VARS];
	u8 row[ECDMA_FUSE_MAX_VARS];
	unsigned int i, j, nr_vars = f->nr_vars;
	int o[ECDMA_XLATE_MAX_CODE];

	if (f->nr_ops >= ECDMA_FUSE_MAX_OPS)
		return false;
	if (x->opcode == ECDMA_EC_OP_NOP) {
		f->nr_ops++;
		return true;
	}
	if (x->len != f->len ||
	    !x->nr_code || x->nr_code > ECDMA_XLATE_MAX_CODE || !x->nr_data ||
	    (x->opcode != ECDMA_EC_OP_ENCODE && x->opcode != ECDMA_EC_OP_COPY))
		return false;
	for (j = 0; j < x->nr_code; j++) {
		o[j] = x->code[j].addr == f->out[0] ? 0 :
		       x->code[j].addr == f->out[1] ? 1 : -1;
		if (o[j] < 0 || (j && o[j] == o[0]))
			return false;
	}

	/*
	 * New rows aside, committed at the end: a refusal only has to drop
	 * the variables added (their columns are still 0 in every row).
	 */
	memset(rows, 0, sizeof(rows));
	for (j = 0; j < x->nr_code; j++)
		if (x->wr_flags & ECDMA_EC_WR_ACCUMULATE)
			memcpy(rows[j], f->row[o[j]], ECDMA_FUSE_MAX_VARS);
	for (i = 0; i < x->nr_data; i++) {
		if (!fuse_read(f, x->data[i].addr, row)) {
			f->nr_vars = nr_vars;
			return false;
		}
		for (j = 0; j < x->nr_code; j++)
			fuse_row_madd(rows[j], row,
				      x->opcode == ECDMA_EC_OP_COPY ? 1 :
				      x->matrix[i * x->nr_code + j]);
	}
	for (j = 0; j < x->nr_code; j++)
		memcpy(f->row[o[j]], rows[j], ECDMA_FUSE_MAX_VARS);
	f->nr_ops++;
	return true;
}

/**
 * ecdma_fuse_emit - the composed chain's sources and matrix
 * @f: a chain of at least one operation
 * @data: room for the sources, in @f's order
 * @mat: room for their coefficients, 2 per source (row-major, P then Q)
 * @room: entries @data has room for
 *
 * The composed operation writes @f->out[0] and @f->out[1], not
 * accumulating: the first operation's code blocks.
 * Return: the number of sources; -ENOSPC when they exceed @room, -EINVAL
 * when the chain would read a block it writes or reads nothing.
 */
int ecdma_fuse_emit(const struct ecdma_fuse *f, struct ecdma_ec_sge *data,
		    u8 *mat, unsigned int room)
{
	unsigned int v, j, n = 0;

	for (v = 0; v < f->nr_vars; v++) {
		if (!f->row[0][v] && !f->row[1][v])
			continue;
		if (f->var[v] == f->out[0] || f->var[v] == f->out[1])
			return -EINVAL;
		n++;
	}
	if (!n)
		return -EINVAL;
	if (n > room)
		return -ENOSPC;

	n = 0;
	for (v = 0; v < f->nr_vars; v++) {
		if (!f->row[0][v] && !f->row[1][v])
			continue;
		data[n].addr = f->var[v];
		data[n].length = f->len;
		data[n].lkey = 0;
		for (j = 0; j < ECDMA_XLATE_MAX_CODE; j++)
			mat[n * ECDMA_XLATE_MAX_CODE + j] = f->row[j][v];
		n++;
	}
	return n;
}
