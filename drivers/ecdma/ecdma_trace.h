/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ecdma's tracepoints (TRACE_SYSTEM ecdma): a descriptor's life, declines
 * and fallbacks, the offload policy, the EC verbs and the CPU provider.
 * Documentation/driver-api/ecdma-trace.rst describes every event.
 *
 * Callers see forward declarations only: the events read their objects in
 * TP_fast_assign, compiled in trace.c alone (which includes the types), so
 * no layer includes another through this header, and a disabled event
 * costs its static branch.
 */
#ifndef _ECDMA_TRACE_TYPES_H
#define _ECDMA_TRACE_TYPES_H

#include <linux/bits.h>

/**
 * enum ecdma_decline_why - why the front did not run an operation
 * @ECDMA_DECLINE_INVALID: prep: bad source count or length (xlate refused)
 * @ECDMA_DECLINE_ALIGN: prep: length not a multiple of the provider's
 *	block alignment
 * @ECDMA_DECLINE_POOL_DRY: prep: no free descriptor (prep returned NULL)
 * @ECDMA_DECLINE_NO_ROOM: prep: no memory for a many-source descriptor
 * @ECDMA_DECLINE_UNMAPPED: an address not in the direct map: runs as a NOP
 * @ECDMA_DECLINE_REJECTED: the provider refused the post: runs as a NOP
 * @ECDMA_DECLINE_PACED: prep: the channel's queue is full (pacing, prep
 *	returned NULL)
 */
enum ecdma_decline_why {
	ECDMA_DECLINE_INVALID,
	ECDMA_DECLINE_ALIGN,
	ECDMA_DECLINE_POOL_DRY,
	ECDMA_DECLINE_NO_ROOM,
	ECDMA_DECLINE_UNMAPPED,
	ECDMA_DECLINE_REJECTED,
	ECDMA_DECLINE_PACED,
};

/**
 * enum ecdma_md_guard_what - which guard of md's async_tx calls acted
 * @ECDMA_MD_GUARD_PPL_XOR: ppl_xor()'s XOR left unacked for its quiesce
 *	(md_guard.c)
 * @ECDMA_MD_GUARD_CB_AT_SUBMIT: an XOR whose callback md's next operation
 *	reads ran at submit, its callback delivered before submit returned
 *	(dma.c)
 */
enum ecdma_md_guard_what {
	ECDMA_MD_GUARD_PPL_XOR,
	ECDMA_MD_GUARD_CB_AT_SUBMIT,
};

/* what ecdma_accept switched: md's P+Q (the policy) or the copies */
#define ECDMA_ACCEPT_PQ		0
#define ECDMA_ACCEPT_COPY	1

/* ecdma_exec_end's path: which kernels computed the work request */
#define ECDMA_PATH_RAID6	BIT(0)	/* lib/raid6 */
#define ECDMA_PATH_XOR		BIT(1)	/* xor_blocks() */
#define ECDMA_PATH_GF		BIT(2)	/* the calc's GF algo */
#define ECDMA_PATH_NOFPU	BIT(3)	/* ... its non-SIMD fallback */
#define ECDMA_PATH_NT		BIT(4)	/* ... with non-temporal stores */

#endif /* _ECDMA_TRACE_TYPES_H */

#undef TRACE_SYSTEM
#define TRACE_SYSTEM ecdma

#if !defined(_ECDMA_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _ECDMA_TRACE_H

#include <linux/tracepoint.h>

struct ecdma_cb;
struct ecdma_chan;
struct ecdma_desc;
struct ecdma_ec_calc;
struct ecdma_ec_wr;
struct ecdma_trial;
struct ecdma_trial_sample;

