// SPDX-License-Identifier: GPL-2.0
/*
 * ecdmactl trace: a short live view of ecdma's tracepoints
 * (Documentation/driver-api/ecdma-trace.rst) through tracefs alone: per-op
 * completion latency histograms, errors, declines by reason, fallbacks and
 * the policy's verdicts over N seconds.  It records in a tracefs instance
 * of its own, so the global buffer and other tracers are left alone, and
 * removes the instance on exit (also on SIGINT/SIGTERM).  --from reads a
 * saved trace (cat trace > file) instead.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ecdmactl.h"

#define NOPS		7	/* ops[] and "unknown" */
#define NBUCKETS	24	/* latency buckets: < 1 us, then powers of 2 */
#define NWHY		8

/* ecdma_decline's why= names; the last counts any other */
static const char *const whys[NWHY] = {
	"invalid", "align", "pool_dry", "no_room", "unmapped", "rejected",
	"paced", "other",
};

struct op_stat {
	unsigned long long count, errors, sum_ns, max_ns;
	unsigned long long hist[NBUCKETS];	/* [0]: < 1 us; [i]: < 2^i us */
};

struct trace_sum {
	struct op_stat op[NOPS];
	unsigned long long declines[NWHY];
	unsigned long long fallbacks, fallback_failed;
	unsigned long long verdicts_in, verdicts_out;
	char last_verdict[160];
	unsigned long long lines, lost;
};

/* the value of " key=" in an event line's fields, into out; 0 when found */
static int field(const char *f, const char *key, char *out, size_t len)
{
	size_t kl = strlen(key);
	const char *p;

	for (p = f; (p = strstr(p, key)); p += kl) {
		if ((p != f && p[-1] != ' ') || p[kl] != '=')
			continue;
		p += kl + 1;
		snprintf(out, len, "%.*s", (int)strcspn(p, "\n "), p);
		return 0;
	}
	return -ENOENT;
}

static int op_index(const char *name)
{
	int i;

	for (i = 0; i < NOPS - 1; i++)
		if (!strcmp(ops[i], name))
			return i;
	return NOPS - 1;
}

static int bucket(unsigned long long ns)
{
	unsigned long long us = ns / 1000;
	int b = 0;

	while (us && b < NBUCKETS - 1) {
		us >>= 1;
		b++;
	}
	return b;
}

/* @line's fields (from the space before the first) if it is @name's */
static const char *event(const char *line, const char *name)
{
	const char *p = strstr(line, name);
	size_t l = strlen(name);

	if (!p || p == line || p[-1] != ' ' || p[l] != ':' || p[l + 1] != ' ')
		return NULL;
	return p + l + 1;
}

static void on_complete(struct trace_sum *s, const char *f)
{
	char v[64], w[64];
	unsigned long long ns;
	struct op_stat *o;

	if (field(f, "op", v, sizeof(v)) || field(f, "latency", w, sizeof(w)))
		return;
	o = &s->op[op_index(v)];
	ns = strtoull(w, NULL, 10);
	o->count++;
	o->sum_ns += ns;
	if (ns > o->max_ns)
		o->max_ns = ns;
	o->hist[bucket(ns)]++;
	if (!field(f, "status", v, sizeof(v)) && strcmp(v, "0"))
		o->errors++;
}

static void on_decline(struct trace_sum *s, const char *f)
{
	char v[64];
	int i;

	if (field(f, "why", v, sizeof(v)))
		return;
	for (i = 0; i < NWHY - 1 && strcmp(whys[i], v); i++)
		;
	s->declines[i]++;
}

static void on_fallback(struct trace_sum *s, const char *f)
{
	char v[64];

	s->fallbacks++;
	if (!field(f, "status", v, sizeof(v)) && strcmp(v, "0"))
		s->fallback_failed++;
}

