/* SPDX-License-Identifier: MIT */
/*
 * selfmon report: write measurements as JSON, CSV or an aligned table.
 *
 * The JSON is the layout of `selfmon bench --format json`, which is Google
 * Benchmark's (--benchmark_format=json) with a schema tag and selfmon's
 * context keys; `selfmon compare` reads it, and so does Google Benchmark's
 * tools/compare.py. A program writes its own benchmarks (selfmon_bench__run()
 * results) or any other measurement (named columns, one value per
 * repetition) in the same schema:
 *
 *   struct selfmon_report_context ctx = { 0 };
 *   struct selfmon_report_entry e = {
 *	.kind = SELFMON_REPORT_ENTRY_RESULT, .res = &res, .expected_insns = -1,
 *   };
 *
 *   selfmon_report__context_fill(&ctx);
 *   selfmon_report__json(stdout, &ctx, &e, 1);
 *
 * The schema is in selfmon_report__json()'s comment (and man page).
 *
 * Naming and errors as in <selfmon/selfmon.h>.
 */
#ifndef SELFMON_REPORT_H
#define SELFMON_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <selfmon/bench.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The "schema" member of the JSON's top level. */
#define SELFMON_REPORT_SCHEMA "selfmon-report"
/** Its "schema_version": readers refuse a larger one. */
#define SELFMON_REPORT_SCHEMA_VERSION 1

/**
 * An extra (&struct selfmon_report_entry.extra) by this name marks its
 * entry as a calibration baseline: a loop measured only to be subtracted
 * from the rows after it in its section, its value the number of those
 * rows (in the median aggregate, as every extra). Its cost is
 * the harness's, already taken out of the rows that matter: selfmon
 * compare shows such a row and does not judge it.
 */
#define SELFMON_REPORT_BASELINE_FIGURE "baseline_of_rows"

/** Columns of one entry, at most. */
#define SELFMON_REPORT_MAX_COLS 64

/** One column of an entry given by columns: a measured quantity per iteration. */
struct selfmon_report_col {
	/** "time" (column 0: wall time, ns), "task-clock", an event or a metric name */
	const char *name;
	/** "ns", or "" (or NULL) for counts */
	const char *unit;
	/** how it was read: "user" or "read(2)"; NULL: not said */
	const char *path;
	/** the entry's @kept values, one per repetition */
	const double *values;
	/** subtracted from each value (per region); 0 if none */
	double overhead;
	/** values that came out negative and were reported as 0 */
	int clamped;
};

/**
 * enum selfmon_report_entry_kind - what a struct selfmon_report_entry holds,
 * which the writers switch on
 */
enum selfmon_report_entry_kind {
	/**
	 * not said (0, what a caller that predates @kind leaves): a result
	 * when @res is set, else columns
	 */
	SELFMON_REPORT_ENTRY_UNSAID = 0,
	/** a selfmon_bench__run() result in @res; @name to @cols unused */
	SELFMON_REPORT_ENTRY_RESULT,
	/** @name, @iterations, @repetitions, @kept, @nr_cols and @cols; @res unused */
	SELFMON_REPORT_ENTRY_COLUMNS,
};

/**
 * One row of a report, of the kind @kind says: a selfmon_bench__run()
 * result (SELFMON_REPORT_ENTRY_RESULT: @res), or a name and columns of
 * per-repetition values (SELFMON_REPORT_ENTRY_COLUMNS: @name to @cols).
 * The fields from @what on are the row's whatever its kind.
 */
struct selfmon_report_entry {
	/**
	 * what the entry holds: SELFMON_REPORT_ENTRY_RESULT (@res),
	 * SELFMON_REPORT_ENTRY_COLUMNS (@name to @cols), or
	 * SELFMON_REPORT_ENTRY_UNSAID (0): a result when @res is set, else columns
	 */
	enum selfmon_report_entry_kind kind;
	/** SELFMON_REPORT_ENTRY_RESULT: a result of selfmon_bench__run() */
	struct selfmon_bench_result *res;
	const char *name; /**< SELFMON_REPORT_ENTRY_COLUMNS: the row's name */
	uint64_t iterations; /**< SELFMON_REPORT_ENTRY_COLUMNS: per repetition */
	int repetitions; /**< SELFMON_REPORT_ENTRY_COLUMNS: run (0: @kept) */
	int kept; /**< SELFMON_REPORT_ENTRY_COLUMNS: values per column */
	int nr_cols; /**< SELFMON_REPORT_ENTRY_COLUMNS: columns, column 0 the time */
	const struct selfmon_report_col *cols; /**< SELFMON_REPORT_ENTRY_COLUMNS: the @nr_cols columns */
	/** a line on what is measured; NULL: none */
	const char *what;
	/** not measured, and why: the row is a note in the table, absent elsewhere */
	const char *skipped;
	/** instructions per iteration the code should retire; < 0 (set -1): none */
	double expected_insns;
	/** named figures of the row (ratios to another row), in the median aggregate */
	int nr_extra; /**< figures in @extra */
	/** each a name and a value */
	struct {
		char name[40];
		double value;
	} extra[4];
};

