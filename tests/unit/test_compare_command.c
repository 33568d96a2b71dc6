// SPDX-License-Identifier: MIT
/*
 * selfmon compare, the command: its exit status for each kind of input,
 * its options, the reports it pools, and the files it writes (the verdicts
 * themselves: test_compare.c; the rows that are not a measurement:
 * test_compare_rows.c).
 */

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "compare_cmd.h"

static void report(const char *name, const char *bench2, int reps, double time, double insns, bool schema)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "{%s\"context\": {}, \"benchmarks\": [",
		schema ? "\"schema\": \"selfmon-report\", \"schema_version\": 1, " : "");
	for (int b = 0; b < 2; b++)
		for (int i = 0; i < reps; i++)
			fprintf(f, "%s{\"name\": \"%s\", \"run_name\": \"%s\", \"run_type\": \"iteration\", "
				"\"iterations\": 1000, \"real_time\": %g, \"cpu_time\": %g, \"time_unit\": \"ns\", "
				"\"instructions:u\": %g}", b || i ? ", " : "", b ? bench2 : "k", b ? bench2 : "k",
				time + i * 0.01, time + i * 0.01, insns);
	fputs("]}\n", f);
	fclose(f);
}

static void exit_0_without_a_regression_1_with_one(void **state)
{
	(void)state;
	report("base.json", "m", 9, 10, 100, true);
	report("same.json", "m", 9, 10, 100, true);
	report("more.json", "m", 9, 10, 101, true);
	report("gb.json", "m", 9, 10, 100, false);
	assert_int_equal(compare("base.json", "same.json", NULL, NULL), 0);
	/* 1% more instructions, exact, over the default +0.5% */
	assert_int_equal(compare("base.json", "more.json", NULL, NULL), 1);
	assert_int_equal(compare("base.json", "more.json", "--limit", "instructions=+1%"), 0);
	/* improvements are reported, not failed */
	assert_int_equal(compare("more.json", "base.json", NULL, NULL), 0);
	/* Google Benchmark's layout (no schema tag) reads as well */
	assert_int_equal(compare("gb.json", "more.json", "--format", "junit"), 1);
}

/*
 * A report whose row "loop" takes @time ns a repetition (9 of them, spread a
 * little), beside a steady row "k"; @mark: the loop's median aggregate
 * carries SELFMON_REPORT_BASELINE_FIGURE with that text as its value.
 */
static void report_with_loop(const char *name, double time, const char *mark)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\"schema\": \"selfmon-report\", \"schema_version\": 1, \"context\": {}, "
	      "\"benchmarks\": [",
	      f);
	for (int i = 0; i < 9; i++)
		fprintf(f,
			"{\"name\": \"loop\", \"run_name\": \"loop\", \"run_type\": \"iteration\", "
			"\"iterations\": 1000, \"real_time\": %g, \"cpu_time\": %g, \"time_unit\": \"ns\"}, "
			"{\"name\": \"k\", \"run_name\": \"k\", \"run_type\": \"iteration\", "
			"\"iterations\": 1000, \"real_time\": %g, \"cpu_time\": %g, \"time_unit\": \"ns\"}, ",
			time + i * 0.01, time + i * 0.01, 5 + i * 0.01, 5 + i * 0.01);
	fprintf(f,
		"{\"name\": \"loop_median\", \"run_name\": \"loop\", \"run_type\": \"aggregate\", "
		"\"aggregate_name\": \"median\", \"iterations\": 1, \"real_time\": %g, \"cpu_time\": %g, "
		"\"time_unit\": \"ns\"%s%s%s%s}]}\n",
		time, time, mark ? ", \"" : "", mark ? SELFMON_REPORT_BASELINE_FIGURE : "",
		mark ? "\": " : "", mark ? mark : "");
	fclose(f);
}

static void a_calibration_baseline_is_shown_and_never_judged(void **state)
{
	char text[8192];

	(void)state;
	/* the same loop 50% slower: a regression of a benchmark ... */
	report_with_loop("plain-base.json", 2, NULL);
	report_with_loop("plain-new.json", 3, NULL);
	assert_int_equal(compare("plain-base.json", "plain-new.json", NULL, NULL), 1);
	/* ... and nothing to judge in a baseline, whichever side says it is one */
	report_with_loop("loop-base.json", 2, "2");
	report_with_loop("loop-new.json", 3, "2");
	assert_int_equal(compare("loop-base.json", "loop-new.json", NULL, NULL), 0);
	read_out(text, sizeof(text));
	assert_non_null(strstr(text, "a calibration baseline, not judged: 'its cost is the harness"));
	assert_non_null(strstr(text, "1 calibration baseline shown, not judged"));
	assert_int_equal(compare("plain-base.json", "loop-new.json", NULL, NULL), 0);
	assert_int_equal(compare("loop-base.json", "plain-new.json", "--format", "junit"), 0);
	read_out(text, sizeof(text));
	assert_non_null(strstr(text, "<testcase classname=\"loop\" name=\"run\" time=\"0\">\n"
				     "      <skipped message=\"a calibration baseline"));
	/* a mark that is not a count of rows is bad input, not a baseline */
	report_with_loop("bad-mark.json", 3, "\"yes\"");
	assert_int_equal(compare("loop-base.json", "bad-mark.json", NULL, NULL), 2);
	report_with_loop("zero-mark.json", 3, "0");
	assert_int_equal(compare("loop-base.json", "zero-mark.json", NULL, NULL), 2);
}

