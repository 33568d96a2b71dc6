// SPDX-License-Identifier: MIT
/*
 * selfmon compare: the verdicts (exact and statistical), the limits and
 * the U test against known values (the command itself:
 * test_compare_command.c).
 *
 * The U test's reference values come from SciPy 1.10.1 (Debian 12's
 * python3-scipy), computed offline with
 *   scipy.stats.mannwhitneyu(a, b, method="asymptotic")   (two-sided)
 *   scipy.stats.norm.sf(z)
 * on the samples written below; the constants are its output, copied.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../tools/cli.h"
#include "../../tools/compare.h"

#define NEAR(a, b, tol) assert_true((a) >= (b) - (tol) && (a) <= (b) + (tol))

static void normal_tail_matches_scipy(void **state)
{
	(void)state;
	NEAR(cli_normal_sf(0), 0.5, 1e-15);
	NEAR(cli_normal_sf(1), 0.15865525393145707, 1e-13);
	NEAR(cli_normal_sf(1.96), 0.024997895148220435, 1e-13);
	NEAR(cli_normal_sf(3.5), 0.00023262907903552502, 1e-15);
	NEAR(cli_normal_sf(6) / 9.865876450376946e-10, 1, 1e-9);
	NEAR(cli_normal_sf(-1), 0.8413447460685429, 1e-13);
}

static const double one_to_9[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };

static void u_test_matches_scipy_on_shifted_tied_and_separate_samples(void **state)
{
	static const double five_to_13[] = { 5, 6, 7, 8, 9, 10, 11, 12, 13 };
	static const double ta[] = { 1, 1, 2, 2, 3, 3, 4, 4, 5 }, tb[] = { 3, 3, 4, 4, 5, 5, 6, 6, 7 };
	static const double apart[] = { 10, 11, 12, 13, 14, 15, 16, 17, 18 };
	static const double fa[] = { 10.1, 10.4, 9.8, 10.0, 10.3, 9.9, 10.2, 10.6, 9.7, 10.05, 10.15, 9.95,
				     10.25, 10.35, 9.85 };
	static const double fb[] = { 10.5, 10.9, 10.2, 10.4, 10.8, 10.3, 10.7, 11.0, 10.1, 10.45, 10.55, 10.35,
				     10.65, 10.75, 10.25 };
	double u;

	(void)state;
	NEAR(cli_mann_whitney(one_to_9, 9, five_to_13, 9, &u), 0.014908315051868197, 1e-12);
	NEAR(u, 12.5, 1e-12);
	NEAR(cli_mann_whitney(ta, 9, tb, 9, &u), 0.015602443282568509, 1e-12);
	NEAR(u, 13, 1e-12);
	NEAR(cli_mann_whitney(one_to_9, 9, apart, 9, &u), 0.00041229480206169127, 1e-14);
	NEAR(u, 0, 1e-12);
	NEAR(cli_mann_whitney(fa, 15, fb, 15, &u), 0.0004894121332274478, 1e-14);
	NEAR(u, 28, 1e-12);
	/* symmetric: the same p either way round */
	NEAR(cli_mann_whitney(five_to_13, 9, one_to_9, 9, &u), 0.014908315051868197, 1e-12);
	/* every value tied: no evidence at all */
	NEAR(cli_mann_whitney(one_to_9, 1, one_to_9, 1, &u), 1, 0);
}

static struct cli_series series(const char *name, const double *v, int n)
{
	return (struct cli_series){ .name = (char *)name, .v = (double *)v, .n = n };
}

static void an_exact_metric_fails_one_count_over_a_zero_limit(void **state)
{
	static const double b[] = { 100, 100, 100 }, n1[] = { 101, 101, 101 }, n0[] = { 99, 99, 99 };
	struct cli_series base = series("instructions:u", b, 3), up = series("instructions:u", n1, 3),
			  down = series("instructions:u", n0, 3);
	struct cli_limit zero = { "instructions", 0, true }, two = { "instructions", 2, false };
	struct cli_result r;

	(void)state;
	cli_compare_judge(&base, &up, &zero, 0.05, &r);
	assert_true(r.exact);
	assert_int_equal(r.verdict, CLI_REGRESSION);
	assert_true(r.p < 0);
	cli_compare_judge(&base, &base, &zero, 0.05, &r);
	assert_int_equal(r.verdict, CLI_SAME);
	cli_compare_judge(&base, &down, &zero, 0.05, &r);
	assert_int_equal(r.verdict, CLI_IMPROVEMENT);
	/* absolute: +1 is within +2 */
	cli_compare_judge(&base, &up, &two, 0.05, &r);
	assert_int_equal(r.verdict, CLI_SAME);
	NEAR(r.allowed, 2, 0);
}

