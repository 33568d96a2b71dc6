// SPDX-License-Identifier: MIT
/*
 * The markers' report: per region, the totals over threads, then each
 * thread; as a table, CSV, or JSON written by <selfmon/report.h>, the
 * schema of `selfmon bench --format json` (one entry a region, one a region
 * in a thread), so that selfmon compare reads both.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include <selfmon/report.h>
#include <selfmon/selfmon.h>
#include "../util/text.h"
#include "marker_int.h"

/* The first thread's empty pair, which the header states (each thread subtracts its own). */
static const struct mk_thread *first_thread(void)
{
	const struct mk_thread *t = mk.threads;

	while (t && t->next)
		t = t->next;
	return t;
}

static int open_pairs(void)
{
	int n = 0;

	for (const struct mk_thread *t = mk.threads; t; t = t->next)
		for (unsigned long i = 0; i < t->h.nr_slots; i++)
			n += t->h.slot[i].depth > 0 && t->h.slot[i].depth < (1 << 20);
	return n;
}

/* Most metrics a row shows. */
#define MK_METRICS 8

/* A row's metrics: each from the row's counts per call (the empty pair subtracted). */
struct mk_metric_vals {
	int n;
	char name[MK_METRICS][64];
	double v[MK_METRICS];
};

/*
 * The metrics of $SELFMON_EVENTS (mk.metrics) for row @r, through
 * selfmon_metrics__add_columns(): a result of one repetition whose columns
 * are the row's events per call. A metric whose events did not open has none.
 */
static void row_metrics(const struct mk_row *r, struct mk_metric_vals *out)
{
	static struct selfmon_bench_result res; /* large; the report runs under mk.lock */
	int added;

	out->n = 0;
	if (!mk.metrics || !r->calls)
		return;
	memset(&res, 0, sizeof(res));
	res.samples = calloc(SELFMON_BENCH_MAX_COLS, sizeof(double));
	if (!res.samples)
		return;
	res.iterations = r->calls;
	res.repetitions = res.kept = 1;
	for (int i = 0; i < mk.nr; i++) {
		struct selfmon_bench_col *c = &res.col[i];
		double v = mk_row_per_call(r, i);

		snprintf(c->name, sizeof(c->name), "%s", mk.event_name[i]);
		c->unit = "";
		c->path = SELFMON_PATH_USER;
		c->st.n = 1;
		c->st.min = c->st.max = c->st.mean = c->st.median = c->st.p10 = c->st.p90 = v;
		res.samples[i] = v;
	}
	res.nr_cols = mk.nr;
	added = selfmon_metrics__add_columns(mk.metrics, &res);
	for (int k = 0; k < added && out->n < MK_METRICS; k++) {
		snprintf(out->name[out->n], sizeof(out->name[0]), "%s", res.col[mk.nr + k].name);
		out->v[out->n++] = res.samples[mk.nr + k];
	}
	free(res.samples);
}

/* ---- table ---- */

static void table_row(FILE *f, const char *label, const struct mk_row *r)
{
	fprintf(f, "%-28s %8llu", label, (unsigned long long)r->calls);
	for (int i = 0; i < mk.nr; i++)
		fprintf(f, " %14.1f %10lld %10lld", mk_row_per_call(r, i), (long long)r->min[i],
			(long long)r->max[i]);
	fprintf(f, " %8llu", (unsigned long long)r->fallbacks);
	if (mk_row_below(r))
		fputs("  below resolution: under the empty pair", f);
	if (r->enabled != r->running)
		fprintf(f, "  ran %.1f%% of the time enabled",
			r->enabled ? 100.0 * (double)r->running / (double)r->enabled : 0.0);
	fputc('\n', f);
}

