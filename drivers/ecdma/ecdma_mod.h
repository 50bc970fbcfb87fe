/* SPDX-License-Identifier: GPL-2.0 */
/* What ecdma.ko offers companion modules (ecdma_rdma.ko) beyond EC verbs */
#ifndef _ECDMA_MOD_H
#define _ECDMA_MOD_H

struct kobject;

struct kobject *ecdma_sysfs_root(void);

#endif /* _ECDMA_MOD_H */
