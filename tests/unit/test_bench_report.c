// SPDX-License-Identifier: MIT
/*
 * selfmon bench's writers (JSON in Google Benchmark's layout, CSV) and its
 * command line: what a script or compare.py reads must be well formed.
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
#include "../../util/text.h"
#include "capture.h"

static void json_strings_escape_quotes_backslashes_and_control_characters(void **state)
{
	char *s = NULL;

	(void)state;
	CAPTURE(s, util_json_string(f, "a\"b\\c\nd\te\x01"));
	assert_string_equal(s, "\"a\\\"b\\\\c\\nd\\te\\u0001\"");
	free(s);
	CAPTURE(s, util_json_string(f, NULL));
	assert_string_equal(s, "\"\"");
	free(s);
}

/* A name from the user need not be UTF-8: the report stays JSON that a strict reader takes. */
static void json_strings_are_valid_json_whatever_the_bytes(void **state)
{
	char *s = NULL;

	(void)state;
	CAPTURE(s, util_json_string(f, "a\xff\xc3(\x7f\xe2\x80\xa8"));
	assert_string_equal(s, "\"a\\ufffd\\ufffd(\\u007f\\u2028\"");
	free(s);
}

static void json_numbers_are_exact_integers_or_null_when_not_finite(void **state)
{
	char *s = NULL;

	(void)state;
	CAPTURE(s, (util_json_number(f, 10), fputc(' ', f), util_json_number(f, -3),
		    fputc(' ', f), util_json_number(f, 0.5), fputc(' ', f),
		    util_json_number(f, 0.0 / 0.0), fputc(' ', f), util_json_number(f, 1e300 * 1e10),
		    fputc(' ', f), util_json_number(f, 1e20)));
	assert_string_equal(s, "10 -3 0.5 null null 1e+20");
	free(s);
}

/*
 * Beyond long long a cast is undefined: the range is checked before it (UBSan's
 * float-cast-overflow, in the ASan+UBSan build, fails this test otherwise;
 * fuzz_writers found it).
 */
static void json_numbers_beyond_long_long_are_written_without_an_undefined_cast(void **state)
{
	char *s = NULL;

	(void)state;
	CAPTURE(s, (util_json_number(f, 8.12719e+228), fputc(' ', f), util_json_number(f, -1e19),
		    fputc(' ', f), util_json_number(f, 9.3e18)));
	assert_string_equal(s, "8.12719e+228 -1e+19 9.3e+18");
	free(s);
}

static void csv_fields_are_quoted_only_when_they_must_be(void **state)
{
	char *s = NULL;

	(void)state;
	CAPTURE(s, (util_csv_field(f, "plain"), fputc('|', f), util_csv_field(f, "a,b"),
		    fputc('|', f), util_csv_field(f, "say \"hi\""), fputc('|', f),
		    util_csv_field(f, "two\nlines")));
	assert_string_equal(s, "plain|\"a,b\"|\"say \"\"hi\"\"\"|\"two\nlines\"");
	free(s);
}

/* Two kept repetitions of time, task-clock, instructions:u and cycles:u. */
static double samples[] = { 2.5, 3.5, /* time */ 2.4, 3.4, /* task-clock */
			    10, 10, /* instructions */ 5, 5 /* cycles */ };

static void fake_result(struct selfmon_bench_result *res, const char *name)
{
	static const char *const cols[] = { "time", "task-clock", "instructions:u", "cycles:u" };

	memset(res, 0, sizeof(*res));
	snprintf(res->name, sizeof(res->name), "%s", name);
	res->iterations = 1000;
	res->repetitions = res->kept = 2;
	res->nr_cols = 4;
	res->samples = samples;
	for (int c = 0; c < 4; c++) {
		snprintf(res->col[c].name, sizeof(res->col[c].name), "%s", cols[c]);
		res->col[c].unit = c < 2 ? "ns" : "";
		selfmon_stats__compute(&samples[2 * c], 2, &res->col[c].st);
	}
}

static void fake_context(struct selfmon_report_context *ctx)
{
	memset(ctx, 0, sizeof(*ctx));
	snprintf(ctx->date, sizeof(ctx->date), "2024-01-02T03:04:05+00:00");
	snprintf(ctx->host_name, sizeof(ctx->host_name), "board \"one\"");
	ctx->num_cpus = 1;
	ctx->arch = "arm64";
	ctx->version = "0.1.0";
	ctx->events = "instructions:u,cycles:u";
	ctx->note = "";
	ctx->read_path = "inline";
	ctx->pinned = "";
	ctx->hardware = true;
}