/* user-space parsers (perf, trace-cmd) read the symbols by value */
TRACE_DEFINE_ENUM(ECDMA_OP_MEMCPY);
TRACE_DEFINE_ENUM(ECDMA_OP_XOR);
TRACE_DEFINE_ENUM(ECDMA_OP_XOR_VAL);
TRACE_DEFINE_ENUM(ECDMA_OP_PQ);
TRACE_DEFINE_ENUM(ECDMA_OP_PQ_VAL);
TRACE_DEFINE_ENUM(ECDMA_OP_INTERRUPT);
TRACE_DEFINE_ENUM(ECDMA_OP_NR);
TRACE_DEFINE_ENUM(ECDMA_EC_OP_NOP);
TRACE_DEFINE_ENUM(ECDMA_EC_OP_ENCODE);
TRACE_DEFINE_ENUM(ECDMA_EC_OP_DECODE);
TRACE_DEFINE_ENUM(ECDMA_EC_OP_UPDATE);
TRACE_DEFINE_ENUM(ECDMA_EC_OP_VALIDATE);
TRACE_DEFINE_ENUM(ECDMA_EC_OP_COPY);
TRACE_DEFINE_ENUM(ECDMA_DECLINE_INVALID);
TRACE_DEFINE_ENUM(ECDMA_DECLINE_ALIGN);
TRACE_DEFINE_ENUM(ECDMA_DECLINE_POOL_DRY);
TRACE_DEFINE_ENUM(ECDMA_DECLINE_NO_ROOM);
TRACE_DEFINE_ENUM(ECDMA_DECLINE_UNMAPPED);
TRACE_DEFINE_ENUM(ECDMA_DECLINE_REJECTED);
TRACE_DEFINE_ENUM(ECDMA_DECLINE_PACED);
TRACE_DEFINE_ENUM(ECDMA_MD_GUARD_PPL_XOR);
TRACE_DEFINE_ENUM(ECDMA_MD_GUARD_CB_AT_SUBMIT);
TRACE_DEFINE_ENUM(ECDMA_OFFLOAD_AUTO);
TRACE_DEFINE_ENUM(ECDMA_OFFLOAD_ALWAYS);
TRACE_DEFINE_ENUM(ECDMA_OFFLOAD_NEVER);
TRACE_DEFINE_ENUM(ECDMA_TRIAL_WRITE);
TRACE_DEFINE_ENUM(ECDMA_TRIAL_SMALL);
TRACE_DEFINE_ENUM(ECDMA_TRIAL_READ);
TRACE_DEFINE_ENUM(ECDMA_TRIAL_MD);
TRACE_DEFINE_ENUM(DMA_PREP_INTERRUPT);
TRACE_DEFINE_ENUM(DMA_CTRL_ACK);
TRACE_DEFINE_ENUM(DMA_PREP_PQ_DISABLE_P);
TRACE_DEFINE_ENUM(DMA_PREP_PQ_DISABLE_Q);
TRACE_DEFINE_ENUM(DMA_PREP_CONTINUE);
TRACE_DEFINE_ENUM(DMA_PREP_FENCE);

#define ecdma_show_op(op)						\
	__print_symbolic(op,						\
			 { ECDMA_OP_MEMCPY, "memcpy" },			\
			 { ECDMA_OP_XOR, "xor" },			\
			 { ECDMA_OP_XOR_VAL, "xor_val" },		\
			 { ECDMA_OP_PQ, "pq" },				\
			 { ECDMA_OP_PQ_VAL, "pq_val" },			\
			 { ECDMA_OP_INTERRUPT, "interrupt" },		\
			 { ECDMA_OP_NR, "unknown" })

#define ecdma_show_opcode(opcode)					\
	__print_symbolic(opcode,					\
			 { ECDMA_EC_OP_NOP, "nop" },			\
			 { ECDMA_EC_OP_ENCODE, "encode" },		\
			 { ECDMA_EC_OP_DECODE, "decode" },		\
			 { ECDMA_EC_OP_UPDATE, "update" },		\
			 { ECDMA_EC_OP_VALIDATE, "validate" },		\
			 { ECDMA_EC_OP_COPY, "copy" })

