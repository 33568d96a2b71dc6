// SPDX-License-Identifier: MIT
/*
 * util/sort.h: the one comparator, sort, quantile and median every layer
 * shares (the library's statistics, the budgets, the bench driver, the CLI).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../util/sort.h"

#define assert_near(a, b) assert_true(fabs((a) - (b)) < 1e-12)

static void the_comparator_orders_ascending_and_equal_is_zero(void **state)
{
	double one = 1, two = 2, minus = -0.5;

	(void)state;
	assert_true(util_cmp_double(&one, &two) < 0);
	assert_true(util_cmp_double(&two, &one) > 0);
	assert_int_equal(util_cmp_double(&one, &one), 0);
	assert_true(util_cmp_double(&minus, &one) < 0);
}

static void sorting_puts_values_in_ascending_order(void **state)
{
	double v[] = { 3, -1, 2.5, 1e300, -1e300, 0 };
	const double want[] = { -1e300, -1, 0, 2.5, 3, 1e300 };

	(void)state;
	util_sort_doubles(v, 6);
	for (int i = 0; i < 6; i++)
		assert_near(v[i], want[i]);
	util_sort_doubles(v, 0); /* nothing to do, nothing read */
}

static void a_quantile_interpolates_between_the_closest_ranks(void **state)
{
	const double s[] = { 1, 2, 4, 8 };

	(void)state;
	/* rank (n - 1) q: 0.25 -> 0.75, between 1 and 2 */
	assert_near(util_quantile(s, 4, 0.25), 1.75);
	assert_near(util_quantile(s, 4, 0.5), 3);
	assert_near(util_quantile(s, 4, 1), 8);
	assert_near(util_quantile(s, 4, -1), 1);
	assert_near(util_quantile(s, 4, 2), 8);
	assert_near(util_quantile(s, 0, 0.5), 0);
	assert_true(isnan(util_quantile(s, 4, NAN)));
}

static void the_median_is_the_middle_value_or_the_mean_of_the_middle_two(void **state)
{
	double odd[] = { 9, 1, 5 }, even[] = { 7, 1, 3, 100 }, one[] = { 42 };

	(void)state;
	assert_near(util_median(odd, 3), 5);
	assert_near(util_median(even, 4), 5);
	/* and the values are left sorted */
	assert_near(even[0], 1);
	assert_near(even[3], 100);
	assert_near(util_median(one, 1), 42);
	assert_near(util_median(one, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_comparator_orders_ascending_and_equal_is_zero),
		cmocka_unit_test(sorting_puts_values_in_ascending_order),
		cmocka_unit_test(a_quantile_interpolates_between_the_closest_ranks),
		cmocka_unit_test(the_median_is_the_middle_value_or_the_mean_of_the_middle_two),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
