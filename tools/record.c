// SPDX-License-Identifier: MIT
/*
 * selfmon record: the built-in kernels of `selfmon bench`, run under a
 * sampler of this thread (<selfmon/sampler.h>); the records go into a
 * perf.data file (<selfmon/perfdata.h>) and a summary of samples per
 * function (<selfmon/symbols.h>) ends with "N samples, N lost, N throttled".
 */
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <selfmon/machine.h>
#include <selfmon/perfdata.h>
#include <selfmon/sampler.h>
#include <selfmon/selfmon.h>
#include <selfmon/symbols.h>
#include "cli.h"

#define DEFAULT_FREQ 4000 /* Hz, perf record's default */
#define REP_NS 10000000ull /* one repetition of a kernel: about 10 ms */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: selfmon record [options]\n"
		"Sample this thread while it runs the built-in kernels of 'selfmon bench';\n"
		"write perf.data and print the samples per function.\n\n"
		"  --events LIST      events to sample (default cycles:u, or cpu-clock:u where\n"
		"                     the machine has no hardware PMU); groups as {a,b}\n"
		"  --period N         a sample every N events (cpu-clock: nanoseconds)\n"
		"  --freq HZ          or about HZ samples a second (default %d); not both\n"
		"  --filter REGEX     the kernels whose name matches (extended regex; 'selfmon\n"
		"                     bench --list' lists them)\n"
		"  --repetitions N    runs of about 10 ms per kernel (default 10)\n"
		"  --output FILE      the perf.data file (default perf.data), written whole: the\n"
		"                     records go to FILE.part-XXXXXX, renamed to FILE at the\n"
		"                     end; an old FILE is kept as FILE.old (as perf record\n"
		"                     does). A symbolic link is not written through.\n"
		"  --dump-samples     print each sample: 'sample TID IP SYMBOL'\n\n"
		"Ctrl-C (SIGINT), SIGTERM or SIGHUP stops the sampling after the current\n"
		"repetition: the file is finished and the summary printed, then selfmon\n"
		"record ends by that signal.\n"
		"Read the file with 'perf script -i FILE' or 'perf report -i FILE'.\n",
		DEFAULT_FREQ);
}

struct record_cli {
	bool help, dump;
	const char *events, *filter, *output;
	uint64_t period, freq;
	int repetitions;
};

/* A whole-string decimal within [lo, hi]. */
static int parse_num(const char *s, uint64_t lo, uint64_t hi, uint64_t *v)
{
	char *end;

	if (!*s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end || *v < lo || *v > hi ? -EINVAL : 0;
}

/* The long-only options' vals: past any character. */
enum {
	OPT_EVENTS = 256,
	OPT_PERIOD,
	OPT_FREQ,
	OPT_FILTER,
	OPT_REPETITIONS,
	OPT_OUTPUT,
	OPT_DUMP_SAMPLES,
};

static const struct option record_options[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "events", required_argument, NULL, OPT_EVENTS },
	{ "period", required_argument, NULL, OPT_PERIOD },
	{ "freq", required_argument, NULL, OPT_FREQ },
	{ "filter", required_argument, NULL, OPT_FILTER },
	{ "repetitions", required_argument, NULL, OPT_REPETITIONS },
	{ "output", required_argument, NULL, OPT_OUTPUT },
	{ "dump-samples", no_argument, NULL, OPT_DUMP_SAMPLES },
	{ 0 },
};

/* Option @opt with its value @val (optarg) into @c. Return: 0 or -EINVAL with @err. */
static int parse_value(struct record_cli *c, int opt, const char *val, char *err, size_t n)
{
	uint64_t v;

	switch (opt) {
	case 'h':
		c->help = true;
		return 0;
	case OPT_DUMP_SAMPLES:
		c->dump = true;
		return 0;
	case OPT_EVENTS:
	case OPT_OUTPUT:
		if (!*val)
			return cli_complain(err, n, "--%s: empty value",
					    opt == OPT_EVENTS ? "events" : "output");
		*(opt == OPT_EVENTS ? &c->events : &c->output) = val;
		return 0;
	case OPT_FILTER:
		c->filter = val;
		return 0;
	case OPT_PERIOD:
		if (!parse_num(val, 1, (1ull << 63) - 1, &c->period))
			return 0;
		return cli_complain(err, n, "--period '%s': a number from 1 to 2^63-1", val);
	case OPT_FREQ:
		if (!parse_num(val, 1, 1000000, &c->freq))
			return 0;
		return cli_complain(err, n, "--freq '%s': a number of Hz from 1 to 1000000", val);
	case OPT_REPETITIONS:
		if (parse_num(val, 1, 100000, &v))
			return cli_complain(err, n, "--repetitions '%s': a number from 1 to 100000",
					    val);
		c->repetitions = (int)v;
		return 0;
	}
	return -EINVAL; /* '?': cli_getopt() said why */
}

