/* SPDX-License-Identifier: MIT */
/*
 * What `selfmon bench` is made of beyond the public <selfmon/bench.h>: the
 * built-in kernels, the read-cost bodies, option parsing and the writers.
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

/* ---- options.c: `selfmon bench` command line ---- */

enum selfmon_bench_format { SELFMON_FORMAT_TABLE, SELFMON_FORMAT_CSV, SELFMON_FORMAT_JSON };

struct selfmon_bench_cli {
	bool help, list, serialize, keep_noisy;
	const char *filter;	/* POSIX extended regex on benchmark names */
	const char *events;
	/* --metrics: metric and metric-group names, counted beside the events */
	const char *metrics;
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

/* ---- report.c: table, CSV and JSON ---- */

struct selfmon_report_entry {
	struct selfmon_bench_result *res;
	const char *what;
	double expected_insns;	/* < 0: none stated */
	const char *skipped;	/* not measured, and why; res unused */
	int nr_extra;
	struct { char name[40]; double value; } extra[4];
};

struct selfmon_report_cache {
	const char *type;	/* "Data", "Instruction", "Unified" */
	int level;
	long size;		/* bytes */
	int num_sharing;
};

struct selfmon_report_context {
	char date[64], host_name[256], executable[512];
	int num_cpus;
	double mhz_per_cpu;
	bool cpu_scaling_enabled;
	int nr_caches;
	struct selfmon_report_cache caches[8];
	const char *build_type;		/* "release" or "debug" */
	const char *arch, *version, *events, *note, *pinned;
	bool hardware;			/* hardware counters counted */
	enum selfmon_calib calibration;
	bool serialize;
	const char *read_path;		/* "inline" / "read(2): <why>" */
};

/* Fill what the machine says: date, host, CPUs, MHz, caches, scaling. */
void selfmon_report__context_fill(struct selfmon_report_context *ctx);

/* JSON string with escapes (quotes, backslash, control characters as \uXXXX). */
void selfmon_json__string(FILE *f, const char *s);
/* JSON number: shortest exact form of integral values, %.9g else; null when not finite. */
void selfmon_json__number(FILE *f, double v);
/* CSV field: quoted (with doubled quotes) when it holds a comma, quote or line break. */
void selfmon_csv__field(FILE *f, const char *s);

/* Derived metrics of @res from its medians: IPC, branch/cache miss rates, ns/iter. */
struct selfmon_derived {
	int nr;
	struct { const char *name; double value; } m[4];
};
void selfmon_report__derived(const struct selfmon_bench_result *res, struct selfmon_derived *d);

int selfmon_report__json(FILE *f, const struct selfmon_report_context *ctx,
			 const struct selfmon_report_entry *e, int nr);
int selfmon_report__csv(FILE *f, const struct selfmon_report_context *ctx,
			const struct selfmon_report_entry *e, int nr);
int selfmon_report__table(FILE *f, const struct selfmon_report_context *ctx,
			  const struct selfmon_report_entry *e, int nr);
/* The table's block for one entry (printed as soon as it is measured). */
void selfmon_report__table_entry(FILE *f, const struct selfmon_report_entry *e);
void selfmon_report__table_header(FILE *f, const struct selfmon_report_context *ctx);

#endif