static void table_header(FILE *f)
{
	const struct mk_thread *t0 = first_thread();
	char q[96];

	fprintf(f, "selfmon markers: pid %d, events %s (reads: %s)\n", (int)getpid(),
		mk_quote(q, sizeof(q), mk.events), mk.read_path);
	if (mk.note[0])
		fprintf(f, "  note: %s\n", mk.note);
	fputs("  an empty pair's count is subtracted from each call:", f);
	for (int i = 0; t0 && i < mk.nr; i++)
		fprintf(f, "%s %s %llu (cached), %llu (by name)", i ? ";" : "",
			mk_quote(q, sizeof(q), mk.event_name[i]),
			(unsigned long long)t0->overhead[MK_CACHED][i],
			(unsigned long long)t0->overhead[MK_NAMED][i]);
	fputc('\n', f);
	fprintf(f, "%-28s %8s", "region / thread", "calls");
	for (int i = 0; i < mk.nr; i++)
		fprintf(f, " %14.14s %10s %10s", mk_quote(q, sizeof(q), mk.event_name[i]), "min",
			"max");
	fprintf(f, " %8s\n", "read(2)");
	fprintf(f, "%-28s %8s", "", "");
	for (int i = 0; i < mk.nr; i++)
		fprintf(f, " %14s %10s %10s", "per call", "", "");
	fputc('\n', f);
}

static int table_line(void *ctx, int id, const struct mk_thread *t, const struct mk_row *r)
{
	struct mk_metric_vals mv;
	char label[96], q[80];

	if (t)
		snprintf(label, sizeof(label), "  thread %d%s", (int)t->tid, t->exited ? " (exited)" : "");
	else
		snprintf(label, sizeof(label), "%s", mk_quote(q, sizeof(q), mk.region[id]->name));
	table_row(ctx, label, r);
	row_metrics(r, &mv);
	for (int k = 0; k < mv.n; k++)
		fprintf(ctx, "%-28s %8s %14.3f  %s\n", "", "", mv.v[k], mk_quote(q, sizeof(q), mv.name[k]));
	return 0;
}

static int report_table(FILE *f)
{
	int open = open_pairs();

	table_header(f);
	mk_each_row(table_line, f);
	if (open)
		fprintf(f, "  %d pair%s still open (a begin without its end yet): not counted\n",
			open, open == 1 ? "" : "s");
	return 0;
}

/* ---- CSV ---- */

static void csv_rows(FILE *f, const char *region, long tid, const struct mk_row *r,
		     const struct mk_thread *t)
{
	struct mk_metric_vals mv;

	for (int i = 0; i < mk.nr; i++) {
		util_csv_field(f, region);
		fputc(',', f);
		if (tid >= 0)
			fprintf(f, "%ld", tid);
		else
			fputs("all", f);
		fputc(',', f);
		util_csv_field(f, mk.event_name[i]);
		fprintf(f, ",%llu,%lld,%.3f,%lld,%lld,", (unsigned long long)r->calls,
			(long long)r->sum[i], mk_row_per_call(r, i), (long long)r->min[i],
			(long long)r->max[i]);
		if (t)
			fprintf(f, "%llu", (unsigned long long)t->overhead[MK_CACHED][i]);
		fprintf(f, ",%llu,%llu,%llu\n", (unsigned long long)r->fallbacks,
			(unsigned long long)r->enabled, (unsigned long long)r->running);
	}
	/* Each metric: a line of its own, its value per call, no sum, min or max. */
	row_metrics(r, &mv);
	for (int k = 0; k < mv.n; k++) {
		util_csv_field(f, region);
		if (tid >= 0)
			fprintf(f, ",%ld,", tid);
		else
			fputs(",all,", f);
		util_csv_field(f, mv.name[k]);
		fprintf(f, ",%llu,,%.6g,,,,,,\n", (unsigned long long)r->calls, mv.v[k]);
	}
}

static int csv_line(void *ctx, int id, const struct mk_thread *t, const struct mk_row *r)
{
	csv_rows(ctx, mk.region[id]->name, t ? (long)t->tid : -1, r, t);
	return 0;
}

static int report_csv(FILE *f)
{
	fputs("region,thread,event,calls,sum,per_call,min,max,empty_pair,read_fallbacks,time_enabled,"
	      "time_running\n",
	      f);
	mk_each_row(csv_line, f);
	return 0;
}

/* ---- JSON: the schema of selfmon bench, through <selfmon/report.h> ---- */

/* One entry's storage: its name, and per column its one value (the per-call figure). */
struct mk_json_entry {
	char name[SELFMON_MARKER_NAME_MAX + 32];
	double v[1 + 3 * MK_EVENTS + MK_METRICS];
	struct selfmon_report_col col[1 + 3 * MK_EVENTS + MK_METRICS];
	struct mk_metric_vals metrics; /* their names, which col[] points to */
};

