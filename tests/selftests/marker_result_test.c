// SPDX-License-Identifier: MIT
/*
 * A region's figures inside the program (selfmon_marker__result(),
 * selfmon_marker__walk()) are the report's, and a marker region held to a
 * budget passes, fails and fails with nothing measured as budgets do.
 * Markers are per process: each case runs in a child (marker_run.h) with
 * software events, which every kernel counts; the child writes what it read
 * to a file, and its report at exit, as CSV, has every figure in full.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <selfmon/budget.h>
#include <selfmon/marker_result.h>
#include <selfmon/selfmon.h>
#include "kselftest_harness.h"
#include "json_check.h"
#include "marker_run.h"

#define EVENTS "task-clock,page-faults"

/* Where a child writes what it read: set before run_child(), inherited. */
static char said_path[64];

static FILE *said_open(void)
{
	return fopen(said_path, "w");
}

static void said_begin(void)
{
	snprintf(said_path, sizeof(said_path), "/tmp/selfmon-result-%d", (int)getpid());
	unlink(said_path);
}

static char *said_take(void)
{
	char *s = slurp(said_path);

	unlink(said_path);
	return s;
}

/* A result's figures as the report's CSV lines: region,thread,event,calls,sum,,min,max,,fallbacks,enabled,running. */
static void said_result(FILE *f, const struct selfmon_marker_result *r)
{
	for (int i = 0; i < r->nr_events; i++) {
		char thread[32];

		if (r->thread < 0)
			snprintf(thread, sizeof(thread), "all");
		else
			snprintf(thread, sizeof(thread), "%ld", r->tid);
		fprintf(f, "%s,%s,%s,%llu,%lld,%lld,%lld,%llu,%llu,%llu\n", r->region, thread,
			r->event[i].name, (unsigned long long)r->calls, (long long)r->event[i].sum,
			(long long)r->event[i].min, (long long)r->event[i].max,
			(unsigned long long)r->fallbacks, (unsigned long long)r->time_enabled,
			(unsigned long long)r->time_running);
	}
}

/*
 * The report's CSV line @line as said_result() writes one: the columns
 * region..sum, min, max, read_fallbacks, time_enabled, time_running (the
 * per-call mean and the empty pair dropped). 0 when it is no event's line.
 */
static int csv_as_said(const char *line, char *out, size_t size)
{
	char f[12][96];
	int n = 0;
	const char *p = line;

	while (n < 12) {
		size_t k = strcspn(p, ",\n");

		snprintf(f[n++], sizeof(f[0]), "%.*s", (int)k, p);
		if (p[k] != ',')
			break;
		p += k + 1;
	}
	if (n != 12 || !f[4][0])
		return 0;
	snprintf(out, size, "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", f[0], f[1], f[2], f[3], f[4], f[6],
		 f[7], f[9], f[10], f[11]);
	return 1;
}

/* 1 when the report's CSV @report has the line @want (as said_result() writes it). */
static int report_has(const char *report, const char *want)
{
	char line[512], as[1200];

	for (const char *p = report; p && *p;) {
		size_t k = strcspn(p, "\n");

		snprintf(line, sizeof(line), "%.*s", (int)k, p);
		if (csv_as_said(line, as, sizeof(as)) && !strcmp(as, want))
			return 1;
		p += k + (p[k] == '\n');
	}
	return 0;
}

static pid_t worker_tid[2];

static void *worker(void *arg)
{
	int k = (int)(long)arg;

	worker_tid[k] = gettid();
	for (int i = 0; i < 4 + k; i++) {
		SELFMON_MARKER_BEGIN("worker");
		work(20000);
		SELFMON_MARKER_END("worker");
	}
	return NULL;
}

/* Two threads, one after the other, so that thread 1 of "worker" is the first; then "main" here. */
static int run_two_threads(void)
{
	for (long k = 0; k < 2; k++) {
		pthread_t t;

		if (pthread_create(&t, NULL, worker, (void *)k) || pthread_join(t, NULL))
			return 10;
	}
	for (int i = 0; i < 3; i++) {
		SELFMON_MARKER_BEGIN("main");
		work(50000);
		SELFMON_MARKER_END("main");
	}
	return 0;
}

