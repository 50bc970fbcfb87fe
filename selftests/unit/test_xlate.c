// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of drivers/ecdma/xlate.c, the dmaengine -> EC verbs
 * translation.
 *
 * Every case snapshots a set of blocks, computes what the dmaengine
 * operation must leave in memory (and report) straight from the async_tx
 * contract with a bit-serial GF(2^8) multiply, then translates the same
 * prep arguments, scribbles over the caller's arrays (the translation must
 * have copied them), executes the produced WR with a byte-at-a-time EC
 * verbs reference (log/exp tables, all inputs of a byte read before any
 * output is written) and compares every block and the result.
 *
 * Blocks are malloc()ed at their exact length, so ASan catches any access
 * beyond them; disabled P/Q addresses are a bogus value that the WR must
 * never contain.
 */
#include <stdbool.h>
#include <stdint.h>

#include "xlate.h"
#include "ecdma_test.h"

#define NBLK		260	/* 255 sources + P + Q + spares */
#define BOGUS		0xdeadbeef00c0ffeeULL
#define MAXLEN		96

static u8 *blk[NBLK];
static u8 *want[NBLK];
static size_t blen;
static u8 gf_log[256], gf_exp[512];

/* Failures of WR invariants, reported by their own test point. */
static unsigned int bad_wr;
static char bad_msg[160];

/* ---- GF(2^8)/0x11d, twice: bit-serial (dmaengine side), tables (EC) ---- */

static u8 gf_mul_slow(u8 a, u8 b)
{
	u8 r = 0;

	while (b) {
		if (b & 1)
			r ^= a;
		a = (u8)((a << 1) ^ (a & 0x80 ? 0x1d : 0));
		b >>= 1;
	}
	return r;
}

static void gf_tables(void)
{
	unsigned int i, x = 1;

	for (i = 0; i < 255; i++) {
		gf_exp[i] = (u8)x;
		gf_exp[i + 255] = (u8)x;
		gf_log[x] = (u8)i;
		x <<= 1;
		if (x & 0x100)
			x ^= 0x11d;
	}
}

static u8 gf_mul_tbl(u8 a, u8 b)
{
	return a && b ? gf_exp[gf_log[a] + gf_log[b]] : 0;
}

/* ---- memory ---- */

static void blocks_free(void)
{
	unsigned int i;

	for (i = 0; i < NBLK; i++) {
		free(blk[i]);
		free(want[i]);
		blk[i] = NULL;
		want[i] = NULL;
	}
}

/* nblk fresh random blocks of len bytes (len 0 gets 1-byte buffers) */
static void blocks_new(unsigned int nblk, size_t len)
{
	unsigned int i;

	blocks_free();
	blen = len;
	for (i = 0; i < nblk; i++) {
		blk[i] = test_alloc(len);
		want[i] = test_alloc(len);
		test_rnd_fill(blk[i], len);
	}
}

static unsigned int nblocks(void)
{
	unsigned int n = 0;

	while (n < NBLK && blk[n])
		n++;
	return n;
}

/* want[] = current contents: the reference then edits want[] */
static void snapshot(void)
{
	unsigned int i, n = nblocks();

	for (i = 0; i < n; i++)
		memcpy(want[i], blk[i], blen);
}

static bool memory_ok(void)
{
	unsigned int i, n = nblocks();

	for (i = 0; i < n; i++)
		if (memcmp(want[i], blk[i], blen))
			return false;
	return true;
}

static u64 A(int i)
{
	return i < 0 ? BOGUS : (u64)(uintptr_t)blk[i];
}

/* distinct random block indices in [lo, NBLK) */
static void pick_distinct(int *idx, unsigned int n, unsigned int lo,
			  unsigned int nblk)
{
	unsigned int i, j;

	for (i = 0; i < n; i++) {
again:
		idx[i] = (int)(lo + test_rnd(nblk - lo));
		for (j = 0; j < i; j++)
			if (idx[j] == idx[i])
				goto again;
	}
}

/* ---- EC verbs reference executor ---- */

static void wr_bad(const char *why)
{
	if (!bad_wr++)
		snprintf(bad_msg, sizeof(bad_msg), "%s", why);
}

static bool sge_ok(const struct ecdma_ec_sge *sge, const struct ecdma_xlate_wr *x)
{
	if (sge->addr == BOGUS) {
		wr_bad("a disabled P/Q address reached the WR");
		return false;
	}
	if (!sge->addr || sge->length != x->len || sge->lkey) {
		wr_bad("sge with bad address, length or lkey");
		return false;
	}
	return true;
}

