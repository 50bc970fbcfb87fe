// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma: a translated operation run on the CPU by the front itself, the
 * last resort when neither the engine nor its fallback ran it.  md has no
 * error path for async_tx, so an operation accepted and not run would be
 * parity never computed; this path cannot fail once the operation is valid:
 * no allocation, no provider, no SIMD, any context.  Byte-exact with the
 * engines (GF(2^8)/0x11d tables), alias-safe like them: each 64-byte
 * piece of every input is read before that piece of an output is written.
 * Pure code, also in the unit tests.
 */
#include "gf.h"
#include "xlate.h"

#define XR_PIECE	64

/* v[0..n) ^= c * in[0..n) */
static void xr_mul_xor(u8 *v, const u8 *in, u8 c, size_t n)
{
	unsigned int lc = ecdma_gf_log_tbl[c];
	size_t p;

	if (c == 1) {
		for (p = 0; p + 8 <= n; p += 8) {
			u64 a, b;

			memcpy(&a, v + p, 8);
			memcpy(&b, in + p, 8);
			a ^= b;
			memcpy(v + p, &a, 8);
		}
		for (; p < n; p++)
			v[p] ^= in[p];
		return;
	}
	for (p = 0; p < n; p++)
		if (in[p])
			v[p] ^= ecdma_gf_exp_tbl[lc + ecdma_gf_log_tbl[in[p]]];
}

static bool xr_disjoint(u64 a, u64 b, u32 len)
{
	return a >= b + len || b >= a + len;
}

/*
 * Written blocks overlap no other block but are allowed to be exactly an
 * input (XOR into src[0], Q of a sum-product into a source), as for the
 * engines (ecdma_ec_validate_wr() with in-place).
 */
static bool xr_valid(const struct ecdma_xlate_wr *x)
{
	unsigned int i, j;

	if (x->nr_code > ECDMA_XLATE_MAX_CODE || !x->len ||
	    (x->nr_data && !x->matrix))
		return false;
	if (x->opcode == ECDMA_EC_OP_VALIDATE)
		return true;
	for (j = 0; j < x->nr_code; j++) {
		if (j && !xr_disjoint(x->code[j].addr, x->code[0].addr, x->len))
			return false;
		for (i = 0; i < x->nr_data; i++)
			if (x->data[i].addr != x->code[j].addr &&
			    !xr_disjoint(x->data[i].addr, x->code[j].addr,
					 x->len))
				return false;
	}
	return true;
}

static void *xr_ptr(const struct ecdma_ec_sge *sge, size_t off)
{
	return (u8 *)(unsigned long)sge->addr + off;
}

/**
 * ecdma_xlate_run() - compute a translated operation on the CPU
 * @x: the operation, its addresses kernel virtual addresses
 * @wr_result: VALIDATE: bit j set when code block j differs (as a WR's
 *	result, for ecdma_xlate_result()); 0 otherwise
 *
 * Context: any; takes no lock, allocates nothing, no FPU.
 * Return: 0, or -EINVAL (nothing written) when @x is malformed: outputs
 * that overlap each other or partly overlap an input.
 */
int ecdma_xlate_run(const struct ecdma_xlate_wr *x, u32 *wr_result)
{
	bool acc = x->wr_flags & ECDMA_EC_WR_ACCUMULATE;
	unsigned int i, j, m = x->nr_code;
	union {
		u64 align;
		u8 b[XR_PIECE];
	} v[ECDMA_XLATE_MAX_CODE];
	size_t off, n;

	*wr_result = 0;
	switch (x->opcode) {
	case ECDMA_EC_OP_NOP:
		return 0;
	case ECDMA_EC_OP_COPY:
		if (x->nr_data != 1 || m != 1 || !x->len)
			return -EINVAL;
		memmove(xr_ptr(&x->code[0], 0), xr_ptr(&x->data[0], 0), x->len);
		return 0;
	case ECDMA_EC_OP_ENCODE:
	case ECDMA_EC_OP_VALIDATE:
		break;
	default:
		return -EINVAL;
	}
	if (!xr_valid(x))
		return -EINVAL;

	for (off = 0; off < x->len; off += n) {
		n = min_t(size_t, x->len - off, XR_PIECE);
		for (j = 0; j < m; j++) {
			if (acc)
				memcpy(v[j].b, xr_ptr(&x->code[j], off), n);
			else
				memset(v[j].b, 0, n);
		}
		for (i = 0; i < x->nr_data; i++)
			for (j = 0; j < m; j++)
				if (x->matrix[i * m + j])
					xr_mul_xor(v[j].b,
						   xr_ptr(&x->data[i], off),
						   x->matrix[i * m + j], n);
		for (j = 0; j < m; j++) {
			if (x->opcode == ECDMA_EC_OP_ENCODE)
				memcpy(xr_ptr(&x->code[j], off), v[j].b, n);
			else if (memcmp(xr_ptr(&x->code[j], off), v[j].b, n))
				*wr_result |= BIT(j);
		}
	}
	return 0;
}