static void on_verdict(struct trace_sum *s, const char *f)
{
	char v[64];

	if (field(f, "verdict", v, sizeof(v)))
		return;
	if (!strcmp(v, "in"))
		s->verdicts_in++;
	else
		s->verdicts_out++;
	f++;
	snprintf(s->last_verdict, sizeof(s->last_verdict), "%.*s",
		 (int)strcspn(f, "\n"), f);
}

/* the events recorded, and what each line of them adds to the summary */
static const struct {
	const char *name;
	void (*fn)(struct trace_sum *s, const char *f);
} events[] = {
	{ "ecdma_desc_complete", on_complete },
	{ "ecdma_decline", on_decline },
	{ "ecdma_fallback", on_fallback },
	{ "ecdma_trial_verdict", on_verdict },
};

/* one line of trace or trace_pipe output; other events and text ignored */
static void trace_line(struct trace_sum *s, const char *line)
{
	const char *f;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(events); i++) {
		f = event(line, events[i].name);
		if (f) {
			events[i].fn(s, f);
			s->lines++;
			return;
		}
	}
}

/* feed whole lines of buf (len bytes, carry holds a partial one) */
static void trace_feed(struct trace_sum *s, char *carry, size_t *clen,
		       const char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (buf[i] != '\n') {
			if (*clen < 1023)
				carry[(*clen)++] = buf[i];
			continue;
		}
		carry[*clen] = 0;
		trace_line(s, carry);
		*clen = 0;
	}
}

static int read_file_into(struct trace_sum *s, const char *path)
{
	char buf[4096], carry[1024];
	size_t clen = 0;
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f) {
		fprintf(stderr, "ecdmactl: %s: %s\n", path, strerror(errno));
		return errno_exit(errno);
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		trace_feed(s, carry, &clen, buf, n);
	if (clen) {
		carry[clen] = 0;
		trace_line(s, carry);
	}
	fclose(f);
	return EXIT_OK;
}

/* ---- live: a tracefs instance ------------------------------------------ */

static char tfs[1024];		/* the tracefs mount */
static char inst[1100];		/* our instance, "" when none */

static int write_str(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	n = n < 0 ? -errno : 0;
	close(fd);
	return n;
}

static int find_tracefs(void)
{
	static const char *const where[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	struct stat st;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(where); i++) {
		snprintf(tfs, sizeof(tfs), "%s%s/instances", top_root,
			 where[i]);
		if (!stat(tfs, &st) && S_ISDIR(st.st_mode)) {
			snprintf(tfs, sizeof(tfs), "%s%s", top_root, where[i]);
			return 0;
		}
	}
	return -ENOENT;
}

static void instance_remove(void)
{
	if (*inst && rmdir(inst))
		fprintf(stderr, "ecdmactl: could not remove %s: %s\n", inst,
			strerror(errno));
	*inst = 0;
}

static unsigned long long instance_lost(void)
{
	unsigned long long lost = 0;
	char path[1200], buf[ATTR_MAX], *p;
	int cpu;

	for (cpu = 0; cpu < 4096; cpu++) {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/stats", inst,
			 cpu);
		if (file_read(path, buf, sizeof(buf)))
			break;
		p = strstr(buf, "overrun:");
		if (p)
			lost += strtoull(p + 8, NULL, 10);
	}
	return lost;
}

/* write @val to each recorded event's enable in the instance; 0 or -errno */
static int events_enable(const char *val)
{
	char path[1200];
	size_t i;
	int err;

	for (i = 0; i < ARRAY_SIZE(events); i++) {
		snprintf(path, sizeof(path), "%s/events/ecdma/%s/enable", inst,
			 events[i].name);
		err = write_str(path, val);
		if (err) {
			fprintf(stderr, "ecdmactl: %s: %s\n", path,
				strerror(-err));
			return err;
		}
	}
	return 0;
}

