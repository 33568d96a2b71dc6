// SPDX-License-Identifier: MIT
/*
 * selfmon bench: the built-in kernels and the read-cost comparison, measured
 * with the inline region reads of <selfmon/bench.h>, printed as a table, CSV
 * or Google Benchmark JSON.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <generated/autoconf.h>
#include <selfmon/bench.h>
#include <selfmon/machine.h>
#include "cli.h"
#include "slowdown.h"
#include <selfmon/metric.h>

#define READCOST_EVENTS "instructions:u,instructions"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: selfmon bench [options]\n"
		"Measure the built-in kernels (and readcost, samplecost) with inline counter reads.\n\n"
		"  --list                 list the benchmarks and their expected instructions\n"
		"  --filter REGEX         run the benchmarks whose name matches (extended regex)\n"
		"  --events LIST          events to count (default: %s;\n"
		"                         those this machine cannot count are left out, with the reason)\n"
		"  --metrics LIST         metrics or metric groups of this core (ipc,TopdownL1; see selfmon list):\n"
		"                         their events counted user-only, a group each, a column each\n"
		"  --repetitions N        repetitions (samples) per benchmark (default 10)\n"
		"  --min-time S           keep repeating until a benchmark took S seconds\n"
		"  --warmup N             untimed runs first (default 1)\n"
		"  --iterations N         inner iterations per repetition (default: grown to ~1 ms)\n"
		"  --cpu N | --cluster NAME  pin to CPU N, or to a core PMU's CPUs ('big', 'little')\n"
		"  --format table|csv|json   (json: Google Benchmark's schema)\n"
		"  --out FILE             write there instead of stdout: to FILE.part-XXXXXX,\n"
		"                         renamed to FILE at the end (a failed run leaves FILE\n"
		"                         as it was); a symbolic link is not written through\n"
		"  --calibration two-length|empty  (default two-length)\n"
		"  --serialize            fence (isb / lfence) around each end of a region\n"
		"  --keep-noisy           keep repetitions with a context switch or migration, flagged\n",
		SELFMON_BENCH_DEFAULT_EVENTS);
}

struct run {
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

static bool wanted(const struct run *r, const char *name)
{
	return cli_kernel_filter__match(&r->filter, name);
}

/* Does --filter match a benchmark? A run of none is bad input, not an empty report. */
static bool any_wanted(const struct run *r)
{
	for (int i = 0; i < cli_kernels_nr; i++)
		if (wanted(r, cli_kernels[i].name))
			return true;
	return wanted(r, "readcost") || wanted(r, "samplecost") || wanted(r, "markercost");
}

static void progress(const struct run *r, const char *name)
{
	if (r->progress)
		fprintf(stderr, "\r\033[K  running %s ...", cli_text(name));
}

static void progress_done(const struct run *r)
{
	if (r->progress)
		fputs("\r\033[K", stderr);
}

static void list(const struct run *r)
{
	printf("%-20s %-13s %s\n", "benchmark", "instructions", "what");
	for (int i = 0; i < cli_kernels_nr; i++) {
		const struct cli_kernel *k = &cli_kernels[i];
		char exp[32] = "not fixed";

		if (!wanted(r, k->name))
			continue;
		if (*k->insns >= 0)
			snprintf(exp, sizeof(exp), "%d/iter", *k->insns);
		printf("%-20s %-13s %s\n", k->name, exp, k->what);
	}
	if (wanted(r, "readcost"))
		printf("%-20s %-13s %s\n", "readcost", "-",
		       "one counter read: selfmon inline vs libperf perf_evsel__read vs read(2) "
		       "vs selfmon_set__read");
	if (wanted(r, "markercost"))
		printf("%-20s %-13s %s\n", "markercost", "-",
		       "a marker pair, cached and by name, beside the 4 bare inline reads of 2 events, "
		       "and selfmon_set__read_all of them (emulated board: 147, 215, 93, 101 user "
		       "instructions; docs/markers.md)");
	if (wanted(r, "samplecost"))
		printf("%-20s %-13s %s\n", "samplecost", "-",
		       "one sample read: selfmon_sampler__drain (parse included) vs libperf's "
		       "perf_mmap__read_event loop");
}

static void bench_opts_from(const struct run *r, struct selfmon_bench_opts *o, const char *events,
			    struct selfmon_opts *so)
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

