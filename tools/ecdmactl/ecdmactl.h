/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ecdmactl's shared pieces: exit codes, the sysfs and JSON helpers
 * (attr.c), and the commands: status and the device's attributes
 * (status.c), md (md.c), doctor (doctor.c), trace (trace.c) and
 * json-validate (json.c).
 */
#ifndef ECDMACTL_H
#define ECDMACTL_H

#include <stddef.h>

#define ATTR_MAX		4096
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

enum {
	EXIT_OK = 0,
	EXIT_USAGE = 1,		/* bad command line */
	EXIT_NOMOD = 2,		/* ecdma not loaded */
	EXIT_NOATTR = 3,	/* unknown attribute, missing file */
	EXIT_INVAL = 4,		/* value rejected (EINVAL, ERANGE) */
	EXIT_PERM = 5,		/* permission denied */
	EXIT_BUSY = 6,		/* needs idle channels (EBUSY) */
	EXIT_IO = 7,		/* any other error, unexpected content */
	EXIT_PROBLEM = 8,	/* doctor: a warn or error finding */
};

extern const char *root;	/* sysfs mount point, "/sys" */
extern const char *top_root;	/* --root: prefix of /proc and /boot */
extern char devdir[1024];	/* the ecdma platform device */
extern int json;
extern const char *const ops[];	/* memcpy ... interrupt */

/* ecdmactl.c */
void die(int code, const char *fmt, ...);
int errno_exit(int err);

/* attr.c: the device's files, directory listings, JSON output */
void check_loaded(void);
char *slurp_fd(int fd);
int file_read(const char *path, char *buf, size_t len);
int attr_read(const char *attr, char *buf, size_t len);
int attr_write(const char *attr, const char *val);
unsigned long long attr_u64(const char *attr);
int nr_chans(void);
int dir_names(const char *path, int dirs, char ***names);
int list_files(const char *dir, char ***names);
int list_dirs(const char *dir, char ***names);
void free_names(char **names, int n);
int is_number(const char *s);
void json_str(const char *s);
void json_val(const char *s);
void json_kv(int *first, const char *key, const char *val);

/* status.c */
int cmd_status(void);
int cmd_stats(int chan);
int cmd_get(const char *attr);
int cmd_set(const char *attr, const char *val);
int cmd_algos(void);
int cmd_rdma(void);
int cmd_watch(double interval, long count);

/* json.c: stdin is one or more JSON values */
int cmd_json_validate(void);

/* md.c: what ecdma looks like to async_tx now */
struct ecdma_view {
	int loaded;		/* /sys/module/ecdma */
	int registered;		/* its platform device */
	int async_tx;		/* caps/ops lists async_tx */
	int chans;		/* channels named by chan<i>/dma_chan */
	int chans_known;	/* of them, with a readable in_use */
	int chans_in_use;	/* of those, in_use 1 */
	char version[64];	/* /sys/module/ecdma/version, or "" */
	char offload[16];	/* auto, always, never, or "" */
	char state[512];	/* offload_state, or "" */
};

/* whether async_tx can hand an array's parity to ecdma now */
enum md_offload {
	MD_OFFLOADED,		/* yes */
	MD_DECLINING,		/* in the table; auto declines P+Q now */
	MD_NO_PARITY,		/* not raid4/5/6, or not running */
	MD_POLICY,		/* auto took ecdma out of the table */
	MD_BLOCKED,		/* something to fix: see fix */
};

struct md_member {
	char name[64];
	char state[64];
};

struct md_array {
	char name[64];
	char level[32];
	char array_state[32];
	char raid_disks[16];
	char degraded[16];	/* "" where absent */
	char sync_action[32];
	char gtc[16];		/* group_thread_cnt */
	char stripes[16];	/* stripe_cache_size */
	char rmw_level[16];
	char consistency[32];	/* consistency_policy: ppl, journal, ... */
	char journal_mode[32];	/* write-through, write-back, or "" */
	char reshape[32];	/* reshape_position: "none" or a sector */
	struct md_member *members;
	int nmembers;
	enum md_offload offload;
	char reason[512];
	char fix[256];
};

void ecdma_view_read(struct ecdma_view *v);
int state_field(const char *state, const char *key, char *out, size_t len);
int md_scan(const struct ecdma_view *v, struct md_array **arrays);
void md_free(struct md_array *a, int n);
int cmd_md(void);

/* doctor.c */
int cmd_doctor(const char *kconfig);

/* trace.c: SECONDS of the live events, or the saved trace FROM */
int cmd_trace(double seconds, const char *from);

#endif /* ECDMACTL_H */
