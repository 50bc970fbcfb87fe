// SPDX-License-Identifier: GPL-2.0
/*
 * ecdmactl doctor: what on this host keeps md's parity from ecdma, as
 * findings (ok, info, warn, error), each with its fix.  Reads /proc and
 * /boot under --root (top_root) and sysfs under the sysfs root; the
 * refusals it looks for are drivers/ecdma/init.c's probe checks.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ecdmactl.h"

enum sev { SEV_OK, SEV_INFO, SEV_WARN, SEV_ERROR };

static const char *const sev_names[] = { "ok", "info", "warn", "error" };

struct finding {
	char id[48];
	enum sev sev;
	char msg[768];
	char fix[384];
};

static struct finding *found;
static int nfound, capfound;

static const char *const sign_doc =
	"sign ecdma with an enrolled key: Documentation/admin-guide/secure-boot.rst";

static const char *const set_auto =
	"ecdmactl set algo auto (with raid456 and async_tx unloaded)";

static void add(const char *id, enum sev sev, const char *fix, const char *fmt, ...)
{
	struct finding *f;
	va_list ap;

	if (nfound == capfound) {
		capfound = capfound ? 2 * capfound : 32;
		found = realloc(found, capfound * sizeof(*found));
		if (!found)
			die(EXIT_IO, "out of memory");
	}
	f = &found[nfound++];
	snprintf(f->id, sizeof(f->id), "%s", id);
	f->sev = sev;
	snprintf(f->fix, sizeof(f->fix), "%s", fix ? fix : "");
	va_start(ap, fmt);
	vsnprintf(f->msg, sizeof(f->msg), fmt, ap);
	va_end(ap);
}

/* path under --root (/proc, /boot) */
static void host_path(char *buf, size_t len, const char *path)
{
	snprintf(buf, len, "%s%s", top_root, path);
}

static void sys_path(char *buf, size_t len, const char *path)
{
	snprintf(buf, len, "%s%s", root, path);
}

/* ---- module, and what refuses an unsigned one ----------------------- */

static void check_module(const struct ecdma_view *v)
{
	char fix[160];

	if (v->loaded && v->registered) {
		add("module", SEV_OK, NULL,
		    "ecdma %s is loaded and registered %d channels",
		    *v->version ? v->version : "(no version file)", v->chans);
	} else if (v->loaded) {
		add("module", SEV_OK, NULL, "ecdma %s is loaded",
		    *v->version ? v->version : "(no version file)");
		add("device", SEV_ERROR,
		    "dmesg | grep ecdma: the probe says why it refused (see the iommu and swiotlb findings)",
		    "ecdma is loaded but registered no device (%s missing)",
		    devdir);
	} else {
		snprintf(fix, sizeof(fix),
			 "modprobe ecdma; when it fails, dmesg | grep ecdma and the findings below say why");
		add("module", SEV_ERROR, fix,
		    "ecdma is not loaded (no %s/module/ecdma)", root);
	}
}

/* the last byte of a file (efivarfs: 4 attribute bytes, then the data) */
static int last_byte(const char *path)
{
	unsigned char b[64];
	ssize_t n;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, b, sizeof(b));
	err = errno;
	close(fd);
	if (n < 0)
		return -err;
	return n ? b[n - 1] : -ENODATA;
}

