// SPDX-License-Identifier: GPL-2.0
/*
 * A dmaengine client of ecdma's channels, testing the client contract
 * where async_tx, dmatest and raid6test do not look:
 *
 * - terminate_all with work queued, including ops that accumulate into
 *   their destination (XOR with dst == src[0], PQ with CONTINUE): every
 *   cookie completes, no callback runs, nothing is written, and the
 *   channel works afterwards;
 * - descriptors that cannot run (a bad address, an op the EC provider
 *   rejects) complete with an error result, in order, and do not wedge
 *   the channel, accumulating or not;
 * - callbacks never run inside the client's own issue_pending or
 *   tx_status call: the client holds its lock across those calls and takes
 *   it in the callback, as dmaengine clients may;
 * - callbacks run in cookie order;
 * - a poster preempted in the middle of issue_pending never stalls another
 *   task spinning with preemption off on the same CPU (only meaningful with
 *   preempt=full; skipped otherwise);
 * - addresses that are not RAM in the direct map (a hole below 1 MiB, a
 *   range running off the end of RAM, MMIO from dma_map_resource()) fail
 *   the descriptor instead of being read or written;
 * - a descriptor completed and never acked is never handed out again,
 *   however long the client keeps it: the pool grows past desc_max for
 *   it (only with tests=32, after the runner lowered desc_max: the pool
 *   must be small);
 * - a client that keeps preparing with BH off, so that no callback can
 *   run on its CPU, is not refused for ever once every descriptor of the
 *   pool waits for its callback: the pool takes acked ones back, and the
 *   callbacks still come afterwards, once each, in cookie order (only
 *   with tests=64, desc_max 32).  Under threadirqs async_tx spinning on a
 *   dry pool with preemption off is in that position.
 *
 * The channel is taken with dma_request_channel(), so this runs before
 * async_tx holds ecdma's channels.  Runs at load; prints KTAP lines and
 * "N passed, M failed"; the load fails (-EINVAL) when a test failed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/dmaengine.h>
#include <linux/ioport.h>
#include <linux/irq_work.h>
#include <linux/jiffies.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "ecdma_ktest.h"

#define C_LEN		4096
#define C_BUFS		8
#define C_NCB		16	/* descriptors in the callback-order test */
#define C_WAIT_MS	3000	/* a cookie that is not done by then is stuck */
#define C_FLAGS		(DMA_PREP_INTERRUPT | DMA_CTRL_ACK)

/* which tests run: bit i is the i-th test of the init function */
static uint tests = 0x1f;
module_param(tests, uint, 0444);
MODULE_PARM_DESC(tests, "bit mask of the tests to run (default 0x1f: all but the two on a small pool)");

static struct dma_chan *c_chan;
static struct device *c_dev;
static void *c_buf[C_BUFS];
static dma_addr_t c_dma[C_BUFS];

/**
 * struct c_cb - what a callback saw
 * @hits: times it ran
 * @seq: order of the callbacks of one test, from @order
 * @result: its dmaengine_result
 * @inside: it ran inside the client's own dmaengine call
 * @order: shared counter the callbacks of one test draw @seq from
 */
struct c_cb {
	int hits;
	int seq;
	enum dmaengine_tx_result result;
	bool inside;
	atomic_t *order;
};

/*
 * The client's lock and the task inside a dmaengine call made while
 * holding it.  A callback that finds itself inside that call (same task)
 * records it instead of taking the lock, which would deadlock.
 */
static DEFINE_SPINLOCK(c_lock);
static struct task_struct *c_inside;

static void c_callback(void *param, const struct dmaengine_result *res)
{
	struct c_cb *cb = param;

	if (READ_ONCE(c_inside) == current) {
		cb->inside = true;
	} else {
		spin_lock(&c_lock);
		spin_unlock(&c_lock);
	}
	cb->result = res ? res->result : DMA_TRANS_NOERROR;
	if (cb->order)
		cb->seq = atomic_inc_return(cb->order);
	WRITE_ONCE(cb->hits, cb->hits + 1);
}

