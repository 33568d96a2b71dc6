/* SPDX-License-Identifier: MIT */
/*
 * The selfmon CLI's internals: the subcommands and their exit codes, the
 * terminal-safe text, the built-in kernels, the read- and sample-cost bodies,
 * `selfmon bench`'s options, and the writers. The CLI's own code, not the
 * library's (hence cli_, not selfmon_): it is built into the internal,
 * not-installed archive libselfmon-cli.a that the CLI and the tests link,
 * and uses only the public <selfmon/...> API.
 */
#ifndef SELFMON_TOOLS_CLI_H
#define SELFMON_TOOLS_CLI_H

#include <getopt.h>
#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <selfmon/bench.h>
#include <selfmon/report.h>

/* ---- selfmon.c, cli.c: the subcommands, and what they share ---- */

/* Exit codes of every subcommand. */
#define EXIT_USER_READ 0 /* probe: user-space reads work here */
#define EXIT_NO_USER_READ 1 /* probe: they do not (and it said why) */
#define EXIT_USAGE 2

int cmd_probe(int argc, char **argv);

/*
 * @s made safe for a terminal: control characters (ESC, CR, ...) and DEL as
 * \xNN, a backslash doubled. Untrusted text (event strings, file and PMU
 * names, SELFMON_PIN, messages quoting them) goes through it before it is
 * printed. The result lives in one of a few static buffers, reused in turn:
 * enough for the arguments of one printf. Long text is cut with "...".
 */
const char *cli_text(const char *s);

/*
 * Flush and check stdout before exit: a write error (a full disk, a closed
 * pipe) is reported with @who and makes the command fail. Return: 0 or -EIO.
 */
int cli_close_stdout(const char *who);

/*
 * selfmon_errmsg() for a failure @err, made safe with cli_text(); where the
 * library left no message, the errno's text: never an empty line.
 */
const char *cli_errmsg(int err);

/* ---- cli_opts.c: the subcommands' command lines ---- */

/*
 * getopt_long(3) over @argv (argv[@argc] NULL, as main()'s: musl looks
 * there for a missing value) with the long options @opts (ending in a zeroed
 * entry; an option whose val is a letter has that short form too) and the
 * CLI's messages. Set optind = 0 before the first call: a process may parse
 * several command lines (the tests do). "--opt=value" and "--opt value" are
 * one; a unique abbreviation names its option; "--" ends the options, the
 * arguments after it start at argv[optind].
 *
 * Return: an option's val (its value in optarg); 1 for an argument that is
 * no option (in optarg); -1 at the end; '?' with the complaint in @err for
 * an unknown or ambiguous option, a missing value or a value given to an
 * option that takes none, each naming the option. Where the command takes
 * no arguments (!@args), an argument, before "--" or after it, is '?' too.
 */
int cli_getopt(int argc, char **argv, const struct option *opts, bool args, char *err,
	       size_t errsz);

/* The options of a command that takes only --json and --help (probe, list). */
#define CLI_OPT_JSON 256
extern const struct option cli_json_options[];

