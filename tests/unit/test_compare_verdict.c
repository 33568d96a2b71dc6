// SPDX-License-Identifier: MIT
/*
 * selfmon compare's verdict when the median and the least repetition
 * disagree: a significant rise of the median beyond the limit is never
 * "same". It is "inconclusive", with its own exit status (3), a JUnit
 * <failure type="inconclusive">, a LAVA fail and a row of its own in the table.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../tools/cli.h"
#include "../../tools/compare.h"
#include "scratch.h"

/*
 * A base run of add_chain (ns per iteration, 15 repetitions) and a rerun of
 * it made one after the other, whose first repetition was disturbed low (a
 * preempted shorter run of the two-length calibration), not low enough to be
 * below either side's far-out fence.
 */
static const double base_ns[15] = { 2.35, 2.40, 2.42, 2.45, 2.5, 2.55, 2.6, 2.65,
				    2.7,  2.8,	2.9,  3.0,  3.1, 3.3,  3.5 };
static const double rerun_ns[15] = { 1.7, 2.40, 2.42, 2.45, 2.5, 2.55, 2.6, 2.65,
				     2.7, 2.8,	2.9,  3.0,  3.1, 3.3, 3.5 };

static struct cli_series series(const char *name, const double *v, int n)
{
	return (struct cli_series){ .name = (char *)name, .v = (double *)v, .n = n };
}

static void slowed(double *v, const double *from, int n, double factor)
{
	for (int i = 0; i < n; i++)
		v[i] = from[i] * factor;
}

static void a_1_5x_slowdown_with_the_minimum_within_the_limit_is_inconclusive_never_same(void **state)
{
	double slow[15];
	struct cli_series base = series("time", base_ns, 15), n = series("time", slow, 15);
	struct cli_limit ten = { "time", 10, true };
	struct cli_result r;

	(void)state;
	slowed(slow, rerun_ns, 15, 1.5);
	cli_compare_judge(&base, &n, &ten, 0.05, &r);
	/* the case: the median far beyond the limit, the minimum within, the U test sure */
	assert_true(r.rel > 0.4);
	assert_true(r.min_new < r.min_base * 1.1);
	assert_true(r.p >= 0 && r.p < 0.001);
	assert_int_equal(r.verdict, CLI_INCONCLUSIVE);
	assert_string_equal(cli_verdict_str(r.verdict), "inconclusive");
	assert_non_null(strstr(r.why, "median beyond the limit and significant"));
	assert_non_null(strstr(r.why, "minimum within"));
	/* the same over any factor from 1.2 to 3: never "same" */
	for (double f = 1.2; f <= 3; f += 0.1) {
		slowed(slow, rerun_ns, 15, f);
		cli_compare_judge(&base, &n, &ten, 0.05, &r);
		assert_int_not_equal(r.verdict, CLI_SAME);
	}
	/* a slowdown that moves the minimum too is a regression, as before */
	slowed(slow, base_ns, 15, 1.5);
	cli_compare_judge(&base, &n, &ten, 0.05, &r);
	assert_int_equal(r.verdict, CLI_REGRESSION);
}

static void identical_distributions_are_the_same(void **state)
{
	double shuffled[15];
	struct cli_series base = series("time", base_ns, 15), n = series("time", shuffled, 15);
	struct cli_limit ten = { "time", 10, true };
	struct cli_result r;

	(void)state;
	for (int i = 0; i < 15; i++)
		shuffled[i] = base_ns[(i * 7) % 15];
	cli_compare_judge(&base, &n, &ten, 0.05, &r);
	assert_false(r.exact);
	assert_true(r.p > 0.99);
	assert_int_equal(r.verdict, CLI_SAME);
	/* the disturbed rerun, unslowed: the same too */
	n = series("time", rerun_ns, 15);
	cli_compare_judge(&base, &n, &ten, 0.05, &r);
	assert_int_equal(r.verdict, CLI_SAME);
}

