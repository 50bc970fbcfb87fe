/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ecdma_rdma's tracepoints (TRACE_SYSTEM ecdma_rdma): a primitive's start
 * and end (rdma_op.c).  Documentation/driver-api/ecdma-trace.rst describes
 * them.  The arguments are values the caller works out only while the
 * event is enabled.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ecdma_rdma

#if !defined(_ECDMA_RDMA_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _ECDMA_RDMA_TRACE_H

#include <linux/tracepoint.h>

TRACE_DEFINE_ENUM(ECDMA_RDMA_OP_EC_SEND);
TRACE_DEFINE_ENUM(ECDMA_RDMA_OP_RECV_EC_SEND);
TRACE_DEFINE_ENUM(ECDMA_RDMA_OP_RECV_EC);
TRACE_DEFINE_ENUM(ECDMA_RDMA_OP_REG);

#define ecdma_rdma_show_kind(kind)					\
	__print_symbolic(kind,						\
			 { ECDMA_RDMA_OP_EC_SEND, "ec_send" },		\
			 { ECDMA_RDMA_OP_RECV_EC_SEND, "recv_ec_send" }, \
			 { ECDMA_RDMA_OP_RECV_EC, "recv_ec" },		\
			 { ECDMA_RDMA_OP_REG, "reg" })

DECLARE_EVENT_CLASS(ecdma_rdma_op_class,
		    TP_PROTO(const void *op, unsigned int kind, u32 blocks,
			     u32 block_size, int status),
		    TP_ARGS(op, kind, blocks, block_size, status),
		    TP_STRUCT__entry(__field(const void *, op)
				     __field(u64, bytes)
				     __field(u32, blocks)
				     __field(u32, block_size)
				     __field(s32, status)
				     __field(u8, kind)),
		    TP_fast_assign(__entry->op = op;
				   __entry->bytes = (u64)blocks * block_size;
				   __entry->blocks = blocks;
				   __entry->block_size = block_size;
				   __entry->status = status;
				   __entry->kind = kind;),
		    TP_printk("op=%p kind=%s blocks=%u block_size=%u bytes=%llu status=%d",
			      __entry->op,
			      ecdma_rdma_show_kind(__entry->kind),
			      __entry->blocks, __entry->block_size,
			      __entry->bytes, __entry->status));

DEFINE_EVENT(ecdma_rdma_op_class, ecdma_rdma_op_start,
	     TP_PROTO(const void *op, unsigned int kind, u32 blocks,
		      u32 block_size, int status),
	     TP_ARGS(op, kind, blocks, block_size, status));

DEFINE_EVENT(ecdma_rdma_op_class, ecdma_rdma_op_end,
	     TP_PROTO(const void *op, unsigned int kind, u32 blocks,
		      u32 block_size, int status),
	     TP_ARGS(op, kind, blocks, block_size, status));

#endif /* _ECDMA_RDMA_TRACE_H */

/* out of tree: define_trace.h finds this file through -I$(src) (Kbuild) */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE rdma_trace
#include <trace/define_trace.h>
