// SPDX-License-Identifier: GPL-2.0
/*
 * ecdmactl: reading and writing the device's sysfs files (every path kept
 * under the device), listing directories, and printing values as JSON.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "ecdmactl.h"

/* ---- sysfs access ---------------------------------------------------- */

/* ATTR must stay under the device: no absolute path, no "..". */
static int attr_path(const char *attr, char *path, size_t len)
{
	if (!*attr || attr[0] == '/' || strstr(attr, ".."))
		return -EINVAL;
	snprintf(path, len, "%s/%s", devdir, attr);
	return 0;
}

/* Read the file at path into buf without the trailing newlines; -errno. */
int file_read(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	close(fd);
	buf[n] = 0;
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = 0;
	return 0;
}

/* Read ATTR into buf without the trailing newline; -errno on failure. */
int attr_read(const char *attr, char *buf, size_t len)
{
	char path[2048];

	if (attr_path(attr, path, sizeof(path)))
		return -ENOENT;
	return file_read(path, buf, len);
}

int attr_write(const char *attr, const char *val)
{
	char path[2048];
	struct stat st;
	ssize_t n;
	int fd;

	if (attr_path(attr, path, sizeof(path)) || stat(path, &st) ||
	    !S_ISREG(st.st_mode))
		return -ENOENT;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	if (close(fd))
		return -errno;
	return 0;
}

unsigned long long attr_u64(const char *attr)
{
	char buf[64];

	if (attr_read(attr, buf, sizeof(buf)))
		return 0;
	return strtoull(buf, NULL, 10);
}

void check_loaded(void)
{
	char path[1100];

	snprintf(path, sizeof(path), "%s/module/ecdma", root);
	if (access(path, F_OK))
		die(EXIT_NOMOD, "the ecdma module is not loaded (no %s); try 'modprobe ecdma'",
		    path);
	if (access(devdir, F_OK))
		die(EXIT_NOMOD, "ecdma is loaded but registered no device (%s missing); see dmesg",
		    devdir);
}

int nr_chans(void)
{
	return (int)attr_u64("channels");
}

/* ---- output helpers -------------------------------------------------- */

void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

int is_number(const char *s)
{
	if (*s == '-')
		s++;
	if (!isdigit((unsigned char)*s) || (*s == '0' && s[1]))
		return 0;
	while (isdigit((unsigned char)*s))
		s++;
	return !*s;
}

/* a sysfs value as JSON: number when it is one, else string */
void json_val(const char *s)
{
	if (is_number(s))
		fputs(s, stdout);
	else
		json_str(s);
}

/* "key": value, with a separator before all but the first */
void json_kv(int *first, const char *key, const char *val)
{
	printf("%s", *first ? "" : ", ");
	*first = 0;
	json_str(key);
	fputs(": ", stdout);
	json_val(val);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Sorted names in the directory at path: its subdirectories (dirs) or its
 * readable regular files; -errno when it cannot be listed.
 */
int dir_names(const char *path, int dirs, char ***names)
{
	char fpath[4096];
	struct dirent *de;
	struct stat st;
	int n = 0, cap = 0;
	DIR *d;

	d = opendir(path);
	if (!d)
		return -errno;
	*names = NULL;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(fpath, sizeof(fpath), "%s/%s", path, de->d_name);
		if (stat(fpath, &st))
			continue;
		if (dirs ? !S_ISDIR(st.st_mode) :
		    !S_ISREG(st.st_mode) || !(st.st_mode & 0444))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			*names = realloc(*names, cap * sizeof(**names));
			if (!*names)
				die(EXIT_IO, "out of memory");
		}
		(*names)[n++] = strdup(de->d_name);
	}
	closedir(d);
	if (n)
		qsort(*names, n, sizeof(**names), cmp_str);
	return n;
}

/* The same for dir relative to the device */
int list_files(const char *dir, char ***names)
{
	char path[2048];

	attr_path(dir, path, sizeof(path));
	return dir_names(path, 0, names);
}

int list_dirs(const char *dir, char ***names)
{
	char path[2048];

	attr_path(dir, path, sizeof(path));
	return dir_names(path, 1, names);
}

void free_names(char **names, int n)
{
	while (n--)
		free(names[n]);
	free(names);
}

/* all of @fd, NUL-terminated; NULL on a read error */
char *slurp_fd(int fd)
{
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	ssize_t r;

	if (!buf)
		die(EXIT_IO, "out of memory");
	while ((r = read(fd, buf + len, cap - len - 1)) > 0) {
		len += r;
		if (len + 1 == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf)
				die(EXIT_IO, "out of memory");
		}
	}
	if (r < 0) {
		free(buf);
		return NULL;
	}
	buf[len] = 0;
	return buf;
}
