/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU provider knobs, fast paths and calibration, for init and sysfs/debugfs.
 */
#ifndef _ECDMA_PROV_CPU_H
#define _ECDMA_PROV_CPU_H

#include <linux/types.h>

#include "gf_algo.h"

struct ecdma_ec_exec_policy;

/* prov_cpu.c */
int ecdma_cpu_init(void);
void ecdma_cpu_exit(void);

/**
 * enum ecdma_cpu_tunable - CPU provider knobs (sysfs, applied live)
 * @ECDMA_CPU_WORKER_BUDGET: bytes of blocks per worker section (FPU section)
 * @ECDMA_CPU_INLINE_BUDGET: bytes per ecdma_ec_progress() call
 * @ECDMA_CPU_NT_THRESHOLD: NT from this size (0: never); calibrated until set
 * @ECDMA_CPU_SECTION_OPS: requests per section before their completions
 * @ECDMA_CPU_TUNABLE_NR: number of tunables
 */
enum ecdma_cpu_tunable {
	ECDMA_CPU_WORKER_BUDGET,
	ECDMA_CPU_INLINE_BUDGET,
	ECDMA_CPU_SECTION_OPS,
	ECDMA_CPU_NT_THRESHOLD,
	ECDMA_CPU_TUNABLE_NR,
};

int ecdma_cpu_set_algo(const char *name);
const char *ecdma_cpu_algo_name(bool *forced);

/**
 * enum ecdma_cpu_path - who computes exact RAID-6 P+Q, or XOR
 * @ECDMA_CPU_PATH_AUTO: the faster one per block-size class, as calibrated
 * @ECDMA_CPU_PATH_LIB: the kernel's lib/raid6 (raid6_call) or xor_blocks()
 * @ECDMA_CPU_PATH_GF: the provider's GF algo
 * @ECDMA_CPU_PATH_NR: number of choices
 */
enum ecdma_cpu_path {
	ECDMA_CPU_PATH_AUTO,
	ECDMA_CPU_PATH_LIB,
	ECDMA_CPU_PATH_GF,
	ECDMA_CPU_PATH_NR,
};

struct dentry;

/* prov_cpu_cal.c: tunables; fast paths and store kinds, calibrated per class */
long ecdma_cpu_tunable_get(enum ecdma_cpu_tunable t);
int ecdma_cpu_tunable_set(enum ecdma_cpu_tunable t, long val);
extern const char *const ecdma_cpu_path_names[ECDMA_CPU_PATH_NR];
void ecdma_cpu_calibrate(const struct ecdma_gf_algo *algo);
void ecdma_cpu_exec_policy(struct ecdma_ec_exec_policy *pol);
int ecdma_cpu_set_path(bool pq, enum ecdma_cpu_path path);
enum ecdma_cpu_path ecdma_cpu_path_get(bool pq);
/* ecdma_cpu_path_str()'s longest: two bands of three classes "gf/lib" */
#define ECDMA_CPU_PATH_STR	96
int ecdma_cpu_path_str(bool pq, char *buf, size_t size);
int ecdma_cpu_set_nt(long threshold);
long ecdma_cpu_nt(void);
int ecdma_cpu_nt_str(enum ecdma_gf_kind kind, char *buf, size_t size);
struct ecdma_gf_cal;
const char *ecdma_cpu_calibration(struct ecdma_gf_cal *cal);

/* prov_cpu_debugfs.c: the "calibration" file in ecdma's debugfs directory */
void ecdma_cpu_debugfs_init(struct dentry *dir);

/* prov_cpu_sysfs.c: merged into the platform device's directory (sysfs.c) */
struct attribute_group;
extern const struct attribute_group ecdma_cpu_sysfs_group;

#endif /* _ECDMA_PROV_CPU_H */
