/* SPDX-License-Identifier: MIT */
/*
 * What the arm64 suites share: a loop of exactly known instructions, a loop
 * metered by an inline read before and after, a region measured by two inline reads, opening a set that must read from user space,
 * the perf_user_access sysctl, and what the board was declared to do
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
#include <selfmon/read.h>
#include <selfmon/selfmon.h>

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

/* Exact counts read from user space: the board counts exactly, and perf_user_access is 1. */
#define EXACT_USER_OR_SKIP()								\
	do {									\
		EXACT_OR_SKIP();						\
		if (read_sysctl(USER_ACCESS) != 1)				\
			SKIP(return, "kernel.perf_user_access is not 1 (run as root through run_tests.sh)"); \
	} while (0)

/* User instructions of @loop(@arg, @n), counted by @meter; -1 if a meter read fails. */
static __attribute__((noinline, unused)) int64_t metered(const struct perf_event_mmap_page *meter,
							 void (*loop)(void *, int), void *arg, int n)
{
	uint64_t a, b;

	if (selfmon_page__read_value(meter, &a))
		return -1;
	loop(arg, n);
	if (selfmon_page__read_value(meter, &b))
		return -1;
	return (int64_t)(b - a);
}

/*
 * User instructions of @n calls of @fn beyond @empty's, times @n: loops of n
 * and 2n of each, less each other. A kernel update of a page during a loop
 * (a timer tick, a context switch) makes one seqlock pass read again: a few
 * instructions more in that loop, never fewer. So each of the four loops is
 * metered five times and its minimum kept, the undisturbed count however busy
 * the board (a LAVA job's shell beside it). -1 if a meter read fails.
 */
static __attribute__((unused)) int64_t metered_cost(const struct perf_event_mmap_page *meter,
						    void (*fn)(void *, int), void (*empty)(void *, int),
						    void *arg, int n)
{
	int64_t m[4] = { INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX };

	for (int k = 0; k < 5; k++) {
		int64_t v[4] = { metered(meter, fn, arg, n), metered(meter, fn, arg, 2 * n),
				 metered(meter, empty, arg, n), metered(meter, empty, arg, 2 * n) };

		for (int i = 0; i < 4; i++) {
			if (v[i] < 0)
				return -1;
			if (v[i] < m[i])
				m[i] = v[i];
		}
	}
	return (m[1] - m[0]) - (m[3] - m[2]);
}

/* The region by two inline reads: what a microbenchmark does. */
static __attribute__((noinline, unused)) int64_t region_user(const struct perf_event_mmap_page *pg, uint64_t n)
{
	uint64_t a, b;

	if (selfmon_page__read_value(pg, &a))
		return -1;
	loop3(n);
	if (selfmon_page__read_value(pg, &b))
		return -1;
	return (int64_t)(b - a);
}

/* Opens @events with user reads expected, or SKIPs where this board cannot. */
#define OPEN_USER(set, events, opts)						\
	do {									\
		if (read_sysctl(USER_ACCESS) != 1)				\
			SKIP(return, "kernel.perf_user_access is not 1 (run as root through run_tests.sh)"); \
		set = selfmon_set__open(events, opts);				\
		ASSERT_NE(NULL, set) TH_LOG("%s", selfmon_errmsg());		\
		ASSERT_EQ(0, selfmon_set__enable(set));				\
	} while (0)

#endif