/* 1 for an event that counts time in ns: task-clock or cpu-clock, with any modifiers ("task-clock:u"). */
static int is_time_event(const char *name)
{
	size_t n = strcspn(name, ":");

	return (n == 10 && !strncmp(name, "task-clock", n)) || (n == 9 && !strncmp(name, "cpu-clock", n));
}

/*
 * What the JSON says of rows with no time event: their real_time and
 * cpu_time are 0, not measured. (selfmon compare needs both as numbers in
 * each row: the schema of <selfmon/report.h> has no row without them.)
 */
#define MK_NO_TIME                                                                           \
	"no time event counted (task-clock or cpu-clock): real_time and cpu_time are 0, not " \
	"measured"

static int has_time_event(void)
{
	for (int i = 0; i < mk.nr; i++)
		if (is_time_event(mk.event_name[i]))
			return 1;
	return 0;
}

/* 1 when one of @j's first @c columns is named @name: JSON holds a key once per object. */
static int col_taken(const struct mk_json_entry *j, int c, const char *name)
{
	for (int k = 0; k < c; k++)
		if (!strcmp(j->col[k].name, name))
			return 1;
	return 0;
}

/*
 * A region's row (@t NULL: the totals; else one thread's) as a report
 * entry of one repetition of @r->calls iterations: column 0 the time per
 * call (the first time event's, where one is counted; 0 otherwise), then per event the
 * mean per call and its min and max ("<event>_min", "<event>_max"); the
 * fallbacks, times and the number of threads (a thread's row: its thread id)
 * as extras, which land in the median entry. A thread's row is named
 * "region/thread:N", N its mk_thread_ordinal(). An event named twice
 * (SELFMON_EVENTS=task-clock,task-clock) has its columns once: the first's.
 */
static void json_entry(struct selfmon_report_entry *e, struct mk_json_entry *j, int id,
		       const struct mk_thread *t, const struct mk_row *r,
		       char (*names)[2][SELFMON_EVENT_NAME_MAX + 8])
{
	static const char *const extra[] = { "region_threads", "read_fallbacks", "time_enabled",
					     "time_running" };
	const double ev[] = { t ? (double)t->tid : (double)r->threads, (double)r->fallbacks,
			      (double)r->enabled, (double)r->running };
	const char *region = mk.region[id]->name;
	int c = 1;

	if (t)
		snprintf(j->name, sizeof(j->name), "%s/thread:%d", region, mk_thread_ordinal(t, id));
	else
		snprintf(j->name, sizeof(j->name), "%s", region);
	j->v[0] = 0;
	j->col[0] = (struct selfmon_report_col){ .name = "time", .unit = "ns", .values = &j->v[0] };
	for (int i = 0, timed = 0; i < mk.nr; i++) {
		if (!timed && is_time_event(mk.event_name[i])) {
			j->v[0] = mk_row_per_call(r, i);
			timed = 1;
		}
		if (col_taken(j, c, mk.event_name[i]))
			continue;
		j->v[c] = mk_row_per_call(r, i);
		j->col[c] =
			(struct selfmon_report_col){ .name = mk.event_name[i], .values = &j->v[c] };
		c++;
		j->v[c] = (double)r->min[i];
		j->col[c] = (struct selfmon_report_col){ .name = names[i][0], .values = &j->v[c] };
		c++;
		j->v[c] = (double)r->max[i];
		j->col[c] = (struct selfmon_report_col){ .name = names[i][1], .values = &j->v[c] };
		c++;
	}
	row_metrics(r, &j->metrics);
	for (int k = 0; k < j->metrics.n; k++) {
		if (col_taken(j, c, j->metrics.name[k]))
			continue;
		j->v[c] = j->metrics.v[k];
		j->col[c] = (struct selfmon_report_col){ .name = j->metrics.name[k], .values = &j->v[c] };
		c++;
	}
	memset(e, 0, sizeof(*e));
	e->kind = SELFMON_REPORT_ENTRY_COLUMNS;
	e->name = j->name;
	e->iterations = r->calls;
	e->repetitions = e->kept = 1;
	e->nr_cols = c;
	e->cols = j->col;
	e->expected_insns = -1;
	for (int k = 0; k < 4; k++) {
		snprintf(e->extra[k].name, sizeof(e->extra[k].name), "%s",
			 k == 0 && t ? "thread_id" : extra[k]);
		e->extra[k].value = ev[k];
	}
	e->nr_extra = 4;
}

