/* SPDX-License-Identifier: MIT */
/*
 * selfmon compare: two reports (<selfmon/report.h>'s JSON, or Google
 * Benchmark's) compared benchmark by benchmark and metric by metric against
 * limits. The CLI's own code: compare.c (the command), compare_load.c (the
 * reports), compare_stats.c (the verdicts and the U test), compare_out.c
 * (table, JSON, JUnit XML, LAVA).
 */
#ifndef SELFMON_TOOLS_COMPARE_H
#define SELFMON_TOOLS_COMPARE_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * compare's exit status when no regression was found but a rise was
 * inconclusive: neither the pass (0) nor the failure (1) nor bad input (2).
 */
#define CLI_COMPARE_EXIT_INCONCLUSIVE 3

/* The U test's least repetitions on each side, as Google Benchmark's compare.py advises. */
#define CLI_COMPARE_MIN_REPS 9

/* ---- the reports ---- */

/* One metric of one benchmark: its values per repetition. */
struct cli_series {
	char *name; /* "time", "cpu_time", or a counter column as written */
	double *v;
	int n, cap;
};

struct cli_cmp_bench {
	char *name;
	struct cli_series *m;
	int nr_m;
	double iterations; /* of its first repetition; 0: not stated */
	bool iterations_vary; /* its repetitions ran different iteration counts */
	/*
	 * Repetitions that measured nothing, not in @m: Google Benchmark's
	 * SkipWithError() ("error_occurred": true) and SkipWithMessage()
	 * ("skipped": true), and the first one's message of each ("" if none).
	 */
	int nr_errors, nr_skipped;
	char *error, *skip;
	/*
	 * A calibration baseline (SELFMON_REPORT_BASELINE_FIGURE in its median
	 * aggregate): the rows it was subtracted from; 0: a benchmark.
	 */
	int baseline_of;
};

struct cli_report {
	const char *path;
	struct cli_cmp_bench *b;
	int nr_b;
};

/*
 * Read @path into @r: the iteration objects of "benchmarks", grouped by
 * run_name; real_time is "time" and cpu_time "cpu_time" (in ns), every other
 * numeric member a counter. Aggregates are left out; a repetition that
 * failed or was skipped is counted, not measured. Return: 0, or -errno with
 * the cause in @err ("cannot open", "line 3, column 7: ...", "not a
 * benchmark report: ...").
 */
int cli_report_load(const char *path, struct cli_report *r, char *err, size_t errsz);
/*
 * Add the repetitions of @path to @r, which holds those of other runs
 * already: a side of the comparison made of several runs (interleaved with
 * the other side's, so that drift in the machine's load hits both alike).
 * Return: as cli_report_load(); on an error @r holds what was read.
 */
int cli_report_add(const char *path, struct cli_report *r, char *err, size_t errsz);
void cli_report_free(struct cli_report *r);
struct cli_cmp_bench *cli_report_bench(const struct cli_report *r, const char *name);
struct cli_series *cli_bench_series(const struct cli_cmp_bench *b, const char *name);
/* Whether a metric's name @name matches the limit or --metric @pattern: equal, or equal without ":mods". */
bool cli_metric_match(const char *name, const char *pattern);

/* ---- limits and verdicts ---- */

struct cli_limit {
	char name[64]; /* a metric, its name without modifiers matches too */
	double value; /* allowed increase of the median */
	bool relative; /* value is a percentage of the base median */
};

enum cli_verdict {
	CLI_SAME, /* within the limit, or not significant */
	CLI_REGRESSION,
	CLI_IMPROVEMENT,
	CLI_UNSURE, /* noisy, with too few repetitions for the U test */
	/*
	 * Noisy: the median rose beyond the limit, significantly, but the
	 * least repetition did not: a real change or load on the new side's
	 * run, which this comparison cannot tell apart. Never "same".
	 */
	CLI_INCONCLUSIVE,
};

struct cli_result {
	const char *bench, *metric, *unit;
	double base, new_; /* medians */
	double delta, rel; /* new - base; delta / base (0 when both are 0) */
	double allowed; /* the limit in the metric's units */
	double min_base, min_new; /* the least repetition of each side: cli_floor() */
	const struct cli_limit *limit;
	bool exact; /* every repetition equal on each side: no statistics */
	int n_base, n_new;
	double p; /* the U test's two-sided p-value; < 0: not run */
	enum cli_verdict verdict;
	char why[256];
};

/* Median of @n values (a copy is sorted). */
double cli_median(const double *v, int n);
/*
 * The least of @n values @v that is not below both sides' lower far-out
 * fences, Q1 - 3 IQR of @v and of @other (Tukey's; rustc-perf calls a
 * change significant past the upper one, Q3 + 3 IQR): a value far below
 * everything either side measured is a disturbed measurement, not a floor.
 * @n_other 0: @v's own fence alone.
 */
double cli_floor(const double *v, int n, const double *other, int n_other);
/*
 * Mann-Whitney U test of @a against @b, two-sided: the normal approximation
 * with the tie correction and the continuity correction (what
 * scipy.stats.mannwhitneyu(method="asymptotic") computes). @u: the U of @a.
 * Return: the p-value, 1 when every value is tied, < 0 on no memory.
 */
