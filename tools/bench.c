// SPDX-License-Identifier: MIT
/*
 * selfmon bench: the built-in kernels and the read-cost comparison, measured
 * with the inline region reads of <selfmon/bench.h>, printed as a table, CSV
 * or Google Benchmark JSON. The command and the kernels' rows; the cost rows
 * are bench_cost.c's, a row's output bench_rows.c's.
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
#include "bench.h"
#include "cli.h"
#include "slowdown.h"
#include <selfmon/metric.h>

static void usage(FILE *f)
{
	fprintf(f,
		"usage: selfmon bench [options]\n"
		"Measure the built-in kernels (and readcost, samplecost) with inline counter reads.\n\n"
		"  --list                 list the benchmarks and their expected instructions\n"
		"  --filter REGEX         run the benchmarks whose name matches (extended regex)\n"
		"  --events LIST          events to count (default: %s; of the\n"
		"                         default, those this machine cannot count are left out, with the\n"
		"                         reason; an event named here that cannot be counted is an error)\n"
		"  --metrics LIST         metrics or metric groups of this core (ipc,TopdownL1; see selfmon list):\n"
		"                         their events counted user-only, a group each (none where\n"
		"                         --events counts them already: docs/metrics.md), a column each\n"
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

static bool wanted(const struct cli_bench_run *r, const char *name)
{
	return cli_kernel_filter__match(&r->filter, name);
}

/* Does --filter match a benchmark? A run of none is bad input, not an empty report. */
static bool any_wanted(const struct cli_bench_run *r)
{
	for (int i = 0; i < cli_kernels_nr; i++)
		if (wanted(r, cli_kernels[i].name))
			return true;
	return wanted(r, "readcost") || wanted(r, "samplecost") || wanted(r, "markercost");
}

static void list(const struct cli_bench_run *r)
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

/* Software events are not pinned by the library: --cpu still means this CPU. */
static int pin_cpu(const struct cli_bench_run *r, struct selfmon_set *set)
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
static int check_pin(const struct cli_bench_run *r)
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

static void describe(struct cli_bench_run *r, struct selfmon_bench *b)
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

/*
 * The CPU whose core the metrics are resolved on: --cpu's, the first of
 * --cluster's (the thread may start on another cluster, whose core has other
 * tables), else -1, the current one (pinning keeps it in that cluster).
 */
static int metrics_cpu(const struct cli_bench_run *r)
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
 * (metrics_cpu()); their groups go after --events (or the default events),
 * as optional events: a metric this machine cannot count is said
 * unavailable (metrics_unavailable()), not an error.
 */
static int open_metrics(struct cli_bench_run *r, struct selfmon_metrics **m, char *events,
			size_t size)
{
	int fallback = 0;

	*m = selfmon_metrics__new(r->cli.metrics, metrics_cpu(r), "u");
	if (!*m) {
		fprintf(stderr, "selfmon bench: --metrics: %s\n", cli_errmsg(-errno));
		return -EINVAL;
	}
	/* What --events (or the default) counts already is read there; a syntax error is --events'. */
	selfmon_metrics__share(*m, r->cli.events ? r->cli.events : SELFMON_BENCH_DEFAULT_EVENTS);
	selfmon_metrics__core(*m, &fallback);
	if (fallback)
		fprintf(stderr,
			"selfmon bench: no pmu-events tables for this core: metrics from the "
			"architecture's common set (%s)\n",
			selfmon_metrics__core(*m, NULL));
	if (snprintf(events, size, "%s", selfmon_metrics__events(*m)) >= (int)size) {
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
static int split_event_metrics(struct cli_bench_run *r)
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

static int run_kernels(struct cli_bench_run *r)
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
	cli_bench_run__opts(r, &o, r->cli.events, &so);
	o.optional_events = m ? events : NULL;
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
		e = cli_bench_run__next_entry(r);
		if (!e)
			continue;
		cli_bench_run__progress(r, k->name);
		err = run_kernel(b, k, e, m);
		if (err) {
			cli_bench_run__progress_done(r);
			fprintf(stderr, "selfmon bench: %s\n", cli_errmsg(err));
			goto out;
		}
		cli_bench_run__emit(r, e);
	}
	if (m)
		metrics_unavailable(m);
out:
	selfmon_bench__close(b);
	selfmon_metrics__delete(m);
	return err;
}

static void init_context(struct cli_bench_run *r)
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
static int measure_and_write(struct cli_bench_run *r)
{
	int err = run_kernels(r);

	if (!err && wanted(r, "readcost"))
		err = cli_bench_run__readcost(r);
	if (!err && wanted(r, "samplecost"))
		err = cli_bench_run__samplecost(r);
	if (!err && wanted(r, "markercost"))
		err = cli_bench_run__markercost(r);
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
	static struct cli_bench_run run;
	struct cli_bench_run *r = &run;
	char err[256];
	int ret = EXIT_USAGE;

	if (cli_bench__parse(argc, argv, &r->cli, err, sizeof(err)))
		return cli_usage_error("bench", err);
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