static void an_exact_metric_within_a_relative_limit_passes_and_beyond_it_fails(void **state)
{
	static const double b[] = { 1000, 1000 }, n5[] = { 1005, 1005 }, n6[] = { 1006, 1006 };
	struct cli_series base = series("instructions", b, 2), a = series("instructions", n5, 2),
			  c = series("instructions", n6, 2);
	struct cli_limit half = { "instructions", 0.5, true };
	struct cli_result r;

	(void)state;
	cli_compare_judge(&base, &a, &half, 0.05, &r);
	assert_int_equal(r.verdict, CLI_SAME);
	cli_compare_judge(&base, &c, &half, 0.05, &r);
	assert_int_equal(r.verdict, CLI_REGRESSION);
	NEAR(r.rel, 0.006, 1e-12);
}

static void a_noisy_metric_needs_the_limit_and_the_u_test(void **state)
{
	static const double b[] = { 10, 11, 10.5, 10.2, 10.8, 10.1, 10.9, 10.4, 10.6 };
	static const double slow[] = { 15, 16, 15.5, 15.2, 15.8, 15.1, 15.9, 15.4, 15.6 };
	static const double fast[] = { 5, 5.5, 5.2, 5.8, 5.1, 5.9, 5.4, 5.6, 5.3 };
	/* median and minimum rise over 10% but the two samples overlap: not significant, unsure */
	static const double spread[] = { 10, 20, 12, 18, 11, 19, 13, 17, 15 };
	static const double mixed[] = { 11.8, 21, 13, 19.5, 12, 20, 17, 18, 16.6 };
	struct cli_series base = series("time", b, 9), s = series("time", slow, 9), f = series("time", fast, 9),
			  w = series("time", spread, 9), m = series("time", mixed, 9);
	struct cli_limit ten = { "time", 10, true }, wide = { "time", 60, true };
	struct cli_result r;

	(void)state;
	cli_compare_judge(&base, &s, &ten, 0.05, &r);
	assert_false(r.exact);
	assert_int_equal(r.verdict, CLI_REGRESSION);
	assert_true(r.p >= 0 && r.p < 0.05);
	cli_compare_judge(&base, &s, &wide, 0.05, &r);
	assert_int_equal(r.verdict, CLI_SAME);
	cli_compare_judge(&base, &f, &ten, 0.05, &r);
	assert_int_equal(r.verdict, CLI_IMPROVEMENT);
	cli_compare_judge(&w, &m, &ten, 0.05, &r);
	assert_true(r.rel > 0.1 && r.min_new > r.min_base * 1.1);
	assert_int_equal(r.verdict, CLI_UNSURE);
	assert_non_null(strstr(r.why, "not significant"));
	/* a smaller alpha asks more of the same evidence: not judged, never "same" */
	cli_compare_judge(&base, &s, &ten, 1e-9, &r);
	assert_int_equal(r.verdict, CLI_UNSURE);
}

/*
 * Load on a busy machine mostly adds time: the least repetition must move
 * too for a regression. A significant rise of the median alone cannot be
 * told from a slowdown whose least repetition was disturbed: inconclusive.
 */
static void a_noisy_rise_of_the_median_alone_is_not_a_regression_but_inconclusive(void **state)
{
	static const double b[] = { 10, 10.2, 10.1, 10.3, 10.2, 10.1, 10.4, 10.3, 10.2 };
	static const double busy[] = { 10.05, 14, 15, 14.5, 16, 15.5, 14.2, 15.1, 14.8 };
	struct cli_series base = series("time", b, 9), n = series("time", busy, 9);
	struct cli_limit ten = { "time", 10, true };
	struct cli_result r;

	(void)state;
	cli_compare_judge(&base, &n, &ten, 0.05, &r);
	assert_true(r.rel > 0.3);
	assert_int_equal(r.verdict, CLI_INCONCLUSIVE);
}

