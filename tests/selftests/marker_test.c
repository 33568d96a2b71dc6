// SPDX-License-Identifier: MIT
/*
 * Markers on the running kernel, with software events (they open on every
 * kernel): the report read back, threads that exit first, fork, exec, and
 * every bad input, which must leave the host program's exit status alone.
 * Markers are per process, so each case runs in a child of its own, with
 * its environment, its stderr in a file and its report in another.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <selfmon/marker.h>
#include "kselftest_harness.h"
#include "json_check.h"
#include "marker_run.h"
#include "fds.h"

/* ---- the report read back ---- */

static void *thread_pairs(void *arg)
{
	(void)arg;
	for (int i = 0; i < 5; i++) {
		SELFMON_MARKER_BEGIN("worker");
		work(1000);
		SELFMON_MARKER_END("worker");
	}
	return NULL;
}

/* 10 pairs of "main" (nesting "inner" by name), 3 threads of 5 "worker" pairs that exit first. */
static int scenario_report(void)
{
	pthread_t t[3];

	for (int i = 0; i < 10; i++) {
		SELFMON_MARKER_BEGIN("main");
		selfmon_marker__begin("inner");
		work(5000);
		selfmon_marker__end("inner");
		SELFMON_MARKER_END("main");
	}
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, thread_pairs, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	return 42;
}

TEST(the_json_report_at_exit_has_every_region_totals_then_threads_and_the_exit_status_stays)
{
	const struct util_json *b, *ctx;
	struct util_json root = { 0 };
	struct run r;
	char err[128];
	int per_thread = 0;

	run_child(scenario_report, "task-clock", "-", &r);
	ASSERT_TRUE(WIFEXITED(r.status));
	EXPECT_EQ(42, WEXITSTATUS(r.status));
	ASSERT_NE(NULL, r.report);
	ASSERT_EQ(0, json_parse(r.report, &root, err, sizeof(err))) TH_LOG("%s", err);
	ctx = util_json_get(&root, "context");
	ASSERT_NE(NULL, ctx);
	EXPECT_STREQ("selfmon-report", util_json_str(&root, "schema"));
	EXPECT_STREQ("task-clock", util_json_str(ctx, "selfmon_events"));
	EXPECT_STREQ("empty", util_json_str(ctx, "selfmon_calibration"));
	EXPECT_NE(NULL, strstr(util_json_str(ctx, "selfmon_note"), "empty pair subtracted per call: task-clock "));
	b = json_bench(&root, "main");
	ASSERT_NE(NULL, b);
	EXPECT_EQ(10, num(b, "iterations"));
	EXPECT_STREQ("iteration", util_json_str(b, "run_type"));
	/* task-clock per call is the cpu_time (ns), as in selfmon bench. */
	EXPECT_LE(0, num(b, "cpu_time"));
	EXPECT_LE(num(b, "task-clock_min"), num(b, "task-clock_max"));
	EXPECT_EQ(1, num(json_bench(&root, "main_median"), "region_threads"));
	b = json_bench(&root, "inner");
	ASSERT_NE(NULL, b);
	EXPECT_EQ(10, num(b, "iterations"));
	b = json_bench(&root, "worker");
	ASSERT_NE(NULL, b);
	EXPECT_EQ(15, num(b, "iterations"));
	EXPECT_EQ(3, num(json_bench(&root, "worker_median"), "region_threads"));
	/* Each thread that exited still has its own entry. */
	for (int i = 0; i < util_json_get(&root, "benchmarks")->nr; i++) {
		const struct util_json *k = &util_json_get(&root, "benchmarks")->kid[i];
		const char *n = util_json_str(k, "name");

		if (n && !strncmp(n, "worker/thread:", 14) && !strcmp(util_json_str(k, "run_type"), "iteration")) {
			per_thread++;
			EXPECT_EQ(5, num(k, "iterations"));
		}
	}
	EXPECT_EQ(3, per_thread);
	/* A thread's row: its number in the region, not its id, which lands in the median entry. */
	for (int i = 1; i <= 3; i++) {
		char name[64];

		snprintf(name, sizeof(name), "worker/thread:%d", i);
		EXPECT_NE(NULL, json_bench(&root, name)) TH_LOG("no %s", name);
		snprintf(name, sizeof(name), "worker/thread:%d_median", i);
		EXPECT_LT(0, num(json_bench(&root, name), "thread_id")) TH_LOG("%s", name);
	}
	EXPECT_NE(NULL, json_bench(&root, "main/thread:1"));
	/* The empty pairs the library measures are not a region of the program's. */
	EXPECT_EQ(NULL, strstr(r.report, "selfmon:empty"));
	util_json_free(&root);
	run_free(&r);
}

