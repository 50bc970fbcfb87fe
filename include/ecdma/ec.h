/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ecdma EC verbs: an in-kernel erasure-coding calc API.
 *
 * This mirrors the RDMA experimental EC verbs (ibv_exp_alloc_ec_calc,
 * ibv_exp_ec_{encode,decode,update}_{async,sync}, ibv_exp_ec_poll,
 * ibv_exp_ec_encode_send) with kernel conventions: negative errnos,
 * ERR_PTR returns, a defined callback context.
 *
 * ecdma_ec_encode_send() posts the data stripes to their QPs at once and
 * each code stripe from the encode's completion, in software, through
 * ib_post_send() (an inline call of the QP's driver: no ib_core
 * dependency).  Unlike the verbs it takes a required completion, which
 * reports when the code stripes were posted.
 *
 * Arithmetic is GF(2^8) with polynomial 0x11d (lib/raid6, ISA-L), w = 8.
 *
 * Matrices follow the verbs layout: an encode matrix is k x m, row-major,
 * matrix[i * m + j] = coefficient of data block i in code block j.  The
 * identity part of a systematic code is implicit.
 *
 * Memory: one scatter/gather entry per block, each exactly block_size bytes.
 * For the CPU provider sge.addr is a kernel virtual address; a device
 * provider takes DMA addresses valid for its device.
 *
 * Lifetime: a posted work request (struct ecdma_ec_wr), the memory layout it
 * points to and any matrix/erasure arrays must stay valid and unchanged until
 * its completion has run.  Posting never allocates, so it may be called from
 * any context, including with preemption or interrupts disabled.
 *
 * Ordering: work requests posted to one calc execute and complete (->done
 * runs) in submission order.  A request that fails completes before any
 * later one of its calc starts executing: on a callback calc its ->done
 * can still redo it, and the later requests see the result.
 */
#ifndef _ECDMA_EC_H
#define _ECDMA_EC_H

#include <linux/types.h>
#include <linux/list.h>

#define ECDMA_EC_W		8	/* only GF(2^8) */
#define ECDMA_EC_MAX_K		255	/* data blocks per calc or per WR */
#define ECDMA_EC_MAX_M		16	/* code blocks per calc or per WR */
#define ECDMA_EC_MAX_INFLIGHT	4096

struct ecdma_ec_calc;
struct ecdma_ec_provider;
struct device;
struct ib_qp;
struct ib_send_wr;

/**
 * struct ecdma_ec_caps - what a provider can do
 * @max_k: largest k (data blocks) in one calc or WR
 * @max_m: largest m (code blocks) in one calc or WR
 * @w_mask: bit (w - 1) set when GF(2^w) is supported
 * @max_inflight: largest max_inflight a calc may ask for
 * @block_align: block_size must be a multiple of this (bytes)
 * @flags: ECDMA_EC_CAP_*
 */
struct ecdma_ec_caps {
	u32 max_k;
	u32 max_m;
	u32 w_mask;
	u32 max_inflight;
	u32 block_align;
	u32 flags;
};

#define ECDMA_EC_CAP_UPDATE		BIT(0)	/* update supported */
#define ECDMA_EC_CAP_INPLACE		BIT(1)	/* an output may alias an input */
#define ECDMA_EC_CAP_VALIDATE		BIT(2)	/* validate supported */
#define ECDMA_EC_CAP_ENCODE_SEND	BIT(3)	/* encode_send supported */

enum ecdma_ec_matrix_type {
	ECDMA_EC_MATRIX_VANDERMONDE,	/* systematic Vandermonde, MDS-checked */
	ECDMA_EC_MATRIX_CAUCHY,		/* systematic Cauchy (always MDS) */
	ECDMA_EC_MATRIX_USER,		/* caller supplied in @encode_matrix */
};

/**
 * struct ecdma_ec_calc_attr - calc context attributes
 * @k: data blocks, 1..caps.max_k
 * @m: code blocks, 1..caps.max_m
 * @w: field width; must be 8
 * @max_inflight: most WRs outstanding at once, 1..caps.max_inflight
 * @affinity_hint: CPU to run completions on, or -1 for no preference
 * @polling: completions are reaped only by ecdma_ec_poll() (no callbacks
 *	from provider context); encode_send is then not allowed
 * @matrix_type: how the encode matrix is made
 * @encode_matrix: k x m row-major, for ECDMA_EC_MATRIX_USER; copied at alloc
 */
