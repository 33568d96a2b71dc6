// SPDX-License-Identifier: MIT
/*
 * selfmon bench's cost rows: one counter read each way (readcost), one
 * sample read each way (samplecost), a marker pair beside the inline reads
 * (markercost), each less its loop alone and with its ratios.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

#define READCOST_EVENTS "instructions:u,instructions"

/* Take the loop's own cost out of a read-cost result, per column, clamped at 0. */
static void subtract_loop(struct selfmon_bench_result *res, const struct selfmon_bench_result *loop)
{
	for (int c = 0; c < res->nr_cols && res->kept; c++) {
		double *v = &res->samples[(size_t)c * (size_t)res->kept],
		       base = loop->col[c].st.median;

		for (int k = 0; k < res->kept; k++) {
			v[k] -= base;
			if (v[k] < 0) {
				v[k] = 0;
				res->col[c].clamped++;
			}
		}
		selfmon_stats__compute(v, (size_t)res->kept, &res->col[c].st);
	}
}

/*
 * @e, a loop measured only to be subtracted from the @rows rows after it,
 * says so in its median aggregate: compare shows it and judges it not (its
 * cost is the harness's; the rows that matter already have it taken out).
 */
static void mark_baseline(struct selfmon_report_entry *e, int rows)
{
	if (e->nr_extra >= 4)
		return;
	snprintf(e->extra[e->nr_extra].name, sizeof(e->extra[0].name), "%s", SELFMON_REPORT_BASELINE_FIGURE);
	e->extra[e->nr_extra++].value = rows;
}

/* The ratio of the medians of @col, or of the minimums with @min (the least disturbed run). */
static void add_ratio_of(struct selfmon_report_entry *e, const struct selfmon_bench_result *ref,
			 const char *col, const char *label, bool min)
{
	int a = selfmon_bench_result__col(e->res, col), b = selfmon_bench_result__col(ref, col);
	double x, y;

	if (a < 0 || b < 0 || e->nr_extra >= 4)
		return;
	x = min ? e->res->col[a].st.min : e->res->col[a].st.median;
	y = min ? ref->col[b].st.min : ref->col[b].st.median;
	if (y <= 0)
		return;
	snprintf(e->extra[e->nr_extra].name, sizeof(e->extra[0].name), "%s", label);
	e->extra[e->nr_extra++].value = x / y;
}

static void add_ratio(struct selfmon_report_entry *e, const struct selfmon_bench_result *ref,
		      const char *col, const char *label)
{
	add_ratio_of(e, ref, col, label, false);
}

/*
 * The rows above run one after the other, so a slower stretch of the machine
 * skews their ratio; this one alternates the two reads round by round.
 */
static void add_interleaved(struct selfmon_report_entry *e, struct cli_readcost *rc)
{
	double r = cli_readcost__interleaved(rc, 31, 2000);

	if (r <= 0 || e->nr_extra >= 4)
		return;
	snprintf(e->extra[e->nr_extra].name, sizeof(e->extra[0].name), "time_vs_read2_interleaved");
	e->extra[e->nr_extra++].value = r;
}

/*
 * The bench of a cost @section into @b, counted by READCOST_EVENTS where
 * they open, once the section's own object has opened (@ready; else errno
 * says why not). Return: 0 or -errno (said).
 */
static int open_bench(struct cli_bench_run *r, bool ready, const char *section,
		      struct selfmon_bench **b)
{
	struct selfmon_bench_opts o;
	struct selfmon_opts so;
	int err;

	cli_bench_run__opts(r, &o, "", &so);
	o.optional_events = READCOST_EVENTS;
	*b = ready ? selfmon_bench__open(&o) : NULL;
	if (*b)
		return 0;
	err = -errno;
	fprintf(stderr, "selfmon bench: %s: %s\n", section, cli_errmsg(err));
	return err;
}

static void name_row(struct selfmon_report_entry *e, const struct cli_cost_row *row)
{
	snprintf(e->res->name, sizeof(e->res->name), "%s", row->name);
}

/* Measure @row (its arg @arg) into @e, shown as progress. Return: 0 or -errno (said). */
static int run_row(struct cli_bench_run *r, struct selfmon_bench *b, const struct cli_cost_row *row,
		   void *arg, struct selfmon_report_entry *e)
{
	int err;

	name_row(e, row);
	cli_bench_run__progress(r, row->name);
	err = selfmon_bench__run(b, row->name, row->body, arg, e->res);
	if (err) {
		cli_bench_run__progress_done(r);
		fprintf(stderr, "selfmon bench: %s\n", cli_errmsg(err));
	}
	return err;
}

