// SPDX-License-Identifier: MIT
/*
 * A performance budget in a cmocka test, as a user writes it: built against
 * the installed library (pkg-config selfmon) and cmocka. The assertion is one
 * line; where instructions:u cannot be counted the test is skipped, with the
 * reason (or fails, under SELFMON_EXPECT_USER_READ=1).
 *
 *   cc -O2 budget_cmocka.c $(pkg-config --cflags --libs selfmon) -lcmocka
 *
 * The budget is for the optimized code (-O2); unoptimized code costs more.
 */
#include <stddef.h>
#include <selfmon/cmocka.h>

static const unsigned char line[64] = "GET /index.html HTTP/1.1 and some more bytes to sum up";

/* The code under test: a checksum of a line, 6 instructions a byte on arm64. */
static __attribute__((noinline)) unsigned int checksum(const unsigned char *p, size_t n)
{
	unsigned int sum = 0;

	for (size_t i = 0; i < n; i++)
		sum = sum * 31 + p[i];
	return sum;
}

static volatile unsigned int result;

static void checksum_of_a_line_stays_within_its_budget(void **state)
{
	(void)state;
	SELFMON_ASSERT_BUDGET("instructions:u", 450, result = checksum(line, sizeof(line)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(checksum_of_a_line_stays_within_its_budget),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
