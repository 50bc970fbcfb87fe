// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma EC verbs: validation of calc attributes and work requests, shared
 * with the unit tests.  Writes nothing but its return value, so a refused
 * request leaves all state unchanged (ecdma_ec_post() runs it first).
 * Malformed: -EINVAL; an operation the provider lacks: -EOPNOTSUPP.
 */
#include "ecdma_compat.h"
#include "ec_priv.h"

/**
 * ecdma_ec_count_set() - count the non-zero bytes of a byte map
 * @map: @n bytes
 * @n: size of @map
 *
 * Return: number of non-zero bytes.
 */
int ecdma_ec_count_set(const u8 *map, int n)
{
	int i, c = 0;

	for (i = 0; i < n; i++)
		c += !!map[i];
	return c;
}

/**
 * ecdma_ec_validate_attr() - check calc attributes against provider caps
 * @caps: the provider's capabilities
 * @attr: requested attributes
 *
 * Ranges only: the matrix itself is checked when the calc is built, and
 * @attr->affinity_hint < nr_cpu_ids by the kernel caller.
 *
 * Return: 0, or -EINVAL.
 */
int ecdma_ec_validate_attr(const struct ecdma_ec_caps *caps,
			   const struct ecdma_ec_calc_attr *attr)
{
	if (!caps || !attr)
		return -EINVAL;
	if (attr->k < 1 || attr->k > (int)caps->max_k ||
	    attr->k > ECDMA_EC_MAX_K)
		return -EINVAL;
	if (attr->m < 1 || attr->m > (int)caps->max_m ||
	    attr->m > ECDMA_EC_MAX_M)
		return -EINVAL;
	if (attr->w != ECDMA_EC_W || !(caps->w_mask & BIT(attr->w - 1)))
		return -EINVAL;
	if (attr->max_inflight < 1 ||
	    attr->max_inflight > (int)caps->max_inflight)
		return -EINVAL;
	if (attr->affinity_hint < -1)
		return -EINVAL;

	switch (attr->matrix_type) {
	case ECDMA_EC_MATRIX_VANDERMONDE:
	case ECDMA_EC_MATRIX_CAUCHY:
		/* a generated code needs k + m distinct field elements */
		if (attr->encode_matrix || attr->k + attr->m > 256)
			return -EINVAL;
		return 0;
	case ECDMA_EC_MATRIX_USER:
		return attr->encode_matrix ? 0 : -EINVAL;
	default:
		return -EINVAL;
	}
}

/* Block @idx of the k + m blocks of a DECODE layout: data, then code. */
static const struct ecdma_ec_sge *
val_block(const struct ecdma_ec_mem *mem, int k, int idx)
{
	return idx < k ? &mem->data_blocks[idx] : &mem->code_blocks[idx - k];
}

static bool val_sges_ok(const struct ecdma_ec_sge *sge, int n, int bs)
{
	int i;

	for (i = 0; i < n; i++) {
		if (sge[i].length != (u32)bs || !sge[i].addr ||
		    sge[i].addr + (u64)bs < sge[i].addr)
			return false;
	}
	return true;
}

/* an output may be exactly an input if @same_ok, else must not overlap */
static bool val_out_ok(u64 out, u64 addr, int bs, bool same_ok)
{
	if (addr == out)
		return same_ok;
	return addr >= out + bs || out >= addr + bs;
}

/* ENCODE, UPDATE: inputs data_blocks[], outputs code_blocks[]. */
static int val_overlap_linear(const struct ecdma_ec_mem *mem, bool inplace)
{
	int i, j, bs = mem->block_size;

	for (j = 0; j < mem->num_code_sge; j++) {
		u64 out = mem->code_blocks[j].addr;

		for (i = j + 1; i < mem->num_code_sge; i++)
			if (!val_out_ok(out, mem->code_blocks[i].addr, bs,
					false))
				return -EINVAL;
		for (i = 0; i < mem->num_data_sge; i++)
			if (!val_out_ok(out, mem->data_blocks[i].addr, bs,
					inplace))
				return -EINVAL;
	}
	return 0;
}

/* DECODE: inputs the first k survivors, outputs the erased blocks. */
static int val_overlap_decode(const struct ecdma_ec_mem *mem, int k, int m,
			      const u8 *erasures, bool inplace)
{
	int o, i, seen, bs = mem->block_size;

	for (o = 0; o < k + m; o++) {
		u64 out;

		if (!erasures[o])
			continue;
		out = val_block(mem, k, o)->addr;
		for (i = o + 1; i < k + m; i++)
			if (erasures[i] &&
			    !val_out_ok(out, val_block(mem, k, i)->addr, bs,
					false))
				return -EINVAL;
		for (i = 0, seen = 0; i < k + m && seen < k; i++) {
			if (erasures[i])
				continue;
			seen++;
			if (!val_out_ok(out, val_block(mem, k, i)->addr, bs,
					inplace))
				return -EINVAL;
		}
	}
	return 0;
}