/* A median beyond the limit that the U test does not call significant is unsure, never "same". */
static void an_insignificant_rise_beyond_the_limit_is_unsure_not_same(void **state)
{
	static const double b[] = { 10, 20, 11, 19, 12, 18, 13, 17, 15 };
	static const double m[] = { 10, 21, 12, 20, 16.8, 19, 17, 18, 14 };
	struct cli_series base = series("time", b, 9), n = series("time", m, 9);
	struct cli_limit ten = { "time", 10, true };
	struct cli_result r;

	(void)state;
	cli_compare_judge(&base, &n, &ten, 0.05, &r);
	assert_true(r.rel > 0.1 && r.min_new == r.min_base);
	assert_true(r.p >= 0.05);
	assert_int_equal(r.verdict, CLI_UNSURE);
	assert_non_null(strstr(r.why, "median beyond the limit but not significant"));
	assert_non_null(strstr(r.why, "too noisy to judge"));
}

/*
 * Medians within the limit from repetitions spread over many times the
 * limit (a loaded runner): a change of the limit's size cannot be ruled
 * out, so the row is unsure, never "same".
 */
static void a_median_within_the_limit_from_data_too_noisy_to_rule_out_a_change_is_unsure(
	void **state)
{
	static const double b[15] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
	static const double m[15] = { 1.1, 2, 3, 4, 5, 6, 7, 8.2, 9, 10, 11, 12, 13, 14, 15.5 };
	struct cli_series base = series("time", b, 15), n = series("time", m, 15);
	struct cli_limit ten = { "time", 10, true };
	struct cli_result r;

	(void)state;
	cli_compare_judge(&base, &n, &ten, 0.05, &r);
	assert_true(r.rel > 0 && r.rel < 0.1);
	assert_int_equal(r.verdict, CLI_UNSURE);
	assert_non_null(strstr(r.why, "cannot be ruled out"));
}

/* The shift's interval: a constant shift of tight data is that shift; it holds the true shift. */
static void the_shift_interval_holds_the_shift(void **state)
{
	double b[9], n[9], lo, hi;

	(void)state;
	for (int i = 0; i < 9; i++) {
		b[i] = 10 + 0.01 * i;
		n[i] = b[i] + 2;
	}
	assert_int_equal(cli_shift_ci(n, 9, b, 9, 0.05, &lo, &hi), 0);
	assert_true(lo <= 2 + 1e-9 && hi >= 2 - 1e-9);
	assert_true(lo > 1.9 && hi < 2.1);
	assert_int_equal(cli_shift_ci(n, 0, b, 9, 0.05, &lo, &hi), -EINVAL);
}

/* A deterministic generator: the same trials on every machine. */
static double uniform(uint64_t *x)
{
	*x = *x * 6364136223846793005ull + 1442695040888963407ull;
	return ((double)(*x >> 11) + 0.5) / 9007199254740992.0;
}

/*
 * 200 trials of a 1.5x slowdown under load that adds, to every repetition
 * on both sides, an exponential delay of mean 3x the true time (two busy
 * loops on two cores): whatever else each is called, none is "same".
 */
static void a_1_5x_slowdown_under_heavy_load_is_never_same_in_200_trials(void **state)
{
	struct cli_limit ten = { "time", 10, true };
	uint64_t x = 42;
	int same = 0;

	(void)state;
	for (int t = 0; t < 200; t++) {
		double b[15], m[15];
		struct cli_series base = series("time", b, 15), n = series("time", m, 15);
		struct cli_result r;

		for (int i = 0; i < 15; i++) {
			b[i] = 1.0 - 3 * log(uniform(&x));
			m[i] = 1.5 - 3 * log(uniform(&x));
		}
		cli_compare_judge(&base, &n, &ten, 0.05, &r);
		same += r.verdict == CLI_SAME;
	}
	assert_int_equal(same, 0);
}

/* Holm's correction applies to an inconclusive rise as to a regression: no longer significant, unsure. */
static void holm_that_no_longer_rejects_makes_an_inconclusive_rise_unsure(void **state)
{
	struct cli_result res[2] = { { .p = 0.03, .verdict = CLI_INCONCLUSIVE },
				     { .p = 0.04, .verdict = CLI_SAME } };

	(void)state;
	assert_int_equal(cli_compare_holm(res, 2, 0.05), 0);
	assert_int_equal(res[0].verdict, CLI_UNSURE);
	assert_non_null(strstr(res[0].why, "Holm"));
}

/* ---- the command ---- */

static char dir[64];

