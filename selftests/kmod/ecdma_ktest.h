/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the in-kernel test modules in selftests/kmod (the EC
 * ones, ecdma_dma_client_test, and the RDMA ones with ecdma_rdma_ktest.h):
 *
 * - KTAP results: "ok N name" / "not ok N name" lines, counted, and the
 *   closing "1..N" plan and "P passed, F failed" line that the VM scripts
 *   (selftests/vm/lib.sh) parse;
 * - T_CHECK(), one check of a test that counts into the test's "bad";
 * - a reference GF(2^8) (polynomial 0x11d) with its own exp/log tables,
 *   not ecdma's, to check ecdma's results against;
 * - filling in scatter/gather entries and block layouts.
 *
 * Test code only, never part of ecdma.  Everything is static: each module
 * has its own counters and tables.  Include it after defining pr_fmt, so
 * the KTAP lines carry the module's prefix.
 */
#ifndef _ECDMA_KTEST_H
#define _ECDMA_KTEST_H

#include <linux/errno.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/types.h>

#include <ecdma/ec.h>

#include "../../drivers/ecdma/ecdma_compat.h"

/* ---------------------------------------------------------------------- */
/* KTAP results                                                           */
/* ---------------------------------------------------------------------- */

static int ktest_num, ktest_fail;

/**
 * ktest_result_diag() - report one test as a KTAP line
 * @ok: the test passed
 * @name: its name
 * @diag: a diagnostic appended as " # @diag", or NULL for none
 *
 * Numbers the tests from 1 in the order they are reported.
 */
static inline void ktest_result_diag(bool ok, const char *name,
				     const char *diag)
{
	ktest_num++;
	if (!ok)
		ktest_fail++;
	pr_info("%s %d %s%s%s\n", ok ? "ok" : "not ok", ktest_num, name,
		diag ? " # " : "", diag ? diag : "");
}

/**
 * ktest_result() - report one test as a KTAP line, without a diagnostic
 * @ok: the test passed
 * @name: its name
 */
static inline void ktest_result(bool ok, const char *name)
{
	ktest_result_diag(ok, name, NULL);
}

/**
 * ktest_summary() - print the plan and the "P passed, F failed" line
 *
 * Return: -EINVAL when a test failed (the module's init fails with it, so
 * loading the module is the verdict), 0 otherwise.
 */
static inline int ktest_summary(void)
{
	pr_info("1..%d\n", ktest_num);
	pr_info("%d passed, %d failed\n", ktest_num - ktest_fail, ktest_fail);
	return ktest_fail ? -EINVAL : 0;
}

/**
 * ktest_abort() - report a set-up step that failed before any test ran
 * @name: the step
 *
 * Prints "not ok 1 @name" and "0 passed, 1 failed", without a plan.
 *
 * Return: -EINVAL, for the module's init to fail with.
 */
static inline int ktest_abort(const char *name)
{
	ktest_result(false, name);
	pr_info("%d passed, %d failed\n", ktest_num - ktest_fail, ktest_fail);
	return -EINVAL;
}

/**
 * T_CHECK() - check a condition of the test that is running
 * @cond: what must hold
 *
 * When @cond is false, prints a diagnostic ("# <function>:<line>: failed:
 * <cond>") and counts the failure in the caller's local int "bad", which
 * the test then reports with ktest_result(!bad, name).  Evaluates @cond
 * once; the test goes on either way.
 */
#define T_CHECK(cond) do {						\
		if (!(cond)) {						\
			pr_info("# %s:%d: failed: %s\n", __func__,	\
				__LINE__, #cond);			\
			bad++;						\
		}							\
	} while (0)

/* ---------------------------------------------------------------------- */
/* Reference arithmetic (own tables, not ecdma's)                         */
/* ---------------------------------------------------------------------- */

/* ktest_exp[i] = 2^i, twice over so that a sum of two logs indexes it */
static u8 ktest_exp[512], ktest_log[256];

/**
 * ktest_gf_init() - fill ktest_exp[] and ktest_log[]
 *
 * Call once at module init, before anything else here that uses them.
 */
static inline void ktest_gf_init(void)
{
	unsigned int x = 1, i;

	for (i = 0; i < 255; i++) {
		ktest_exp[i] = x;
		ktest_exp[i + 255] = x;
		ktest_log[x] = i;
		x <<= 1;
		if (x & 0x100)
			x ^= 0x11d;
	}
}

/**
 * ktest_mul() - multiply in GF(2^8)
 * @a: a factor
 * @b: the other factor
 *
 * Return: @a times @b.
 */
static inline u8 ktest_mul(u8 a, u8 b)
{
	return a && b ? ktest_exp[ktest_log[a] + ktest_log[b]] : 0;
}

/**
 * ktest_ref() - reference product of a coefficient matrix and blocks
 * @len: bytes per block
 * @nin: input blocks
 * @nout: output blocks, at most ECDMA_EC_MAX_M
 * @coef: @nin x @nout coefficients, row-major: coef[i * nout + j]
 * @in: the input blocks
 * @out: the output blocks
 * @acc: add to what @out holds instead of overwriting it
 *
 * out[j] = (@acc ? out[j] : 0) ^ sum_i coef[i * nout + j] * in[i], a byte
 * at a time.  Each byte offset is read in full before it is written, so
 * an output may also be one of the inputs.  Process context: it yields
 * every 4 KiB (12 x 3 MiB took over 60 s on TCG on a loaded host, a soft
 * lockup).
 */
static inline void ktest_ref(size_t len, int nin, int nout, const u8 *coef,
			     u8 *const *in, u8 *const *out, bool acc)
{
	u8 v[ECDMA_EC_MAX_M];
	size_t b;
	int i, j;

	for (b = 0; b < len; b++) {
		if (!(b & 4095))
			cond_resched();
		for (j = 0; j < nout; j++) {
			v[j] = acc ? out[j][b] : 0;
			for (i = 0; i < nin; i++)
				v[j] ^= ktest_mul(coef[i * nout + j], in[i][b]);
		}
		for (j = 0; j < nout; j++)
			out[j][b] = v[j];
	}
}

/* ---------------------------------------------------------------------- */
/* Layouts                                                                */
/* ---------------------------------------------------------------------- */

/**
 * ktest_sge() - point a scatter/gather entry at a block
 * @s: the entry
 * @p: the block
 * @len: its length
 */
static inline void ktest_sge(struct ecdma_ec_sge *s, const u8 *p, size_t len)
{
	s->addr = (u64)(unsigned long)p;
	s->length = len;
	s->lkey = 0;
}

/**
 * ktest_mem() - fill in a block layout
 * @mem: the layout
 * @d: data block entries
 * @nd: how many
 * @c: code block entries
 * @nc: how many
 * @len: block size
 */
static inline void ktest_mem(struct ecdma_ec_mem *mem, struct ecdma_ec_sge *d,
			     int nd, struct ecdma_ec_sge *c, int nc,
			     size_t len)
{
	mem->data_blocks = d;
	mem->num_data_sge = nd;
	mem->code_blocks = c;
	mem->num_code_sge = nc;
	mem->block_size = len;
}

#endif /* _ECDMA_KTEST_H */
