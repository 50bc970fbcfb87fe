// SPDX-License-Identifier: GPL-2.0
/*
 * ecdmactl - show and tune the ecdma erasure-coding offload driver.
 *
 * Reads and writes /sys/devices/platform/ecdma (see
 * Documentation/ABI/testing/sysfs-driver-ecdma), including the rdma/
 * directory of ecdma_rdma; md and doctor (md.c, doctor.c) also read md's
 * and the host's files.  No library needed.
 * Exit codes are listed in print_help() and in ecdmactl(8).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "ecdmactl.h"

/* the Makefile passes the project's (VERSION) */
#ifndef ECDMACTL_VERSION
#define ECDMACTL_VERSION	"unknown"
#endif

const char *root = "/sys";
const char *top_root = "";
char devdir[1024];
int json;

const char *const ops[] = {
	"memcpy", "xor", "xor_val", "pq", "pq_val", "interrupt", NULL
};

void die(int code, const char *fmt, ...)
{
	va_list ap;

	fputs("ecdmactl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

int errno_exit(int err)
{
	switch (err) {
	case ENOENT:
		return EXIT_NOATTR;
	case EINVAL:
	case ERANGE:
		return EXIT_INVAL;
	case EACCES:
	case EPERM:
		return EXIT_PERM;
	case EBUSY:
		return EXIT_BUSY;
	default:
		return EXIT_IO;
	}
}

static void print_help(FILE *f)
{
	fputs("usage: ecdmactl [--json] [--sysfs-root DIR] [--root DIR] COMMAND [ARGS]\n"
	      "\n"
	      "commands:\n"
	      "  status               device, tuning and channel overview\n"
	      "  stats [-c CHAN]      counters (all channels, or one)\n"
	      "  get ATTR             print one attribute (path under the device,\n"
	      "                       e.g. algo, caps/enable_pq_val, chan0/cpu)\n"
	      "  set ATTR VALUE       write one attribute\n"
	      "  algos                available GF algorithms, selected marked\n"
	      "  rdma                 RDMA devices of ecdma_rdma: EC engine,\n"
	      "                       provider, QPs, primitives, bytes\n"
	      "  reset                zero the counters\n"
	      "  watch [-i SEC] [-n COUNT]\n"
	      "                       per-second rates, like iostat\n"
	      "  md                   md arrays, and whether ecdma offloads\n"
	      "                       their parity now (why not, when not)\n"
	      "  doctor [--kconfig FILE]\n"
	      "                       check the host for ecdma; each finding\n"
	      "                       with its fix\n"
	      "  trace [SECONDS] [--from FILE]\n"
	      "                       ecdma's events for SECONDS (5): latency\n"
	      "                       per op, errors, declines, fallbacks,\n"
	      "                       verdicts (tracefs; FILE: a saved trace)\n"
	      "  json-validate        check that stdin is one JSON value\n"
	      "\n"
	      "options:\n"
	      "  -j, --json           machine-readable output\n"
	      "  -r, --sysfs-root DIR sysfs mount point (default /sys, or\n"
	      "                       $ECDMACTL_SYSFS_ROOT)\n"
	      "      --root DIR       prefix of /proc, /boot and /sys (tests);\n"
	      "                       --sysfs-root still wins for /sys\n"
	      "  -h, --help           this text\n"
	      "  -V, --version        version\n"
	      "\n"
	      "exit codes: 0 ok, 1 bad arguments, 2 ecdma not loaded, 3 unknown\n"
	      "attribute, 4 bad value, 5 permission denied, 6 busy (channels\n"
	      "in use), 7 other error or unexpected file content, 8 doctor\n"
	      "found a problem\n", f);
}

/* ---- sysfs access ---------------------------------------------------- */

/* ATTR must stay under the device: no absolute path, no "..". */
static int attr_path(const char *attr, char *path, size_t len)
{
	if (!*attr || attr[0] == '/' || strstr(attr, ".."))
		return -EINVAL;
	snprintf(path, len, "%s/%s", devdir, attr);
	return 0;
}

/* Read the file at path into buf without the trailing newlines; -errno. */
int file_read(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	close(fd);
	buf[n] = 0;
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = 0;
	return 0;
}

/* Read ATTR into buf without the trailing newline; -errno on failure. */
int attr_read(const char *attr, char *buf, size_t len)
{
	char path[2048];

	if (attr_path(attr, path, sizeof(path)))
		return -ENOENT;
	return file_read(path, buf, len);
}

static int attr_write(const char *attr, const char *val)
{
	char path[2048];
	struct stat st;
	ssize_t n;
	int fd;

	if (attr_path(attr, path, sizeof(path)) || stat(path, &st) ||
	    !S_ISREG(st.st_mode))
		return -ENOENT;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	if (close(fd))
		return -errno;
	return 0;
}

unsigned long long attr_u64(const char *attr)
{
	char buf[64];

	if (attr_read(attr, buf, sizeof(buf)))
		return 0;
	return strtoull(buf, NULL, 10);
}

void check_loaded(void)
{
	char path[1100];

	snprintf(path, sizeof(path), "%s/module/ecdma", root);
	if (access(path, F_OK))
		die(EXIT_NOMOD, "the ecdma module is not loaded (no %s); try 'modprobe ecdma'",
		    path);
	if (access(devdir, F_OK))
		die(EXIT_NOMOD, "ecdma is loaded but registered no device (%s missing); see dmesg",
		    devdir);
}

static int nr_chans(void)
{
	return (int)attr_u64("channels");
}

/* ---- output helpers -------------------------------------------------- */

void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

int is_number(const char *s)
{
	if (*s == '-')
		s++;
	if (!isdigit((unsigned char)*s) || (*s == '0' && s[1]))
		return 0;
	while (isdigit((unsigned char)*s))
		s++;
	return !*s;
}

/* a sysfs value as JSON: number when it is one, else string */
void json_val(const char *s)
{
	if (is_number(s))
		fputs(s, stdout);
	else
		json_str(s);
}

/* "key": value, with a separator before all but the first */
void json_kv(int *first, const char *key, const char *val)
{
	printf("%s", *first ? "" : ", ");
	*first = 0;
	json_str(key);
	fputs(": ", stdout);
	json_val(val);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Sorted names in the directory at path: its subdirectories (dirs) or its
 * readable regular files; -errno when it cannot be listed.
 */
int dir_names(const char *path, int dirs, char ***names)
{
	char fpath[4096];
	struct dirent *de;
	struct stat st;
	int n = 0, cap = 0;
	DIR *d;

	d = opendir(path);
	if (!d)
		return -errno;
	*names = NULL;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(fpath, sizeof(fpath), "%s/%s", path, de->d_name);
		if (stat(fpath, &st))
			continue;
		if (dirs ? !S_ISDIR(st.st_mode) :
		    !S_ISREG(st.st_mode) || !(st.st_mode & 0444))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			*names = realloc(*names, cap * sizeof(**names));
			if (!*names)
				die(EXIT_IO, "out of memory");
		}
		(*names)[n++] = strdup(de->d_name);
	}
	closedir(d);
	if (n)
		qsort(*names, n, sizeof(**names), cmp_str);
	return n;
}

/* The same for dir relative to the device */
static int list_files(const char *dir, char ***names)
{
	char path[2048];

	attr_path(dir, path, sizeof(path));
	return dir_names(path, 0, names);
}

static int list_dirs(const char *dir, char ***names)
{
	char path[2048];

	attr_path(dir, path, sizeof(path));
	return dir_names(path, 1, names);
}

void free_names(char **names, int n)
{
	while (n--)
		free(names[n]);
	free(names);
}

/* ---- commands -------------------------------------------------------- */

static const char *const status_attrs[] = {
	"channels", "algo", "algo_active", "max_src", "inline_issue", "fuse",
	"fuse_active", "desc_max", "worker_budget", "inline_budget",
	"section_ops", "nt_threshold", "pq_path", "pq_path_active",
	"xor_path", "xor_path_active", "caps/ops",
	"caps/max_xor", "caps/max_pq", "caps/align", "caps/enable_memcpy",
	"caps/enable_xor", "caps/enable_xor_val", "caps/enable_pq",
	"caps/enable_pq_val", "offload", "trial_budget", NULL
};

static const char *const chan_attrs[] = {
	"dma_chan", "cpu", "provider", NULL
};

static int cmd_status(void)
{
	char buf[ATTR_MAX], attr[256];
	int i, c, n = nr_chans(), first = 1;

	if (json)
		putchar('{');
	else
		printf("ecdma at %s\n", devdir);
	for (i = 0; status_attrs[i]; i++) {
		if (attr_read(status_attrs[i], buf, sizeof(buf)))
			continue;
		if (json)
			json_kv(&first, status_attrs[i], buf);
		else
			printf("  %-22s %s\n", status_attrs[i], buf);
	}
	if (!attr_read("providers", buf, sizeof(buf))) {
		char *line, *save = NULL;

		if (json) {
			printf(", \"providers\": [");
			for (line = strtok_r(buf, "\n", &save), i = 0; line;
			     line = strtok_r(NULL, "\n", &save), i++) {
				char name[64] = "";
				unsigned int users = 0;

				if (sscanf(line, "%63s %u", name, &users) != 2)
					continue;
				printf("%s{\"name\": ", i ? ", " : "");
				json_str(name);
				printf(", \"users\": %u}", users);
			}
			putchar(']');
		} else {
			for (line = strtok_r(buf, "\n", &save); line;
			     line = strtok_r(NULL, "\n", &save))
				printf("  %-22s %s (name users)\n", "provider",
				       line);
		}
	}
	if (!access(devdir, F_OK)) {
		char **devs = NULL, attr2[512], eng[64];
		int nd = list_dirs("rdma", &devs);

		/* ecdma_rdma's devices, when it is loaded */
		if (json && nd >= 0)
			printf(", \"rdma\": [");
		for (i = 0; i < nd; i++) {
			snprintf(attr2, sizeof(attr2), "rdma/%s/ec_engine",
				 devs[i]);
			if (attr_read(attr2, eng, sizeof(eng)))
				strcpy(eng, "?");
			if (json) {
				printf("%s{\"device\": ", i ? ", " : "");
				json_str(devs[i]);
				printf(", \"ec_engine\": ");
				json_str(eng);
				putchar('}');
			} else {
				printf("  %-22s %s (ec_engine %s)\n", "rdma",
				       devs[i], eng);
			}
		}
		if (json && nd >= 0)
			putchar(']');
		if (nd > 0)
			free_names(devs, nd);
	}
	if (json)
		printf(", \"chans\": [");
	else
		printf("\n  %-5s %-14s %-4s %-10s %s\n", "chan", "dma_chan", "cpu",
		       "provider", "queue_depth");
	for (c = 0; c < n; c++) {
		char val[3][256];

		for (i = 0; chan_attrs[i]; i++) {
			snprintf(attr, sizeof(attr), "chan%d/%s", c,
				 chan_attrs[i]);
			if (attr_read(attr, val[i], sizeof(val[i])))
				strcpy(val[i], "?");
		}
		snprintf(attr, sizeof(attr), "stats/chan%d/queue_depth", c);
		if (json) {
			int f = 1;

			printf("%s{", c ? ", " : "");
			for (i = 0; chan_attrs[i]; i++)
				json_kv(&f, chan_attrs[i], val[i]);
			printf(", \"queue_depth\": %llu}", attr_u64(attr));
		} else {
			printf("  %-5d %-14s %-4s %-10s %llu\n", c, val[0],
			       val[1], val[2], attr_u64(attr));
		}
	}
	if (json)
		printf("]}\n");
	return EXIT_OK;
}

static int cmd_stats(int chan)
{
	char dir[64], attr[512], buf[ATTR_MAX];
	char **names = NULL;
	int i, n, first = 1;

	if (chan >= 0) {
		if (chan >= nr_chans())
			die(EXIT_NOATTR, "no channel %d (%d channels)", chan,
			    nr_chans());
		snprintf(dir, sizeof(dir), "stats/chan%d", chan);
	} else {
		snprintf(dir, sizeof(dir), "stats");
	}
	n = list_files(dir, &names);
	if (n < 0)
		die(errno_exit(-n), "cannot list %s/%s: %s", devdir, dir,
		    strerror(-n));
	if (json)
		putchar('{');
	else
		printf("%-12s %14s %18s %10s\n", "op", "ops", "bytes",
		       "errors");
	if (!json) {
		for (i = 0; ops[i]; i++) {
			unsigned long long v[3];
			static const char *const k[] = { "ops", "bytes",
							 "errors" };
			int j;

			for (j = 0; j < 3; j++) {
				snprintf(attr, sizeof(attr), "%s/%s_%s", dir,
					 ops[i], k[j]);
				v[j] = attr_u64(attr);
			}
			printf("%-12s %14llu %18llu %10llu\n", ops[i], v[0],
			       v[1], v[2]);
		}
		putchar('\n');
	}
	for (i = 0; i < n; i++) {
		int j, per_op = 0;

		for (j = 0; ops[j] && !json; j++) {
			size_t l = strlen(ops[j]);

			if (!strncmp(names[i], ops[j], l) &&
			    (!strcmp(names[i] + l, "_ops") ||
			     !strcmp(names[i] + l, "_bytes") ||
			     !strcmp(names[i] + l, "_errors")))
				per_op = 1;
		}
		if (per_op || (!strcmp(names[i], "dma_chan") && !json))
			continue;
		snprintf(attr, sizeof(attr), "%s/%s", dir, names[i]);
		if (attr_read(attr, buf, sizeof(buf)))
			continue;
		if (json && !strcmp(names[i], "latency_hist")) {
			char *tok, *save = NULL;
			int k = 0;

			printf("%s\"latency_hist\": [", first ? "" : ", ");
			first = 0;
			for (tok = strtok_r(buf, " ", &save); tok;
			     tok = strtok_r(NULL, " ", &save))
				printf("%s%s", k++ ? ", " : "", tok);
			putchar(']');
		} else if (json) {
			json_kv(&first, names[i], buf);
		} else {
			printf("%-28s %s\n", names[i], buf);
		}
	}
	if (json)
		printf("}\n");
	else if (chan < 0)
		printf("%-28s %s\n", "(latency_hist buckets)",
		       "<1us, then doubling from 1.024us; last >= 16.8ms");
	free_names(names, n);
	return EXIT_OK;
}

static int cmd_get(const char *attr)
{
	char buf[ATTR_MAX];
	int ret = attr_read(attr, buf, sizeof(buf));

	if (ret == -ENOENT || ret == -EISDIR)
		die(EXIT_NOATTR, "unknown attribute '%s' (no %s/%s)", attr,
		    devdir, attr);
	if (ret)
		die(errno_exit(-ret), "cannot read %s: %s", attr,
		    strerror(-ret));
	if (json) {
		int first = 1;

		putchar('{');
		json_kv(&first, attr, buf);
		printf("}\n");
	} else {
		printf("%s\n", buf);
	}
	return EXIT_OK;
}

static int cmd_set(const char *attr, const char *val)
{
	int ret = attr_write(attr, val);

	switch (ret) {
	case 0:
		return EXIT_OK;
	case -ENOENT:
		die(EXIT_NOATTR, "unknown attribute '%s'", attr);
		break;
	case -EACCES:
	case -EPERM:
		die(EXIT_PERM, "permission denied writing %s (read-only attribute, or not root)",
		    attr);
		break;
	case -EBUSY:
		die(EXIT_BUSY, "%s needs idle channels (unload async_tx users)",
		    attr);
		break;
	case -EINVAL:
	case -ERANGE:
		die(EXIT_INVAL, "invalid value '%s' for %s", val, attr);
		break;
	default:
		die(EXIT_IO, "cannot write %s: %s", attr, strerror(-ret));
	}
	return EXIT_IO;
}

static const char *const rdma_attrs[] = {
	"ec_engine", "provider", "port", "qps", "ops_inflight", "ops_done",
	"ops_failed", "tx_bytes", "rx_bytes", "mrs", "mrs_in_use", NULL
};

/* One RDMA device per row (text) or object (JSON); rdma/ must exist. */
static int cmd_rdma(void)
{
	char **devs = NULL, attr[512], val[256];
	int i, a, n;

	n = list_dirs("rdma", &devs);
	if (n == -ENOENT)
		die(EXIT_NOMOD, "ecdma_rdma is not loaded (no %s/rdma); try 'modprobe ecdma_rdma'",
		    devdir);
	if (n < 0)
		die(errno_exit(-n), "cannot list %s/rdma: %s", devdir,
		    strerror(-n));
	if (json)
		printf("{\"rdma\": [");
	else
		printf("%-12s %-9s %-8s %4s %4s %8s %9s %9s %12s %12s %5s %6s\n",
		       "device", "ec_engine", "provider", "port", "qps",
		       "inflight", "ops_done", "ops_fail", "tx_bytes",
		       "rx_bytes", "mrs", "in_use");
	for (i = 0; i < n; i++) {
		int first = 1;

		if (json) {
			printf("%s{", i ? ", " : "");
			json_kv(&first, "device", devs[i]);
		} else {
			printf("%-12s", devs[i]);
		}
		for (a = 0; rdma_attrs[a]; a++) {
			static const int w[] = { 9, 8, 4, 4, 8, 9, 9, 12, 12, 5, 6 };

			snprintf(attr, sizeof(attr), "rdma/%s/%s", devs[i],
				 rdma_attrs[a]);
			if (attr_read(attr, val, sizeof(val)))
				strcpy(val, "?");
			if (json)
				json_kv(&first, rdma_attrs[a], val);
			else
				printf(" %*s", a < 2 ? -w[a] : w[a], val);
		}
		printf(json ? "}" : "\n");
	}
	if (json)
		printf("]}\n");
	else if (!n)
		printf("(no RoCE device)\n");
	free_names(devs, n);
	return EXIT_OK;
}

static int cmd_algos(void)
{
	char buf[ATTR_MAX], active[128], *tok, *save = NULL;
	int ret, i = 0;

	ret = attr_read("algo", buf, sizeof(buf));
	if (ret)
		die(errno_exit(-ret), "cannot read algo: %s", strerror(-ret));
	if (attr_read("algo_active", active, sizeof(active)))
		strcpy(active, "?");
	if (json)
		printf("{\"active\": \"%s\", \"algos\": [", active);
	for (tok = strtok_r(buf, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save), i++) {
		int sel = tok[0] == '[';
		char name[64];

		snprintf(name, sizeof(name), "%.*s", (int)strcspn(tok + sel, "]"),
			 tok + sel);
		if (json)
			printf("%s{\"name\": \"%s\", \"selected\": %s}",
			       i ? ", " : "", name, sel ? "true" : "false");
		else
			printf("%c %-12s%s\n", sel ? '*' : ' ', name,
			       strcmp(name, active) ? "" : " (active)");
	}
	if (json)
		printf("]}\n");
	return EXIT_OK;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sample(unsigned long long *v)
{
	char attr[128];
	int i;

	for (i = 0; ops[i]; i++) {
		snprintf(attr, sizeof(attr), "stats/%s_ops", ops[i]);
		v[2 * i] = attr_u64(attr);
		snprintf(attr, sizeof(attr), "stats/%s_bytes", ops[i]);
		v[2 * i + 1] = attr_u64(attr);
	}
}

static int cmd_watch(double interval, long count)
{
	unsigned long long a[12], b[12];
	double t0, t1, dt;
	long k;
	int i;

	sample(a);
	t0 = now();
	for (k = 0; count <= 0 || k < count; k++) {
		struct timespec ts = {
			.tv_sec = (time_t)interval,
			.tv_nsec = (long)((interval - (time_t)interval) * 1e9),
		};

		nanosleep(&ts, NULL);
		sample(b);
		t1 = now();
		dt = t1 - t0 > 0 ? t1 - t0 : 1;
		if (json) {
			printf("{\"interval_s\": %.3f", dt);
			for (i = 0; ops[i]; i++)
				printf(", \"%s_ops_s\": %.1f, \"%s_MBps\": %.3f",
				       ops[i], (b[2 * i] - a[2 * i]) / dt,
				       ops[i],
				       (b[2 * i + 1] - a[2 * i + 1]) / dt / 1e6);
			printf(", \"queue_depth\": %llu}\n",
			       attr_u64("stats/queue_depth"));
		} else {
			if (k % 20 == 0) {
				printf("%-8s", "");
				for (i = 0; ops[i]; i++)
					printf(" %9s/s %7s", ops[i], "MB/s");
				printf(" %5s\n", "qd");
			}
			printf("%-8.2f", dt);
			for (i = 0; ops[i]; i++)
				printf(" %11.1f %7.2f",
				       (b[2 * i] - a[2 * i]) / dt,
				       (b[2 * i + 1] - a[2 * i + 1]) / dt / 1e6);
			printf(" %5llu\n", attr_u64("stats/queue_depth"));
		}
		fflush(stdout);
		memcpy(a, b, sizeof(a));
		t0 = t1;
	}
	return EXIT_OK;
}

/* ---- a minimal JSON checker (RFC 8259 syntax), for test scripts ------ */

static const char *js;

static void js_ws(void)
{
	while (*js == ' ' || *js == '\t' || *js == '\n' || *js == '\r')
		js++;
}

static int js_value(int depth);

static int js_string(void)
{
	if (*js++ != '"')
		return 0;
	while (*js != '"') {
		if ((unsigned char)*js < 0x20)
			return 0;
		if (*js == '\\') {
			js++;
			if (*js == 'u') {
				int i;

				for (i = 1; i <= 4; i++)
					if (!isxdigit((unsigned char)js[i]))
						return 0;
				js += 4;
			} else if (!strchr("\"\\/bfnrt", *js) || !*js) {
				return 0;
			}
		}
		js++;
	}
	js++;
	return 1;
}

static int js_number(void)
{
	if (*js == '-')
		js++;
	if (*js == '0')
		js++;
	else if (isdigit((unsigned char)*js))
		while (isdigit((unsigned char)*js))
			js++;
	else
		return 0;
	if (*js == '.') {
		js++;
		if (!isdigit((unsigned char)*js))
			return 0;
		while (isdigit((unsigned char)*js))
			js++;
	}
	if (*js == 'e' || *js == 'E') {
		js++;
		if (*js == '+' || *js == '-')
			js++;
		if (!isdigit((unsigned char)*js))
			return 0;
		while (isdigit((unsigned char)*js))
			js++;
	}
	return 1;
}

static int js_seq(int depth, char close, int obj)
{
	js++;
	js_ws();
	if (*js == close) {
		js++;
		return 1;
	}
	for (;;) {
		js_ws();
		if (obj) {
			if (!js_string())
				return 0;
			js_ws();
			if (*js++ != ':')
				return 0;
		}
		if (!js_value(depth + 1))
			return 0;
		js_ws();
		if (*js == close) {
			js++;
			return 1;
		}
		if (*js++ != ',')
			return 0;
	}
}

static int js_value(int depth)
{
	js_ws();
	if (depth > 64)
		return 0;
	switch (*js) {
	case '{':
		return js_seq(depth, '}', 1);
	case '[':
		return js_seq(depth, ']', 0);
	case '"':
		return js_string();
	case 't':
		return !strncmp(js, "true", 4) ? (js += 4, 1) : 0;
	case 'f':
		return !strncmp(js, "false", 5) ? (js += 5, 1) : 0;
	case 'n':
		return !strncmp(js, "null", 4) ? (js += 4, 1) : 0;
	default:
		return js_number();
	}
}

/* stdin holds JSON values (one or more, e.g. watch --json lines) */
/* all of @fd, NUL-terminated; NULL on a read error */
char *slurp_fd(int fd)
{
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	ssize_t r;

	if (!buf)
		die(EXIT_IO, "out of memory");
	while ((r = read(fd, buf + len, cap - len - 1)) > 0) {
		len += r;
		if (len + 1 == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf)
				die(EXIT_IO, "out of memory");
		}
	}
	if (r < 0) {
		free(buf);
		return NULL;
	}
	buf[len] = 0;
	return buf;
}

static int cmd_json_validate(void)
{
	char *buf = slurp_fd(STDIN_FILENO);
	int n = 0;

	if (!buf)
		die(EXIT_IO, "cannot read stdin: %s", strerror(errno));
	js = buf;
	js_ws();
	while (*js) {
		/* top-level values are separated by white space */
		if (!js_value(0) || (*js && !isspace((unsigned char)*js))) {
			fprintf(stderr, "ecdmactl: invalid JSON at byte %zu\n",
				(size_t)(js - buf));
			free(buf);
			return EXIT_INVAL;
		}
		n++;
		js_ws();
	}
	free(buf);
	if (!n) {
		fprintf(stderr, "ecdmactl: no JSON on stdin\n");
		return EXIT_INVAL;
	}
	return EXIT_OK;
}

/* ---- main ------------------------------------------------------------ */

static int need_args(const char *cmd, int argc, int n)
{
	if (argc == n)
		return 1;
	fprintf(stderr, "ecdmactl: '%s' takes %d argument(s)\n", cmd, n);
	return 0;
}

static long parse_long(const char *s, const char *what, long min)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min)
		die(EXIT_USAGE, "bad %s '%s'", what, s);
	return v;
}