/* Every row the report will have, as the program reads it; the report at exit as CSV. */
static int scenario_rows(void)
{
	static const struct {
		const char *region;
		int thread;
	} rows[] = { { "worker", -1 }, { "worker", 1 }, { "worker", 2 }, { "main", -1 },
		     { "main", 1 } };
	FILE *f;
	int err = run_two_threads();

	if (err)
		return err;
	setenv("SELFMON_FORMAT", "csv", 1);
	f = said_open();
	if (!f)
		return 11;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct selfmon_marker_result r = { .sz = sizeof(r) };

		err = selfmon_marker__result(rows[i].region, rows[i].thread, &r);
		if (err) {
			fprintf(f, "error %d: %s\n", err, selfmon_errmsg());
			continue;
		}
		said_result(f, &r);
		fprintf(f, "# %s %d: threads %d thread %d tid %ld exited %d\n", r.region, rows[i].thread,
			r.threads, r.thread, r.tid, r.exited);
	}
	fprintf(f, "# tids %d %d\n", (int)worker_tid[0], (int)worker_tid[1]);
	fclose(f);
	return 0;
}

/* The "# region thread: ..." line of @said for @region and @thread: its threads, number, tid. */
static int said_row(const char *said, const char *region, int thread, int *threads, int *number,
		    long *tid)
{
	char head[96];
	const char *p;

	snprintf(head, sizeof(head), "# %s %d: ", region, thread);
	p = strstr(said, head);
	return p && sscanf(p + strlen(head), "threads %d thread %d tid %ld", threads, number, tid) == 3;
}

TEST(a_regions_result_is_its_report_row_in_total_and_per_thread_with_two_threads)
{
	int n = 0, threads = 0, number = 0, tid0 = 0, tid1 = 0;
	char want[256], *said, *line, *p;
	long tid = 0;
	struct run r;

	said_begin();
	run_child(scenario_rows, EVENTS, "-", &r);
	said = said_take();
	ASSERT_TRUE(WIFEXITED(r.status));
	ASSERT_EQ(0, WEXITSTATUS(r.status)) TH_LOG("stderr: %s", r.err);
	ASSERT_NE(NULL, said);
	ASSERT_NE(NULL, r.report);
	EXPECT_EQ(NULL, strstr(said, "error")) TH_LOG("%s", said);
	/* The totals count the threads; thread N is the N-th thread that began, as the report's. */
	p = strstr(said, "# tids ");
	ASSERT_NE(NULL, p);
	ASSERT_EQ(2, sscanf(p, "# tids %d %d", &tid0, &tid1));
	ASSERT_TRUE(said_row(said, "worker", -1, &threads, &number, &tid));
	EXPECT_EQ(2, threads);
	EXPECT_EQ(-1, number);
	EXPECT_EQ(0, tid);
	ASSERT_TRUE(said_row(said, "worker", 1, &threads, &number, &tid));
	EXPECT_EQ(1, threads);
	EXPECT_EQ(1, number);
	EXPECT_EQ(tid0, tid);
	ASSERT_TRUE(said_row(said, "worker", 2, &threads, &number, &tid));
	EXPECT_EQ(tid1, tid);
	ASSERT_TRUE(said_row(said, "main", -1, &threads, &number, &tid));
	EXPECT_EQ(1, threads);
	/* Every line the program read is one of the report's, figure for figure. */
	for (p = said; (line = strtok_r(p, "\n", &p));) {
		if (line[0] == '#')
			continue;
		snprintf(want, sizeof(want), "%s\n", line);
		EXPECT_TRUE(report_has(r.report, want)) TH_LOG("not in the report: %s%s", want, r.report);
		n++;
	}
	/* 5 rows (2 totals, 3 threads), 2 events each */
	EXPECT_EQ(10, n);
	free(said);
	run_free(&r);
}

/* ---- errors ---- */

/* What a call said: its value and selfmon_errmsg(), written for the parent. */
static void said_err(FILE *f, const char *what, int err)
{
	fprintf(f, "%s %d %s\n", what, err, err ? selfmon_errmsg() : "");
}

static int scenario_errors(void)
{
	struct selfmon_marker_result r = { .sz = sizeof(r) };
	FILE *f = said_open();

	if (!f)
		return 11;
	said_err(f, "before", selfmon_marker__result("solve", -1, &r));
	SELFMON_MARKER_BEGIN("solve");
	work(100);
	SELFMON_MARKER_END("solve");
	said_err(f, "unknown", selfmon_marker__result("sol\tve", -1, &r));
	said_err(f, "thread3", selfmon_marker__result("solve", 3, &r));
	said_err(f, "thread0", selfmon_marker__result("solve", 0, &r));
	said_err(f, "null", selfmon_marker__result(NULL, -1, &r));
	r.sz = offsetof(struct selfmon_marker_result, event) - 1;
	said_err(f, "small", selfmon_marker__result("solve", -1, &r));
	/* A caller built with one event's figures: filled that far. */
	r.sz = offsetof(struct selfmon_marker_result, event[1]);
	r.event[1].sum = 77;
	said_err(f, "short", selfmon_marker__result("solve", -1, &r));
	fprintf(f, "short-fill %llu %d %lld\n", (unsigned long long)r.calls, (int)r.sz,
		(long long)r.event[1].sum);
	SELFMON_MARKER_BEGIN("open");
	said_err(f, "open", selfmon_marker__result("open", -1, &r));
	fclose(f);
	return 0;
}