#define ecdma_show_prep_flags(flags)					\
	__print_flags(flags, "|",					\
		      { DMA_PREP_INTERRUPT, "INTERRUPT" },		\
		      { DMA_CTRL_ACK, "ACK" },				\
		      { DMA_PREP_PQ_DISABLE_P, "NO_P" },		\
		      { DMA_PREP_PQ_DISABLE_Q, "NO_Q" },		\
		      { DMA_PREP_CONTINUE, "CONTINUE" },		\
		      { DMA_PREP_FENCE, "FENCE" })

#define ecdma_show_why(why)						\
	__print_symbolic(why,						\
			 { ECDMA_DECLINE_INVALID, "invalid" },		\
			 { ECDMA_DECLINE_ALIGN, "align" },		\
			 { ECDMA_DECLINE_POOL_DRY, "pool_dry" },	\
			 { ECDMA_DECLINE_NO_ROOM, "no_room" },		\
			 { ECDMA_DECLINE_UNMAPPED, "unmapped" },	\
			 { ECDMA_DECLINE_REJECTED, "rejected" },	\
			 { ECDMA_DECLINE_PACED, "paced" })

#define ecdma_show_mode(mode)						\
	__print_symbolic(mode,						\
			 { ECDMA_OFFLOAD_AUTO, "auto" },		\
			 { ECDMA_OFFLOAD_ALWAYS, "always" },		\
			 { ECDMA_OFFLOAD_NEVER, "never" })

#define ecdma_show_kind(kind)						\
	__print_symbolic(kind,						\
			 { ECDMA_TRIAL_WRITE, "write" },		\
			 { ECDMA_TRIAL_SMALL, "small_write" },		\
			 { ECDMA_TRIAL_READ, "read" },			\
			 { ECDMA_TRIAL_MD, "md" })

#define ecdma_show_path(path)						\
	__print_flags(path, "|",					\
		      { ECDMA_PATH_RAID6, "raid6" },			\
		      { ECDMA_PATH_XOR, "xor" },			\
		      { ECDMA_PATH_GF, "gf" },				\
		      { ECDMA_PATH_NOFPU, "nofpu" },			\
		      { ECDMA_PATH_NT, "nt" })

/* --- the dmaengine front: a descriptor's life --- */

TRACE_EVENT(ecdma_desc_prep,
	    TP_PROTO(const struct ecdma_desc *d),
	    TP_ARGS(d),
	    TP_STRUCT__entry(__field(const void *, desc)
			     __field(const void *, wr)
			     __field(u32, chan)
			     __field(u32, len)
			     __field(u32, flags)
			     __field(u16, src)
			     __field(u8, dst)
			     __field(u8, op)
			     __field(u8, opcode)),
	    TP_fast_assign(__entry->desc = d;
			   __entry->wr = &d->wr;
			   __entry->chan = d->ch->idx;
			   __entry->len = d->x.len;
			   __entry->flags = d->txd.flags;
			   __entry->src = d->x.nr_data;
			   __entry->dst = d->x.nr_code;
			   __entry->op = d->x.type;
			   __entry->opcode = d->wr.opcode;),
	    TP_printk("chan=%u desc=%p op=%s src=%u dst=%u len=%u wr=%p opcode=%s flags=%s",
		      __entry->chan, __entry->desc, ecdma_show_op(__entry->op),
		      __entry->src, __entry->dst, __entry->len, __entry->wr,
		      ecdma_show_opcode(__entry->opcode),
		      ecdma_show_prep_flags(__entry->flags)));

TRACE_EVENT(ecdma_desc_submit,
	    TP_PROTO(const struct ecdma_desc *d, int cookie),
	    TP_ARGS(d, cookie),
	    TP_STRUCT__entry(__field(const void *, desc)
			     __field(u32, chan)
			     __field(s32, cookie)
			     __field(u32, len)
			     __field(u8, op)),
	    TP_fast_assign(__entry->desc = d;
			   __entry->chan = d->ch->idx;
			   __entry->cookie = cookie;
			   __entry->len = d->x.len;
			   __entry->op = d->x.type;),
	    TP_printk("chan=%u desc=%p cookie=%d op=%s len=%u", __entry->chan,
		      __entry->desc, __entry->cookie,
		      ecdma_show_op(__entry->op), __entry->len));