static int parse(int argc, char **argv, struct record_cli *c, char *err, size_t n)
{
	int opt;

	*c = (struct record_cli){ .output = "perf.data", .repetitions = 10 };
	optind = 0;
	while ((opt = cli_getopt(argc, argv, record_options, false, err, n)) != -1)
		if (parse_value(c, opt, optarg, err, n))
			return -EINVAL;
	if (c->period && c->freq)
		return cli_complain(err, n, "--period and --freq both set the rate: give one");
	return 0;
}

/*
 * The signal that asked record to stop (SIGINT, SIGTERM, SIGHUP), 0 while
 * none did: the run stops between repetitions, finishes the file, and then
 * dies of that signal, so that a shell or a CI runner sees it was stopped.
 */
static volatile sig_atomic_t stop_sig;

static const int stop_sigs[] = { SIGINT, SIGTERM, SIGHUP };
#define NR_STOP_SIGS ((int)(sizeof(stop_sigs) / sizeof(stop_sigs[0])))

static void on_stop(int sig)
{
	stop_sig = sig;
}

/* A signal ignored when record started stays ignored (nohup, a shell's background job). */
static void catch_stop(struct sigaction *old)
{
	struct sigaction sa = { .sa_handler = on_stop, .sa_flags = SA_RESETHAND };

	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < NR_STOP_SIGS; i++)
		if (!sigaction(stop_sigs[i], NULL, &old[i]) && old[i].sa_handler != SIG_IGN)
			sigaction(stop_sigs[i], &sa, NULL);
}

/* The dispositions as they were; then, if a signal stopped the run, its death. */
static void release_stop(const struct sigaction *old)
{
	for (int i = 0; i < NR_STOP_SIGS; i++)
		sigaction(stop_sigs[i], &old[i], NULL);
	if (!stop_sig)
		return;
	fflush(stdout);
	fflush(stderr);
	signal(stop_sig, SIG_DFL);
	raise(stop_sig);
}

/* One sample as the summary needs it. */
struct rec_sample {
	uint32_t tid;
	uint64_t ip;
};

/* What a run collects: each sample's tid and IP, and the losses. */
struct rec_run {
	struct record_cli cli;
	struct cli_kernel_filter filter;
	struct selfmon_sampler *s;
	struct selfmon_perfdata *pd;
	const char *events; /* what is sampled */
	struct rec_sample *samples;
	size_t nr, cap;
	int err;
};

static int on_record(const struct selfmon_record *r, void *arg)
{
	struct rec_run *run = arg;

	run->err = selfmon_perfdata__write(run->pd, r);
	if (run->err || r->type != PERF_RECORD_SAMPLE)
		return run->err;
	if (run->nr == run->cap) {
		size_t cap = run->cap ? 2 * run->cap : 4096;
		void *g = realloc(run->samples, cap * sizeof(*run->samples));

		if (!g)
			return run->err = selfmon_errmsg__set(-ENOMEM, "no memory for %zu samples",
							      cap);
		run->samples = g;
		run->cap = cap;
	}
	run->samples[run->nr].tid = r->sample.tid;
	run->samples[run->nr++].ip = r->sample.ip;
	return 0;
}

/* This thread's CPU time: what cpu-clock samples, and what a busy machine does not shorten. */
static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* Iterations of @k that take about REP_NS (not sampled: the sampler is off). */
static uint64_t calibrate(const struct cli_kernel *k)
{
	uint64_t n = 1, t = 0;

	while (n < (1ull << 32)) {
		uint64_t t0 = now_ns();

		k->fn(k->arg, n);
		t = now_ns() - t0;
		if (t >= REP_NS / 8)
			break;
		n *= 2;
	}
	return t ? (uint64_t)((double)n * REP_NS / (double)t) + 1 : n;
}

/* Each repetition sampled alone: the drain between them is not in the profile. */
static int run_kernel(struct rec_run *run, const struct cli_kernel *k)
{
	uint64_t n = calibrate(k);
	int err = 0;

	for (int rep = 0; !err && !stop_sig && rep < run->cli.repetitions; rep++) {
		err = selfmon_sampler__enable(run->s);
		k->fn(k->arg, n);
		if (!err)
			err = selfmon_sampler__disable(run->s);
		if (!err)
			err = selfmon_sampler__drain(run->s, on_record, run, 0);
		if (err > 0)
			err = 0;
		if (!err && run->err)
			err = run->err;
	}
	return err;
}

struct sym_count {
	const char *name, *file; /* NULL: not found */
	uint64_t n;
};

static int by_count(const void *a, const void *b)
{
	const struct sym_count *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->name ? x->name : "", y->name ? y->name : "");
}