/* Format a complaint about the command line into @err. Return: -EINVAL. */
int cli_complain(char *err, size_t errsz, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Say "selfmon @cmd: @err" on stderr, and where the options are listed
 * ('selfmon @cmd --help'). Return: EXIT_USAGE.
 */
int cli_usage_error(const char *cmd, const char *err);

/* Close @f (a file of --out) and report a write error. Return: 0 or -EIO. */
int cli_fclose(FILE *f, const char *who, const char *name);
/*
 * A file of --out, written whole (<selfmon/outfile.h>): a new file beside @path,
 * its name in *@tmp (NULL where @path is a device or a FIFO, written in
 * place). Return: the stream, or NULL after a message on stderr.
 */
FILE *cli_outfile_open(const char *who, const char *path, char **tmp);

/*
 * Close @f; if @ok and every write went through, fsync it and rename *@tmp
 * over @path, else remove it and leave the old @path as it was. Frees @tmp.
 * Return: 0 or -errno (reported on stderr).
 */
int cli_outfile_close(FILE *f, const char *who, const char *path, char *tmp, bool ok);

/* Untrusted text in XML and JSON: util/text.h. */

int cmd_bench(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_list(int argc, char **argv);

/* ---- kernels.c ---- */

struct cli_kernel {
	const char *name;
	const char *what;
	selfmon_bench_fn fn;
	void *arg;
	/* Instructions retired per iteration, exactly, on this arch; < 0: not fixed. */
	const int *insns;
};

extern const struct cli_kernel cli_kernels[];
extern const int cli_kernels_nr;

/* Fill the patterns, the pointer ring and the buffers. Idempotent. */
void cli_kernels__init(void);

/* --filter REGEX of bench and record: the kernels whose name a POSIX extended regex matches. */
struct cli_kernel_filter {
	regex_t re;
	bool has_re;
};

/*
 * Compile @regex (NULL: every name matches). Return: 0, or -EINVAL with
 * "--filter '<regex>': <regerror>" in @err.
 */
int cli_kernel_filter__init(struct cli_kernel_filter *f, const char *regex, char *err,
			    size_t errsz);
bool cli_kernel_filter__match(const struct cli_kernel_filter *f, const char *name);
void cli_kernel_filter__fini(struct cli_kernel_filter *f);

/*
 * A row of a cost section (readcost, samplecost, markercost): its name in
 * the report and the body that measures it, whose arg is the section's
 * object. Each section has one table of them, indexed by its kind.
 */
struct cli_cost_row {
	const char *name;
	selfmon_bench_fn body;
};

/* ---- readcost.c: one read of the same event, three ways ---- */

enum cli_readcost_kind {
	CLI_READCOST_EMPTY, /* the loop without a read: subtracted */
	CLI_READCOST_SELFMON, /* selfmon_page__read_value() */
	CLI_READCOST_LIBPERF, /* perf_evsel__read() on an mmapped evsel */
	CLI_READCOST_SYSCALL, /* read(2) on an fd of the event */
	/*
	 * selfmon_set__read(): the call, on every machine (where the inline
	 * read is "not measured" too); its cost is compared with read(2)'s
	 * in the same run, measured right before it.
	 */
	CLI_READCOST_SET,
	CLI_READCOST__NR,
};

struct cli_readcost;

/*
 * Open the event to read: "instructions:u" where a hardware PMU has it, else
 * "task-clock". Return: the object, or NULL with errno (selfmon_errmsg()).
 */
struct cli_readcost *cli_readcost__open(const struct selfmon_opts *opts);
void cli_readcost__close(struct cli_readcost *rc);
/* The event read, and whether the selfmon inline read works on it (else why not). */
const char *cli_readcost__event(const struct cli_readcost *rc);
bool cli_readcost__inline_ok(const struct cli_readcost *rc, const char **why);
/* The rows, each reading @iters times its kind's way; their arg is the readcost. */
extern const struct cli_cost_row cli_readcost__rows[CLI_READCOST__NR];
/*
 * selfmon_set__read() against a bare read(2) of the same event, interleaved:
 * @rounds rounds, each timing @n calls of one and @n of the other (which goes
 * first alternates), so that a slow stretch of the machine weighs on both.
 * Return: the median over rounds of set_read time / read(2) time, or a
 * negative number if a read failed.
 */
double cli_readcost__interleaved(struct cli_readcost *rc, int rounds, uint64_t n);

/* ---- samplecost.c: reading one sample, selfmon's drain and libperf's loop ---- */

enum cli_samplecost_kind {
	CLI_SAMPLECOST_EMPTY, /* records published, none parsed: subtracted */
	CLI_SAMPLECOST_SELFMON, /* selfmon_sampler__drain(), parse included */
	CLI_SAMPLECOST_LIBPERF, /* perf_mmap__read_event() + consume, no parse */
	CLI_SAMPLECOST__NR,
};

struct cli_samplecost;

/*
 * A ring of 64-byte samples that both readers read (samplecost.c says how).
 * Return: the object, or NULL with errno (selfmon_errmsg()).
 */
struct cli_samplecost *cli_samplecost__open(void);
void cli_samplecost__close(struct cli_samplecost *sc);
/* The rows, each reading @iters samples its kind's way; their arg is the samplecost. */
extern const struct cli_cost_row cli_samplecost__rows[CLI_SAMPLECOST__NR];
/* Records the readers have handed out so far (a check that they read). */
uint64_t cli_samplecost__records(const struct cli_samplecost *sc);

struct perf_evlist;
struct perf_evsel;

/*
 * Unmap, close and delete an evlist of one mapped evsel, and the evsel's own
 * mapping (perf_evsel__mmap()); an evsel with no evlist is deleted alone.
 * Written once for every libperf from 6.1 on (samplecost.c says why).
 */
void cli_evlist__close_mapped(struct perf_evlist *evlist, struct perf_evsel *evsel);

/* ---- markercost.c: a marker pair beside its bare reads ---- */

enum cli_markercost_kind {
	CLI_MARKERCOST_EMPTY, /* the loop alone: subtracted */
	CLI_MARKERCOST_INLINE, /* the 4 bare inline reads of a pair with 2 events */
	CLI_MARKERCOST_CACHED, /* SELFMON_MARKER_BEGIN/END */
	CLI_MARKERCOST_NAMED, /* selfmon_marker__begin/end by name */
	CLI_MARKERCOST_READ_ALL, /* selfmon_set__read_all of the 2-event group */
	CLI_MARKERCOST__NR,
};

struct cli_markercost;

/* Open the 2-event group the bare reads read. Return: the object, or NULL with errno. */
struct cli_markercost *cli_markercost__open(void);
void cli_markercost__close(struct cli_markercost *mc);
/* Whether both events have an inline read here. */
bool cli_markercost__inline_ok(const struct cli_markercost *mc);
/* The rows, each its kind's pair or reads @iters times; their arg is the markercost. */
extern const struct cli_cost_row cli_markercost__rows[CLI_MARKERCOST__NR];

/* ---- bench_options.c: `selfmon bench` command line ---- */

enum cli_bench_format { CLI_FORMAT_TABLE, CLI_FORMAT_CSV, CLI_FORMAT_JSON };

struct cli_bench {
	bool help, list, serialize, keep_noisy;
	const char *filter; /* POSIX extended regex on benchmark names */
	const char *events;
	/* --metrics: metric and metric-group names, counted beside the events */
	const char *metrics;
	int repetitions;
	double min_time;
	int warmup;
	uint64_t iterations;
	const char *cpu, *cluster;
	enum cli_bench_format format;
	const char *out;
	int calibration; /* enum selfmon_calib */
};

/*
 * Parse `selfmon bench` options (argv[0] is "bench"). Return: 0, or -EINVAL
 * with the complaint in @err.
 */
int cli_bench__parse(int argc, char **argv, struct cli_bench *cli, char *err, size_t errsz);

/* The writers are the library's: <selfmon/report.h>. */

#endif
