// SPDX-License-Identifier: MIT
/* A kselftest harness test with a budget on a marker region. */
#include "kselftest_harness.h"
#include <selfmon/kselftest.h>
#include <selfmon/marker.h>

static volatile unsigned long sum;

static void work(void)
{
	SELFMON_MARKER_BEGIN("sum");
	for (unsigned long k = 0; k < 1000; k++)
		sum += k;
	SELFMON_MARKER_END("sum");
}

TEST(sum_stays_within_its_budget)
{
	for (int i = 0; i < 10; i++)
		work();
	/* The mean per call over every thread, the empty pair subtracted. */
	SELFMON_EXPECT_MARKER_BUDGET("sum", "instructions:u", 5000);
	SELFMON_ASSERT_MARKER_BUDGET("sum", "instructions:u", 6000);
}

TEST_HARNESS_MAIN
