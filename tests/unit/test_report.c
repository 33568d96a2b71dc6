// SPDX-License-Identifier: MIT
/*
 * <selfmon/report.h> as a user's program meets it: an entry given by named
 * columns writes what the same numbers as a selfmon_bench__run() result
 * write, under the schema tag, with counters per repetition.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <selfmon/report.h>
#include "capture.h"

/* Three repetitions: time, task-clock, instructions:u. */
static const double values[3][3] = { { 4, 5, 6 }, { 3, 4, 5 }, { 100, 100, 101 } };
static const struct selfmon_report_col cols[] = {
	{ .name = "time", .unit = "ns", .values = values[0] },
	{ .name = "task-clock", .unit = "ns", .values = values[1] },
	{ .name = "instructions:u", .values = values[2] },
};

static void context(struct selfmon_report_context *ctx)
{
	memset(ctx, 0, sizeof(*ctx));
	snprintf(ctx->date, sizeof(ctx->date), "2024-01-02T03:04:05+00:00");
	ctx->arch = "arm64";
	ctx->version = "0.1.0";
}

static void columns_entry(struct selfmon_report_entry *e)
{
	memset(e, 0, sizeof(*e));
	e->kind = SELFMON_REPORT_ENTRY_COLUMNS;
	e->name = "mine";
	e->iterations = 1000;
	e->kept = 3;
	e->nr_cols = 3;
	e->cols = cols;
	e->expected_insns = -1;
}

/* The same numbers as a bench result (what selfmon_bench__run() fills). */
static void bench_entry(struct selfmon_report_entry *e, struct selfmon_bench_result *res, double *samples)
{
	memset(res, 0, sizeof(*res));
	snprintf(res->name, sizeof(res->name), "mine");
	res->iterations = 1000;
	res->repetitions = res->kept = 3;
	res->nr_cols = 3;
	res->samples = samples;
	for (int c = 0; c < 3; c++) {
		snprintf(res->col[c].name, sizeof(res->col[c].name), "%s", cols[c].name);
		res->col[c].unit = cols[c].unit ? cols[c].unit : "";
		memcpy(&samples[3 * c], values[c], sizeof(values[c]));
		assert_int_equal(selfmon_stats__compute(values[c], 3, &res->col[c].st), 0);
	}
	memset(e, 0, sizeof(*e));
	e->kind = SELFMON_REPORT_ENTRY_RESULT;
	e->res = res;
	e->expected_insns = -1;
}

static void an_entry_of_columns_writes_the_json_of_the_same_bench_result(void **state)
{
	struct selfmon_report_context ctx;
	struct selfmon_report_entry a, b;
	struct selfmon_bench_result res;
	double samples[9];
	char *x = NULL, *y = NULL;

	(void)state;
	context(&ctx);
	columns_entry(&a);
	bench_entry(&b, &res, samples);
	CAPTURE(x, assert_int_equal(selfmon_report__json(f, &ctx, &a, 1), 0));
	CAPTURE(y, assert_int_equal(selfmon_report__json(f, &ctx, &b, 1), 0));
	assert_string_equal(x, y);
	free(x);
	free(y);
}

/* Each writer's output for @e, concatenated: JSON, CSV, table. */
static char *all_writers(const struct selfmon_report_context *ctx, const struct selfmon_report_entry *e)
{
	char *s = NULL;

	CAPTURE(s, assert_int_equal(selfmon_report__json(f, ctx, e, 1) |
					    selfmon_report__csv(f, ctx, e, 1) |
					    selfmon_report__table(f, ctx, e, 1),
				    0));
	return s;
}

static void the_writers_follow_the_kind_and_ignore_the_other_kinds_fields(void **state)
{
	struct selfmon_report_context ctx;
	struct selfmon_report_entry a, b;
	struct selfmon_bench_result res;
	double samples[9];
	char *x, *y;

	(void)state;
	context(&ctx);
	columns_entry(&a);
	bench_entry(&b, &res, samples);
	snprintf(res.name, sizeof(res.name), "the result");
	x = all_writers(&ctx, &a);
	a.res = &res; /* columns: @res unused */
	y = all_writers(&ctx, &a);
	assert_string_equal(x, y);
	assert_null(strstr(y, "the result"));
	free(x);
	free(y);
	x = all_writers(&ctx, &b);
	b.name = "columns' name"; /* a result: @name to @cols unused */
	b.nr_cols = 1;
	b.cols = cols;
	y = all_writers(&ctx, &b);
	assert_string_equal(x, y);
	assert_null(strstr(y, "columns' name"));
	free(x);
	free(y);
}

