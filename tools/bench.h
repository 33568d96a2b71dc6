/* SPDX-License-Identifier: MIT */
/*
 * selfmon bench: one run of the command, shared by its objects: bench.c
 * (the command, the kernels), bench_cost.c (the readcost, samplecost and
 * markercost rows) and bench_rows.c (a row taken and emitted, the driver's
 * options). The options themselves: cli.h, bench_options.c.
 */
#ifndef SELFMON_TOOLS_BENCH_H
#define SELFMON_TOOLS_BENCH_H

#include <stdbool.h>
#include <stdio.h>

#include <selfmon/bench.h>
#include <selfmon/report.h>
#include "cli.h"


struct cli_bench_run {
	struct cli_bench cli;
	struct cli_kernel_filter filter;
	FILE *out;
	char *out_tmp; /* --out being written, renamed to it at the end */
	bool progress; /* a TTY on stderr: one self-erasing progress line */
	struct selfmon_report_context ctx;
	struct selfmon_report_entry e[32];
	struct selfmon_bench_result res[32];
	int nr;
	char skipped[8][512];
	int nr_skipped;
	char note[2048]; /* the report's note: the driver's, then the benchmarks kept noisy */
};

/* ---- bench_rows.c: the rows ---- */

/* The progress line on stderr (a TTY only): @name running; then erased. */
void cli_bench_run__progress(const struct cli_bench_run *r, const char *name);
void cli_bench_run__progress_done(const struct cli_bench_run *r);
/* The driver's options (and its sets', into @so) from the command line, counting @events. */
void cli_bench_run__opts(const struct cli_bench_run *r, struct selfmon_bench_opts *o,
			 const char *events, struct selfmon_opts *so);
/* The next row of the report, zeroed; NULL when the report is full. */
struct selfmon_report_entry *cli_bench_run__next_entry(struct cli_bench_run *r);
/* A row measured: the progress line erased, a kept-noisy note, the table's line. */
void cli_bench_run__emit(struct cli_bench_run *r, struct selfmon_report_entry *e);

/* ---- bench_cost.c: the read, sample and marker cost rows; 0 or -errno (said) ---- */

int cli_bench_run__readcost(struct cli_bench_run *r);
int cli_bench_run__markercost(struct cli_bench_run *r);
int cli_bench_run__samplecost(struct cli_bench_run *r);

#endif /* SELFMON_TOOLS_BENCH_H */
