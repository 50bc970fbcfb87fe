/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal KTAP output for ecdma's userspace unit tests, with the function
 * names of tools/testing/selftests/kselftest.h so tests can move upstream.
 */
#ifndef _ECDMA_KTAP_H
#define _ECDMA_KTAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned int ksft_pass, ksft_fail, ksft_skip, ksft_num;

static inline void ksft_print_header(void)
{
	printf("TAP version 13\n");
}

static inline void ksft_set_plan(unsigned int plan)
{
	printf("1..%u\n", plan);
}

static inline void ksft_print_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("# ");
	vprintf(fmt, ap);
	va_end(ap);
}

static inline void ksft_test_result(int cond, const char *fmt, ...)
{
	va_list ap;

	if (cond)
		ksft_pass++;
	else
		ksft_fail++;
	printf("%s %u ", cond ? "ok" : "not ok", ++ksft_num);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
}

#define ksft_test_result_pass(...) ksft_test_result(1, __VA_ARGS__)
#define ksft_test_result_fail(...) ksft_test_result(0, __VA_ARGS__)

static inline void ksft_test_result_skip(const char *fmt, ...)
{
	va_list ap;

	ksft_skip++;
	printf("ok %u # SKIP ", ++ksft_num);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

static inline int ksft_finished(void)
{
	printf("# Totals: pass:%u fail:%u xfail:0 xpass:0 skip:%u error:0\n",
	       ksft_pass, ksft_fail, ksft_skip);
	return ksft_fail ? 1 : 0;
}

#endif /* _ECDMA_KTAP_H */
