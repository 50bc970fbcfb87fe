// SPDX-License-Identifier: GPL-2.0
/*
 * ecdma `make bench`: ecdma's GF(2^8) kernels (drivers/ecdma, built in
 * userspace exactly as in the module: -O2, SIMD only in functions with
 * their own target attributes) and the engine's calibrated choices
 * (ours.c) against ISA-L, the kernel's lib/raid6 and xor_avx template
 * (peers.c) and the physical limit of each cell (limit.c), in one run,
 * pinned to one CPU.
 *
 * Every implementation is checked bit-exact against a byte-at-a-time
 * reference on the exact buffers before it is timed; a mismatch aborts
 * with exit status 1, the only failure: speed never fails a run.
 *
 * Timing holds on a busy host: the implementations of a cell run one
 * turn each per repeat, in a new random order each repeat (A B C .. C A
 * B ..), so a slow moment hits all alike and none always follows the
 * same one, and each turn is timed in thread CPU time (time the bench
 * was not scheduled does not count).  Throughput is data bytes
 * (k blocks; one for update) per second; a cell reports the median of the
 * repeats and their spread, (q3 - q1) / median.  Ratios between two
 * implementations are medians of the per-repeat ratios.
 *
 * Usage: bench [-q] [outdir]   (-q: quick, for smoke tests)
 * Environment: BENCH_CPU (first CPU, default 0), BENCH_ONLY (comma-separated
 * ops, e.g. "pq,xor,scaling"), BENCH_ALGO (the engine's algo, by name),
 * BENCH_REPS (repeats, 3-21, default 7), BENCH_TURN_MS (a cold turn's
 * least time, default 6; hot turns half of it).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "bench.h"
#include "peers.h"

const char *const op_name[OP_NR] = {
	"encode", "pq", "xor", "decode", "update", "recov2", "sumprod", "mult",
};

int reps = 7;
static int quick;
static double min_t_hot = 0.003, min_t_cold = 0.006;
FILE *csv;
static u8 *pool, *hotbuf;
double rd_bw, wr_bw, wr_nt_bw;
const struct ecdma_gf_algo *best_algo;
bool have_avx512;
struct cell *cells;
int ncells;
struct result *res;
int nres;
static int cres, ccells;
static const char *only;	/* BENCH_ONLY: comma-separated ops */
static int huge_pool, huge_hot;	/* huge_pct() of pool and hotbuf */

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "bench: FATAL: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

static void *xalloc_advise(size_t n, int advice)
{
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap %zu: %s", n, strerror(errno));
	madvise(p, n, advice);
	return p;
}

void *xalloc(size_t n)
{
	return xalloc_advise(n, MADV_HUGEPAGE);
}

/*
 * How much of the mapping holding @p the kernel backs with transparent
 * huge pages, in percent (-1: unknown), from /proc/self/smaps.  xalloc()
 * asks for them, but whether it gets them depends on how fragmented the
 * host's memory is; a huge page gives every block of a stripe the same
 * cache-set layout run after run, 4 KiB pages a new random one, and cells
 * move with it (ecdma-simd.rst, "Huge pages or not").
 */
int huge_pct(const void *p)
{
	unsigned long lo, hi, v = (unsigned long)p, size = 0, huge = 0, kb;
	bool in = false;
	char line[512];
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 &&
		    strchr(line, '-') < strchr(line, ' ')) {
			if (in)
				break;
			in = v >= lo && v < hi;
		} else if (in && sscanf(line, "Size: %lu kB", &kb) == 1) {
			size = kb;
		} else if (in && sscanf(line, "AnonHugePages: %lu kB", &kb) == 1) {
			huge = kb;
		}
	}
	fclose(f);
	return size ? (int)(100 * huge / size) : -1;
}

/*
 * Memory of 4 KiB pages, as the module's kvmalloc() gets it (vmalloc):
 * the L2 is physically indexed, so a huge page gives a buffer a cache-set
 * layout that vmalloc'd memory does not have.
 */