TRACE_EVENT(ecdma_desc_complete,
	    TP_PROTO(const struct ecdma_desc *d, int status, u64 latency,
		     bool callback),
	    TP_ARGS(d, status, latency, callback),
	    TP_STRUCT__entry(__field(const void *, desc)
			     __field(u64, latency)
			     __field(u32, chan)
			     __field(s32, cookie)
			     __field(u32, len)
			     __field(s32, status)
			     __field(u8, op)
			     __field(bool, callback)),
	    TP_fast_assign(__entry->desc = d;
			   __entry->latency = latency;
			   __entry->chan = d->ch->idx;
			   __entry->cookie = d->txd.cookie;
			   __entry->len = d->x.len;
			   __entry->status = status;
			   __entry->op = d->x.type;
			   __entry->callback = callback;),
	    TP_printk("chan=%u desc=%p cookie=%d op=%s len=%u status=%d latency=%llu callback=%d",
		      __entry->chan, __entry->desc, __entry->cookie,
		      ecdma_show_op(__entry->op), __entry->len, __entry->status,
		      __entry->latency, __entry->callback));

TRACE_EVENT(ecdma_desc_callback,
	    TP_PROTO(const struct ecdma_chan *ch, const struct ecdma_cb *e,
		     bool aborted),
	    TP_ARGS(ch, e, aborted),
	    TP_STRUCT__entry(__field(const void *, desc)
			     __field(u32, chan)
			     __field(u32, result)
			     __field(u8, op)
			     __field(bool, aborted)
			     __field(bool, with_result)
			     __field(bool, softirq)),
	    TP_fast_assign(__entry->desc = e->d ?: e->desc;
			   __entry->chan = ch->idx;
			   __entry->result = e->d ? e->d->res.result :
						    e->res.result;
			   __entry->op = e->d ? e->d->x.type : e->op;
			   __entry->aborted = aborted;
			   __entry->with_result = e->d ?
				!!e->d->txd.callback_result :
				!!e->callback_result;
			   __entry->softirq = in_serving_softirq();),
	    TP_printk("chan=%u desc=%p op=%s result=%u aborted=%d with_result=%d context=%s",
		      __entry->chan, __entry->desc, ecdma_show_op(__entry->op),
		      __entry->result, __entry->aborted, __entry->with_result,
		      __entry->softirq ? "softirq" : "task"));

/* --- what the front did not run, or ran elsewhere --- */

TRACE_EVENT(ecdma_decline,
	    TP_PROTO(const struct ecdma_chan *ch, unsigned int op,
		     enum ecdma_decline_why why, int err),
	    TP_ARGS(ch, op, why, err),
	    TP_STRUCT__entry(__field(u32, chan)
			     __field(s32, err)
			     __field(u8, op)
			     __field(u8, why)),
	    TP_fast_assign(__entry->chan = ch->idx;
			   __entry->err = err;
			   __entry->op = op;
			   __entry->why = why;),
	    TP_printk("chan=%u op=%s why=%s err=%d", __entry->chan,
		      ecdma_show_op(__entry->op), ecdma_show_why(__entry->why),
		      __entry->err));

TRACE_EVENT(ecdma_fallback,
	    TP_PROTO(const struct ecdma_chan *ch, unsigned int op, int err,
		     int tries, int status),
	    TP_ARGS(ch, op, err, tries, status),
	    TP_STRUCT__entry(__field(u32, chan)
			     __field(s32, err)
			     __field(s32, tries)
			     __field(s32, status)
			     __field(u8, op)),
	    TP_fast_assign(__entry->chan = ch->idx;
			   __entry->err = err;
			   __entry->tries = tries;
			   __entry->status = status;
			   __entry->op = op;),
	    TP_printk("chan=%u op=%s err=%d tries=%d status=%d", __entry->chan,
		      ecdma_show_op(__entry->op), __entry->err, __entry->tries,
		      __entry->status));

