// SPDX-License-Identifier: MIT
/*
 * selfmon bench on the running kernel, any arch: its JSON parses (with
 * python3's json.tool where there is one, and with the C parser everywhere)
 * and has Google Benchmark's fields; without hardware counters it still
 * measures, and says why; a region with a software event takes read(2) and
 * is labelled so; a repetition whose counter did not run is dropped.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <selfmon/bench.h>
#include <selfmon/selfmon.h>
#include <selfmon/report.h>
#include "json_check.h"
#include "kselftest_harness.h"

/* Few, short repetitions: the emulated board runs this too. */
#define QUICK "--repetitions 3 --warmup 0 --iterations 1000"

/*
 * Where a test asserts that a time came out above 0: 1000 iterations of
 * add_chain last about 2 us, near the noise of a loaded host, and the
 * two-length calibration clamps a difference below 0 to 0 (three of three
 * repetitions once made the median 0). 100,000 iterations last about
 * 200 us, a warm-up takes the cold first region away, and the median of
 * five needs three disturbed repetitions to move.
 */
#define TIMED "--repetitions 5 --warmup 1 --iterations 100000"

static char *bench(struct __test_metadata *_metadata, const char *args, int *status)
{
	const char *cli = selfmon_cli();
	char cmd[1400];
	char *out;

	if (!cli)
		return NULL;
	snprintf(cmd, sizeof(cmd), "%s bench %s 2>/dev/null", cli, args);
	out = run_capture(cmd, status);
	TH_LOG("%s: exit status %d", cmd, *status);
	return out;
}

static bool hardware_counts(void)
{
	struct selfmon_set *set = selfmon_set__open("instructions:u", NULL);

	selfmon_set__close(set);
	return set != NULL;
}

TEST(bench_json_parses_and_has_google_benchmark_fields)
{
	static const char *const ctx_keys[] = { "date", "host_name", "executable", "num_cpus", "mhz_per_cpu",
						"cpu_scaling_enabled", "caches", "library_build_type" };
	static const char *const keys[] = { "name", "run_name", "run_type", "repetitions", "threads",
					    "iterations", "real_time", "cpu_time", "time_unit" };
	const struct util_json *b, *ctx;
	struct util_json root;
	char err[160];
	int status = -1;
	char *out;

	if (!selfmon_cli())
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	out = bench(_metadata, "--format json --filter '^(add_chain|empty)$' " QUICK, &status);
	ASSERT_NE(NULL, out);
	ASSERT_EQ(0, status);
	ASSERT_EQ(0, json_parse(out, &root, err, sizeof(err))) TH_LOG("%s", err);
	ctx = util_json_get(&root, "context");
	ASSERT_NE(NULL, ctx);
	for (size_t i = 0; i < sizeof(ctx_keys) / sizeof(ctx_keys[0]); i++) {
		EXPECT_NE(NULL, util_json_get(ctx, ctx_keys[i])) TH_LOG("context.%s missing", ctx_keys[i]);
	}
	b = util_json_get(&root, "benchmarks");
	ASSERT_NE(NULL, b);
	/* 3 repetitions + mean, median, stddev for each of the two */
	EXPECT_EQ(12, b->nr);
	for (int i = 0; i < b->nr; i++) {
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			EXPECT_NE(NULL, util_json_get(&b->kid[i], keys[k])) TH_LOG("benchmarks[%d].%s missing", i, keys[k]);
		}
	}
	ASSERT_NE(NULL, json_bench(&root, "add_chain_median"));
	EXPECT_STREQ("aggregate", util_json_str(json_bench(&root, "add_chain_median"), "run_type"));
	EXPECT_STREQ("median", util_json_str(json_bench(&root, "add_chain_median"), "aggregate_name"));
	EXPECT_STREQ("iteration", util_json_str(json_bench(&root, "add_chain"), "run_type"));
	util_json_free(&root);

	/* A real JSON parser too, where the machine has one. */
	if (!access("/usr/bin/python3", X_OK)) {
		char path[] = "/tmp/selfmon-bench-XXXXXX", cmd[256];
		int fd = mkstemp(path);

		ASSERT_GE(fd, 0);
		ASSERT_EQ((ssize_t)strlen(out), write(fd, out, strlen(out)));
		close(fd);
		snprintf(cmd, sizeof(cmd), "/usr/bin/python3 -m json.tool %s >/dev/null", path);
		EXPECT_EQ(0, system(cmd)) TH_LOG("python3 -m json.tool rejects the output");
		unlink(path);
	}
	free(out);
}

#define COMPARE_PY "/usr/share/benchmark/compare.py"