/* Submit @tx with @cb as its callback; returns the cookie (< 0: failed). */
static dma_cookie_t c_submit(struct dma_async_tx_descriptor *tx,
			     struct c_cb *cb)
{
	if (!tx)
		return -ENOMEM;
	if (cb) {
		tx->callback_result = c_callback;
		tx->callback_param = cb;
	}
	return dmaengine_submit(tx);
}

/* Sleep-wait for @cookie; false when it did not complete in time. */
static bool c_wait(dma_cookie_t cookie)
{
	unsigned long end = jiffies + msecs_to_jiffies(C_WAIT_MS);

	if (cookie < 0)
		return false;
	dma_async_issue_pending(c_chan);
	while (dmaengine_tx_status(c_chan, cookie, NULL) != DMA_COMPLETE) {
		if (time_after(jiffies, end))
			return false;
		usleep_range(200, 400);
	}
	return true;
}

/* Sleep-wait until @cb ran @n times. */
static bool c_wait_cb(struct c_cb *cb, int n)
{
	unsigned long end = jiffies + msecs_to_jiffies(C_WAIT_MS);

	while (READ_ONCE(cb->hits) < n) {
		if (time_after(jiffies, end))
			return false;
		usleep_range(200, 400);
	}
	return true;
}

/* dmaengine has wrappers for memcpy only: call the device's preps */
static struct dma_async_tx_descriptor *
c_prep_xor(dma_addr_t dst, dma_addr_t *src, unsigned int n, unsigned long f)
{
	return c_chan->device->device_prep_dma_xor(c_chan, dst, src, n, C_LEN,
						   f);
}

static struct dma_async_tx_descriptor *
c_prep_pq(dma_addr_t *pq, dma_addr_t *src, const u8 *scf, unsigned long f)
{
	return c_chan->device->device_prep_dma_pq(c_chan, pq, src, 2, scf,
						  C_LEN, f);
}

static struct dma_async_tx_descriptor *c_prep_irq(void)
{
	return c_chan->device->device_prep_dma_interrupt(c_chan,
							 DMA_PREP_INTERRUPT |
							 DMA_CTRL_ACK);
}

static void c_fill(int i, u8 seed)
{
	u8 *p = c_buf[i];
	int j;

	for (j = 0; j < C_LEN; j++)
		p[j] = seed + j * 7;
}

static bool c_same(int i, u8 seed)
{
	u8 *p = c_buf[i];
	int j;

	for (j = 0; j < C_LEN; j++)
		if (p[j] != (u8)(seed + j * 7))
			return false;
	return true;
}

/* The channel still computes a correct XOR. */
static bool c_chan_works(void)
{
	dma_addr_t src[2] = { c_dma[1], c_dma[2] };
	dma_cookie_t cookie;
	u8 *d = c_buf[0], *a = c_buf[1], *b = c_buf[2];
	int j;

	c_fill(1, 3);
	c_fill(2, 99);
	memset(d, 0, C_LEN);
	cookie = c_submit(c_prep_xor(c_dma[0], src, 2, DMA_CTRL_ACK), NULL);
	if (!c_wait(cookie))
		return false;
	for (j = 0; j < C_LEN; j++)
		if (d[j] != (a[j] ^ b[j]))
			return false;
	return true;
}

/* a test found the channel stuck: later tests and the release would hang */
static bool c_wedged;

/*
 * terminate_all with queued work that accumulates into its destination:
 * XOR with dst == src[0] (every RAID-5 RMW), PQ with CONTINUE, then an
 * interrupt descriptor.  All complete, without callbacks, nothing written.
 */
