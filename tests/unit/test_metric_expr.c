// SPDX-License-Identifier: MIT
/*
 * The metric expression language (core/metric_expr.h) against values
 * computed by hand: perf's precedence (| loosest, then ^, &, comparisons,
 * + -, * / %), its logical | ^ &, "A if C else B", the functions, names with
 * escapes, and the collecting pass that must see the events of both
 * branches when a count decides. Bad input: a syntax error says where, a
 * name not counted says which, a division by zero is an error, never a
 * number; nesting and length are bounded.
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

#include <generated/autoconf.h>
#include "../../core/metric_expr.h"

#ifdef CONFIG_PMU_EVENTS
static char seen[512];

/* a=2 b=3 c=5 zero=0; "x,y=1" (escaped terms) = 7; anything else is not counted. */
static int value(void *arg, const char *id, double *v, char *why, size_t why_size)
{
	static const struct {
		const char *id;
		double v;
	} known[] = {
		{ "a", 2 },	{ "b", 3 },	      { "c", 5 },	    { "zero", 0 },
		{ "x,y=1", 7 }, { "cpu@EV.X@k", 11 }, { "FOO", 1 },	    { "BAR", 2 },
		{ "BAZ", 3 },	{ "BOZO", 4 },	      { "dash-event1", 5 }, { "dash-event2", 6 },
	};

	(void)arg;
	strncat(seen, id, sizeof(seen) - strlen(seen) - 2);
	strcat(seen, " ");
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(id, known[i].id)) {
			*v = known[i].v;
			return 0;
		}
	snprintf(why, why_size, "'%s' not counted", id);
	return -ENOENT;
}

static int literal(void *arg, const char *name, double *v, char *why, size_t why_size)
{
	(void)arg;
	if (strcmp(name, "slots")) {
		snprintf(why, why_size, "no #%s", name);
		return -ENOENT;
	}
	*v = 8;
	return 0;
}

static const struct selfmon_mexpr_env env = { .value = value,
					      .literal = literal,
					      .has_event = value };

static int run(const char *text, bool collect, double *v, char *why)
{
	struct selfmon_mexpr *e;
	int err = selfmon_mexpr__parse(text, &e, why, 256);

	seen[0] = '\0';
	if (err)
		return err;
	err = selfmon_mexpr__eval(e, &env, collect, v, why, 256);
	selfmon_mexpr__free(e);
	return err;
}

static double val(const char *text)
{
	char why[256];
	double v = NAN;

	if (run(text, false, &v, why))
		fail_msg("'%s': %s", text, why);
	return v;
}

/*
 * The value cases of perf's own expression test (tools/perf/tests/expr.c in
 * Linux 6.12), FOO = 1 and BAR = 2 as there, written as this evaluator's
 * conformance cases: every metric of the kernel's tables is written in
 * that language. One deliberate difference: perf makes FOO/0 a NaN, here a
 * division by zero is an error (a metric with no value says why).
 */
static void perfs_own_expression_cases_give_perfs_values(void **state)
{
	static const struct {
		const char *text;
		double want;
	} cases[] = {
		{ "1+1", 2 },
		{ "FOO+BAR", 3 },
		{ "(BAR/2)%2", 1 },
		{ "1 - -4", 5 },
		{ "(FOO-1)*2 + (BAR/2)%2 - -4", 5 },
		{ "1-1 | 1", 1 },
		{ "1-1 & 1", 0 },
		{ "min(1,2) + 1", 2 },
		{ "max(1,2) + 1", 3 },
		{ "1+1 if 3*4 else 0", 2 },
		{ "100 if 1 else 200 if 1 else 300", 100 },
		{ "100 if 0 else 200 if 1 else 300", 200 },
		{ "100 if 1 else 200 if 0 else 300", 100 },
		{ "100 if 0 else 200 if 0 else 300", 300 },
		{ "1.1 + 2.1", 3.2 },
		{ ".1 + 2.", 2.1 },
		{ "d_ratio(1, 2)", 0.5 },
		{ "d_ratio(2.5, 0)", 0 },
		{ "1.1 < 2.2", 1 },
		{ "2.2 > 1.1", 1 },
		{ "1.1 < 1.1", 0 },
		{ "2.2 > 2.2", 0 },
		{ "2.2 < 1.1", 0 },
		{ "1.1 > 2.2", 0 },
		{ "1.1e10 < 1.1e100", 1 },
		{ "1.1e2 > 1.1e-2", 1 },
	};
	char why[256];
	double v;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_float_equal(val(cases[i].text), cases[i].want, 1e-12);
	/* A missing operand is a syntax error there and here; FOO/0, the difference above. */
	assert_int_not_equal(run("BAR/", false, &v, why), 0);
	assert_int_not_equal(run("FOO/0", false, &v, why), 0);
}

/* perf's find-ids cases: every name an expression reads is collected, escapes undone. */
static void perfs_find_ids_cases_collect_every_name_unescaped(void **state)
{
	char why[256];
	double v;

	(void)state;
	assert_int_equal(run("FOO + BAR + BAZ + BOZO", true, &v, why), 0);
	assert_float_equal(v, 10, 0);
	assert_non_null(strstr(seen, "FOO "));
	assert_non_null(strstr(seen, "BAR "));
	assert_non_null(strstr(seen, "BAZ "));
	assert_non_null(strstr(seen, "BOZO "));
	assert_int_equal(run("dash\\-event1 - dash\\-event2", true, &v, why), 0);
	assert_float_equal(v, -1, 0);
	assert_non_null(strstr(seen, "dash-event1 "));
	assert_non_null(strstr(seen, "dash-event2 "));
}

