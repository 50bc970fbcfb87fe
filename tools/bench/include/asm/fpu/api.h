/* SPDX-License-Identifier: GPL-2.0 */
/* bench shim: userspace owns the FPU; the kernel's calls are no-ops. */
#ifndef _BENCH_ASM_FPU_API_H
#define _BENCH_ASM_FPU_API_H
#define kernel_fpu_begin()	do { } while (0)
#define kernel_fpu_end()	do { } while (0)
#endif
