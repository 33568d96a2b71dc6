// SPDX-License-Identifier: MIT
/*
 * selfmon compare, the rows of a report that are not a measurement: a
 * benchmark that failed (Google Benchmark's SkipWithError) fails the gate
 * on NEW and is not comparable on BASE, aggregates and skipped runs are
 * never compared as repetitions, a value out of range is bad input that
 * names its benchmark and field (the command's exit status, options and
 * files: test_compare_command.c).
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "compare_cmd.h"

/*
 * A report in Google Benchmark's layout: 9 repetitions of "m" (10 ns,
 * 100 instructions), then @k repetitions of "k" at @time ns, then the
 * rows @extra (JSON objects, each with its leading comma).
 */
static void gb_file(const char *name, int k, double time, const char *extra)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\"context\": {}, \"benchmarks\": [", f);
	for (int i = 0; i < 9 + k; i++)
		fprintf(f, "%s{\"name\": \"%s\", \"run_name\": \"%s\", \"run_type\": \"iteration\", "
			"\"repetitions\": 9, \"repetition_index\": %d, \"threads\": 1, \"iterations\": 1000, "
			"\"real_time\": %g, \"cpu_time\": %g, \"time_unit\": \"ns\", \"instructions\": 100}",
			i ? ", " : "", i < 9 ? "m" : "k", i < 9 ? "m" : "k", i % 9, i < 9 ? 10 : time,
			i < 9 ? 10 : time);
	fprintf(f, "%s]}\n", extra ? extra : "");
	fclose(f);
}

/* What Google Benchmark writes for a repetition of "k" that called SkipWithError(@msg). */
#define GB_ERROR(msg)                                                                              \
	", {\"name\": \"k\", \"run_name\": \"k\", \"run_type\": \"iteration\", \"repetitions\": 1, "      \
	"\"repetition_index\": 0, \"threads\": 1, \"error_occurred\": true, \"error_message\": \"" msg     \
	"\", \"iterations\": 0, \"real_time\": 0, \"cpu_time\": 0, \"time_unit\": \"ns\"}"
/* ... and for one that called SkipWithMessage(@msg). */
#define GB_SKIP(msg)                                                                               \
	", {\"name\": \"k\", \"run_name\": \"k\", \"run_type\": \"iteration\", \"repetitions\": 1, "      \
	"\"repetition_index\": 0, \"threads\": 1, \"skipped\": true, \"skip_message\": \"" msg             \
	"\", \"iterations\": 0, \"real_time\": 0, \"cpu_time\": 0, \"time_unit\": \"ns\"}"

/* A benchmark that failed (SkipWithError) is no measurement: on NEW the gate fails and says why. */
static void a_benchmark_that_failed_on_new_fails_the_gate_with_its_message(void **state)
{
	char text[8192] = "";

	(void)state;
	gb_file("ok.json", 9, 20, NULL);
	gb_file("failed.json", 0, 0, GB_ERROR("no \\\"device\\\" here"));
	gb_file("partly.json", 8, 20, GB_ERROR("repetition 9 lost its device"));
	/* its time 0 was read as a 100% improvement, exit 0 */
	assert_int_equal(compare("ok.json", "failed.json", NULL, NULL), 1);
	read_out(text, sizeof(text));
	assert_non_null(strstr(text, "k                        FAILED: NEW '"));
	assert_non_null(strstr(text, "failed.json' reported an error: 'no \"device\" here'"));
	assert_null(strstr(text, "improvement:"));
	/* the other benchmark is compared as ever */
	assert_non_null(strstr(text, "m                        time"));
	assert_int_equal(compare("ok.json", "failed.json", "--format", "junit"), 1);
	read_out(text, sizeof(text));
	assert_non_null(strstr(text, "failures=\"1\""));
	assert_non_null(strstr(text, "<testcase classname=\"k\" name=\"run\" time=\"0\">\n      "
				     "<failure type=\"error\" message=\"FAILED: NEW"));
	assert_non_null(strstr(text, "reported an error: 'no &quot;device&quot; here'\"/>"));
	assert_int_equal(compare("ok.json", "failed.json", "--format", "json"), 1);
	read_out(text, sizeof(text));
	assert_non_null(strstr(text, "\"failed\": 1,"));
	assert_non_null(strstr(text, "{\"benchmark\": \"k\", \"verdict\": \"failed\", \"side\": \"new\", "
				     "\"kind\": \"error\", \"message\": \"no \\\"device\\\" here\""));
	/* one failed repetition of nine is a failed run too, and --allow-missing does not excuse it */
	assert_int_equal(compare("ok.json", "partly.json", "--allow-missing", NULL), 1);
	/* failed on BASE: nothing to compare against, as a benchmark on one side only (exit 2) */
	assert_int_equal(compare("failed.json", "ok.json", NULL, NULL), 2);
	read_out(text, sizeof(text));
	assert_non_null(strstr(text, "not comparable: BASE '"));
	assert_int_equal(compare("failed.json", "ok.json", "--allow-missing", NULL), 0);
	/* failed on both: NEW failed */
	assert_int_equal(compare("failed.json", "failed.json", "--allow-missing", NULL), 1);
}