double cli_mann_whitney(const double *a, int na, const double *b, int nb, double *u);
/* The standard normal distribution's upper tail, P(Z > z). */
double cli_normal_sf(double z);
/*
 * The shift of @a against @b (Hodges-Lehmann: the median of every a - b)
 * and its two-sided confidence interval at 1 - 2 @alpha, read off the
 * sorted differences at the U test's critical rank (normal approximation):
 * two one-sided tests at @alpha each, as an equivalence test takes them.
 * Return: 0, -EINVAL (a side empty) or -ENOMEM.
 */
int cli_shift_ci(const double *a, int na, const double *b, int nb, double alpha, double *lo,
		 double *hi);

/* Judge one metric: fills @r from the two series. */
void cli_compare_judge(const struct cli_series *base, const struct cli_series *new_,
		       const struct cli_limit *limit, double alpha, struct cli_result *r);

/*
 * Holm's step-down correction over the @nr results: the noisy ones whose U
 * test ran share @alpha as a family-wise error rate; a regression, an
 * improvement or an inconclusive rise whose p-value the correction no longer
 * rejects becomes CLI_SAME, saying why. Return: 0 or -ENOMEM.
 */
int cli_compare_holm(struct cli_result *res, int nr, double alpha);

/*
 * Parse "NAME=+5%", "NAME=+0.5%", "NAME=+20" (absolute, the metric's units),
 * "NAME=+2ns" (time, with ns/us/ms/s). Return: 0, or -EINVAL with the
 * complaint in @err.
 */
int cli_limit_parse(const char *arg, struct cli_limit *l, char *err, size_t errsz);
/* The limit for @metric: the last given that matches, else the default. */
const struct cli_limit *cli_limit_find(const struct cli_limit *given, int nr, const char *metric);

/* ---- the whole comparison ---- */

/* What a benchmark with a repetition that measured nothing (an error, a skip) is: never compared. */
enum cli_unmeasured_kind {
	CLI_FAILED, /* an error on NEW: the gate fails (exit 1) */
	CLI_NOT_COMPARABLE, /* an error on BASE, skipped on one side: as one-sided (exit 2) */
	CLI_SKIPPED, /* skipped on both sides: said, nothing to judge */
	CLI_BASELINE, /* a calibration baseline (either side): shown, not judged */
};

struct cli_unmeasured {
	const char *bench;
	enum cli_unmeasured_kind kind;
	int side; /* the side it is about: 0 BASE, 1 NEW, 2 both */
	bool error; /* an error (else a skip) */
	const char *message; /* the report's own, "" if none */
};

struct cli_compare {
	const char *base_path, *new_path;
	struct cli_result *res;
	int nr;
	char **only_base, **only_new; /* benchmarks on one side only */
	int nr_only_base, nr_only_new;
	struct cli_unmeasured *un;
	/* of @un: all, CLI_FAILED, CLI_NOT_COMPARABLE, CLI_BASELINE */
	int nr_un, failed, not_comparable, baselines;
	int regressions, improvements, unsure, inconclusive;
	double alpha;
	const char *error; /* bad input: nothing compared, only this said (JUnit) */
};

enum cli_compare_format {
	CLI_COMPARE_TABLE,
	CLI_COMPARE_JSON,
	CLI_COMPARE_JUNIT,
	CLI_COMPARE_LAVA
};

int cli_compare_table(FILE *f, const struct cli_compare *c);
int cli_compare_json(FILE *f, const struct cli_compare *c);
int cli_compare_junit(FILE *f, const struct cli_compare *c);
int cli_compare_lava(FILE *f, const struct cli_compare *c);
/* The verdict as a word: "same", "REGRESSION", "improvement", "unsure", "inconclusive". */
const char *cli_verdict_str(enum cli_verdict v);
/*
 * @u said in words, for every output: "FAILED: NEW 'new.json' reported an
 * error" or "not comparable: BASE 'base.json' reported an error", "...
 * skipped it", "skipped on both sides" (the message goes beside it, quoted).
 */
void cli_unmeasured_str(char *buf, size_t size, const struct cli_compare *c,
			const struct cli_unmeasured *u);

/* ---- compare_opts.c: the command line ---- */

/* What one command line may give. */
#define CLI_COMPARE_MAX_LIMITS 32
#define CLI_COMPARE_MAX_METRICS 32
#define CLI_COMPARE_MAX_RUNS 64 /* reports per side */

struct cli_compare_args {
	bool help, allow_missing;
	/* BASE's reports, NEW's: their repetitions pooled */
	const char *paths[2][CLI_COMPARE_MAX_RUNS];
	int nr_paths[2], nr_positional;
	char label[2][160]; /* a side's name in the output */
	struct cli_limit limits[CLI_COMPARE_MAX_LIMITS];
	int nr_limits;
	const char *metrics[CLI_COMPARE_MAX_METRICS];
	int nr_metrics;
	const char *filter, *out;
	double alpha;
	enum cli_compare_format format;
};

/* Write `selfmon compare --help` to @f. */
void cli_compare_usage(FILE *f);

/*
 * Parse `selfmon compare` options and reports (argv[0] is "compare") into
 * @cli. Return: 0, or -EINVAL with the complaint in @err.
 */
int cli_compare_parse(int argc, char **argv, struct cli_compare_args *cli, char *err, size_t errsz);

#endif