static int save(const char *text, char *path)
{
	int fd = mkstemp(path);
	int ok = fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text);

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

/* Google Benchmark's own compare.py (Debian's libbenchmark-tools) reads two runs unchanged. */
TEST(bench_json_loads_in_google_benchmarks_compare_py)
{
	char a[] = "/tmp/selfmon-a-XXXXXX", b[] = "/tmp/selfmon-b-XXXXXX", cmd[256];
	int status = -1;
	char *out, *cmp;

	if (access(COMPARE_PY, R_OK) || access("/usr/bin/python3", X_OK))
		SKIP(return, COMPARE_PY " not here (Debian package libbenchmark-tools; scripts/deps.sh installs it)");
	if (!selfmon_cli())
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	for (int i = 0; i < 2; i++) {
		out = bench(_metadata, "--format json --filter '^add_chain$' " QUICK, &status);
		ASSERT_NE(NULL, out);
		ASSERT_EQ(0, status);
		ASSERT_EQ(0, save(out, i ? b : a));
		free(out);
	}
	snprintf(cmd, sizeof(cmd), "/usr/bin/python3 " COMPARE_PY " --no-color benchmarks %s %s 2>&1", a, b);
	cmp = run_capture(cmd, &status);
	unlink(a);
	unlink(b);
	ASSERT_NE(NULL, cmp);
	EXPECT_EQ(0, status) TH_LOG("%s", cmp);
	/* It paired the repetitions, the aggregates and ran its U test on them. */
	EXPECT_NE(NULL, strstr(cmp, "add_chain_median")) TH_LOG("%s", cmp);
	EXPECT_NE(NULL, strstr(cmp, "add_chain_pvalue")) TH_LOG("%s", cmp);
	free(cmp);
}

TEST(without_hardware_counters_bench_measures_time_and_says_why)
{
	const struct util_json *ctx, *m;
	struct util_json root;
	char err[160];
	int status = -1;
	char *out;

	if (hardware_counts())
		SKIP(return, "this machine counts instructions: the no-PMU fallback does not happen here");
	if (!selfmon_cli())
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	out = bench(_metadata, "--format json --filter '^add_chain$' " TIMED, &status);
	ASSERT_NE(NULL, out);
	ASSERT_EQ(0, status) TH_LOG("a machine without a PMU is not an error");
	ASSERT_EQ(0, json_parse(out, &root, err, sizeof(err))) TH_LOG("%s", err);
	ctx = util_json_get(&root, "context");
	ASSERT_NE(NULL, util_json_get(ctx, "selfmon_hardware_counters"));
	EXPECT_EQ(0, util_json_get(ctx, "selfmon_hardware_counters")->num);
	ASSERT_NE(NULL, util_json_str(ctx, "selfmon_note"));
	EXPECT_NE(NULL, strstr(util_json_str(ctx, "selfmon_note"), "instructions:u"));
	TH_LOG("note: %s", util_json_str(ctx, "selfmon_note"));
	m = json_bench(&root, "add_chain_median");
	ASSERT_NE(NULL, m);
	EXPECT_GT(util_json_get(m, "real_time")->num, 0);
	EXPECT_GT(util_json_get(m, "cpu_time")->num, 0) TH_LOG("task-clock is cpu_time: %.400s", out);
	EXPECT_EQ(NULL, util_json_get(m, "instructions:u"));
	util_json_free(&root);
	free(out);

	out = bench(_metadata, "--filter '^add_chain$' " QUICK, &status);
	ASSERT_NE(NULL, out);
	EXPECT_NE(NULL, strstr(out, "hardware counters are unavailable")) TH_LOG("%s", out);
	free(out);
}

