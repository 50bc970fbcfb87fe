/* SPDX-License-Identifier: GPL-2.0 */
/* bench shim: the kernel's xor_avx.h includes this; nothing needed. */