/* Samples per function, most first; --dump-samples prints each sample before. */
static int summary(const struct rec_run *run)
{
	struct selfmon_symbols *sy = selfmon_symbols__open();
	int err = sy ? 0 : -errno;
	struct sym_count *v = calloc(run->nr + 1, sizeof(*v));
	size_t nv = 0;

	if (!sy || !v) {
		err = err ? err : -ENOMEM;
		fprintf(stderr, "selfmon record: symbols: %s\n", cli_errmsg(err));
		goto out;
	}
	for (size_t i = 0; i < run->nr; i++) {
		struct selfmon_symbol sym;
		size_t k;

		selfmon_symbols__lookup(sy, run->samples[i].ip, &sym);
		if (run->cli.dump)
			printf("sample %u %#llx %s\n", run->samples[i].tid,
			       (unsigned long long)run->samples[i].ip,
			       sym.name ? sym.name : "[unknown]");
		for (k = 0; k < nv && (v[k].name != sym.name || v[k].file != sym.file); k++)
			;
		if (k == nv)
			v[nv++] = (struct sym_count){ sym.name, sym.file, 0 };
		v[k].n++;
	}
	qsort(v, nv, sizeof(*v), by_count);
	printf("%9s %7s  %-40s %s\n", "samples", "%", "function", "file");
	for (size_t k = 0; k < nv; k++)
		printf("%9llu %6.2f%%  %-40s %s\n", (unsigned long long)v[k].n,
		       100.0 * (double)v[k].n / (double)run->nr,
		       cli_text(v[k].name ? v[k].name : "[unknown]"),
		       cli_text(v[k].file ? v[k].file : "[unknown]"));
out:
	free(v);
	selfmon_symbols__close(sy);
	return err;
}

/* cycles:u where a core PMU is, cpu-clock:u (a software clock, user time only) elsewhere. */
static const char *default_events(const struct selfmon_machine *m)
{
	if (m && selfmon_machine__nr_core_pmus(m) > 0)
		return "cycles:u";
	fprintf(stderr, "selfmon record: no hardware PMU on this machine: sampling cpu-clock:u "
			"(--events chooses)\n");
	return "cpu-clock:u";
}

/*
 * Several core types (big.LITTLE, x86 hybrid): a generic event opened for a
 * thread lands on one core PMU and counts only while the thread runs on that
 * PMU's CPUs (the kernel's arm64 perf document, "About heterogeneous
 * systems"), and the sampler does not pin. So record pins this thread to the
 * CPU it runs on and, by default, samples the cycles of that CPU's PMU by
 * name: cpu_cycles on arm64, cpu-cycles on x86 hybrid.
 */
static int pin_here(const struct selfmon_machine *m, char (*ev)[2][128])
{
	struct selfmon_cluster_info info;
	int cpu = sched_getcpu(), cl = cpu < 0 ? -ENOENT : selfmon_machine__cluster_of_cpu(m, cpu);
	cpu_set_t one;

	if (cl < 0 || selfmon_machine__cluster(m, cl, &info)) {
		fprintf(stderr,
			"selfmon record: CPU %d is in no core PMU's cluster: cannot tell which "
			"PMU to sample\n",
			cpu);
		return -ENOENT;
	}
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one)) {
		fprintf(stderr, "selfmon record: pinning to CPU %d: %s\n", cpu, strerror(errno));
		return -errno;
	}
	snprintf((*ev)[0], sizeof((*ev)[0]), "%s/cpu_cycles/u", info.name);
	snprintf((*ev)[1], sizeof((*ev)[1]), "%s/cpu-cycles/u", info.name);
	fprintf(stderr,
		"selfmon record: several core types: pinned to CPU %d, PMU %s (an event of "
		"--events must be that PMU's, e.g. %s)\n",
		cpu, cli_text(info.name), cli_text((*ev)[0]));
	return 0;
}