static void exit_2_for_a_missing_file_malformed_json_or_an_unknown_metric(void **state)
{
	char path[128];
	FILE *f;

	(void)state;
	report("base.json", "m", 9, 10, 100, true);
	assert_int_equal(compare("base.json", "absent.json", NULL, NULL), 2);
	snprintf(path, sizeof(path), "%s/bad.json", dir);
	f = fopen(path, "w");
	fputs("{\"benchmarks\": [{\"run_name\": \"k\",}]}", f);
	fclose(f);
	assert_int_equal(compare("base.json", "bad.json", NULL, NULL), 2);
	snprintf(path, sizeof(path), "%s/future.json", dir);
	f = fopen(path, "w");
	fputs("{\"schema\": \"selfmon-report\", \"schema_version\": 99, \"benchmarks\": []}", f);
	fclose(f);
	assert_int_equal(compare("base.json", "future.json", NULL, NULL), 2);
	assert_int_equal(compare("base.json", "base.json", "--limit", "cycles=+5%"), 2);
	assert_int_equal(compare("base.json", "base.json", "--metric", "no-such"), 2);
	assert_int_equal(compare("base.json", "base.json", "--format", "xml"), 2);
}

/* A CI that publishes the JUnit gets a file saying what went wrong, and exit 2 all the same. */
static void bad_input_under_junit_exits_2_and_writes_the_junit_with_the_error(void **state)
{
	char text[4096] = "", path[128];

	(void)state;
	report("base.json", "m", 9, 10, 100, true);
	snprintf(path, sizeof(path), "%s/out", dir);
	unlink(path);
	assert_int_equal(compare("base.json", "base.json", "--limit=cycles=+5%", "--format=junit"), 2);
	read_out(text, sizeof(text));
	assert_non_null(strstr(text, "errors=\"1\""));
	assert_non_null(strstr(text, "<error type=\"bad input\" message=\"--limit &apos;cycles&apos;: "
				     "no such metric"));
	unlink(path);
	assert_int_equal(compare("base.json", "absent.json", "--format", "junit"), 2);
	read_out(text, sizeof(text));
	assert_non_null(strstr(text, "absent.json&apos;: No such file or directory"));
}

static void benchmarks_on_one_side_only_are_listed_and_exit_2(void **state)
{
	char text[4096] = "";

	(void)state;
	report("base.json", "gone", 9, 10, 100, true);
	report("new.json", "fresh", 9, 10, 100, true);
	assert_int_equal(compare("base.json", "new.json", NULL, NULL), 2);
	read_out(text, sizeof(text));
	assert_non_null(strstr(text, "only in"));
	assert_non_null(strstr(text, "base.json': gone"));
	assert_non_null(strstr(text, "new.json': fresh"));
	/* the rest is still compared: k is the same */
	assert_int_equal(compare("base.json", "new.json", "--allow-missing", NULL), 0);
}

static void a_filter_that_matches_no_benchmark_is_bad_input(void **state)
{
	(void)state;
	report("base.json", "m", 9, 10, 100, true);
	assert_int_equal(compare("base.json", "base.json", "--filter", "^k$"), 0);
	assert_int_equal(compare("base.json", "base.json", "--filter", "no-such-bench"), 2);
}

/* Exact per-iteration counts of runs with different iteration counts differ by fixed cost / L: say so. */
static void an_exact_change_between_runs_of_different_iterations_names_the_fix(void **state)
{
	char path[128], text[4096] = "";
	FILE *f;

	(void)state;
	for (int k = 0; k < 2; k++) {
		snprintf(path, sizeof(path), "%s/it%d.json", dir, k);
		f = fopen(path, "w");
		assert_non_null(f);
		fputs("{\"benchmarks\": [", f);
		for (int i = 0; i < 3; i++)
			fprintf(f, "%s{\"run_name\": \"m\", \"iterations\": %d, \"real_time\": 1, \"cpu_time\": 1, "
				"\"instructions:u\": %g}", i ? ", " : "", k ? 1250 : 1000, k ? 281.0064 : 281.008);
		fputs("]}", f);
		fclose(f);
	}
	assert_int_equal(compare("it1.json", "it0.json", "--limit", "instructions=+0%"), 1);
	read_out(text, sizeof(text));
	assert_non_null(strstr(text, "the runs differ in iterations (1250 and 1000): fix them with selfmon bench "
				   "--iterations N"));
	/* the same iterations: no such hint */
	assert_int_equal(compare("it0.json", "it0.json", "--limit", "instructions=+0%"), 0);
}

