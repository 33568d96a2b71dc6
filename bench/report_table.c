// SPDX-License-Identifier: MIT
/*
 * The table writer of <selfmon/report.h>: a header, then per entry its
 * statistics per column, the derived metrics and a histogram of the times.
 * Names, events and notes come from users and sysfs: they reach the
 * terminal with their control characters escaped.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <selfmon/report.h>
#include "../util/text.h"
#include "report_view.h"

/* Why a counter stands still, and what restarts it. */
#define NOT_RUN_FIX                                                                      \
	" (its time_running did not advance): the task's counters are disabled "          \
	"(prctl(PR_TASK_PERF_EVENTS_DISABLE); PR_TASK_PERF_EVENTS_ENABLE turns them on) " \
	"or another user holds the PMU"
#define TEXT_MAX 512

/*
 * @s with control characters and DEL as \xNN and a backslash doubled, cut
 * with "..." when long; NULL as "". Each use has a buffer of its own on the
 * caller's stack (a compound literal lives to the end of its block: the
 * fprintf that prints it), not in thread-local storage: libselfmon.so keeps
 * its thread data small enough for the static TLS that its initial-exec
 * accesses need (docs/markers.md, "Shared objects and plugins").
 */
#define text(s) util_text_escape((char[TEXT_MAX]) { 0 }, TEXT_MAX, (s))

void selfmon_report__table_header(FILE *f, const struct selfmon_report_context *ctx)
{
	bool pinned = ctx->pinned && *ctx->pinned;

	fprintf(f, "selfmon bench %s on %s: %d CPU%s%s%s\n", text(ctx->version), text(ctx->arch),
		ctx->num_cpus, ctx->num_cpus == 1 ? "" : "s", pinned ? ", pinned to " : "",
		pinned ? text(ctx->pinned) : "");
	if (ctx->hardware)
		fprintf(f, "events: %s (reads: %s)\n", text(ctx->events), text(ctx->read_path));
	else
		fprintf(f,
			"events: wall time and task-clock only: hardware counters are unavailable\n");
	if (ctx->note && *ctx->note)
		fprintf(f, "  note: %s\n", text(ctx->note));
	if (ctx->calibration == SELFMON_CALIB_TWO_LENGTH)
		fprintf(f, "calibration: two-length: each repetition runs L and 2L iterations; "
			   "(d(2L) - d(L)) / L cancels every fixed cost\n");
	else
		fprintf(f, "calibration: empty: the median of empty regions is subtracted; "
			   "the body's call and fixed cost stay in, divided by L\n");
	fprintf(f, "values per iteration; %s\n",
		ctx->serialize ? "serialized reads" : "reads not serialized");
}

static void fmt_value(char *buf, size_t size, double v)
{
	if (v != 0 && (v >= 1e7 || v < 1e-3) && v > -1e7)
		snprintf(buf, size, "%.3e", v);
	else
		snprintf(buf, size, "%.3f", v);
}

/* 24 bins from min to max of @v; each bin's height as one of " .:-=+*#". */
static void histogram(FILE *f, const char *label, const double *v, int n, const char *unit)
{
	static const char levels[] = " .:-=+*#";
	enum { BINS = 24 };
	int bin[BINS] = { 0 }, top = 0;
	double lo = INFINITY, hi = -INFINITY;
	char a[32], b[32];

	/* Finite values only: a NaN or an infinity has no bin (and no cast to int; fuzz_writers). */
	for (int i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			continue;
		if (v[i] < lo)
			lo = v[i];
		if (v[i] > hi)
			hi = v[i];
	}
	if (lo > hi)
		return;
	for (int i = 0; i < n; i++) {
		double x = hi > lo ? (v[i] - lo) / (hi - lo) * BINS : 0;
		int k = x >= BINS ? BINS - 1 : x > 0 ? (int)x : 0;

		if (!isfinite(v[i]))
			continue;
		if (++bin[k] > top)
			top = bin[k];
	}
	fmt_value(a, sizeof(a), lo);
	fmt_value(b, sizeof(b), hi);
	fprintf(f, "  %-19s %10s %s |", label, a, unit);
	for (int k = 0; k < BINS; k++)
		fputc(bin[k] ? levels[1 + bin[k] * 6 / top] : ' ', f);
	fprintf(f, "| %s %s  (%d repetitions)\n", b, unit, n);
}