/* record for *seconds, or until SIGINT/SIGTERM; *seconds: how long it ran */
static int record(struct trace_sum *s, double *seconds)
{
	char path[1200], buf[8192], carry[1024];
	struct timespec t0, t;
	struct pollfd pfd[2];	/* the trace pipe, the signals */
	sigset_t set;
	double ran = 0;
	size_t clen = 0;
	ssize_t n;
	int err;

	if (find_tracefs()) {
		fprintf(stderr, "ecdmactl: tracefs is not mounted (%s)\n",
			"mount -t tracefs nodev /sys/kernel/tracing");
		return EXIT_NOATTR;
	}
	snprintf(path, sizeof(path), "%s/events/ecdma", tfs);
	if (access(path, F_OK)) {
		check_loaded();
		fprintf(stderr, "ecdmactl: %s: no ecdma events (%s)\n", path,
			"a kernel without CONFIG_EVENT_TRACING?");
		return EXIT_NOATTR;
	}
	/*
	 * SIGINT and SIGTERM end the recording through a signalfd: blocked
	 * from before the instance exists, they cannot leave it behind
	 * (blocked, they also reach a shell's background job that ignores
	 * them)
	 */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	pfd[1].fd = signalfd(-1, &set, SFD_CLOEXEC);
	pfd[1].events = POLLIN;
	if (pfd[1].fd < 0)
		die(EXIT_IO, "signalfd: %s", strerror(errno));
	snprintf(inst, sizeof(inst), "%s/instances/ecdmactl-%d", tfs,
		 (int)getpid());
	if (mkdir(inst, 0700)) {
		err = errno;
		fprintf(stderr, "ecdmactl: mkdir %s: %s\n", inst, strerror(err));
		*inst = 0;
		return errno_exit(err);
	}
	err = events_enable("1");
	if (err) {
		instance_remove();
		return errno_exit(-err);
	}
	snprintf(path, sizeof(path), "%s/trace_pipe", inst);
	pfd[0].fd = open(path, O_RDONLY | O_NONBLOCK);
	if (pfd[0].fd < 0) {
		err = errno;
		fprintf(stderr, "ecdmactl: %s: %s\n", path, strerror(err));
		instance_remove();
		return errno_exit(err);
	}
	pfd[0].events = POLLIN;
	pfd[0].revents = 0;
	pfd[1].revents = 0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		ran = t.tv_sec - t0.tv_sec + (t.tv_nsec - t0.tv_nsec) / 1e9;
		if (ran >= *seconds || pfd[1].revents)
			break;
		if (poll(pfd, 2, 200) <= 0)
			continue;
		while ((n = read(pfd[0].fd, buf, sizeof(buf))) > 0)
			trace_feed(s, carry, &clen, buf, n);
	}
	/* what is left in the buffer, the events off first */
	events_enable("0");
	while ((n = read(pfd[0].fd, buf, sizeof(buf))) > 0)
		trace_feed(s, carry, &clen, buf, n);
	close(pfd[0].fd);
	close(pfd[1].fd);
	s->lost = instance_lost();
	instance_remove();
	*seconds = ran;
	return EXIT_OK;
}

/* ---- output ------------------------------------------------------------ */

/* latency below which a fraction q of the op's completions fell (bucket) */
static unsigned long long quantile_us(const struct op_stat *o, double q)
{
	unsigned long long seen = 0;
	int b;

	for (b = 0; b < NBUCKETS; b++) {
		seen += o->hist[b];
		if (seen >= q * o->count)
			return 1ULL << b;
	}
	return 1ULL << (NBUCKETS - 1);
}

static const char *op_name(int i)
{
	return i < NOPS - 1 ? ops[i] : "unknown";
}

