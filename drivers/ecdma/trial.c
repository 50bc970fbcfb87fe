// SPDX-License-Identifier: GPL-2.0
/*
 * The "auto" offload policy's trials (trial.h; policy.c runs them).  A
 * trial runs up to ECDMA_TRIAL_SLOTS slots, out, in, in, out of async_tx's
 * channel table so that drift hits both states alike, and keeps the device
 * in only if that moved ECDMA_TRIAL_MARGIN percent more I/O, and more than
 * the slots of one state differ among themselves (the host's own noise).
 */
#include "trial.h"

const char *const ecdma_trial_kind_names[ECDMA_TRIAL_KINDS + 1] = {
	[ECDMA_TRIAL_WRITE] = "write",
	[ECDMA_TRIAL_SMALL] = "small_write",
	[ECDMA_TRIAL_READ] = "read",
	[ECDMA_TRIAL_MD] = "md",
	[ECDMA_TRIAL_KINDS] = "none",
};

/**
 * ecdma_trial_init - no load seen yet, the device out of the table
 * @t: the state
 * @budget: percent of a kind's load time its trials may cost
 */
void ecdma_trial_init(struct ecdma_trial *t, unsigned int budget)
{
	unsigned int k;

	memset(t, 0, sizeof(*t));
	t->budget = budget;
	for (k = 0; k < ECDMA_TRIAL_KINDS; k++)
		t->load[k].guess = ECDMA_TRIAL_CREDIT_MAX;
	t->cur = ECDMA_TRIAL_KINDS;
	t->out = true;
}

/**
 * ecdma_trial_kind_of - the kind of load a slot's I/O shows
 * @s: the slot's sectors, at least ECDMA_TRIAL_MIN_IO of one signal
 *
 * Member sectors per sector written tell full stripes ((k+2)/k) from small
 * writes (RMW), alike in and out of the table.
 * Return: an enum ecdma_trial_kind other than ECDMA_TRIAL_KINDS.
 */
unsigned int ecdma_trial_kind_of(const struct ecdma_trial_sample *s)
{
	if (s->rd + s->wr < ECDMA_TRIAL_MIN_IO)
		return ECDMA_TRIAL_MD;
	if (s->rd > s->wr)
		return ECDMA_TRIAL_READ;
	return 2 * s->md > 5 * s->wr ? ECDMA_TRIAL_SMALL : ECDMA_TRIAL_WRITE;
}

/* What slot @slot of a trial runs in: out for the first and the last */
static bool ecdma_trial_slot_out(unsigned int slot)
{
	return slot == 1 || slot == ECDMA_TRIAL_SLOTS;
}

/* @s's signal for a trial of @kind, scaled to one ECDMA_TRIAL_SLOT_MS */
static u64 ecdma_trial_scaled(const struct ecdma_trial_sample *s,
			      unsigned int kind)
{
	u64 v = kind == ECDMA_TRIAL_MD ? s->md : s->rd + s->wr;
	u32 us = s->us ? max_t(u32, s->us, 1000) : ECDMA_TRIAL_SLOT_MS * 1000;

	return div_u64(v * ECDMA_TRIAL_SLOT_MS * 1000, us);
}

static u64 ecdma_trial_diff(u64 a, u64 b)
{
	return a > b ? a - b : b - a;
}

/* Slot 1 of a trial of the load now comes next */
static void ecdma_trial_start(struct ecdma_trial *t)
{
	t->sum[0] = 0;
	t->sum[1] = 0;
	memset(t->val, 0, sizeof(t->val));
	memset(t->part, 0, sizeof(t->part));
	t->thin = false;
	WRITE_ONCE(t->slot, 1);
	t->out = ecdma_trial_slot_out(1);
}

/*
 * After @n slots in (@parts of ECDMA_TRIAL_PARTS in the table) and @n out:
 * stay in only if that moved more I/O, by more than the slots of one state
 * differ (a whole trial: noise must not win); what the time in lost is
 * charged to the kind's credit.  A thin slot out (load ended) judges
 * nothing; thin slots in are ecdma's doing: a loss.
 */
