// SPDX-License-Identifier: GPL-2.0
/*
 * ecdmactl's commands on the device's own attributes: status, stats, get,
 * set (and reset), algos, rdma and watch.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ecdmactl.h"

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

int cmd_status(void)
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

int cmd_stats(int chan)
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

int cmd_get(const char *attr)
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

int cmd_set(const char *attr, const char *val)
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
int cmd_rdma(void)
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

int cmd_algos(void)
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

int cmd_watch(double interval, long count)
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
