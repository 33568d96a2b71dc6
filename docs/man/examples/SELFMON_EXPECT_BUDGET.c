// SPDX-License-Identifier: MIT
/* A kselftest harness test with budgets (kselftest_harness.h from the kernel's tree). */
#include <string.h>
#include "kselftest_harness.h"
#include <selfmon/kselftest.h>

static volatile size_t len;

TEST(strlen_stays_cheap)
{
	SELFMON_EXPECT_BUDGET("instructions:u", 200, len = strlen("key = value"));
	SELFMON_EXPECT_WITHIN("instructions:u", 60, 50, len = strlen("key = value"));
	SELFMON_ASSERT_BUDGET("instructions:u", 400, len = strlen("key = value"));
}

TEST_HARNESS_MAIN
