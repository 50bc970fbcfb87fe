// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the offload policy's trials (drivers/ecdma/trial.c),
 * driven by simulated loads: each slot moves what the load moves in the
 * state the trials asked for, with seeded noise, and the tests compare
 * that with what md alone (always out of the table) would have moved.
 */
#include "ecdma_compat.h"
#include "trial.h"
#include "ecdma_test.h"

/* a load: what a slot moves out of the table and in it, and its shape */
struct sim_load {
	u64 out;
	u64 in;
	unsigned int kind;
	unsigned int noise;	/* percent, either way, per slot */
	bool lumps;		/* a slot's I/O comes at its middle */
};

struct sim_res {
	u64 moved;		/* by the load as the trials ran it */
	u64 alone;		/* by md alone in as many slots */
	unsigned int in_slots;
	unsigned int parts;	/* of the last first slot in peeked at */
};

static void sim_sample(const struct sim_load *l, bool out,
		       struct ecdma_trial_sample *s)
{
	u64 v = out ? l->out : l->in;

	if (l->noise)
		v = v * (100 - l->noise + test_rnd(2 * l->noise + 1)) / 100;
	memset(s, 0, sizeof(*s));
	switch (l->kind) {
	case ECDMA_TRIAL_WRITE:
		/* RAID-6 of 8: 8 member sectors per 6 written */
		s->wr = v;
		s->md = v * 4 / 3;
		break;
	case ECDMA_TRIAL_SMALL:
		/* reconstruct-write of 4 KiB: 5 reads, 3 writes */
		s->wr = v;
		s->md = v * 8;
		break;
	case ECDMA_TRIAL_READ:
		s->rd = v;
		s->md = v;
		break;
	default:
		s->md = v;
		break;
	}
}

/*
 * A trial's first slots out and in as policy.c runs them: peeked at after
 * each part; true if a peek ended the slot (@r counts the parts it ran).
 */
static bool sim_parts(struct ecdma_trial *t, const struct sim_load *l,
		      bool out, struct sim_res *r)
{
	struct ecdma_trial_sample s;
	unsigned int part, of;

	for (part = 1; part < ECDMA_TRIAL_PARTS; part++) {
		sim_sample(l, out, &s);
		if (!l->lumps)
			of = part;
		else
			of = 2 * part >= ECDMA_TRIAL_PARTS ? ECDMA_TRIAL_PARTS : 0;
		s.rd = s.rd * of / ECDMA_TRIAL_PARTS;
		s.wr = s.wr * of / ECDMA_TRIAL_PARTS;
		s.md = s.md * of / ECDMA_TRIAL_PARTS;
		s.us = ECDMA_TRIAL_SLOT_MS * 1000 * part / ECDMA_TRIAL_PARTS;
		if (ecdma_trial_peek(t, &s, part)) {
			r->moved += l->in * part / ECDMA_TRIAL_PARTS;
			r->alone += l->out * part / ECDMA_TRIAL_PARTS;
			r->parts = part;
			return true;
		}
	}
	r->parts = ECDMA_TRIAL_PARTS;
	return false;
}

/* @slots slots of @l, the trials choosing the state of each; @peek: parts */
static void sim_run_peek(struct ecdma_trial *t, const struct sim_load *l,
			 unsigned int slots, struct sim_res *r, bool peek)
{
	struct ecdma_trial_sample s;
	bool out = t->out;

	while (slots--) {
		if (peek && t->slot == 1)
			sim_parts(t, l, out, r);
		if (peek && !out && t->slot == 2 && sim_parts(t, l, out, r)) {
			out = t->out;
			continue;
		}
		sim_sample(l, out, &s);
		r->moved += out ? l->out : l->in;
		r->alone += l->out;
		r->in_slots += !out;
		out = ecdma_trial_slot(t, &s, out);
	}
}

static void sim_run(struct ecdma_trial *t, const struct sim_load *l,
		    unsigned int slots, struct sim_res *r)
{
	sim_run_peek(t, l, slots, r, false);
}

static void sim_idle(struct ecdma_trial *t, unsigned int slots)
{
	struct ecdma_trial_sample s = { 0 };

	while (slots--)
		ecdma_trial_slot(t, &s, t->out);
}

static const struct sim_load loses = {
	.out = 10000, .in = 4000, .kind = ECDMA_TRIAL_WRITE, .noise = 5
};

