/* SPDX-License-Identifier: GPL-2.0 */
/* "auto" trials (pure code): run when a load's credit covers its last loss */
#ifndef _ECDMA_TRIAL_H
#define _ECDMA_TRIAL_H

#include "ecdma_compat.h"

#define ECDMA_TRIAL_SLOT_MS	250	/* a slot, and the wait unit (ms) */
#define ECDMA_TRIAL_SLOTS	4	/* out, in, in, out */
#define ECDMA_TRIAL_MARGIN	3	/* % more I/O in the table to stay in */
#define ECDMA_TRIAL_ABORT	10	/* % less in first slot in: end there */
/* the first slot in is judged at each of its parts: a plain loss ends early */
#define ECDMA_TRIAL_PARTS	8
#define ECDMA_TRIAL_ABORT_PART	50	/* % less after one part: end there */
/* slots between trials, doubling on repeats; _OUT larger: asking costs md */
#define ECDMA_TRIAL_EVERY	16
#define ECDMA_TRIAL_EVERY_IN	64
#define ECDMA_TRIAL_EVERY_OUT	256
/* sectors per slot to judge: above superblock writes, low for slow md */
#define ECDMA_TRIAL_MIN_IO	128
#define ECDMA_TRIAL_BUDGET	2	/* default % of time trials may cost */
#define ECDMA_TRIAL_CREDIT_MAX	100	/* percent-slots: one slot lost whole */

/**
 * enum ecdma_trial_kind - kinds of load, each with its own verdict
 * @ECDMA_TRIAL_WRITE: users' writes md passes on at most 2.5x (full stripes)
 * @ECDMA_TRIAL_SMALL: users' writes md multiplies more (RMW, reconstruct)
 * @ECDMA_TRIAL_READ: users' reads (with a failed member: reconstruction)
 * @ECDMA_TRIAL_MD: md's own I/O (resync, recovery, check): member sectors
 * @ECDMA_TRIAL_KINDS: the number of kinds, and "no load"
 */
enum ecdma_trial_kind {
	ECDMA_TRIAL_WRITE,
	ECDMA_TRIAL_SMALL,
	ECDMA_TRIAL_READ,
	ECDMA_TRIAL_MD,
	ECDMA_TRIAL_KINDS
};

extern const char *const ecdma_trial_kind_names[ECDMA_TRIAL_KINDS + 1];

/**
 * struct ecdma_trial_sample - what one slot moved (sectors)
 * @rd: read from above the block layer (PGPGIN)
 * @wr: written from above (PGPGOUT)
 * @md: sent by md arrays to their members
 * @us: the time it took (us), 0: ECDMA_TRIAL_SLOT_MS
 */
struct ecdma_trial_sample {
	u64 rd;
	u64 wr;
	u64 md;
	u32 us;
};

/**
 * struct ecdma_trial_load - what the trials know of one kind of load
 * @wait: slots of it since its last trial
 * @every: slots between its trials now (ECDMA_TRIAL_EVERY...)
 * @credit: what its next trials may cost (percent-slots, can be < 0)
 * @guess: last trial's cost per slot risked, assumed for the next (or max)
 * @judged: it had a verdict
 * @keep: the verdict: in the table
 */
struct ecdma_trial_load {
	u32 wait;
	u32 every;
	s32 credit;
	u32 guess;
	bool judged;
	bool keep;
};

/**
 * struct ecdma_trial - trials' state; one writer, * fields read by sysfs
 * @budget: percent of a kind's time trials may cost, 0: none (sysfs sets)
 * @load: per kind
 * @cur: kind of the load now; ECDMA_TRIAL_KINDS while there is none *
 * @slot: 0 between trials, else the slot running (1..ECDMA_TRIAL_SLOTS) *
 * @tkind: kind the running or last trial judges *
 * @sum: I/O of this trial's slots in ([0]) and out of ([1]) the table,
 *	each slot's scaled to ECDMA_TRIAL_SLOT_MS
 * @val: each slot's part of @sum
 * @part: slot 1's I/O after each of its parts, scaled to a slot: how far
 *	a part's rate strays from its slot's on this host and load
 * @thin: a slot out of the table had too little I/O to judge
 * @confirm: the trial running confirms a first win before moving in
 * @level: I/O per slot of the state last chosen
 * @moved: slots in a row off @level (under half, over twice) or not @cur
 * @run: slots the load now has run since it began (no slot without I/O, no
 *	change of kind or rate), up to ECDMA_TRIAL_CREDIT_MAX
 * @out: the table state asked for: out of it
 * @trials: trials so far *
 * @kept: trials that kept the device in the table *
 * @aborted: trials ended after their first slot in the table *
 * @thin_trials: trials that judged nothing (@thin): pace and verdict kept *
 * @last: the last trial's @sum, in and out *
 * @cost: all trials' cost so far (percent-slots) *
 */
struct ecdma_trial {
	unsigned int budget;
	struct ecdma_trial_load load[ECDMA_TRIAL_KINDS];
	unsigned int cur;
	unsigned int slot;
	unsigned int tkind;
	u64 sum[2];
	u64 val[ECDMA_TRIAL_SLOTS];
	u64 part[ECDMA_TRIAL_PARTS];
	bool thin;
	bool confirm;
	u64 level;
	unsigned int moved;
	unsigned int run;
	bool out;
	unsigned long trials;
	unsigned long kept;
	unsigned long aborted;
	unsigned long thin_trials;
	u64 last[2];
	u64 cost;
};

void ecdma_trial_init(struct ecdma_trial *t, unsigned int budget);
bool ecdma_trial_slot(struct ecdma_trial *t,
		      const struct ecdma_trial_sample *s, bool was_out);
bool ecdma_trial_peek(struct ecdma_trial *t,
		      const struct ecdma_trial_sample *s, unsigned int part);
void ecdma_trial_rest(struct ecdma_trial *t);
unsigned int ecdma_trial_kind_of(const struct ecdma_trial_sample *s);

/* Resting: no load and no trial; the device is out of the table */
static inline bool ecdma_trial_resting(const struct ecdma_trial *t)
{
	return t->cur == ECDMA_TRIAL_KINDS && !t->slot;
}

static inline unsigned int ecdma_trial_every(const struct ecdma_trial *t)
{
	unsigned int cur = READ_ONCE(t->cur);

	return cur < ECDMA_TRIAL_KINDS ? READ_ONCE(t->load[cur].every) : 0;
}

#endif /* _ECDMA_TRIAL_H */