TRACE_EVENT(ecdma_rescue,
	    TP_PROTO(const struct ecdma_chan *ch, unsigned int op, int err,
		     int status),
	    TP_ARGS(ch, op, err, status),
	    TP_STRUCT__entry(__field(u32, chan)
			     __field(s32, err)
			     __field(s32, status)
			     __field(u8, op)),
	    TP_fast_assign(__entry->chan = ch->idx;
			   __entry->err = err;
			   __entry->status = status;
			   __entry->op = op;),
	    TP_printk("chan=%u op=%s err=%d status=%d", __entry->chan,
		      ecdma_show_op(__entry->op), __entry->err,
		      __entry->status));

TRACE_EVENT(ecdma_md_guard,
	    TP_PROTO(unsigned int what),
	    TP_ARGS(what),
	    TP_STRUCT__entry(__field(u8, what)),
	    TP_fast_assign(__entry->what = what;),
	    TP_printk("guard=%s",
		      __print_symbolic(__entry->what,
				       { ECDMA_MD_GUARD_PPL_XOR, "ppl_xor" },
				       { ECDMA_MD_GUARD_CB_AT_SUBMIT,
					 "cb_at_submit" })));

TRACE_EVENT(ecdma_accept,
	    TP_PROTO(unsigned int what, bool accept, unsigned int align),
	    TP_ARGS(what, accept, align),
	    TP_STRUCT__entry(__field(u32, align)
			     __field(u8, what)
			     __field(bool, accept)),
	    TP_fast_assign(__entry->align = align;
			   __entry->what = what;
			   __entry->accept = accept;),
	    TP_printk("what=%s accept=%d align=%u",
		      __entry->what == ECDMA_ACCEPT_COPY ? "copy" : "pq",
		      __entry->accept, __entry->align));

/* --- the offload policy --- */

TRACE_EVENT(ecdma_mode,
	    TP_PROTO(unsigned int old, unsigned int mode),
	    TP_ARGS(old, mode),
	    TP_STRUCT__entry(__field(u8, old)
			     __field(u8, mode)),
	    TP_fast_assign(__entry->old = old;
			   __entry->mode = mode;),
	    TP_printk("old=%s mode=%s", ecdma_show_mode(__entry->old),
		      ecdma_show_mode(__entry->mode)));

DECLARE_EVENT_CLASS(ecdma_table_class,
		    TP_PROTO(int ret, unsigned long switches, unsigned int slot),
		    TP_ARGS(ret, switches, slot),
		    TP_STRUCT__entry(__field(unsigned long, switches)
				     __field(s32, ret)
				     __field(u32, slot)),
		    TP_fast_assign(__entry->switches = switches;
				   __entry->ret = ret;
				   __entry->slot = slot;),
		    TP_printk("ret=%d switches=%lu slot=%u", __entry->ret,
			      __entry->switches, __entry->slot));

DEFINE_EVENT(ecdma_table_class, ecdma_table_leave,
	     TP_PROTO(int ret, unsigned long switches, unsigned int slot),
	     TP_ARGS(ret, switches, slot));

DEFINE_EVENT(ecdma_table_class, ecdma_table_join,
	     TP_PROTO(int ret, unsigned long switches, unsigned int slot),
	     TP_ARGS(ret, switches, slot));

TRACE_EVENT(ecdma_trial_start,
	    TP_PROTO(const struct ecdma_trial *t),
	    TP_ARGS(t),
	    TP_STRUCT__entry(__field(s32, credit)
			     __field(u32, guess)
			     __field(u32, budget)
			     __field(u8, kind)
			     __field(bool, confirm)),
	    TP_fast_assign(__entry->credit = t->load[t->tkind].credit;
			   __entry->guess = t->load[t->tkind].guess;
			   __entry->budget = t->budget;
			   __entry->kind = t->tkind;
			   __entry->confirm = t->confirm;),
	    TP_printk("kind=%s confirm=%d credit=%d guess=%u budget=%u",
		      ecdma_show_kind(__entry->kind), __entry->confirm,
		      __entry->credit, __entry->guess, __entry->budget));