/* The call's cost next to read(2)'s, even where the inline read is not measured. */
TEST(readcost_measures_selfmon_set_read_on_every_machine_with_its_ratio_to_read2)
{
	const struct util_json *m, *ratio;
	struct util_json root;
	char err[160];
	int status = -1;
	char *out;

	if (!selfmon_cli())
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	/*
	 * 100 reads a region: 1000 (about 1 ms, then 2 ms for the second
	 * length) met a context switch in every one of 28 tries on a loaded
	 * host, which drops every repetition and leaves no row.
	 */
	out = bench(_metadata, "--format json --filter '^readcost' --repetitions 3 --warmup 1 --iterations 100",
		    &status);
	ASSERT_NE(NULL, out);
	ASSERT_EQ(0, status);
	ASSERT_EQ(0, json_parse(out, &root, err, sizeof(err))) TH_LOG("%s", err);
	m = json_bench(&root, "readcost/set_read_median");
	ASSERT_NE(NULL, m) TH_LOG("no readcost/set_read row: %.400s", out);
	EXPECT_GT(util_json_get(m, "real_time")->num, 0);
	ASSERT_NE(NULL, json_bench(&root, "readcost/read(2)_median"));
	ratio = util_json_get(m, "time_vs_read2");
	ASSERT_NE(NULL, ratio) TH_LOG("the set_read row has no ratio to read(2)");
	/* The same event, read(2) underneath or a page read: never free, never 100x. */
	EXPECT_GT(ratio->num, 0.0);
	EXPECT_LT(ratio->num, 100.0);
	TH_LOG("selfmon_set__read / read(2), time: %.3f (medians), %.3f (minimums)", ratio->num,
	       util_json_get(m, "time_min_vs_read2") ? util_json_get(m, "time_min_vs_read2")->num : -1);
	if (util_json_get(m, "instructions:u"))
		TH_LOG("selfmon_set__read: %.0f user instructions, read(2): %.0f",
		       util_json_get(m, "instructions:u")->num,
		       util_json_get(json_bench(&root, "readcost/read(2)_median"), "instructions:u")->num);
	util_json_free(&root);
	free(out);
}

/*
 * A sample read from a ring by selfmon's drain and by libperf's
 * loop, the same records, on every machine (timed where nothing else
 * counts), each row with its reader's records actually read.
 */
TEST(samplecost_reads_one_ring_by_selfmons_drain_and_libperfs_loop_with_their_ratio)
{
	const struct util_json *m, *l, *ratio;
	struct util_json root;
	char err[160];
	int status = -1;
	char *out;

	if (!selfmon_cli())
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	/*
	 * One warm-up: the first repetition's rings start cold, and a cold
	 * repetition can come out below the calibrated overhead (clamped to 0);
	 * two of three of those made the median 0 on a loaded host.
	 */
	out = bench(_metadata, "--format json --filter '^samplecost' --repetitions 3 --warmup 1 --iterations 1000",
		    &status);
	ASSERT_NE(NULL, out);
	ASSERT_EQ(0, status) TH_LOG("%.400s", out);
	ASSERT_EQ(0, json_parse(out, &root, err, sizeof(err))) TH_LOG("%s", err);
	m = json_bench(&root, "samplecost/selfmon_median");
	l = json_bench(&root, "samplecost/libperf_median");
	ASSERT_NE(NULL, m) TH_LOG("no samplecost/selfmon row: %.400s", out);
	ASSERT_NE(NULL, l) TH_LOG("no samplecost/libperf row: %.400s", out);
	EXPECT_GT(util_json_get(m, "real_time")->num, 0);
	EXPECT_GT(util_json_get(l, "real_time")->num, 0);
	ratio = util_json_get(m, "time_vs_libperf");
	ASSERT_NE(NULL, ratio) TH_LOG("the selfmon row has no ratio to libperf's");
	/* The publishing loop, subtracted from both, says it is a baseline (compare judges it not). */
	ASSERT_NE(NULL, json_bench(&root, "samplecost/loop_median"));
	ASSERT_NE(NULL, util_json_get(json_bench(&root, "samplecost/loop_median"),
				      SELFMON_REPORT_BASELINE_FIGURE));
	EXPECT_EQ(2, util_json_get(json_bench(&root, "samplecost/loop_median"),
				   SELFMON_REPORT_BASELINE_FIGURE)->num);
	EXPECT_EQ(NULL, util_json_get(m, SELFMON_REPORT_BASELINE_FIGURE));
	EXPECT_EQ(NULL, util_json_get(l, SELFMON_REPORT_BASELINE_FIGURE));
	TH_LOG("per sample: selfmon %.2f ns, libperf %.2f ns, ratio %.2f",
	       util_json_get(m, "real_time")->num, util_json_get(l, "real_time")->num, ratio->num);
	util_json_free(&root);
	free(out);
}

static void nothing(void *arg, uint64_t n)
{
	(void)arg;
	(void)n;
}

static volatile uint64_t sink;

static void spin(void *arg, uint64_t n)
{
	(void)arg;
	for (uint64_t i = 0; i < n * 100; i++)
		sink += i;
}

