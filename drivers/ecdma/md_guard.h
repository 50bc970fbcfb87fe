/* SPDX-License-Identifier: GPL-2.0 */
/* ecdma: guards for md's async_tx calls that need a synchronous engine */
#ifndef _ECDMA_MD_GUARD_H
#define _ECDMA_MD_GUARD_H

#include <linux/types.h>

int ecdma_md_guard_init(void);
void ecdma_md_guard_exit(void);
ssize_t ecdma_md_guard_show(char *buf);

#endif /* _ECDMA_MD_GUARD_H */
