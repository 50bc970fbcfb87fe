/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Peers of the ecdma benchmark whose symbols have no usable header here:
 * ISA-L's exported per-ISA entry points, lib/raid6 built in userspace
 * (its struct layouts as in include/linux/raid/pq.h of 6.1), and the
 * kernel's xor_avx template (kshim.c).
 */
#ifndef _ECDMA_BENCH_PEERS_H
#define _ECDMA_BENCH_PEERS_H

#include <stddef.h>

/* ISA-L per-ISA entry points: exported by libisal.so.2, not in its headers */
void ec_encode_data_avx512(int len, int k, int rows, unsigned char *g_tbls,
			   unsigned char **data, unsigned char **coding);
int pq_gen_avx512(int vects, int len, void **array);
int xor_gen_avx512(int vects, int len, void **array);

/* lib/raid6 (userspace build of the kernel's code) */
struct raid6_calls {
	void (*gen_syndrome)(int disks, size_t bytes, void **ptrs);
	void (*xor_syndrome)(int disks, int start, int stop, size_t bytes,
			     void **ptrs);
	int (*valid)(void);
	const char *name;
	int prefer;
};

struct raid6_recov_calls {
	void (*data2)(int disks, size_t bytes, int faila, int failb,
		      void **ptrs);
	void (*datap)(int disks, size_t bytes, int faila, void **ptrs);
	int (*valid)(void);
	const char *name;
	int priority;
};

extern struct raid6_calls raid6_call;
extern const struct raid6_calls raid6_avx2x4, raid6_avx512x2, raid6_avx512x4;
extern const struct raid6_recov_calls raid6_recov_avx2, raid6_recov_avx512;
extern const unsigned char raid6_gfmul[256][256];
extern const unsigned char raid6_gfexp[256], raid6_gfinv[256];
extern const unsigned char raid6_gfexi[256];

/* the kernel's xor_avx template (xor_shim.c) */
void kxor_avx(int nsrc, unsigned long bytes, void *dest, void **srcs);

#endif /* _ECDMA_BENCH_PEERS_H */