/** A cache of the machine, as Google Benchmark's context lists them. */
struct selfmon_report_cache {
	const char *type; /**< "Data", "Instruction", "Unified" */
	int level; /**< 1 for L1 ... */
	long size; /**< bytes */
	int num_sharing; /**< CPUs that share one */
};

/** The "context" of a report: the machine and how it was measured. */
struct selfmon_report_context {
	/** when, where and what ran: selfmon_report__context_fill() fills them */
	char date[64], host_name[256], executable[512];
	int num_cpus; /**< online CPUs */
	double mhz_per_cpu; /**< CPU 0's cpuinfo_max_freq; 0: unknown */
	bool cpu_scaling_enabled; /**< CPU 0's governor is not "performance" */
	int nr_caches; /**< entries in @caches */
	struct selfmon_report_cache caches[8]; /**< as sysfs lists them */
	const char *build_type; /**< "release" or "debug"; NULL: "release" */
	/**
	 * the caller's: "x86_64", selfmon_version(), the events, a note, the
	 * CPUs pinned to; NULL prints ""
	 */
	const char *arch, *version, *events, *note, *pinned;
	bool hardware; /**< hardware counters counted */
	enum selfmon_calib calibration; /**< as the entries were measured */
	bool serialize; /**< the region reads were fenced (selfmon_bench_opts.serialize) */
	const char *read_path; /**< "inline" / "read(2): <why>" */
};

/** Derived metrics of an entry, from its medians. */
struct selfmon_report_derived {
	int nr; /**< metrics in @m */
	/** each a name ("IPC", "ns_per_iteration"...) and its value */
	struct {
		const char *name;
		double value;
	} m[4];
};

/**
 * selfmon_report__context_fill() - fill what the machine says: date, host,
 * executable, CPUs, MHz, caches, frequency scaling; the selfmon fields
 * (arch, version, events, ...) are left to the caller (NULL prints "").
 */
void selfmon_report__context_fill(struct selfmon_report_context *ctx);

/**
 * selfmon_report__derived() - IPC, branch and cache miss rates (where both
 * events were counted and the denominator is not 0) and ns_per_iteration,
 * from the medians of @e.
 */
void selfmon_report__derived(const struct selfmon_report_entry *e,
			     struct selfmon_report_derived *d);

/**
 * selfmon_report__json() - write @nr entries and @ctx as JSON
 * @f: where to write
 * @ctx: the report's "context": fill it with selfmon_report__context_fill()
 * @e: the entries, one benchmark each
 * @nr: entries in @e
 *
 * The schema (SELFMON_REPORT_SCHEMA, version SELFMON_REPORT_SCHEMA_VERSION):
 * the top level holds "schema", "schema_version", "context" {...} and
 * "benchmarks" [...]. Per entry and repetition, one object with "run_type":
 * "iteration", "run_name", "repetition_index", "repetitions", "iterations",
 * "real_time" (column 0, ns per iteration), "cpu_time" (the column named
 * "task-clock", else column 0), "time_unit": "ns", and one numeric member
 * per other column, named as the column, per iteration: those members are
 * the counters, and nothing else numeric is added to an iteration object.
 * Per entry, "aggregate" objects "<name>_mean", "<name>_median",
 * "<name>_stddev"; the median one also holds the derived metrics (IPC,
 * miss rates, ns_per_iteration), the extras and "expected_instructions".
 * Skipped entries and entries with no kept repetition are left out.
 *
 * Return: 0, -EINVAL for an entry with more than SELFMON_REPORT_MAX_COLS
 * columns or without values, of an unknown kind, or of kind
 * SELFMON_REPORT_ENTRY_RESULT without @res, -ENOMEM, or -EIO when @f saw a
 * write error.
 */
int selfmon_report__json(FILE *f, const struct selfmon_report_context *ctx,
			 const struct selfmon_report_entry *e, int nr);

/**
 * selfmon_report__csv() - write @nr entries as CSV: a header row, then one
 * row per entry and column with its statistics. Return: as selfmon_report__json().
 */
int selfmon_report__csv(FILE *f, const struct selfmon_report_context *ctx,
			const struct selfmon_report_entry *e, int nr);

/**
 * selfmon_report__table() - write @ctx's header and @nr entries as aligned
 * tables with a histogram of the times. Text from names and notes is made
 * safe for a terminal (control characters shown as hexadecimal escapes).
 * Return: as selfmon_report__json().
 */
int selfmon_report__table(FILE *f, const struct selfmon_report_context *ctx,
			  const struct selfmon_report_entry *e, int nr);

/** selfmon_report__table_header() - the table's header alone (before the first entry). */
void selfmon_report__table_header(FILE *f, const struct selfmon_report_context *ctx);

/**
 * selfmon_report__table_entry() - the table's block for one entry, to print
 * each entry as soon as it is measured. Return: as selfmon_report__json().
 */
int selfmon_report__table_entry(FILE *f, const struct selfmon_report_entry *e);

#ifdef __cplusplus
}
#endif

#endif /* SELFMON_REPORT_H */
