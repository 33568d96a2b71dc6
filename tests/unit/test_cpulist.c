// SPDX-License-Identifier: MIT
/* Kernel CPU lists ("0-3,6,8-11", sysfs 'cpus' and 'cpumask' files) both ways. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../core/cpulist.h"

/* @set holds exactly the CPUs of the -1-terminated @want. */
static void assert_cpus(const cpu_set_t *set, const int *want)
{
	int n = 0;

	for (; want[n] >= 0; n++)
		if (!CPU_ISSET(want[n], set))
			fail_msg("CPU %d missing", want[n]);
	assert_int_equal(CPU_COUNT(set), n);
}

static void ranges_and_singles_mix(void **state)
{
	static const int want[] = { 0, 1, 2, 3, 6, 8, 9, 10, 11, -1 };
	cpu_set_t set;

	(void)state;
	assert_int_equal(selfmon_cpulist__parse("0-3,6,8-11", &set), 0);
	assert_cpus(&set, want);
}

static void a_single_cpu_is_a_list(void **state)
{
	static const int want[] = { 5, -1 };
	cpu_set_t set;

	(void)state;
	assert_int_equal(selfmon_cpulist__parse("5", &set), 0);
	assert_cpus(&set, want);
}

static void the_trailing_newline_of_a_sysfs_file_is_accepted(void **state)
{
	static const int want[] = { 4, 5, -1 };
	cpu_set_t set;

	(void)state;
	assert_int_equal(selfmon_cpulist__parse("4-5\n", &set), 0);
	assert_cpus(&set, want);
}

static void parse_forgets_what_the_set_held_before(void **state)
{
	static const int want[] = { 2, -1 };
	cpu_set_t set;

	(void)state;
	CPU_ZERO(&set);
	CPU_SET(7, &set);
	assert_int_equal(selfmon_cpulist__parse("2", &set), 0);
	assert_cpus(&set, want);
}

static void malformed_lists_are_einval(void **state)
{
	static const char *const bad[] = {
		"3-1", "a", "0-", "-1", "1,,2", "0-3x", "1 2", "0-99999", ",", "1,",
	};
	cpu_set_t set;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int err = selfmon_cpulist__parse(bad[i], &set);

		if (err != -EINVAL)
			fail_msg("'%s' parsed with %d, want -EINVAL", bad[i], err);
	}
}

static void format_joins_runs_into_ranges(void **state)
{
	static const int cpus[] = { 0, 1, 2, 3, 6, 8, 9, 10, 11, 63 };
	char buf[64];
	cpu_set_t set;

	(void)state;
	CPU_ZERO(&set);
	for (size_t i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++)
		CPU_SET(cpus[i], &set);
	assert_int_equal(selfmon_cpulist__format(&set, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "0-3,6,8-11,63");
}

static void format_then_parse_gives_the_same_set(void **state)
{
	static const char *const lists[] = { "0", "0-3,6,8-11", "1,3,5,7", "4-5", "0-1023" };
	char buf[128];
	cpu_set_t a, b;

	(void)state;
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		assert_int_equal(selfmon_cpulist__parse(lists[i], &a), 0);
		assert_int_equal(selfmon_cpulist__format(&a, buf, sizeof(buf)), 0);
		assert_string_equal(buf, lists[i]);
		assert_int_equal(selfmon_cpulist__parse(buf, &b), 0);
		assert_true(CPU_EQUAL(&a, &b));
	}
}

static void an_empty_set_formats_as_an_empty_string(void **state)
{
	char buf[8] = "junk";
	cpu_set_t set;

	(void)state;
	CPU_ZERO(&set);
	assert_int_equal(selfmon_cpulist__format(&set, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
}

static void format_into_a_short_buffer_is_enospc(void **state)
{
	char buf[6];
	cpu_set_t set;

	(void)state;
	assert_int_equal(selfmon_cpulist__parse("0-3,6,8-11", &set), 0);
	assert_int_equal(selfmon_cpulist__format(&set, buf, sizeof(buf)), -ENOSPC);
	/* exactly enough room (with the NUL) is fine */
	assert_int_equal(selfmon_cpulist__parse("0-3,6", &set), 0);
	assert_int_equal(selfmon_cpulist__format(&set, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "0-3,6");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ranges_and_singles_mix),
		cmocka_unit_test(a_single_cpu_is_a_list),
		cmocka_unit_test(the_trailing_newline_of_a_sysfs_file_is_accepted),
		cmocka_unit_test(parse_forgets_what_the_set_held_before),
		cmocka_unit_test(malformed_lists_are_einval),
		cmocka_unit_test(format_joins_runs_into_ranges),
		cmocka_unit_test(format_then_parse_gives_the_same_set),
		cmocka_unit_test(an_empty_set_formats_as_an_empty_string),
		cmocka_unit_test(format_into_a_short_buffer_is_enospc),
	};

	return cmocka_run_group_tests_name("cpulist", tests, NULL, NULL);
}