struct ecdma_ec_calc_attr {
	int k;
	int m;
	int w;
	int max_inflight;
	int affinity_hint;
	bool polling;
	enum ecdma_ec_matrix_type matrix_type;
	const u8 *encode_matrix;
};

/**
 * struct ecdma_ec_sge - one block
 * @addr: kernel virtual address (CPU provider) or device DMA address
 * @length: bytes; must equal the layout's block_size
 * @lkey: memory key for RDMA providers, ignored by the CPU provider
 */
struct ecdma_ec_sge {
	u64 addr;
	u32 length;
	u32 lkey;
};

/**
 * struct ecdma_ec_mem - memory layout of one operation (ibv_exp_ec_mem)
 * @data_blocks: input blocks
 * @num_data_sge: number of @data_blocks
 * @code_blocks: output (or, for validate, compared) blocks
 * @num_code_sge: number of @code_blocks
 * @block_size: bytes per block
 */
struct ecdma_ec_mem {
	struct ecdma_ec_sge *data_blocks;
	int num_data_sge;
	struct ecdma_ec_sge *code_blocks;
	int num_code_sge;
	int block_size;
};

enum ecdma_ec_opcode {
	ECDMA_EC_OP_NOP,	/* no data; completes in order */
	ECDMA_EC_OP_ENCODE,	/* code = E . data (^= with ACCUMULATE) */
	ECDMA_EC_OP_DECODE,	/* erased blocks from the first k survivors */
	ECDMA_EC_OP_UPDATE,	/* c' = c ^ E . (d ^ d') */
	ECDMA_EC_OP_VALIDATE,	/* wr->result bit j set when code j != E . data */
	ECDMA_EC_OP_COPY,	/* code[0] = data[0] */
	ECDMA_EC_OP_MAX,
};

/* wr->flags */
#define ECDMA_EC_WR_ACCUMULATE	BIT(0)	/* ENCODE: code ^= E . data */

/**
 * struct ecdma_ec_wr - a generic posted work request
 * @node: private to the core while posted
 * @opcode: ECDMA_EC_OP_*
 * @flags: ECDMA_EC_WR_*
 * @mem: memory layout (not needed for NOP)
 * @matrix: optional per-WR coefficients, num_data_sge x num_code_sge
 *	row-major like the encode matrix (1..k x 1..m); NULL uses the calc's
 *	matrix (and then the layout must be k x m).  ENCODE/VALIDATE; for
 *	UPDATE it is a k x m encode matrix used instead of the calc's; for
 *	DECODE it is the k x nerasures decode matrix (verbs semantics)
 * @erasures: DECODE: k + m bytes, non-zero = erased (at most m; none is a
 *	no-op).  Inputs are the first k non-erased blocks in index order
 *	(data 0..k-1 then code), outputs the erased blocks in index order
 * @data_updates: UPDATE: k bytes, non-zero = data block i changed
 * @code_updates: UPDATE: m bytes, non-zero = code block j is updated.
 *	Layout: data_blocks = [c_j for each updated j] ++ [d_i, d'_i for each
 *	changed i], code_blocks = [c'_j for each updated j]
 * @done: completion callback, or NULL; runs once, in submission order,
 *	in process or softirq context (never hardirq), atomic (preemption
 *	disabled; interrupts too when an ecdma_ec_progress() caller had them
 *	off); for a polling calc inside ecdma_ec_poll(); from
 *	ecdma_ec_dealloc_calc() with -ECANCELED.  Must not sleep or wait for
 *	later WRs of the same calc.  May post new WRs.
 * @status: 0, or a negative errno when the operation failed
 * @result: VALIDATE: bit j set when code block j mismatched
 * @ctx: for the caller
 */
struct ecdma_ec_wr {
	struct list_head node;
	enum ecdma_ec_opcode opcode;
	u32 flags;
	const struct ecdma_ec_mem *mem;
	const u8 *matrix;
	const u8 *erasures;
	const u8 *data_updates;
	const u8 *code_updates;
	void (*done)(struct ecdma_ec_wr *wr);
	int status;
	u32 result;
	void *ctx;
};