TRACE_EVENT(ecdma_trial_slot,
	    TP_PROTO(unsigned int slot, bool out, unsigned int kind,
		     const struct ecdma_trial_sample *s),
	    TP_ARGS(slot, out, kind, s),
	    TP_STRUCT__entry(__field(u64, rd)
			     __field(u64, wr)
			     __field(u64, md)
			     __field(u32, us)
			     __field(u32, slot)
			     __field(u8, kind)
			     __field(bool, out)),
	    TP_fast_assign(__entry->rd = s->rd;
			   __entry->wr = s->wr;
			   __entry->md = s->md;
			   __entry->us = s->us;
			   __entry->slot = slot;
			   __entry->kind = kind;
			   __entry->out = out;),
	    TP_printk("slot=%u state=%s kind=%s rd=%llu wr=%llu md=%llu us=%u",
		      __entry->slot, __entry->out ? "out" : "in",
		      ecdma_show_kind(__entry->kind), __entry->rd, __entry->wr,
		      __entry->md, __entry->us));

TRACE_EVENT(ecdma_trial_verdict,
	    TP_PROTO(const struct ecdma_trial *t, bool keep, bool thin,
		     bool aborted),
	    TP_ARGS(t, keep, thin, aborted),
	    TP_STRUCT__entry(__field(u64, in)
			     __field(u64, out)
			     __field(unsigned long, trials)
			     __field(unsigned long, kept)
			     __field(u32, ratio)
			     __field(u8, kind)
			     __field(bool, keep)
			     __field(bool, thin)
			     __field(bool, aborted)),
	    TP_fast_assign(__entry->in = t->last[0];
			   __entry->out = t->last[1];
			   __entry->trials = t->trials;
			   __entry->kept = t->kept;
			   __entry->ratio = ecdma_trace_ratio(t);
			   __entry->kind = t->tkind;
			   __entry->keep = keep;
			   __entry->thin = thin;
			   __entry->aborted = aborted;),
	    TP_printk("kind=%s verdict=%s in=%llu out=%llu ratio=%u%% thin=%d aborted=%d trials=%lu kept=%lu",
		      ecdma_show_kind(__entry->kind),
		      __entry->keep ? "in" : "out", __entry->in, __entry->out,
		      __entry->ratio, __entry->thin, __entry->aborted,
		      __entry->trials, __entry->kept));

/* --- the EC verbs --- */

DECLARE_EVENT_CLASS(ecdma_ec_calc_class,
		    TP_PROTO(const struct ecdma_ec_calc *calc),
		    TP_ARGS(calc),
		    TP_STRUCT__entry(__field(const void *, calc)
				     __array(char, prov, 16)
				     __field(s32, k)
				     __field(s32, m)
				     __field(s32, max_inflight)
				     __field(s32, cpu)
				     __field(bool, polling)),
		    TP_fast_assign(__entry->calc = calc;
				   strscpy(__entry->prov, calc->prov->name,
					   sizeof(__entry->prov));
				   __entry->k = calc->k;
				   __entry->m = calc->m;
				   __entry->max_inflight = calc->max_inflight;
				   __entry->cpu = READ_ONCE(calc->affinity);
				   __entry->polling = calc->polling;),
		    TP_printk("calc=%p provider=%s k=%d m=%d max_inflight=%d cpu=%d polling=%d",
			      __entry->calc, __entry->prov, __entry->k,
			      __entry->m, __entry->max_inflight, __entry->cpu,
			      __entry->polling));

DEFINE_EVENT(ecdma_ec_calc_class, ecdma_ec_calc_alloc,
	     TP_PROTO(const struct ecdma_ec_calc *calc),
	     TP_ARGS(calc));

DEFINE_EVENT(ecdma_ec_calc_class, ecdma_ec_calc_free,
	     TP_PROTO(const struct ecdma_ec_calc *calc),
	     TP_ARGS(calc));