static void ecdma_trial_decide(struct ecdma_trial *t, unsigned int n,
			       unsigned int parts)
{
	struct ecdma_trial_load *l = &t->load[t->tkind];
	u64 in = t->sum[0], out = t->sum[1];
	u64 noise = ecdma_trial_diff(t->val[0], t->val[3]) +
		    ecdma_trial_diff(t->val[1], t->val[2]);
	bool keep = !t->thin && n == ECDMA_TRIAL_SLOTS / 2 &&
		    in * 100 > out * (100 + ECDMA_TRIAL_MARGIN) &&
		    in - out > noise;
	bool was_in = l->judged && l->keep;
	u32 loss = 0, charge;

	WRITE_ONCE(t->last[0], in);
	WRITE_ONCE(t->last[1], out);
	if (keep && !was_in && !t->confirm) {
		/* a first win: confirm it at once (a tie can win by noise) */
		t->confirm = true;
		ecdma_trial_start(t);
		return;
	}
	t->confirm = false;
	if (!t->thin && in < out)
		loss = 100 - div_u64(in * 100, out);
	charge = DIV_ROUND_UP(loss * parts, ECDMA_TRIAL_PARTS);
	/* the next trial is taken to risk what this one lost */
	if (!t->thin)
		l->guess = min_t(u32, charge, ECDMA_TRIAL_CREDIT_MAX);
	/* in the table since the kind's last trial: that was a loss too */
	if (was_in && !t->thin && l->wait > 2 * n)
		charge += loss * (l->wait - 2 * n);
	l->credit -= (s32)min_t(u32, charge, S32_MAX / 2);
	WRITE_ONCE(t->cost, t->cost + charge);
	l->wait = 0;
	if (!t->thin) {
		if (l->judged && keep == l->keep)
			l->every = min_t(u32, 2 * l->every,
					 keep ? ECDMA_TRIAL_EVERY_IN :
						ECDMA_TRIAL_EVERY_OUT);
		else
			l->every = ECDMA_TRIAL_EVERY;
		l->judged = true;
		l->keep = keep;
	}
	t->level = div_u64(keep ? in : out, n);
	t->moved = 0;
	t->out = !keep;
	if (n < ECDMA_TRIAL_SLOTS / 2)
		WRITE_ONCE(t->aborted, t->aborted + 1);
	if (keep)
		WRITE_ONCE(t->kept, t->kept + 1);
	if (t->thin)
		WRITE_ONCE(t->thin_trials, t->thin_trials + 1);
	/* @kept before @trials; pairs with smp_rmb() in ecdma_policy_state() */
	smp_wmb();
	WRITE_ONCE(t->trials, t->trials + 1);
	WRITE_ONCE(t->slot, 0);
}

/* A trial slot ran: count it, go on or decide; a new kind's I/O ends it */
static void ecdma_trial_step(struct ecdma_trial *t,
			     const struct ecdma_trial_sample *s, bool was_out,
			     unsigned int kind)
{
	/* a trial keeps the signal it started with */
	u64 raw = t->tkind == ECDMA_TRIAL_MD ? s->md : s->rd + s->wr;
	u64 kv = kind == ECDMA_TRIAL_MD ? s->md : s->rd + s->wr;
	u64 v = ecdma_trial_scaled(s, t->tkind);

	t->run = min_t(unsigned int, t->run + 1, ECDMA_TRIAL_CREDIT_MAX);
	t->val[t->slot - 1] = v;
	t->sum[was_out] += v;
	if (kind != t->tkind && kv >= ECDMA_TRIAL_MIN_IO) {
		t->thin = true;
		ecdma_trial_decide(t, ECDMA_TRIAL_SLOTS / 2,
				   ECDMA_TRIAL_SLOTS / 2 * ECDMA_TRIAL_PARTS);
		/* the load now: else the old kind's trial starts again */
		WRITE_ONCE(t->cur, kind);
		t->level = kv;
		t->run = 1;
		return;
	}
	/*
	 * Out of the table, md alone: the load ended or paused.  The trial
	 * judges nothing and ends here: its slots in would have put the next
	 * load in the table unasked, and charged it nothing.
	 */
	if (was_out && raw < ECDMA_TRIAL_MIN_IO) {
		t->thin = true;
		ecdma_trial_decide(t, ECDMA_TRIAL_SLOTS / 2,
				   ECDMA_TRIAL_SLOTS / 2 * ECDMA_TRIAL_PARTS);
		ecdma_trial_rest(t);
		return;
	}
	if (t->slot == 2 &&
	    t->sum[0] * 100 < t->sum[1] * (100 - ECDMA_TRIAL_ABORT)) {
		ecdma_trial_decide(t, 1, ECDMA_TRIAL_PARTS);
	} else if (t->slot == ECDMA_TRIAL_SLOTS) {
		ecdma_trial_decide(t, ECDMA_TRIAL_SLOTS / 2,
				   ECDMA_TRIAL_SLOTS / 2 * ECDMA_TRIAL_PARTS);
	} else {
		WRITE_ONCE(t->slot, t->slot + 1);
		t->out = ecdma_trial_slot_out(t->slot);
	}
}

