// SPDX-License-Identifier: MIT
/*
 * selfmon bench's arithmetic: statistics against values worked out by hand,
 * and calibration, which must never report a negative count as real.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <selfmon/bench.h>

#define assert_near(a, b) assert_true((a) - (b) < 1e-9 && (b) - (a) < 1e-9)

static void an_odd_count_has_the_middle_value_as_median(void **state)
{
	const double v[] = { 5, 1, 3 };
	struct selfmon_stats st;

	(void)state;
	assert_int_equal(selfmon_stats__compute(v, 3, &st), 0);
	assert_int_equal(st.n, 3);
	assert_near(st.min, 1);
	assert_near(st.max, 5);
	assert_near(st.mean, 3);
	assert_near(st.median, 3);
	/* ranks (n - 1) q = 0.2 and 1.8: 1 + 0.2 * 2, 3 + 0.8 * 2 */
	assert_near(st.p10, 1.4);
	assert_near(st.p90, 4.6);
	/* squared deviations 4 + 0 + 4 over n - 1 = 2: variance 4 */
	assert_near(st.stddev, 2);
	/* |x - 3| = 2, 2, 0 */
	assert_near(st.mad, 2);
	/* the input is left as it was */
	assert_near(v[0], 5);
}

static void an_even_count_averages_the_two_middle_values(void **state)
{
	const double v[] = { 4, 1, 3, 2 };
	struct selfmon_stats st;

	(void)state;
	assert_int_equal(selfmon_stats__compute(v, 4, &st), 0);
	assert_near(st.mean, 2.5);
	assert_near(st.median, 2.5);
	assert_near(st.p10, 1.3);
	assert_near(st.p90, 3.7);
	/* 2.25 + 0.25 + 0.25 + 2.25 = 5, over 3 */
	assert_near(st.stddev * st.stddev, 5.0 / 3.0);
	/* |x - 2.5| = 1.5, 0.5, 0.5, 1.5: median 1 */
	assert_near(st.mad, 1);
}

static void equal_samples_have_no_spread(void **state)
{
	const double v[] = { 7, 7, 7, 7, 7 };
	struct selfmon_stats st;

	(void)state;
	assert_int_equal(selfmon_stats__compute(v, 5, &st), 0);
	assert_near(st.min, 7);
	assert_near(st.median, 7);
	assert_near(st.p10, 7);
	assert_near(st.p90, 7);
	assert_true(st.stddev == 0);
	assert_true(st.mad == 0);
}

static void one_outlier_moves_the_mean_but_not_the_median_or_mad(void **state)
{
	const double v[] = { 10, 10, 11, 10, 1000 };
	struct selfmon_stats st;

	(void)state;
	assert_int_equal(selfmon_stats__compute(v, 5, &st), 0);
	assert_near(st.median, 10);
	assert_near(st.mean, 208.2);
	assert_near(st.mad, 0);
	assert_near(st.min, 10);
	assert_near(st.max, 1000);
	/* rank 3.6: 11 + 0.6 * 989 */
	assert_near(st.p90, 604.4);
	assert_true(st.stddev > 400);
}

static void a_single_sample_is_every_statistic(void **state)
{
	const double v[] = { 42 };
	struct selfmon_stats st;

	(void)state;
	assert_int_equal(selfmon_stats__compute(v, 1, &st), 0);
	assert_near(st.min, 42);
	assert_near(st.p10, 42);
	assert_near(st.median, 42);
	assert_near(st.p90, 42);
	assert_true(st.stddev == 0);
}

static void no_samples_is_einval_with_zeroed_statistics(void **state)
{
	struct selfmon_stats st;

	(void)state;
	memset(&st, 0xff, sizeof(st));
	assert_int_equal(selfmon_stats__compute(NULL, 0, &st), -EINVAL);
	assert_int_equal(st.n, 0);
	assert_true(st.median == 0);
}

static void quantiles_at_the_ends_are_min_and_max(void **state)
{
	const double s[] = { 1, 2, 4, 8 };

	(void)state;
	assert_near(selfmon_stats__quantile(s, 4, 0), 1);
	assert_near(selfmon_stats__quantile(s, 4, 1), 8);
	assert_near(selfmon_stats__quantile(s, 4, 0.5), 3);
	assert_near(selfmon_stats__quantile(s, 0, 0.5), 0);
}

static void empty_calibration_subtracts_the_empty_region_and_divides(void **state)
{
	double v = -1;

	(void)state;
	/* 100 iterations of 10 plus 30 of overhead */
	assert_int_equal(selfmon_calib__empty(1030, 30, 100, &v), 0);
	assert_near(v, 10);
}

static void two_length_calibration_cancels_the_fixed_cost_exactly(void **state)
{
	double v = -1;

	(void)state;
	/* L = 1000: 1000 k + c and 2000 k + c, for k = 3, c = 57 */
	assert_int_equal(selfmon_calib__two_length(3057, 6057, 1000, &v), 0);
	assert_true(v == 3.0);
}

static void a_negative_result_is_clamped_to_zero_and_flagged(void **state)
{
	double v = -1;

	(void)state;
	assert_int_equal(selfmon_calib__empty(20, 30, 10, &v), 1);
	assert_true(v == 0);
	v = -1;
	assert_int_equal(selfmon_calib__two_length(500, 490, 10, &v), 1);
	assert_true(v == 0);
}

static void exactly_zero_is_a_result_not_a_clamp(void **state)
{
	double v = -1;

	(void)state;
	assert_int_equal(selfmon_calib__two_length(500, 500, 10, &v), 0);
	assert_true(v == 0);
	assert_int_equal(selfmon_calib__empty(30, 30, 10, &v), 0);
	assert_true(v == 0);
}

static void calibration_names_are_the_cli_words(void **state)
{
	(void)state;
	assert_string_equal(selfmon_calib__str(SELFMON_CALIB_TWO_LENGTH), "two-length");
	assert_string_equal(selfmon_calib__str(SELFMON_CALIB_EMPTY), "empty");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(an_odd_count_has_the_middle_value_as_median),
		cmocka_unit_test(an_even_count_averages_the_two_middle_values),
		cmocka_unit_test(equal_samples_have_no_spread),
		cmocka_unit_test(one_outlier_moves_the_mean_but_not_the_median_or_mad),
		cmocka_unit_test(a_single_sample_is_every_statistic),
		cmocka_unit_test(no_samples_is_einval_with_zeroed_statistics),
		cmocka_unit_test(quantiles_at_the_ends_are_min_and_max),
		cmocka_unit_test(empty_calibration_subtracts_the_empty_region_and_divides),
		cmocka_unit_test(two_length_calibration_cancels_the_fixed_cost_exactly),
		cmocka_unit_test(a_negative_result_is_clamped_to_zero_and_flagged),
		cmocka_unit_test(exactly_zero_is_a_result_not_a_clamp),
		cmocka_unit_test(calibration_names_are_the_cli_words),
	};

	return cmocka_run_group_tests_name("bench_stats", tests, NULL, NULL);
}
