// SPDX-License-Identifier: GPL-2.0
/*
 * async_tx's side of the ack contract, as md uses it: a descriptor the
 * client has not acked is still the client's.  md holds one as depend_tx
 * between two async_* calls; if the provider handed it out again while the
 * client stalled (vCPU steal, a VM paused), async_tx would ack the new
 * operation through the old pointer and the client's next chained call
 * would hit BUG_ON(async_tx_test_ack(depend_tx)).
 *
 * On one CPU (so every operation takes that CPU's channel): hold
 * @held completed async_xor() operations unacked (the runner sets desc_max
 * to 32, so the pool has nothing free), sleep past the age at which ecdma
 * once reused unacked descriptors, then submit one more XOR with the first
 * held one as depend_tx.  The new operation must not be a held one, no held
 * one may read acked, and the XORs must be right.
 *
 * Needs ecdma in async_tx's channel table (offload "always"): an XOR that
 * ran synchronously (async_xor() returned NULL) fails the test, since it
 * proves nothing.  Runs at load; prints KTAP lines and "N passed, M
 * failed"; the load fails (-EINVAL) when a test failed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/async_tx.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>

#include "ecdma_ktest.h"

static uint held = 32;
module_param(held, uint, 0444);
MODULE_PARM_DESC(held, "completed XORs held unacked (1-256, default 32: desc_max)");

/* ecdma once took back unacked descriptors completed 1 s before */
#define A_STALL_MS	1500

/**
 * struct a_run - one run of the test on its CPU
 * @tx: the held descriptors
 * @dst: their destinations
 * @src: the two sources every XOR reads
 * @done: the run finished
 * @bad: checks that failed
 * @sync: operations async_tx ran synchronously (NULL returned)
 * @dup: held descriptors handed out again
 * @acked: held descriptors that read acked
 * @wrong: destinations with a wrong XOR
 */
struct a_run {
	struct dma_async_tx_descriptor **tx;
	struct page **dst;
	struct page *src[2];
	struct completion done;
	int bad;
	int sync;
	int dup;
	int acked;
	int wrong;
};

/* dst = src[0] ^ src[1]; not acked: the caller holds the descriptor */
static struct dma_async_tx_descriptor *
a_xor(struct a_run *r, struct page *dst, struct dma_async_tx_descriptor *dep)
{
	struct page *srcs[2] = { r->src[0], r->src[1] };
	struct async_submit_ctl submit;

	init_async_submit(&submit, 0, dep, NULL, NULL, NULL);
	return async_xor(dst, srcs, 0, 2, PAGE_SIZE, &submit);
}

static bool a_xor_right(struct a_run *r, struct page *dst)
{
	const u8 *a = page_address(r->src[0]), *b = page_address(r->src[1]);
	const u8 *d = page_address(dst);
	int i;

	for (i = 0; i < PAGE_SIZE; i++)
		if (d[i] != (a[i] ^ b[i]))
			return false;
	return true;
}

static int a_thread(void *data)
{
	struct a_run *r = data;
	struct dma_async_tx_descriptor *tx, *dep;
	struct page *extra = r->dst[held];
	unsigned int i;

	for (i = 0; i < held; i++) {
		r->tx[i] = a_xor(r, r->dst[i], NULL);
		if (!r->tx[i]) {
			r->sync++;
			continue;
		}
		if (dma_wait_for_async_tx(r->tx[i]) != DMA_COMPLETE)
			r->bad++;
	}
	msleep(A_STALL_MS);
	for (i = 0; i < held; i++)
		r->acked += r->tx[i] && async_tx_test_ack(r->tx[i]);
	/* async_tx_submit() BUG()s on an acked depend_tx: not with one */
	tx = NULL;
	dep = r->tx[0];
	if (dep && !async_tx_test_ack(dep)) {
		tx = a_xor(r, extra, dep);
		/* it acked its depend_tx: the first is given back */
		r->tx[0] = NULL;
		if (!tx)
			r->sync++;
		else if (dma_wait_for_async_tx(tx) != DMA_COMPLETE)
			r->bad++;
	}
	r->dup += tx && tx == dep;
	for (i = 0; i < held; i++) {
		r->dup += tx && r->tx[i] == tx;
		if (r->tx[i])
			async_tx_ack(r->tx[i]);
	}
	if (tx)
		async_tx_ack(tx);
	for (i = 0; i <= held; i++)
		r->wrong += !a_xor_right(r, r->dst[i]);
	complete(&r->done);
	return 0;
}

static void a_pages_free(struct a_run *r)
{
	unsigned int i;

	for (i = 0; i <= held; i++)
		if (r->dst[i])
			__free_page(r->dst[i]);
	for (i = 0; i < 2; i++)
		if (r->src[i])
			__free_page(r->src[i]);
}

static void test_depend_tx_held_unacked(void)
{
	struct task_struct *t;
	struct a_run *r;
	unsigned int i;
	char diag[128];
	int bad = 0;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		goto fail;
	r->tx = kcalloc(held, sizeof(*r->tx), GFP_KERNEL);
	r->dst = kcalloc(held + 1, sizeof(*r->dst), GFP_KERNEL);
	if (!r->tx || !r->dst)
		goto free;
	init_completion(&r->done);
	for (i = 0; i < 2; i++) {
		r->src[i] = alloc_page(GFP_KERNEL);
		if (!r->src[i])
			goto pages;
		get_random_bytes(page_address(r->src[i]), PAGE_SIZE);
	}
	for (i = 0; i <= held; i++) {
		r->dst[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!r->dst[i])
			goto pages;
	}
	t = kthread_create(a_thread, r, "ecdma_async_tx_test");
	if (IS_ERR(t))
		goto pages;
	kthread_bind(t, cpumask_first(cpu_online_mask));
	wake_up_process(t);
	wait_for_completion(&r->done);

	T_CHECK(!r->bad && !r->sync);
	T_CHECK(!r->dup && !r->acked && !r->wrong);
	snprintf(diag, sizeof(diag),
		 "%u held %u ms: %d ran synchronously, %d handed out again, %d read acked, %d wrong",
		 held, A_STALL_MS, r->sync, r->dup, r->acked, r->wrong);
	ktest_result_diag(!bad, "depend_tx_held_unacked_past_a_stall", diag);
	a_pages_free(r);
	kfree(r->dst);
	kfree(r->tx);
	kfree(r);
	return;
pages:
	a_pages_free(r);
free:
	kfree(r->dst);
	kfree(r->tx);
	kfree(r);
fail:
	ktest_result(false, "depend_tx_held_unacked_past_a_stall");
}

static int __init ecdma_async_tx_test_init(void)
{
	if (!held || held > 256)
		return -EINVAL;
	test_depend_tx_held_unacked();
	return ktest_summary();
}

static void __exit ecdma_async_tx_test_exit(void)
{
}

module_init(ecdma_async_tx_test_init);
module_exit(ecdma_async_tx_test_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ecdma: async_tx clients' descriptors are theirs until acked");