static void an_entry_of_unsaid_kind_is_what_its_res_says(void **state)
{
	struct selfmon_report_context ctx;
	struct selfmon_report_entry a, b;
	struct selfmon_bench_result res;
	double samples[9];
	char *x, *y;

	(void)state;
	context(&ctx);
	columns_entry(&a);
	x = all_writers(&ctx, &a);
	a.kind = SELFMON_REPORT_ENTRY_UNSAID; /* a caller that predates the kind */
	y = all_writers(&ctx, &a);
	assert_string_equal(x, y);
	free(x);
	free(y);
	bench_entry(&b, &res, samples);
	x = all_writers(&ctx, &b);
	b.kind = SELFMON_REPORT_ENTRY_UNSAID;
	y = all_writers(&ctx, &b);
	assert_string_equal(x, y);
	free(x);
	free(y);
}

static void a_result_without_res_or_an_unknown_kind_is_einval(void **state)
{
	struct selfmon_report_context ctx;
	struct selfmon_report_entry e;
	char *s = NULL;

	(void)state;
	context(&ctx);
	columns_entry(&e);
	e.kind = SELFMON_REPORT_ENTRY_RESULT;
	CAPTURE(s, assert_int_equal(selfmon_report__json(f, &ctx, &e, 1), -EINVAL));
	free(s);
	s = NULL;
	CAPTURE(s, assert_int_equal(selfmon_report__table_entry(f, &e), -EINVAL));
	free(s);
	s = NULL;
	e.kind = (enum selfmon_report_entry_kind)(SELFMON_REPORT_ENTRY_COLUMNS + 1);
	CAPTURE(s, assert_int_equal(selfmon_report__csv(f, &ctx, &e, 1), -EINVAL));
	free(s);
}

static void json_starts_with_the_schema_and_its_version(void **state)
{
	struct selfmon_report_context ctx;
	struct selfmon_report_entry e;
	char *s = NULL, want[96];

	(void)state;
	context(&ctx);
	columns_entry(&e);
	CAPTURE(s, selfmon_report__json(f, &ctx, &e, 1));
	snprintf(want, sizeof(want), "{\n  \"schema\": \"%s\",\n  \"schema_version\": %d,\n",
		 SELFMON_REPORT_SCHEMA, SELFMON_REPORT_SCHEMA_VERSION);
	assert_true(!strncmp(s, want, strlen(want)));
	free(s);
}

/* compare reads every numeric member of an iteration object as a counter: nothing else goes there. */
static void iteration_objects_hold_each_counter_per_repetition_and_no_extras(void **state)
{
	struct selfmon_report_context ctx;
	struct selfmon_report_entry e;
	char *s = NULL, *median;

	(void)state;
	context(&ctx);
	columns_entry(&e);
	e.expected_insns = 100;
	e.nr_extra = 1;
	snprintf(e.extra[0].name, sizeof(e.extra[0].name), "ratio");
	e.extra[0].value = 2;
	CAPTURE(s, selfmon_report__json(f, &ctx, &e, 1));
	assert_non_null(strstr(s, "\"repetition_index\": 2,\n      \"threads\": 1,\n      \"iterations\": 1000,\n"
				  "      \"real_time\": 6,\n      \"cpu_time\": 5,\n      \"time_unit\": \"ns\",\n"
				  "      \"instructions:u\": 101\n    }"));
	median = strstr(s, "\"name\": \"mine_median\"");
	assert_non_null(median);
	/* extras, derived figures and the expectation: in the median alone */
	assert_ptr_equal(strstr(s, "\"ratio\": 2"), strstr(median, "\"ratio\": 2"));
	assert_non_null(strstr(median, "\"expected_instructions\": 100"));
	assert_ptr_equal(strstr(s, "\"ns_per_iteration\""), strstr(median, "\"ns_per_iteration\""));
	assert_non_null(strstr(median, "\"instructions:u\": 100,"));
	free(s);
}