/* What row @k measured, and its ratios to the rows it is compared with. */
static void label_readcost(struct selfmon_report_entry **e, int k, bool inline_ok)
{
	e[k]->what =
		k == CLI_READCOST_SELFMON ? "selfmon_page__read_value, inline" :
		k == CLI_READCOST_LIBPERF ? "libperf perf_evsel__read, mmapped, no PERF_FORMAT_ID" :
		k == CLI_READCOST_SET	  ? "selfmon_set__read, the call (page, else read(2))" :
					    "read(2) on the event's fd";
	if (k == CLI_READCOST_SET) {
		/* Side by side with read(2) of the same event, measured just before. */
		add_ratio(e[k], e[CLI_READCOST_SYSCALL]->res, "time", "time_vs_read2");
		add_ratio_of(e[k], e[CLI_READCOST_SYSCALL]->res, "time", "time_min_vs_read2", true);
		add_ratio(e[k], e[CLI_READCOST_SYSCALL]->res, "instructions",
			  "instructions_vs_read2");
	} else if (k != CLI_READCOST_SELFMON && inline_ok) {
		add_ratio(e[k], e[CLI_READCOST_SELFMON]->res, "instructions:u",
			  "instructions_vs_selfmon");
		add_ratio(e[k], e[CLI_READCOST_SELFMON]->res, "time", "time_vs_selfmon");
	}
}

/*
 * Row @k of the read-cost rows into @e[k]: skipped where the inline read is
 * refused (@no_inline says why; NULL: it works), the empty loop as measured,
 * the others with the empty loop subtracted. Return: 0 or -errno (said).
 */
static int readcost_row(struct cli_bench_run *r, struct selfmon_bench *b,
			struct cli_readcost *rc, struct selfmon_report_entry **e, int k,
			const char *no_inline)
{
	int err;

	name_row(e[k], &cli_readcost__rows[k]);
	if (k == CLI_READCOST_SELFMON && no_inline) {
		snprintf(r->skipped[r->nr_skipped], sizeof(r->skipped[0]),
			 "no inline read of %s here: %s", cli_readcost__event(rc), no_inline);
		e[k]->skipped = r->skipped[r->nr_skipped++];
		cli_bench_run__emit(r, e[k]);
		return 0;
	}
	err = run_row(r, b, &cli_readcost__rows[k], rc, e[k]);
	if (err)
		return err;
	if (k == CLI_READCOST_EMPTY) {
		e[k]->what = "the loop without a read (subtracted below)";
		mark_baseline(e[k], CLI_READCOST__NR - 1);
	} else {
		subtract_loop(e[k]->res, e[CLI_READCOST_EMPTY]->res);
		label_readcost(e, k, !no_inline);
		if (k == CLI_READCOST_SET)
			add_interleaved(e[k], rc);
	}
	cli_bench_run__emit(r, e[k]);
	return 0;
}

int cli_bench_run__readcost(struct cli_bench_run *r)
{
	struct selfmon_report_entry *e[CLI_READCOST__NR] = { 0 };
	struct selfmon_bench_opts o; /* only its set options, for the readcost's own set */
	struct selfmon_opts so;
	struct cli_readcost *rc;
	struct selfmon_bench *b;
	const char *why;
	bool inline_ok;
	int err;

	cli_bench_run__opts(r, &o, "", &so);
	rc = cli_readcost__open(&so);
	err = open_bench(r, rc != NULL, "readcost", &b);
	if (err)
		goto out;
	inline_ok = cli_readcost__inline_ok(rc, &why);
	if (r->cli.format == CLI_FORMAT_TABLE)
		fprintf(r->out,
			"\nreadcost: one read of %s, each way; counted by %s; the loop alone is "
			"subtracted\n",
			cli_readcost__event(rc),
			selfmon_bench__nr_events(b) ? READCOST_EVENTS " (as they open)" :
						      "time only");
	for (int k = 0; k < CLI_READCOST__NR && !err; k++) {
		e[k] = cli_bench_run__next_entry(r);
		err = e[k] ? readcost_row(r, b, rc, e, k, inline_ok ? NULL : why) : -E2BIG;
	}
out:
	selfmon_bench__close(b);
	cli_readcost__close(rc);
	return err;
}

/*
 * A marker pair beside the bare inline reads it makes and read_all of the
 * same two events, each less the loop alone (tools/markercost.c).
 */
