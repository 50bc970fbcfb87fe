// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of drivers/ecdma/fuse.c, the composition of a chain of
 * translated operations into one WR.
 *
 * The chains are built the way crypto/async_tx/async_raid6_recov.c builds
 * them (the same prep arguments, through xlate.c), run one operation at a
 * time with a byte-serial reference (every input of a byte read before any
 * output is written, as the EC verbs define a WR), and the composed WR must
 * leave memory exactly as the sequence did.  The recovery chains are also
 * checked against the stripe they rebuild, and random chains (accumulate,
 * in-place, copies) against the sequence.  Refusals must leave the chain
 * as it was.
 */
#include <stdbool.h>
#include <stdint.h>

#include "fuse.h"
#include "ecdma_test.h"

#define NBLK	40
#define MAXLEN	64

static u8 *blk[NBLK], *seq[NBLK], *start[NBLK];
static size_t blen;

#define REPORT(ok, ...) ksft_test_result(ok, __VA_ARGS__)

static u8 g_exp(int e)
{
	u8 r = 1;

	while (e-- > 0)
		r = test_slow_mul(r, 2);
	return r;
}

static u8 g_inv(u8 a)
{
	unsigned int b;

	for (b = 1; b < 256; b++)
		if (test_slow_mul(a, (u8)b) == 1)
			return (u8)b;
	return 0;
}

static u64 A(int i)
{
	return (u64)(uintptr_t)blk[i];
}

/* Run one translated WR on the blocks, byte by byte */
static void exec_wr(const struct ecdma_xlate_wr *x)
{
	unsigned int i, j, m = x->nr_code;
	u8 acc[ECDMA_XLATE_MAX_CODE];
	size_t b;

	if (x->opcode == ECDMA_EC_OP_NOP)
		return;
	for (b = 0; b < x->len; b++) {
		for (j = 0; j < m; j++) {
			acc[j] = x->wr_flags & ECDMA_EC_WR_ACCUMULATE ?
				 ((u8 *)(uintptr_t)x->code[j].addr)[b] : 0;
			for (i = 0; i < x->nr_data; i++) {
				u8 c = x->opcode == ECDMA_EC_OP_COPY ? 1 :
				       x->matrix[i * m + j];

				acc[j] ^= test_slow_mul(c,
					((u8 *)(uintptr_t)x->data[i].addr)[b]);
			}
		}
		for (j = 0; j < m; j++)
			((u8 *)(uintptr_t)x->code[j].addr)[b] = acc[j];
	}
}

static void blocks_new(size_t len)
{
	unsigned int i;

	blen = len;
	for (i = 0; i < NBLK; i++) {
		free(blk[i]);
		free(seq[i]);
		free(start[i]);
		blk[i] = test_alloc(len);
		seq[i] = test_alloc(len);
		start[i] = test_alloc(len);
		test_rnd_fill(blk[i], len);
	}
}

static void blocks_free(void)
{
	unsigned int i;

	for (i = 0; i < NBLK; i++) {
		free(blk[i]);
		free(seq[i]);
		free(start[i]);
	}
}

/* A chain of up to 8 WRs, each with its own room */
#define MAXOPS	8
static struct ecdma_xlate_wr ops[MAXOPS], fused;
static struct ecdma_ec_sge room_data[MAXOPS][ECDMA_XLATE_MAX_SRC];
static u8 room_mat[MAXOPS][ECDMA_XLATE_MAX_SRC * ECDMA_XLATE_MAX_CODE];
static struct ecdma_ec_sge fused_data[ECDMA_XLATE_MAX_SRC];
static u8 fused_mat[ECDMA_XLATE_MAX_SRC * ECDMA_XLATE_MAX_CODE];
static unsigned int fused_room = ECDMA_XLATE_MAX_SRC;