/* Between trials: follow the load; start a trial when due and paid for */
static void ecdma_trial_idle(struct ecdma_trial *t, unsigned int kind, u64 v)
{
	struct ecdma_trial_load *l;
	unsigned int budget;
	bool changed = false;

	if (t->cur == ECDMA_TRIAL_KINDS) {
		/* a load begins */
		WRITE_ONCE(t->cur, kind);
		t->level = v;
		t->moved = 0;
		t->run = 0;
	} else if (kind != t->cur || v > 2 * t->level || 2 * v < t->level) {
		if (++t->moved >= 2) {
			WRITE_ONCE(t->cur, kind);
			t->level = v;
			t->moved = 0;
			t->run = 0;
			changed = true;
		}
	} else {
		t->moved = 0;
	}
	t->run = min_t(unsigned int, t->run + 1, ECDMA_TRIAL_CREDIT_MAX);
	l = &t->load[t->cur];
	t->out = !(l->judged && l->keep);
	budget = READ_ONCE(t->budget);
	if (!budget || l->credit < (s32)l->guess)
		return;
	/*
	 * The load now must have earned the trial by itself: credit earned
	 * over many short loads would spend it all in one of them (design.rst).
	 * A trial pays off only in a load that goes on after it, and one that
	 * has run longer is likely to run longer still.  A guess measured in
	 * one slot under noise may be an eighth short: that too.
	 */
	if (t->run * budget < l->guess + (l->judged ? l->guess / 8 : 0))
		return;
	if (l->judged && !changed && l->wait < l->every)
		return;
	t->tkind = t->cur;
	t->confirm = false;
	ecdma_trial_start(t);
}

/**
 * ecdma_trial_slot - a slot ended: account it, say where the next runs
 * @t: the state
 * @s: what the slot moved
 * @was_out: the device was out of the table during the slot
 * Return: true for the next slot out of the table, false in it.
 */
bool ecdma_trial_slot(struct ecdma_trial *t,
		      const struct ecdma_trial_sample *s, bool was_out)
{
	u64 user = s->rd + s->wr;
	u64 v = user < ECDMA_TRIAL_MIN_IO ? s->md : user;
	unsigned int kind = ecdma_trial_kind_of(s);
	unsigned int budget = READ_ONCE(t->budget);

	if (v >= ECDMA_TRIAL_MIN_IO) {
		struct ecdma_trial_load *l = &t->load[kind];

		l->wait++;
		l->credit = min_t(s32, l->credit + (s32)budget,
				  ECDMA_TRIAL_CREDIT_MAX);
	}
	if (t->slot)
		ecdma_trial_step(t, s, was_out, kind);
	else if (v < ECDMA_TRIAL_MIN_IO)
		ecdma_trial_rest(t);
	else
		ecdma_trial_idle(t, kind, v);
	return t->out;
}

/**
 * ecdma_trial_peek - part of a trial's first slot out or in ran
 * @t: the state
 * @s: what the slot moved so far, in @s->us
 * @part: parts of ECDMA_TRIAL_PARTS it ran, 1 .. ECDMA_TRIAL_PARTS - 1
 *
 * Slot 1's parts tell how far a part strays from its slot (bursts of
 * large I/O, a slow load: far); in slot 2 a plain loss ends the trial.
 * The earlier the part, the larger the loss it takes (ECDMA_TRIAL_ABORT_PART
 * after one, down to ECDMA_TRIAL_ABORT at the slot's end), and twice what
 * slot 1 strayed at that part: a large loss shows early, and md pays for
 * every part of it.
 * Return: true if the trial ended and the device is to leave the table.
 */
bool ecdma_trial_peek(struct ecdma_trial *t,
		      const struct ecdma_trial_sample *s, unsigned int part)
{
	u64 v, out = t->sum[1];
	unsigned int edge;

	if (t->thin || !part || part >= ECDMA_TRIAL_PARTS)
		return false;
	v = ecdma_trial_scaled(s, t->tkind);
	if (t->slot == 1)
		t->part[part] = v;
	if (t->slot != 2)
		return false;
	edge = ECDMA_TRIAL_ABORT +
	       (ECDMA_TRIAL_ABORT_PART - ECDMA_TRIAL_ABORT) *
	       (ECDMA_TRIAL_PARTS - part) / (ECDMA_TRIAL_PARTS - 1);
	if (v * 100 >= out * (100 - edge) ||
	    out - v <= 2 * ecdma_trial_diff(t->part[part], out))
		return false;
	t->val[1] = v;
	t->sum[0] = v;
	ecdma_trial_decide(t, 1, part);
	return true;
}

/**
 * ecdma_trial_rest - no load: end any trial, rest out; kinds keep verdicts
 * @t: the state
 */
void ecdma_trial_rest(struct ecdma_trial *t)
{
	WRITE_ONCE(t->slot, 0);
	t->confirm = false;
	WRITE_ONCE(t->cur, ECDMA_TRIAL_KINDS);
	t->level = 0;
	t->moved = 0;
	t->run = 0;
	t->out = true;
}