static void test_terminate_queued(void)
{
	dma_addr_t xsrc[2] = { c_dma[0], c_dma[1] };
	dma_addr_t pq[2] = { c_dma[3], c_dma[4] };
	dma_addr_t psrc[2] = { c_dma[1], c_dma[2] };
	const u8 scf[2] = { 1, 2 };
	struct c_cb cb[3] = { };
	dma_cookie_t ck[3];
	int bad = 0, i;

	for (i = 0; i < 5; i++)
		c_fill(i, 10 * i);
	ck[0] = c_submit(c_prep_xor(c_dma[0], xsrc, 2, C_FLAGS), &cb[0]);
	ck[1] = c_submit(c_prep_pq(pq, psrc, scf, DMA_PREP_CONTINUE | C_FLAGS),
			 &cb[1]);
	ck[2] = c_submit(c_prep_irq(), &cb[2]);
	T_CHECK(ck[0] > 0 && ck[1] > 0 && ck[2] > 0);
	T_CHECK(!dmaengine_terminate_async(c_chan));
	for (i = 0; i < 3; i++)
		T_CHECK(c_wait(ck[i]));
	if (bad) {
		/* synchronize would spin for ever: leave the channel be */
		c_wedged = true;
		ktest_result(false, "terminate_with_accumulating_ops_queued");
		return;
	}
	dmaengine_synchronize(c_chan);
	for (i = 0; i < 3; i++)
		T_CHECK(!cb[i].hits);
	for (i = 0; i < 5; i++)
		T_CHECK(c_same(i, 10 * i));
	T_CHECK(c_chan_works());
	ktest_result(!bad, "terminate_with_accumulating_ops_queued");
}

/*
 * Descriptors that cannot run, accumulating ones among them: a bad
 * address on an XOR with dst == src[0], and a PQ with CONTINUE whose P and
 * Q are the same block (the EC provider rejects overlapping outputs).
 * Each completes with an error result, the next one runs normally.
 */
static void test_failed_ops_complete(void)
{
	dma_addr_t badx[2] = { DMA_MAPPING_ERROR, c_dma[1] };
	dma_addr_t pq[2] = { c_dma[3], c_dma[3] };
	dma_addr_t psrc[2] = { c_dma[1], c_dma[2] };
	const u8 scf[2] = { 1, 2 };
	struct c_cb cb[3] = { };
	dma_cookie_t ck[3];
	int bad = 0, i;

	c_fill(3, 42);
	ck[0] = c_submit(c_prep_xor(DMA_MAPPING_ERROR, badx, 2, C_FLAGS),
			 &cb[0]);
	ck[1] = c_submit(c_prep_pq(pq, psrc, scf, DMA_PREP_CONTINUE | C_FLAGS),
			 &cb[1]);
	ck[2] = c_submit(c_prep_irq(), &cb[2]);
	T_CHECK(ck[0] > 0 && ck[1] > 0 && ck[2] > 0);
	for (i = 0; i < 3; i++)
		T_CHECK(c_wait(ck[i]));
	if (bad) {
		c_wedged = true;
		ktest_result(false, "failed_ops_complete_in_order");
		return;
	}
	for (i = 0; i < 3; i++)
		T_CHECK(c_wait_cb(&cb[i], 1));
	T_CHECK(cb[0].result != DMA_TRANS_NOERROR);
	T_CHECK(cb[1].result != DMA_TRANS_NOERROR);
	T_CHECK(cb[2].result == DMA_TRANS_NOERROR);
	T_CHECK(c_same(3, 42));
	T_CHECK(c_chan_works());
	ktest_result(!bad, "failed_ops_complete_in_order");
}

/*
 * Wait for the callbacks @cb of the @n cookies @ck: each once, without
 * error; count those that ran inside the client's calls (@inside) or out
 * of cookie order (@misordered).  Returns the checks that failed.
 */
static int c_check_cbs(struct c_cb *cb, const dma_cookie_t *ck, int n,
		       int *inside, int *misordered)
{
	int bad = 0, i;

	for (i = 0; i < n; i++) {
		T_CHECK(ck[i] > 0);
		T_CHECK(c_wait(ck[i]) && c_wait_cb(&cb[i], 1));
		*inside += cb[i].inside;
		*misordered += cb[i].seq != i + 1;
		T_CHECK(cb[i].hits == 1 && cb[i].result == DMA_TRANS_NOERROR);
	}
	T_CHECK(!*inside);
	T_CHECK(!*misordered);
	return bad;
}

/*
 * The client holds its lock (BH off, as a client whose callback takes it
 * must) across prep, submit, issue_pending and a tx_status poll, and the
 * callback takes the lock: the callbacks must come later, from ecdma's
 * own context, and in cookie order.
 */