static void arithmetic_follows_perfs_precedence(void **state)
{
	(void)state;
	assert_float_equal(val("a + b * c"), 17, 0);
	assert_float_equal(val("(a + b) * c"), 25, 0);
	assert_float_equal(val("c - b - a"), 0, 0); /* left to right */
	assert_float_equal(val("c / a / 2"), 1.25, 0);
	assert_float_equal(val("-a * -b"), 6, 0);
	assert_float_equal(val("c % b"), 2, 0);
	assert_float_equal(val("1e-3 * 2000 + .5"), 2.5, 1e-12);
	assert_float_equal(val("100 * a / (#slots * b)"), 100.0 * 2 / 24, 1e-12);
}

static void bitwise_operators_are_logical_with_or_loosest(void **state)
{
	(void)state;
	/* 1 | (1 ^ 1) = 1; were ^ looser: (1 | 1) ^ 1 = 0. */
	assert_float_equal(val("1 | 1 ^ 1"), 1, 0);
	assert_float_equal(val("0 | 1 ^ 1"), 0, 0);
	assert_float_equal(val("a & b"), 1, 0); /* 2 & 3 is 1 here, not 2 */
	assert_float_equal(val("a & zero"), 0, 0);
	assert_float_equal(val("a < b & c > b"), 1, 0);
	assert_float_equal(val("a + 1 == b"), 1, 0);
	assert_float_equal(val("a != 2"), 0, 0);
	assert_float_equal(val("a >= 2 & a <= 2"), 1, 0);
}

static void if_else_min_max_and_d_ratio(void **state)
{
	(void)state;
	assert_float_equal(val("a if b > a else c"), 2, 0);
	assert_float_equal(val("a if b < a else c if 1 else zero"), 5, 0);
	assert_float_equal(val("min(a, b) + max(b, c)"), 7, 0);
	assert_float_equal(val("d_ratio(a, zero)"), 0, 0);
	assert_float_equal(val("d_ratio(c, a)"), 2.5, 0);
	assert_float_equal(val("x\\,y\\=1 + cpu@EV.X@k"), 18, 0);
	assert_float_equal(val("has_event(a) + has_event(a)"), 4, 0);
}

static void collecting_reads_both_branches_only_when_a_count_decides(void **state)
{
	char why[256];
	double v;

	(void)state;
	/* The condition reads 'a': both branches' events must be opened. */
	assert_int_equal(run("b if a > 1 else c", true, &v, why), 0);
	assert_non_null(strstr(seen, "b ")), assert_non_null(strstr(seen, "c "));
	/* A literal decides: the other branch is never needed (nor counted). */
	assert_int_equal(run("b if #slots > 1 else nothere", true, &v, why), 0);
	assert_null(strstr(seen, "nothere"));
}

static void a_missing_event_is_an_error_naming_it(void **state)
{
	char why[256];
	double v;

	(void)state;
	assert_int_equal(run("a / nothere", false, &v, why), -ENOENT);
	assert_non_null(strstr(why, "'nothere'"));
	assert_int_equal(run("a * #nolit", false, &v, why), -ENOENT);
	assert_non_null(strstr(why, "#nolit"));
}

static void division_by_zero_is_an_error_not_a_number(void **state)
{
	char why[256];
	double v;

	(void)state;
	assert_int_equal(run("a / zero", false, &v, why), -EDOM);
	assert_non_null(strstr(why, "division by zero"));
	assert_int_equal(run("a % zero", false, &v, why), -EDOM);
}

static void syntax_errors_say_where(void **state)
{
	static const char *const bad[] = {
		"a +", "(a", "a b", "min(a)", "foo(a)", "a if b", "#", "", "a ) ", "1 +* 2", "a,b",
	};
	char why[256];
	double v;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (run(bad[i], false, &v, why) != -EINVAL)
			fail_msg("'%s' parsed", bad[i]);
		assert_non_null(strstr(why, "at "));
	}
}

static void nesting_and_length_are_bounded(void **state)
{
	char text[SELFMON_MEXPR_MAX_LEN + 2], why[256];
	double v;
	int n = SELFMON_MEXPR_MAX_DEPTH + 1;

	(void)state;
	memset(text, '(', (size_t)n);
	text[n] = 'a';
	memset(text + n + 1, ')', (size_t)n);
	text[2 * n + 1] = '\0';
	assert_int_equal(run(text, false, &v, why), -E2BIG);
	memset(text, '-', (size_t)n);
	strcpy(text + n, "a");
	assert_int_equal(run(text, false, &v, why), -E2BIG);
	memset(text, 'a', sizeof(text) - 1);
	text[sizeof(text) - 1] = '\0';
	assert_int_equal(run(text, false, &v, why), -E2BIG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(perfs_own_expression_cases_give_perfs_values),
		cmocka_unit_test(perfs_find_ids_cases_collect_every_name_unescaped),
		cmocka_unit_test(arithmetic_follows_perfs_precedence),
		cmocka_unit_test(bitwise_operators_are_logical_with_or_loosest),
		cmocka_unit_test(if_else_min_max_and_d_ratio),
		cmocka_unit_test(collecting_reads_both_branches_only_when_a_count_decides),
		cmocka_unit_test(a_missing_event_is_an_error_naming_it),
		cmocka_unit_test(division_by_zero_is_an_error_not_a_number),
		cmocka_unit_test(syntax_errors_say_where),
		cmocka_unit_test(nesting_and_length_are_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
#else
static void needs_pmu_events(void **state)
{
	(void)state;
	skip();
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(needs_pmu_events) };

	printf("# SKIP: built with CONFIG_PMU_EVENTS_NONE: no metric expressions\n");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
#endif