static const struct sim_load wins = {
	.out = 10000, .in = 13000, .kind = ECDMA_TRIAL_WRITE, .noise = 5
};

/*
 * A load of a kind never judged runs as md alone until it has paid for a
 * whole slot lost by itself (100 / budget slots without a pause): short
 * loads never do, however many; then one trial, ended after its first
 * slot in.
 */
static void test_new_load_waits(void)
{
	struct ecdma_trial t;
	struct sim_res r = { 0 };
	unsigned int bad = 0, i;

	ecdma_trial_init(&t, ECDMA_TRIAL_BUDGET);
	for (i = 0; i < 100; i++) {
		/* 3 s loads, idle between */
		sim_run(&t, &loses, 12, &r);
		sim_idle(&t, 1);
	}
	bad += t.trials != 0 || r.in_slots != 0 || !t.out;
	sim_run(&t, &loses, 100 / ECDMA_TRIAL_BUDGET - 1, &r);
	bad += t.trials != 0 || t.slot || r.in_slots != 0;
	sim_run(&t, &loses, 3, &r);
	bad += t.trials != 1 || t.aborted != 1 || t.kept != 0 ||
	       r.in_slots != 1;
	ksft_test_result(!bad, "new_load_runs_as_md_alone (%u wrong, %lu trials, %u slots in)\n",
			 bad, t.trials, r.in_slots);
}

/*
 * Each load pays for its own trials: loads of 1 to 60 s that ecdma loses
 * by 60%, judged only at a slot's end, each move at least (100 - budget)%
 * of what md alone moves in them (a 3 s load that a trial landed in lost
 * 5%, make perf 0.97x, while the kind's credit came from many loads).
 */
static void test_each_load_pays(void)
{
	struct sim_load l = loses;
	unsigned int bad = 0, worst = 1000, n, permil;
	struct ecdma_trial t;

	l.in = 4000;
	ecdma_trial_init(&t, ECDMA_TRIAL_BUDGET);
	for (n = 0; n < 3000; n++) {
		struct sim_res r = { 0 };

		sim_run(&t, &l, 4 + test_rnd(237), &r);
		sim_idle(&t, 1 + test_rnd(8));
		permil = r.moved * 1000 / r.alone;
		worst = min(worst, permil);
		bad += permil < 1000 - 10 * ECDMA_TRIAL_BUDGET;
	}
	bad += t.trials < 100;
	ksft_test_result(!bad, "each_load_pays (%u wrong, %lu trials, worst %u permil)\n",
			 bad, t.trials, worst);
}

/*
 * Whatever a losing load's length and loss, what it moves is at least
 * (100 - budget)% of what md alone moves, and less is lost once the
 * verdict keeps repeating; the trials go on (a load may turn).
 */
static void test_losing_costs_budget(void)
{
	static const u64 in[] = { 2400, 6000, 9000, 9700 };
	static const unsigned int kinds[] = {
		ECDMA_TRIAL_WRITE, ECDMA_TRIAL_SMALL, ECDMA_TRIAL_READ,
		ECDMA_TRIAL_MD
	};
	unsigned int bad = 0, worst = 1000, ki, ii, n;

	for (ki = 0; ki < ARRAY_SIZE(kinds); ki++) {
		for (ii = 0; ii < ARRAY_SIZE(in); ii++) {
			struct sim_load l = {
				.out = 10000, .in = in[ii],
				.kind = kinds[ki], .noise = 5
			};
			struct sim_res r = { 0 }, late = { 0 };
			struct ecdma_trial t;
			unsigned int permil;
			u64 cost;

			ecdma_trial_init(&t, ECDMA_TRIAL_BUDGET);
			/* short loads, then one long one */
			for (n = 0; n < 100; n++) {
				sim_run(&t, &l, 12, &r);
				sim_idle(&t, 3);
			}
			sim_run(&t, &l, 2000, &r);
			cost = t.cost;
			sim_run(&t, &l, 2000, &late);
			permil = r.moved * 1000 / r.alone;
			worst = min(worst, permil);
			bad += permil < 1000 - 10 * ECDMA_TRIAL_BUDGET;
			/* a 3% loss under 5% noise may win a trial */
			bad += t.trials < 3 || (in[ii] <= 9000 && t.kept);
			/* the second half of the long load: half the budget */
			bad += (t.cost - cost) * 2 > 2000 * ECDMA_TRIAL_BUDGET;
			bad += late.moved * 1000 <
			       late.alone * (1000 - 5 * ECDMA_TRIAL_BUDGET);
		}
	}
	ksft_test_result(!bad, "losing_loads_cost_at_most_the_budget (%u wrong, worst %u permil)\n",
			 bad, worst);
}