/* The composed WR as dma.c posts it: the first op's outputs, new sources */
static int emit(const struct ecdma_fuse *f)
{
	int n = ecdma_fuse_emit(f, fused_data, fused_mat, fused_room);

	if (n < 0)
		return n;
	fused = ops[0];
	fused.opcode = ECDMA_EC_OP_ENCODE;
	fused.wr_flags = 0;
	fused.data = fused_data;
	fused.nr_data = n;
	fused.matrix = fused_mat;
	return 0;
}

static void ops_bind(void)
{
	unsigned int i;

	for (i = 0; i < MAXOPS; i++)
		ecdma_xlate_bind(&ops[i], room_data[i], room_mat[i],
				 ECDMA_XLATE_MAX_SRC);
}

static void copy(u8 **to, u8 **from)
{
	unsigned int i;

	for (i = 0; i < NBLK; i++)
		memcpy(to[i], from[i], blen);
}

static bool same(u8 **a, u8 **b)
{
	unsigned int i;

	for (i = 0; i < NBLK; i++)
		if (memcmp(a[i], b[i], blen))
			return false;
	return true;
}

/*
 * Run @n ops one by one into seq[], then compose them from the same start
 * and run the composition on blk[].  Returns 1 if composed and equal, 0 if
 * composed and different, -1 if the composition was refused (@why says
 * where: 's'tart, 'a'dd of op i, 'e'mit).
 */
static int compose_and_run(unsigned int n, char *why, unsigned int *absorbed)
{
	struct ecdma_fuse f;
	unsigned int i;
	int ret = 1;

	copy(start, blk);
	for (i = 0; i < n; i++)
		exec_wr(&ops[i]);
	copy(seq, blk);
	copy(blk, start);

	*absorbed = 0;
	if (!ecdma_fuse_start(&f, &ops[0])) {
		*why = 's';
		return -1;
	}
	for (i = 1; i < n; i++) {
		if (!ecdma_fuse_add(&f, &ops[i])) {
			*why = 'a';
			*absorbed = i;
			return -1;
		}
	}
	*absorbed = n;
	if (emit(&f)) {
		*why = 'e';
		return -1;
	}
	exec_wr(&fused);
	if (!same(blk, seq))
		ret = 0;
	return ret;
}

/*
 * ops[0]: the syndrome both recoveries begin with, of the data blocks but
 * @fa and @fb (-1: none) into @p and @q, FENCEd on what follows
 */
static void chain_syndrome(int disks, int fa, int fb, u64 p, u64 q)
{
	u64 src[ECDMA_XLATE_MAX_SRC], dst[2] = { p, q };
	u8 scf[ECDMA_XLATE_MAX_SRC];
	int i, n = 0;

	for (i = 0; i < disks - 2; i++) {
		if (i == fa || i == fb)
			continue;
		src[n] = A(i);
		scf[n++] = g_exp(i);
	}
	ecdma_xlate_pq(&ops[0], dst, src, n, scf, blen, ECDMA_XLATE_PREP_FENCE);
}

/*
 * async_raid6_2data_recov's __2data_recov_n for @disks, data @fa < @fb
 * lost, as preps: blocks 0..disks-3 data, disks-2 P, disks-1 Q.
 */
static unsigned int chain_2data(int disks, int fa, int fb)
{
	u64 src[2], dst[2];
	u8 coef[2];
	int p = disks - 2, q = disks - 1;

	chain_syndrome(disks, fa, fb, A(fa), A(fb));
	src[0] = A(fa);
	src[1] = A(p);
	ecdma_xlate_xor(&ops[1], A(fa), src, 2, blen);
	src[0] = A(fb);
	src[1] = A(q);
	ecdma_xlate_xor(&ops[2], A(fb), src, 2, blen);
	src[0] = A(fa);
	src[1] = A(fb);
	coef[0] = g_inv(g_exp(fb - fa) ^ 1);
	coef[1] = g_inv(g_exp(fa) ^ g_exp(fb));
	dst[0] = 0;
	dst[1] = A(fb);
	ecdma_xlate_pq(&ops[3], dst, src, 2, coef, blen,
		       ECDMA_XLATE_PQ_DISABLE_P | ECDMA_XLATE_PREP_FENCE);
	src[0] = A(fa);
	src[1] = A(fb);
	ecdma_xlate_xor(&ops[4], A(fa), src, 2, blen);
	return 5;
}