/* The line of @said that begins with @what, for the assertions; "" when none. */
static const char *said_line(const char *said, const char *what, char *buf, size_t size)
{
	char head[64];
	const char *p;

	snprintf(head, sizeof(head), "%s ", what);
	for (p = said; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, head, strlen(head))) {
			snprintf(buf, size, "%.*s", (int)strcspn(p, "\n"), p);
			return buf;
		}
	return "";
}

TEST(an_unknown_region_a_missing_thread_and_bad_input_each_have_their_error_naming_the_cause)
{
	char *said, l[512], want[64];
	struct run r;

	said_begin();
	run_child(scenario_errors, "task-clock", "-", &r);
	said = said_take();
	ASSERT_TRUE(WIFEXITED(r.status));
	ASSERT_EQ(0, WEXITSTATUS(r.status)) TH_LOG("stderr: %s", r.err);
	ASSERT_NE(NULL, said);
	snprintf(want, sizeof(want), "before %d ", -ENOENT);
	EXPECT_NE(NULL, strstr(said_line(said, "before", l, sizeof(l)), want)) TH_LOG("%s", said);
	/* the name quoted, its tab escaped */
	snprintf(want, sizeof(want), "unknown %d ", -ENOENT);
	EXPECT_NE(NULL, strstr(said_line(said, "unknown", l, sizeof(l)), want)) TH_LOG("%s", said);
	EXPECT_NE(NULL, strstr(l, "no region 'sol\\x09ve'")) TH_LOG("%s", l);
	snprintf(want, sizeof(want), "thread3 %d ", -ENOENT);
	EXPECT_NE(NULL, strstr(said_line(said, "thread3", l, sizeof(l)), want)) TH_LOG("%s", said);
	EXPECT_NE(NULL, strstr(l, "region 'solve' has no thread 3: 1 thread ran it")) TH_LOG("%s", l);
	snprintf(want, sizeof(want), "thread0 %d ", -EINVAL);
	EXPECT_NE(NULL, strstr(said_line(said, "thread0", l, sizeof(l)), want)) TH_LOG("%s", said);
	snprintf(want, sizeof(want), "null %d ", -EINVAL);
	EXPECT_NE(NULL, strstr(said_line(said, "null", l, sizeof(l)), want)) TH_LOG("%s", said);
	snprintf(want, sizeof(want), "small %d ", -EINVAL);
	EXPECT_NE(NULL, strstr(said_line(said, "small", l, sizeof(l)), want)) TH_LOG("%s", said);
	EXPECT_NE(NULL, strstr(l, "out->sz")) TH_LOG("%s", l);
	/* A smaller struct is filled as far as it goes, its size kept, nothing written past it. */
	EXPECT_STREQ("short 0 ", said_line(said, "short", l, sizeof(l)));
	snprintf(want, sizeof(want), "short-fill 1 %d 77",
		 (int)offsetof(struct selfmon_marker_result, event[1]));
	EXPECT_STREQ(want, said_line(said, "short-fill", l, sizeof(l)));
	/* A pair still open is not counted: the region has no figures yet. */
	snprintf(want, sizeof(want), "open %d ", -ENOENT);
	EXPECT_NE(NULL, strstr(said_line(said, "open", l, sizeof(l)), want)) TH_LOG("%s", said);
	free(said);
	run_free(&r);
}

static int scenario_off(void)
{
	struct selfmon_marker_result r = { .sz = sizeof(r) };
	char msg[640];
	FILE *f = said_open();

	if (!f)
		return 11;
	SELFMON_MARKER_BEGIN("solve");
	work(100);
	SELFMON_MARKER_END("solve");
	said_err(f, "result", selfmon_marker__result("solve", -1, &r));
	said_err(f, "walk", selfmon_marker__walk((int (*)(const struct selfmon_marker_result *,
							     void *))abort,
						 NULL));
	fprintf(f, "budget %d %s\n", selfmon_marker__check_le("solve", "task-clock", 1e18, msg,
								 sizeof(msg)),
		msg);
	fclose(f);
	return 0;
}

