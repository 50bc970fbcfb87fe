// SPDX-License-Identifier: GPL-2.0
/*
 * ecdmactl json-validate: a minimal JSON checker (RFC 8259 syntax), so
 * test scripts need no JSON tool.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ecdmactl.h"

static const char *js;

static void js_ws(void)
{
	while (*js == ' ' || *js == '\t' || *js == '\n' || *js == '\r')
		js++;
}

static int js_value(int depth);

static int js_string(void)
{
	if (*js++ != '"')
		return 0;
	while (*js != '"') {
		if ((unsigned char)*js < 0x20)
			return 0;
		if (*js == '\\') {
			js++;
			if (*js == 'u') {
				int i;

				for (i = 1; i <= 4; i++)
					if (!isxdigit((unsigned char)js[i]))
						return 0;
				js += 4;
			} else if (!strchr("\"\\/bfnrt", *js) || !*js) {
				return 0;
			}
		}
		js++;
	}
	js++;
	return 1;
}

static int js_number(void)
{
	if (*js == '-')
		js++;
	if (*js == '0')
		js++;
	else if (isdigit((unsigned char)*js))
		while (isdigit((unsigned char)*js))
			js++;
	else
		return 0;
	if (*js == '.') {
		js++;
		if (!isdigit((unsigned char)*js))
			return 0;
		while (isdigit((unsigned char)*js))
			js++;
	}
	if (*js == 'e' || *js == 'E') {
		js++;
		if (*js == '+' || *js == '-')
			js++;
		if (!isdigit((unsigned char)*js))
			return 0;
		while (isdigit((unsigned char)*js))
			js++;
	}
	return 1;
}

static int js_seq(int depth, char close, int obj)
{
	js++;
	js_ws();
	if (*js == close) {
		js++;
		return 1;
	}
	for (;;) {
		js_ws();
		if (obj) {
			if (!js_string())
				return 0;
			js_ws();
			if (*js++ != ':')
				return 0;
		}
		if (!js_value(depth + 1))
			return 0;
		js_ws();
		if (*js == close) {
			js++;
			return 1;
		}
		if (*js++ != ',')
			return 0;
	}
}

static int js_value(int depth)
{
	js_ws();
	if (depth > 64)
		return 0;
	switch (*js) {
	case '{':
		return js_seq(depth, '}', 1);
	case '[':
		return js_seq(depth, ']', 0);
	case '"':
		return js_string();
	case 't':
		return !strncmp(js, "true", 4) ? (js += 4, 1) : 0;
	case 'f':
		return !strncmp(js, "false", 5) ? (js += 5, 1) : 0;
	case 'n':
		return !strncmp(js, "null", 4) ? (js += 4, 1) : 0;
	default:
		return js_number();
	}
}

/* stdin holds JSON values (one or more, e.g. watch --json lines) */
int cmd_json_validate(void)
{
	char *buf = slurp_fd(STDIN_FILENO);
	int n = 0;

	if (!buf)
		die(EXIT_IO, "cannot read stdin: %s", strerror(errno));
	js = buf;
	js_ws();
	while (*js) {
		/* top-level values are separated by white space */
		if (!js_value(0) || (*js && !isspace((unsigned char)*js))) {
			fprintf(stderr, "ecdmactl: invalid JSON at byte %zu\n",
				(size_t)(js - buf));
			free(buf);
			return EXIT_INVAL;
		}
		n++;
		js_ws();
	}
	free(buf);
	if (!n) {
		fprintf(stderr, "ecdmactl: no JSON on stdin\n");
		return EXIT_INVAL;
	}
	return EXIT_OK;
}