/* options a command takes, before or after its name */
struct cmd_opts {
	double interval;
	long count;
	long chan;
};

/* -j, -c, -i, -n; returns 0 for any other option */
static int cmd_option(int opt, struct cmd_opts *o)
{
	switch (opt) {
	case 'j':
		json = 1;
		return 1;
	case 'c':
		o->chan = parse_long(optarg, "channel", 0);
		return 1;
	case 'i':
		o->interval = parse_long(optarg, "interval", 1);
		return 1;
	case 'n':
		o->count = parse_long(optarg, "count", 1);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "sysfs-root", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "chan", required_argument, NULL, 'c' },
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'n' },
		{ "root", required_argument, NULL, 'R' },
		{ "kconfig", required_argument, NULL, 'k' },
		{ "from", required_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	const char *env = getenv("ECDMACTL_SYSFS_ROOT");
	struct cmd_opts o = { .interval = 1, .count = 0, .chan = -1 };
	const char *cmd, *sysfs_root = NULL, *kconfig = NULL, *from = NULL;
	static char sys_under[1024];
	int opt;

	if (env && *env)
		root = env;
	while ((opt = getopt_long(argc, argv, "+jr:hVc:i:n:", lopts,
				  NULL)) != -1) {
		if (cmd_option(opt, &o))
			continue;
		switch (opt) {
		case 'r':
			sysfs_root = optarg;
			break;
		case 'R':
			top_root = optarg;
			snprintf(sys_under, sizeof(sys_under), "%s/sys", optarg);
			root = sys_under;
			break;
		case 'k':
			kconfig = optarg;
			break;
		case 'f':
			from = optarg;
			break;
		case 'h':
			print_help(stdout);
			return EXIT_OK;
		case 'V':
			printf("ecdmactl %s\n", ECDMACTL_VERSION);
			return EXIT_OK;
		default:
			print_help(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		print_help(stderr);
		return EXIT_USAGE;
	}
	cmd = argv[optind++];
	/* options after the command (stats -c 1, watch -i 1 -n 3) */
	while ((opt = getopt_long(argc, argv, "+jc:i:n:", lopts, NULL)) != -1) {
		if (opt == 'k') {
			kconfig = optarg;
			continue;
		}
		if (opt == 'f') {
			from = optarg;
			continue;
		}
		if (!cmd_option(opt, &o)) {
			print_help(stderr);
			return EXIT_USAGE;
		}
	}
	argc -= optind;
	argv += optind;
	if (sysfs_root)
		root = sysfs_root;
	if (kconfig && strcmp(cmd, "doctor"))
		die(EXIT_USAGE, "--kconfig is an option of doctor only");
	if (from && strcmp(cmd, "trace"))
		die(EXIT_USAGE, "--from is an option of trace only");

	if (!strcmp(cmd, "json-validate"))
		return argc ? (print_help(stderr), EXIT_USAGE) : cmd_json_validate();

	snprintf(devdir, sizeof(devdir), "%s/devices/platform/ecdma", root);

	if (!strcmp(cmd, "status")) {
		if (!need_args(cmd, argc, 0))
			return EXIT_USAGE;
		check_loaded();
		return cmd_status();
	} else if (!strcmp(cmd, "stats")) {
		if (!need_args(cmd, argc, 0))
			return EXIT_USAGE;
		check_loaded();
		return cmd_stats(o.chan);
	} else if (!strcmp(cmd, "get")) {
		if (!need_args(cmd, argc, 1))
			return EXIT_USAGE;
		check_loaded();
		return cmd_get(argv[0]);
	} else if (!strcmp(cmd, "set")) {
		if (!need_args(cmd, argc, 2))
			return EXIT_USAGE;
		check_loaded();
		return cmd_set(argv[0], argv[1]);
	} else if (!strcmp(cmd, "algos")) {
		if (!need_args(cmd, argc, 0))
			return EXIT_USAGE;
		check_loaded();
		return cmd_algos();
	} else if (!strcmp(cmd, "rdma")) {
		if (!need_args(cmd, argc, 0))
			return EXIT_USAGE;
		check_loaded();
		return cmd_rdma();
	} else if (!strcmp(cmd, "reset")) {
		if (!need_args(cmd, argc, 0))
			return EXIT_USAGE;
		check_loaded();
		return cmd_set("stats/reset", "1");
	} else if (!strcmp(cmd, "watch")) {
		if (!need_args(cmd, argc, 0))
			return EXIT_USAGE;
		check_loaded();
		return cmd_watch(o.interval, o.count);
	} else if (!strcmp(cmd, "md")) {
		if (!need_args(cmd, argc, 0))
			return EXIT_USAGE;
		return cmd_md();
	} else if (!strcmp(cmd, "doctor")) {
		if (!need_args(cmd, argc, 0))
			return EXIT_USAGE;
		return cmd_doctor(kconfig);
	} else if (!strcmp(cmd, "trace")) {
		if (argc > 1 || (argc && from))
			die(EXIT_USAGE, "'trace' takes SECONDS or --from FILE");
		return cmd_trace(argc ? parse_long(argv[0], "seconds", 1) : 5,
				 from);
	}
	fprintf(stderr, "ecdmactl: unknown command '%s'\n", cmd);
	print_help(stderr);
	return EXIT_USAGE;
}