DECLARE_EVENT_CLASS(ecdma_ec_wr_class,
		    TP_PROTO(const struct ecdma_ec_calc *calc,
			     const struct ecdma_ec_wr *wr, int status),
		    TP_ARGS(calc, wr, status),
		    TP_STRUCT__entry(__field(const void *, calc)
				     __field(const void *, wr)
				     __field(u64, bytes)
				     __field(u32, flags)
				     __field(u32, result)
				     __field(s32, status)
				     __field(u16, data)
				     __field(u16, code)
				     __field(u8, opcode)),
		    TP_fast_assign(__entry->calc = calc;
				   __entry->wr = wr;
				   __entry->data = ecdma_trace_data(wr);
				   __entry->code = ecdma_trace_code(wr);
				   __entry->bytes = ecdma_trace_bytes(wr);
				   __entry->flags = wr->flags;
				   __entry->result = wr->result;
				   __entry->status = status;
				   __entry->opcode = wr->opcode;),
		    TP_printk("calc=%p wr=%p opcode=%s flags=%#x data=%u code=%u bytes=%llu status=%d result=%#x",
			      __entry->calc, __entry->wr,
			      ecdma_show_opcode(__entry->opcode),
			      __entry->flags, __entry->data, __entry->code,
			      __entry->bytes, __entry->status, __entry->result));

DEFINE_EVENT(ecdma_ec_wr_class, ecdma_ec_post,
	     TP_PROTO(const struct ecdma_ec_calc *calc,
		      const struct ecdma_ec_wr *wr, int status),
	     TP_ARGS(calc, wr, status));

DEFINE_EVENT(ecdma_ec_wr_class, ecdma_ec_complete,
	     TP_PROTO(const struct ecdma_ec_calc *calc,
		      const struct ecdma_ec_wr *wr, int status),
	     TP_ARGS(calc, wr, status));

/* --- the CPU provider's execution --- */

DECLARE_EVENT_CLASS(ecdma_exec_class,
		    TP_PROTO(const struct ecdma_ec_calc *calc,
			     const struct ecdma_ec_wr *wr, bool inl,
			     const char *algo, unsigned int path),
		    TP_ARGS(calc, wr, inl, algo, path),
		    TP_STRUCT__entry(__field(const void *, calc)
				     __field(const void *, wr)
				     __field(u64, bytes)
				     __array(char, prov, 16)
				     __array(char, algo, 16)
				     __field(s32, status)
				     __field(u8, opcode)
				     __field(u8, path)
				     __field(bool, inl)),
		    TP_fast_assign(__entry->calc = calc;
				   __entry->wr = wr;
				   __entry->bytes = ecdma_trace_bytes(wr);
				   strscpy(__entry->prov, calc->prov->name,
					   sizeof(__entry->prov));
				   strscpy(__entry->algo, algo,
					   sizeof(__entry->algo));
				   __entry->status = wr->status;
				   __entry->opcode = wr->opcode;
				   __entry->path = path;
				   __entry->inl = inl;),
		    TP_printk("calc=%p wr=%p provider=%s opcode=%s bytes=%llu by=%s algo=%s path=%s status=%d",
			      __entry->calc, __entry->wr, __entry->prov,
			      ecdma_show_opcode(__entry->opcode),
			      __entry->bytes,
			      __entry->inl ? "inline" : "worker", __entry->algo,
			      ecdma_show_path(__entry->path), __entry->status));

DEFINE_EVENT(ecdma_exec_class, ecdma_exec_start,
	     TP_PROTO(const struct ecdma_ec_calc *calc,
		      const struct ecdma_ec_wr *wr, bool inl, const char *algo,
		      unsigned int path),
	     TP_ARGS(calc, wr, inl, algo, path));

DEFINE_EVENT(ecdma_exec_class, ecdma_exec_end,
	     TP_PROTO(const struct ecdma_ec_calc *calc,
		      const struct ecdma_ec_wr *wr, bool inl, const char *algo,
		      unsigned int path),
	     TP_ARGS(calc, wr, inl, algo, path));

#endif /* _ECDMA_TRACE_H */

/* out of tree: define_trace.h finds this file through -I$(src) (Kbuild) */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ecdma_trace
#include <trace/define_trace.h>