#define SHORT_THREADS 300

static void *thread_one_pair(void *arg)
{
	(void)arg;
	SELFMON_MARKER_BEGIN("short");
	work(100);
	SELFMON_MARKER_END("short");
	return NULL;
}

/* Threads one after the other, one pair each: exit status 0 when the fds are back where they were. */
static int scenario_short_threads(void)
{
	int before = open_fds();

	for (int i = 0; i < SHORT_THREADS; i++) {
		pthread_t t;

		if (pthread_create(&t, NULL, thread_one_pair, NULL) || pthread_join(t, NULL))
			return 2;
	}
	return open_fds() == before ? 0 : 1;
}

TEST(a_thread_that_exits_closes_its_marker_counters_and_its_counts_stay_in_the_report)
{
	struct util_json root = { 0 };
	struct run r;
	char err[128];

	run_child(scenario_short_threads, "task-clock", "-", &r);
	ASSERT_TRUE(WIFEXITED(r.status));
	EXPECT_EQ(0, WEXITSTATUS(r.status)) TH_LOG("1: counters left open; stderr: %s", r.err);
	ASSERT_NE(NULL, r.report);
	ASSERT_EQ(0, json_parse(r.report, &root, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(SHORT_THREADS, num(json_bench(&root, "short"), "iterations"));
	EXPECT_EQ(SHORT_THREADS, num(json_bench(&root, "short_median"), "region_threads"));
	util_json_free(&root);
	run_free(&r);
}

/* Write @text to a file of @dir named @name; its path in @path. */
static void save(const char *dir, const char *name, const char *text, char *path, size_t size)
{
	FILE *f;

	snprintf(path, size, "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text ? text : "", f);
		fclose(f);
	}
}

/*
 * Two runs of the same program name their rows alike, per-thread rows
 * included (thread ids differ between runs): selfmon compare pairs every
 * row and finds none on one side only (exit 2 and "only in").
 */
TEST(selfmon_compare_pairs_every_row_of_two_runs_reports_threads_included)
{
	char dir[] = "/tmp/selfmon-marker-cmp-XXXXXX", a[128], b[128], cmd[1400];
	const char *cli = selfmon_cli();
	struct run r1, r2;
	char *out;
	int status = -1;

	if (!cli)
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	ASSERT_NE(NULL, mkdtemp(dir));
	run_child(scenario_report, "task-clock", "-", &r1);
	run_child(scenario_report, "task-clock", "-", &r2);
	ASSERT_NE(NULL, r1.report);
	ASSERT_NE(NULL, r2.report);
	save(dir, "a.json", r1.report, a, sizeof(a));
	save(dir, "b.json", r2.report, b, sizeof(b));
	snprintf(cmd, sizeof(cmd), "'%s' compare '%s' '%s' 2>&1", cli, a, b);
	out = run_capture(cmd, &status);
	ASSERT_NE(NULL, out);
	/* times differ between runs: same or a regression, but never bad input */
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) != 2) TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "only in")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "worker/thread:3")) TH_LOG("%s", out);
	free(out);
	unlink(a);
	unlink(b);
	rmdir(dir);
	run_free(&r1);
	run_free(&r2);
}

static int scenario_on_demand(void)
{
	SELFMON_MARKER_BEGIN("once");
	SELFMON_MARKER_END("once");
	setenv("SELFMON_FORMAT", "csv", 1);
	/* On demand, then at exit in JSON again: the file holds the last one. */
	if (selfmon_marker__report())
		return 1;
	/* At exit, CSV again, to stderr. */
	unsetenv("SELFMON_OUTPUT");
	return 0;
}