/* Software events are not pinned by the library: --cpu still means this CPU. */
static int pin_cpu(const struct run *r, struct selfmon_set *set)
{
	cpu_set_t cpus;

	if (!r->cli.cpu || selfmon_set__pmu(set))
		return 0;
	CPU_ZERO(&cpus);
	CPU_SET(atoi(r->cli.cpu), &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus)) {
		int err = -errno;

		fprintf(stderr, "selfmon bench: --cpu '%s': %s\n", cli_text(r->cli.cpu),
			strerror(-err));
		return err;
	}
	return 0;
}

/*
 * A pinning request that cannot be met is an error, before anything runs: a
 * cluster the machine does not have, a CPU this thread may not run on. The
 * library would only leave the events out and blame the hardware.
 */
static int check_pin(const struct run *r)
{
	const char *opt = r->cli.cpu ? "--cpu" : "--cluster",
		   *val = r->cli.cpu ? r->cli.cpu : r->cli.cluster;
	struct selfmon_machine *m = selfmon_machine__open(NULL);
	char cpus[256];
	cpu_set_t allowed;
	int cl, err = 0;

	if (!m) {
		err = -errno;
		fprintf(stderr, "selfmon bench: %s\n", cli_errmsg(err));
		return err;
	}
	if (r->cli.cpu && (sched_getaffinity(0, sizeof(allowed), &allowed) ||
			   !CPU_ISSET(atoi(r->cli.cpu), &allowed))) {
		fprintf(stderr,
			"selfmon bench: --cpu '%s': not a CPU this thread may run on "
			"(see 'taskset -p $$' or nproc)\n",
			cli_text(r->cli.cpu));
		err = -EINVAL;
		goto out;
	}
	/* --cpu without a core PMU still pins (software events); --cluster needs one. */
	if (r->cli.cpu && !selfmon_machine__nr_clusters(m))
		goto out;
	err = selfmon_machine__resolve_pin(m, val, sched_getcpu(), &cl, cpus, sizeof(cpus));
	if (!err && cl < 0)
		err = selfmon_errmsg__set(-EINVAL, "it pins to no cluster here");
	if (err)
		fprintf(stderr, "selfmon bench: %s '%s' cannot be met: %s\n", opt, cli_text(val),
			cli_errmsg(err));
out:
	selfmon_machine__close(m);
	return err;
}

static void describe(struct run *r, struct selfmon_bench *b)
{
	struct selfmon_set *set = selfmon_bench__set(b);
	static char events[512], path[512], pinned[128];
	size_t len = 0;

	events[0] = path[0] = pinned[0] = '\0';
	snprintf(path, sizeof(path), "inline (%s)", SELFMON_ARCH_NAME);
	for (int i = 0; i < selfmon_bench__nr_events(b); i++) {
		enum selfmon_reason why;

		len += (size_t)snprintf(events + len, sizeof(events) - len, "%s%s", i ? "," : "",
					selfmon_set__name(set, i));
		if (len >= sizeof(events))
			len = sizeof(events) - 1;
		if (selfmon_set__path(set, i, &why) != SELFMON_PATH_USER &&
		    !strncmp(path, "inline", 6))
			snprintf(path, sizeof(path), "read(2): %s: %s", selfmon_set__name(set, i),
				 selfmon_reason__str(why));
	}
	if (selfmon_set__pmu(set))
		snprintf(pinned, sizeof(pinned), "%s (now CPU %d)", selfmon_set__pmu(set),
			 sched_getcpu());
	else if (r->cli.cpu)
		snprintf(pinned, sizeof(pinned), "CPU %s", r->cli.cpu);
	r->ctx.events = events;
	r->ctx.read_path = selfmon_bench__nr_events(b) ? path :
							 "read(2): no event counted in the region";
	r->ctx.pinned = pinned;
	r->ctx.hardware = selfmon_bench__nr_events(b) > 0;
	/* The driver's note goes with the driver: the report outlives it. */
	snprintf(r->note, sizeof(r->note), "%s", selfmon_bench__note(b));
	r->ctx.note = r->note;
}

static struct selfmon_report_entry *next_entry(struct run *r)
{
	struct selfmon_report_entry *e;

	if (r->nr >= (int)(sizeof(r->e) / sizeof(r->e[0])))
		return NULL;
	e = &r->e[r->nr];
	memset(e, 0, sizeof(*e));
	e->res = &r->res[r->nr++];
	e->expected_insns = -1;
	return e;
}

/*
 * Too few undisturbed repetitions within the driver's retries: it kept
 * disturbed ones, flagged, rather than none. Say so on stderr and in the
 * report's note, for a reader of the JSON who sees no stderr.
 */
