/* SPDX-License-Identifier: MIT */
/*
 * The world of the tests of selfmon compare, the command
 * (test_compare_command.c, test_compare_rows.c): a scratch directory for the
 * group, made at its setup and removed at its teardown; cmd_compare() of two
 * reports in it, and what it wrote to its --out, to stdout or to stderr.
 * Include after <cmocka.h>.
 */
#ifndef SELFMON_TEST_COMPARE_CMD_H
#define SELFMON_TEST_COMPARE_CMD_H

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "../../tools/cli.h"
#include "../../tools/compare.h"
#include "scratch.h"

/* The group's scratch directory, made by setup(). */
static char dir[64];

static inline int compare(const char *a, const char *b, const char *opt1, const char *opt2)
{
	char pa[128], pb[128], out[128];
	char *argv[8] = { "compare", pa, pb, "--out", out };
	int argc = 5;

	snprintf(pa, sizeof(pa), "%s/%s", dir, a);
	snprintf(pb, sizeof(pb), "%s/%s", dir, b);
	snprintf(out, sizeof(out), "%s/out", dir);
	if (opt1)
		argv[argc++] = (char *)opt1;
	if (opt2)
		argv[argc++] = (char *)opt2;
	return cmd_compare(argc, argv);
}

/* What the last compare() wrote to its --out, into @text. */
static inline void read_out(char *text, size_t size)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/out", dir);
	f = fopen(path, "r");
	assert_non_null(f);
	text[fread(text, 1, size - 1, f)] = '\0';
	fclose(f);
}

static inline int setup(void **state)
{
	(void)state;
	return scratch__make(dir, sizeof(dir), "test_compare");
}

static inline int teardown(void **state)
{
	(void)state;
	return scratch__remove(dir);
}

/* cmd_compare() of @argc @argv, what it writes to the file descriptor @fdno into @text. */
static inline int compare_fd(int fdno, int argc, char **argv, char *text, size_t size)
{
	char path[128];
	int fd, saved, rc;
	FILE *f;

	snprintf(path, sizeof(path), "%s/fd%d", dir, fdno);
	fflush(stdout);
	fflush(stderr);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	saved = dup(fdno);
	assert_true(fd >= 0 && saved >= 0);
	dup2(fd, fdno);
	close(fd);
	rc = cmd_compare(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved, fdno);
	close(saved);
	f = fopen(path, "r");
	assert_non_null(f);
	text[fread(text, 1, size - 1, f)] = '\0';
	fclose(f);
	return rc;
}

/* cmd_compare() of @argc @argv, what it says on stderr into @err. */
static inline int compare_stderr(int argc, char **argv, char *err, size_t size)
{
	return compare_fd(STDERR_FILENO, argc, argv, err, size);
}

#endif
