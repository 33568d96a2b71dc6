// SPDX-License-Identifier: MIT
/*
 * Edge values of the public API: every input
 * has a defined result, never undefined behaviour. INT_MIN has no negation,
 * a NaN quantile has no rank, a scaled count can exceed 64 bits, and a NULL
 * result pointer is -EINVAL from every non-inline function. The read cases
 * open a task-clock set, which any kernel with perf events offers.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <selfmon/bench.h>
#include <selfmon/selfmon.h>

static void strerror_of_int_min_is_a_defined_text(void **state)
{
	char want[128];

	(void)state;
	assert_string_equal(selfmon_strerror(INT_MIN), "unknown error");
	/* glibc reuses one buffer for unknown numbers: compare with a copy */
	snprintf(want, sizeof(want), "%s", strerror(INT_MAX));
	assert_string_equal(selfmon_strerror(INT_MAX), want);
	assert_string_equal(selfmon_strerror(-EINVAL), strerror(EINVAL));
	assert_string_equal(selfmon_strerror(-SELFMON_ERRNO__SYNTAX), selfmon_strerror(SELFMON_ERRNO__SYNTAX));
}

static void a_nan_quantile_is_nan_and_reads_nothing_out_of_bounds(void **state)
{
	const double v[3] = { 1, 2, 3 };

	(void)state;
	assert_true(isnan(selfmon_stats__quantile(v, 3, NAN)));
	assert_true(isnan(selfmon_stats__quantile(v, 3, -NAN)));
}

static void a_quantile_outside_0_to_1_is_the_nearest_end(void **state)
{
	const double v[3] = { 1, 2, 3 };

	(void)state;
	assert_true(selfmon_stats__quantile(v, 3, -1) == 1);
	assert_true(selfmon_stats__quantile(v, 3, -INFINITY) == 1);
	assert_true(selfmon_stats__quantile(v, 3, 7) == 3);
	assert_true(selfmon_stats__quantile(v, 3, INFINITY) == 3);
	assert_true(selfmon_stats__quantile(v, 3, 0.5) == 2);
}

static void a_scaled_count_beyond_64_bits_is_eoverflow_and_saturates(void **state)
{
	/* 1e12 events in 1% of 3.6e12 ns: 1e14, fine; 1e12 * 3.6e12 / 100 is not */
	struct selfmon_count big = { .value = 1000000000000ull, .enabled = 3600000000000ull, .running = 100 };
	struct selfmon_count ok = { .value = 1000000000000ull, .enabled = 3600000000000ull,
				    .running = 36000000000ull };
	uint64_t scaled = 0;

	(void)state;
	assert_int_equal(selfmon_count__scale(&big, &scaled), -EOVERFLOW);
	assert_true(scaled == UINT64_MAX);
	assert_non_null(strstr(selfmon_errmsg(), "64 bits"));
	assert_int_equal(selfmon_count__scale(&ok, &scaled), 1);
	assert_true(scaled == 100000000000000ull);
	/* the largest exact result still fits */
	big.value = UINT64_MAX;
	big.enabled = 2;
	big.running = 2;
	assert_int_equal(selfmon_count__scale(&big, &scaled), 0);
	assert_true(scaled == UINT64_MAX);
}

static void scale_with_a_null_argument_is_einval(void **state)
{
	struct selfmon_count c = { .value = 1, .enabled = 2, .running = 1 };
	uint64_t scaled = 42;

	(void)state;
	assert_int_equal(selfmon_count__scale(NULL, &scaled), -EINVAL);
	assert_true(scaled == 42);
	assert_int_equal(selfmon_count__scale(&c, NULL), -EINVAL);
	assert_non_null(strstr(selfmon_errmsg(), "NULL"));
}

static void every_read_into_a_null_count_is_einval_with_a_message(void **state)
{
	struct selfmon_set *set = selfmon_set__open("task-clock", NULL);
	struct selfmon_count c;

	(void)state;
	if (!set) {
		print_message("# SKIP task-clock does not open here: %s\n", selfmon_errmsg());
		skip();
	}
	assert_int_equal(selfmon_set__read(set, 0, NULL), -EINVAL);
	assert_non_null(strstr(selfmon_errmsg(), "selfmon_set__read"));
	assert_int_equal(selfmon_set__read_raw(set, 0, NULL), -EINVAL);
	assert_int_equal(selfmon_set__read_syscall(set, 0, NULL), -EINVAL);
	assert_int_equal(selfmon_set__read_all(set, NULL), -EINVAL);
	assert_non_null(strstr(selfmon_errmsg(), "selfmon_set__read_all"));
	/* the set still reads */
	assert_int_equal(selfmon_set__read(set, 0, &c), 0);
	assert_int_equal(selfmon_set__read_all(set, &c), 0);
	selfmon_set__close(set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(strerror_of_int_min_is_a_defined_text),
		cmocka_unit_test(a_nan_quantile_is_nan_and_reads_nothing_out_of_bounds),
		cmocka_unit_test(a_quantile_outside_0_to_1_is_the_nearest_end),
		cmocka_unit_test(a_scaled_count_beyond_64_bits_is_eoverflow_and_saturates),
		cmocka_unit_test(scale_with_a_null_argument_is_einval),
		cmocka_unit_test(every_read_into_a_null_count_is_einval_with_a_message),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
