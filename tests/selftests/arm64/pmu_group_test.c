// SPDX-License-Identifier: MIT
/*
 * Event groups on a real arm64 PMU (the emulated board: QEMU, 6 event
 * counters and the cycle counter, -icount shift=0 so that user cycles equal
 * user instructions at every instant). Three groups of three do not fit at
 * once: the kernel multiplexes them, a whole group at a time.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <selfmon/read.h>
#include <selfmon/selfmon.h>
#include "kselftest_harness.h"
#include "board.h"

#define TRIPLE "cycles:u,instructions:u,r08:u"
#define GROUPED "{" TRIPLE "},{" TRIPLE "},{" TRIPLE "}"
#define UNGROUPED TRIPLE "," TRIPLE "," TRIPLE
#define NR 9

/* 3e8 instructions in chunks: about 75 rotations of the multiplexer (HZ 250). */
#define CHUNK 200000
#define CHUNKS 500

TEST(three_multiplexed_groups_keep_cycles_equal_to_instructions_in_every_read)
{
	struct selfmon_count c[3], all[NR];
	int64_t mixed = 0, off = 0;
	struct selfmon_set *set;

	EXACT_OR_SKIP();
	OPEN_USER(set, GROUPED, NULL);
	for (int k = 0; k < CHUNKS; k++) {
		loop3(CHUNK);
		for (int g = 0; g < 3; g++) {
			ASSERT_EQ(0, selfmon_set__read_group(set, 3 * g, c)) TH_LOG("%s", selfmon_errmsg());
			ASSERT_EQ(c[0].value, c[1].value) TH_LOG("group %d, read %d: cycles %llu, "
				"instructions %llu", g, k, (unsigned long long)c[0].value,
				(unsigned long long)c[1].value);
			ASSERT_EQ(c[1].value, c[2].value);
			ASSERT_EQ(c[0].running, c[2].running);
			ASSERT_EQ(c[0].enabled, c[2].enabled);
		}
		/* the fast read never mixes members on counters with members off them */
		ASSERT_EQ(0, selfmon_set__read_all(set, all));
		for (int i = 0; i < NR; i++) {
			int lead = (all[i - i % 3].flags & SELFMON_COUNT_USER) != 0;

			mixed += ((all[i].flags & SELFMON_COUNT_USER) != 0) != lead;
			off += !lead;
		}
	}
	EXPECT_EQ(0, mixed);
	EXPECT_GT(off, 0) TH_LOG("no group was ever off its counters: nothing was multiplexed");
	for (int g = 0; g < 3; g++) {
		const double truth = 3.0 * CHUNK * CHUNKS;
		uint64_t scaled;

		ASSERT_EQ(0, selfmon_set__read_group(set, 3 * g, c));
		EXPECT_EQ(1, selfmon_count__scale(&c[0], &scaled)) TH_LOG("group %d was never multiplexed", g);
		EXPECT_LT(abs((int)(((double)scaled - truth) * 1000.0 / truth)), 10)
			TH_LOG("group %d: scaled %llu, true %.0f", g, (unsigned long long)scaled, truth);
		TH_LOG("group %d: ran %.1f%% of the time, scaled %llu of %.0f", g,
		       100.0 * (double)c[0].running / (double)c[0].enabled, (unsigned long long)scaled, truth);
	}
	selfmon_set__close(set);
}

TEST(the_same_events_ungrouped_break_that_equality)
{
	struct selfmon_count a[NR], b[NR];
	struct selfmon_set *set;
	int unequal = 0;

	EXACT_OR_SKIP();
	OPEN_USER(set, UNGROUPED, NULL);
	for (int i = 0; i < NR; i++)
		ASSERT_EQ(0, selfmon_set__read_syscall(set, i, &a[i]));
	for (int k = 0; k < CHUNKS / 5; k++)
		loop3(CHUNK);
	for (int i = 0; i < NR; i++)
		ASSERT_EQ(0, selfmon_set__read_syscall(set, i, &b[i]));
	/* each event ran in time slices of its own: their deltas disagree */
	for (int t = 0; t < 3; t++)
		unequal += b[3 * t].value - a[3 * t].value != b[3 * t + 1].value - a[3 * t + 1].value;
	EXPECT_GT(unequal, 0);
	selfmon_set__close(set);
}

TEST(a_group_larger_than_the_pmu_is_refused_at_open_naming_the_cause)
{
	struct selfmon_set *set;

	if (read_sysctl(USER_ACCESS) != 1)
		SKIP(return, "kernel.perf_user_access is not 1 (run as root through run_tests.sh)");
	set = selfmon_set__open("{cycles:u,r08:u,r08:u,r08:u,r08:u,r08:u,r08:u,r08:u,r08:u}:D", NULL);
	EXPECT_EQ(NULL, set);
	EXPECT_EQ(EINVAL, errno);
	EXPECT_NE(NULL, strstr(selfmon_errmsg(), "must fit the PMU's counters")) TH_LOG("%s", selfmon_errmsg());
	selfmon_set__close(set);
}

TEST(a_pinned_group_the_pmu_cannot_schedule_is_a_named_error_at_read_never_a_zero)
{
	struct selfmon_count c[10];
	struct selfmon_set *set;
	int err;

	OPEN_USER(set, "{r08:u,r08:u,r08:u,r08:u,r08:u}:D,{r08:u,r08:u,r08:u,r08:u,r08:u}:D", NULL);
	loop3(CHUNK);
	/* each fits the 6 counters alone; together they cannot: the second is in error */
	ASSERT_EQ(0, selfmon_set__read_group(set, 0, c));
	EXPECT_GT(c[0].value, 3 * CHUNK - 1);
	err = selfmon_set__read_group(set, 5, c);
	EXPECT_EQ(-SELFMON_ERRNO__PINNED, err) TH_LOG("%s", selfmon_errmsg());
	EXPECT_NE(NULL, strstr(selfmon_errmsg(), "pinned")) TH_LOG("%s", selfmon_errmsg());
	EXPECT_EQ(-SELFMON_ERRNO__PINNED, selfmon_set__read(set, 7, &c[0]));
	EXPECT_EQ(-SELFMON_ERRNO__PINNED, selfmon_set__read_all(set, c));
	selfmon_set__close(set);
}

TEST_HARNESS_MAIN