static void test_callbacks_outside_client_calls(void)
{
	struct c_cb cb[C_NCB] = { };
	dma_addr_t src[2] = { c_dma[1], c_dma[2] };
	dma_cookie_t ck[C_NCB];
	atomic_t order = ATOMIC_INIT(0);
	unsigned long end;
	int bad = 0, i, inside = 0, misordered = 0;
	char diag[64];

	for (i = 0; i < C_NCB; i++)
		cb[i].order = &order;
	spin_lock_bh(&c_lock);
	WRITE_ONCE(c_inside, current);
	for (i = 0; i < C_NCB; i++)
		ck[i] = c_submit(c_prep_xor(c_dma[0], src, 2, C_FLAGS), &cb[i]);
	dma_async_issue_pending(c_chan);
	end = jiffies + msecs_to_jiffies(C_WAIT_MS);
	while (dmaengine_tx_status(c_chan, ck[C_NCB - 1], NULL) != DMA_COMPLETE &&
	       time_before(jiffies, end))
		cpu_relax();
	WRITE_ONCE(c_inside, NULL);
	spin_unlock_bh(&c_lock);

	bad += c_check_cbs(cb, ck, C_NCB, &inside, &misordered);
	snprintf(diag, sizeof(diag), "%d of %d callbacks inside the client's call, %d out of order",
		 inside, C_NCB, misordered);
	ktest_result_diag(!bad, "callbacks_outside_client_calls_in_order", diag);
}

/*
 * Preempted poster.  Task A (normal priority) submits and issues work; a
 * kprobe on ecdma_ec_post_nokick(), which posting calls, wakes task B
 * (FIFO, same CPU) through an irq_work, so B preempts A as soon as it can
 * in posting (with preempt=full).  B submits its own op and spins on
 * tx_status with preemption off, as async_tx does: it must complete
 * without A running.
 */
struct c_pp {
	struct task_struct *a;
	struct task_struct *b;
	struct irq_work wake;
	struct completion a_done;
	struct completion b_done;
	bool armed;
	bool b_go;
	bool b_ok;
	bool b_ran;
	bool probe_hit;
};

static struct c_pp *c_pp;

static int c_pp_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct c_pp *pp = READ_ONCE(c_pp);

	if (pp && current == pp->a && pp->armed) {
		pp->armed = false;
		pp->probe_hit = true;
		irq_work_queue(&pp->wake);
	}
	return 0;
}

static struct kprobe c_pp_probe = {
	.symbol_name = "ecdma_ec_post_nokick",
	.pre_handler = c_pp_pre,
};

static void c_pp_wake(struct irq_work *w)
{
	struct c_pp *pp = container_of(w, struct c_pp, wake);

	WRITE_ONCE(pp->b_go, true);
	wake_up_process(pp->b);
}

static int c_pp_a(void *data)
{
	struct c_pp *pp = data;
	dma_cookie_t ck;

	/* armed across submit too: while spreading, tx_submit posts */
	pp->armed = true;
	ck = c_submit(dmaengine_prep_dma_memcpy(c_chan, c_dma[5], c_dma[6],
						C_LEN, DMA_CTRL_ACK), NULL);
	if (ck > 0)
		dma_async_issue_pending(c_chan);
	pp->armed = false;
	if (ck > 0)
		c_wait(ck);
	complete(&pp->a_done);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ / 10);
	return 0;
}

static int c_pp_b(void *data)
{
	struct c_pp *pp = data;
	unsigned long end;
	dma_cookie_t ck;

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (READ_ONCE(pp->b_go) || kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	if (READ_ONCE(pp->b_go)) {
		pp->b_ran = true;
		ck = c_submit(dmaengine_prep_dma_memcpy(c_chan, c_dma[7],
							c_dma[6], C_LEN,
							DMA_CTRL_ACK), NULL);
		/* as async_tx waits: spin with preemption off */
		preempt_disable();
		end = jiffies + HZ;
		while (ck > 0 && time_before(jiffies, end))
			if (dma_async_is_tx_complete(c_chan, ck, NULL, NULL) ==
			    DMA_COMPLETE) {
				pp->b_ok = true;
				break;
			}
		preempt_enable();
	}
	complete(&pp->b_done);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ / 10);
	return 0;
}

