// SPDX-License-Identifier: MIT
/*
 * Resources on the running kernel: opening and closing a set
 * again and again leaks nothing. After a warm-up, the open file descriptors
 * are the same in number and the resident set grows by less than 1 MiB
 * (not checked under ASan, whose quarantine grows it; LSan checks there).
 *
 * SELFMON_SOAK_CYCLES (default 10000) cycles, or SELFMON_SOAK_SECONDS
 * (default 2) of them, whichever ends first, so that `make check` stays
 * short on a slow board; `SELFMON_SOAK_CYCLES=100000 SELFMON_SOAK_SECONDS=600`
 * runs the audit's 1e5 cycles.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <selfmon/selfmon.h>
#include "kselftest_harness.h"
#include "fds.h"

/*
 * ASan holds freed memory in its quarantine (256 MiB by default): RSS grows
 * without a leak. There LeakSanitizer checks the heap at exit instead.
 */
#if defined(__SANITIZE_ADDRESS__)
#define RSS_CHECKED 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RSS_CHECKED 0
#endif
#endif
#ifndef RSS_CHECKED
#define RSS_CHECKED 1
#endif

#define WARMUP 200
/*
 * The harness kills a test after 30 s by default; the audit's 1e5 cycles
 * take about 24 s on an idle 2-core host and more on a loaded one. The
 * cycle count and SELFMON_SOAK_SECONDS bound a run; this only keeps the
 * harness from cutting a slow but healthy one short.
 */
#define SOAK_TIMEOUT_S 600
#define MIN_CYCLES 1000
#define RSS_SLACK_KIB 1024

static long env_long(const char *name, long dflt)
{
	const char *s = getenv(name);
	char *end;
	long v;

	if (!s || !*s)
		return dflt;
	v = strtol(s, &end, 10);
	return *end || v <= 0 ? dflt : v;
}


static long rss_kib(void)
{
	long pages = -1, rss = -1;
	FILE *f = fopen("/proc/self/statm", "r");

	if (!f)
		return -1;
	if (fscanf(f, "%ld %ld", &pages, &rss) != 2)
		rss = -1;
	fclose(f);
	return rss < 0 ? -1 : rss * (sysconf(_SC_PAGESIZE) / 1024);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Open, read and close @events @n times; 0, or the errno of the first failure. */
static int cycle(const char *events, long n, long *done, double deadline)
{
	struct selfmon_count c;

	for (*done = 0; *done < n && (deadline <= 0 || now() < deadline); (*done)++) {
		struct selfmon_set *set = selfmon_set__open(events, NULL);

		if (!set)
			return errno;
		selfmon_set__read(set, 0, &c);
		selfmon_set__close(set);
	}
	return 0;
}

static void soak(struct __test_metadata *_metadata, const char *events)
{
	long cycles = env_long("SELFMON_SOAK_CYCLES", 10000);
	double seconds = (double)env_long("SELFMON_SOAK_SECONDS", 2), t0;
	long done, fds0, fds1, rss0, rss1;

	ASSERT_EQ(0, cycle(events, WARMUP, &done, 0)) TH_LOG("%s: %s", events, selfmon_errmsg());
	fds0 = open_fds();
	rss0 = rss_kib();
	ASSERT_LT(0, fds0);
	ASSERT_LT(0, rss0);
	t0 = now();
	ASSERT_EQ(0, cycle(events, cycles, &done, t0 + seconds)) TH_LOG("%s", selfmon_errmsg());
	fds1 = open_fds();
	rss1 = rss_kib();
	TH_LOG("%s: %ld open/close cycles in %.2f s (%.1f us each); fds %ld -> %ld, RSS %ld -> %ld KiB",
	       events, done, now() - t0, (now() - t0) * 1e6 / (double)done, fds0, fds1, rss0, rss1);
	if (done < MIN_CYCLES)
		SKIP(return, "only %ld cycles in %.0f s: too few to tell a leak from noise", done, seconds);
	EXPECT_EQ(fds0, fds1);
	if (RSS_CHECKED)
		EXPECT_GT(rss0 + RSS_SLACK_KIB, rss1);
}

FIXTURE(soak) {};
FIXTURE_SETUP(soak) {}
FIXTURE_TEARDOWN(soak) {}

TEST_F_TIMEOUT(soak, open_close_cycles_of_a_software_set_keep_fds_and_rss_flat, SOAK_TIMEOUT_S)
{
	soak(_metadata, "task-clock");
}

TEST_F_TIMEOUT(soak, failed_opens_keep_fds_and_rss_flat, SOAK_TIMEOUT_S)
{
	long cycles = env_long("SELFMON_SOAK_CYCLES", 10000), fds0, rss0, i;
	double deadline = now() + (double)env_long("SELFMON_SOAK_SECONDS", 2);

	for (i = 0; i < WARMUP; i++)
		ASSERT_EQ(NULL, selfmon_set__open("task-clock,no-such-event", NULL));
	fds0 = open_fds();
	rss0 = rss_kib();
	for (i = 0; i < cycles && now() < deadline; i++)
		ASSERT_EQ(NULL, selfmon_set__open("task-clock,cpu/event=zz/", NULL));
	if (i < MIN_CYCLES)
		SKIP(return, "only %ld cycles: too few to tell a leak from noise", i);
	EXPECT_EQ(fds0, open_fds());
	if (RSS_CHECKED)
		EXPECT_GT(rss0 + RSS_SLACK_KIB, rss_kib());
}

TEST_HARNESS_MAIN
