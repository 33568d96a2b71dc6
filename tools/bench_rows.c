// SPDX-License-Identifier: MIT
/*
 * selfmon bench's rows: the progress line, the driver's options from the
 * command line, a row of the report taken and emitted (the table's line,
 * the note of a benchmark kept noisy).
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"

void cli_bench_run__progress(const struct cli_bench_run *r, const char *name)
{
	if (r->progress)
		fprintf(stderr, "\r\033[K  running %s ...", cli_text(name));
}

void cli_bench_run__progress_done(const struct cli_bench_run *r)
{
	if (r->progress)
		fputs("\r\033[K", stderr);
}

void cli_bench_run__opts(const struct cli_bench_run *r, struct selfmon_bench_opts *o,
			 const char *events, struct selfmon_opts *so)
{
	memset(o, 0, sizeof(*o));
	o->sz = sizeof(*o);
	o->events = events;
	o->repetitions = r->cli.repetitions;
	o->min_time = r->cli.min_time;
	o->warmup = r->cli.warmup;
	o->iterations = r->cli.iterations;
	o->calibration = r->cli.calibration;
	o->serialize = r->cli.serialize;
	o->keep_noisy = r->cli.keep_noisy;
	memset(so, 0, sizeof(*so));
	so->sz = sizeof(*so);
	so->pin = r->cli.cpu ? r->cli.cpu : r->cli.cluster;
	o->set_opts = *so;
}

struct selfmon_report_entry *cli_bench_run__next_entry(struct cli_bench_run *r)
{
	struct selfmon_report_entry *e;

	if (r->nr >= (int)(sizeof(r->e) / sizeof(r->e[0])))
		return NULL;
	e = &r->e[r->nr];
	memset(e, 0, sizeof(*e));
	e->kind = SELFMON_REPORT_ENTRY_RESULT;
	e->res = &r->res[r->nr++];
	e->expected_insns = -1;
	return e;
}

/*
 * Too few undisturbed repetitions within the driver's retries: it kept
 * disturbed ones, flagged, rather than none. Say so on stderr and in the
 * report's note, for a reader of the JSON who sees no stderr.
 */
static void say_kept_noisy(struct cli_bench_run *r, const struct selfmon_bench_result *res)
{
	size_t n = strlen(r->note);

	if (r->cli.keep_noisy || !res->flagged)
		return;
	fprintf(stderr,
		"selfmon bench: %s: %d of %d repetitions undisturbed in %d tries; %d disturbed "
		"ones (a context switch, a migration or a read(2) fallback) kept, flagged noisy\n",
		cli_text(res->name), res->kept - res->flagged, res->kept, res->repetitions,
		res->flagged);
	snprintf(r->note + n, sizeof(r->note) - n,
		 "%s%s: %d of %d repetitions kept disturbed (noisy): too few undisturbed in %d tries",
		 n ? "; " : "", res->name, res->flagged, res->kept, res->repetitions);
	r->ctx.note = r->note;
}

void cli_bench_run__emit(struct cli_bench_run *r, struct selfmon_report_entry *e)
{
	cli_bench_run__progress_done(r);
	say_kept_noisy(r, e->res);
	if (r->cli.format == CLI_FORMAT_TABLE) {
		selfmon_report__table_entry(r->out, e);
		fflush(r->out);
	}
}