/*
 * A load ecdma carries better joins after its first trial and stays,
 * the trials coming less often; with the whole budget at once.
 */
static void test_winning_joins(void)
{
	struct ecdma_trial t;
	struct sim_res r = { 0 };
	unsigned int bad = 0;

	ecdma_trial_init(&t, ECDMA_TRIAL_BUDGET);
	sim_run(&t, &wins, 100 / ECDMA_TRIAL_BUDGET + 4, &r);
	/* a first win is asked again before moving in */
	bad += t.trials != 0 || t.slot != 1 || !t.out;
	sim_run(&t, &wins, 4, &r);
	bad += t.trials != 1 || t.kept != 1 || t.out;
	memset(&r, 0, sizeof(r));
	sim_run(&t, &wins, 1000, &r);
	bad += r.in_slots < 950 || r.moved * 100 < r.alone * 125;
	bad += t.load[ECDMA_TRIAL_WRITE].every != ECDMA_TRIAL_EVERY_IN;
	ecdma_trial_init(&t, 100);
	memset(&r, 0, sizeof(r));
	sim_run(&t, &wins, 10, &r);
	bad += t.kept != 1 || t.out;
	ksft_test_result(!bad, "winning_load_joins_and_stays (%u wrong)\n", bad);
}

/*
 * Each kind keeps its verdict across idle times: a won kind is back in
 * the table at its second slot, without a trial; another kind's losing
 * verdict is its own.
 */
static void test_kinds_remembered(void)
{
	struct sim_load rd = loses;
	struct ecdma_trial t;
	struct sim_res r = { 0 };
	unsigned int bad = 0;
	unsigned long trials;

	rd.kind = ECDMA_TRIAL_READ;
	ecdma_trial_init(&t, 100);
	sim_run(&t, &wins, 10, &r);
	sim_idle(&t, 5);
	sim_run(&t, &rd, 10, &r);
	bad += t.cur != ECDMA_TRIAL_READ || !t.out ||
	       !t.load[ECDMA_TRIAL_READ].judged ||
	       t.load[ECDMA_TRIAL_READ].keep;
	sim_idle(&t, 5);
	trials = t.trials;
	sim_run(&t, &wins, 1, &r);
	bad += t.out || t.trials != trials || t.slot;
	sim_idle(&t, 5);
	sim_run(&t, &rd, 1, &r);
	bad += !t.out;
	ksft_test_result(!bad, "kinds_keep_their_verdicts (%u wrong)\n", bad);
}

/*
 * A plain loss ends the trial after its first slot in; a tie runs the
 * four slots and leaves md alone; a load that stalls in the table lost
 * a slot; one that ends, or turns into another kind, during a trial
 * judges nothing: the device out, the trials at rest.
 */
static void test_trial_shapes(void)
{
	struct sim_load tie = wins, gone = { 0 };
	struct ecdma_trial t;
	struct sim_res r = { 0 };
	unsigned int bad = 0;

	tie.in = tie.out;
	tie.noise = 0;
	ecdma_trial_init(&t, 100);
	sim_run(&t, &loses, 3, &r);
	bad += t.trials != 1 || t.aborted != 1 || t.slot || !t.out;
	ecdma_trial_init(&t, 100);
	sim_run(&t, &tie, 2, &r);
	bad += t.slot != 2;
	sim_run(&t, &tie, 3, &r);
	bad += t.trials != 1 || t.aborted || t.kept || !t.out ||
	       t.last[0] != 2 * tie.in || t.last[1] != 2 * tie.out;
	ecdma_trial_init(&t, 100);
	sim_run(&t, &wins, 2, &r);
	gone.kind = ECDMA_TRIAL_WRITE;
	sim_run(&t, &gone, 3, &r);
	bad += t.trials != 1 || t.kept || !t.out || t.slot;
	sim_idle(&t, 1);
	bad += !ecdma_trial_resting(&t);
	/* a load that stalls in the table: a whole slot lost */
	ecdma_trial_init(&t, 100);
	tie.in = 0;
	sim_run(&t, &tie, 3, &r);
	bad += t.trials != 1 || t.aborted != 1 || !t.out || t.cost != 100 ||
	       !t.load[ECDMA_TRIAL_WRITE].judged;
	/* reads, then a rebuild: the reads' trial ends, judging nothing */
	ecdma_trial_init(&t, 100);
	tie = loses;
	tie.kind = ECDMA_TRIAL_READ;
	sim_run(&t, &tie, 2, &r);
	bad += t.slot != 2 || t.tkind != ECDMA_TRIAL_READ;
	tie.kind = ECDMA_TRIAL_MD;
	sim_run(&t, &tie, 1, &r);
	bad += t.slot || !t.out || t.trials != 1 ||
	       t.load[ECDMA_TRIAL_READ].judged;
	/* ended in the last slot, out: the slots in do not win for that */
	ecdma_trial_init(&t, 100);
	sim_run(&t, &wins, 4, &r);
	bad += t.slot != ECDMA_TRIAL_SLOTS;
	sim_run(&t, &gone, 1, &r);
	bad += t.trials != 1 || t.kept || !t.out ||
	       t.load[ECDMA_TRIAL_WRITE].judged;
	ksft_test_result(!bad, "trial_ends_early_on_plain_loss (%u wrong)\n", bad);
}

