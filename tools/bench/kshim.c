// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's x86 xor_avx template (arch/x86/include/asm/xor_avx.h from
 * linux-source) in userspace, as crypto/xor.c's xor_blocks() calls it.
 * Built with -mgeneral-regs-only: the template keeps data in ymm registers
 * between separate asm statements, so the compiler must never use them.
 */
#include <stdalign.h>
#include <stdint.h>

struct xor_block_template {
	struct xor_block_template *next;
	const char *name;
	int speed;
	void (*do_2)(unsigned long bytes, unsigned long *__restrict p0,
		     const unsigned long *__restrict p1);
	void (*do_3)(unsigned long bytes, unsigned long *__restrict p0,
		     const unsigned long *__restrict p1,
		     const unsigned long *__restrict p2);
	void (*do_4)(unsigned long bytes, unsigned long *__restrict p0,
		     const unsigned long *__restrict p1,
		     const unsigned long *__restrict p2,
		     const unsigned long *__restrict p3);
	void (*do_5)(unsigned long bytes, unsigned long *__restrict p0,
		     const unsigned long *__restrict p1,
		     const unsigned long *__restrict p2,
		     const unsigned long *__restrict p3,
		     const unsigned long *__restrict p4);
};

#include <asm/xor_avx.h>

void kxor_avx(int nsrc, unsigned long bytes, void *dest, void **srcs);

/* crypto/xor.c xor_blocks(): dest ^= srcs[0..nsrc-1], nsrc <= 4 */
void kxor_avx(int nsrc, unsigned long bytes, void *dest, void **srcs)
{
	unsigned long *d = dest, **s = (unsigned long **)srcs;

	switch (nsrc) {
	case 1:
		xor_block_avx.do_2(bytes, d, s[0]);
		break;
	case 2:
		xor_block_avx.do_3(bytes, d, s[0], s[1]);
		break;
	case 3:
		xor_block_avx.do_4(bytes, d, s[0], s[1], s[2]);
		break;
	default:
		xor_block_avx.do_5(bytes, d, s[0], s[1], s[2], s[3]);
		break;
	}
}

/* lib/raid6/test/test.c defines it in userspace */
alignas(4096) const char raid6_empty_zero_page[4096];
