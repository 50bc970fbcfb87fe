/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ecdma EC verbs: what a provider implements and the core offers it.
 *
 * A provider executes the work requests of the calcs allocated on it.  The
 * CPU provider (built in) reads blocks by kernel virtual address; a device
 * provider sets @dma_dev and is handed DMA addresses mapped for that device
 * (its engine sees nothing else).  drivers/ecdma/hwsim_*.c is a worked
 * example of a device provider: rings, doorbell, interrupt, reset.
 *
 * Executor protocol: one executor at a time owns a calc (acquire), pops its
 * pending WRs in order, completes them in that order (complete_list, never
 * from hardirq) and releases it; release returns true when work is left,
 * and the caller then runs again or kicks.  Own with preemption off, so a
 * spinning caller never waits for a preempted owner.
 */
#ifndef _ECDMA_EC_PROVIDER_H
#define _ECDMA_EC_PROVIDER_H

#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/types.h>

#include <ecdma/ec.h>

struct device;
struct module;

/**
 * struct ecdma_ec_provider_ops - what a provider implements
 * @calc_init: set up the calc's private state (k, m, matrix and queues
 *	set; ecdma_ec_calc_set_priv()); may sleep
 * @calc_destroy: free it; after @quiesce, no executor or WR left; may sleep
 * @kick: new pending WRs and no owner: have them run.  Any context, no sleep
 * @progress: optional: run pending WRs here (CPU), or reap the ones the
 *	device finished (a device: never execute in the caller); true when
 *	one completed.  Not hardirq/NMI; preemption or IRQs may be off.
 * @quiesce: calc dead and unowned: no executor may stay scheduled; give
 *	taken, uncompleted WRs back (ecdma_ec_exec_unpop(), newest first);
 *	may sleep
 * @stats: optional, any context: add provider counters to @vals
 */
struct ecdma_ec_provider_ops {
	int (*calc_init)(struct ecdma_ec_calc *calc);
	void (*calc_destroy)(struct ecdma_ec_calc *calc);
	void (*kick)(struct ecdma_ec_calc *calc);
	bool (*progress)(struct ecdma_ec_calc *calc);
	void (*quiesce)(struct ecdma_ec_calc *calc);
	void (*stats)(const struct ecdma_ec_calc *calc, u64 *vals);
};

/**
 * struct ecdma_ec_provider - a registered provider
 * @name: unique name ("cpu")
 * @ops: its operations
 * @owner: module to pin while in use; NULL inside ecdma (would block rmmod)
 * @dma_dev: the device whose DMA addresses its blocks are, or NULL: kernel
 *	virtual addresses (the CPU provider)
 * @caps: what it supports; filled before registration, then read only
 * @node: on the registry list, guarded by the registry mutex
 * @users: ecdma_ec_provider_get() references plus one per live calc
 */
struct ecdma_ec_provider {
	const char *name;
	const struct ecdma_ec_provider_ops *ops;
	struct module *owner;
	struct device *dma_dev;
	struct ecdma_ec_caps caps;
	struct list_head node;
	refcount_t users;
};

int ecdma_ec_provider_register(struct ecdma_ec_provider *prov);
void ecdma_ec_provider_unregister(struct ecdma_ec_provider *prov);

void *ecdma_ec_calc_priv(const struct ecdma_ec_calc *calc);
void ecdma_ec_calc_set_priv(struct ecdma_ec_calc *calc, void *priv);

bool ecdma_ec_exec_acquire(struct ecdma_ec_calc *calc);
struct ecdma_ec_wr *ecdma_ec_exec_pop(struct ecdma_ec_calc *calc);
void ecdma_ec_exec_unpop(struct ecdma_ec_calc *calc, struct ecdma_ec_wr *wr);
bool ecdma_ec_exec_release(struct ecdma_ec_calc *calc, bool busy);
void ecdma_ec_complete_list(struct ecdma_ec_calc *calc,
			    struct list_head *list);

#endif /* _ECDMA_EC_PROVIDER_H */