static void table_col(FILE *f, const struct selfmon_report_entry *e,
		      const struct selfmon_report_view_col *col)
{
	const struct selfmon_stats *st = &col->st;
	const double vals[] = {
		st->median, st->mean, st->min, st->p10, st->p90, st->stddev, st->mad
	};
	char num[7][32], label[64], expect[64] = "";

	for (int k = 0; k < 7; k++)
		fmt_value(num[k], sizeof(num[k]), vals[k]);
	snprintf(label, sizeof(label), "%.14s%s%.8s%s", text(col->name), col->unit[0] ? " (" : "",
		 text(col->unit), col->unit[0] ? ")" : "");
	if (!strncmp(col->name, "instructions", 12) && e->expected_insns >= 0)
		snprintf(expect, sizeof(expect), "%g %s", e->expected_insns,
			 st->median == e->expected_insns ? "(exact)" : "(differs)");
	if (col->clamped)
		snprintf(expect + strlen(expect), sizeof(expect) - strlen(expect),
			 "%s%d clamped to 0", expect[0] ? ", " : "", col->clamped);
	fprintf(f, "  %-19s %10s %10s %10s %10s %10s %10s %10s  %s\n", label, num[0], num[1],
		num[2], num[3], num[4], num[5], num[6], expect);
}

static void table_tail(FILE *f, const struct selfmon_report_entry *e,
		       const struct selfmon_report_view *v)
{
	struct selfmon_report_derived d;
	int inverted;

	selfmon_report_view__derived(v, &d);
	fputs("  derived:", f);
	for (int i = 0; i < d.nr; i++)
		fprintf(f, "  %s %.3f", d.m[i].name, d.m[i].value);
	for (int i = 0; i < e->nr_extra && i < 4; i++)
		fprintf(f, "  %s %.2f", text(e->extra[i].name), e->extra[i].value);
	if (e->expected_insns >= 0 && selfmon_report_view__col(v, "instructions") < 0)
		fprintf(f, "  (expected %g instructions, not counted here)", e->expected_insns);
	fputc('\n', f);
	if (v->dropped_switch || v->dropped_migration || v->dropped_fallback || v->flagged)
		fprintf(f,
			"  dropped: %d with a context switch, %d with a migration, %d with a read(2) "
			"fallback; %d noisy kept\n",
			v->dropped_switch, v->dropped_migration, v->dropped_fallback, v->flagged);
	if (v->dropped_not_run)
		fprintf(f, "  dropped: %d in which a counter did not run%s\n", v->dropped_not_run,
			NOT_RUN_FIX);
	/* The rest of the runs: inverted pairs, which no dropped_* counts (bench_run.c). */
	inverted = v->repetitions - v->kept - v->dropped_switch - v->dropped_migration -
		   v->dropped_fallback - v->dropped_not_run;
	if (inverted > 0)
		fprintf(f,
			"  dropped: %d whose 2L run took less than its L run (the L run disturbed: "
			"no measurement)\n",
			inverted);
	if (v->nr_cols && v->col[0].values)
		histogram(f, "time", v->col[0].values, v->kept, "ns");
}

static int table_entry(FILE *f, const struct selfmon_report_entry *e, struct selfmon_report_view *v)
{
	int err;

	if (e->skipped) {
		const char *name = selfmon_report_view__kind(e) == SELFMON_REPORT_ENTRY_RESULT ?
					   e->res->name :
					   e->name;

		fprintf(f, "\n%s: not measured: %s\n", name && name[0] ? text(name) : "?",
			text(e->skipped));
		return 0;
	}
	err = selfmon_report_view__fill(v, e);
	if (err)
		return err;
	fprintf(f, "\n%s%s%s: %llu iterations x %d repetitions (%d kept)\n", text(v->name),
		e->what ? " - " : "", e->what ? text(e->what) : "",
		(unsigned long long)v->iterations, v->repetitions, v->kept);
	if (!v->kept && v->dropped_not_run) {
		fprintf(f, "  every repetition was dropped, %d because a counter did not run%s\n",
			v->dropped_not_run, NOT_RUN_FIX);
		return 0;
	}
	if (!v->kept) {
		fprintf(f,
			"  every repetition was dropped (%d context switch, %d migration, %d fallback): "
			"nothing to report; --keep-noisy keeps them\n",
			v->dropped_switch, v->dropped_migration, v->dropped_fallback);
		return 0;
	}
	fprintf(f, "  %-19s %10s %10s %10s %10s %10s %10s %10s  %s\n", "per iteration", "median",
		"mean", "min", "p10", "p90", "stddev", "MAD", "expected");
	for (int c = 0; c < v->nr_cols; c++)
		table_col(f, e, &v->col[c]);
	table_tail(f, e, v);
	return 0;
}

int selfmon_report__table_entry(FILE *f, const struct selfmon_report_entry *e)
{
	struct selfmon_report_view *v = malloc(sizeof(*v));
	int err = v ? table_entry(f, e, v) : -ENOMEM;

	free(v);
	return err ? err : ferror(f) ? -EIO : 0;
}

int selfmon_report__table(FILE *f, const struct selfmon_report_context *ctx,
			  const struct selfmon_report_entry *e, int nr)
{
	int err = 0;

	selfmon_report__table_header(f, ctx);
	for (int i = 0; i < nr; i++) {
		int rc = selfmon_report__table_entry(f, &e[i]);

		err = err ? err : rc;
	}
	return err ? err : ferror(f) ? -EIO : 0;
}