TEST(a_software_event_in_the_region_takes_read2_and_is_labelled)
{
	/*
	 * Noisy repetitions kept: the rule is the path and its label, and
	 * task-clock counts this thread's CPU time only, which a switch does
	 * not add to; dropped, a loaded host switched in every try and kept none.
	 */
	struct selfmon_bench_opts o = { .sz = sizeof(o), .events = "task-clock", .repetitions = 3,
					 .iterations = 1000, .keep_noisy = 1 };
	struct selfmon_bench_result res;
	struct selfmon_bench *b;
	int c;

	b = selfmon_bench__open(&o);
	ASSERT_NE(NULL, b) TH_LOG("%s", selfmon_errmsg());
	ASSERT_EQ(1, selfmon_bench__nr_events(b));
	ASSERT_EQ(0, selfmon_bench__run(b, "spin", spin, NULL, &res)) TH_LOG("%s", selfmon_errmsg());
	/* time, the side set's task-clock, then the region's own task-clock */
	ASSERT_EQ(3, res.nr_cols);
	c = res.nr_cols - 1;
	EXPECT_STREQ("task-clock", res.col[c].name);
	EXPECT_EQ(SELFMON_PATH_SYSCALL, res.col[c].path);
	EXPECT_EQ(SELFMON_REASON_SOFTWARE, res.col[c].reason);
	EXPECT_EQ(res.repetitions * 2, res.slow_regions) TH_LOG("every region (L and 2L) took read(2)");
	EXPECT_GT(res.col[c].st.median, 0);
	EXPECT_GE(res.kept, 1);
	selfmon_bench_result__fini(&res);

	/* An empty body is 0 per iteration, or clamped to 0 and counted: never negative. */
	ASSERT_EQ(0, selfmon_bench__run(b, "nothing", nothing, NULL, &res));
	for (int k = 0; k < res.nr_cols; k++) {
		EXPECT_GE(res.col[k].st.min, 0);
	}
	selfmon_bench_result__fini(&res);
	selfmon_bench__close(b);
}

TEST(a_repetition_whose_counter_did_not_run_is_dropped_and_never_kept_as_0)
{
	/* Noisy repetitions kept, as above: only the counter that stood still is dropped. */
	struct selfmon_bench_opts o = { .sz = sizeof(o), .events = "task-clock", .repetitions = 3,
					 .iterations = 1000, .keep_noisy = 1 };
	struct selfmon_bench_result res;
	struct selfmon_bench *b;

	b = selfmon_bench__open(&o);
	ASSERT_NE(NULL, b) TH_LOG("%s", selfmon_errmsg());
	ASSERT_EQ(0, selfmon_bench__run(b, "spin", spin, NULL, &res)) TH_LOG("%s", selfmon_errmsg());
	EXPECT_EQ(0, res.dropped_not_run);
	/*
	 * All three kept. Not "every repetition run": a pair whose 2L run came
	 * out shorter than its L run (the L run preempted, on a loaded host) is
	 * no measurement and is run again whatever keep_noisy says.
	 */
	EXPECT_EQ(o.repetitions, res.kept);
	EXPECT_LE(res.kept, res.repetitions);
	selfmon_bench_result__fini(&res);

	/* Every counter this thread opened stops: each repetition counts nothing. */
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_DISABLE));
	ASSERT_EQ(0, selfmon_bench__run(b, "spin", spin, NULL, &res)) TH_LOG("%s", selfmon_errmsg());
	EXPECT_EQ(0, prctl(PR_TASK_PERF_EVENTS_ENABLE));
	EXPECT_EQ(0, res.kept);
	EXPECT_LE(3, res.repetitions);
	EXPECT_EQ(res.repetitions, res.dropped_not_run);
	selfmon_bench_result__fini(&res);
	selfmon_bench__close(b);
}

TEST(an_event_name_that_does_not_parse_fails_to_open)
{
	struct selfmon_bench_opts o = { .sz = sizeof(o), .events = "instructions:zz" };

	EXPECT_EQ(NULL, selfmon_bench__open(&o));
	EXPECT_NE(0, errno);
	EXPECT_NE(0, strlen(selfmon_errmsg()));
}

TEST(csv_has_a_header_row)
{
	int status = -1;
	char *out;

	if (!selfmon_cli())
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	out = bench(_metadata, "--format csv --filter '^empty$' " QUICK, &status);
	ASSERT_NE(NULL, out);
	ASSERT_EQ(0, status);
	EXPECT_EQ(0, strncmp(out, "name,event,unit,path,iterations,repetitions,kept,", 49)) TH_LOG("%.200s", out);
	EXPECT_NE(NULL, strstr(out, "\nempty,time,ns,"));
	free(out);
}

TEST(bad_options_exit_with_status_2)
{
	int status = -1;
	char *out;

	if (!selfmon_cli())
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	out = bench(_metadata, "--format xml", &status);
	free(out);
	EXPECT_EQ(2, WEXITSTATUS(status));
}

TEST_HARNESS_MAIN
