// SPDX-License-Identifier: MIT
/* Multiplexing scale, and the words selfmon has for reasons and errors. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <selfmon/selfmon.h>

static void a_counter_that_always_ran_is_not_scaled(void **state)
{
	struct selfmon_count c = { .value = 12345, .enabled = 1000, .running = 1000 };
	uint64_t s = 0;

	(void)state;
	assert_int_equal(selfmon_count__scale(&c, &s), 0);
	assert_true(s == 12345);
}

static void a_multiplexed_counter_is_scaled_by_enabled_over_running(void **state)
{
	struct selfmon_count c = { .value = 300, .enabled = 1000, .running = 250 };
	uint64_t s = 0;

	(void)state;
	assert_int_equal(selfmon_count__scale(&c, &s), 1);
	assert_true(s == 1200);
}

static void scaling_big_numbers_does_not_overflow(void **state)
{
	/* value * enabled = 1e22 does not fit in 64 bits; the answer 2e12 does */
	struct selfmon_count c = { .value = 1000000000000ull, .enabled = 10000000000ull,
				   .running = 5000000000ull };
	uint64_t s = 0;

	(void)state;
	assert_int_equal(selfmon_count__scale(&c, &s), 1);
	assert_true(s == 2000000000000ull);
}

static void scaling_rounds_down(void **state)
{
	struct selfmon_count c = { .value = 10, .enabled = 3, .running = 2 };
	uint64_t s = 0;

	(void)state;
	assert_int_equal(selfmon_count__scale(&c, &s), 1);
	assert_true(s == 15);
	c.value = 7;
	assert_int_equal(selfmon_count__scale(&c, &s), 1);
	assert_true(s == 10);	/* 10.5 */
}

static void a_counter_that_never_ran_is_enodata_and_zero(void **state)
{
	struct selfmon_count c = { .value = 55, .enabled = 1000, .running = 0 };
	uint64_t s = 99;

	(void)state;
	assert_int_equal(selfmon_count__scale(&c, &s), -ENODATA);
	assert_true(s == 0);
}

static void every_reason_has_its_own_string(void **state)
{
	(void)state;
	for (int r = 0; r < SELFMON_REASON__MAX; r++) {
		const char *s = selfmon_reason__str((enum selfmon_reason)r);

		if (!s || !*s)
			fail_msg("reason %d has no string", r);
		for (int q = 0; q < r; q++)
			if (!strcmp(s, selfmon_reason__str((enum selfmon_reason)q)))
				fail_msg("reasons %d and %d share '%s'", q, r, s);
	}
}

static void an_out_of_range_reason_still_has_a_string_and_no_fix(void **state)
{
	(void)state;
	assert_non_null(selfmon_reason__str(SELFMON_REASON__MAX));
	assert_non_null(selfmon_reason__str((enum selfmon_reason)-1));
	assert_null(selfmon_reason__fix(SELFMON_REASON__MAX));
	assert_null(selfmon_reason__fix((enum selfmon_reason)-1));
}

static void the_sysctl_reason_is_fixed_by_the_sysctl_command(void **state)
{
	(void)state;
	assert_string_equal(selfmon_reason__fix(SELFMON_REASON_SYSCTL), "sysctl -w kernel.perf_user_access=1");
	assert_non_null(strstr(selfmon_reason__str(SELFMON_REASON_SYSCTL), "perf_user_access"));
}

static void the_sysfs_rdpmc_reason_is_fixed_by_writing_the_rdpmc_file(void **state)
{
	const char *fix = selfmon_reason__fix(SELFMON_REASON_SYSFS_RDPMC);

	(void)state;
	assert_non_null(fix);
	assert_non_null(strstr(fix, "rdpmc"));
}

static void reasons_no_command_can_fix_have_no_fix(void **state)
{
	(void)state;
	assert_null(selfmon_reason__fix(SELFMON_REASON_NONE));
	assert_null(selfmon_reason__fix(SELFMON_REASON_SOFTWARE));
	assert_null(selfmon_reason__fix(SELFMON_REASON_INDEX));
	assert_null(selfmon_reason__fix(SELFMON_REASON_ARCH));
}

static void strerror_explains_a_set_used_after_fork(void **state)
{
	const char *s = selfmon_strerror(-SELFMON_ERRNO__FORKED);

	(void)state;
	assert_non_null(s);
	assert_non_null(strstr(s, "fork"));
	/* the sign does not matter */
	assert_string_equal(selfmon_strerror(SELFMON_ERRNO__FORKED), s);
}

static void strerror_has_a_text_for_every_selfmon_errno(void **state)
{
	(void)state;
	for (int e = SELFMON_ERRNO__START; e < SELFMON_ERRNO__END; e++) {
		const char *s = selfmon_strerror(-e);

		if (!s || !*s)
			fail_msg("SELFMON errno %d has no text", e);
	}
	assert_non_null(strstr(selfmon_strerror(-SELFMON_ERRNO__THREAD), "thread"));
}

static void strerror_passes_plain_errno_values_to_libc(void **state)
{
	(void)state;
	assert_string_equal(selfmon_strerror(-EACCES), strerror(EACCES));
	assert_string_equal(selfmon_strerror(ENOENT), strerror(ENOENT));
}

static void the_version_is_major_minor_patch(void **state)
{
	unsigned int a, b, c;
	char end;

	(void)state;
	assert_int_equal(sscanf(selfmon_version(), "%u.%u.%u%c", &a, &b, &c, &end), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_counter_that_always_ran_is_not_scaled),
		cmocka_unit_test(a_multiplexed_counter_is_scaled_by_enabled_over_running),
		cmocka_unit_test(scaling_big_numbers_does_not_overflow),
		cmocka_unit_test(scaling_rounds_down),
		cmocka_unit_test(a_counter_that_never_ran_is_enodata_and_zero),
		cmocka_unit_test(every_reason_has_its_own_string),
		cmocka_unit_test(an_out_of_range_reason_still_has_a_string_and_no_fix),
		cmocka_unit_test(the_sysctl_reason_is_fixed_by_the_sysctl_command),
		cmocka_unit_test(the_sysfs_rdpmc_reason_is_fixed_by_writing_the_rdpmc_file),
		cmocka_unit_test(reasons_no_command_can_fix_have_no_fix),
		cmocka_unit_test(strerror_explains_a_set_used_after_fork),
		cmocka_unit_test(strerror_has_a_text_for_every_selfmon_errno),
		cmocka_unit_test(strerror_passes_plain_errno_values_to_libc),
		cmocka_unit_test(the_version_is_major_minor_patch),
	};

	return cmocka_run_group_tests_name("scale", tests, NULL, NULL);
}