static void write_report(const char *name, const double *t, int n)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\"schema\": \"selfmon-report\", \"schema_version\": 1, \"context\": {}, \"benchmarks\": [", f);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s{\"name\": \"add_chain\", \"run_name\": \"add_chain\", \"run_type\": \"iteration\", "
			"\"iterations\": 1000, \"real_time\": %.17g, \"cpu_time\": %.17g, \"time_unit\": \"ns\"}",
			i ? ", " : "", t[i], t[i]);
	fputs("]}\n", f);
	fclose(f);
}

/* selfmon compare BASE NEW --format @format --out DIR/out: its exit status, its output in @text. */
static int compare(const char *format, char *text, size_t size)
{
	char pa[128], pb[128], out[128];
	char *argv[] = { "compare", pa, pb, "--format", (char *)format, "--metric", "time", "--out", out };
	int rc;
	FILE *f;

	snprintf(pa, sizeof(pa), "%s/base.json", dir);
	snprintf(pb, sizeof(pb), "%s/new.json", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	rc = cmd_compare(sizeof(argv) / sizeof(argv[0]), argv);
	f = fopen(out, "r");
	assert_non_null(f);
	text[fread(text, 1, size - 1, f)] = '\0';
	fclose(f);
	return rc;
}

static void an_inconclusive_rise_exits_3_with_its_verdict_in_every_output(void **state)
{
	char text[8192];
	double slow[15];

	(void)state;
	slowed(slow, rerun_ns, 15, 1.5);
	write_report("base.json", base_ns, 15);
	write_report("new.json", slow, 15);
	assert_int_equal(compare("table", text, sizeof(text)), CLI_COMPARE_EXIT_INCONCLUSIVE);
	assert_non_null(strstr(text, "inconclusive: median beyond the limit and significant"));
	assert_non_null(strstr(text, "0 regressions, 1 inconclusive,"));
	assert_int_equal(compare("junit", text, sizeof(text)), CLI_COMPARE_EXIT_INCONCLUSIVE);
	assert_non_null(strstr(text, "failures=\"1\""));
	assert_non_null(strstr(text, "<failure type=\"inconclusive\" message=\"inconclusive: "));
	assert_int_equal(compare("json", text, sizeof(text)), CLI_COMPARE_EXIT_INCONCLUSIVE);
	assert_non_null(strstr(text, "\"inconclusive\": 1,"));
	assert_non_null(strstr(text, "\"verdict\": \"inconclusive\""));
	assert_int_equal(compare("lava", text, sizeof(text)), CLI_COMPARE_EXIT_INCONCLUSIVE);
	assert_non_null(strstr(text, "compare.add_chain.time --result fail"));
	/* identical runs: same, exit 0 */
	write_report("new.json", base_ns, 15);
	assert_int_equal(compare("table", text, sizeof(text)), 0);
	assert_non_null(strstr(text, "0 regressions, 0 inconclusive,"));
	/* a slowdown that moves the minimum as well: a regression, exit 1 */
	slowed(slow, base_ns, 15, 1.5);
	write_report("new.json", slow, 15);
	assert_int_equal(compare("junit", text, sizeof(text)), 1);
	assert_non_null(strstr(text, "<failure type=\"regression\""));
}

static int setup(void **state)
{
	(void)state;
	return scratch__make(dir, sizeof(dir), "test_compare_verdict");
}

static int teardown(void **state)
{
	(void)state;
	return scratch__remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_1_5x_slowdown_with_the_minimum_within_the_limit_is_inconclusive_never_same),
		cmocka_unit_test(identical_distributions_are_the_same),
		cmocka_unit_test(an_insignificant_rise_beyond_the_limit_is_unsure_not_same),
		cmocka_unit_test(a_median_within_the_limit_from_data_too_noisy_to_rule_out_a_change_is_unsure),
		cmocka_unit_test(the_shift_interval_holds_the_shift),
		cmocka_unit_test(a_1_5x_slowdown_under_heavy_load_is_never_same_in_200_trials),
		cmocka_unit_test(holm_that_no_longer_rejects_makes_an_inconclusive_rise_unsure),
		cmocka_unit_test(an_inconclusive_rise_exits_3_with_its_verdict_in_every_output),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