TEST(with_markers_off_a_result_and_the_walk_are_ENODATA_and_a_budget_fails)
{
	char *said, l[640], want[64];
	struct run r;

	said_begin();
	run_child(scenario_off, "", NULL, &r);
	said = said_take();
	ASSERT_TRUE(WIFEXITED(r.status));
	ASSERT_EQ(0, WEXITSTATUS(r.status)) TH_LOG("stderr: %s", r.err);
	ASSERT_NE(NULL, said);
	snprintf(want, sizeof(want), "result %d markers are off", -ENODATA);
	EXPECT_NE(NULL, strstr(said_line(said, "result", l, sizeof(l)), want)) TH_LOG("%s", said);
	snprintf(want, sizeof(want), "walk %d ", -ENODATA);
	EXPECT_NE(NULL, strstr(said_line(said, "walk", l, sizeof(l)), want)) TH_LOG("%s", said);
	snprintf(want, sizeof(want), "budget %d ", SELFMON_VERDICT_FAIL);
	EXPECT_NE(NULL, strstr(said_line(said, "budget", l, sizeof(l)), want)) TH_LOG("%s", said);
	EXPECT_NE(NULL, strstr(l, "nothing was measured")) TH_LOG("%s", l);
	free(said);
	run_free(&r);
}

/* ---- the walk ---- */

struct seen {
	FILE *f;
	int stop_after;
	int n;
};

static int visit(const struct selfmon_marker_result *r, void *arg)
{
	struct seen *s = arg;
	struct selfmon_marker_result one = { .sz = sizeof(one) };

	/* The callback may ask for a region's threads: the walk holds no lock now. */
	fprintf(s->f, "visit %s %llu %d %d\n", r->region, (unsigned long long)r->calls, r->thread,
		selfmon_marker__result(r->region, 1, &one));
	return ++s->n == s->stop_after ? 7 : 0;
}

static int scenario_walk(void)
{
	static const char *const names[] = { "a", "b", "c" };
	struct seen s = { .f = said_open() };

	if (!s.f)
		return 11;
	for (int i = 0; i < 3; i++)
		for (int k = 0; k <= i; k++) {
			selfmon_marker__begin(names[i]);
			selfmon_marker__end(names[i]);
		}
	SELFMON_MARKER_BEGIN("never ended");
	fprintf(s.f, "all %d\n", selfmon_marker__walk(visit, &s));
	s.n = 0;
	s.stop_after = 2;
	fprintf(s.f, "stopped %d\n", selfmon_marker__walk(visit, &s));
	fclose(s.f);
	return 0;
}

TEST(the_walk_visits_every_counted_region_once_in_order_and_stops_when_told)
{
	const char *want = "visit a 1 -1 0\nvisit b 2 -1 0\nvisit c 3 -1 0\nall 0\n"
			   "visit a 1 -1 0\nvisit b 2 -1 0\nstopped 7\n";
	char *said;
	struct run r;

	said_begin();
	run_child(scenario_walk, "task-clock", "-", &r);
	said = said_take();
	ASSERT_TRUE(WIFEXITED(r.status));
	ASSERT_EQ(0, WEXITSTATUS(r.status)) TH_LOG("stderr: %s", r.err);
	ASSERT_NE(NULL, said);
	EXPECT_STREQ(want, said);
	free(said);
	run_free(&r);
}

/* ---- a budget on a region ---- */

static int scenario_budgets(void)
{
	static const struct {
		const char *what, *region, *event;
		double max;
	} b[] = {
		{ "within", "solve", "task-clock", 1e12 },
		{ "over", "solve", "task-clock", 1 },
		{ "unknown", "nowhere", "task-clock", 1e12 },
		{ "uncounted", "solve", "instructions:u", 1e12 },
	};
	FILE *f = said_open();
	char msg[640];

	if (!f)
		return 11;
	for (int i = 0; i < 3; i++) {
		SELFMON_MARKER_BEGIN("solve");
		work(200000);
		SELFMON_MARKER_END("solve");
	}
	for (size_t i = 0; i < sizeof(b) / sizeof(b[0]); i++)
		fprintf(f, "%s %d %s\n", b[i].what,
			selfmon_marker__check_le(b[i].region, b[i].event, b[i].max, msg, sizeof(msg)),
			msg);
	fclose(f);
	return 0;
}