/**
 * ecdma_ec_validate_wr() - check a work request before it is queued
 * @caps: the provider's capabilities
 * @k: data blocks of the calc
 * @m: code blocks of the calc
 * @wr: the request
 *
 * Rules (layouts in include/ecdma/ec.h): known opcode; only ENCODE takes
 * ECDMA_EC_WR_ACCUMULATE; NOP checks nothing more.  block_size >= 1, a
 * multiple of caps->block_align, every sge that long, non-zero, no wrap.
 * ENCODE and VALIDATE take k + m blocks, or 1..k + 1..m with a per-WR
 * matrix; DECODE k + m blocks, at most m erasures; UPDATE u >= 1 changed
 * and uc >= 1 updated, num_data_sge == uc + 2u, num_code_sge == uc; COPY
 * one data and one code block (may overlap).  Written blocks overlap no
 * other block, except being exactly an input with ECDMA_EC_CAP_INPLACE.
 *
 * Return: 0; -EOPNOTSUPP when the provider lacks the operation; -EINVAL for
 * anything malformed.
 */
int ecdma_ec_validate_wr(const struct ecdma_ec_caps *caps, int k, int m,
			 const struct ecdma_ec_wr *wr)
{
	const struct ecdma_ec_mem *mem;
	bool inplace;
	int nd, nc, bs, u, uc;

	if (!caps || !wr || k < 1 || m < 1)
		return -EINVAL;
	if ((unsigned int)wr->opcode >= ECDMA_EC_OP_MAX)
		return -EINVAL;
	if (wr->flags & ~ECDMA_EC_WR_ACCUMULATE)
		return -EINVAL;
	if ((wr->flags & ECDMA_EC_WR_ACCUMULATE) &&
	    wr->opcode != ECDMA_EC_OP_ENCODE)
		return -EINVAL;

	switch (wr->opcode) {
	case ECDMA_EC_OP_NOP:
		return 0;
	case ECDMA_EC_OP_UPDATE:
		if (!(caps->flags & ECDMA_EC_CAP_UPDATE))
			return -EOPNOTSUPP;
		break;
	case ECDMA_EC_OP_VALIDATE:
		if (!(caps->flags & ECDMA_EC_CAP_VALIDATE))
			return -EOPNOTSUPP;
		break;
	default:
		break;
	}

	mem = wr->mem;
	if (!mem)
		return -EINVAL;
	nd = mem->num_data_sge;
	nc = mem->num_code_sge;
	bs = mem->block_size;
	if (bs < 1 || (caps->block_align > 1 && bs % caps->block_align))
		return -EINVAL;
	if (nd < 0 || nc < 0 || (nd && !mem->data_blocks) ||
	    (nc && !mem->code_blocks))
		return -EINVAL;

	switch (wr->opcode) {
	case ECDMA_EC_OP_ENCODE:
	case ECDMA_EC_OP_VALIDATE:
		if (wr->matrix) {
			if (nd < 1 || nd > k || nc < 1 || nc > m)
				return -EINVAL;
		} else if (nd != k || nc != m) {
			return -EINVAL;
		}
		break;
	case ECDMA_EC_OP_DECODE:
		if (nd != k || nc != m || !wr->erasures)
			return -EINVAL;
		if (ecdma_ec_count_set(wr->erasures, k + m) > m)
			return -EINVAL;
		break;
	case ECDMA_EC_OP_UPDATE:
		if (!wr->data_updates || !wr->code_updates)
			return -EINVAL;
		u = ecdma_ec_count_set(wr->data_updates, k);
		uc = ecdma_ec_count_set(wr->code_updates, m);
		if (!u || !uc || nd != uc + 2 * u || nc != uc)
			return -EINVAL;
		break;
	case ECDMA_EC_OP_COPY:
		if (nd != 1 || nc != 1)
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}

	if (!val_sges_ok(mem->data_blocks, nd, bs) ||
	    !val_sges_ok(mem->code_blocks, nc, bs))
		return -EINVAL;

	inplace = caps->flags & ECDMA_EC_CAP_INPLACE;
	switch (wr->opcode) {
	case ECDMA_EC_OP_ENCODE:
	case ECDMA_EC_OP_UPDATE:
		return val_overlap_linear(mem, inplace);
	case ECDMA_EC_OP_DECODE:
		return val_overlap_decode(mem, k, m, wr->erasures, inplace);
	default:
		return 0;
	}
}
EXPORT_SYMBOL_GPL(ecdma_ec_validate_wr);