/* Where json_line() puts the report's entries: at most @max. */
struct mk_json_rows {
	struct selfmon_report_entry *e;
	struct mk_json_entry *j;
	int n, max;
	char (*names)[2][SELFMON_EVENT_NAME_MAX + 8];
};

static int json_line(void *ctx, int id, const struct mk_thread *t, const struct mk_row *r)
{
	struct mk_json_rows *rows = ctx;

	if (rows->n >= rows->max)
		return 1;
	json_entry(&rows->e[rows->n], &rows->j[rows->n], id, t, r, rows->names);
	rows->n++;
	return 0;
}

/* Rows of the report: every region with calls, then each of its threads. */
static int json_rows(struct selfmon_report_entry *e, struct mk_json_entry *j, int max,
		     char (*names)[2][SELFMON_EVENT_NAME_MAX + 8])
{
	struct mk_json_rows rows = { e, j, 0, max, names };

	mk_each_row(json_line, &rows);
	return rows.n;
}

/* The JSON's note: the empty pair each call was reduced by, and what else the reader must know. */
static void json_note(char *note, size_t size, const struct mk_thread *t0)
{
	int o = snprintf(note, size, "markers of pid %d; empty pair subtracted per call:",
			 (int)getpid());

	for (int i = 0; t0 && i < mk.nr && o < (int)size; i++)
		o += snprintf(note + o, size - (size_t)o, " %s %llu (cached) %llu (by name)%s",
			      mk.event_name[i], (unsigned long long)t0->overhead[MK_CACHED][i],
			      (unsigned long long)t0->overhead[MK_NAMED][i], i + 1 < mk.nr ? "," : "");
	if (o < (int)size)
		o += snprintf(note + o, size - (size_t)o,
			      "; a figure below 0 is below resolution (a call counted less than the "
			      "empty pair), as measured; open pairs (a begin without its end yet): %d",
			      open_pairs());
	if (!has_time_event() && o < (int)size)
		o += snprintf(note + o, size - (size_t)o, "; %s", MK_NO_TIME);
	if (mk.note[0] && o < (int)size)
		snprintf(note + o, size - (size_t)o, "; %s", mk.note);
}

static int report_json(FILE *f)
{
	static char names[MK_EVENTS][2][SELFMON_EVENT_NAME_MAX + 8];
	const struct mk_thread *t0 = first_thread(), *t;
	struct selfmon_report_context ctx;
	struct selfmon_report_entry *e;
	struct mk_json_entry *j;
	char note[sizeof(mk.note) + 512];
	struct utsname u;
	int max = 0, n, err;

	for (t = mk.threads; t; t = t->next)
		max++;
	max = (max + 1) * mk.nr_regions;
	e = calloc((size_t)max + 1, sizeof(*e));
	j = calloc((size_t)max + 1, sizeof(*j));
	if (!e || !j) {
		free(e);
		free(j);
		return -ENOMEM;
	}
	for (int i = 0; i < mk.nr; i++) {
		snprintf(names[i][0], sizeof(names[i][0]), "%s_min", mk.event_name[i]);
		snprintf(names[i][1], sizeof(names[i][1]), "%s_max", mk.event_name[i]);
	}
	n = json_rows(e, j, max, names);
	memset(&ctx, 0, sizeof(ctx));
	selfmon_report__context_fill(&ctx);
	if (uname(&u))
		snprintf(u.machine, sizeof(u.machine), "unknown");
	json_note(note, sizeof(note), t0);
	ctx.arch = u.machine;
	ctx.version = selfmon_version();
	ctx.events = mk.events;
	ctx.note = note;
	ctx.pinned = "";
	ctx.hardware = t0 && t0->all_user;
	ctx.calibration = SELFMON_CALIB_EMPTY;
	ctx.read_path = mk.read_path;
	err = selfmon_report__json(f, &ctx, e, n);
	free(e);
	free(j);
	return err;
}

/* ---- in a format ---- */

int mk_report_to(FILE *f, const char *format)
{
	int err;

	if (!strcmp(format, "json"))
		err = report_json(f);
	else if (!strcmp(format, "csv"))
		err = report_csv(f);
	else
		err = report_table(f);
	fflush(f);
	return err ? err : ferror(f) ? -EIO : 0;
}
