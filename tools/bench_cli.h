/* SPDX-License-Identifier: MIT */
/*
 * What `selfmon bench` is made of beyond the public <selfmon/bench.h>: the
 * built-in kernels, the read-cost bodies and option parsing.
 * The CLI's own code, not the library's: it is built into the internal,
 * not-installed archive libselfmon-cli.a that the CLI and the tests link,
 * and uses only the public <selfmon/...> API.
 */
#ifndef SELFMON_TOOLS_BENCH_CLI_H
#define SELFMON_TOOLS_BENCH_CLI_H

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <selfmon/bench.h>
#include <selfmon/report.h>

/* ---- kernels.c ---- */

struct selfmon_kernel {
	const char *name;
	const char *what;
	selfmon_bench_fn fn;
	void *arg;
	/* Instructions retired per iteration, exactly, on this arch; < 0: not fixed. */
	const int *insns;
};

extern const struct selfmon_kernel selfmon_kernels[];
extern const int selfmon_kernels_nr;

/* Fill the patterns, the pointer ring and the buffers. Idempotent. */
void selfmon_kernels__init(void);

/* --filter REGEX of bench and record: the kernels whose name a POSIX extended regex matches. */
struct selfmon_kernel_filter {
	regex_t re;
	bool has_re;
};

/*
 * Compile @regex (NULL: every name matches). Return: 0, or -EINVAL with
 * "--filter '<regex>': <regerror>" in @err.
 */
int selfmon_kernel_filter__init(struct selfmon_kernel_filter *f, const char *regex, char *err,
				size_t errsz);
bool selfmon_kernel_filter__match(const struct selfmon_kernel_filter *f, const char *name);
void selfmon_kernel_filter__fini(struct selfmon_kernel_filter *f);

/* ---- readcost.c: one read of the same event, three ways ---- */

enum selfmon_readcost_kind {
	SELFMON_READCOST_EMPTY,		/* the loop without a read: subtracted */
	SELFMON_READCOST_SELFMON,	/* selfmon_page__read_value() */
	SELFMON_READCOST_LIBPERF,	/* perf_evsel__read() on an mmapped evsel */
	SELFMON_READCOST_SYSCALL,	/* read(2) on an fd of the event */
	/*
	 * selfmon_set__read(): the call, on every machine (where the inline
	 * read is "not measured" too); its cost is compared with read(2)'s
	 * in the same run, measured right before it.
	 */
	SELFMON_READCOST_SET,
	SELFMON_READCOST__NR,
};

struct selfmon_readcost;

/*
 * Open the event to read: "instructions:u" where a hardware PMU has it, else
 * "task-clock". Return: the object, or NULL with errno (selfmon_errmsg()).
 */
struct selfmon_readcost *selfmon_readcost__open(const struct selfmon_opts *opts);
void selfmon_readcost__close(struct selfmon_readcost *rc);
/* The event read, and whether the selfmon inline read works on it (else why not). */
const char *selfmon_readcost__event(const struct selfmon_readcost *rc);
bool selfmon_readcost__inline_ok(const struct selfmon_readcost *rc, const char **why);
/* The body reading @iters times the @kind way; its arg is @rc. */
selfmon_bench_fn selfmon_readcost__body(enum selfmon_readcost_kind kind);
const char *selfmon_readcost__name(enum selfmon_readcost_kind kind);
/*
 * selfmon_set__read() against a bare read(2) of the same event, interleaved:
 * @rounds rounds, each timing @n calls of one and @n of the other (which goes
 * first alternates), so that a slow stretch of the machine weighs on both.
 * Return: the median over rounds of set_read time / read(2) time, or a
 * negative number if a read failed.
 */
double selfmon_readcost__interleaved(struct selfmon_readcost *rc, int rounds, uint64_t n);

/* ---- samplecost.c: reading one sample, selfmon's drain and libperf's loop ---- */

enum selfmon_samplecost_kind {
	SELFMON_SAMPLECOST_EMPTY,	/* records published, none parsed: subtracted */
	SELFMON_SAMPLECOST_SELFMON,	/* selfmon_sampler__drain(), parse included */
	SELFMON_SAMPLECOST_LIBPERF,	/* perf_mmap__read_event() + consume, no parse */
	SELFMON_SAMPLECOST__NR,
};

struct selfmon_samplecost;

/*
 * A ring of 64-byte samples that both readers read (samplecost.c says how).
 * Return: the object, or NULL with errno (selfmon_errmsg()).
 */
struct selfmon_samplecost *selfmon_samplecost__open(void);
void selfmon_samplecost__close(struct selfmon_samplecost *sc);
/* The body reading @iters samples the @kind way; its arg is the samplecost. */
selfmon_bench_fn selfmon_samplecost__body(enum selfmon_samplecost_kind kind);
const char *selfmon_samplecost__name(enum selfmon_samplecost_kind kind);
/* Records the readers have handed out so far (a check that they read). */
uint64_t selfmon_samplecost__records(const struct selfmon_samplecost *sc);

/* ---- markercost.c: a marker pair beside its bare reads ---- */

enum selfmon_markercost_kind {
	SELFMON_MARKERCOST_EMPTY,	/* the loop alone: subtracted */
	SELFMON_MARKERCOST_INLINE,	/* the 4 bare inline reads of a pair with 2 events */
	SELFMON_MARKERCOST_CACHED,	/* SELFMON_MARKER_BEGIN/END */
	SELFMON_MARKERCOST_NAMED,	/* selfmon_marker__begin/end by name */
	SELFMON_MARKERCOST_READ_ALL,	/* selfmon_set__read_all of the 2-event group */
	SELFMON_MARKERCOST__NR,
};

struct selfmon_markercost;

/* Open the 2-event group the bare reads read. Return: the object, or NULL with errno. */
struct selfmon_markercost *selfmon_markercost__open(void);
void selfmon_markercost__close(struct selfmon_markercost *mc);
/* Whether both events have an inline read here. */
bool selfmon_markercost__inline_ok(const struct selfmon_markercost *mc);
selfmon_bench_fn selfmon_markercost__body(enum selfmon_markercost_kind kind);
const char *selfmon_markercost__name(enum selfmon_markercost_kind kind);

/* ---- options.c: `selfmon bench` command line ---- */

enum selfmon_bench_format { SELFMON_FORMAT_TABLE, SELFMON_FORMAT_CSV, SELFMON_FORMAT_JSON };

struct selfmon_bench_cli {
	bool help, list, serialize, keep_noisy;
	const char *filter;	/* POSIX extended regex on benchmark names */
	const char *events;
	int repetitions;
	double min_time;
	int warmup;
	uint64_t iterations;
	const char *cpu, *cluster;
	enum selfmon_bench_format format;
	const char *out;
	int calibration;	/* enum selfmon_calib */
};

/*
 * Parse `selfmon bench` options (argv[0] is "bench"). Return: 0, or -EINVAL
 * with the complaint in @err.
 */
int selfmon_bench_cli__parse(int argc, char **argv, struct selfmon_bench_cli *cli, char *err, size_t errsz);

/* The writers are the library's: <selfmon/report.h>. */

#endif