/*
 * A calibrated value is the difference of two timed runs: a preempted
 * shorter run makes one repetition far too low. Measured on a busy host
 * (cpu_time of add_chain, ns, 15 interleaved runs a side, the new side
 * slowed down by 50%): that one repetition must not veto the regression.
 */
static void a_repetition_far_below_the_other_side_does_not_veto_a_regression(void **state)
{
	static const double b[] = { 2.59, 2.76, 2.82, 2.85, 2.68, 2.71, 2.5,  3.02,
				    2.87, 2.85, 2.31, 3.02, 2.59, 2.75, 2.84 };
	static const double slow[] = { 4.12, 3.96, 4.1,	 3.96, 4.03, 4.19, 4.35, 4.18,
				       3.94, 4.11, 4.28, 4.37, 4.01, 0.16, 4.05 };
	static const double b2[] = { 2.9,  2.85, 2.56, 7.96, 2.9,  2.9,  2.88, 2.82,
				     2.71, 2.82, 2.82, 2.67, 2.85, 2.88, 2.79 };
	static const double slow2[] = { 3.6,  3.97, 4.08, 4.4,	4.03, 4.09, 4.01, 3.78,
					3.86, 4.01, 4.08, 4.28, 4.07, 4.29, 3.71 };
	struct cli_series base = series("cpu_time", b, 15), n = series("cpu_time", slow, 15);
	struct cli_limit ten = { "cpu_time", 10, true };
	struct cli_result r;

	(void)state;
	/* 0.16 is below the base's Q1 - 3 IQR (2.635 - 3 * 0.215) and its own: not a floor */
	NEAR(cli_floor(slow, 15, b, 15), 3.94, 1e-12);
	/* the slow side's fence (3.385) does not cut the base: its floor is its least */
	NEAR(cli_floor(b, 15, slow, 15), 2.31, 1e-12);
	/* 10.05 is within a base of 10 to 10.4: the floor it is */
	NEAR(cli_floor((const double[]){ 14, 10.05, 15 }, 3, (const double[]){ 10, 10.2, 10.4 }, 3),
	     10.05, 1e-12);
	/* far below the other side but not below its own fence: still the floor */
	NEAR(cli_floor((const double[]){ 2, 1 }, 2, (const double[]){ 10, 10.2, 10.4 }, 3), 1, 1e-12);
	cli_compare_judge(&base, &n, &ten, 0.05, &r);
	assert_int_equal(r.verdict, CLI_REGRESSION);
	NEAR(r.min_new, 3.94, 1e-12);
	/* another try: a base repetition far above the rest (7.96) is not its floor either */
	base = series("cpu_time", b2, 15);
	n = series("cpu_time", slow2, 15);
	cli_compare_judge(&base, &n, &ten, 0.05, &r);
	assert_int_equal(r.verdict, CLI_REGRESSION);
	NEAR(r.min_base, 2.56, 1e-12);
}

static void a_noisy_metric_with_too_few_repetitions_is_unsure_and_says_why(void **state)
{
	static const double b[] = { 10, 11, 10.5 }, s[] = { 15, 16, 15.5 };
	struct cli_series base = series("time", b, 3), n = series("time", s, 3);
	struct cli_limit ten = { "time", 10, true };
	struct cli_result r;

	(void)state;
	cli_compare_judge(&base, &n, &ten, 0.05, &r);
	assert_int_equal(r.verdict, CLI_UNSURE);
	assert_non_null(strstr(r.why, "3 and 3 repetitions: the U test needs 9"));
	cli_compare_judge(&base, &base, &ten, 0.05, &r);
	assert_int_equal(r.verdict, CLI_SAME);
}