/* After "--" every argument is a report, even one whose name starts with '-'. */
static void double_dash_ends_the_options_and_the_rest_are_reports(void **state)
{
	char pa[128], pb[128], out[128], text[4096] = "", cwd[512];
	char *argv[] = { "compare", "--format=json", "--out", out, "--", pa, pb };
	char *three[] = { "compare", "--out", out, "--", pa, pb, "--format" };

	(void)state;
	report("base.json", "m", 9, 10, 100, true);
	report("same.json", "m", 9, 10, 100, true);
	snprintf(pa, sizeof(pa), "-%s", "base.json");
	snprintf(pb, sizeof(pb), "%s/same.json", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	/* "-base.json" relative to the test's directory */
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);
	assert_int_equal(rename("base.json", "-base.json"), 0);
	assert_int_equal(cmd_compare(sizeof(argv) / sizeof(argv[0]), argv), 0);
	read_out(text, sizeof(text));
	assert_non_null(strstr(text, "\"benchmark\": \"k\""));
	/* a third report after "--" is one too many, not an option */
	assert_int_equal(cmd_compare(sizeof(three) / sizeof(three[0]), three), 2);
	assert_int_equal(rename("-base.json", "base.json"), 0);
	assert_int_equal(chdir(cwd), 0);
}

/* --opt=value and --opt value are one; a missing value or an unknown option is bad input. */
static void options_take_their_value_after_equals_or_as_the_next_argument(void **state)
{
	(void)state;
	report("base.json", "m", 9, 10, 100, true);
	assert_int_equal(compare("base.json", "base.json", "--metric=time", NULL), 0);
	assert_int_equal(compare("base.json", "base.json", "--metric", "time"), 0);
	assert_int_equal(compare("base.json", "base.json", "--alpha=2", NULL), 2);
	assert_int_equal(compare("base.json", "base.json", "--bogus", NULL), 2);
	assert_int_equal(compare("base.json", "base.json", "--allow-missing=yes", NULL), 2);
	assert_int_equal(compare("base.json", "base.json", "--limit", NULL), 2);
}

/* Reports of several runs a side (run alternately on a noisy machine) pool their repetitions. */
static void several_runs_a_side_pool_their_repetitions(void **state)
{
	char p[4][128], out[128], text[8192] = "";
	char *argv[] = { "compare", "--base", p[0], "--base", p[1], "--new", p[2],
			 "--new", p[3], "--format", "json", "--out", out };
	const char *names[] = { "b1.json", "b2.json", "n1.json", "n2.json" };
	FILE *f;

	(void)state;
	for (int i = 0; i < 4; i++) {
		/* 5 repetitions each: too few alone for the U test, 10 a side pooled */
		report(names[i], "m", 5, i < 2 ? 10 : 20, 100, true);
		snprintf(p[i], sizeof(p[i]), "%s/%s", dir, names[i]);
	}
	snprintf(out, sizeof(out), "%s/out", dir);
	/* one run a side: time doubled, but unsure (5 repetitions), so no failure */
	assert_int_equal(compare("b1.json", "n1.json", NULL, NULL), 0);
	assert_int_equal(cmd_compare(sizeof(argv) / sizeof(argv[0]), argv), 1);
	read_out(text, sizeof(text));
	assert_non_null(strstr(text, "\"repetitions_base\": 10, \"repetitions_new\": 10"));
	assert_non_null(strstr(text, "b1.json and 1 more"));
	/* a later report of a side with no repetitions is refused as a first one would be */
	snprintf(p[3], sizeof(p[3]), "%s/empty.json", dir);
	f = fopen(p[3], "w");
	assert_non_null(f);
	fputs("{\"benchmarks\": []}", f);
	fclose(f);
	assert_int_equal(cmd_compare(sizeof(argv) / sizeof(argv[0]), argv), 2);
	/* a bad report of a side is named; a lone positional beside --base is refused */
	argv[8] = "/nonexistent/n3.json";
	assert_int_equal(cmd_compare(sizeof(argv) / sizeof(argv[0]), argv), 2);
	argv[5] = p[2];
	assert_int_equal(cmd_compare(6, argv), 2);
}

/* What the file @name in the test's directory holds, into @text ("" when there is none). */
static void read_file(const char *name, char *text, size_t size)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	text[0] = '\0';
	f = fopen(path, "r");
	if (!f)
		return;
	text[fread(text, 1, size - 1, f)] = '\0';
	fclose(f);
}

