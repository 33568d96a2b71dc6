// SPDX-License-Identifier: MIT
/*
 * What a user without CAP_PERFMON gets at kernel.perf_event_paranoid 2 and
 * 3 (perf_event_open(2), "perf_event_paranoid"): at 2 user-space counting,
 * which selfmon falls back to, as perf does, and says so; at 3 (Debian's
 * patch) nothing, with a message that names the value that would do, never
 * the one in force. make check runs this as such a user through
 * scripts/check-unpriv.sh.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include <selfmon/selfmon.h>
#include "kselftest_harness.h"

static long paranoid(void)
{
	long v = -100;
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -100;
		fclose(f);
	}
	return v;
}

/* CAP_PERFMON (38) or CAP_SYS_ADMIN (21) in the effective set: the sysctl does not apply. */
static int privileged(void)
{
	unsigned long long caps = 0;
	char line[128];
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	if (f)
		fclose(f);
	return geteuid() == 0 || (caps & (1ull << 38 | 1ull << 21));
}

#define UNPRIVILEGED_OR_SKIP()							\
	do {									\
		if (privileged())						\
			SKIP(return, "privileged: run as a user without CAP_PERFMON (make check does, " \
			     "through scripts/check-unpriv.sh)");			\
	} while (0)

/* The message must not tell the user to set what is already set. */
static int suggests_current(long level)
{
	char v[64];

	snprintf(v, sizeof(v), "perf_event_paranoid=%ld", level);
	return strstr(selfmon_errmsg(), v) != NULL;
}

TEST(a_user_counts_own_task_clock_in_user_space_or_learns_the_value_that_would_do)
{
	long level = paranoid();
	struct selfmon_set *set;
	struct selfmon_count c;

	UNPRIVILEGED_OR_SKIP();
	ASSERT_GE(level, 2) TH_LOG("check-unpriv.sh sets 2 or 3; found %ld", level);
	set = selfmon_set__open("task-clock", NULL);
	if (!set) {
		/* Debian's 3 */
		EXPECT_TRUE(errno == EACCES || errno == EPERM);
		EXPECT_NE(NULL, strstr(selfmon_errmsg(), "perf_event_paranoid=2")) TH_LOG("%s", selfmon_errmsg());
		EXPECT_FALSE(suggests_current(level)) TH_LOG("%s", selfmon_errmsg());
		return;
	}
	/* counting the kernel is not allowed here: selfmon narrowed it, and said so */
	EXPECT_EQ(1, (int)selfmon_set__attr(set, 0)->exclude_kernel);
	EXPECT_EQ(1, (int)selfmon_set__attr(set, 0)->exclude_hv);
	ASSERT_NE(NULL, selfmon_set__note(set, 0));
	EXPECT_NE(NULL, strstr(selfmon_set__note(set, 0), "user space only"));
	ASSERT_EQ(0, selfmon_set__enable(set));
	ASSERT_EQ(0, selfmon_set__read(set, 0, &c));
	EXPECT_GT(c.value, 0);
	selfmon_set__close(set);
}

TEST(a_user_asking_for_the_kernel_is_refused_with_the_value_that_would_allow_it)
{
	long level = paranoid();
	struct selfmon_set *set;

	UNPRIVILEGED_OR_SKIP();
	ASSERT_GE(level, 2) TH_LOG("check-unpriv.sh sets 2 or 3; found %ld", level);
	set = selfmon_set__open("task-clock:uk", NULL);
	EXPECT_EQ(NULL, set);
	EXPECT_TRUE(errno == EACCES || errno == EPERM);
	EXPECT_NE(NULL, strstr(selfmon_errmsg(), "perf_event_paranoid=1")) TH_LOG("%s", selfmon_errmsg());
	EXPECT_FALSE(suggests_current(level)) TH_LOG("%s", selfmon_errmsg());
	selfmon_set__close(set);
}

TEST(a_user_asking_for_user_space_only_gets_no_note)
{
	struct selfmon_set *set;

	UNPRIVILEGED_OR_SKIP();
	set = selfmon_set__open("task-clock:u", NULL);
	if (!set)
		SKIP(return, "this kernel refuses users everything (Debian's paranoid 3): %s", selfmon_errmsg());
	EXPECT_EQ(NULL, selfmon_set__note(set, 0));
	selfmon_set__close(set);
}

TEST_HARNESS_MAIN