static void an_entry_without_values_or_with_too_many_columns_is_einval(void **state)
{
	struct selfmon_report_col none[] = { { .name = "time" } };
	struct selfmon_report_context ctx;
	struct selfmon_report_entry e;
	char *s = NULL;
	int rc = 0;

	(void)state;
	context(&ctx);
	columns_entry(&e);
	e.cols = none;
	e.nr_cols = 1;
	CAPTURE(s, rc = selfmon_report__json(f, &ctx, &e, 1));
	assert_int_equal(rc, -EINVAL);
	free(s);
	columns_entry(&e);
	e.nr_cols = SELFMON_REPORT_MAX_COLS + 1;
	CAPTURE(s, rc = selfmon_report__csv(f, &ctx, &e, 1));
	assert_int_equal(rc, -EINVAL);
	free(s);
	CAPTURE(s, rc = selfmon_report__table_entry(f, &e));
	assert_int_equal(rc, -EINVAL);
	free(s);
}

static void derived_metrics_of_an_entry_of_columns_come_from_its_medians(void **state)
{
	struct selfmon_report_entry e;
	struct selfmon_report_derived d;

	(void)state;
	columns_entry(&e);
	selfmon_report__derived(&e, &d);
	assert_int_equal(d.nr, 1);
	assert_string_equal(d.m[0].name, "ns_per_iteration");
	assert_true(d.m[0].value == 5);
}

static void the_table_of_an_entry_of_columns_escapes_its_name(void **state)
{
	struct selfmon_report_entry e;
	char *s = NULL;

	(void)state;
	columns_entry(&e);
	e.name = "bad\033[2Jname";
	CAPTURE(s, assert_int_equal(selfmon_report__table_entry(f, &e), 0));
	assert_non_null(strstr(s, "bad\\x1b[2Jname: 1000 iterations x 3 repetitions (3 kept)"));
	assert_non_null(strstr(s, "instructions:u"));
	assert_null(strchr(s, '\033'));
	free(s);
}

static int count(const char *s, const char *what)
{
	int n = 0;

	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/*
 * A member name is written once per object (strict JSON readers refuse a
 * second): two columns named alike, or a column named as a member the
 * writer has ("iterations"), keep the first.
 */
static void a_column_named_twice_or_as_a_member_is_written_once_per_object(void **state)
{
	static const struct selfmon_report_col dup[] = {
		{ .name = "time", .unit = "ns", .values = values[0] },
		{ .name = "instructions:u", .values = values[2] },
		{ .name = "instructions:u", .values = values[1] },
		{ .name = "iterations", .values = values[1] },
	};
	struct selfmon_report_context ctx;
	struct selfmon_report_entry e;
	char *s = NULL;

	(void)state;
	context(&ctx);
	columns_entry(&e);
	e.cols = dup;
	e.nr_cols = 4;
	CAPTURE(s, selfmon_report__json(f, &ctx, &e, 1));
	/* three repetitions and three aggregates: six objects, each name once */
	assert_int_equal(count(s, "\"run_type\": "), 6);
	assert_int_equal(count(s, "\"instructions:u\": "), 6);
	assert_int_equal(count(s, "\"iterations\": "), 6);
	/* the first column of the name is the one kept: its repetitions 100, 100, 101 */
	assert_non_null(strstr(s, "\"instructions:u\": 101"));
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(an_entry_of_columns_writes_the_json_of_the_same_bench_result),
		cmocka_unit_test(the_writers_follow_the_kind_and_ignore_the_other_kinds_fields),
		cmocka_unit_test(an_entry_of_unsaid_kind_is_what_its_res_says),
		cmocka_unit_test(a_result_without_res_or_an_unknown_kind_is_einval),
		cmocka_unit_test(json_starts_with_the_schema_and_its_version),
		cmocka_unit_test(iteration_objects_hold_each_counter_per_repetition_and_no_extras),
		cmocka_unit_test(an_entry_without_values_or_with_too_many_columns_is_einval),
		cmocka_unit_test(derived_metrics_of_an_entry_of_columns_come_from_its_medians),
		cmocka_unit_test(the_table_of_an_entry_of_columns_escapes_its_name),
		cmocka_unit_test(a_column_named_twice_or_as_a_member_is_written_once_per_object),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
