/* SPDX-License-Identifier: MIT */
/*
 * What the arm64 suites share: a loop of exactly known instructions, the
 * perf_user_access sysctl, and what the board was declared to do
 * (run_tests.sh exports SELFMON_EXPECT_* and SELFMON_INEXACT).
 */
#ifndef SELFMON_TESTS_ARM64_BOARD_H
#define SELFMON_TESTS_ARM64_BOARD_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define USER_ACCESS "/proc/sys/kernel/perf_user_access"

/* 1 + 3n instructions: cbz, then n times add, subs, b.ne. */
static inline void loop3(uint64_t n)
{
	uint64_t acc = 0;

	__asm__ __volatile__(
		"	cbz	%[n], 2f\n"
		"1:	add	%[acc], %[acc], #1\n"
		"	subs	%[n], %[n], #1\n"
		"	b.ne	1b\n"
		"2:\n"
		: [acc] "+r"(acc), [n] "+r"(n) : : "cc");
}

static inline long read_sysctl(const char *path)
{
	char buf[32] = "";
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	if (read(fd, buf, sizeof(buf) - 1) <= 0)
		buf[0] = '\0';
	close(fd);
	return buf[0] ? strtol(buf, NULL, 10) : -1;
}

static inline int write_sysctl(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), ok;

	if (fd < 0)
		return -errno;
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok ? 0 : -EIO;
}

/* The integer in environment variable @name, or -1 when it is not set. */
static inline int expect_env(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? atoi(v) : -1;
}

/* Exact-count assertions need a board that counts exactly. */
#define EXACT_OR_SKIP()								\
	do {									\
		if (expect_env("SELFMON_INEXACT") == 1)				\
			SKIP(return, "SELFMON_INEXACT=1: this board's counts are close, not exact " \
			     "(QEMU icount with several vCPUs)");			\
	} while (0)

#endif