/* Runs @x on memory; returns the WR result (VALIDATE mismatch bits). */
static u32 exec_wr(const struct ecdma_xlate_wr *x)
{
	const u8 *in[ECDMA_XLATE_MAX_SRC];
	u8 *out[ECDMA_XLATE_MAX_CODE];
	u8 acc[ECDMA_XLATE_MAX_CODE];
	unsigned int i, j, m = x->nr_code;
	u32 res = 0;
	size_t b;

	if (x->wr_flags & ~ECDMA_EC_WR_ACCUMULATE ||
	    (x->wr_flags && x->opcode != ECDMA_EC_OP_ENCODE)) {
		wr_bad("bad WR flags");
		return 0;
	}
	if (x->opcode == ECDMA_EC_OP_NOP)
		return 0;
	if (x->nr_data < 1 || x->nr_data > ECDMA_XLATE_MAX_SRC || m < 1 ||
	    m > ECDMA_XLATE_MAX_CODE || !x->len) {
		wr_bad("bad block counts or length");
		return 0;
	}
	for (i = 0; i < x->nr_data; i++) {
		if (!sge_ok(&x->data[i], x))
			return 0;
		in[i] = (const u8 *)(uintptr_t)x->data[i].addr;
	}
	for (j = 0; j < m; j++) {
		if (!sge_ok(&x->code[j], x))
			return 0;
		out[j] = (u8 *)(uintptr_t)x->code[j].addr;
	}

	switch (x->opcode) {
	case ECDMA_EC_OP_COPY:
		if (x->nr_data != 1 || m != 1) {
			wr_bad("COPY is not 1 x 1");
			return 0;
		}
		memmove(out[0], in[0], x->len);
		return 0;
	case ECDMA_EC_OP_ENCODE:
	case ECDMA_EC_OP_VALIDATE:
		if (!x->matrix) {
			wr_bad("ENCODE/VALIDATE without a matrix");
			return 0;
		}
		for (b = 0; b < x->len; b++) {
			for (j = 0; j < m; j++) {
				acc[j] = 0;
				if (x->wr_flags & ECDMA_EC_WR_ACCUMULATE)
					acc[j] = out[j][b];
				for (i = 0; i < x->nr_data; i++)
					acc[j] ^= gf_mul_tbl(x->matrix[i * m + j],
							     in[i][b]);
			}
			for (j = 0; j < m; j++) {
				if (x->opcode == ECDMA_EC_OP_ENCODE)
					out[j][b] = acc[j];
				else if (acc[j] != out[j][b])
					res |= 1U << j;
			}
		}
		return res;
	default:
		wr_bad("unexpected opcode");
		return 0;
	}
}

/* ---- dmaengine reference semantics, on want[] ---- */

static void ref_xor(int dst, const int *src, unsigned int n)
{
	u8 *t = test_alloc(blen);
	unsigned int i;
	size_t b;

	memset(t, 0, blen);
	for (i = 0; i < n; i++)
		for (b = 0; b < blen; b++)
			t[b] ^= want[src[i]][b];
	memcpy(want[dst], t, blen);
	free(t);
}

static u32 ref_xor_val(const int *src, unsigned int n)
{
	unsigned int i;
	size_t b;

	for (b = 0; b < blen; b++) {
		u8 v = 0;

		for (i = 0; i < n; i++)
			v ^= want[src[i]][b];
		if (v)
			return ECDMA_XLATE_SUM_P;
	}
	return 0;
}

/* p/q < 0: disabled.  Sum into new buffers, then store. */
static void ref_pq(int p, int q, const int *src, unsigned int n,
		   const u8 *scf, unsigned long flags)
{
	bool cont = flags & ECDMA_XLATE_PREP_CONTINUE;
	u8 *tp = test_alloc(blen), *tq = test_alloc(blen);
	unsigned int i;
	size_t b;

	for (b = 0; b < blen; b++) {
		tp[b] = cont && p >= 0 ? want[p][b] : 0;
		tq[b] = cont && q >= 0 ? want[q][b] : 0;
		for (i = 0; i < n; i++) {
			tp[b] ^= want[src[i]][b];
			tq[b] ^= gf_mul_slow(scf[i], want[src[i]][b]);
		}
	}
	if (p >= 0)
		memcpy(want[p], tp, blen);
	if (q >= 0)
		memcpy(want[q], tq, blen);
	free(tp);
	free(tq);
}

static u32 ref_pq_val(int p, int q, const int *src, unsigned int n,
		      const u8 *scf)
{
	u32 res = 0;
	unsigned int i;
	size_t b;

	for (b = 0; b < blen; b++) {
		u8 vp = p >= 0 ? want[p][b] : 0;
		u8 vq = q >= 0 ? want[q][b] : 0;

		for (i = 0; i < n; i++) {
			vp ^= want[src[i]][b];
			vq ^= gf_mul_slow(scf[i], want[src[i]][b]);
		}
		if (p >= 0 && vp)
			res |= ECDMA_XLATE_SUM_P;
		if (q >= 0 && vq)
			res |= ECDMA_XLATE_SUM_Q;
	}
	return res;
}

/* ---- one operation: reference, translate, scribble, execute, compare ---- */

static struct ecdma_xlate_wr wr;
static struct ecdma_ec_sge room_data[ECDMA_XLATE_MAX_SRC];
static u8 room_mat[ECDMA_XLATE_MAX_SRC * ECDMA_XLATE_MAX_CODE];
static u64 addr_src[ECDMA_XLATE_MAX_SRC + 1], addr_dst[2];
static u8 scf_arg[ECDMA_XLATE_MAX_SRC + 1];

/* The caller may reuse its arrays once prep returns (async_xor does). */
static void scribble(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(addr_src); i++)
		addr_src[i] = BOGUS;
	addr_dst[0] = BOGUS;
	addr_dst[1] = BOGUS;
	test_rnd_fill(scf_arg, sizeof(scf_arg));
}

static void set_src(const int *src, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		addr_src[i] = A(src[i]);
}

/*
 * The second pass runs every WR with ecdma_xlate_run(), the front's last
 * resort, instead of the reference; its results are named "cpu_run_...".
 */
