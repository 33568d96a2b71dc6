// SPDX-License-Identifier: MIT
/*
 * Budgets in kselftest harness tests (<selfmon/kselftest.h>) on any machine:
 * task-clock (a software event, read by read(2)) within a generous budget
 * passes; over budget the assertion ends the test with the whole message;
 * an event this machine lacks skips with the reason, and fails under
 * SELFMON_EXPECT_USER_READ=1; a counter that did not run (disabled with
 * prctl(2)) fails. A failing or skipping assertion runs in a
 * child process, whose output the test reads. A thread's measurers close
 * when it exits.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>

#include "kselftest_harness.h"
#include <selfmon/kselftest.h>
#include "child.h"
#include "fds.h"

#define NO_SUCH_EVENT "selfmon_no_such_pmu/event=0x1/"

/* Burn @ns of this thread's CPU time: what task-clock counts. */
static void spin_ns(long ns)
{
	struct timespec a, b;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < ns);
}

TEST(task_clock_within_a_generous_budget_passes)
{
	SELFMON_ASSERT_BUDGET("task-clock", 1e12, spin_ns(100000));
	SELFMON_EXPECT_BUDGET("task-clock", 1e12, spin_ns(100000));
	/* 1 ms of CPU time, give or take 60%: the reads' own cost is subtracted */
	SELFMON_ASSERT_WITHIN("task-clock", 1e6, 60, spin_ns(1000000));
}

struct child_arg {
	struct __test_metadata *md;
	const char *event;
	double budget;
};

static void child_assert(struct __test_metadata *_metadata, const struct child_arg *a)
{
	SELFMON_ASSERT_BUDGET(a->event, a->budget, spin_ns(100000));
}

/* The assertion in the child: a failure ends it (abort), a skip returns 42. */
static int child_assert_then_skip_code(void *p)
{
	struct child_arg *a = p;

	/* SKIP() leaves its reason there, in the 6.1 and the 6.12 harness alike. */
	a->md->results->reason[0] = '\0';
	child_assert(a->md, a);
	return a->md->results->reason[0] ? 42 : 0;
}

TEST(over_budget_the_assertion_fails_with_measured_budget_overhead_path_and_repetitions)
{
	struct child_arg a = { _metadata, "task-clock", 1000 };
	char out[8192];
	int st;

	unsetenv("SELFMON_EXPECT_USER_READ");
	st = run_child(child_assert_then_skip_code, &a, out, sizeof(out));
	ASSERT_FALSE(WIFEXITED(st) && (WEXITSTATUS(st) == 0 || WEXITSTATUS(st) == 42)) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "task-clock: measured ")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "budget <= 1000;")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "overhead subtracted ")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "read path read(2)")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "median of 5 repetitions")) TH_LOG("%s", out);
}

TEST(an_event_this_machine_lacks_skips_with_the_reason_or_fails_when_it_must_count)
{
	struct child_arg a = { _metadata, NO_SUCH_EVENT, 1e12 };
	char out[8192];
	int st;

	unsetenv("SELFMON_EXPECT_USER_READ");
	st = run_child(child_assert_then_skip_code, &a, out, sizeof(out));
	/* The harness shares its results page with the child: the child's reason is not this test's. */
	_metadata->results->reason[0] = '\0';
	ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 42) TH_LOG("status %#x: %s", st, out);
	EXPECT_NE(NULL, strstr(out, "cannot be measured here")) TH_LOG("%s", out);

	setenv("SELFMON_EXPECT_USER_READ", "1", 1);
	st = run_child(child_assert_then_skip_code, &a, out, sizeof(out));
	EXPECT_FALSE(WIFEXITED(st) && (WEXITSTATUS(st) == 0 || WEXITSTATUS(st) == 42)) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "SELFMON_EXPECT_USER_READ=1: this machine must count it")) TH_LOG("%s", out);
}

/* The assertion with the thread's counters opened, then disabled: 0 if it returns. */
static int child_assert_disabled(void *p)
{
	struct child_arg *a = p;
	struct selfmon_measure m;

	SELFMON_MEASURE(m, a->event, spin_ns(1000));
	if (m.err || prctl(PR_TASK_PERF_EVENTS_DISABLE))
		return 43;
	a->md->results->reason[0] = '\0';
	child_assert(a->md, a);
	return a->md->results->reason[0] ? 42 : 0;
}

TEST(a_counter_that_did_not_run_fails_naming_the_cause_and_the_fix)
{
	struct child_arg a = { _metadata, "task-clock", 1e12 };
	char out[8192];
	int st;

	unsetenv("SELFMON_EXPECT_USER_READ");
	st = run_child(child_assert_disabled, &a, out, sizeof(out));
	_metadata->results->reason[0] = '\0';
	/* Neither a pass (0) nor a skip (42): the assertion ended the child. */
	ASSERT_FALSE(WIFEXITED(st) && WEXITSTATUS(st) <= 43) TH_LOG("status %#x: %s", st, out);
	EXPECT_NE(NULL, strstr(out, "task-clock: nothing was measured, which is no pass: ")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "time_running did not advance")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "PR_TASK_PERF_EVENTS_DISABLE")) TH_LOG("%s", out);
}

/* One measurement in a thread of its own, which then exits: its verdict in @arg. */
static void *measure_once(void *arg)
{
	struct selfmon_measure m;
	char msg[640];

	SELFMON_MEASURE(m, "task-clock", spin_ns(1000));
	*(int *)arg = selfmon_measure__check_le(&m, 1e12, msg, sizeof(msg));
	return NULL;
}

TEST(a_thread_that_exits_closes_its_budget_counters)
{
	int before = open_fds(), verdict;

	/* More threads than a process's usual 1024 fds would hold, had each left its counter open. */
	for (int i = 0; i < 1100; i++) {
		pthread_t t;

		verdict = -1;
		ASSERT_EQ(0, pthread_create(&t, NULL, measure_once, &verdict));
		ASSERT_EQ(0, pthread_join(t, NULL));
		ASSERT_EQ(SELFMON_VERDICT_PASS, verdict) TH_LOG("thread %d", i);
	}
	EXPECT_EQ(before, open_fds());
}

TEST_HARNESS_MAIN