/* async_raid6_datap_recov for @disks (> 4), data @fa and P lost */
static unsigned int chain_datap(int disks, int fa)
{
	u64 src[2], dst[2];
	u8 coef;
	int p = disks - 2, q = disks - 1;

	chain_syndrome(disks, fa, -1, A(p), A(fa));
	src[0] = A(fa);
	src[1] = A(q);
	ecdma_xlate_xor(&ops[1], A(fa), src, 2, blen);
	coef = g_inv(g_exp(fa));
	dst[0] = 0;
	dst[1] = A(fa);
	ecdma_xlate_pq(&ops[2], dst, &src[0], 1, &coef, blen,
		       ECDMA_XLATE_PQ_DISABLE_P | ECDMA_XLATE_PREP_FENCE);
	src[0] = A(p);
	src[1] = A(fa);
	ecdma_xlate_xor(&ops[3], A(p), src, 2, blen);
	return 4;
}

/* A consistent RAID-6 stripe over blocks 0..disks-1 */
static void stripe(int disks)
{
	int i, nd = disks - 2;
	size_t b;

	for (b = 0; b < blen; b++) {
		u8 p = 0, q = 0;

		for (i = 0; i < nd; i++) {
			p ^= blk[i][b];
			q ^= test_slow_mul(g_exp(i), blk[i][b]);
		}
		blk[nd][b] = p;
		blk[nd + 1][b] = q;
	}
}

static void test_recovery(void)
{
	static const int disk_counts[] = { 6, 7, 11, 18, 34 };
	unsigned int c, n, absorbed, bad = 0, runs = 0, bad_inputs = 0;
	u8 *orig[NBLK];
	char why = 0;
	int disks, fa, fb, r;

	for (c = 0; c < NBLK; c++)
		orig[c] = test_alloc(MAXLEN);
	for (c = 0; c < ARRAY_SIZE(disk_counts); c++) {
		disks = disk_counts[c];
		for (fa = 0; fa < disks - 2; fa++) {
			for (fb = fa + 1; fb < disks - 2; fb++) {
				blocks_new(16 * (1 + test_rnd(4)));
				stripe(disks);
				copy(orig, blk);
				test_rnd_fill(blk[fa], blen);
				test_rnd_fill(blk[fb], blen);
				n = chain_2data(disks, fa, fb);
				r = compose_and_run(n, &why, &absorbed);
				runs++;
				/* the survivors, P and Q: nothing else */
				if (fused.nr_data != (unsigned int)disks - 2)
					bad_inputs++;
				if (r != 1 || !same(blk, orig)) {
					if (!bad++)
						ksft_print_msg("2data %d, %d+%d: %d %c %u\n",
							       disks, fa, fb, r, why,
							       absorbed);
				}
			}
		}
	}
	REPORT(!bad && !bad_inputs && runs,
	       "two_data_recovery_composes_to_one_exact_wr # %u chains, %u inputs wrong\n",
	       runs, bad_inputs);

	bad = 0;
	runs = 0;
	for (c = 0; c < ARRAY_SIZE(disk_counts); c++) {
		disks = disk_counts[c];
		for (fa = 0; fa < disks - 2; fa++) {
			blocks_new(16 * (1 + test_rnd(4)));
			stripe(disks);
			copy(orig, blk);
			test_rnd_fill(blk[fa], blen);
			test_rnd_fill(blk[disks - 2], blen);
			n = chain_datap(disks, fa);
			r = compose_and_run(n, &why, &absorbed);
			runs++;
			if (r != 1 || !same(blk, orig)) {
				if (!bad++)
					ksft_print_msg("datap %d disks, %d: r %d %c %u\n",
						       disks, fa, r, why, absorbed);
			}
		}
	}
	REPORT(!bad && runs, "data_and_p_recovery_composes_to_one_exact_wr # %u chains\n", runs);
	for (c = 0; c < NBLK; c++)
		free(orig[c]);
}