void *xalloc_4k(size_t n)
{
	return xalloc_advise(n, MADV_NOHUGEPAGE);
}

static uint64_t rs = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return rs;
}

void fill(u8 *p, size_t n)
{
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		uint64_t r = rnd();

		memcpy(p + i, &r, 8);
	}
	for (; i < n; i++)
		p[i] = rnd();
}

double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double median(double *v, int n)
{
	double s[MAXREPS];

	memcpy(s, v, n * sizeof(*v));
	qsort(s, n, sizeof(*s), cmp_dbl);
	return n & 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* ---------------------------------------------------------------------- */
/* Stripes, reference and verification                                    */
/* ---------------------------------------------------------------------- */

size_t nblocks(const struct cfg *c)
{
	return c->nin + c->nout;
}

/* point c->in/out at stripe s of the pool (cold) or the hot buffer */
void stripe(struct cfg *c, size_t s)
{
	size_t n = nblocks(c), i;
	u8 *base = c->cold ? pool + s * (n + 1) * c->B : hotbuf;

	for (i = 0; i < (size_t)c->nin; i++)
		c->in[i] = base + i * c->B;
	for (i = 0; i < (size_t)c->nout; i++)
		c->out[i] = base + (c->nin + i) * c->B;
	if (c->op == OP_REC)	/* the zero page async recovery uses */
		c->in[c->k] = base + n * c->B;
}

double data_bytes(const struct cfg *c)
{
	switch (c->op) {
	case OP_UPD:
		return c->B;
	case OP_DEC:
	case OP_REC:
		return (double)c->k * c->B;
	default:
		return (double)c->nin * c->B;
	}
}

static void verify(const struct impl *im, struct cfg *c)
{
	u8 *save[MAXM + 2];
	int j;

	stripe(c, 0);
	for (j = 0; j < c->nout; j++) {
		save[j] = malloc(c->B);
		memcpy(save[j], c->out[j], c->B);	/* update starts here */
	}
	im->run(im, c);
	for (j = 0; j < c->nout; j++)
		if (memcmp(c->out[j], ref_out[j], c->B))
			die("%s: %s k=%d m=%d e=%d B=%zu: output %d differs from the reference",
			    im->name, op_name[c->op], c->k, c->m, c->e, c->B,
			    j);
	for (j = 0; j < c->nout; j++) {
		memcpy(c->out[j], save[j], c->B);
		free(save[j]);
	}
}

/* ---------------------------------------------------------------------- */
/* Timing                                                                 */
/* ---------------------------------------------------------------------- */

/*
 * One turn of @im: at least min_t of thread CPU time, the clock read only
 * after doubling batches (reading it costs a system call).  Cold turns
 * walk the pool, one stripe per call, from where the last turn stopped.
 */
static double turn(const struct impl *im, struct cfg *c, size_t *s,
		   size_t nstr)
{
	double min_t = c->cold ? min_t_cold : min_t_hot, t0, t;
	long it = 0, batch = 1, b;

	t0 = cpu_now();
	for (;;) {
		for (b = 0; b < batch; b++) {
			if (c->cold) {
				stripe(c, *s);
				*s = *s + 1 == nstr ? 0 : *s + 1;
			}
			im->run(im, c);
		}
		it += batch;
		t = cpu_now() - t0;
		if (t >= min_t)
			break;
		/* aim at min_t, at most doubling */
		batch = t > 0 ? (long)(it * (min_t - t) / t) + 1 : batch * 2;
		batch = batch > it ? it : batch;
	}
	return data_bytes(c) * it / t / 1e9;
}

static struct result *new_result(void)
{
	if (nres == cres) {
		cres = cres ? 2 * cres : 2048;
		res = realloc(res, cres * sizeof(*res));
		if (!res)
			die("oom");
	}
	return &res[nres++];
}

static struct cell *new_cell(void)
{
	if (ncells == ccells) {
		ccells = ccells ? 2 * ccells : 256;
		cells = realloc(cells, ccells * sizeof(*cells));
		if (!cells)
			die("oom");
	}
	return &cells[ncells++];
}

static void record(struct cell *cl, struct result *r)
{
	double q[MAXREPS], pr[MAXREPS];
	int i;

	memcpy(q, r->rep, reps * sizeof(q[0]));
	qsort(q, reps, sizeof(q[0]), cmp_dbl);
	r->med = median(r->rep, reps);
	r->spread = r->med > 0 ? (q[(3 * reps) / 4] - q[reps / 4]) / r->med : 0;
	for (i = 0; i < reps; i++)
		pr[i] = cl->limit[i] > 0 ? 100 * r->rep[i] / cl->limit[i] : 0;
	r->pct = median(pr, reps);
	printf("%-7s k=%2d m=%d e=%d %5zuK %-4s %-40s %8.2f GB/s",
	       op_name[cl->op], cl->k, cl->m, cl->e, cl->B >> 10,
	       cl->cold ? "cold" : "hot", r->name, r->med);
	printf("  spread %4.1f%%  %3.0f%% of limit%s\n", 100 * r->spread,
	       r->pct, r->kind != K_LIMIT && r->pct > 100 ?
	       "  MODEL ERROR: above the limit" : "");
	fprintf(csv, "%s,%d,%d,%d,%zu,%s,%s,%s,%.3f,%.1f,%.3f,%.1f\n",
		op_name[cl->op], cl->k, cl->m, cl->e, cl->B,
		cl->cold ? "cold" : "hot", r->name,
		r->kind == K_ENGINE ? "engine" : r->kind == K_OURS ? "ours" :
		r->kind == K_PEER ? "peer" : "limit", r->med, 100 * r->spread,
		cl->limit_med, r->pct);
}

/*
 * @ord: 0..n-1 in a new order, so no implementation always follows the
 * same one: a turn pays for what the one before left behind (the NT
 * stores still draining, the prefetchers trained elsewhere), and a fixed
 * neighbour made that a constant bias (a rotation keeps neighbours).
 */
static void shuffle(int *ord, int n)
{
	int i, j, t;

	for (i = 0; i < n; i++)
		ord[i] = i;
	for (i = n - 1; i > 0; i--) {
		j = rand() % (i + 1);
		t = ord[i];
		ord[i] = ord[j];
		ord[j] = t;
	}
}

/* verify, then time hot and cold, every implementation once a repeat */
static void run_cell(struct cfg *c, struct impl *ims, int n)
{
	int i, t, rep, ord[MAXIMPLS];

	for (i = 0; i < n; i++) {
		if (ims[i].kind == K_ENGINE || ims[i].kind == K_OURS)
			ours_prep(&ims[i], c);
		c->cold = 0;
		if (!ims[i].noverify)
			verify(&ims[i], c);
	}
	for (t = 0; t < 2; t++) {
		size_t nstr = t ? POOL / ((nblocks(c) + 1) * c->B) : 1, s = 0;
		struct cell *cl = new_cell();
		int first = nres;

		*cl = (struct cell){ c->op, c->k, c->m, c->e, c->B, t, first,
				     n };
		c->cold = t;
		stripe(c, 0);
		for (i = 0; i < n; i++)
			*new_result() = (struct result){
				.cell = cl - cells, .name = ims[i].name,
				.id = ims[i].id, .kind = ims[i].kind,
			};
		for (rep = 0; rep < reps; rep++) {
			shuffle(ord, n);
			for (i = 0; i < n; i++)
				res[first + ord[i]].rep[rep] =
					turn(&ims[ord[i]], c, &s, nstr);
		}
		for (rep = 0; rep < reps; rep++)
			cl->limit[rep] = limit_rep(cl, rep, false);
		cl->limit_med = median(cl->limit, reps);
		for (i = 0; i < n; i++)
			record(cl, &res[first + i]);
		fflush(stdout);
	}
	c->cold = 0;
}

static int want(enum op op)
{
	const char *p = only;
	size_t n = strlen(op_name[op]);

	if (!p)
		return 1;
	while ((p = strstr(p, op_name[op]))) {
		if ((p == only || p[-1] == ',') && (!p[n] || p[n] == ','))
			return 1;
		p += n;
	}
	return 0;
}

/*
 * Verify and time cell @c with blocks of @B bytes: the engine, ours as
 * @which says, @peers (ended by an empty entry) and the limit shapes,
 * unless BENCH_ONLY skips it.
 */
static void time_cell(struct cfg *c, size_t B, unsigned int which,
		      const struct impl *peers)
{
	struct impl ims[MAXIMPLS];
	int n;

	if (!want(c->op))
		return;
	c->B = B;
	c->cold = 0;
	n = ours_add(ims, 0, c, which);
	for (; peers->name; peers++)
		if (!peers->avx512 || have_avx512)
			ims[n++] = *peers;
	n = limit_add(ims, n);
	make_consistent(c);
	run_cell(c, ims, n);
}

/* integer environment variable @name in [@lo, @hi], @def when unset */
static int env_int(const char *name, int lo, int hi, int def)
{
	const char *v = getenv(name);
	char *end;
	long n;

	if (!v)
		return def;
	errno = 0;
	n = strtol(v, &end, 10);
	if (errno || end == v || *end || n < lo || n > hi)
		die("%s=%s: want an integer from %d to %d", name, v, lo, hi);
	return n;
}

static void read_load(char *buf, size_t n)
{
	static const char path[] = "/proc/loadavg";
	FILE *f = fopen(path, "r");

	buf[0] = 0;
	if (f) {
		if (!fgets(buf, n, f))
			buf[0] = 0;
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = 0;
}

int main(int argc, char **argv)
{
	static const int ks[] = { 4, 6, 10, 12 };
	static const size_t bs[] = { 4096, 65536, 1 << 20 };
	const char *outdir = "build/bench";
	char path[512], la0[128], la1[128];
	double t_start = wall_now(), c_start = cpu_now();
	struct cfg c;
	cpu_set_t set;
	FILE *sum;
	int a, ki, m, bi, e, i, cpu = 0;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "-q"))
			quick = 1;
		else
			outdir = argv[a];
	}
	if (getenv("BENCH_CPU"))
		cpu = atoi(getenv("BENCH_CPU"));
	only = getenv("BENCH_ONLY");
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity(%d): %s", cpu, strerror(errno));
	reps = env_int("BENCH_REPS", 3, MAXREPS, reps);
	min_t_cold = env_int("BENCH_TURN_MS", 1, 1000, 6) / 1000.0;
	min_t_hot = min_t_cold / 2;
	if (quick) {
		reps = 3;
		min_t_hot = 0.0005;
		min_t_cold = 0.001;
	}
	have_avx512 = __builtin_cpu_supports("avx512f") &&
		      __builtin_cpu_supports("avx512bw");
	snprintf(path, sizeof(path), "%s/bench.csv", outdir);
	csv = fopen(path, "w");
	if (!csv)
		die("%s: %s", path, strerror(errno));
	fprintf(csv, "op,k,m,e,block,cache,impl,kind,median_gbps,spread_pct,%s\n",
		"limit_gbps,pct_of_limit");

	for (a = 0; a < 256; a++)
		for (i = 0; i < 256; i++)
			mul_tbl[a][i] = ecdma_gf_mul(a, i);
	pool = xalloc(POOL);
	hotbuf = xalloc(32 << 20);
	fill(pool, POOL);
	fill(hotbuf, 32 << 20);
	for (i = 0; i < MAXM + 2; i++)
		ref_out[i] = malloc(1 << 20);

	read_load(la0, sizeof(la0));
	peers_init();
	mem_probe(pool, quick ? POOL / 4 : POOL, &rd_bw, &wr_bw, &wr_nt_bw);
	fill(pool, POOL);
	printf("# pinned to CPU %d; %d repeats, each in a new order, median;", cpu, reps);
	printf(" GB/s of data (1e9 B/s) in thread CPU time\n");
	printf("# load average at start: %s\n", la0);
	printf("# memory probe (1 stream): read %.2f GB/s, write %.2f GB/s",
	       rd_bw, wr_bw);
	printf(" (regular), %.2f GB/s (NT)\n", wr_nt_bw);
	huge_pool = huge_pct(pool);
	huge_hot = huge_pct(hotbuf);
	printf("# transparent huge pages: %d%% of the cold pool, %d%% of the hot buffer\n",
	       huge_pool, huge_hot);
	ours_calibrate();

	/* RS encode; m > 4 at k = 10 (one pass or two: gf_simd_tmpl.h) */
	for (ki = 0; ki < 4; ki++)
		for (m = 1; m <= 4; m++)
			for (bi = 0; bi < 3; bi++) {
				cfg_encode(&c, ks[ki], m);
				time_cell(&c, bs[bi], C_ALGOS | C_STORES,
					  enc_peers);
			}
	for (bi = 0; bi < 3; bi++) {
		cfg_encode(&c, 10, 8);
		time_cell(&c, bs[bi], C_STORES, enc_peers);
	}
	for (ki = 0; ki < 4; ki++)
		for (bi = 0; bi < 3; bi++) {
			cfg_pq(&c, ks[ki], OP_PQ);
			time_cell(&c, bs[bi], C_STORES | C_AVX2, pq_peers);
			cfg_pq(&c, ks[ki], OP_XOR);
			time_cell(&c, bs[bi], C_STORES | C_AVX2, xor_peers);
			/* decode 1..m erasures (m = 4), update, recovery */
			for (e = 1; e <= 4; e++) {
				cfg_decode(&c, ks[ki], 4, e);
				time_cell(&c, bs[bi], 0, dec_peers);
			}
			cfg_update(&c, ks[ki], 4);
			time_cell(&c, bs[bi], 0, upd_peers);
			cfg_recov(&c, ks[ki]);
			time_cell(&c, bs[bi], C_AVX2, rec_peers);
		}
	/* the recovery products alone */
	for (bi = 0; bi < 3; bi++) {
		cfg_product(&c, OP_SP);
		time_cell(&c, bs[bi], C_AVX2, sp_peers);
		cfg_product(&c, OP_MULT);
		time_cell(&c, bs[bi], C_AVX2, mult_peers);
	}
	read_load(la1, sizeof(la1));
	printf("# load average at end: %s; bench on CPU %.0f%% of the wall time\n",
	       la1, 100 * (cpu_now() - c_start) / (wall_now() - t_start));
	fflush(stdout);

	snprintf(path, sizeof(path), "%s/summary.txt", outdir);
	sum = fopen(path, "w");
	if (!sum)
		die("%s: %s", path, strerror(errno));
	fprintf(sum, "# load average: start %s, end %s\n", la0, la1);
	fprintf(sum, "# memory probe: read %.2f, write %.2f (NT %.2f) GB/s\n",
		rd_bw, wr_bw, wr_nt_bw);
	fprintf(sum, "# transparent huge pages: %d%% of the cold pool, %d%% of the hot buffer\n",
		huge_pool, huge_hot);
	report(sum);
	fclose(sum);
	if (!only || strstr(only, "scaling")) {
		CPU_ZERO(&set);
		for (i = 0; i < CPU_SETSIZE; i++)
			CPU_SET(i, &set);
		sched_setaffinity(0, sizeof(set), &set);
		run_scaling(pool, quick);
	}
	fclose(csv);
	printf("# bench: %d cells, %.0f s\n", ncells, wall_now() - t_start);
	return 0;
}