static bool run_cpu;
static const char *run_pfx = "";

/* @x through ecdma_xlate_run(); a refusal of a valid WR is a bad WR */
static u32 run_wr(const struct ecdma_xlate_wr *x)
{
	u32 res;

	if (ecdma_xlate_run(x, &res))
		wr_bad("ecdma_xlate_run() refused a valid WR");
	return res;
}

/* Returns true when memory (and *res, if given) match the reference. */
static bool finish(int ret, u32 want_res, u32 *got)
{
	u32 res;

	if (ret) {
		ksft_print_msg("translation refused a valid operation: %d\n",
			       ret);
		return false;
	}
	scribble();
	res = ecdma_xlate_result(&wr, run_cpu ? run_wr(&wr) : exec_wr(&wr));
	if (got)
		*got = res;
	return memory_ok() && res == want_res;
}

static bool op_memcpy(int dst, int src, size_t len)
{
	int ret;

	snapshot();
	memcpy(want[dst], want[src], len);
	ret = ecdma_xlate_memcpy(&wr, A(dst), A(src), len);
	return finish(ret, 0, NULL) && wr.type == ECDMA_OP_MEMCPY;
}

static bool op_xor(int dst, const int *src, unsigned int n)
{
	int ret;

	snapshot();
	ref_xor(dst, src, n);
	set_src(src, n);
	ret = ecdma_xlate_xor(&wr, A(dst), addr_src, n, blen);
	return finish(ret, 0, NULL) && wr.type == ECDMA_OP_XOR;
}

static bool op_xor_val(const int *src, unsigned int n)
{
	u32 want_res;
	int ret;

	snapshot();
	want_res = ref_xor_val(src, n);
	set_src(src, n);
	ret = ecdma_xlate_xor_val(&wr, addr_src, n, blen);
	return finish(ret, want_res, NULL) && wr.type == ECDMA_OP_XOR_VAL;
}

static void set_pq(int p, int q, const int *src, unsigned int n,
		   const u8 *scf, unsigned long *flags)
{
	addr_dst[0] = A(p);
	addr_dst[1] = A(q);
	if (p < 0)
		*flags |= ECDMA_XLATE_PQ_DISABLE_P;
	if (q < 0)
		*flags |= ECDMA_XLATE_PQ_DISABLE_Q;
	set_src(src, n);
	memcpy(scf_arg, scf, n);
}

static bool op_pq(int p, int q, const int *src, unsigned int n,
		  const u8 *scf, unsigned long flags)
{
	int ret;

	snapshot();
	ref_pq(p, q, src, n, scf, flags);
	set_pq(p, q, src, n, scf, &flags);
	ret = ecdma_xlate_pq(&wr, addr_dst, addr_src, n, scf_arg, blen, flags);
	return finish(ret, 0, NULL) && wr.type == ECDMA_OP_PQ;
}

static bool op_pq_val(int p, int q, const int *src, unsigned int n,
		      const u8 *scf, u32 *got)
{
	unsigned long flags = 0;
	u32 want_res;
	int ret;

	snapshot();
	want_res = ref_pq_val(p, q, src, n, scf);
	set_pq(p, q, src, n, scf, &flags);
	ret = ecdma_xlate_pq_val(&wr, addr_dst, addr_src, n, scf_arg, blen,
				 flags);
	return finish(ret, want_res, got) && wr.type == ECDMA_OP_PQ_VAL;
}

static size_t rnd_len(void)
{
	return 1 + test_rnd(MAXLEN);
}

static void rnd_scf(u8 *scf, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		switch (test_rnd(4)) {
		case 0:
			scf[i] = 0;
			break;
		case 1:
			scf[i] = 1;
			break;
		default:
			scf[i] = (u8)test_rnd64();
		}
	}
}

static bool wr_aliases(const struct ecdma_xlate_wr *x)
{
	unsigned int i, j;

	for (j = 0; j < x->nr_code; j++)
		for (i = 0; i < x->nr_data; i++)
			if (x->data[i].addr == x->code[j].addr)
				return true;
	return false;
}