/*
 * A tie under noise rarely wins: a first win is asked again before the
 * device moves in, and a kind that loses after a time in the table pays
 * for that time, so md keeps at least 99% of what it moves alone.
 */
static void test_tie_stays_out(void)
{
	struct sim_load tie = wins, worse = wins;
	struct ecdma_trial t;
	struct sim_res r = { 0 };
	unsigned int bad = 0, permil;

	tie.in = tie.out;
	ecdma_trial_init(&t, ECDMA_TRIAL_BUDGET);
	sim_run(&t, &tie, 20000, &r);
	permil = r.in_slots * 1000 / 20000;
	bad += permil > 50;
	/* a kept kind that turns worse: its credit pays for its time in */
	ecdma_trial_init(&t, 100);
	sim_run(&t, &wins, 10, &r);
	/* the same rate in the table (no rate change), md alone faster */
	worse.out = 2 * worse.in;
	worse.noise = 0;
	t.budget = ECDMA_TRIAL_BUDGET;
	sim_run(&t, &worse, ECDMA_TRIAL_EVERY + 4, &r);
	bad += t.load[ECDMA_TRIAL_WRITE].keep ||
	       t.load[ECDMA_TRIAL_WRITE].credit > -30 * ECDMA_TRIAL_EVERY;
	ksft_test_result(!bad, "tie_stays_out (%u wrong, %u permil of slots in)\n",
			 bad, permil);
}

/*
 * Peeked at in parts, a trial's first slot in ends after the first part
 * whose edge the loss passes (50% after one part, down to 10% at the
 * slot's end): a large loss costs md an eighth of a slot, not the slot.
 * A tie under 5% noise is never ended by a part.
 */
static void test_loss_ends_in_parts(void)
{
	static const struct {
		u64 in;
		unsigned int parts;	/* the trial ends after at most */
	} c[] = {
		{ 4000, 1 }, { 6000, 4 }, { 7500, 7 }, { 8500, 8 },
	};
	struct sim_load tie = wins;
	unsigned int bad = 0, i, cost[ARRAY_SIZE(c)];
	struct ecdma_trial t;
	struct sim_res r;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		struct sim_load l = loses;
		u32 loss = 100 - c[i].in / 100;

		l.in = c[i].in;
		l.noise = 2;
		memset(&r, 0, sizeof(r));
		ecdma_trial_init(&t, 100);
		sim_run_peek(&t, &l, 3, &r, true);
		cost[i] = t.cost;
		bad += t.trials != 1 || t.aborted != 1 || !t.out ||
		       r.parts > c[i].parts || r.in_slots != (r.parts == 8);
		/* what the time in lost, give or take the noise */
		bad += t.cost * ECDMA_TRIAL_PARTS >
		       (loss + 5) * r.parts + ECDMA_TRIAL_PARTS;
	}
	tie.in = tie.out;
	ecdma_trial_init(&t, 100);
	memset(&r, 0, sizeof(r));
	sim_run_peek(&t, &tie, 4000, &r, true);
	bad += t.trials < 10 || t.aborted;
	ksft_test_result(!bad, "loss_ends_in_parts (%u wrong, cost %u %u %u %u, %lu ties)\n",
			 bad, cost[0], cost[1], cost[2], cost[3], t.trials);
}