TEST(the_report_on_demand_and_csv_name_region_thread_and_event)
{
	struct run r;

	run_child(scenario_on_demand, "task-clock", "-", &r);
	ASSERT_TRUE(WIFEXITED(r.status));
	EXPECT_EQ(0, WEXITSTATUS(r.status));
	ASSERT_NE(NULL, r.report);
	EXPECT_EQ(0, strncmp(r.report, "region,thread,event,calls,sum,per_call,min,max", 46));
	EXPECT_NE(NULL, strstr(r.report, "\nonce,all,task-clock,1,"));
	ASSERT_NE(NULL, r.err);
	EXPECT_NE(NULL, strstr(r.err, "region,thread,event")) TH_LOG("stderr: %s", r.err);
	run_free(&r);
}

static int scenario_work(void)
{
	SELFMON_MARKER_BEGIN("r");
	work(200000);
	SELFMON_MARKER_END("r");
	return 0;
}

TEST(a_time_event_with_modifiers_gives_the_rows_real_and_cpu_time)
{
	struct util_json root = { 0 };
	const struct util_json *b;
	char err[128];
	struct run r;

	run_child(scenario_work, "task-clock:u", "-", &r);
	ASSERT_TRUE(WIFEXITED(r.status));
	ASSERT_NE(NULL, r.report);
	ASSERT_EQ(0, json_parse(r.report, &root, err, sizeof(err))) TH_LOG("%s", err);
	b = json_bench(&root, "r");
	ASSERT_NE(NULL, b);
	/* 200,000 additions take far more than one ns, however loaded the machine. */
	EXPECT_LT(0, num(b, "real_time")) TH_LOG("%s", r.report);
	EXPECT_EQ(num(b, "task-clock:u"), num(b, "real_time"));
	EXPECT_EQ(num(b, "real_time"), num(b, "cpu_time"));
	util_json_free(&root);
	run_free(&r);
}

TEST(an_event_named_twice_is_one_key_of_each_json_object)
{
	struct run r;
	int rows;

	run_child(scenario_work, "task-clock,task-clock", "-", &r);
	ASSERT_TRUE(WIFEXITED(r.status));
	ASSERT_NE(NULL, r.report);
	/* The region and its thread, each with one repetition and three aggregates. */
	rows = count_lines(r.report, "\"run_type\": ");
	EXPECT_EQ(8, rows) TH_LOG("%s", r.report);
	EXPECT_EQ(rows, count_lines(r.report, "\"task-clock_min\": ")) TH_LOG("%s", r.report);
	EXPECT_EQ(rows, count_lines(r.report, "\"task-clock_max\": "));
	run_free(&r);
}