static void test_preempted_poster(void)
{
	int cpu = cpumask_first(cpu_online_mask);
	struct c_pp *pp;
	int bad = 0;

	if (!preempt_model_full()) {
		ktest_result_diag(true, "preempted_poster_never_stalls_spinner",
				  "SKIP needs preempt=full");
		return;
	}
	pp = kzalloc(sizeof(*pp), GFP_KERNEL);
	if (!pp) {
		ktest_result(false, "preempted_poster_never_stalls_spinner");
		return;
	}
	init_irq_work(&pp->wake, c_pp_wake);
	init_completion(&pp->a_done);
	init_completion(&pp->b_done);
	pp->a = kthread_create(c_pp_a, pp, "ecdma_pp_a");
	pp->b = kthread_create(c_pp_b, pp, "ecdma_pp_b");
	if (IS_ERR(pp->a) || IS_ERR(pp->b)) {
		bad++;
		goto out;
	}
	kthread_bind(pp->a, cpu);
	kthread_bind(pp->b, cpu);
	sched_set_fifo(pp->b);
	WRITE_ONCE(c_pp, pp);
	if (register_kprobe(&c_pp_probe)) {
		bad++;
		goto out_stop;
	}
	c_fill(6, 77);
	wake_up_process(pp->b);
	msleep(20);		/* B asleep, waiting for the probe */
	wake_up_process(pp->a);
	T_CHECK(wait_for_completion_timeout(&pp->a_done, 10 * HZ));
	/* the probe fires only on a path that posts: wake B in any case */
	WRITE_ONCE(pp->b_go, true);
	wake_up_process(pp->b);
	T_CHECK(wait_for_completion_timeout(&pp->b_done, 10 * HZ));
	unregister_kprobe(&c_pp_probe);
	irq_work_sync(&pp->wake);
	T_CHECK(pp->probe_hit && pp->b_ran);
	T_CHECK(pp->b_ok);
	T_CHECK(!memcmp(c_buf[7], c_buf[6], C_LEN));
out_stop:
	WRITE_ONCE(c_pp, NULL);
out:
	if (!IS_ERR_OR_NULL(pp->a))
		kthread_stop(pp->a);
	if (!IS_ERR_OR_NULL(pp->b))
		kthread_stop(pp->b);
	kfree(pp);
	ktest_result(!bad, "preempted_poster_never_stalls_spinner");
}

/* System RAM region holding the first page below 1 MiB, for its end. */
static int c_ram_end_fn(struct resource *res, void *arg)
{
	u64 *end = arg;

	if (!*end && res->end < SZ_1M && res->end > PAGE_SIZE)
		*end = res->end + 1;
	return 0;
}

/*
 * memcpy between RAM and @addr (not RAM in the direct map), both ways:
 * each completes with an error result and the RAM side is untouched.
 */
static bool c_copy_refused(dma_addr_t addr, size_t len)
{
	struct c_cb cb[2] = { };
	dma_cookie_t ck[2];

	c_fill(5, 11);
	c_fill(6, 12);
	ck[0] = c_submit(dmaengine_prep_dma_memcpy(c_chan, c_dma[5], addr,
						   len, C_FLAGS), &cb[0]);
	ck[1] = c_submit(dmaengine_prep_dma_memcpy(c_chan, addr, c_dma[6],
						   len, C_FLAGS), &cb[1]);
	if (!c_wait(ck[0]) || !c_wait(ck[1])) {
		c_wedged = true;
		return false;
	}
	return c_wait_cb(&cb[0], 1) && c_wait_cb(&cb[1], 1) &&
	       cb[0].result != DMA_TRANS_NOERROR &&
	       cb[1].result != DMA_TRANS_NOERROR && c_same(5, 11);
}