static void limits_parse_relative_absolute_and_time_units(void **state)
{
	struct cli_limit l;
	char err[256];

	(void)state;
	assert_int_equal(cli_limit_parse("instructions=+0.5%", &l, err, sizeof(err)), 0);
	assert_string_equal(l.name, "instructions");
	assert_true(l.relative && l.value == 0.5);
	assert_int_equal(cli_limit_parse("cycles=200", &l, err, sizeof(err)), 0);
	assert_true(!l.relative && l.value == 200);
	assert_int_equal(cli_limit_parse("time=+2us", &l, err, sizeof(err)), 0);
	assert_true(!l.relative && l.value == 2000);
	for (const char *const *bad = (const char *const[]){ "time", "=+5%", "time=+", "time=-5%", "time=+5%x",
							     "time=+5parsecs", "time=nan", NULL }; *bad; bad++) {
		err[0] = '\0';
		assert_int_equal(cli_limit_parse(*bad, &l, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "--limit"));
	}
	assert_int_equal(cli_limit_parse("time=+5%x", &l, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "nothing may follow '%'"));
	assert_int_equal(cli_limit_parse("time=+5parsecs", &l, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "unknown unit 'parsecs'"));
	assert_int_equal(cli_limit_parse("time=+5s", &l, err, sizeof(err)), 0);
	assert_true(!l.relative && l.value == 5e9);
}

static void limits_match_without_modifiers_and_the_last_one_given_wins(void **state)
{
	struct cli_limit given[2] = { { "instructions", 1, true }, { "instructions:u", 0, true } };

	(void)state;
	assert_ptr_equal(cli_limit_find(given, 2, "instructions:u"), &given[1]);
	assert_ptr_equal(cli_limit_find(given, 1, "instructions:u"), &given[0]);
	/* defaults, stated in --help */
	assert_true(cli_limit_find(given, 0, "instructions:u")->value == 0.5);
	assert_true(cli_limit_find(given, 0, "cycles")->value == 5);
	assert_true(cli_limit_find(given, 0, "time")->value == 10);
	assert_true(cli_limit_find(given, 0, "cache-misses:u")->value == 5);
	assert_false(cli_metric_match("instructions_retired", "instructions"));
}

/*
 * Holm's step-down over m = 4 noisy metrics at alpha 0.05: sorted p-values
 * 0.001 < 0.05/4, 0.015 < 0.05/3, then 0.03 >= 0.05/2 stops it: the third
 * and the fourth (0.04) are no longer significant, though each is below
 * alpha alone: unsure, not judged (never "same": each was beyond its limit). An exact metric (p < 0) takes no part.
 */
static void holm_shares_alpha_over_the_noisy_metrics_of_one_comparison(void **state)
{
	struct cli_result r[5];
	static const double p[] = { 0.03, 0.001, 0.04, 0.015, -1 };

	(void)state;
	memset(r, 0, sizeof(r));
	for (int i = 0; i < 5; i++) {
		r[i].p = p[i];
		r[i].verdict = i == 2 ? CLI_IMPROVEMENT : CLI_REGRESSION;
	}
	assert_int_equal(cli_compare_holm(r, 5, 0.05), 0);
	assert_int_equal(r[0].verdict, CLI_UNSURE);
	assert_non_null(strstr(r[0].why, "Holm's correction asks < 0.025"));
	assert_int_equal(r[1].verdict, CLI_REGRESSION);
	assert_int_equal(r[2].verdict, CLI_UNSURE);
	assert_int_equal(r[3].verdict, CLI_REGRESSION);
	assert_int_equal(r[4].verdict, CLI_REGRESSION);
	/* one noisy metric alone: alpha itself */
	r[0].verdict = CLI_REGRESSION;
	assert_int_equal(cli_compare_holm(r, 1, 0.05), 0);
	assert_int_equal(r[0].verdict, CLI_REGRESSION);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(normal_tail_matches_scipy),
		cmocka_unit_test(u_test_matches_scipy_on_shifted_tied_and_separate_samples),
		cmocka_unit_test(an_exact_metric_fails_one_count_over_a_zero_limit),
		cmocka_unit_test(an_exact_metric_within_a_relative_limit_passes_and_beyond_it_fails),
		cmocka_unit_test(a_noisy_metric_needs_the_limit_and_the_u_test),
		cmocka_unit_test(a_noisy_rise_of_the_median_alone_is_not_a_regression_but_inconclusive),
		cmocka_unit_test(a_repetition_far_below_the_other_side_does_not_veto_a_regression),
		cmocka_unit_test(a_noisy_metric_with_too_few_repetitions_is_unsure_and_says_why),
		cmocka_unit_test(limits_parse_relative_absolute_and_time_units),
		cmocka_unit_test(limits_match_without_modifiers_and_the_last_one_given_wins),
		cmocka_unit_test(holm_shares_alpha_over_the_noisy_metrics_of_one_comparison),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