static void check_signing(void)
{
	char path[1200], buf[256], word[64];
	const char *o, *c;
	int b;

	sys_path(path, sizeof(path),
		 "/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c");
	b = last_byte(path);
	if (b == 1)
		add("secure_boot", SEV_WARN, sign_doc,
		    "Secure Boot is on: the kernel locks down and loads only modules signed with a key it trusts (an unsigned ecdma: 'Operation not permitted')");
	else if (b >= 0)
		add("secure_boot", SEV_OK, NULL, "Secure Boot is off");
	else
		add("secure_boot", SEV_INFO, NULL,
		    "no Secure Boot variable (%s: %s): not booted by EFI, or efivarfs not mounted",
		    path, strerror(-b));

	sys_path(path, sizeof(path), "/kernel/security/lockdown");
	if (file_read(path, buf, sizeof(buf)))
		*buf = 0;
	o = strchr(buf, '[');
	c = o ? strchr(o, ']') : NULL;
	if (c) {
		snprintf(word, sizeof(word), "%.*s", (int)(c - o - 1), o + 1);
		if (strcmp(word, "none"))
			add("lockdown", SEV_WARN, sign_doc,
			    "kernel lockdown is '%s': unsigned modules are refused ('unsigned module loading is restricted' in dmesg)",
			    word);
		else
			add("lockdown", SEV_OK, NULL, "kernel lockdown is off");
	} else {
		add("lockdown", SEV_INFO, NULL,
		    "lockdown state unknown (%s unreadable or without a [word])",
		    path);
	}

	sys_path(path, sizeof(path), "/module/module/parameters/sig_enforce");
	if (file_read(path, buf, sizeof(buf)))
		*buf = 0;
	if (!strcmp(buf, "Y"))
		add("sig_enforce", SEV_WARN, sign_doc,
		    "module.sig_enforce is on: only signed modules load (an unsigned ecdma: 'Key was rejected by service')");
	else if (!strcmp(buf, "N"))
		add("sig_enforce", SEV_OK, NULL, "module.sig_enforce is off");
	else
		add("sig_enforce", SEV_INFO, NULL,
		    "sig_enforce unknown (%s unreadable)", path);
}

/* ---- kernel config --------------------------------------------------- */

static char *slurp(const char *path, int *err)
{
	char *buf;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = errno;
		return NULL;
	}
	buf = slurp_fd(fd);
	*err = buf ? 0 : errno;
	close(fd);
	return buf;
}