/**
 * struct ecdma_ec_comp - verbs-style completion (ibv_exp_ec_comp)
 * @done: called when the operation completed
 * @status: 0 or negative errno
 * @wr: storage for the work request the verbs wrappers post; private
 *	(ecdma_ec_encode_send() keeps its code stripes in @wr.ctx)
 *
 * Embed in the caller's context and use container_of() in @done.
 */
struct ecdma_ec_comp {
	void (*done)(struct ecdma_ec_comp *comp);
	int status;
	struct ecdma_ec_wr wr;
};

/**
 * struct ecdma_ec_stripe - one block's channel (ibv_exp_ec_stripe)
 * @qp: the QP the block is sent on
 * @wr: the send work request (chain) for the block, posted as is
 */
struct ecdma_ec_stripe {
	struct ib_qp *qp;
	struct ib_send_wr *wr;
};

/* Providers */
struct ecdma_ec_provider *ecdma_ec_provider_get(const char *name);
void ecdma_ec_provider_put(struct ecdma_ec_provider *prov);
int ecdma_ec_query_caps(struct ecdma_ec_provider *prov,
			struct ecdma_ec_caps *caps);
const char *ecdma_ec_provider_name(const struct ecdma_ec_provider *prov);
struct device *ecdma_ec_provider_dma_dev(const struct ecdma_ec_provider *prov);

/* Calc contexts */
struct ecdma_ec_calc *ecdma_ec_alloc_calc(struct ecdma_ec_provider *prov,
					  const struct ecdma_ec_calc_attr *attr);
void ecdma_ec_dealloc_calc(struct ecdma_ec_calc *calc);
int ecdma_ec_calc_k(const struct ecdma_ec_calc *calc);
int ecdma_ec_calc_m(const struct ecdma_ec_calc *calc);
bool ecdma_ec_calc_polling(const struct ecdma_ec_calc *calc);
const u8 *ecdma_ec_calc_matrix(const struct ecdma_ec_calc *calc);
int ecdma_ec_calc_cpu(const struct ecdma_ec_calc *calc);
struct ecdma_ec_provider *ecdma_ec_calc_provider(const struct ecdma_ec_calc *calc);
unsigned int ecdma_ec_calc_inflight(const struct ecdma_ec_calc *calc);

/* Generic work requests */
int ecdma_ec_post(struct ecdma_ec_calc *calc, struct ecdma_ec_wr *wr);
int ecdma_ec_post_nokick(struct ecdma_ec_calc *calc, struct ecdma_ec_wr *wr);
void ecdma_ec_kick(struct ecdma_ec_calc *calc);
int ecdma_ec_post_sync(struct ecdma_ec_calc *calc, struct ecdma_ec_wr *wr);
int ecdma_ec_poll(struct ecdma_ec_calc *calc, int budget);
bool ecdma_ec_progress(struct ecdma_ec_calc *calc);
int ecdma_ec_calc_set_cpu(struct ecdma_ec_calc *calc, int cpu);

/* Verbs-shaped wrappers */
int ecdma_ec_encode_async(struct ecdma_ec_calc *calc, struct ecdma_ec_mem *mem,
			  struct ecdma_ec_comp *comp);
int ecdma_ec_encode_sync(struct ecdma_ec_calc *calc, struct ecdma_ec_mem *mem);
int ecdma_ec_decode_async(struct ecdma_ec_calc *calc, struct ecdma_ec_mem *mem,
			  const u8 *erasures, const u8 *decode_matrix,
			  struct ecdma_ec_comp *comp);
int ecdma_ec_decode_sync(struct ecdma_ec_calc *calc, struct ecdma_ec_mem *mem,
			 const u8 *erasures, const u8 *decode_matrix);
int ecdma_ec_update_async(struct ecdma_ec_calc *calc, struct ecdma_ec_mem *mem,
			  const u8 *data_updates, const u8 *code_updates,
			  struct ecdma_ec_comp *comp);
int ecdma_ec_update_sync(struct ecdma_ec_calc *calc, struct ecdma_ec_mem *mem,
			 const u8 *data_updates, const u8 *code_updates);
int ecdma_ec_encode_send(struct ecdma_ec_calc *calc, struct ecdma_ec_mem *mem,
			 struct ecdma_ec_stripe *data_stripes,
			 struct ecdma_ec_stripe *code_stripes,
			 struct ecdma_ec_comp *comp);

#endif /* _ECDMA_EC_H */