static void say_kept_noisy(struct run *r, const struct selfmon_bench_result *res)
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

static void emit(struct run *r, struct selfmon_report_entry *e)
{
	progress_done(r);
	say_kept_noisy(r, e->res);
	if (r->cli.format == CLI_FORMAT_TABLE) {
		selfmon_report__table_entry(r->out, e);
		fflush(r->out);
	}
}

/*
 * The CPU whose core the metrics are resolved on: --cpu's, the first of
 * --cluster's (the thread may start on another cluster, whose core has other
 * tables), else -1, the current one (pinning keeps it in that cluster).
 */
static int metrics_cpu(const struct run *r)
{
	struct selfmon_machine *m;
	char cpus[256];
	int cl = -1;

	if (r->cli.cpu)
		return atoi(r->cli.cpu);
	if (!r->cli.cluster)
		return -1;
	m = selfmon_machine__open(NULL);
	/* check_pin() has refused a cluster that cannot be met. */
	if (!m || selfmon_machine__resolve_pin(m, r->cli.cluster, sched_getcpu(), &cl, cpus,
					       sizeof(cpus)))
		cl = -1;
	selfmon_machine__close(m);
	return cl < 0 ? -1 : atoi(cpus);
}

/*
 * --metrics: resolved on the core of the CPU the thread will count on
 * (metrics_cpu()); their groups go after --events (or the default events).
 */
static int open_metrics(struct run *r, struct selfmon_metrics **m, char *events, size_t size)
{
	int fallback = 0;

	*m = selfmon_metrics__new(r->cli.metrics, metrics_cpu(r), "u");
	if (!*m) {
		fprintf(stderr, "selfmon bench: --metrics: %s\n", cli_errmsg(-errno));
		return -EINVAL;
	}
	selfmon_metrics__core(*m, &fallback);
	if (fallback)
		fprintf(stderr,
			"selfmon bench: no pmu-events tables for this core: metrics from the "
			"architecture's common set (%s)\n",
			selfmon_metrics__core(*m, NULL));
	if (snprintf(events, size, "%s%s%s",
		     r->cli.events ? r->cli.events : SELFMON_BENCH_DEFAULT_EVENTS,
		     *selfmon_metrics__events(*m) ? "," : "",
		     selfmon_metrics__events(*m)) >= (int)size) {
		fprintf(stderr, "selfmon bench: --metrics: too many events\n");
		selfmon_metrics__delete(*m);
		return -E2BIG;
	}
	return 0;
}

/* Once, after the rows: each metric that has no column and why. */
static void metrics_unavailable(const struct selfmon_metrics *m)
{
	for (int i = 0; i < selfmon_metrics__nr(m); i++)
		if (*selfmon_metrics__why(m, i))
			fprintf(stderr, "selfmon bench: metric %s unavailable: %s\n",
				selfmon_metrics__name(m, i), cli_text(selfmon_metrics__why(m, i)));
}

/*
 * "@name" items of --events are metrics, as --metrics names them: move them
 * there, leaving the plain events in --events. Return: 0 or -errno (said).
 */
static int split_event_metrics(struct run *r)
{
	static char plain[2048], names[1024], all[1536];
	int err;

	if (!r->cli.events || !strchr(r->cli.events, '@'))
		return 0;
	err = selfmon_metrics__split(r->cli.events, plain, sizeof(plain), names, sizeof(names));
	if (err) {
		fprintf(stderr, "selfmon bench: --events: %s\n", cli_errmsg(err));
		return err;
	}
	snprintf(all, sizeof(all), "%s%s%s", names, r->cli.metrics ? "," : "",
		 r->cli.metrics ? r->cli.metrics : "");
	r->cli.events = *plain ? plain : NULL;
	r->cli.metrics = all;
	return 0;
}

/*
 * Measure kernel @k into @e (a test's injected slowdown applied), with the
 * columns of metrics @m, if any. Return: 0 or -errno.
 */
static int run_kernel(struct selfmon_bench *b, const struct cli_kernel *k,
		      struct selfmon_report_entry *e, struct selfmon_metrics *m)
{
	selfmon_bench_fn fn = k->fn;
	void *arg = k->arg;
	int err;

	e->what = k->what;
	e->expected_insns = *k->insns;
	err = cli_slowdown_wrap(k->name, &fn, &arg);
	if (err > 0)
		e->expected_insns = -1;
	if (err >= 0)
		err = selfmon_bench__run(b, k->name, fn, arg, e->res);
	if (!err && m) {
		err = selfmon_metrics__add_columns(m, e->res);
		if (err > 0)
			err = 0;
	}
	return err;
}

