// SPDX-License-Identifier: MIT
/*
 * Event groups on the running kernel, with software events every machine
 * has: a group opens as one perf group, is enabled and disabled as one, and
 * its fallback read is one read(2) giving every member.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/perf_event.h>

#include <selfmon/selfmon.h>
#include "kselftest_harness.h"

static volatile unsigned long sink;

static void spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
}

/* read(2) calls this thread has made so far (/proc/thread-self/io, "syscr"); -1 if unknown. */
static long read_calls(void)
{
	char line[128];
	long n = -1;
	FILE *f = fopen("/proc/thread-self/io", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "syscr: %ld", &n) == 1)
			break;
	fclose(f);
	return n;
}

/* @reads = read(2) calls @stmt makes, less what measuring them costs. */
#define COUNT_READS(reads, stmt)					\
	do {								\
		long a_ = read_calls(), b_ = read_calls();		\
		stmt;							\
		reads = (read_calls() - b_) - (b_ - a_);		\
	} while (0)

TEST(a_software_group_opens_as_one_group_led_by_its_first_event)
{
	struct selfmon_set *set = selfmon_set__open("{task-clock,page-faults},context-switches", NULL);

	ASSERT_NE(NULL, set) TH_LOG("%s", selfmon_errmsg());
	ASSERT_EQ(3, selfmon_set__nr(set));
	EXPECT_EQ(0, selfmon_set__group(set, 0));
	EXPECT_EQ(0, selfmon_set__group(set, 1));
	EXPECT_EQ(-1, selfmon_set__group(set, 2));
	EXPECT_NE(0, selfmon_set__attr(set, 0)->read_format & PERF_FORMAT_GROUP);
	/* the leader starts the group: its members are not disabled on their own */
	EXPECT_EQ(1, (int)selfmon_set__attr(set, 0)->disabled);
	EXPECT_EQ(0, (int)selfmon_set__attr(set, 1)->disabled);
	selfmon_set__close(set);
}

TEST(a_group_falling_back_is_read_with_one_read2_for_all_its_members)
{
	struct selfmon_set *set = selfmon_set__open("{task-clock,page-faults,context-switches}", NULL);
	struct selfmon_count c[3];
	long reads;
	char *mem;
	int err;

	if (read_calls() < 0)
		SKIP(return, "no /proc/thread-self/io (CONFIG_TASK_IO_ACCOUNTING) to count read(2)s");
	ASSERT_NE(NULL, set) TH_LOG("%s", selfmon_errmsg());
	ASSERT_EQ(0, selfmon_set__enable(set));
	mem = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, mem);
	for (int i = 0; i < 1 << 20; i += 4096)
		mem[i] = 1;
	spin(1000000);
	COUNT_READS(reads, err = selfmon_set__read_all(set, c));
	ASSERT_EQ(0, err) TH_LOG("%s", selfmon_errmsg());
	EXPECT_EQ(1, reads);
	EXPECT_GT(c[0].value, 0);
	EXPECT_GE(c[1].value, 256);	/* the pages just touched */
	for (int i = 1; i < 3; i++) {
		/* one read gives the group one pair of times */
		EXPECT_EQ(c[0].enabled, c[i].enabled);
		EXPECT_EQ(c[0].running, c[i].running);
	}
	COUNT_READS(reads, err = selfmon_set__read_group(set, 2, c));
	ASSERT_EQ(0, err);
	EXPECT_EQ(1, reads);
	munmap(mem, 1 << 20);
	selfmon_set__close(set);
}

TEST(the_same_events_ungrouped_take_one_read2_each)
{
	struct selfmon_set *set = selfmon_set__open("task-clock,page-faults,context-switches", NULL);
	struct selfmon_count c[3];
	long reads;
	int err;

	if (read_calls() < 0)
		SKIP(return, "no /proc/thread-self/io (CONFIG_TASK_IO_ACCOUNTING) to count read(2)s");
	ASSERT_NE(NULL, set) TH_LOG("%s", selfmon_errmsg());
	ASSERT_EQ(0, selfmon_set__enable(set));
	COUNT_READS(reads, err = selfmon_set__read_all(set, c));
	ASSERT_EQ(0, err);
	EXPECT_EQ(3, reads);
	EXPECT_EQ(-EINVAL, selfmon_set__read_group(set, 0, c));
	selfmon_set__close(set);
}

TEST(a_group_is_enabled_and_disabled_as_one_through_its_leader)
{
	struct selfmon_set *set = selfmon_set__open("{task-clock,cpu-clock}", NULL);
	struct selfmon_count a[2], b[2];

	ASSERT_NE(NULL, set) TH_LOG("%s", selfmon_errmsg());
	ASSERT_EQ(0, selfmon_set__read_group(set, 0, a));
	EXPECT_EQ(0, a[0].value);
	EXPECT_EQ(0, a[1].value);
	ASSERT_EQ(0, selfmon_set__enable(set));
	spin(2000000);
	ASSERT_EQ(0, selfmon_set__disable(set));
	ASSERT_EQ(0, selfmon_set__read_group(set, 0, a));
	EXPECT_GT(a[0].value, 0);
	EXPECT_GT(a[1].value, 0);
	spin(2000000);
	ASSERT_EQ(0, selfmon_set__read_group(set, 0, b));
	/* disabled: neither member moved */
	EXPECT_EQ(a[0].value, b[0].value);
	EXPECT_EQ(a[1].value, b[1].value);
	selfmon_set__close(set);
}

TEST(a_reset_rebases_every_member_of_a_group)
{
	struct selfmon_set *set = selfmon_set__open("{task-clock,page-faults}", NULL);
	struct selfmon_count c[2];

	ASSERT_NE(NULL, set) TH_LOG("%s", selfmon_errmsg());
	ASSERT_EQ(0, selfmon_set__enable(set));
	spin(2000000);
	ASSERT_EQ(0, selfmon_set__disable(set));
	ASSERT_EQ(0, selfmon_set__reset(set));
	ASSERT_EQ(0, selfmon_set__read_all(set, c));
	EXPECT_EQ(0, c[0].value);
	EXPECT_EQ(0, c[1].value);
	selfmon_set__close(set);
}

TEST(d_and_e_on_a_member_rather_than_the_group_are_a_syntax_error)
{
	struct selfmon_set *set = selfmon_set__open("{task-clock,page-faults:D}", NULL);

	EXPECT_EQ(NULL, set);
	EXPECT_EQ(SELFMON_ERRNO__SYNTAX, errno);
	EXPECT_NE(NULL, strstr(selfmon_errmsg(), "{...}:D")) TH_LOG("%s", selfmon_errmsg());
}

TEST(a_pinned_software_group_opens_with_pinned_on_its_leader_only)
{
	struct selfmon_set *set = selfmon_set__open("{task-clock,page-faults}:D", NULL);
	struct selfmon_count c[2];

	ASSERT_NE(NULL, set) TH_LOG("%s", selfmon_errmsg());
	EXPECT_EQ(1, (int)selfmon_set__attr(set, 0)->pinned);
	EXPECT_EQ(0, (int)selfmon_set__attr(set, 1)->pinned);
	ASSERT_EQ(0, selfmon_set__enable(set));
	spin(100000);
	EXPECT_EQ(0, selfmon_set__read_all(set, c));
	EXPECT_GT(c[0].value, 0);
	selfmon_set__close(set);
}

TEST_HARNESS_MAIN
