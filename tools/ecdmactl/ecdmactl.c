// SPDX-License-Identifier: GPL-2.0
/*
 * ecdmactl - show and tune the ecdma erasure-coding offload driver.
 *
 * Reads and writes /sys/devices/platform/ecdma (see
 * Documentation/ABI/testing/sysfs-driver-ecdma), including the rdma/
 * directory of ecdma_rdma; md and doctor (md.c, doctor.c) also read md's
 * and the host's files.  No library needed.  This file: the command line
 * and exit codes (listed in print_help() and in ecdmactl(8)); the rest is
 * one file per concern (ecdmactl.h).
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
