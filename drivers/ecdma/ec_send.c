// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma EC verbs: encode_send (ibv_exp_ec_encode_send), the one verb that
 * posts to RDMA QPs, kept apart so that ec_post.c has no RDMA includes.
 * ib_post_send() is inline: ecdma.ko needs no ib_core.
 */
#include <linux/export.h>
#include <linux/preempt.h>
#include <linux/spinlock.h>

#include <rdma/ib_verbs.h>

#include "ec_priv.h"

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
 * ecdma_ec_encode_send() - post data stripes, encode, post code stripes
 * @calc: a callback (not polling) calc
 * @mem: k data blocks in, m code blocks out, as for ecdma_ec_encode_async()
 * @data_stripes: k channels; data_stripes[i].wr carries data block i
 * @code_stripes: m channels; code_stripes[j].wr carries code block j
 * @comp: required; comp->done runs after the code stripes were posted in
 *	order from the (atomic) completion context, with comp->status 0 or
 *	the first error of the encode or of a code post (no stripe is posted
 *	after it).  Everything passed must stay valid until then.
 *
 * Context: Any context where ib_post_send() may be called; never sleeps.
 * Return: 0; the errors of ecdma_ec_post() (-EINVAL also for a polling
 * calc or a bad stripe or @comp), nothing posted; else the first failing
 * data stripe post's error: earlier stripes went out, comp->done won't run.
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