/*
 * Random chains: a P+Q of random sources into blocks 0 and 1, then ops
 * that write 0 and/or 1 from anything (in place, accumulating, copies).
 */
static void rnd_chain_op(struct ecdma_xlate_wr *x)
{
	u64 src[6], dst[2];
	u8 scf[6];
	unsigned int i, n = 1 + test_rnd(5);
	unsigned int kind = test_rnd(4);

	for (i = 0; i < n; i++) {
		src[i] = A(test_rnd(12));
		scf[i] = (u8)test_rnd64();
	}
	dst[0] = A(0);
	dst[1] = A(1);
	switch (kind) {
	case 0:
		ecdma_xlate_xor(x, A(test_rnd(2)), src, n, blen);
		break;
	case 1:
		ecdma_xlate_pq(x, dst, src, n, scf, blen,
			       test_rnd(2) ? ECDMA_XLATE_PREP_CONTINUE : 0);
		break;
	case 2:
		ecdma_xlate_pq(x, dst, src, n, scf, blen,
			       ECDMA_XLATE_PQ_DISABLE_P |
			       (test_rnd(2) ? ECDMA_XLATE_PREP_CONTINUE : 0));
		break;
	default:
		ecdma_xlate_memcpy(x, A(test_rnd(2)), src[0], blen);
		break;
	}
}

static void test_random_chains(void)
{
	unsigned int t, i, n, absorbed, bad = 0, fused = 0, refused = 0;
	u64 src[8], dst[2];
	u8 scf[8];
	char why;
	int r;

	for (t = 0; t < 3000; t++) {
		blocks_new(1 + test_rnd(MAXLEN));
		n = 1 + test_rnd(MAXOPS);
		for (i = 0; i < 8; i++) {
			/* sources may include 0 and 1 (syndrome in place) */
			src[i] = A(test_rnd(t & 1 ? 12 : 10) + (t & 1 ? 0 : 2));
			scf[i] = (u8)test_rnd64();
		}
		dst[0] = A(0);
		dst[1] = A(1);
		ecdma_xlate_pq(&ops[0], dst, src, 1 + test_rnd(8), scf, blen, 0);
		for (i = 1; i < n; i++)
			rnd_chain_op(&ops[i]);
		r = compose_and_run(n, &why, &absorbed);
		if (r == 0 && !bad++)
			ksft_print_msg("random chain %u: %u ops composed wrong\n", t, n);
		if (r == 1)
			fused++;
		else if (r < 0)
			refused++;
	}
	/* half the chains have sources only in 2..11: those must compose */
	REPORT(!bad && fused >= 1500,
	       "random_chains_compose_exactly # %u composed, %u refused\n",
	       fused, refused);
}

static unsigned int expect_ok, expect_n;

static void expect(bool ok)
{
	expect_n++;
	expect_ok += ok;
}