#define REPORT(ok, fmt, ...) \
	ksft_test_result(ok, "%s" fmt, run_pfx, ##__VA_ARGS__)

/* ---- memcpy, interrupt, zero length, bad arguments ---- */

static void test_memcpy(void)
{
	bool ok = true, nop = true;
	unsigned int it;

	for (it = 0; it < 200 && ok; it++) {
		blocks_new(2, rnd_len());
		ok = op_memcpy(1, 0, blen);
	}
	REPORT(ok, "memcpy_copies\n");

	blocks_new(1, rnd_len());
	ok = op_memcpy(0, 0, blen);
	nop = wr.opcode == ECDMA_EC_OP_NOP;
	REPORT(ok && nop, "memcpy_same_address_is_nop\n");
}

static void test_interrupt(void)
{
	ecdma_xlate_interrupt(&wr);
	REPORT(wr.opcode == ECDMA_EC_OP_NOP && wr.type == ECDMA_OP_INTERRUPT &&
	       !wr.nr_data && !wr.nr_code && !wr.wr_flags,
	       "interrupt_is_nop\n");
}

static void test_zero_len(void)
{
	u64 a[3];
	u8 scf[3] = { 1, 2, 4 };
	bool ok = true;

	blocks_new(3, 8);
	a[0] = A(0);
	a[1] = A(1);
	a[2] = A(2);
	ok &= !ecdma_xlate_memcpy(&wr, a[0], a[1], 0) &&
	      wr.opcode == ECDMA_EC_OP_NOP;
	ok &= !ecdma_xlate_xor(&wr, a[0], a, 3, 0) &&
	      wr.opcode == ECDMA_EC_OP_NOP;
	ok &= !ecdma_xlate_xor_val(&wr, a, 3, 0) &&
	      wr.opcode == ECDMA_EC_OP_NOP && !ecdma_xlate_result_all(&wr);
	ok &= !ecdma_xlate_pq(&wr, a, a, 3, scf, 0, 0) &&
	      wr.opcode == ECDMA_EC_OP_NOP;
	ok &= !ecdma_xlate_pq_val(&wr, a, a, 3, scf, 0, 0) &&
	      wr.opcode == ECDMA_EC_OP_NOP && !ecdma_xlate_result_all(&wr);
	REPORT(ok, "zero_length_is_nop\n");
}

static void test_bad_args(void)
{
	static u64 a[ECDMA_XLATE_MAX_SRC + 1];
	static u8 scf[ECDMA_XLATE_MAX_SRC + 1];
	const size_t big = (size_t)ECDMA_XLATE_MAX_LEN + 1;
	unsigned int i;
	bool ok = true;

	for (i = 0; i < ARRAY_SIZE(a); i++)
		a[i] = 0x1000 * (i + 1);
	ok &= ecdma_xlate_xor(&wr, a[0], a, 0, 64) == -EINVAL;
	ok &= ecdma_xlate_xor_val(&wr, a, 0, 64) == -EINVAL;
	ok &= ecdma_xlate_pq(&wr, a, a, 0, scf, 64, 0) == -EINVAL;
	ok &= ecdma_xlate_pq_val(&wr, a, a, 0, scf, 64, 0) == -EINVAL;
	REPORT(ok, "zero_sources_rejected\n");

	ok = ecdma_xlate_xor(&wr, a[0], a, 256, 64) == -EINVAL;
	ok &= ecdma_xlate_xor_val(&wr, a, 256, 64) == -EINVAL;
	ok &= ecdma_xlate_pq(&wr, a, a, 256, scf, 64, 0) == -EINVAL;
	ok &= ecdma_xlate_pq_val(&wr, a, a, 256, scf, 64, 0) == -EINVAL;
	REPORT(ok, "more_than_255_sources_rejected\n");

	ok = ecdma_xlate_memcpy(&wr, a[0], a[1], big) == -EINVAL;
	ok &= ecdma_xlate_xor(&wr, a[0], a, 2, big) == -EINVAL;
	ok &= ecdma_xlate_xor_val(&wr, a, 2, big) == -EINVAL;
	ok &= ecdma_xlate_pq(&wr, a, a, 2, scf, big, 0) == -EINVAL;
	ok &= ecdma_xlate_pq_val(&wr, a, a, 2, scf, big, 0) == -EINVAL;
	ok &= !ecdma_xlate_memcpy(&wr, a[0], a[1], ECDMA_XLATE_MAX_LEN) &&
	      wr.len == ECDMA_XLATE_MAX_LEN;
	REPORT(ok, "oversized_length_rejected\n");
}

/*
 * A WR bound to room for a few sources (a descriptor's own) takes that
 * many and rejects more without writing past it: the room is a heap
 * block of exactly that size, so ASan sees any overrun.
 */
static void test_small_room(void)
{
	enum { CAP = 4 };
	static u64 a[CAP + 1];
	static u8 scf[CAP + 1];
	struct ecdma_ec_sge *data = test_alloc(CAP * sizeof(*data));
	u8 *mat = test_alloc(CAP * ECDMA_XLATE_MAX_CODE);
	unsigned int i;
	bool ok = true;

	for (i = 0; i < ARRAY_SIZE(a); i++) {
		a[i] = 0x1000 * (i + 1);
		scf[i] = i + 2;
	}
	ecdma_xlate_bind(&wr, data, mat, CAP);
	ok &= !ecdma_xlate_xor(&wr, a[CAP], a, CAP, 64) && wr.nr_data == CAP;
	ok &= !ecdma_xlate_xor_val(&wr, a, CAP, 64) && wr.nr_data == CAP - 1;
	ok &= !ecdma_xlate_pq(&wr, a, a + 1, CAP, scf, 64, 0) &&
	      wr.nr_data == CAP && wr.matrix[2 * CAP - 1] == scf[CAP - 1];
	ok &= !ecdma_xlate_pq_val(&wr, a, a + 1, CAP, scf, 64,
				  ECDMA_XLATE_PQ_DISABLE_P) &&
	      wr.nr_data == CAP && wr.matrix[CAP - 1] == scf[CAP - 1];
	REPORT(ok, "small_room_holds_its_sources\n");

	ok = ecdma_xlate_xor(&wr, a[0], a, CAP + 1, 64) == -EINVAL;
	ok &= ecdma_xlate_xor_val(&wr, a, CAP + 1, 64) == -EINVAL;
	ok &= ecdma_xlate_pq(&wr, a, a, CAP + 1, scf, 64, 0) == -EINVAL;
	ok &= ecdma_xlate_pq_val(&wr, a, a, CAP + 1, scf, 64, 0) == -EINVAL;
	ecdma_xlate_bind(&wr, NULL, NULL, 0);
	ok &= ecdma_xlate_memcpy(&wr, a[0], a[1], 64) == -EINVAL;
	REPORT(ok, "more_sources_than_room_rejected\n");

	ecdma_xlate_bind(&wr, room_data, room_mat, ARRAY_SIZE(room_data));
	free(data);
	free(mat);
}

/* ---- XOR ---- */

static void test_xor(void)
{
	int src[ECDMA_XLATE_MAX_SRC + 1];
	bool ok = true, alias_free = true;
	unsigned int n, k;

	for (n = 1; n <= ECDMA_XLATE_MAX_SRC && ok; n++) {
		blocks_new(n + 1, rnd_len());
		pick_distinct(src, n, 1, n + 1);
		ok = op_xor(0, src, n) && wr.nr_data == n && wr.nr_code == 1 &&
		     !wr.wr_flags;
	}
	REPORT(ok, "xor_src_cnt_1_to_255\n");

	/* async_xor DROP_DST: dest is src[0] (prexor, RMW, continuation) */
	for (n = 1; n <= ECDMA_XLATE_MAX_SRC && ok; n++) {
		blocks_new(n, rnd_len());
		pick_distinct(src, n, 0, n);
		ok = op_xor(src[0], src, n);
		if (n > 1 && (wr_aliases(&wr) || wr.nr_data != n - 1 ||
			      !(wr.wr_flags & ECDMA_EC_WR_ACCUMULATE)))
			alias_free = false;
		if (n == 1 && wr.opcode != ECDMA_EC_OP_NOP)
			alias_free = false;
	}
	REPORT(ok, "xor_dest_is_src0\n");
	REPORT(alias_free, "xor_dest_is_src0_becomes_alias_free_accumulate\n");

	for (n = 2, ok = true; n <= ECDMA_XLATE_MAX_SRC && ok; n += 3) {
		blocks_new(n, rnd_len());
		pick_distinct(src, n, 0, n);
		k = test_rnd(n);
		ok = op_xor(src[k], src, n) && !wr_aliases(&wr);
	}
	REPORT(ok, "xor_dest_is_src_k\n");

	/* dest twice among the sources: x ^ x cancels */
	for (n = 2, ok = true; n <= 40 && ok; n++) {
		blocks_new(n, rnd_len());
		pick_distinct(src, n - 1, 0, n);
		src[n - 1] = src[test_rnd(n - 1)];
		ok = op_xor(src[n - 1], src, n);
	}
	REPORT(ok, "xor_dest_twice_in_sources\n");

	for (n = 2, ok = true; n <= 60 && ok; n++) {
		unsigned int i;

		blocks_new(n + 1, rnd_len());
		for (i = 0; i < n; i++)
			src[i] = 1 + (int)test_rnd(n);
		ok = op_xor(0, src, n);
	}
	REPORT(ok, "xor_repeated_sources\n");
}

/*
 * do_async_xor() with max_xor sources per prep: each later chunk has the
 * previous result (dest) as its src[0], written into the array only for
 * the prep call and restored right after it.
 */
static bool async_xor_split(int dest, const int *list, unsigned int src_cnt,
			    unsigned int max_xor)
{
	u64 *src_list = addr_src;
	unsigned int i, xor_src_cnt;
	bool first = true;

	snapshot();
	ref_xor(dest, list, src_cnt);
	for (i = 0; i < src_cnt; i++)
		addr_src[i] = A(list[i]);
	while (src_cnt) {
		u64 tmp;

		xor_src_cnt = src_cnt < max_xor ? src_cnt : max_xor;
		tmp = src_list[0];
		if (!first)
			src_list[0] = A(dest);
		if (ecdma_xlate_xor(&wr, A(dest), src_list, xor_src_cnt, blen))
			return false;
		src_list[0] = tmp;
		exec_wr(&wr);
		first = false;
		src_cnt -= xor_src_cnt;
		if (!src_cnt)
			break;
		src_cnt++;
		src_list += xor_src_cnt - 1;
	}
	return memory_ok();
}

static void test_xor_split(void)
{
	int src[ECDMA_XLATE_MAX_SRC + 1];
	unsigned int it, n, max;
	bool ok = true;

	for (it = 0; it < 300 && ok; it++) {
		n = 2 + test_rnd(60);
		max = 2 + test_rnd(9);
		blocks_new(n + 1, rnd_len());
		pick_distinct(src, n, 1, n + 1);
		ok = async_xor_split(0, src, n, max);
	}
	REPORT(ok, "xor_split_like_async_xor\n");

	for (it = 0, ok = true; it < 300 && ok; it++) {
		n = 2 + test_rnd(60);
		max = 2 + test_rnd(9);
		blocks_new(n, rnd_len());
		pick_distinct(src, n, 0, n);
		ok = async_xor_split(src[0], src, n, max);
	}
	REPORT(ok, "xor_split_drop_dst_like_async_xor\n");
}

static void test_xor_val(void)
{
	int src[ECDMA_XLATE_MAX_SRC + 1];
	unsigned int n, b;
	bool ok = true, bad = true;

	for (n = 1; n <= ECDMA_XLATE_MAX_SRC && ok; n++) {
		blocks_new(n, rnd_len());
		pick_distinct(src, n, 0, n);
		/* make the parity right, then check it (read-only) */
		snapshot();
		ref_xor(src[0], src + 1, n - 1);
		memcpy(blk[src[0]], want[src[0]], blen);
		ok = op_xor_val(src, n);
		ok &= wr.opcode == ECDMA_EC_OP_VALIDATE && wr.nr_code == 1 &&
		      ecdma_xlate_result_all(&wr) == ECDMA_XLATE_SUM_P;
		/* corrupt one byte of one block */
		b = test_rnd(blen);
		blk[src[test_rnd(n)]][b] ^= 1 + test_rnd(255);
		bad &= op_xor_val(src, n);
	}
	REPORT(ok, "xor_val_good_parity_src_cnt_1_to_255\n");
	REPORT(bad, "xor_val_detects_corruption_src_cnt_1_to_255\n");

	/* src_cnt 1: the block itself must be zero */
	blocks_new(1, rnd_len());
	memset(blk[0], 0, blen);
	src[0] = 0;
	ok = op_xor_val(src, 1) && wr.nr_data == 1 && wr.matrix[0] == 0;
	blk[0][blen - 1] = 0x80;
	ok &= op_xor_val(src, 1);
	REPORT(ok, "xor_val_single_source_zero_check\n");
}

/* ---- PQ ---- */

static void test_pq(void)
{
	int src[ECDMA_XLATE_MAX_SRC + 1], pq[2];
	u8 scf[ECDMA_XLATE_MAX_SRC];
	unsigned int n, i;
	bool ok = true, rows = true;

	for (n = 1; n <= ECDMA_XLATE_MAX_SRC && ok; n++) {
		blocks_new(n + 2, rnd_len());
		pick_distinct(pq, 2, 0, n + 2);
		/* any sources but P and Q, repeats allowed */
		for (i = 0; i < n; i++) {
			do {
				src[i] = (int)test_rnd(n + 2);
			} while (src[i] == pq[0] || src[i] == pq[1]);
		}
		rnd_scf(scf, n);
		ok = op_pq(pq[0], pq[1], src, n, scf, 0);
		/* coefficient rows: P = {1...}, Q = {scf...} */
		if (wr.nr_code != 2 || wr.nr_data != n || wr.wr_flags)
			rows = false;
		for (i = 0; i < n && rows; i++)
			rows = wr.matrix[2 * i] == 1 &&
			       wr.matrix[2 * i + 1] == scf[i];
	}
	REPORT(ok, "pq_src_cnt_1_to_255\n");
	REPORT(rows, "pq_matrix_rows_p_ones_q_scf\n");
}

static void test_pq_flags(void)
{
	static const char * const name[] = {
		"pq_disable_p", "pq_disable_q", "pq_disable_p_and_q",
		"pq_continue", "pq_continue_disable_p", "pq_continue_disable_q",
	};
	static const unsigned long fl[] = {
		ECDMA_XLATE_PQ_DISABLE_P, ECDMA_XLATE_PQ_DISABLE_Q,
		ECDMA_XLATE_PQ_DISABLE_P | ECDMA_XLATE_PQ_DISABLE_Q,
		ECDMA_XLATE_PREP_CONTINUE,
		ECDMA_XLATE_PREP_CONTINUE | ECDMA_XLATE_PQ_DISABLE_P,
		ECDMA_XLATE_PREP_CONTINUE | ECDMA_XLATE_PQ_DISABLE_Q,
	};
	int src[ECDMA_XLATE_MAX_SRC + 1];
	u8 scf[ECDMA_XLATE_MAX_SRC];
	unsigned int t, n;

	for (t = 0; t < ARRAY_SIZE(fl); t++) {
		bool has_p = !(fl[t] & ECDMA_XLATE_PQ_DISABLE_P);
		bool has_q = !(fl[t] & ECDMA_XLATE_PQ_DISABLE_Q);
		bool cont = fl[t] & ECDMA_XLATE_PREP_CONTINUE;
		bool ok = true;

		for (n = 1; n <= ECDMA_XLATE_MAX_SRC && ok; n++) {
			blocks_new(n + 2, rnd_len());
			pick_distinct(src, n, 2, n + 2);
			rnd_scf(scf, n);
			/* DISABLE_* keep the other flags (FENCE, ...) */
			ok = op_pq(has_p ? 0 : -1, has_q ? 1 : -1, src, n, scf,
				   fl[t] | ECDMA_XLATE_PREP_FENCE |
				   ECDMA_XLATE_CTRL_ACK);
			ok &= wr.nr_code == has_p + has_q;
			if (has_p || has_q)
				ok &= !!(wr.wr_flags & ECDMA_EC_WR_ACCUMULATE) ==
				      cont;
			else
				ok &= wr.opcode == ECDMA_EC_OP_NOP;
		}
		REPORT(ok, "%s_src_cnt_1_to_255\n", name[t]);
	}
}

/*
 * do_async_gen_syndrome(): chunks of maxpq sources, the same P/Q, the
 * coefficients continuing, DMA_PREP_CONTINUE after the first chunk.
 */
static void test_pq_split(void)
{
	int src[ECDMA_XLATE_MAX_SRC + 1];
	u8 scf[ECDMA_XLATE_MAX_SRC];
	unsigned int it;
	bool ok = true;

	for (it = 0; it < 300 && ok; it++) {
		unsigned int n = 1 + test_rnd(ECDMA_XLATE_MAX_SRC);
		unsigned int maxpq = 1 + test_rnd(it & 1 ? 255 : 16);
		unsigned int done = 0, i, c;
		unsigned long dis = 0, flags;

		switch (test_rnd(3)) {
		case 1:
			dis = ECDMA_XLATE_PQ_DISABLE_P;
			break;
		case 2:
			dis = ECDMA_XLATE_PQ_DISABLE_Q;
			break;
		}
		blocks_new(n + 2, 1 + test_rnd(24));
		pick_distinct(src, n, 2, n + 2);
		for (i = 0; i < n; i++)
			scf[i] = gf_exp[i];
		snapshot();
		ref_pq(dis & ECDMA_XLATE_PQ_DISABLE_P ? -1 : 0,
		       dis & ECDMA_XLATE_PQ_DISABLE_Q ? -1 : 1, src, n, scf, 0);
		addr_dst[0] = dis & ECDMA_XLATE_PQ_DISABLE_P ? BOGUS : A(0);
		addr_dst[1] = dis & ECDMA_XLATE_PQ_DISABLE_Q ? BOGUS : A(1);
		set_src(src, n);
		memcpy(scf_arg, scf, n);
		while (done < n && ok) {
			c = n - done < maxpq ? n - done : maxpq;
			flags = dis | (done ? ECDMA_XLATE_PREP_CONTINUE : 0);
			ok = !ecdma_xlate_pq(&wr, addr_dst, addr_src + done, c,
					     scf_arg + done, blen, flags);
			exec_wr(&wr);
			done += c;
		}
		ok = ok && memory_ok();
	}
	REPORT(ok, "pq_split_with_continue_like_async_gen_syndrome\n");
}

/* async_sum_product, async_mult, and P/Q among the sources */
static void test_pq_alias(void)
{
	int src[ECDMA_XLATE_MAX_SRC + 1];
	u8 scf[ECDMA_XLATE_MAX_SRC];
	unsigned int it, n, k;
	bool ok = true;

	/* dq = c0 * dp + c1 * dq: Q is src[1], P disabled (garbage) */
	for (it = 0; it < 300 && ok; it++) {
		blocks_new(2, rnd_len());
		src[0] = 0;
		src[1] = 1;
		rnd_scf(scf, 2);
		ok = op_pq(-1, 1, src, 2, scf, 0);
	}
	REPORT(ok, "pq_sum_product_q_is_src1\n");

	/* dq = c * dq: one source, in place */
	for (it = 0, ok = true; it < 300 && ok; it++) {
		blocks_new(1, rnd_len());
		src[0] = 0;
		rnd_scf(scf, 1);
		ok = op_pq(-1, 0, src, 1, scf, 0);
	}
	REPORT(ok, "pq_mult_in_place\n");

	/* Q among the sources with any coefficient, with and without P */
	for (it = 0, ok = true; it < 300 && ok; it++) {
		unsigned long fl = it & 1 ? ECDMA_XLATE_PREP_CONTINUE : 0;

		n = 1 + test_rnd(40);
		blocks_new(n + 1, rnd_len());
		pick_distinct(src, n, 1, n + 1);
		k = test_rnd(n);
		rnd_scf(scf, n);
		if (it & 2)
			scf[k] = 1;
		ok = op_pq(it & 4 ? 0 : -1, src[k], src, n, scf, fl);
	}
	REPORT(ok, "pq_q_among_sources\n");

	/* P only, P among the sources: folds into an accumulate */
	for (it = 0, ok = true; it < 300 && ok; it++) {
		unsigned long fl = ECDMA_XLATE_PQ_DISABLE_Q |
				   (it & 1 ? ECDMA_XLATE_PREP_CONTINUE : 0);

		n = 2 + test_rnd(40);
		blocks_new(n, rnd_len());
		pick_distinct(src, n, 0, n);
		k = test_rnd(n);
		rnd_scf(scf, n);
		ok = op_pq(src[k], -1, src, n, scf, fl) && !wr_aliases(&wr);
	}
	REPORT(ok, "pq_p_only_among_sources_alias_free\n");
}

static void test_pq_val(void)
{
	static const char * const name[] = {
		"pq_val", "pq_val_disable_p", "pq_val_disable_q",
		"pq_val_disable_p_and_q",
	};
	int src[ECDMA_XLATE_MAX_SRC + 1];
	u8 scf[ECDMA_XLATE_MAX_SRC];
	unsigned int t, n;
	u32 got;

	for (t = 0; t < ARRAY_SIZE(name); t++) {
		int p = t & 1 ? -1 : 0, q = t & 2 ? -1 : 1;
		bool ok = true, seen_p = false, seen_q = false;

		for (n = 1; n <= ECDMA_XLATE_MAX_SRC && ok; n++) {
			blocks_new(n + 2, rnd_len());
			pick_distinct(src, n, 2, n + 2);
			rnd_scf(scf, n);
			/* good parity */
			snapshot();
			ref_pq(0, 1, src, n, scf, 0);
			memcpy(blk[0], want[0], blen);
			memcpy(blk[1], want[1], blen);
			ok = op_pq_val(p, q, src, n, scf, &got) && !got;
			/* corrupt P, Q or a data block */
			switch (n % 3) {
			case 0:
				blk[0][test_rnd(blen)] ^= 0x01;
				break;
			case 1:
				blk[1][test_rnd(blen)] ^= 0x80;
				break;
			default:
				blk[src[test_rnd(n)]][test_rnd(blen)] ^= 0x11;
			}
			ok &= op_pq_val(p, q, src, n, scf, &got);
			seen_p |= got & ECDMA_XLATE_SUM_P;
			seen_q |= got & ECDMA_XLATE_SUM_Q;
		}
		ok &= seen_p == (p >= 0) && seen_q == (q >= 0);
		REPORT(ok, "%s_src_cnt_1_to_255\n", name[t]);
	}
}

/* Result bits map to SUM_CHECK_P/Q_RESULT per enabled row, exactly. */
static void test_result_map(void)
{
	u64 a[4] = { 0x1000, 0x2000, 0x3000, 0x4000 };
	u8 scf[2] = { 1, 2 };
	bool ok;

	ok = !ecdma_xlate_pq_val(&wr, a, a + 2, 2, scf, 8, 0) &&
	     ecdma_xlate_result(&wr, 0) == 0 &&
	     ecdma_xlate_result(&wr, 1) == ECDMA_XLATE_SUM_P &&
	     ecdma_xlate_result(&wr, 2) == ECDMA_XLATE_SUM_Q &&
	     ecdma_xlate_result(&wr, 3) ==
		(ECDMA_XLATE_SUM_P | ECDMA_XLATE_SUM_Q) &&
	     ecdma_xlate_result_all(&wr) ==
		(ECDMA_XLATE_SUM_P | ECDMA_XLATE_SUM_Q);
	ok &= !ecdma_xlate_pq_val(&wr, a, a + 2, 2, scf, 8,
				  ECDMA_XLATE_PQ_DISABLE_P) &&
	      ecdma_xlate_result(&wr, 1) == ECDMA_XLATE_SUM_Q &&
	      ecdma_xlate_result(&wr, ~0U) == ECDMA_XLATE_SUM_Q &&
	      ecdma_xlate_result_all(&wr) == ECDMA_XLATE_SUM_Q;
	ok &= !ecdma_xlate_pq_val(&wr, a, a + 2, 2, scf, 8,
				  ECDMA_XLATE_PQ_DISABLE_Q) &&
	      ecdma_xlate_result(&wr, ~0U) == ECDMA_XLATE_SUM_P;
	ok &= !ecdma_xlate_xor_val(&wr, a, 3, 8) &&
	      ecdma_xlate_result(&wr, 1) == ECDMA_XLATE_SUM_P &&
	      ecdma_xlate_result(&wr, ~0U) == ECDMA_XLATE_SUM_P;
	/* non-VALIDATE WRs report nothing */
	ok &= !ecdma_xlate_pq(&wr, a, a + 2, 2, scf, 8, 0) &&
	      ecdma_xlate_result(&wr, ~0U) == 0;
	REPORT(ok, "validate_result_maps_to_sum_check_flags\n");
}

/*
 * ecdma_xlate_run() refuses what no engine may run, writing nothing:
 * outputs overlapping each other, an output partly over an input; a COPY
 * may overlap (memmove).
 */
static void test_run_rejects(void)
{
	struct ecdma_xlate_wr x = wr;
	bool ok = true;
	u32 res;

	blocks_new(2, 64);
	snapshot();
	x.opcode = ECDMA_EC_OP_ENCODE;
	x.wr_flags = 0;
	x.nr_data = 1;
	x.nr_code = 2;
	x.len = 32;
	x.matrix = (const u8 *)"\x01\x02";
	x.data[0].addr = A(0);
	x.code[0].addr = A(1);
	x.code[1].addr = A(1) + 16;
	ok &= ecdma_xlate_run(&x, &res) == -EINVAL && memory_ok();
	x.nr_code = 1;
	x.code[0].addr = A(0) + 8;
	ok &= ecdma_xlate_run(&x, &res) == -EINVAL && memory_ok();
	x.opcode = ECDMA_EC_OP_COPY;
	memmove(want[0] + 8, want[0], 32);
	ok &= !ecdma_xlate_run(&x, &res) && memory_ok();
	REPORT(ok, "overlapping_outputs_refused_copy_overlap_moved\n");
}

/* every operation, through the reference or ecdma_xlate_run() (run_cpu) */
static void test_ops(void)
{
	test_memcpy();
	test_xor();
	test_xor_split();
	test_xor_val();
	test_pq();
	test_pq_flags();
	test_pq_split();
	test_pq_alias();
	test_pq_val();
}

int main(void)
{
	ksft_print_header();
	ksft_set_plan(39 + 32);
	test_rng_init();
	gf_tables();
	ecdma_xlate_bind(&wr, room_data, room_mat, ARRAY_SIZE(room_data));

	test_interrupt();
	test_zero_len();
	test_bad_args();
	test_small_room();
	test_ops();
	test_result_map();
	if (bad_wr)
		ksft_print_msg("%u bad WRs, first: %s\n", bad_wr, bad_msg);
	REPORT(!bad_wr, "every_wr_well_formed_and_never_uses_disabled_addresses\n");

	/* the same operations through the front's last resort */
	run_cpu = true;
	run_pfx = "cpu_run_";
	test_ops();
	test_run_rejects();
	if (bad_wr)
		ksft_print_msg("%u bad WRs, first: %s\n", bad_wr, bad_msg);
	REPORT(!bad_wr, "every_valid_wr_run\n");
	blocks_free();
	return ksft_finished();
}