static int open_sampler(struct rec_run *run)
{
	struct selfmon_sampler_opts o = {
		.sz = sizeof(o),
		.period = run->cli.period,
		.freq = run->cli.period ? 0 :
			run->cli.freq	? run->cli.freq :
					  DEFAULT_FREQ,
		.sideband = SELFMON_SIDEBAND_MMAP2 | SELFMON_SIDEBAND_COMM,
		.sample_id_all = 1, /* side-band records carry the tid and time perf sorts by */
	};
	struct selfmon_machine *m = selfmon_machine__open(NULL);
	const char *events = run->cli.events;
	static char ev[2][128];
	int err = m && selfmon_machine__nr_clusters(m) > 1 ? pin_here(m, &ev) : 0;

	if (!err && !events && m && selfmon_machine__nr_clusters(m) > 1) {
		/* The PMU's cycles alias: arm64's name first, then x86 hybrid's. */
		run->s = selfmon_sampler__open(ev[0], &o);
		events = run->s ? ev[0] : ev[1];
	} else if (!err && !events) {
		events = default_events(m);
	}
	selfmon_machine__close(m);
	if (err)
		return err;
	if (!run->s)
		run->s = selfmon_sampler__open(events, &o);
	if (!run->s) {
		err = -errno;
		/* The library's message names the event it could not open: said once. */
		if (strstr(selfmon_errmsg(), "event '"))
			fprintf(stderr, "selfmon record: %s%s\n",
				run->cli.events ? "--events: " : "", cli_errmsg(err));
		else
			fprintf(stderr, "selfmon record: %s '%s': %s\n",
				run->cli.events ? "--events" : "event", cli_text(events),
				cli_errmsg(err));
		return err;
	}
	run->events = events;
	run->pd = selfmon_perfdata__open(run->cli.output, run->s);
	if (!run->pd) {
		err = -errno;
		/* The message names the file ("perf.data 'FILE': ..."). */
		fprintf(stderr, "selfmon record: --output: %s\n", cli_errmsg(err));
	}
	return err;
}

static int record(struct rec_run *run)
{
	struct selfmon_sampler_stats st;
	int err = open_sampler(run), nr = 0;

	for (int i = 0; !err && !stop_sig && i < cli_kernels_nr; i++) {
		if (!cli_kernel_filter__match(&run->filter, cli_kernels[i].name))
			continue;
		nr++;
		err = run_kernel(run, &cli_kernels[i]);
		if (err)
			fprintf(stderr, "selfmon record: %s: %s\n", cli_kernels[i].name,
				cli_errmsg(err));
	}
	if (run->pd) {
		int e = selfmon_perfdata__close(run->pd);

		run->pd = NULL;
		if (e && !err)
			fprintf(stderr, "selfmon record: %s\n", cli_errmsg(e));
		err = err ? err : e;
	}
	if (err)
		return err;
	if (stop_sig)
		fprintf(stderr,
			"selfmon record: stopped by %s: the file holds what was sampled "
			"until then\n",
			stop_sig == SIGINT  ? "SIGINT" :
			stop_sig == SIGTERM ? "SIGTERM" :
					      "SIGHUP");
	selfmon_sampler__stats(run->s, &st);
	if (st.malformed || st.unknown || st.corrupt)
		fprintf(stderr,
			"selfmon record: %llu malformed, %llu unknown records dropped, ring "
			"emptied %llu times\n",
			(unsigned long long)st.malformed, (unsigned long long)st.unknown,
			(unsigned long long)st.corrupt);
	fprintf(stderr, "selfmon record: %s, %s %llu%s, %d kernel%s, %d repetitions: wrote '%s'\n",
		cli_text(run->events), run->cli.period ? "period" : "about",
		(unsigned long long)(run->cli.period ? run->cli.period :
				     run->cli.freq   ? run->cli.freq :
						       DEFAULT_FREQ),
		run->cli.period ? "" : " samples/s", nr, nr == 1 ? "" : "s", run->cli.repetitions,
		cli_text(run->cli.output));
	err = summary(run);
	printf("%llu samples, %llu lost, %llu throttled\n", (unsigned long long)st.samples,
	       (unsigned long long)st.lost + st.lost_samples, (unsigned long long)st.throttled);
	return err;
}

/* Does --filter match a kernel? An empty run is an error, not an empty profile. */
static bool any_kernel(const struct rec_run *run)
{
	for (int i = 0; i < cli_kernels_nr; i++)
		if (cli_kernel_filter__match(&run->filter, cli_kernels[i].name))
			return true;
	return false;
}

int cmd_record(int argc, char **argv)
{
	static struct rec_run run;
	struct sigaction old[NR_STOP_SIGS];
	bool caught = false;
	char err[512];
	int ret = EXIT_USAGE;

	if (parse(argc, argv, &run.cli, err, sizeof(err)) ||
	    cli_kernel_filter__init(&run.filter, run.cli.filter, err, sizeof(err))) {
		return cli_usage_error("record", err);
	}
	if (run.cli.help) {
		usage(stdout);
		ret = 0;
		goto out;
	}
	if (!any_kernel(&run)) {
		fprintf(stderr,
			"selfmon record: --filter '%s' matches no kernel ('selfmon bench --list' "
			"lists them)\n",
			cli_text(run.cli.filter));
		goto out;
	}
	cli_kernels__init();
	catch_stop(old);
	caught = true;
	ret = record(&run) ? 1 : 0;
out:
	selfmon_perfdata__close(run.pd);
	selfmon_sampler__close(run.s);
	cli_kernel_filter__fini(&run.filter);
	free(run.samples);
	if (caught)
		release_stop(old);
	return ret;
}