static void test_refusals(void)
{
	struct ecdma_fuse f, before;
	u64 src[4], dst[2];
	u8 scf[4] = { 1, 2, 4, 8 };
	unsigned int i;

	blocks_new(32);
	for (i = 0; i < 4; i++)
		src[i] = A(2 + i);
	dst[0] = A(0);
	dst[1] = A(1);

	/* a chain starts only with a P+Q into two distinct blocks */
	ecdma_xlate_pq(&ops[0], dst, src, 4, scf, blen, ECDMA_XLATE_PQ_DISABLE_P);
	expect(!ecdma_fuse_start(&f, &ops[0]));
	ecdma_xlate_xor(&ops[0], A(0), src, 4, blen);
	expect(!ecdma_fuse_start(&f, &ops[0]));
	ecdma_xlate_pq(&ops[0], dst, src, 4, scf, blen, ECDMA_XLATE_PREP_CONTINUE);
	expect(!ecdma_fuse_start(&f, &ops[0]));
	/* P partly overlapping Q */
	dst[1] = A(0) + 8;
	ecdma_xlate_pq(&ops[0], dst, src, 4, scf, blen, 0);
	expect(!ecdma_fuse_start(&f, &ops[0]));
	dst[1] = A(1);
	ecdma_xlate_pq(&ops[0], dst, src, 4, scf, blen, 0);
	expect(ecdma_fuse_start(&f, &ops[0]));
	before = f;

	/* a third output, another length, a source overlapping a block */
	ecdma_xlate_xor(&ops[1], A(6), src, 2, blen);
	expect(!ecdma_fuse_add(&f, &ops[1]));
	ecdma_xlate_xor(&ops[1], A(0), src, 2, blen - 16);
	expect(!ecdma_fuse_add(&f, &ops[1]));
	src[3] = A(2) + 4;
	ecdma_xlate_xor(&ops[1], A(0), src, 4, blen);
	expect(!ecdma_fuse_add(&f, &ops[1]));
	src[3] = A(5);
	/* a validation reads and writes nothing: not part of a chain */
	ecdma_xlate_xor_val(&ops[1], src, 2, blen);
	expect(!ecdma_fuse_add(&f, &ops[1]));
	expect(!memcmp(&f, &before, sizeof(f)));

	/* no room for the composed sources */
	ecdma_xlate_xor(&ops[1], A(1), src, 4, blen);
	expect(ecdma_fuse_add(&f, &ops[1]));
	fused_room = 3;
	expect(emit(&f) == -ENOSPC);
	fused_room = ECDMA_XLATE_MAX_SRC;

	/* a syndrome in place reads its output: refused at emit */
	src[0] = A(0);
	ecdma_xlate_pq(&ops[0], dst, src, 4, scf, blen, 0);
	expect(ecdma_fuse_start(&f, &ops[0]));
	expect(emit(&f) == -EINVAL);
	REPORT(expect_ok == expect_n, "refused_chains_change_nothing # %u of %u\n",
	       expect_ok, expect_n);
}

static void test_many_sources(void)
{
	u64 src[ECDMA_XLATE_MAX_SRC], dst[2];
	u8 scf[ECDMA_XLATE_MAX_SRC];
	struct ecdma_fuse f;
	unsigned int i;
	bool ok;

	blocks_new(16);
	for (i = 0; i < NBLK - 2; i++) {
		src[i] = A(2 + i);
		scf[i] = (u8)(i + 1);
	}
	dst[0] = A(0);
	dst[1] = A(1);
	/* more distinct blocks than the chain tracks */
	for (i = NBLK - 2; i < ECDMA_FUSE_MAX_VARS + 1; i++) {
		src[i] = A(2 + (i % (NBLK - 2))) + 4096 * (i + 1);
		scf[i] = 3;
	}
	ecdma_xlate_pq(&ops[0], dst, src, ECDMA_FUSE_MAX_VARS + 1, scf, blen, 0);
	ok = !ecdma_fuse_start(&f, &ops[0]);
	ecdma_xlate_pq(&ops[0], dst, src, NBLK - 2, scf, blen, 0);
	ok = ok && ecdma_fuse_start(&f, &ops[0]);
	REPORT(ok, "chains_with_more_blocks_than_tracked_are_refused\n");
}

int main(void)
{
	ksft_print_header();
	ksft_set_plan(5);
	test_rng_init();
	ops_bind();

	test_recovery();
	test_random_chains();
	test_refusals();
	test_many_sources();
	blocks_free();
	return ksft_finished();
}