static int run_kernels(struct run *r)
{
	static char events[4096];
	struct selfmon_metrics *m = NULL;
	struct selfmon_bench_opts o;
	struct selfmon_opts so;
	struct selfmon_bench *b;
	int err = split_event_metrics(r);

	if (!err && r->cli.metrics)
		err = open_metrics(r, &m, events, sizeof(events));
	if (err)
		return err;
	bench_opts_from(r, &o, m ? events : r->cli.events, &so);
	b = selfmon_bench__open(&o);
	if (!b) {
		err = -errno;
		fprintf(stderr, "selfmon bench: %s\n", cli_errmsg(err));
		selfmon_metrics__delete(m);
		return err;
	}
	err = pin_cpu(r, selfmon_bench__set(b));
	if (err)
		goto out;
	describe(r, b);
	if (r->cli.format == CLI_FORMAT_TABLE)
		selfmon_report__table_header(r->out, &r->ctx);
	for (int i = 0; i < cli_kernels_nr; i++) {
		const struct cli_kernel *k = &cli_kernels[i];
		struct selfmon_report_entry *e;

		if (!wanted(r, k->name))
			continue;
		e = next_entry(r);
		if (!e)
			continue;
		progress(r, k->name);
		err = run_kernel(b, k, e, m);
		if (err) {
			progress_done(r);
			fprintf(stderr, "selfmon bench: %s\n", cli_errmsg(err));
			goto out;
		}
		emit(r, e);
	}
	if (m)
		metrics_unavailable(m);
out:
	selfmon_bench__close(b);
	selfmon_metrics__delete(m);
	return err;
}

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
static int readcost_row(struct run *r, struct selfmon_bench *b, struct cli_readcost *rc,
			struct selfmon_report_entry **e, int k, const char *no_inline)
{
	int err;

	snprintf(e[k]->res->name, sizeof(e[k]->res->name), "%s", cli_readcost__name(k));
	if (k == CLI_READCOST_SELFMON && no_inline) {
		snprintf(r->skipped[r->nr_skipped], sizeof(r->skipped[0]),
			 "no inline read of %s here: %s", cli_readcost__event(rc), no_inline);
		e[k]->skipped = r->skipped[r->nr_skipped++];
		emit(r, e[k]);
		return 0;
	}
	progress(r, cli_readcost__name(k));
	err = selfmon_bench__run(b, cli_readcost__name(k), cli_readcost__body(k), rc, e[k]->res);
	if (err) {
		progress_done(r);
		fprintf(stderr, "selfmon bench: %s\n", cli_errmsg(err));
		return err;
	}
	if (k == CLI_READCOST_EMPTY) {
		e[k]->what = "the loop without a read (subtracted below)";
	} else {
		subtract_loop(e[k]->res, e[CLI_READCOST_EMPTY]->res);
		label_readcost(e, k, !no_inline);
		if (k == CLI_READCOST_SET)
			add_interleaved(e[k], rc);
	}
	emit(r, e[k]);
	return 0;
}

