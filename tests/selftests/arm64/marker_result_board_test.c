// SPDX-License-Identifier: MIT
/*
 * A region's figures read inside the program on the arm64 board, exactly
 * (QEMU -icount shift=0, one CPU): a region of 3n known instructions gives
 * 3n per call in selfmon_marker__result(), per thread and over threads, and
 * a budget on it passes at 3n and fails below. Each test runs in a process
 * of its own (the harness forks), so each starts with markers of its own.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <selfmon/budget.h>
#include <selfmon/marker_result.h>
#include <selfmon/selfmon.h>
#include "kselftest_harness.h"
#include "board.h"
#include <selfmon/kselftest.h>

/* Exactly @N3 instructions, no operand for the compiler to set up: N3 nops. */
#define NOPS(N3) __asm__ __volatile__(".rept " #N3 "\n\tnop\n\t.endr")

/*
 * A read of a page the kernel rewrites meanwhile is read again, and at a
 * region's end that re-read is counted: at most one of each of the two
 * pages (marker_board_test.c, REREAD_MAX). Exact counts are the minimum.
 */
enum { REREAD_MAX = 2 * 24 };

static __attribute__((noinline)) void region_3000(void)
{
	SELFMON_MARKER_BEGIN("result 3000");
	NOPS(3000);
	SELFMON_MARKER_END("result 3000");
}

static void *thread_regions(void *arg)
{
	int n = (int)(long)arg;

	for (int i = 0; i < n; i++)
		region_3000();
	return NULL;
}

/* instructions:u's index in @r; -1: not counted. */
static int insns_index(const struct selfmon_marker_result *r)
{
	for (int i = 0; i < r->nr_events; i++)
		if (!strcmp(r->event[i].name, "instructions:u"))
			return i;
	return -1;
}

/* @r counted @n calls of exactly 3000 instructions each (up to a re-read over), none by read(2). */
#define EXPECT_3000(r, n)                                                                  \
	do {                                                                                   \
		int i_ = insns_index(&(r));                                                    \
		ASSERT_LE(0, i_) TH_LOG("instructions:u not counted");                        \
		EXPECT_EQ((uint64_t)(n), (r).calls);                                       \
		EXPECT_EQ(3000, (r).event[i_].min);                                            \
		EXPECT_LE((r).event[i_].max, 3000 + REREAD_MAX);                               \
		EXPECT_LE(3000 * (int64_t)(n), (r).event[i_].sum);                         \
		EXPECT_LE((r).event[i_].sum, (3000 + REREAD_MAX) * (int64_t)(n));          \
		EXPECT_EQ(0, (r).fallbacks);                                                   \
		EXPECT_EQ((r).time_enabled, (r).time_running);                                 \
	} while (0)

TEST(a_result_of_a_region_of_3000_instructions_gives_3000_per_call_per_thread_and_in_total)
{
	struct selfmon_marker_result r = { .sz = sizeof(r) };
	pthread_t t[2];

	EXACT_USER_OR_SKIP();
	unsetenv("SELFMON_EVENTS");
	/* One after the other: thread 1 of the region is the first. */
	for (long k = 0; k < 2; k++) {
		ASSERT_EQ(0, pthread_create(&t[k], NULL, thread_regions, (void *)(10 + 5 * k)));
		ASSERT_EQ(0, pthread_join(t[k], NULL));
	}
	ASSERT_EQ(0, selfmon_marker__result("result 3000", -1, &r)) TH_LOG("%s", selfmon_errmsg());
	EXPECT_EQ(2, r.threads);
	EXPECT_3000(r, 25);
	ASSERT_EQ(0, selfmon_marker__result("result 3000", 1, &r)) TH_LOG("%s", selfmon_errmsg());
	EXPECT_EQ(1, r.exited);
	EXPECT_3000(r, 10);
	ASSERT_EQ(0, selfmon_marker__result("result 3000", 2, &r)) TH_LOG("%s", selfmon_errmsg());
	EXPECT_3000(r, 15);
}

TEST(a_marker_budget_on_a_region_of_3000_instructions_fails_at_2999_and_passes_with_room_for_a_reread)
{
	char msg[640];

	EXACT_USER_OR_SKIP();
	unsetenv("SELFMON_EVENTS");
	for (int i = 0; i < 20; i++)
		region_3000();
	EXPECT_EQ(SELFMON_VERDICT_FAIL,
		  selfmon_marker__check_le("result 3000", "instructions:u", 2999, msg, sizeof(msg)))
	TH_LOG("%s", msg);
	SELFMON_ASSERT_MARKER_BUDGET("result 3000", "instructions:u", 3000 + REREAD_MAX);
}

TEST_HARNESS_MAIN
