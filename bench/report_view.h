/* SPDX-License-Identifier: MIT */
/*
 * The writers' one view of an entry, whether it came as a bench result or
 * as columns: the JSON, CSV and table code reads this alone.
 */
#ifndef SELFMON_BENCH_REPORT_VIEW_H
#define SELFMON_BENCH_REPORT_VIEW_H

#include <selfmon/report.h>

struct selfmon_report_view_col {
	const char *name, *unit, *path; /* unit "" for counts; path NULL: not said */
	const double *values; /* kept values */
	struct selfmon_stats st;
	double overhead;
	int clamped;
};

struct selfmon_report_view {
	const char *name;
	uint64_t iterations;
	int repetitions, kept;
	const char *calibration; /* NULL: not said */
	int dropped_switch, dropped_migration, dropped_fallback, dropped_not_run, flagged;
	int nr_cols;
	struct selfmon_report_view_col col[SELFMON_REPORT_MAX_COLS];
};

/*
 * The kind @e holds, SELFMON_REPORT_ENTRY_RESULT or _COLUMNS (an unsaid kind
 * resolved by @res), or -EINVAL: an unknown kind, a result without @res.
 */
int selfmon_report_view__kind(const struct selfmon_report_entry *e);
/* Fill @v from @e (statistics computed for entries given by columns). Return: 0 or -errno. */
int selfmon_report_view__fill(struct selfmon_report_view *v, const struct selfmon_report_entry *e);
/* The column named @name, modifiers (":u") ignored on both sides, or -1. */
int selfmon_report_view__col(const struct selfmon_report_view *v, const char *name);
void selfmon_report_view__derived(const struct selfmon_report_view *v,
				  struct selfmon_report_derived *d);

#endif
