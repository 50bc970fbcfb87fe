// SPDX-License-Identifier: GPL-2.0
/*
 * The trials of the "auto" offload policy (trial.h; policy.c runs them).
 *
 * A trial is up to ECDMA_TRIAL_SLOTS slots: out of async_tx's channel
 * table, in, in, out, so that drift hits both states alike; the device
 * stays in only if that moved ECDMA_TRIAL_MARGIN percent more I/O.  When
 * the first slot in already moved ECDMA_TRIAL_ABORT percent less than the
 * one out, the trial ends there: the loss is plain and a second slot would
 * only pay for it again.
 *
 * Each kind of load (enum ecdma_trial_kind) keeps its verdict, its pace
 * and its credit, so a load md carries better alone pays for a trial only
 * as often as the budget allows however it comes (one long load or many
 * short ones), and a kind ecdma won goes back into the table as soon as
 * it is seen again.  Because a verdict outlives the load it came from, a
 * first win is asked again before the device moves in, and a kind that
 * turns out to lose after a time in the table pays for all that time.
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
 * md's member I/O per sector written tells full stripes (k+2 member
 * sectors for k, 2x at most at k = 2) from small writes (a 4 KiB write
 * reads and writes 4 to 8 blocks): the same in and out of the table.
 *
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

/* Slot 1 of a trial of the load now comes next */
static void ecdma_trial_start(struct ecdma_trial *t)
{
	t->sum[0] = 0;
	t->sum[1] = 0;
	t->thin = false;
	WRITE_ONCE(t->slot, 1);
	t->out = ecdma_trial_slot_out(1);
}

/*
 * The trial is over after @n slots in and as many out: stay in only if
 * that moved more I/O.  What the slots in lost against the ones out is
 * the trial's cost, paid from the kind's credit.  A slot out of the
 * table with too little I/O (the load ended, or paused) makes the trial
 * judge nothing: out, the state a device without a load rests in, and
 * the kind's verdict as it was.  Slots in the table with too little are
 * what ecdma did to the load (md's check stalled so in TCG): a loss.
 */
static void ecdma_trial_decide(struct ecdma_trial *t, unsigned int n)
{
	struct ecdma_trial_load *l = &t->load[t->tkind];
	u64 in = t->sum[0], out = t->sum[1];
	bool keep = !t->thin && in * 100 > out * (100 + ECDMA_TRIAL_MARGIN);
	bool was_in = l->judged && l->keep;
	u32 loss = 0, charge;

	WRITE_ONCE(t->last[0], in);
	WRITE_ONCE(t->last[1], out);
	if (keep && !was_in && !t->confirm) {
		/*
		 * A first win: ask again at once before moving in.  Under
		 * 5% noise per slot a tie wins about one trial in seven,
		 * two in a row about one in fifty.
		 */
		t->confirm = true;
		ecdma_trial_start(t);
		return;
	}
	t->confirm = false;
	if (!t->thin && in < out)
		loss = 100 - div_u64(in * 100, out);
	charge = loss * n;
	/* in the table since the kind's last trial: that was a loss too */
	if (was_in && !t->thin && l->wait > 2 * n)
		charge += loss * (l->wait - 2 * n);
	l->credit -= (s32)min_t(u32, charge, S32_MAX / 2);
	WRITE_ONCE(t->cost, t->cost + charge);
	l->wait = 0;
	if (!t->thin) {
		/* the next trial risks one slot if this loss ends it early */
		l->guess = min_t(u32, loss * (loss >= ECDMA_TRIAL_ABORT ? 1 : 2),
				 ECDMA_TRIAL_CREDIT_MAX);
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
	/* kept before trials: a reader seeing the new trial sees its verdict */
	smp_wmb();
	WRITE_ONCE(t->trials, t->trials + 1);
	WRITE_ONCE(t->slot, 0);
}

/*
 * A slot of a trial ran: count it, then go on or decide.  Another kind of
 * load with I/O of its own (a rebuild after the reads the trial began
 * on) ends the trial at once: it would judge the new load by the old
 * one's signal, and run it in the table meanwhile.
 */
static void ecdma_trial_step(struct ecdma_trial *t,
			     const struct ecdma_trial_sample *s, bool was_out,
			     unsigned int kind)
{
	/* a trial keeps the signal it started with */
	u64 v = t->tkind == ECDMA_TRIAL_MD ? s->md : s->rd + s->wr;
	u64 kv = kind == ECDMA_TRIAL_MD ? s->md : s->rd + s->wr;

	t->sum[was_out] += v;
	if (kind != t->tkind && kv >= ECDMA_TRIAL_MIN_IO) {
		t->thin = true;
		ecdma_trial_decide(t, ECDMA_TRIAL_SLOTS / 2);
		return;
	}
	/* out of the table, md alone: the load ended or paused */
	if (was_out && v < ECDMA_TRIAL_MIN_IO)
		t->thin = true;
	if (t->slot == 2 && !t->thin &&
	    t->sum[0] * 100 < t->sum[1] * (100 - ECDMA_TRIAL_ABORT)) {
		ecdma_trial_decide(t, 1);
	} else if (t->slot == ECDMA_TRIAL_SLOTS) {
		ecdma_trial_decide(t, ECDMA_TRIAL_SLOTS / 2);
	} else {
		WRITE_ONCE(t->slot, t->slot + 1);
		t->out = ecdma_trial_slot_out(t->slot);
	}
}

/*
 * Between trials: follow the load's kind (a change counts after two
 * slots, one is noise or a load's end), take its verdict, and start a
 * trial when one is due and the kind's credit pays for it.
 */
static void ecdma_trial_idle(struct ecdma_trial *t, unsigned int kind, u64 v)
{
	struct ecdma_trial_load *l;
	bool changed = false;

	if (t->cur == ECDMA_TRIAL_KINDS) {
		/* a load begins */
		WRITE_ONCE(t->cur, kind);
		t->level = v;
		t->moved = 0;
	} else if (kind != t->cur || v > 2 * t->level || 2 * v < t->level) {
		if (++t->moved >= 2) {
			WRITE_ONCE(t->cur, kind);
			t->level = v;
			t->moved = 0;
			changed = true;
		}
	} else {
		t->moved = 0;
	}
	l = &t->load[t->cur];
	t->out = !(l->judged && l->keep);
	if (!READ_ONCE(t->budget) || l->credit < (s32)l->guess)
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
 *
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
 * ecdma_trial_rest - no load to judge: end any trial, rest out
 * @t: the state
 *
 * Every kind keeps its verdict, pace and credit for its next load.
 */
void ecdma_trial_rest(struct ecdma_trial *t)
{
	WRITE_ONCE(t->slot, 0);
	t->confirm = false;
	WRITE_ONCE(t->cur, ECDMA_TRIAL_KINDS);
	t->level = 0;
	t->moved = 0;
	t->out = true;
}