static void json_has_the_google_benchmark_fields_per_repetition_and_aggregate(void **state)
{
	struct selfmon_report_context ctx;
	struct selfmon_bench_result res;
	struct selfmon_report_entry e = { .res = &res, .expected_insns = 10 };
	char *s = NULL;

	(void)state;
	fake_context(&ctx);
	fake_result(&res, "add_chain");
	CAPTURE(s, assert_int_equal(selfmon_report__json(f, &ctx, &e, 1), 0));
	for (const char *const *k = (const char *const[]){
		     "\"context\": {", "\"date\": \"2024-01-02T03:04:05+00:00\"", "\"host_name\": \"board \\\"one\\\"\"",
		     "\"num_cpus\": 1", "\"mhz_per_cpu\": 0", "\"cpu_scaling_enabled\": false", "\"caches\": []",
		     "\"library_build_type\": \"release\"", "\"benchmarks\": [",
		     "\"name\": \"add_chain\"", "\"run_name\": \"add_chain\"", "\"run_type\": \"iteration\"",
		     "\"repetition_index\": 1", "\"iterations\": 1000", "\"real_time\": 3.5", "\"cpu_time\": 3.4",
		     "\"time_unit\": \"ns\"", "\"instructions:u\": 10", "\"cycles:u\": 5",
		     "\"name\": \"add_chain_mean\"", "\"name\": \"add_chain_median\"", "\"name\": \"add_chain_stddev\"",
		     "\"run_type\": \"aggregate\"", "\"aggregate_name\": \"median\"", "\"IPC\": 2",
		     "\"expected_instructions\": 10", NULL }; *k; k++)
		assert_non_null(strstr(s, *k));
	/* task-clock is cpu_time, not a counter of its own */
	assert_null(strstr(s, "\"task-clock\""));
	/* braces and brackets balance outside strings */
	{
		int depth = 0, in_str = 0;

		for (const char *p = s; *p; p++) {
			if (in_str) {
				if (*p == '\\')
					p++;
				else if (*p == '"')
					in_str = 0;
				continue;
			}
			in_str = *p == '"';
			depth += (*p == '{' || *p == '[') - (*p == '}' || *p == ']');
			assert_true(depth >= 0);
		}
		assert_int_equal(depth, 0);
	}
	free(s);
}

static void a_skipped_benchmark_is_left_out_of_json_and_csv(void **state)
{
	struct selfmon_report_context ctx;
	struct selfmon_report_entry e = { .skipped = "no inline read here" };
	char *s = NULL;

	(void)state;
	fake_context(&ctx);
	CAPTURE(s, selfmon_report__json(f, &ctx, &e, 1));
	assert_non_null(strstr(s, "\"benchmarks\": [\n  ]"));
	free(s);
	CAPTURE(s, selfmon_report__csv(f, &ctx, &e, 1));
	assert_null(strchr(strchr(s, '\n') + 1, '\n'));
	free(s);
}

static void csv_has_a_header_and_one_row_per_benchmark_and_event(void **state)
{
	struct selfmon_report_context ctx;
	struct selfmon_bench_result res;
	struct selfmon_report_entry e = { .res = &res, .expected_insns = 10 };
	char *s = NULL, *line;
	int rows = 0;

	(void)state;
	fake_context(&ctx);
	fake_result(&res, "odd,name");
	CAPTURE(s, assert_int_equal(selfmon_report__csv(f, &ctx, &e, 1), 0));
	assert_true(!strncmp(s, "name,event,unit,path,iterations,", 32));
	for (line = strchr(s, '\n'); line && line[1]; line = strchr(line + 1, '\n'))
		rows++;
	assert_int_equal(rows, 4);
	assert_non_null(strstr(s, "\n\"odd,name\",instructions:u,,read(2),1000,2,2,0,0,0,two-length,10,10,10,10,10,0,0,0,0,10\n"));
	assert_non_null(strstr(s, "\n\"odd,name\",time,ns,"));
	free(s);
}