static int run_readcost(struct run *r)
{
	struct selfmon_report_entry *e[CLI_READCOST__NR] = { 0 };
	struct cli_readcost *rc = NULL;
	struct selfmon_bench *b = NULL;
	struct selfmon_bench_opts o;
	struct selfmon_opts so;
	const char *why;
	bool inline_ok;
	int err = 0;

	bench_opts_from(r, &o, READCOST_EVENTS, &so);
	rc = cli_readcost__open(&so);
	if (!rc) {
		err = -errno;
		fprintf(stderr, "selfmon bench: readcost: %s\n", cli_errmsg(err));
		goto out;
	}
	b = selfmon_bench__open(&o);
	if (!b) {
		err = -errno;
		fprintf(stderr, "selfmon bench: readcost: %s\n", cli_errmsg(err));
		goto out;
	}
	inline_ok = cli_readcost__inline_ok(rc, &why);
	if (r->cli.format == CLI_FORMAT_TABLE)
		fprintf(r->out,
			"\nreadcost: one read of %s, each way; counted by %s; the loop alone is "
			"subtracted\n",
			cli_readcost__event(rc),
			selfmon_bench__nr_events(b) ? READCOST_EVENTS " (as they open)" :
						      "time only");
	for (int k = 0; k < CLI_READCOST__NR && !err; k++) {
		e[k] = next_entry(r);
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
static int run_markercost(struct run *r)
{
	struct selfmon_report_entry *e[CLI_MARKERCOST__NR] = { 0 };
	struct cli_markercost *mc = cli_markercost__open();
	struct selfmon_bench *b = NULL;
	struct selfmon_bench_opts o;
	struct selfmon_opts so;
	int err = 0;

	bench_opts_from(r, &o, READCOST_EVENTS, &so);
	if (mc)
		b = selfmon_bench__open(&o);
	if (!b) {
		err = -errno;
		fprintf(stderr, "selfmon bench: markercost: %s\n", cli_errmsg(err));
		goto out;
	}
	if (r->cli.format == CLI_FORMAT_TABLE)
		fprintf(r->out,
			"\nmarkercost: a marker pair (events: SELFMON_EVENTS or the default) beside the "
			"4 inline reads of 2 events; the loop alone is subtracted\n");
	for (int k = 0; k < CLI_MARKERCOST__NR && !err; k++) {
		e[k] = next_entry(r);
		if (!e[k]) {
			err = -E2BIG;
			break;
		}
		snprintf(e[k]->res->name, sizeof(e[k]->res->name), "%s", cli_markercost__name(k));
		if (k == CLI_MARKERCOST_INLINE && !cli_markercost__inline_ok(mc)) {
			e[k]->skipped = "no inline read of both events here";
			emit(r, e[k]);
			continue;
		}
		progress(r, cli_markercost__name(k));
		err = selfmon_bench__run(b, cli_markercost__name(k), cli_markercost__body(k), mc,
					 e[k]->res);
		if (err) {
			progress_done(r);
			fprintf(stderr, "selfmon bench: %s\n", cli_errmsg(err));
			break;
		}
		if (k != CLI_MARKERCOST_EMPTY)
			subtract_loop(e[k]->res, e[CLI_MARKERCOST_EMPTY]->res);
		if (k != CLI_MARKERCOST_EMPTY && k != CLI_MARKERCOST_INLINE &&
		    !e[CLI_MARKERCOST_INLINE]->skipped)
			add_ratio(e[k], e[CLI_MARKERCOST_INLINE]->res, "instructions:u",
				  "instructions_vs_inline_reads");
		emit(r, e[k]);
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
static int samplecost_row(struct run *r, struct selfmon_bench *b, struct cli_samplecost *sc,
			  struct selfmon_report_entry **e, int k)
{
	struct selfmon_report_entry *own = e[CLI_SAMPLECOST_SELFMON];
	int err;

	snprintf(e[k]->res->name, sizeof(e[k]->res->name), "%s", cli_samplecost__name(k));
	progress(r, cli_samplecost__name(k));
	err = selfmon_bench__run(b, cli_samplecost__name(k), cli_samplecost__body(k), sc, e[k]->res);
	if (err) {
		progress_done(r);
		fprintf(stderr, "selfmon bench: %s\n", cli_errmsg(err));
		return err;
	}
	e[k]->what = k == CLI_SAMPLECOST_EMPTY ?
			     "records published, none read (subtracted below)" :
		     k == CLI_SAMPLECOST_SELFMON ?
			     "selfmon_sampler__drain, parse included" :
			     "libperf perf_mmap__read_event + consume, no parse";
	if (k != CLI_SAMPLECOST_EMPTY)
		subtract_loop(e[k]->res, e[CLI_SAMPLECOST_EMPTY]->res);
	if (k == CLI_SAMPLECOST_SELFMON && cli_samplecost__records(sc) == 0) {
		fprintf(stderr, "selfmon bench: samplecost: the drain read no record\n");
		return -EIO;
	}
	if (k == CLI_SAMPLECOST_LIBPERF) {
		add_ratio(own, e[k]->res, "instructions:u", "instructions_vs_libperf");
		add_ratio(own, e[k]->res, "time", "time_vs_libperf");
		emit(r, own);
	}
	if (k != CLI_SAMPLECOST_SELFMON)
		emit(r, e[k]);
	return 0;
}

/*
 * One sample read from a ring, selfmon's drain against libperf's loop over
 * the same records (tools/samplecost.c); the publishing loop alone is
 * subtracted. Counted by the readcost events where they open, else timed.
 */
static int run_samplecost(struct run *r)
{
	struct selfmon_report_entry *e[CLI_SAMPLECOST__NR] = { 0 };
	struct cli_samplecost *sc = cli_samplecost__open();
	struct selfmon_bench *b = NULL;
	struct selfmon_bench_opts o;
	struct selfmon_opts so;
	int err = 0;

	bench_opts_from(r, &o, READCOST_EVENTS, &so);
	if (sc) {
		b = selfmon_bench__open(&o);
		if (!b)
			err = -errno;
	}
	if (!sc || err) {
		err = err ? err : -errno;
		fprintf(stderr, "selfmon bench: samplecost: %s\n", cli_errmsg(err));
		goto out;
	}
	if (r->cli.format == CLI_FORMAT_TABLE)
		fprintf(r->out,
			"\nsamplecost: one 64-byte sample read from a ring, each way; counted "
			"by %s; the loop alone is subtracted\n",
			selfmon_bench__nr_events(b) ? READCOST_EVENTS " (as they open)" :
						      "time only");
	for (int k = 0; k < CLI_SAMPLECOST__NR && !err; k++) {
		e[k] = next_entry(r);
		err = e[k] ? samplecost_row(r, b, sc, e, k) : -E2BIG;
	}
out:
	selfmon_bench__close(b);
	cli_samplecost__close(sc);
	return err;
}

static void init_context(struct run *r)
{
	selfmon_report__context_fill(&r->ctx);
	r->ctx.arch = SELFMON_ARCH_NAME;
	r->ctx.version = selfmon_version();
#ifdef CONFIG_DEBUG
	r->ctx.build_type = "debug";
#else
	r->ctx.build_type = "release";
#endif
	r->ctx.calibration = r->cli.calibration;
	r->ctx.serialize = r->cli.serialize;
	r->ctx.events = r->ctx.note = r->ctx.read_path = r->ctx.pinned = "";
}

/*
 * Every wanted group of rows, then the JSON or CSV of them all (the table is
 * printed row by row). Return: 0, or -errno after a message.
 */
static int measure_and_write(struct run *r)
{
	int err = run_kernels(r);

	if (!err && wanted(r, "readcost"))
		err = run_readcost(r);
	if (!err && wanted(r, "samplecost"))
		err = run_samplecost(r);
	if (!err && wanted(r, "markercost"))
		err = run_markercost(r);
	if (err)
		return err;
	if (r->cli.format == CLI_FORMAT_JSON)
		return selfmon_report__json(r->out, &r->ctx, r->e, r->nr);
	if (r->cli.format == CLI_FORMAT_CSV)
		return selfmon_report__csv(r->out, &r->ctx, r->e, r->nr);
	return ferror(r->out) ? -EIO : 0;
}

int cmd_bench(int argc, char **argv)
{
	static struct run run;
	struct run *r = &run;
	char err[256];
	int ret = EXIT_USAGE;

	if (cli_bench__parse(argc, argv, &r->cli, err, sizeof(err))) {
		fprintf(stderr, "selfmon bench: %s\n'selfmon bench --help' lists the options.\n",
			cli_text(err));
		return EXIT_USAGE;
	}
	if (r->cli.help) {
		usage(stdout);
		return 0;
	}
	if (cli_kernel_filter__init(&r->filter, r->cli.filter, err, sizeof(err))) {
		fprintf(stderr, "selfmon bench: %s\n", cli_text(err));
		return EXIT_USAGE;
	}
	if (!any_wanted(r)) {
		fprintf(stderr,
			"selfmon bench: --filter '%s' matches no benchmark ('selfmon bench --list' "
			"lists them)\n",
			cli_text(r->cli.filter));
		goto out;
	}
	if ((r->cli.cluster || r->cli.cpu) && check_pin(r)) {
		ret = 1;
		goto out;
	}
	if (r->cli.list) {
		list(r);
		ret = 0;
		goto out;
	}
	r->out = stdout;
	if (r->cli.out) {
		r->out = cli_outfile_open("selfmon bench", r->cli.out, &r->out_tmp);
		if (!r->out)
			goto out;
	}
	r->progress = isatty(STDERR_FILENO);
	cli_kernels__init();
	init_context(r);

	ret = measure_and_write(r) ? 1 : 0;
out:
	for (int i = 0; i < r->nr; i++)
		selfmon_bench_result__fini(&r->res[i]);
	/* A failed run leaves the old --out file as it was. */
	if (r->out && r->out != stdout &&
	    cli_outfile_close(r->out, "selfmon bench", r->cli.out, r->out_tmp, ret == 0))
		ret = 1;
	/* --list, the table, CSV or JSON on stdout: a write that failed is a failure. */
	if (cli_close_stdout("selfmon bench") && ret == 0)
		ret = 1;
	cli_kernel_filter__fini(&r->filter);
	return ret;
}