static void test_non_ram_refused(void)
{
	u64 ram_end = 0;
	dma_addr_t mmio;
	int bad = 0;

	/* the legacy hole at 640 KiB: in the first MiB, struct pages, no RAM */
	T_CHECK(c_copy_refused(0xa0000, C_LEN));
	/* a range starting in RAM and running past its end */
	walk_iomem_res_desc(IORES_DESC_NONE,
			    IORESOURCE_SYSTEM_RAM | IORESOURCE_BUSY, 0,
			    SZ_1M - 1, &ram_end, c_ram_end_fn);
	T_CHECK(ram_end);
	if (ram_end)
		T_CHECK(c_copy_refused(ram_end - C_LEN / 2, C_LEN));
	/* MMIO mapped the way a client must map it: the local APIC page */
	mmio = dma_map_resource(c_dev, 0xfee00000, PAGE_SIZE,
				DMA_BIDIRECTIONAL, 0);
	T_CHECK(!dma_mapping_error(c_dev, mmio));
	if (!dma_mapping_error(c_dev, mmio)) {
		T_CHECK(c_copy_refused(mmio, PAGE_SIZE));
		dma_unmap_resource(c_dev, mmio, PAGE_SIZE, DMA_BIDIRECTIONAL,
				   0);
	}
	T_CHECK(!c_wedged && c_chan_works());
	ktest_result(!bad, "non_ram_addresses_refused");
}

/* Twice the pool the runner leaves the channel (desc_max 32) */
#define C_HELD		64

/* Prep, submit and complete a copy without DMA_CTRL_ACK; NULL if refused */
static struct dma_async_tx_descriptor *c_unacked_copy(void)
{
	struct dma_async_tx_descriptor *tx;

	tx = dmaengine_prep_dma_memcpy(c_chan, c_dma[5], c_dma[6], C_LEN, 0);
	return tx && c_wait(c_submit(tx, NULL)) ? tx : NULL;
}

/*
 * A client keeps completed descriptors unacked, twice the pool, for over
 * a second: none is ever handed out again (the pool grows past desc_max
 * for them), none reads acked, and the next prep gets a fresh one.
 */
static void test_unacked_never_reused(void)
{
	struct dma_async_tx_descriptor **held, *tx = NULL;
	int bad = 0, i, j, n, dup = 0, acked = 0;
	char diag[96];

	held = kcalloc(C_HELD, sizeof(*held), GFP_KERNEL);
	if (!held) {
		ktest_result(false, "unacked_never_reused");
		return;
	}
	for (n = 0; n < C_HELD && (held[n] = c_unacked_copy()); n++)
		;
	T_CHECK(n == C_HELD);
	/* past the age at which ecdma once took them back */
	msleep(1100);
	if (n == C_HELD) {
		tx = c_unacked_copy();
		T_CHECK(tx);
	}
	for (i = 0; i < n; i++) {
		acked += async_tx_test_ack(held[i]);
		dup += held[i] == tx;
		for (j = 0; j < i; j++)
			dup += held[i] == held[j];
	}
	T_CHECK(!dup && !acked);
	/* the client lets go: acked, they are the pool's again */
	for (i = 0; i < n; i++)
		async_tx_ack(held[i]);
	if (tx)
		async_tx_ack(tx);
	T_CHECK(!c_wedged && c_chan_works());
	snprintf(diag, sizeof(diag), "%d held, %d handed out twice, %d read acked",
		 n, dup, acked);
	ktest_result_diag(!bad, "unacked_never_reused", diag);
	kfree(held);
}

/* Three pools of the runner's desc_max (32) */
#define C_DRY_N		96

/* Prep an acked XOR, retrying as async_tx does (issue_pending) for 1 s */
static struct dma_async_tx_descriptor *c_prep_retry(dma_addr_t *src)
{
	unsigned long end = jiffies + msecs_to_jiffies(1000);
	struct dma_async_tx_descriptor *tx;

	while (!(tx = c_prep_xor(c_dma[0], src, 2, C_FLAGS)) &&
	       time_before(jiffies, end)) {
		dma_async_issue_pending(c_chan);
		cpu_relax();
	}
	return tx;
}