/* A NaN or infinite time (a body that broke the clock) has no bin: the rest are drawn. */
static void the_table_histogram_draws_finite_times_and_skips_nan_and_infinity(void **state)
{
	double odd[] = { NAN, 3.0, INFINITY, 5.0 };
	struct selfmon_report_entry e = { .expected_insns = -1 };
	struct selfmon_bench_result res;
	char *s = NULL;

	(void)state;
	fake_result(&res, "odd");
	res.kept = res.repetitions = 4;
	res.nr_cols = 1;
	res.samples = odd;
	e.res = &res;
	CAPTURE(s, selfmon_report__table_entry(f, &e));
	assert_non_null(strstr(s, "(4 repetitions)"));
	/* Bins from the finite values only: 3 to 5. */
	assert_non_null(strstr(s, "3.000 ns |"));
	assert_non_null(strstr(s, "| 5.000 ns"));
	free(s);
}

/* A count of nothing is no sample: the table says so, with the cause and the fix. */
static void the_table_names_repetitions_whose_counter_did_not_run_with_the_cause_and_the_fix(void **state)
{
	struct selfmon_report_entry e = { .expected_insns = -1 };
	struct selfmon_bench_result res;
	char *s = NULL;

	(void)state;
	fake_result(&res, "stood");
	res.repetitions = 3;
	res.dropped_not_run = 1;
	e.res = &res;
	CAPTURE(s, selfmon_report__table_entry(f, &e));
	assert_non_null(strstr(s, "dropped: 1 in which a counter did not run (its time_running did not advance)"));
	assert_non_null(strstr(s, "PR_TASK_PERF_EVENTS_DISABLE"));
	free(s);

	res.kept = 0;
	res.dropped_not_run = 3;
	CAPTURE(s, selfmon_report__table_entry(f, &e));
	assert_non_null(strstr(s, "every repetition was dropped, 3 because a counter did not run"));
	assert_null(strstr(s, "--keep-noisy keeps them"));
	free(s);
}

static void derived_metrics_need_both_events_and_a_nonzero_denominator(void **state)
{
	struct selfmon_bench_result res;
	struct selfmon_report_entry e = { .res = &res, .expected_insns = -1 };
	struct selfmon_report_derived d;

	(void)state;
	fake_result(&res, "x");
	selfmon_report__derived(&e, &d);
	assert_int_equal(d.nr, 2);
	assert_string_equal(d.m[0].name, "IPC");
	assert_true(d.m[0].value == 2);
	assert_string_equal(d.m[1].name, "ns_per_iteration");
	res.col[3].st.median = 0;
	selfmon_report__derived(&e, &d);
	assert_int_equal(d.nr, 1);
}

static int parse(const char *line, struct cli_bench *cli, char *err)
{
	char buf[256], *argv[17];
	int argc = 0;

	snprintf(buf, sizeof(buf), "bench %s", line);
	for (char *t = strtok(buf, " "); t && argc < 16; t = strtok(NULL, " "))
		argv[argc++] = t;
	/* As main()'s: musl's getopt looks for a missing value at argv[argc]. */
	argv[argc] = NULL;
	return cli_bench__parse(argc, argv, cli, err, 256);
}

static void options_parse_with_space_or_equals(void **state)
{
	struct cli_bench cli;
	char err[256];

	(void)state;
	assert_int_equal(parse("--repetitions 3 --format=json --min-time 0.5s --iterations=1000 "
			       "--calibration empty --serialize --cpu 2 --out x.json --filter ^add", &cli, err), 0);
	assert_int_equal(cli.repetitions, 3);
	assert_int_equal(cli.format, CLI_FORMAT_JSON);
	assert_true(cli.min_time == 0.5);
	assert_true(cli.iterations == 1000);
	assert_int_equal(cli.calibration, SELFMON_CALIB_EMPTY);
	assert_true(cli.serialize);
	assert_string_equal(cli.cpu, "2");
	assert_string_equal(cli.out, "x.json");
	assert_string_equal(cli.filter, "^add");
}

static void defaults_are_ten_repetitions_one_warmup_a_table_and_two_length(void **state)
{
	struct cli_bench cli;
	char err[256];

	(void)state;
	assert_int_equal(parse("", &cli, err), 0);
	assert_int_equal(cli.repetitions, 10);
	assert_int_equal(cli.warmup, 1);
	assert_int_equal(cli.format, CLI_FORMAT_TABLE);
	assert_int_equal(cli.calibration, SELFMON_CALIB_TWO_LENGTH);
}