/* Aggregates (Google Benchmark's and selfmon's) and skipped runs are never compared as repetitions. */
static void rows_that_are_not_measurements_are_never_compared(void **state)
{
	static const char aggregates[] =
		", {\"name\": \"k_mean\", \"run_name\": \"k\", \"run_type\": \"aggregate\", "
		"\"aggregate_name\": \"mean\", \"aggregate_unit\": \"time\", \"iterations\": 9, "
		"\"real_time\": 1, \"cpu_time\": 1, \"time_unit\": \"ns\", \"instructions\": 1}"
		", {\"name\": \"k_cv\", \"run_name\": \"k\", \"run_type\": \"aggregate\", "
		"\"aggregate_name\": \"cv\", \"aggregate_unit\": \"percentage\", \"iterations\": 9, "
		"\"real_time\": 0.5, \"cpu_time\": 0.5, \"time_unit\": \"ns\"}"
		/* no run_type, as older writers: its aggregate_name says what it is */
		", {\"name\": \"k_stddev\", \"run_name\": \"k\", \"aggregate_name\": \"stddev\", "
		"\"iterations\": 9, \"real_time\": 0, \"cpu_time\": 0, \"time_unit\": \"ns\"}";
	char text[8192] = "";

	(void)state;
	gb_file("plain.json", 9, 20, NULL);
	gb_file("agg.json", 9, 20, aggregates);
	/* a stddev of 0 or a mean of 1 ns among the repetitions would make "k" improve */
	assert_int_equal(compare("plain.json", "agg.json", "--limit", "time=+0%"), 0);
	read_out(text, sizeof(text));
	assert_non_null(strstr(text, "k                        time                  20.000 ns      20.000 ns     +0.00%"
				     "      +0%  same: exact"));
	assert_null(strstr(text, "improvement:"));
	assert_int_equal(compare("agg.json", "plain.json", "--limit", "time=+0%"), 0);
	/* skipped on both sides: said, nothing judged; on one side: nothing to compare against */
	gb_file("skip.json", 0, 0, GB_SKIP("needs a PMU"));
	assert_int_equal(compare("skip.json", "skip.json", NULL, NULL), 0);
	read_out(text, sizeof(text));
	assert_non_null(strstr(text, "k                        skipped on both sides, not compared: 'needs a PMU'"));
	assert_int_equal(compare("plain.json", "skip.json", NULL, NULL), 2);
	read_out(text, sizeof(text));
	assert_non_null(strstr(text, "not comparable: NEW '"));
	assert_non_null(strstr(text, "skip.json' skipped it: 'needs a PMU'"));
	/* a flag that is neither true nor false is bad input */
	gb_file("odd.json", 0, 0, ", {\"name\": \"k\", \"error_occurred\": 1, \"real_time\": 0, \"cpu_time\": 0}");
	assert_int_equal(compare("plain.json", "odd.json", NULL, NULL), 2);
}

/* A value beyond a double once in ns gave inf, and two such files compared "same" at -nan%. */
static void a_value_out_of_range_is_bad_input_naming_the_benchmark_and_the_field(void **state)
{
	static const struct {
		const char *row, *said;
	} bad[] = {
		{ "\"real_time\": 1e300, \"cpu_time\": 1, \"time_unit\": \"s\"",
		  "benchmarks[9] (\"k\"): \"real_time\" 1e+300 s is out of range (at most 1e+300 ns: "
		  "not a measurement)" },
		{ "\"real_time\": 1, \"cpu_time\": -1e299, \"time_unit\": \"ms\"",
		  "benchmarks[9] (\"k\"): \"cpu_time\" -1e+299 ms is out of range" },
		{ "\"real_time\": 1, \"cpu_time\": 1, \"time_unit\": \"ns\", \"instructions\": 1.5e300",
		  "benchmarks[9] (\"k\"): \"instructions\" 1.5e+300 is out of range (at most 1e+300: " },
	};
	char base[128], new_[128], err[2048], row[512];
	char *argv[] = { "compare", base, new_ };

	(void)state;
	snprintf(base, sizeof(base), "%s/base.json", dir);
	snprintf(new_, sizeof(new_), "%s/huge.json", dir);
	gb_file("base.json", 9, 20, NULL);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(row, sizeof(row), ", {\"name\": \"k\", \"iterations\": 1, %s}", bad[i].row);
		gb_file("huge.json", 0, 0, row);
		assert_int_equal(compare_stderr(3, argv, err, sizeof(err)), 2);
		if (!strstr(err, bad[i].said))
			fail_msg("said '%s', not '%s'", err, bad[i].said);
		/* the same file on both sides is no "same" either */
		argv[1] = new_;
		assert_int_equal(compare_stderr(3, argv, err, sizeof(err)), 2);
		argv[1] = base;
	}
	/* as large as a value may be: compared, and a value */
	gb_file("huge.json", 9, 1e300, NULL);
	argv[1] = new_;
	assert_int_equal(compare_stderr(3, argv, err, sizeof(err)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_benchmark_that_failed_on_new_fails_the_gate_with_its_message),
		cmocka_unit_test(rows_that_are_not_measurements_are_never_compared),
		cmocka_unit_test(a_value_out_of_range_is_bad_input_naming_the_benchmark_and_the_field),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