TEST(a_marker_budget_passes_within_fails_over_and_fails_with_nothing_measured)
{
	char *said, l[640], want[64];
	struct run r;

	said_begin();
	run_child(scenario_budgets, "task-clock", "-", &r);
	said = said_take();
	ASSERT_TRUE(WIFEXITED(r.status));
	ASSERT_EQ(0, WEXITSTATUS(r.status)) TH_LOG("stderr: %s", r.err);
	ASSERT_NE(NULL, said);
	snprintf(want, sizeof(want), "within %d region 'solve', task-clock: measured ",
		 SELFMON_VERDICT_PASS);
	EXPECT_NE(NULL, strstr(said_line(said, "within", l, sizeof(l)), want)) TH_LOG("%s", said);
	EXPECT_NE(NULL, strstr(l, "the mean of 3 calls in 1 thread")) TH_LOG("%s", l);
	snprintf(want, sizeof(want), "over %d ", SELFMON_VERDICT_FAIL);
	EXPECT_NE(NULL, strstr(said_line(said, "over", l, sizeof(l)), want)) TH_LOG("%s", said);
	EXPECT_NE(NULL, strstr(l, "budget <= 1;")) TH_LOG("%s", l);
	snprintf(want, sizeof(want), "unknown %d ", SELFMON_VERDICT_FAIL);
	EXPECT_NE(NULL, strstr(said_line(said, "unknown", l, sizeof(l)), want)) TH_LOG("%s", said);
	EXPECT_NE(NULL, strstr(l, "nothing was measured, which is no pass: no region 'nowhere'"))
	TH_LOG("%s", l);
	snprintf(want, sizeof(want), "uncounted %d ", SELFMON_VERDICT_FAIL);
	EXPECT_NE(NULL, strstr(said_line(said, "uncounted", l, sizeof(l)), want)) TH_LOG("%s", said);
	EXPECT_NE(NULL, strstr(l, "do not count instructions:u (they count task-clock)"))
	TH_LOG("%s", l);
	free(said);
	run_free(&r);
}

/* "solve" run, then held to a generous instructions:u budget: the verdict and the events counted. */
static int scenario_instructions(void)
{
	struct selfmon_marker_result r = { .sz = sizeof(r) };
	FILE *f = said_open();
	char msg[640];
	int v;

	if (!f)
		return 11;
	SELFMON_MARKER_BEGIN("solve");
	work(1000);
	SELFMON_MARKER_END("solve");
	v = selfmon_marker__check_le("solve", "instructions:u", 1e12, msg, sizeof(msg));
	selfmon_marker__result("solve", -1, &r);
	fprintf(f, "%d %s\n%s\n", v, r.nr_events ? r.event[0].name : "(off)", msg);
	fclose(f);
	return 0;
}

/*
 * Where no core PMU counts instructions (this host), markers whose events
 * did not open skip the budget, as a budget's event that does not open: the
 * default events replaced by task-clock, or SELFMON_EVENTS' own refused.
 * Where one does, the same budget passes.
 */
TEST(a_marker_budget_skips_where_the_markers_events_do_not_open_here_and_passes_where_they_do)
{
	static const char *const events[] = { NULL, "instructions:u" };
	char *said, ev[64];
	struct run r;
	int v = -1;

	unsetenv("SELFMON_EXPECT_USER_READ");
	for (int i = 0; i < 2; i++) {
		said_begin();
		run_child(scenario_instructions, events[i], "-", &r);
		said = said_take();
		ASSERT_TRUE(WIFEXITED(r.status));
		ASSERT_NE(NULL, said);
		ASSERT_EQ(2, sscanf(said, "%d %63s", &v, ev));
		if (!strcmp(ev, "instructions:u")) {
			EXPECT_EQ(SELFMON_VERDICT_PASS, v) TH_LOG("%s", said);
		} else {
			EXPECT_EQ(SELFMON_VERDICT_SKIP, v) TH_LOG("%s", said);
			EXPECT_NE(NULL, strstr(said, "cannot be measured here")) TH_LOG("%s", said);
		}
		free(said);
		run_free(&r);
	}
}

#include <selfmon/kselftest.h>

/*
 * The assertion as a test writes it, in this test's own process (the
 * harness forks each test): its markers, its report to a file of its own.
 */
TEST(the_marker_budget_assertion_passes_on_a_region_within_its_budget)
{
	char out[64];

	snprintf(out, sizeof(out), "/tmp/selfmon-result-budget-%d.json", (int)getpid());
	setenv("SELFMON_EVENTS", "task-clock", 1);
	setenv("SELFMON_OUTPUT", out, 1);
	for (int i = 0; i < 3; i++) {
		SELFMON_MARKER_BEGIN("parse");
		work(1000);
		SELFMON_MARKER_END("parse");
	}
	SELFMON_EXPECT_MARKER_BUDGET("parse", "task-clock", 1e12);
	SELFMON_ASSERT_MARKER_BUDGET("parse", "task-clock", 1e12);
	unlink(out);
}

TEST_HARNESS_MAIN