static void print_text(const struct trace_sum *s, double seconds)
{
	unsigned long long n = 0, peak;
	int i, b, w;

	for (i = 0; i < NOPS; i++)
		n += s->op[i].count;
	if (seconds > 0)
		printf("%.1f s: ", seconds);
	printf("%llu descriptors completed, %llu events lost\n", n, s->lost);
	if (n)
		printf("%-9s %10s %7s %9s %8s %8s %10s\n", "op", "count",
		       "errors", "avg us", "p50 <us", "p99 <us", "max us");
	for (i = 0; i < NOPS; i++) {
		const struct op_stat *o = &s->op[i];

		if (!o->count)
			continue;
		printf("%-9s %10llu %7llu %9.1f %8llu %8llu %10.1f\n",
		       op_name(i), o->count, o->errors,
		       o->sum_ns / 1e3 / o->count, quantile_us(o, 0.5),
		       quantile_us(o, 0.99), o->max_ns / 1e3);
	}
	for (i = 0; i < NOPS; i++) {
		const struct op_stat *o = &s->op[i];

		if (!o->count)
			continue;
		printf("%s latency (us):\n", op_name(i));
		for (peak = 0, b = 0; b < NBUCKETS; b++)
			peak = o->hist[b] > peak ? o->hist[b] : peak;
		for (b = 0; b < NBUCKETS; b++) {
			if (!o->hist[b])
				continue;
			w = (int)(o->hist[b] * 40 / peak);
			printf("  %8llu .. %-8llu %10llu |%.*s\n",
			       b ? 1ULL << (b - 1) : 0, 1ULL << b, o->hist[b],
			       w ? w : 1,
			       "########################################");
		}
	}
	for (i = 0, n = 0; i < NWHY; i++)
		n += s->declines[i];
	printf("declines: %llu", n);
	for (i = 0; i < NWHY; i++)
		if (s->declines[i])
			printf(" %s=%llu", whys[i], s->declines[i]);
	printf("\nfallbacks: %llu (%llu failed)\n", s->fallbacks,
	       s->fallback_failed);
	printf("verdicts: %llu in, %llu out\n", s->verdicts_in,
	       s->verdicts_out);
	if (*s->last_verdict)
		printf("last verdict: %s\n", s->last_verdict);
}

static void print_json(const struct trace_sum *s, double seconds)
{
	int i, b, first;

	printf("{\"seconds\":%.1f,\"lost\":%llu,\"ops\":{", seconds, s->lost);
	for (i = 0, first = 1; i < NOPS; i++) {
		const struct op_stat *o = &s->op[i];

		if (!o->count)
			continue;
		printf("%s\"%s\":{\"count\":%llu,\"errors\":%llu,",
		       first ? "" : ",", op_name(i), o->count, o->errors);
		printf("\"avg_ns\":%llu,\"max_ns\":%llu,\"hist_us\":[",
		       o->sum_ns / o->count, o->max_ns);
		first = 0;
		for (b = 0; b < NBUCKETS; b++)
			printf("%s%llu", b ? "," : "", o->hist[b]);
		printf("]}");
	}
	printf("},\"declines\":{");
	for (i = 0, first = 1; i < NWHY; i++) {
		if (!s->declines[i])
			continue;
		printf("%s\"%s\":%llu", first ? "" : ",", whys[i],
		       s->declines[i]);
		first = 0;
	}
	printf("},\"fallbacks\":%llu,\"fallbacks_failed\":%llu,",
	       s->fallbacks, s->fallback_failed);
	printf("\"verdicts_in\":%llu,\"verdicts_out\":%llu,\"last_verdict\":",
	       s->verdicts_in, s->verdicts_out);
	json_str(s->last_verdict);
	printf("}\n");
}

int cmd_trace(double seconds, const char *from)
{
	struct trace_sum *s = calloc(1, sizeof(*s));
	int rc;

	if (!s)
		die(EXIT_IO, "out of memory");
	rc = from ? read_file_into(s, from) : record(s, &seconds);
	if (rc == EXIT_OK) {
		if (json)
			print_json(s, from ? 0 : seconds);
		else
			print_text(s, from ? 0 : seconds);
	}
	free(s);
	return rc;
}