/*
 * A load whose I/O comes in lumps (large blocks, a slow md) shows none in
 * a slot's first parts, in the table or out: a tie runs all four slots,
 * and a loss ends only once the lump has come.
 */
static void test_lumps_not_ended_by_parts(void)
{
	struct sim_load tie = wins, l = loses;
	unsigned int bad = 0;
	struct ecdma_trial t;
	struct sim_res r;

	tie.in = tie.out;
	tie.lumps = true;
	l.lumps = true;
	ecdma_trial_init(&t, 100);
	memset(&r, 0, sizeof(r));
	sim_run_peek(&t, &tie, 4000, &r, true);
	bad += t.trials < 10 || t.aborted;
	ecdma_trial_init(&t, 100);
	memset(&r, 0, sizeof(r));
	sim_run_peek(&t, &l, 3, &r, true);
	bad += t.trials != 1 || t.aborted != 1 ||
	       r.parts <= ECDMA_TRIAL_PARTS / 2;
	ksft_test_result(!bad, "lumps_not_ended_by_parts (%u wrong, a loss ended after %u parts)\n",
			 bad, r.parts);
}

/*
 * A win by 4% (over the 3% margin) joins on a quiet host; under 5% noise
 * per slot the trial's own slots differ by as much, and it stays out.
 */
static void test_win_within_noise_stays_out(void)
{
	struct sim_load l = wins;
	struct ecdma_trial t;
	struct sim_res r = { 0 };
	unsigned int bad = 0, quiet, noisy;

	l.in = l.out * 104 / 100;
	l.noise = 0;
	ecdma_trial_init(&t, ECDMA_TRIAL_BUDGET);
	sim_run(&t, &l, 4000, &r);
	quiet = r.in_slots * 1000 / 4000;
	bad += quiet < 900;
	l.noise = 5;
	memset(&r, 0, sizeof(r));
	ecdma_trial_init(&t, ECDMA_TRIAL_BUDGET);
	sim_run(&t, &l, 100000, &r);
	noisy = r.in_slots * 1000 / 100000;
	bad += noisy > 150;
	ksft_test_result(!bad, "win_within_noise_stays_out (%u wrong, %u / %u permil in)\n",
			 bad, quiet, noisy);
}

/* slots from one trial's end to the next one's start, @n times */
static void pace(struct ecdma_trial *t, const struct sim_load *l,
		 unsigned int *gap, unsigned int n)
{
	struct sim_res r = { 0 };
	unsigned int i = 0, run = 0;
	bool was = false;

	while (i < n) {
		sim_run(t, l, 1, &r);
		if (t->slot && !was)
			gap[i++] = run;
		if (!t->slot)
			run++;
		else
			run = 0;
		was = t->slot;
	}
}

/*
 * While the verdict repeats the trials come half as often each time, up
 * to 16 s in the table and 64 s out of it.
 */
static void test_pace(void)
{
	static const unsigned int want_out[] = { 0, 16, 32, 64, 128, 256, 256 };
	static const unsigned int want_in[] = { 0, 16, 32, 64, 64 };
	struct sim_load small = { .out = 10000, .in = 9500,
				  .kind = ECDMA_TRIAL_SMALL };
	struct sim_load win = wins;
	unsigned int gap[8], bad = 0, i;
	struct ecdma_trial t;

	win.noise = 0;
	ecdma_trial_init(&t, 100);
	pace(&t, &small, gap, ARRAY_SIZE(want_out));
	for (i = 1; i < ARRAY_SIZE(want_out); i++)
		bad += gap[i] != want_out[i];
	ecdma_trial_init(&t, 100);
	pace(&t, &win, gap, ARRAY_SIZE(want_in));
	for (i = 1; i < ARRAY_SIZE(want_in); i++)
		bad += gap[i] != want_in[i];
	ksft_test_result(!bad, "trials_back_off_while_verdict_repeats (%u wrong)\n",
			 bad);
}

/*
 * Budget 0: no trial at all, a kind never judged stays with md alone and
 * a won kind in the table.
 */