TEST(a_json_report_without_a_time_event_says_its_times_are_not_measured)
{
	struct util_json root = { 0 };
	char err[128];
	struct run r;

	run_child(scenario_work, "page-faults", "-", &r);
	ASSERT_TRUE(WIFEXITED(r.status));
	ASSERT_NE(NULL, r.report);
	ASSERT_EQ(0, json_parse(r.report, &root, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_NE(NULL, strstr(util_json_str(util_json_get(&root, "context"), "selfmon_note"),
			       "no time event counted (task-clock or cpu-clock): real_time and "
			       "cpu_time are 0, not measured"))
		TH_LOG("%s", r.report);
	util_json_free(&root);
	run_free(&r);
	/* With one, the note says nothing of the kind. */
	run_child(scenario_work, "page-faults,task-clock", "-", &r);
	ASSERT_NE(NULL, r.report);
	EXPECT_EQ(NULL, strstr(r.report, "no time event counted"));
	run_free(&r);
}

/* ---- fork and exec ---- */

static char child_report[128];

static int scenario_fork(void)
{
	pid_t pid;
	int st = 0;

	for (int i = 0; i < 4; i++) {
		SELFMON_MARKER_BEGIN("parent");
		work(100);
		SELFMON_MARKER_END("parent");
	}
	SELFMON_MARKER_BEGIN("open across fork");
	pid = fork();
	if (pid == 0) {
		setenv("SELFMON_OUTPUT", child_report, 1);
		for (int i = 0; i < 2; i++) {
			SELFMON_MARKER_BEGIN("child");
			SELFMON_MARKER_END("child");
		}
		/* The parent's open pair is not the child's: this end is unbalanced here. */
		SELFMON_MARKER_END("open across fork");
		exit(5);
	}
	SELFMON_MARKER_END("open across fork");
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return 1;
	return WEXITSTATUS(st) == 5 ? 0 : 2;
}

TEST(a_forked_child_starts_empty_and_reports_its_own_regions)
{
	struct util_json root = { 0 }, kid = { 0 };
	char err[128], *text;
	struct run r;

	snprintf(child_report, sizeof(child_report), "/tmp/selfmon-marker-child-%d.json", (int)getpid());
	run_child(scenario_fork, "task-clock", "-", &r);
	ASSERT_TRUE(WIFEXITED(r.status));
	EXPECT_EQ(0, WEXITSTATUS(r.status));
	ASSERT_NE(NULL, r.report);
	ASSERT_EQ(0, json_parse(r.report, &root, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(4, num(json_bench(&root, "parent"), "iterations"));
	EXPECT_EQ(1, num(json_bench(&root, "open across fork"), "iterations"));
	EXPECT_EQ(NULL, json_bench(&root, "child"));
	text = slurp(child_report);
	unlink(child_report);
	ASSERT_NE(NULL, text);
	ASSERT_EQ(0, json_parse(text, &kid, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(2, num(json_bench(&kid, "child"), "iterations"));
	EXPECT_EQ(NULL, json_bench(&kid, "parent"));
	EXPECT_EQ(NULL, json_bench(&kid, "open across fork"));
	EXPECT_NE(NULL, strstr(r.err, "end of region 'open across fork' without a begin")) TH_LOG("%s", r.err);
	util_json_free(&root);
	util_json_free(&kid);
	free(text);
	run_free(&r);
}

static int scenario_fork_no_begin(void)
{
	pid_t pid;
	int st = 0;

	SELFMON_MARKER_BEGIN("parent");
	SELFMON_MARKER_END("parent");
	pid = fork();
	if (pid == 0) {
		setenv("SELFMON_OUTPUT", child_report, 1);
		exit(6);
	}
	return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 6 ? 0 : 1;
}

TEST(a_forked_child_that_reaches_no_begin_writes_no_report)
{
	struct run r;

	snprintf(child_report, sizeof(child_report), "/tmp/selfmon-marker-child-%d.json", (int)getpid());
	unlink(child_report);
	run_child(scenario_fork_no_begin, "task-clock", "-", &r);
	ASSERT_TRUE(WIFEXITED(r.status));
	EXPECT_EQ(0, WEXITSTATUS(r.status));
	EXPECT_NE(NULL, r.report);
	EXPECT_NE(0, access(child_report, F_OK));
	unlink(child_report);
	run_free(&r);
}

static int scenario_exec(void)
{
	SELFMON_MARKER_BEGIN("before exec");
	/* The new program inherits no counter of ours: no perf fd survives exec. */
	execl("/bin/sh", "sh", "-c", "ls -l /proc/self/fd/ >&2; exit 9", (char *)NULL);
	return 1;
}

TEST(exec_leaves_no_counter_open_in_the_new_program_and_its_status_stands)
{
	struct run r;

	run_child(scenario_exec, "task-clock", "-", &r);
	ASSERT_TRUE(WIFEXITED(r.status));
	EXPECT_EQ(9, WEXITSTATUS(r.status));
	ASSERT_NE(NULL, r.err);
	EXPECT_EQ(NULL, strstr(r.err, "perf_event")) TH_LOG("fds after exec:\n%s", r.err);
	/* exec runs no atexit handler: no report, and nothing said. */
	EXPECT_EQ(NULL, r.report);
	run_free(&r);
}

/* ---- bad input ---- */

static int scenario_unbalanced(void)
{
	for (int i = 0; i < 3; i++)
		selfmon_marker__end("never begun");
	SELFMON_MARKER_END("never begun either");
	SELFMON_MARKER_BEGIN("left open");
	return 17;
}

TEST(an_unbalanced_end_is_said_once_naming_the_region_and_an_open_pair_is_reported)
{
	struct run r;

	run_child(scenario_unbalanced, "task-clock", "-", &r);
	ASSERT_TRUE(WIFEXITED(r.status));
	EXPECT_EQ(17, WEXITSTATUS(r.status));
	ASSERT_NE(NULL, r.err);
	EXPECT_EQ(1, count_lines(r.err, "end of region 'never begun' without a begin")) TH_LOG("%s", r.err);
	EXPECT_EQ(1, count_lines(r.err, "end of region 'never begun either' without a begin"));
	ASSERT_NE(NULL, r.report);
	EXPECT_NE(NULL, strstr(r.report, "open pairs (a begin without its end yet): 1\""));
	EXPECT_EQ(NULL, strstr(r.report, "left open"));
	run_free(&r);
}

static int scenario_bad_names(void)
{
	char longname[SELFMON_MARKER_NAME_MAX + 2];

	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	for (int i = 0; i < 2; i++) {
		selfmon_marker__begin(NULL);
		selfmon_marker__end(NULL);
		selfmon_marker__begin(longname);
		selfmon_marker__end(longname);
		selfmon_marker__begin("fine");
		selfmon_marker__end("fine");
	}
	return 3;
}

TEST(a_null_or_too_long_name_is_said_once_and_other_regions_count_on)
{
	struct util_json root = { 0 };
	char err[128];
	struct run r;

	run_child(scenario_bad_names, "task-clock", "-", &r);
	ASSERT_TRUE(WIFEXITED(r.status));
	EXPECT_EQ(3, WEXITSTATUS(r.status));
	EXPECT_EQ(1, count_lines(r.err, "a region name is NULL")) TH_LOG("%s", r.err);
	EXPECT_EQ(1, count_lines(r.err, "is too long: use 1 to 63 bytes"));
	ASSERT_NE(NULL, r.report);
	ASSERT_EQ(0, json_parse(r.report, &root, err, sizeof(err)));
	EXPECT_EQ(2, num(json_bench(&root, "fine"), "iterations"));
	util_json_free(&root);
	run_free(&r);
}

/* 1024 regions by name, then two more, then one of the first again. */
static int scenario_many_regions(void)
{
	char name[16];

	for (int i = 0; i < 1026; i++) {
		snprintf(name, sizeof(name), "r%d", i);
		selfmon_marker__begin(name);
		selfmon_marker__end(name);
	}
	selfmon_marker__begin("r0");
	selfmon_marker__end("r0");
	return 5;
}

TEST(a_name_past_the_1024th_region_is_said_once_and_the_first_1024_count_on)
{
	static const char said[] = "not counted: more than 1024 regions: use fewer names";
	struct util_json root = { 0 };
	char err[128], name[16];
	const char *line;
	struct run r;
	int k = -1;

	run_child(scenario_many_regions, "task-clock", "-", &r);
	ASSERT_TRUE(WIFEXITED(r.status));
	EXPECT_EQ(5, WEXITSTATUS(r.status));
	EXPECT_EQ(1, count_lines(r.err, said)) TH_LOG("%s", r.err);
	/* The program's own sites are regions too: the first name refused is r<k>, k at most 1024. */
	line = r.err ? strstr(r.err, "region 'r") : NULL;
	ASSERT_NE(NULL, line);
	ASSERT_EQ(1, sscanf(line, "region 'r%d'", &k));
	EXPECT_TRUE(k > 1000 && k <= 1024) TH_LOG("the first name refused: r%d", k);
	ASSERT_NE(NULL, r.report);
	ASSERT_EQ(0, json_parse(r.report, &root, err, sizeof(err)));
	EXPECT_EQ(2, num(json_bench(&root, "r0"), "iterations"));
	snprintf(name, sizeof(name), "r%d", k - 1);
	EXPECT_EQ(1, num(json_bench(&root, name), "iterations"));
	snprintf(name, sizeof(name), "r%d", k);
	EXPECT_EQ(NULL, json_bench(&root, name));
	util_json_free(&root);
	run_free(&r);
}

static int scenario_pairs(void)
{
	SELFMON_MARKER_BEGIN("r");
	work(10);
	SELFMON_MARKER_END("r");
	return 4;
}

TEST(an_unwritable_report_file_is_said_with_its_fix_and_the_report_goes_to_stderr)
{
	struct run r;

	run_child(scenario_pairs, "task-clock", "/nonexistent-dir/report.json", &r);
	ASSERT_TRUE(WIFEXITED(r.status));
	EXPECT_EQ(4, WEXITSTATUS(r.status));
	ASSERT_NE(NULL, r.err);
	EXPECT_EQ(1, count_lines(r.err, "cannot write the report to SELFMON_OUTPUT='/nonexistent-dir/report.json': "
				 "No such file or directory. Fix: name a file in a writable directory")) TH_LOG("%s", r.err);
	/* The file's extension still picks the format. */
	EXPECT_NE(NULL, strstr(r.err, "region / thread")) TH_LOG("%s", r.err);
	run_free(&r);
}

TEST(empty_selfmon_events_turns_markers_off_silently)
{
	struct run r;

	run_child(scenario_pairs, "", "-", &r);
	ASSERT_TRUE(WIFEXITED(r.status));
	EXPECT_EQ(4, WEXITSTATUS(r.status));
	EXPECT_STREQ("", r.err ? r.err : "(none)");
	EXPECT_EQ(NULL, r.report);
	run_free(&r);
}

/* What a host program may find in its environment. */
static const char *const hostile[] = {
	"bogus-event", "{", "}", "{task-clock", "task-clock,", ",", "instructions:u,{", "r",
	"rZZZZ", "task-clock:xyz", "pmu-that-is-not/alias/", "cpu/event=0xzz/", "'quoted'\x01\x1b[31m",
	"{task-clock,{task-clock}}",
	/* Metrics ("@name", as selfmon bench --events): unknown, unnamed, with control bytes. */
	"@no-such-metric", "task-clock,@", "@\x1b[31mipc",
	"task-clock,task-clock,task-clock,task-clock,task-clock,task-clock,task-clock,task-clock,task-clock",
};

TEST(hostile_selfmon_events_give_one_quoted_message_and_the_program_runs_on)
{
	char big[400];

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	for (size_t i = 0; i <= sizeof(hostile) / sizeof(hostile[0]); i++) {
		const char *ev = i < sizeof(hostile) / sizeof(hostile[0]) ? hostile[i] : big;
		struct run r;

		run_child(scenario_pairs, ev, "-", &r);
		ASSERT_TRUE(WIFEXITED(r.status)) TH_LOG("SELFMON_EVENTS='%s'", ev);
		EXPECT_EQ(4, WEXITSTATUS(r.status)) TH_LOG("SELFMON_EVENTS='%s'", ev);
		ASSERT_NE(NULL, r.err);
		EXPECT_EQ(1, count_lines(r.err, "selfmon: markers: ")) TH_LOG("'%s': %s", ev, r.err);
		EXPECT_NE(NULL, strstr(r.err, "SELFMON_EVENTS='")) TH_LOG("'%s': %s", ev, r.err);
		EXPECT_NE(NULL, strstr(r.err, "markers are off")) TH_LOG("'%s': %s", ev, r.err);
		/* Control bytes are quoted, never written raw to a terminal. */
		EXPECT_EQ(NULL, strchr(r.err, '\x1b'));
		EXPECT_EQ(NULL, r.report) TH_LOG("'%s'", ev);
		run_free(&r);
	}
}

/*
 * The C library keeps some signals for itself (glibc's threads use 32 and
 * 33) and sigaction(2) refuses to tell their handlers with EINVAL: such a
 * signal is compared by that refusal, never by a struct that was not filled.
 */
static int scenario_signals(void)
{
	struct sigaction before[NSIG], after;
	int readable[NSIG];

	memset(before, 0, sizeof(before));
	for (int s = 1; s < NSIG; s++)
		readable[s] = sigaction(s, NULL, &before[s]) == 0;
	scenario_pairs();
	selfmon_marker__report();
	for (int s = 1; s < NSIG; s++) {
		memset(&after, 0, sizeof(after));
		if ((sigaction(s, NULL, &after) == 0) != readable[s])
			return 100 + s;
		if (readable[s] && after.sa_handler != before[s].sa_handler)
			return 100 + s;
	}
	return 0;
}

TEST(markers_install_no_signal_handler)
{
	struct run r;

	run_child(scenario_signals, "task-clock", "-", &r);
	ASSERT_TRUE(WIFEXITED(r.status));
	EXPECT_EQ(0, WEXITSTATUS(r.status)) TH_LOG("a handler was left on signal %d", WEXITSTATUS(r.status) - 100);
	run_free(&r);
}

TEST_HARNESS_MAIN