/* CI wants the JUnit in a file and the table in its log: one run gives both. */
static void a_junit_json_or_lava_file_comes_with_the_table_on_stdout(void **state)
{
	static const char *const formats[] = { "junit", "json", "lava", "table" };
	static const char *const starts[] = { "<?xml", "{", "lava-test-case", "selfmon compare " };
	char base[128], out[128], text[8192], file[8192];
	char *argv[] = { "compare", base, base, "--format", NULL, "--out", out };

	(void)state;
	report("base.json", "m", 9, 10, 100, true);
	snprintf(base, sizeof(base), "%s/base.json", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	for (int i = 0; i < 4; i++) {
		argv[4] = (char *)formats[i];
		assert_int_equal(compare_fd(STDOUT_FILENO, 7, argv, text, sizeof(text)), 0);
		read_out(file, sizeof(file));
		assert_int_equal(strncmp(file, starts[i], strlen(starts[i])), 0);
		if (i < 3)
			assert_non_null(strstr(text, "0 regressions, 0 inconclusive, 0 improvements"));
		else /* the table itself in the file: nothing on stdout, as before */
			assert_string_equal(text, "");
	}
	/* without --out: the format asked for, alone, on stdout */
	assert_int_equal(compare_fd(STDOUT_FILENO, 5, argv, text, sizeof(text)), 0);
	argv[4] = "junit";
	assert_int_equal(compare_fd(STDOUT_FILENO, 5, argv, text, sizeof(text)), 0);
	assert_int_equal(strncmp(text, "<?xml", 5), 0);
	assert_null(strstr(text, "regressions,"));
}

/* --out follows <selfmon/outfile.h>, as bench --out does: never through a link, whole or not at all. */
static void an_out_through_a_symbolic_link_is_refused_and_the_linked_file_left_untouched(void **state)
{
	char base[128], out[128], target[128], err[2048], text[4096];
	char *argv[] = { "compare", base, base, "--format", "junit", "--out", out };
	FILE *f;

	(void)state;
	report("base.json", "m", 9, 10, 100, true);
	snprintf(base, sizeof(base), "%s/base.json", dir);
	snprintf(target, sizeof(target), "%s/victim", dir);
	f = fopen(target, "w");
	assert_non_null(f);
	fputs("precious\n", f);
	fclose(f);
	snprintf(out, sizeof(out), "%s/link", dir);
	assert_int_equal(symlink(target, out), 0);
	assert_int_equal(compare_stderr(7, argv, err, sizeof(err)), 2);
	assert_non_null(strstr(err, "selfmon compare: --out"));
	assert_non_null(strstr(err, "a symbolic link to a file: selfmon writes no file through a link"));
	read_file("victim", text, sizeof(text));
	assert_string_equal(text, "precious\n");
	/* a dangling link: its target is not created */
	snprintf(target, sizeof(target), "%s/nowhere", dir);
	snprintf(out, sizeof(out), "%s/dangling", dir);
	assert_int_equal(symlink(target, out), 0);
	assert_int_equal(compare_stderr(7, argv, err, sizeof(err)), 2);
	assert_non_null(strstr(err, "a symbolic link to nothing"));
	assert_int_equal(access(target, F_OK), -1);
	/* a file is replaced whole, and only the file is left: no new name beside it */
	snprintf(out, sizeof(out), "%s/victim", dir);
	assert_int_equal(compare_stderr(7, argv, err, sizeof(err)), 0);
	read_file("victim", text, sizeof(text));
	assert_non_null(strstr(text, "<?xml"));
	snprintf(text, sizeof(text), "! ls '%s'/victim.part-* 2>/dev/null", dir);
	assert_int_equal(system(text), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exit_0_without_a_regression_1_with_one),
		cmocka_unit_test(a_calibration_baseline_is_shown_and_never_judged),
		cmocka_unit_test(exit_2_for_a_missing_file_malformed_json_or_an_unknown_metric),
		cmocka_unit_test(bad_input_under_junit_exits_2_and_writes_the_junit_with_the_error),
		cmocka_unit_test(benchmarks_on_one_side_only_are_listed_and_exit_2),
		cmocka_unit_test(a_filter_that_matches_no_benchmark_is_bad_input),
		cmocka_unit_test(an_exact_change_between_runs_of_different_iterations_names_the_fix),
		cmocka_unit_test(several_runs_a_side_pool_their_repetitions),
		cmocka_unit_test(double_dash_ends_the_options_and_the_rest_are_reports),
		cmocka_unit_test(options_take_their_value_after_equals_or_as_the_next_argument),
		cmocka_unit_test(an_out_through_a_symbolic_link_is_refused_and_the_linked_file_left_untouched),
		cmocka_unit_test(a_junit_json_or_lava_file_comes_with_the_table_on_stdout),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
