// SPDX-License-Identifier: GPL-2.0
/*
 * ecdmactl md: every md array (/sys/block/md<N>/md/), and whether
 * async_tx can hand its parity to ecdma now; when not, why.  Also read by
 * doctor.c.  ecdma's counters are per device, never per array.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ecdmactl.h"

static int has_word(const char *list, const char *word)
{
	size_t l = strlen(word);
	const char *p;

	for (p = list; (p = strstr(p, word)); p += l)
		if ((p == list || p[-1] == ' ') && (!p[l] || p[l] == ' '))
			return 1;
	return 0;
}

/*
 * The value of key=value in offload_state; key "decision" is its first
 * word (accept or decline).  0 when found.
 */
int state_field(const char *state, const char *key, char *out, size_t len)
{
	size_t kl = strlen(key);
	const char *p = state, *end;

	if (!strcmp(key, "decision")) {
		snprintf(out, len, "%.*s", (int)strcspn(state, " "), state);
		return *out && !strchr(out, '=') ? 0 : -ENOENT;
	}
	while (*p) {
		end = p + strcspn(p, " ");
		if (!strncmp(p, key, kl) && p[kl] == '=') {
			snprintf(out, len, "%.*s", (int)(end - p - kl - 1),
				 p + kl + 1);
			return 0;
		}
		p = *end ? end + 1 : end;
	}
	*out = 0;
	return -ENOENT;
}

void ecdma_view_read(struct ecdma_view *v)
{
	char path[2048], buf[256], attr[64], name[64];
	int i, n;

	memset(v, 0, sizeof(*v));
	v->async_tx = -1;
	snprintf(path, sizeof(path), "%s/module/ecdma", root);
	v->loaded = !access(path, F_OK);
	snprintf(path, sizeof(path), "%s/module/ecdma/version", root);
	if (file_read(path, v->version, sizeof(v->version)))
		v->version[0] = 0;
	v->registered = !access(devdir, F_OK);
	if (!v->registered)
		return;
	if (attr_read("offload", v->offload, sizeof(v->offload)))
		v->offload[0] = 0;
	if (attr_read("offload_state", v->state, sizeof(v->state)))
		v->state[0] = 0;
	if (!attr_read("caps/ops", buf, sizeof(buf)))
		v->async_tx = has_word(buf, "async_tx");
	n = (int)attr_u64("channels");
	for (i = 0; i < n; i++) {
		snprintf(attr, sizeof(attr), "chan%d/dma_chan", i);
		if (attr_read(attr, name, sizeof(name)))
			continue;
		v->chans++;
		snprintf(path, sizeof(path), "%s/class/dma/%s/in_use", root,
			 name);
		if (file_read(path, buf, sizeof(buf)))
			continue;
		v->chans_known++;
		v->chans_in_use += !strcmp(buf, "1");
	}
}

/* dir/file into buf; a missing file is "" unless needed */
static void md_get(const char *dir, const char *file, char *buf, size_t len,
		   int need)
{
	char path[4096];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	ret = file_read(path, buf, len);
	if (ret == -ENOENT && !need) {
		*buf = 0;
		return;
	}
	if (ret)
		die(errno_exit(-ret), "cannot read %s: %s", path,
		    strerror(-ret));
}

static void md_number(const char *dir, const char *file, char *buf,
		      size_t len, int need)
{
	md_get(dir, file, buf, len, need);
	if (*buf && !is_number(buf))
		die(EXIT_IO, "%s/%s: '%s' is not a number", dir, file, buf);
}

static const char *const array_states[] = {
	"clear", "inactive", "suspended", "readonly", "read-auto", "clean",
	"active", "write-pending", "active-idle", "broken", NULL
};