int cli_bench_run__markercost(struct cli_bench_run *r)
{
	struct selfmon_report_entry *e[CLI_MARKERCOST__NR] = { 0 };
	struct cli_markercost *mc = cli_markercost__open();
	struct selfmon_bench *b;
	int err = open_bench(r, mc != NULL, "markercost", &b);

	if (err)
		goto out;
	if (r->cli.format == CLI_FORMAT_TABLE)
		fprintf(r->out,
			"\nmarkercost: a marker pair (events: SELFMON_EVENTS or the default) beside the "
			"4 inline reads of 2 events; the loop alone is subtracted\n");
	for (int k = 0; k < CLI_MARKERCOST__NR && !err; k++) {
		e[k] = cli_bench_run__next_entry(r);
		if (!e[k]) {
			err = -E2BIG;
			break;
		}
		name_row(e[k], &cli_markercost__rows[k]);
		if (k == CLI_MARKERCOST_INLINE && !cli_markercost__inline_ok(mc)) {
			e[k]->skipped = "no inline read of both events here";
			cli_bench_run__emit(r, e[k]);
			continue;
		}
		err = run_row(r, b, &cli_markercost__rows[k], mc, e[k]);
		if (err)
			break;
		if (k != CLI_MARKERCOST_EMPTY)
			subtract_loop(e[k]->res, e[CLI_MARKERCOST_EMPTY]->res);
		else
			mark_baseline(e[k], CLI_MARKERCOST__NR - 1);
		if (k != CLI_MARKERCOST_EMPTY && k != CLI_MARKERCOST_INLINE &&
		    !e[CLI_MARKERCOST_INLINE]->skipped)
			add_ratio(e[k], e[CLI_MARKERCOST_INLINE]->res, "instructions:u",
				  "instructions_vs_inline_reads");
		cli_bench_run__emit(r, e[k]);
	}
out:
	selfmon_bench__close(b);
	cli_markercost__close(mc);
	return err;
}

/*
 * Row @k of the sample-cost rows into @e[k]: the publishing loop as
 * measured, the readers with it subtracted, selfmon's emitted after
 * libperf's, with its ratios to it. Return: 0 or -errno (said).
 */
static int samplecost_row(struct cli_bench_run *r, struct selfmon_bench *b,
			  struct cli_samplecost *sc, struct selfmon_report_entry **e, int k)
{
	struct selfmon_report_entry *own = e[CLI_SAMPLECOST_SELFMON];
	int err;

	err = run_row(r, b, &cli_samplecost__rows[k], sc, e[k]);
	if (err)
		return err;
	e[k]->what = k == CLI_SAMPLECOST_EMPTY ?
			     "records published, none read (subtracted below)" :
		     k == CLI_SAMPLECOST_SELFMON ?
			     "selfmon_sampler__drain, parse included" :
			     "libperf perf_mmap__read_event + consume, no parse";
	if (k != CLI_SAMPLECOST_EMPTY)
		subtract_loop(e[k]->res, e[CLI_SAMPLECOST_EMPTY]->res);
	else
		mark_baseline(e[k], CLI_SAMPLECOST__NR - 1);
	if (k == CLI_SAMPLECOST_SELFMON && cli_samplecost__records(sc) == 0) {
		fprintf(stderr, "selfmon bench: samplecost: the drain read no record\n");
		return -EIO;
	}
	if (k == CLI_SAMPLECOST_LIBPERF) {
		add_ratio(own, e[k]->res, "instructions:u", "instructions_vs_libperf");
		add_ratio(own, e[k]->res, "time", "time_vs_libperf");
		cli_bench_run__emit(r, own);
	}
	if (k != CLI_SAMPLECOST_SELFMON)
		cli_bench_run__emit(r, e[k]);
	return 0;
}

/*
 * One sample read from a ring, selfmon's drain against libperf's loop over
 * the same records (tools/samplecost.c); the publishing loop alone is
 * subtracted. Counted by the readcost events where they open, else timed.
 */
int cli_bench_run__samplecost(struct cli_bench_run *r)
{
	struct selfmon_report_entry *e[CLI_SAMPLECOST__NR] = { 0 };
	struct cli_samplecost *sc = cli_samplecost__open();
	struct selfmon_bench *b;
	int err = open_bench(r, sc != NULL, "samplecost", &b);

	if (err)
		goto out;
	if (r->cli.format == CLI_FORMAT_TABLE)
		fprintf(r->out,
			"\nsamplecost: one 64-byte sample read from a ring, each way; counted "
			"by %s; the loop alone is subtracted\n",
			selfmon_bench__nr_events(b) ? READCOST_EVENTS " (as they open)" :
						      "time only");
	for (int k = 0; k < CLI_SAMPLECOST__NR && !err; k++) {
		e[k] = cli_bench_run__next_entry(r);
		err = e[k] ? samplecost_row(r, b, sc, e, k) : -E2BIG;
	}
out:
	selfmon_bench__close(b);
	cli_samplecost__close(sc);
	return err;
}
