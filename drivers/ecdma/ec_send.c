// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma EC verbs: encode_send (ibv_exp_ec_encode_send), the one verb that
 * touches RDMA queue pairs.  Kept out of the calc core so that the core
 * has no RDMA includes.  It needs only ib_post_send(), an inline call of
 * the QP's driver, so ecdma.ko does not depend on ib_core; the RDMA half
 * proper (ib_client, QPs, the INEC primitives) is ecdma_rdma.ko.
 *
 * It reserves its inflight slot before posting anything and queues the
 * encode itself, which is why it lives with the core (ec_priv.h) rather
 * than on top of the public API.
 */
#include <linux/export.h>
#include <linux/preempt.h>
#include <linux/spinlock.h>

#include <rdma/ib_verbs.h>

#include "ec_priv.h"

/* encode_send: post the code stripes once the encode is done */
static void ecdma_ec_send_done(struct ecdma_ec_wr *wr)
{
	struct ecdma_ec_comp *comp = container_of(wr, struct ecdma_ec_comp,
						  wr);
	struct ecdma_ec_stripe *code = wr->ctx;
	int i, ret = wr->status;

	/* a failed or cancelled encode left no parity worth sending */
	for (i = 0; !ret && i < wr->mem->num_code_sge; i++)
		ret = ib_post_send(code[i].qp, code[i].wr, NULL);
	comp->status = ret;
	comp->done(comp);
}

static bool ecdma_ec_stripes_ok(const struct ecdma_ec_stripe *s, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!s[i].qp || !s[i].wr)
			return false;
	return true;
}

/**
 * ecdma_ec_encode_send() - encode and send (ibv_exp_ec_encode_send)
 * @calc: a callback (not polling) calc
 * @mem: k data blocks in, m code blocks out, as for ecdma_ec_encode_async()
 * @data_stripes: k channels; data_stripes[i].wr carries data block i
 * @code_stripes: m channels; code_stripes[j].wr carries code block j
 * @comp: required (a kernel extension to the verbs): storage for the
 *	encode and its completion; comp->done runs like a ->done after the
 *	code stripes were posted
 *
 * Validates everything first (as ecdma_ec_post(), plus the stripes), then
 * posts each data stripe with ib_post_send(qp, wr), in order, then queues
 * the encode.  Its completion posts each code stripe in order from the
 * calc's completion context (process or softirq, atomic) and then sets
 * comp->status: 0, or the first negative errno of the encode (no code
 * stripe is posted then, e.g. -ECANCELED when the calc is deallocated) or
 * of posting a code stripe (the later ones are not posted).  @mem, both
 * stripe arrays and the work requests they point to must stay valid until
 * comp->done runs.  The inflight slot is taken before any data stripe is
 * posted, so once one is posted only a data stripe post can fail.
 *
 * Context: Any context where ib_post_send() may be called; never sleeps.
 * Return: 0; -EINVAL for a polling calc, NULL stripes or @comp, a @comp
 * without ->done, a stripe without qp or wr, or anything ecdma_ec_post()
 * rejects as malformed; -EOPNOTSUPP, -EOVERFLOW, -ESHUTDOWN as
 * ecdma_ec_post() (nothing posted in all these cases); else the error of
 * the first failing data stripe post: the stripes before it were posted,
 * and the encode is not queued (comp->done will not run).
 */
int ecdma_ec_encode_send(struct ecdma_ec_calc *calc, struct ecdma_ec_mem *mem,
			 struct ecdma_ec_stripe *data_stripes,
			 struct ecdma_ec_stripe *code_stripes,
			 struct ecdma_ec_comp *comp)
{
	const struct ecdma_ec_wr tmpl = {
		.opcode = ECDMA_EC_OP_ENCODE,
		.mem = mem,
		.done = ecdma_ec_send_done,
		.ctx = code_stripes,
	};
	unsigned long flags;
	bool kick = false;
	int i, ret;

	if (!calc || calc->polling || !data_stripes || !code_stripes ||
	    !comp || !comp->done)
		return -EINVAL;
	ret = ecdma_ec_validate_wr(&calc->prov->caps, calc->k, calc->m, &tmpl);
	if (!ret && (!ecdma_ec_stripes_ok(data_stripes, calc->k) ||
		     !ecdma_ec_stripes_ok(code_stripes, calc->m)))
		ret = -EINVAL;

	/* as ecdma_ec_post(), but the slot is reserved before sending */
	preempt_disable();
	spin_lock_irqsave(&calc->lock, flags);
	ret = ecdma_ec_admit(calc, ret);
	spin_unlock_irqrestore(&calc->lock, flags);
	if (ret)
		goto out;

	for (i = 0; !ret && i < calc->k; i++)
		ret = ib_post_send(data_stripes[i].qp, data_stripes[i].wr,
				   NULL);

	/* dealloc's synchronize_rcu() waits for us: calc is not dead yet */
	spin_lock_irqsave(&calc->lock, flags);
	if (ret) {
		calc->inflight--;
	} else {
		comp->wr = tmpl;
		list_add_tail(&comp->wr.node, &calc->pending);
		kick = !calc->owned;
	}
	spin_unlock_irqrestore(&calc->lock, flags);
	if (kick)
		calc->prov->ops->kick(calc);
out:
	preempt_enable();
	return ret;
}
EXPORT_SYMBOL_GPL(ecdma_ec_encode_send);