static void md_read(const char *dir, struct md_array *a)
{
	char **devs = NULL, sub[4200];
	const char *c;
	int i, n;

	md_get(dir, "level", a->level, sizeof(a->level), 1);
	for (c = a->level; *c; c++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789-", *c))
			die(EXIT_IO, "%s/level: unexpected '%s'", dir,
			    a->level);
	md_get(dir, "array_state", a->array_state, sizeof(a->array_state), 1);
	for (i = 0; array_states[i]; i++)
		if (!strcmp(a->array_state, array_states[i]))
			break;
	if (!array_states[i])
		die(EXIT_IO, "%s/array_state: unexpected '%s'", dir,
		    a->array_state);
	md_number(dir, "raid_disks", a->raid_disks, sizeof(a->raid_disks), 1);
	md_number(dir, "degraded", a->degraded, sizeof(a->degraded), 0);
	md_get(dir, "sync_action", a->sync_action, sizeof(a->sync_action), 0);
	md_number(dir, "group_thread_cnt", a->gtc, sizeof(a->gtc), 0);
	md_number(dir, "stripe_cache_size", a->stripes, sizeof(a->stripes), 0);
	md_number(dir, "rmw_level", a->rmw_level, sizeof(a->rmw_level), 0);
	md_get(dir, "consistency_policy", a->consistency,
	       sizeof(a->consistency), 0);
	md_get(dir, "journal_mode", a->journal_mode, sizeof(a->journal_mode),
	       0);
	md_get(dir, "reshape_position", a->reshape, sizeof(a->reshape), 0);

	n = dir_names(dir, 1, &devs);
	if (n < 0)
		die(errno_exit(-n), "cannot list %s: %s", dir, strerror(-n));
	a->members = calloc(n ? n : 1, sizeof(*a->members));
	if (!a->members)
		die(EXIT_IO, "out of memory");
	for (i = 0; i < n; i++) {
		struct md_member *m = &a->members[a->nmembers];

		if (strncmp(devs[i], "dev-", 4))
			continue;
		snprintf(m->name, sizeof(m->name), "%s", devs[i] + 4);
		snprintf(sub, sizeof(sub), "%s/%s", dir, devs[i]);
		md_get(sub, "state", m->state, sizeof(m->state), 0);
		a->nmembers++;
	}
	free_names(devs, n);
}

static int is_parity_level(const char *level)
{
	return !strcmp(level, "raid4") || !strcmp(level, "raid5") ||
	       !strcmp(level, "raid6");
}

static void say(struct md_array *a, enum md_offload cls, const char *fmt, ...)
{
	va_list ap;

	a->offload = cls;
	va_start(ap, fmt);
	vsnprintf(a->reason, sizeof(a->reason), fmt, ap);
	va_end(ap);
}

/* Can async_tx use ecdma for this array now?  Sets offload, reason, fix. */
static void md_judge(const struct ecdma_view *v, struct md_array *a)
{
	char table[16], slot[8], load[16], word[16], every[16], t[4][24];
	char verdict[160];

	a->fix[0] = 0;
	if (!strcmp(a->array_state, "inactive") ||
	    !strcmp(a->array_state, "clear") || !*a->level) {
		say(a, MD_NO_PARITY, "the array is not running (array_state %s)",
		    a->array_state);
		return;
	}
	if (!is_parity_level(a->level)) {
		say(a, MD_NO_PARITY,
		    "%s computes no parity through async_tx (only raid4, raid5 and raid6 do)",
		    a->level);
		return;
	}
	if (!v->registered) {
		if (v->loaded) {
			say(a, MD_BLOCKED,
			    "ecdma is loaded but registered no device");
			snprintf(a->fix, sizeof(a->fix),
				 "dmesg | grep ecdma says why the probe refused; ecdmactl doctor");
		} else {
			say(a, MD_BLOCKED, "ecdma is not loaded");
			snprintf(a->fix, sizeof(a->fix),
				 "modprobe ecdma; ecdmactl doctor if it refuses");
		}
		return;
	}
	if (!strcmp(v->offload, "never")) {
		say(a, MD_BLOCKED,
		    "offload=never: ecdma declines and stays out of async_tx's channel table, md computes everything");
		snprintf(a->fix, sizeof(a->fix), "ecdmactl set offload auto");
		return;
	}
	state_field(v->state, "table", table, sizeof(table));
	state_field(v->state, "trial_slot", slot, sizeof(slot));
	state_field(v->state, "load", load, sizeof(load));
	if (!strcmp(table, "withdrawn")) {
		state_field(v->state, "trials", t[0], sizeof(t[0]));
		state_field(v->state, "kept", t[1], sizeof(t[1]));
		state_field(v->state, "last_trial_io", t[2], sizeof(t[2]));
		state_field(v->state, "trial_cost_ms", t[3], sizeof(t[3]));
		state_field(v->state, "trial_every_ms", every, sizeof(every));
		snprintf(verdict, sizeof(verdict),
			 "trials %s, kept %s, last_trial_io %s sectors in/out, trial_cost_ms %s",
			 t[0], t[1], t[2], t[3]);
		if (!strcmp(slot, "1") || !strcmp(slot, "4"))
			say(a, MD_POLICY,
			    "out of async_tx's channel table for an auto trial (slot %s of 4, %s load; %s)",
			    slot, load, verdict);
		else if (!*load || !strcmp(load, "none"))
			say(a, MD_POLICY,
			    "out of async_tx's channel table, resting: no I/O to judge, a load starts with md alone (%s)",
			    verdict);
		else if (!strcmp(v->offload, "auto") && !strcmp(every, "0"))
			say(a, MD_POLICY,
			    "out of async_tx's channel table: the %s load is not judged yet, md alone until its first trial (%s)",
			    load, verdict);
		else if (!strcmp(v->offload, "auto"))
			say(a, MD_POLICY,
			    "out of async_tx's channel table: auto's verdict for the %s load is md alone (%s)",
			    load, verdict);
		else
			say(a, MD_POLICY,
			    "out of async_tx's channel table (offload=%s puts it back; %s)",
			    v->offload, verdict);
		return;
	}
	if (!v->async_tx) {
		say(a, MD_BLOCKED,
		    "ecdma's caps/ops lacks async_tx while in the table (a caps/enable_<op> is 0), so async_tx never picks it");
		snprintf(a->fix, sizeof(a->fix),
			 "with raid456 and async_tx unloaded, ecdmactl set caps/enable_<op> 1 for each op");
		return;
	}
	if (v->chans_known && !v->chans_in_use) {
		say(a, MD_BLOCKED,
		    "async_tx holds none of ecdma's %d channels (in_use 0 under %s/class/dma)",
		    v->chans, root);
		snprintf(a->fix, sizeof(a->fix),
			 "stop the arrays, modprobe -r raid456 async_tx (and the async_* modules), modprobe raid456, assemble again");
		return;
	}
	state_field(v->state, "decision", word, sizeof(word));
	if (!strcmp(word, "decline") && !strcmp(a->level, "raid6")) {
		say(a, MD_DECLINING,
		    "in async_tx's channel table, but auto declines P+Q while every CPU is busy (XOR and recovery still come)");
		return;
	}
	say(a, MD_OFFLOADED,
	    "async_tx hands md's parity to ecdma (offload=%s, %s, %s%s%s)",
	    *v->offload ? v->offload : "?",
	    *table ? "in async_tx's channel table" : "offload_state unreadable",
	    !strcmp(word, "accept") ? "accepting" : *word ? word : "?",
	    !strcmp(slot, "2") || !strcmp(slot, "3") ? ", an auto trial slot " : "",
	    !strcmp(slot, "2") || !strcmp(slot, "3") ? slot : "");
}

int md_scan(const struct ecdma_view *v, struct md_array **arrays)
{
	char path[1100], dir[2400], **names = NULL;
	int i, n, cnt = 0;

	snprintf(path, sizeof(path), "%s/block", root);
	*arrays = NULL;
	n = dir_names(path, 1, &names);
	if (n == -ENOENT)
		return 0;
	if (n < 0)
		die(errno_exit(-n), "cannot list %s: %s", path, strerror(-n));
	*arrays = calloc(n ? n : 1, sizeof(**arrays));
	if (!*arrays)
		die(EXIT_IO, "out of memory");
	for (i = 0; i < n; i++) {
		struct md_array *a = &(*arrays)[cnt];

		if (strncmp(names[i], "md", 2))
			continue;
		snprintf(dir, sizeof(dir), "%s/%s/md", path, names[i]);
		if (access(dir, F_OK))
			continue;
		snprintf(a->name, sizeof(a->name), "%s", names[i]);
		md_read(dir, a);
		md_judge(v, a);
		cnt++;
	}
	free_names(names, n);
	return cnt;
}

void md_free(struct md_array *a, int n)
{
	while (n--)
		free(a[n].members);
	free(a);
}

static const char *const offload_words[] = {
	[MD_OFFLOADED] = "yes", [MD_DECLINING] = "partly",
	[MD_NO_PARITY] = "no", [MD_POLICY] = "no", [MD_BLOCKED] = "no",
};

/* RAID6 read-modify-write never reaches a dmaengine provider */
static int md_note(const struct md_array *a, char *buf, size_t len)
{
	if (strcmp(a->level, "raid6") || !*a->rmw_level ||
	    !strcmp(a->rmw_level, "0"))
		return 0;
	snprintf(buf, len,
		 "rmw_level %s: md computes RAID6 read-modify-write on the CPU; echo 0 > /sys/block/%s/md/rmw_level sends every write through ecdma",
		 a->rmw_level, a->name);
	return 1;
}

static void json_opt(int *first, const char *key, const char *val)
{
	if (*val) {
		json_kv(first, key, val);
	} else {
		printf("%s\"%s\": null", *first ? "" : ", ", key);
		*first = 0;
	}
}

static void md_json(const struct md_array *a)
{
	char note[256];
	int i, f = 1;

	putchar('{');
	json_kv(&f, "name", a->name);
	json_kv(&f, "level", a->level);
	json_kv(&f, "raid_disks", a->raid_disks);
	json_kv(&f, "array_state", a->array_state);
	json_opt(&f, "degraded", a->degraded);
	json_opt(&f, "sync_action", a->sync_action);
	json_opt(&f, "group_thread_cnt", a->gtc);
	json_opt(&f, "stripe_cache_size", a->stripes);
	json_opt(&f, "rmw_level", a->rmw_level);
	printf(", \"members\": [");
	for (i = 0; i < a->nmembers; i++) {
		int g = 1;

		printf("%s{", i ? ", " : "");
		json_kv(&g, "name", a->members[i].name);
		json_opt(&g, "state", a->members[i].state);
		putchar('}');
	}
	printf("], \"offloaded\": %s",
	       a->offload == MD_OFFLOADED ? "true" : "false");
	json_kv(&f, "offload", offload_words[a->offload]);
	json_kv(&f, "reason", a->reason);
	json_opt(&f, "fix", a->fix);
	json_opt(&f, "note", md_note(a, note, sizeof(note)) ? note : "");
	putchar('}');
}

static void ecdma_json(const struct ecdma_view *v)
{
	char attr[64], buf[512], *tok, *save = NULL;
	int i, f = 1;

	printf("\"ecdma\": {\"loaded\": %s, \"registered\": %s",
	       v->loaded ? "true" : "false", v->registered ? "true" : "false");
	f = 0;
	json_opt(&f, "version", v->version);
	json_opt(&f, "offload", v->offload);
	printf(", \"offload_state\": ");
	if (!*v->state) {
		printf("null");
	} else {
		int g = 1;

		snprintf(buf, sizeof(buf), "%s", v->state);
		putchar('{');
		for (tok = strtok_r(buf, " ", &save); tok;
		     tok = strtok_r(NULL, " ", &save)) {
			char *eq = strchr(tok, '=');

			if (!eq) {
				json_kv(&g, "decision", tok);
				continue;
			}
			*eq = 0;
			json_kv(&g, tok, eq + 1);
		}
		putchar('}');
	}
	printf(", \"totals_per\": \"device\", \"totals\": ");
	if (!v->registered) {
		printf("null}");
		return;
	}
	putchar('{');
	for (i = 0; ops[i]; i++) {
		unsigned long long o, b;

		snprintf(attr, sizeof(attr), "stats/%s_ops", ops[i]);
		o = attr_u64(attr);
		snprintf(attr, sizeof(attr), "stats/%s_bytes", ops[i]);
		b = attr_u64(attr);
		printf("%s\"%s\": {\"ops\": %llu, \"bytes\": %llu}",
		       i ? ", " : "", ops[i], o, b);
	}
	printf("}}");
}

static void md_text(const struct md_array *a, int n)
{
	char note[256];
	int i, m;

	printf("%-8s %-7s %5s %-11s %8s %-11s %7s %7s  %s\n", "array",
	       "level", "disks", "array_state", "degraded", "sync_action",
	       "threads", "stripes", "offloaded");
	for (i = 0; i < n; i++)
		printf("%-8s %-7s %5s %-11s %8s %-11s %7s %7s  %s\n",
		       a[i].name, *a[i].level ? a[i].level : "-",
		       a[i].raid_disks, a[i].array_state,
		       *a[i].degraded ? a[i].degraded : "-",
		       *a[i].sync_action ? a[i].sync_action : "-",
		       *a[i].gtc ? a[i].gtc : "-",
		       *a[i].stripes ? a[i].stripes : "-",
		       offload_words[a[i].offload]);
	for (i = 0; i < n; i++) {
		printf("\n%s members:", a[i].name);
		for (m = 0; m < a[i].nmembers; m++)
			printf(" %s (%s)", a[i].members[m].name,
			       *a[i].members[m].state ? a[i].members[m].state :
			       "?");
		printf("%s\n%s offloaded: %s: %s\n",
		       a[i].nmembers ? "" : " none", a[i].name,
		       offload_words[a[i].offload], a[i].reason);
		if (*a[i].fix)
			printf("%s fix: %s\n", a[i].name, a[i].fix);
		if (md_note(&a[i], note, sizeof(note)))
			printf("%s note: %s\n", a[i].name, note);
	}
}

static void totals_text(const struct ecdma_view *v)
{
	char attr[64];
	int i;

	if (!v->registered) {
		printf("\necdma totals: none (ecdma is %s)\n",
		       v->loaded ? "loaded but registered no device" :
		       "not loaded");
		return;
	}
	printf("\necdma totals since it registered or the last reset; ecdma counts per device,\n"
	       "not per array: with several arrays these numbers are shared\n");
	printf("%-12s %14s %18s\n", "op", "ops", "bytes");
	for (i = 0; ops[i]; i++) {
		unsigned long long o, b;

		snprintf(attr, sizeof(attr), "stats/%s_ops", ops[i]);
		o = attr_u64(attr);
		snprintf(attr, sizeof(attr), "stats/%s_bytes", ops[i]);
		b = attr_u64(attr);
		printf("%-12s %14llu %18llu\n", ops[i], o, b);
	}
}

int cmd_md(void)
{
	struct ecdma_view v;
	struct md_array *a;
	int i, n;

	ecdma_view_read(&v);
	n = md_scan(&v, &a);
	if (json) {
		printf("{\"arrays\": [");
		for (i = 0; i < n; i++) {
			printf("%s", i ? ", " : "");
			md_json(&a[i]);
		}
		printf("], ");
		ecdma_json(&v);
		printf("}\n");
	} else if (!n) {
		printf("no md arrays (none under %s/block/md*/md)\n", root);
	} else {
		md_text(a, n);
		totals_text(&v);
	}
	md_free(a, n);
	return EXIT_OK;
}
