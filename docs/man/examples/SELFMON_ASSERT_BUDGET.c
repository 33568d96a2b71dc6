// SPDX-License-Identifier: MIT
/* A cmocka test with budgets; link with -lselfmon and -lcmocka. */
#include <string.h>
#include <selfmon/cmocka.h>

static volatile size_t len;

static void strlen_stays_cheap(void **state)
{
	(void)state;
	SELFMON_ASSERT_BUDGET("instructions:u", 200, len = strlen("key = value"));
	SELFMON_ASSERT_WITHIN("instructions:u", 60, 50, len = strlen("key = value"));
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(strlen_stays_cheap) };

	return cmocka_run_group_tests(tests, NULL, NULL);
}