static void bad_options_are_einval_with_a_message_naming_them(void **state)
{
	static const struct { const char *line, *says; } bad[] = {
		{ "--bogus", "unknown option '--bogus'" },
		{ "--repetitions", "--repetitions needs a value" },
		{ "--repetitions 0", "--repetitions '0'" },
		{ "--repetitions 3x", "--repetitions '3x'" },
		{ "--repetitions -2", "--repetitions '-2'" },
		{ "--warmup 1001", "--warmup '1001'" },
		{ "--format xml", "--format 'xml': table, csv or json" },
		{ "--calibration best", "--calibration 'best'" },
		{ "--min-time -1", "--min-time '-1'" },
		{ "--min-time soon", "--min-time 'soon'" },
		{ "--cpu two", "--cpu 'two'" },
		{ "--cpu 1 --cluster big", "give one" },
		{ "--list=yes", "--list takes no value" },
		{ "stray", "unexpected argument 'stray'" },
		{ "--events=", "empty event list" },
	};
	struct cli_bench cli;
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(parse(bad[i].line, &cli, err), -EINVAL);
		if (!strstr(err, bad[i].says))
			fail_msg("'%s' said '%s', not '%s'", bad[i].line, err, bad[i].says);
	}
}

static void double_dash_ends_the_options_and_bench_takes_no_arguments(void **state)
{
	struct cli_bench cli;
	char err[256];

	(void)state;
	assert_int_equal(parse("--list --", &cli, err), 0);
	assert_true(cli.list);
	assert_int_equal(parse("-- --list", &cli, err), -EINVAL);
	assert_non_null(strstr(err, "unexpected argument '--list'"));
}

static void a_unique_abbreviation_names_its_option_an_ambiguous_one_is_refused(void **state)
{
	struct cli_bench cli;
	char err[256];

	(void)state;
	assert_int_equal(parse("--rep=4 --warm 0", &cli, err), 0);
	assert_int_equal(cli.repetitions, 4);
	assert_int_equal(cli.warmup, 0);
	/* --cpu, --cluster, --calibration */
	assert_int_equal(parse("--c 3", &cli, err), -EINVAL);
	assert_non_null(strstr(err, "ambiguous option '--c'"));
	assert_int_equal(parse("-x", &cli, err), -EINVAL);
	assert_non_null(strstr(err, "unknown option '-x'"));
	assert_int_equal(parse("--bogus=1", &cli, err), -EINVAL);
	assert_non_null(strstr(err, "unknown option '--bogus'"));
}

/* A test program parses many command lines: each starts afresh (getopt's optind). */
static void each_parse_starts_afresh(void **state)
{
	struct cli_bench cli;
	char err[256];

	(void)state;
	assert_int_equal(parse("--bogus", &cli, err), -EINVAL);
	assert_int_equal(parse("--repetitions 7", &cli, err), 0);
	assert_int_equal(cli.repetitions, 7);
	assert_int_equal(parse("--repetitions 8", &cli, err), 0);
	assert_int_equal(cli.repetitions, 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(json_strings_escape_quotes_backslashes_and_control_characters),
		cmocka_unit_test(json_strings_are_valid_json_whatever_the_bytes),
		cmocka_unit_test(json_numbers_are_exact_integers_or_null_when_not_finite),
		cmocka_unit_test(json_numbers_beyond_long_long_are_written_without_an_undefined_cast),
		cmocka_unit_test(csv_fields_are_quoted_only_when_they_must_be),
		cmocka_unit_test(json_has_the_google_benchmark_fields_per_repetition_and_aggregate),
		cmocka_unit_test(a_skipped_benchmark_is_left_out_of_json_and_csv),
		cmocka_unit_test(csv_has_a_header_and_one_row_per_benchmark_and_event),
		cmocka_unit_test(the_table_histogram_draws_finite_times_and_skips_nan_and_infinity),
		cmocka_unit_test(the_table_names_repetitions_whose_counter_did_not_run_with_the_cause_and_the_fix),
		cmocka_unit_test(derived_metrics_need_both_events_and_a_nonzero_denominator),
		cmocka_unit_test(options_parse_with_space_or_equals),
		cmocka_unit_test(defaults_are_ten_repetitions_one_warmup_a_table_and_two_length),
		cmocka_unit_test(bad_options_are_einval_with_a_message_naming_them),
		cmocka_unit_test(double_dash_ends_the_options_and_bench_takes_no_arguments),
		cmocka_unit_test(a_unique_abbreviation_names_its_option_an_ambiguous_one_is_refused),
		cmocka_unit_test(each_parse_starts_afresh),
	};

	return cmocka_run_group_tests_name("bench_report", tests, NULL, NULL);
}
