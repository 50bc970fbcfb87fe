// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma's tracepoints: their one definition (ecdma_trace.h).  The events
 * read the front's, the policy's and the EC verbs' objects, whose types
 * are known here only: callers include the header without them.
 */
#include <linux/preempt.h>
#include <linux/string.h>

#include "ec_priv.h"
#include "front.h"

/* a work request's data blocks; a NOP has none */
static u16 ecdma_trace_data(const struct ecdma_ec_wr *wr)
{
	if (wr->opcode == ECDMA_EC_OP_NOP || !wr->mem)
		return 0;
	return wr->mem->num_data_sge;
}

/* ... and its code blocks */
static u16 ecdma_trace_code(const struct ecdma_ec_wr *wr)
{
	if (wr->opcode == ECDMA_EC_OP_NOP || !wr->mem)
		return 0;
	return wr->mem->num_code_sge;
}

/* the bytes of every block a work request reads or writes */
static u64 ecdma_trace_bytes(const struct ecdma_ec_wr *wr)
{
	if (wr->opcode == ECDMA_EC_OP_NOP || !wr->mem)
		return 0;
	return (u64)wr->mem->block_size *
	       (ecdma_trace_data(wr) + ecdma_trace_code(wr));
}

/* the last trial's I/O in the table per 100 out of it (0: none out) */
static u32 ecdma_trace_ratio(const struct ecdma_trial *t)
{
	if (!t->last[1])
		return 0;
	return min_t(u64, div64_u64(t->last[0] * 100, t->last[1]), U32_MAX);
}

#define CREATE_TRACE_POINTS
#include "ecdma_trace.h"