static void test_dry_pool_callbacks_held(void)
{
	dma_addr_t src[2] = { c_dma[1], c_dma[2] };
	atomic_t order = ATOMIC_INIT(0);
	int bad = 0, i, n, inside = 0, misordered = 0;
	dma_cookie_t *ck;
	struct c_cb *cb;
	char diag[96];

	cb = kcalloc(C_DRY_N, sizeof(*cb), GFP_KERNEL);
	ck = kcalloc(C_DRY_N, sizeof(*ck), GFP_KERNEL);
	if (!cb || !ck) {
		kfree(cb);
		kfree(ck);
		ktest_result(false, "dry_pool_callbacks_held");
		return;
	}
	for (i = 0; i < C_DRY_N; i++)
		cb[i].order = &order;
	/*
	 * The client's lock, BH off: no callback runs here, and one that
	 * ecdma's worker completed elsewhere waits for the lock, so every
	 * descriptor ends up waiting for its callback and the pool runs dry
	 */
	spin_lock_bh(&c_lock);
	WRITE_ONCE(c_inside, current);
	for (n = 0; n < C_DRY_N; n++) {
		ck[n] = c_submit(c_prep_retry(src), &cb[n]);
		if (ck[n] < 0)
			break;
		dma_async_issue_pending(c_chan);
	}
	WRITE_ONCE(c_inside, NULL);
	spin_unlock_bh(&c_lock);

	T_CHECK(n == C_DRY_N);
	bad += c_check_cbs(cb, ck, n, &inside, &misordered);
	T_CHECK(!c_wedged && c_chan_works());
	snprintf(diag, sizeof(diag),
		 "%d of %d submitted, %d callbacks inside the client's calls, %d out of order",
		 n, C_DRY_N, inside, misordered);
	ktest_result_diag(!bad, "dry_pool_callbacks_held", diag);
	kfree(cb);
	kfree(ck);
}

static void (*const c_tests[])(void) = {
	test_terminate_queued,
	test_failed_ops_complete,
	test_callbacks_outside_client_calls,
	test_preempted_poster,
	test_non_ram_refused,
	test_unacked_never_reused,
	test_dry_pool_callbacks_held,
};

static bool c_filter(struct dma_chan *chan, void *param)
{
	return !strcmp(dev_name(chan->device->dev), "ecdma");
}

static void c_unmap_free(void)
{
	int i;

	for (i = 0; i < C_BUFS; i++) {
		if (!c_buf[i])
			continue;
		if (c_dma[i] && !dma_mapping_error(c_dev, c_dma[i]))
			dma_unmap_single(c_dev, c_dma[i], C_LEN,
					 DMA_BIDIRECTIONAL);
		kfree(c_buf[i]);
		c_buf[i] = NULL;
	}
}

static int __init ecdma_dma_client_test_init(void)
{
	dma_cap_mask_t mask;
	int i, ret;

	dma_cap_zero(mask);
	dma_cap_set(DMA_XOR, mask);
	dma_cap_set(DMA_PQ, mask);
	c_chan = dma_request_channel(mask, c_filter, NULL);
	if (!c_chan)
		return ktest_abort("get_ecdma_channel");
	c_dev = c_chan->device->dev;
	for (i = 0; i < C_BUFS; i++) {
		c_buf[i] = kmalloc(C_LEN, GFP_KERNEL);
		if (!c_buf[i])
			break;
		c_dma[i] = dma_map_single(c_dev, c_buf[i], C_LEN,
					  DMA_BIDIRECTIONAL);
		if (dma_mapping_error(c_dev, c_dma[i]))
			break;
	}
	if (i < C_BUFS) {
		c_unmap_free();
		dma_release_channel(c_chan);
		return ktest_abort("map_buffers");
	}
	pr_info("# channel %s\n", dma_chan_name(c_chan));

	for (i = 0; i < ARRAY_SIZE(c_tests) && !c_wedged; i++)
		if (tests & BIT(i))
			c_tests[i]();

	ret = ktest_summary();
	if (c_wedged) {
		/* releasing would synchronize a wedged channel: keep it */
		pr_info("# channel wedged: not released\n");
		return ret;
	}
	dmaengine_terminate_sync(c_chan);
	c_unmap_free();
	dma_release_channel(c_chan);
	return ret;
}

static void __exit ecdma_dma_client_test_exit(void)
{
}

module_init(ecdma_dma_client_test_init);
module_exit(ecdma_dma_client_test_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ecdma dmaengine client contract tests");