static void test_budget_zero(void)
{
	struct sim_load rd = loses;
	struct ecdma_trial t;
	struct sim_res r = { 0 };
	unsigned int bad = 0;

	rd.kind = ECDMA_TRIAL_READ;
	ecdma_trial_init(&t, 100);
	sim_run(&t, &wins, 10, &r);
	WRITE_ONCE(t.budget, 0);
	sim_run(&t, &rd, 1000, &r);
	bad += t.trials != 1 || !t.out;
	memset(&r, 0, sizeof(r));
	sim_run(&t, &wins, 1000, &r);
	bad += t.trials != 1 || r.in_slots < 998;
	ksft_test_result(!bad, "budget_0_no_trials (%u wrong)\n", bad);
}

/*
 * A judged load whose rate halves or doubles for two slots is asked
 * again at once; one such slot is noise.
 */
static void test_rate_change(void)
{
	struct sim_load l = wins, fast = wins;
	struct ecdma_trial t;
	struct sim_res r = { 0 };
	unsigned int bad = 0;

	l.noise = 0;
	fast.noise = 0;
	fast.in *= 3;
	fast.out *= 3;
	ecdma_trial_init(&t, 100);
	sim_run(&t, &l, 10, &r);
	bad += t.trials != 1 || t.slot;
	sim_run(&t, &fast, 1, &r);
	sim_run(&t, &l, 1, &r);
	bad += t.slot != 0;
	sim_run(&t, &fast, 2, &r);
	bad += t.slot != 1;
	ksft_test_result(!bad, "rate_change_asks_again (%u wrong)\n", bad);
}

/*
 * A trial that another kind's I/O ends judges nothing, and that load is
 * the load now: no trial of the old kind starts again on slots of the
 * new one (make perf, 2026-12-02: reads after small writes ended 13
 * trials of the small writes in a row, the reads never judged).
 */
static void test_kind_change_ends_trial(void)
{
	struct sim_load small = loses, rd = loses;
	struct ecdma_trial t;
	struct sim_res r = { 0 };
	unsigned int bad = 0, i;

	small.kind = ECDMA_TRIAL_SMALL;
	rd.kind = ECDMA_TRIAL_READ;
	ecdma_trial_init(&t, ECDMA_TRIAL_BUDGET);
	/* small writes until their first trial has begun */
	for (i = 0; i < 200 && !t.slot; i++)
		sim_run(&t, &small, 1, &r);
	bad += !t.slot || t.tkind != ECDMA_TRIAL_SMALL;
	sim_run(&t, &rd, 40, &r);
	bad += t.thin_trials != 1 || t.cur != ECDMA_TRIAL_READ ||
	       t.load[ECDMA_TRIAL_SMALL].judged || r.in_slots != 0;
	ksft_test_result(!bad, "kind_change_ends_trial (%u wrong, %lu thin trials, load %s)\n",
			 bad, t.thin_trials, ecdma_trial_kind_names[t.cur]);
}

/* What a slot's I/O says the load is */
static void test_kind_of(void)
{
	static const struct {
		struct ecdma_trial_sample s;
		unsigned int kind;
	} c[] = {
		{ { 0, 6000, 8000, 0 }, ECDMA_TRIAL_WRITE },	/* RAID-6 of 8 */
		{ { 0, 2000, 4000, 0 }, ECDMA_TRIAL_WRITE },	/* RAID-6 of 4 */
		{ { 0, 1000, 6000, 0 }, ECDMA_TRIAL_SMALL },	/* RMW */
		{ { 0, 1000, 2600, 0 }, ECDMA_TRIAL_SMALL },
		{ { 5000, 100, 6000, 0 }, ECDMA_TRIAL_READ },
		{ { 100, 0, 9000, 0 }, ECDMA_TRIAL_MD },		/* a check */
		{ { 0, 0, 0, 0 }, ECDMA_TRIAL_MD },
	};
	unsigned int bad = 0, i;

	for (i = 0; i < ARRAY_SIZE(c); i++)
		bad += ecdma_trial_kind_of(&c[i].s) != c[i].kind;
	ksft_test_result(!bad, "kind_of_load (%u wrong)\n", bad);
}

int main(void)
{
	ksft_print_header();
	ksft_set_plan(15);
	test_rng_init();
	test_kind_of();
	test_new_load_waits();
	test_each_load_pays();
	test_losing_costs_budget();
	test_winning_joins();
	test_kinds_remembered();
	test_trial_shapes();
	test_tie_stays_out();
	test_pace();
	test_budget_zero();
	test_rate_change();
	test_kind_change_ends_trial();
	test_loss_ends_in_parts();
	test_lumps_not_ended_by_parts();
	test_win_within_noise_stays_out();
	return ksft_finished();
}
