// SPDX-License-Identifier: GPL-2.0
/*
 * make bench, scaling: the engine (best algo, calibrated choices) on
 * n = 1 .. ncpu threads, each pinned to its own CPU with its own stripes,
 * as the kernel engine runs one worker per CPU.  Wall time here: the
 * threads share the machine on purpose.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "bench.h"

static u8 *pool;

#define SC_MAXT	8

struct sc_thread {
	pthread_t tid;
	int cpu;
	struct cfg c;		/* own copy: own stripe pointers */
	struct impl im;
	u8 *base;		/* own part of the pool (cold) or own stripe */
	size_t nstr;
	long iters;
	double secs;
};

static pthread_barrier_t sc_bar;
static double sc_time;

static void *sc_run(void *arg)
{
	struct sc_thread *t = arg;
	size_t n = nblocks(&t->c), s = 0, i;
	cpu_set_t set;
	double t0;

	CPU_ZERO(&set);
	CPU_SET(t->cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		die("pthread_setaffinity_np(%d)", t->cpu);
	pthread_barrier_wait(&sc_bar);
	t0 = wall_now();
	do {
		u8 *b = t->base + s * (n + 1) * t->c.B;

		for (i = 0; i < (size_t)t->c.nin; i++)
			t->c.in[i] = b + i * t->c.B;
		for (i = 0; i < (size_t)t->c.nout; i++)
			t->c.out[i] = b + (t->c.nin + i) * t->c.B;
		s = s + 1 == t->nstr ? 0 : s + 1;
		t->im.run(&t->im, &t->c);
		t->iters++;
	} while ((t->iters & 7) || wall_now() - t0 < sc_time);
	t->secs = wall_now() - t0;
	return NULL;
}

/* @nt threads on CPUs cpu0.. running cell @c (B, cold set) with @im */
static double sc_point(const struct cfg *c, const struct impl *im, int nt,
		       const int *cpus)
{
	struct sc_thread th[SC_MAXT];
	size_t per = (nblocks(c) + 1) * c->B;
	double bytes = 0, secs = 0;
	int i;

	pthread_barrier_init(&sc_bar, NULL, nt);
	for (i = 0; i < nt; i++) {
		th[i] = (struct sc_thread){ .cpu = cpus[i], .c = *c,
					    .im = *im };
		if (c->cold) {
			th[i].nstr = POOL / nt / per;
			th[i].base = pool + (size_t)i * (POOL / nt);
		} else {
			/* own pages, filled: not the shared zero page */
			th[i].nstr = 1;
			th[i].base = xalloc(per);
			fill(th[i].base, per);
		}
		if (pthread_create(&th[i].tid, NULL, sc_run, &th[i]))
			die("pthread_create");
	}
	for (i = 0; i < nt; i++) {
		pthread_join(th[i].tid, NULL);
		bytes += data_bytes(c) * th[i].iters;
		secs = th[i].secs > secs ? th[i].secs : secs;
		if (!c->cold)
			munmap(th[i].base, per);
	}
	pthread_barrier_destroy(&sc_bar);
	return bytes / secs / 1e9;
}

static void sc_report(const struct cfg *c, int n, double g, double one)
{
	const char *cache = c->cold ? "cold" : "hot";

	printf("scaling %-6s k=%2d m=%d %6zuK %-4s threads=%d %8.2f GB/s",
	       op_name[c->op], c->k, c->m, c->B >> 10, cache, n, g);
	printf("  (%.2fx of 1 thread, %3.0f%% efficiency)\n", g / one,
	       100 * g / (one * n));
	fprintf(csv, "scaling-%s,%d,%d,%d,%zu,%s,threads=%d,engine,%.3f,0,0,0\n",
		op_name[c->op], c->k, c->m, n, c->B, cache, n, g);
}

void run_scaling(u8 *pool_, int quick)
{
	static const struct { enum op op; int k; size_t B; } sc_cells[] = {
		{ OP_PQ, 10, 4096 }, { OP_ENC, 10, 65536 },
		{ OP_ENC, 10, 1 << 20 }, { OP_XOR, 10, 4096 },
	};
	int cpus[SC_MAXT], ncpu = 0, cpu, ci, cold, n;
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		die("sched_getaffinity");
	/* the bench itself ran pinned: widen to every CPU the process may use */
	for (cpu = 0; cpu < CPU_SETSIZE && ncpu < SC_MAXT; cpu++)
		if (CPU_ISSET(cpu, &set))
			cpus[ncpu++] = cpu;
	pool = pool_;
	sc_time = quick ? 0.05 : 0.2;
	printf("# scaling: the engine (calibrated), 1..%d threads, one per CPU\n",
	       ncpu);
	for (ci = 0; ci < (int)ARRAY_SIZE(sc_cells); ci++) {
		struct cfg c;
		struct impl im = engine_impl;
		double one = 0;

		if (sc_cells[ci].op == OP_ENC)
			cfg_encode(&c, sc_cells[ci].k, 4);
		else
			cfg_pq(&c, sc_cells[ci].k, sc_cells[ci].op);
		c.B = sc_cells[ci].B;
		im.tbls = NULL;
		im.p = best_algo;
		ours_prep(&im, &c);
		for (cold = 0; cold < 2; cold++) {
			c.cold = cold;
			for (n = 1; n <= ncpu; n++) {
				double r[3], g;
				int rep;

				/* median of 3: one slow moment skews a point */
				for (rep = 0; rep < 3; rep++)
					r[rep] = sc_point(&c, &im, n, cpus);
				qsort(r, 3, sizeof(r[0]), cmp_dbl);
				g = r[1];

				if (n == 1)
					one = g;
				sc_report(&c, n, g, one);
			}
		}
		free(im.tbls);
	}
}