/* /proc/config.gz through gzip -dc: no library, NULL without gzip */
static char *gunzip(const char *path)
{
	int p[2], status, null;
	char *buf;
	pid_t pid;

	if (pipe(p))
		return NULL;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return NULL;
	}
	if (!pid) {
		null = open("/dev/null", O_WRONLY);
		dup2(p[1], 1);
		if (null >= 0)
			dup2(null, 2);
		close(p[0]);
		execlp("gzip", "gzip", "-dc", path, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	buf = slurp_fd(p[0]);
	close(p[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* "y", "m", "n" (is not set) or "" (absent) */
static const char *kconfig_value(const char *text, const char *sym)
{
	static char val[32];
	size_t l = strlen(sym);
	const char *p;

	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p) {
		if (!strncmp(p, sym, l) && p[l] == '=') {
			snprintf(val, sizeof(val), "%.*s",
				 (int)strcspn(p + l + 1, "\n"), p + l + 1);
			return val;
		}
		if (!strncmp(p, "# ", 2) && !strncmp(p + 2, sym, l) &&
		    !strncmp(p + 2 + l, " is not set", 11))
			return "n";
	}
	return "";
}

static void check_kconfig(const char *kconfig)
{
	static const struct {
		const char *id, *sym, *why;
	} need[] = {
		{ "dma_engine", "CONFIG_DMA_ENGINE",
		  "ecdma neither builds nor loads without the dmaengine" },
		{ "async_tx_dma", "CONFIG_ASYNC_TX_DMA",
		  "async_tx computes everything on the CPU and never asks a dmaengine provider" },
	};
	char rel[128], path[1200], gz[1200] = "", *text = NULL;
	const char *src = path;
	unsigned int i;
	int err = 0;

	if (kconfig) {
		text = slurp(kconfig, &err);
		if (!text)
			die(EXIT_USAGE, "cannot read --kconfig %s: %s", kconfig,
			    strerror(err));
		src = kconfig;
	} else {
		host_path(path, sizeof(path), "/proc/sys/kernel/osrelease");
		if (!file_read(path, rel, sizeof(rel))) {
			host_path(path, sizeof(path), "/boot/config-");
			strncat(path, rel, sizeof(path) - strlen(path) - 1);
			text = slurp(path, &err);
		} else {
			snprintf(path, sizeof(path),
				 "%s/boot/config-<release> (no %s/proc/sys/kernel/osrelease)",
				 top_root, top_root);
		}
		host_path(gz, sizeof(gz), "/proc/config.gz");
		if (!text && !access(gz, R_OK)) {
			text = gunzip(gz);
			if (text)
				src = gz;
		}
	}
	if (!text) {
		add("kconfig", SEV_INFO,
		    "ecdmactl doctor --kconfig FILE, with the running kernel's config",
		    "kernel config not found (%s; %s: %s): CONFIG_DMA_ENGINE and CONFIG_ASYNC_TX_DMA not checked",
		    path, gz,
		    access(gz, F_OK) ? "absent" : "no gzip to read it");
		return;
	}
	for (i = 0; i < ARRAY_SIZE(need); i++) {
		const char *val = kconfig_value(text, need[i].sym);

		if (!strcmp(val, "y"))
			add(need[i].id, SEV_OK, NULL, "%s=y (%s)", need[i].sym,
			    src);
		else
			add(need[i].id, SEV_ERROR,
			    "a kernel built with it (Debian's 6.1 and 6.12 are)",
			    "the kernel lacks %s (%s in %s): %s", need[i].sym,
			    *val ? val : "absent", src, need[i].why);
	}
	free(text);
}

/* ---- IOMMU and swiotlb: drivers/ecdma/init.c's probe refusals -------- */

static void check_dma(const struct ecdma_view *v)
{
	char path[1200], cmdline[4096], opts[512] = "", list[256] = "";
	char **names = NULL, *tok, *save = NULL;
	int i, n, force = 0, have_cmdline;

	host_path(path, sizeof(path), "/proc/cmdline");
	have_cmdline = !file_read(path, cmdline, sizeof(cmdline));
	if (!have_cmdline)
		*cmdline = 0;
	for (tok = strtok_r(cmdline, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		if (!strncmp(tok, "swiotlb=", 8)) {
			char *w, *s2 = NULL;

			for (w = strtok_r(tok + 8, ",", &s2); w;
			     w = strtok_r(NULL, ",", &s2))
				force |= !strcmp(w, "force");
		} else if (!strncmp(tok, "iommu", 5) ||
			   !strncmp(tok, "intel_iommu=", 12) ||
			   !strncmp(tok, "amd_iommu=", 10)) {
			snprintf(opts + strlen(opts), sizeof(opts) - strlen(opts),
				 " %s", tok);
		}
	}
	if (force)
		add("swiotlb", SEV_ERROR,
		    "boot without swiotlb=force (SEV/TDX guests bounce every DMA: ecdma cannot run there)",
		    "swiotlb=force on the kernel command line: ecdma refuses to register ('swiotlb bouncing is forced' in dmesg)");
	else if (have_cmdline)
		add("swiotlb", SEV_OK, NULL,
		    "no swiotlb=force on the kernel command line");
	else
		add("swiotlb", SEV_INFO, NULL, "%s unreadable: swiotlb not checked",
		    path);

	sys_path(path, sizeof(path), "/class/iommu");
	n = dir_names(path, 1, &names);
	for (i = 0; i < n; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
			 "%s%s", i ? " " : "", names[i]);
	if (n > 0)
		free_names(names, n);
	if (n <= 0)
		add("iommu", SEV_OK, NULL, "no IOMMU registered (%s empty)%s%s",
		    path, *opts ? "; command line:" : "", opts);
	else if (v->registered)
		add("iommu", SEV_INFO, NULL,
		    "IOMMU active (%s%s%s); it does not translate ecdma's platform device: ecdma registered",
		    list, *opts ? ";" : "", opts);
	else
		add("iommu", SEV_WARN,
		    "if dmesg | grep ecdma says 'DMA mapping is translated', boot with iommu=pt (passthrough); platform devices are normally not translated",
		    "IOMMU active (%s%s%s): ecdma refuses to register when it translates ecdma's platform device",
		    list, *opts ? ";" : "", opts);
}

/* ---- ecdma's channels, table and algo --------------------------------- */

static void check_channels(const struct ecdma_view *v, int parity_arrays)
{
	char table[16], trials[24], kept[24], load[16], word[16], cost[24];

	state_field(v->state, "table", table, sizeof(table));
	/* the policy clears async_tx from caps/ops out of the table */
	if (v->async_tx == 0 && strcmp(table, "withdrawn"))
		add("caps", SEV_WARN,
		    "with raid456 and async_tx unloaded, ecdmactl set caps/enable_<op> 1 for each op",
		    "caps/ops lacks async_tx (a caps/enable_<op> is 0): async_tx never picks ecdma");
	if (!v->chans_known)
		add("channels", SEV_INFO, NULL,
		    "cannot tell whether async_tx holds ecdma's %d channels (no %s/class/dma/<chan>/in_use)",
		    v->chans, root);
	else if (v->chans_in_use == v->chans)
		add("channels", SEV_OK, NULL,
		    "async_tx holds ecdma's %d channels (in_use 1)", v->chans);
	else if (!v->chans_in_use && parity_arrays)
		add("channels", SEV_WARN,
		    "stop the arrays, modprobe -r raid456 async_tx (and the async_* modules), modprobe raid456, assemble again",
		    "async_tx holds none of ecdma's %d channels (in_use 0) while RAID4/5/6 arrays run",
		    v->chans);
	else if (!v->chans_in_use)
		add("channels", SEV_INFO, NULL,
		    "async_tx holds none of ecdma's %d channels (in_use 0): it takes them when raid456 loads",
		    v->chans);
	else
		add("channels", SEV_INFO, NULL,
		    "async_tx holds %d of ecdma's %d channels (in_use 1)",
		    v->chans_in_use, v->chans);

	state_field(v->state, "decision", word, sizeof(word));
	state_field(v->state, "trials", trials, sizeof(trials));
	state_field(v->state, "kept", kept, sizeof(kept));
	state_field(v->state, "load", load, sizeof(load));
	state_field(v->state, "trial_cost_ms", cost, sizeof(cost));
	if (!*table)
		add("table", SEV_INFO, NULL,
		    "offload=%s; offload_state unreadable", v->offload);
	else
		add("table", strcmp(table, "in") ? SEV_INFO : SEV_OK, NULL,
		    "offload=%s: %s async_tx's channel table (table=%s), %s; load %s, trials %s, kept %s, trial_cost_ms %s",
		    v->offload, strcmp(table, "in") ? "out of" : "in", table,
		    strcmp(word, "decline") ? "accepting" : "declining", load, trials,
		    kept, cost);
}

/* ecdma's SIMD algos, highest priority first, and the CPU flags each needs */
static const struct {
	const char *name;
	const char *flags[7];
} simd_algos[] = {
	{ "avx512-gfni",
	  { "avx", "avx2", "avx512f", "avx512bw", "avx512vl", "gfni" } },
	{ "avx2-gfni", { "avx", "avx2", "gfni" } },
	{ "avx512", { "avx", "avx2", "avx512f", "avx512bw", "avx512vl" } },
	{ "avx2", { "avx", "avx2" } },
};

static int has_flag(const char *flags, const char *f)
{
	size_t l = strlen(f);
	const char *p;

	for (p = flags; (p = strstr(p, f)); p += l)
		if (p > flags && p[-1] == ' ' && (!p[l] || p[l] == ' ' || p[l] == '\n'))
			return 1;
	return 0;
}

static void check_algo(void)
{
	char path[1200], algo[512], active[64], sel[64] = "", *flags, *o;
	const char *best = "generic";
	unsigned int i, j;
	int err;

	if (attr_read("algo", algo, sizeof(algo)) ||
	    attr_read("algo_active", active, sizeof(active))) {
		add("algo", SEV_INFO, NULL, "algo or algo_active unreadable");
		return;
	}
	o = strchr(algo, '[');
	if (o)
		snprintf(sel, sizeof(sel), "%.*s", (int)strcspn(o + 1, "]"),
			 o + 1);
	host_path(path, sizeof(path), "/proc/cpuinfo");
	flags = slurp(path, &err);
	o = flags ? strstr(flags, "\nflags") : NULL;
	if (!o) {
		add("algo", SEV_INFO, NULL,
		    "algo %s active; CPU flags unknown (%s: %s)", active, path,
		    flags ? "no flags line" : strerror(err));
		free(flags);
		return;
	}
	o[strcspn(o + 1, "\n") + 1] = 0;
	for (i = 0; i < ARRAY_SIZE(simd_algos); i++) {
		for (j = 0; simd_algos[i].flags[j]; j++)
			if (!has_flag(o, simd_algos[i].flags[j]))
				break;
		if (!simd_algos[i].flags[j]) {
			best = simd_algos[i].name;
			break;
		}
	}
	free(flags);
	if (!strcmp(active, best))
		add("algo", SEV_OK, NULL,
		    "algo %s active, the best this CPU's flags allow", active);
	else if (strcmp(active, "generic") && strcmp(best, "generic"))
		add("algo", SEV_INFO, strcmp(sel, "auto") ? set_auto : NULL,
		    "algo %s active (selected: %s); the CPU's flags also allow %s",
		    active, sel, best);
	else if (!strcmp(active, "generic") && strcmp(best, "generic"))
		add("algo", SEV_WARN,
		    strcmp(sel, "auto") ? set_auto :
		    "the kernel keeps ecdma from the CPU's SIMD (algo lists no SIMD algo): look for noxsave or clearcpuid= on the kernel command line",
		    "algo generic (no SIMD) active although the CPU has %s (selected: %s; algo lists: %s)",
		    best, sel, algo);
	else
		add("algo", SEV_INFO, NULL,
		    "algo %s active; the CPU's flags list no AVX2", active);
}

/* ---- md's features and ecdma's guards of them ------------------------ */

/* md_guards' line of @name: its state word and count; 0 if absent */
static int guard_state(const char *guards, const char *name, char *state,
		       size_t len, char *count, size_t clen)
{
	size_t n = strlen(name);
	const char *l, *end, *last;

	for (l = guards; *l; l = *end ? end + 1 : end) {
		end = l + strcspn(l, "\n");
		if (strncmp(l, name, n) || l[n] != ' ')
			continue;
		snprintf(state, len, "%.*s", (int)strcspn(l + n + 1, "\n "),
			 l + n + 1);
		for (last = end; last > l && last[-1] != ' '; last--)
			;
		snprintf(count, clen, "%.*s", (int)(end - last), last);
		return 1;
	}
	return 0;
}

static void check_guards(char *guards, size_t len)
{
	char st[32], n[32], cb[32], cbn[32];

	if (attr_read("md_guards", guards, len)) {
		*guards = 0;
		add("md_guards", SEV_WARN,
		    "an ecdma without md_guards predates the guard of md's PPL recovery: update ecdma",
		    "no md_guards file: md's PPL recovery is not guarded (a dirty PPL array crashes the kernel as it assembles)");
		return;
	}
	if (!guard_state(guards, "ppl_xor", st, sizeof(st), n, sizeof(n)))
		snprintf(st, sizeof(st), "absent");
	if (!guard_state(guards, "cb_at_submit", cb, sizeof(cb), cbn,
			 sizeof(cbn)))
		snprintf(cbn, sizeof(cbn), "?");
	if (!strcmp(st, "armed"))
		add("md_guards", SEV_OK, NULL,
		    "md's async_tx calls are guarded: ppl_xor armed (%s PPL recovery calls mended), %s compute and prexor XORs called back at submit",
		    n, cbn);
	else if (!strcmp(st, "waiting"))
		add("md_guards", SEV_INFO, NULL,
		    "the ppl_xor guard waits for async_xor to load (it arms before raid456 can start an array)");
	else
		add("md_guards", SEV_ERROR,
		    "echo never > /sys/devices/platform/ecdma/offload before assembling a dirty RAID5 with PPL; dmesg | grep 'cannot guard' says why",
		    "the guard of md's PPL recovery is %s: a dirty RAID5 with PPL crashes the kernel as it assembles",
		    st);
}

/*
 * What ecdma does for the md features @a uses; @guards is md_guards' text
 * (NULL: ecdma is not registered, md computes everything itself)
 */
static void check_features(const struct md_array *a, const char *guards,
			   const char *state)
{
	char id[96], st[32], n[32], copies[16], mode[32];
	const char *o, *c;

	if (a->offload == MD_NO_PARITY || !guards)
		return;
	if (!strcmp(a->consistency, "ppl")) {
		snprintf(id, sizeof(id), "md.%s.ppl", a->name);
		if (guard_state(guards, "ppl_xor", st, sizeof(st), n,
				sizeof(n)) && !strcmp(st, "armed"))
			add(id, SEV_OK, NULL,
			    "%s closes the write hole with PPL: after a crash md replays it at assembly, where its ppl_xor() would crash with any engine; ecdma's guard is armed. Degraded writes run md's compute at submit, so the partial parity includes the computed block",
			    a->name);
		else
			add(id, SEV_ERROR,
			    "echo never > /sys/devices/platform/ecdma/offload before assembling it after a crash",
			    "%s uses PPL and the guard of its recovery is not armed (%s): a dirty assembly would crash the kernel in ppl_xor()",
			    a->name, *guards ? st : "no md_guards");
	}
	if (!strcmp(a->consistency, "journal")) {
		snprintf(id, sizeof(id), "md.%s.journal", a->name);
		state_field(state, "copies", copies, sizeof(copies));
		/* "[write-through] write-back": the bracketed one is on */
		o = strchr(a->journal_mode, '[');
		c = o ? strchr(o, ']') : NULL;
		snprintf(mode, sizeof(mode), "%.*s", c ? (int)(c - o - 1) : 5,
			 c ? o + 1 : "write");
		add(id, !strcmp(copies, "1") ? SEV_WARN : SEV_OK,
		    !strcmp(copies, "1") ?
		    "unload the DMA_PRIVATE client (dmatest) holding an ecdma channel" : NULL,
		    "%s has a %s journal: md does not wait for its copies into the stripe cache, so ecdma declines copies (copies=%s); the replay at assembly runs md's own stripe paths",
		    a->name, mode, *copies ? copies : "?");
	}
	if (*a->reshape && strcmp(a->reshape, "none")) {
		snprintf(id, sizeof(id), "md.%s.reshape", a->name);
		add(id, SEV_INFO, NULL,
		    "%s is reshaping (at sector %s): md publishes a reshape stripe before its copies complete, so ecdma declines copies; the parity is offloaded as usual",
		    a->name, a->reshape);
	}
}

/* ---- arrays, output -------------------------------------------------- */

static void check_arrays(const struct md_array *a, int n, const char *guards,
			 const char *state)
{
	static const enum sev sev[] = {
		[MD_OFFLOADED] = SEV_OK, [MD_DECLINING] = SEV_INFO,
		[MD_NO_PARITY] = SEV_INFO, [MD_POLICY] = SEV_INFO,
		[MD_BLOCKED] = SEV_WARN,
	};
	char id[80];
	int i;

	if (!n)
		add("md", SEV_INFO, NULL, "no md arrays");
	for (i = 0; i < n; i++) {
		snprintf(id, sizeof(id), "md.%s", a[i].name);
		add(id, sev[a[i].offload], a[i].fix, "%s %s: %s: %s",
		    a[i].level, a[i].array_state,
		    a[i].offload == MD_OFFLOADED ? "offloaded" :
		    a[i].offload == MD_DECLINING ? "partly offloaded" :
		    "not offloaded", a[i].reason);
		check_features(&a[i], guards, state);
	}
}

static int print_findings(void)
{
	int i, problems = 0;

	for (i = 0; i < nfound; i++)
		problems += found[i].sev >= SEV_WARN;
	if (json) {
		printf("{\"healthy\": %s, \"problems\": %d, \"findings\": [",
		       problems ? "false" : "true", problems);
		for (i = 0; i < nfound; i++) {
			int f = 1;

			printf("%s{", i ? ", " : "");
			json_kv(&f, "id", found[i].id);
			json_kv(&f, "severity", sev_names[found[i].sev]);
			json_kv(&f, "message", found[i].msg);
			if (*found[i].fix)
				json_kv(&f, "fix", found[i].fix);
			else
				printf(", \"fix\": null");
			putchar('}');
		}
		printf("]}\n");
		return problems;
	}
	for (i = 0; i < nfound; i++) {
		printf("%-5s  %-12s  %s\n", sev_names[found[i].sev], found[i].id,
		       found[i].msg);
		if (*found[i].fix)
			printf("%-5s  %-12s  fix: %s\n", "", "", found[i].fix);
	}
	if (problems)
		printf("\n%d problem%s (warn or error) found\n", problems,
		       problems == 1 ? "" : "s");
	else
		printf("\nhealthy: no warn or error finding\n");
	return problems;
}

int cmd_doctor(const char *kconfig)
{
	struct ecdma_view v;
	struct md_array *a;
	int i, n, parity = 0, problems;
	char guards[ATTR_MAX] = "";

	ecdma_view_read(&v);
	n = md_scan(&v, &a);
	for (i = 0; i < n; i++)
		parity += a[i].offload != MD_NO_PARITY;
	check_module(&v);
	if (!v.loaded)
		check_signing();
	check_kconfig(kconfig);
	check_dma(&v);
	if (v.registered) {
		check_channels(&v, parity);
		check_algo();
		check_guards(guards, sizeof(guards));
	}
	check_arrays(a, n, v.registered ? guards : NULL, v.state);
	md_free(a, n);
	problems = print_findings();
	free(found);
	return problems ? EXIT_PROBLEM : EXIT_OK;
}
