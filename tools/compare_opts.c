// SPDX-License-Identifier: MIT
/* The `selfmon compare` command line and its --help. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compare.h"

void cli_compare_usage(FILE *f)
{
	fprintf(f,
		"usage: selfmon compare [options] BASE.json NEW.json\n"
		"       selfmon compare [options] --base B1.json --base B2.json ... --new N1.json ...\n"
		"Compare two reports of `selfmon bench --format json` (or of <selfmon/report.h>, or Google\n"
		"Benchmark's JSON): every benchmark and every metric, the medians per iteration.\n\n"
		"  --base FILE, --new FILE  a report of one side (repeatable): the repetitions of a side's\n"
		"                         reports are pooled. On a noisy machine run the two sides\n"
		"                         alternately, for instance 15 runs of --repetitions 1 each in the\n"
		"                         order B N N B B N ...: a change in the machine's load then hits\n"
		"                         both alike (docs/compare.md; two sequential runs drift apart)\n"
		"  --limit METRIC=+N%%     allowed increase, in %% of the base median (repeatable)\n"
		"  --limit METRIC=+N      the same, absolute, in the metric's unit (time: ns, or +2us, +1ms)\n"
		"                         METRIC is time, cpu_time or a counter (instructions matches\n"
		"                         instructions:u). Defaults: time=+10%% cpu_time=+10%%\n"
		"                         instructions=+0.5%% cycles=+5%% any other counter +5%%\n"
		"  --metric NAME          compare only this metric (repeatable; default: all of them)\n"
		"  --filter REGEX         compare only the benchmarks whose name matches (extended regex)\n"
		"  --alpha A              significance of the U test on noisy metrics (default 0.05): the\n"
		"                         family-wise rate over all noisy metrics compared (Holm's correction)\n"
		"  --format table|json|junit|lava  (default table; junit: JUnit XML; lava: lava-test-case lines)\n"
		"  --out FILE             write the --format there; a json, junit or lava file has\n"
		"                         the table on stdout beside it (one run for a file and a log)\n"
		"  --allow-missing        list benchmarks or metrics on one side only, but do not fail on them\n\n"
		"A metric whose repetitions are all equal on both sides (exact counts on the board) is\n"
		"compared exactly. A noisy one is a regression when its median and its minimum rise beyond\n"
		"the limit and a two-sided Mann-Whitney U test at --alpha says the change is significant\n"
		"(the minimum: load on a busy machine mostly adds time, a real change moves both; a value\n"
		"below both sides' far-out fence, Q1 - 3 IQR, is a disturbed measurement and not the\n"
		"minimum); that needs %d repetitions on each side (selfmon bench --repetitions %d or more,\n"
		"or as many runs), else it is reported 'unsure' and not judged; so is a change beyond\n"
		"the limit that the U test does not call significant, and a median within the limit\n"
		"whose shift's 1 - 2 alpha interval reaches beyond it (too noisy to judge): 'same' is\n"
		"only what the data shows within the limit. A median that rises\n"
		"beyond the limit, significantly, while the minimum stays within it is 'inconclusive'\n"
		"(a slowdown, or load on one run: rerun the sides alternately). Decreases beyond the\n"
		"limit are reported as improvements.\n\n"
		"A repetition that failed (Google Benchmark's error_occurred) or was skipped is no\n"
		"measurement: a benchmark that failed on NEW fails the gate, with its message; one that\n"
		"failed on BASE, or was skipped on one side, cannot be compared (as one-sided);\n"
		"aggregates (mean, median, stddev, cv) are left out, the repetitions are what counts.\n\n"
		"Exit status: 0 no regression, 1 a regression or a benchmark that failed on NEW, 2 bad\n"
		"input (a file that cannot be read, malformed JSON, a value out of range, an unknown\n"
		"metric, benchmarks or metrics on one side only, a benchmark that failed on BASE or was\n"
		"skipped on one side; --allow-missing excuses these last three), 3 no regression but an\n"
		"inconclusive rise.\n",
		CLI_COMPARE_MIN_REPS, CLI_COMPARE_MIN_REPS);
}

/* The long-only options' vals: past any character. */
enum {
	OPT_LIMIT = 256,
	OPT_METRIC,
	OPT_FILTER,
	OPT_ALPHA,
	OPT_FORMAT,
	OPT_OUT,
	OPT_BASE,
	OPT_NEW,
	OPT_ALLOW_MISSING,
};

static const struct option compare_options[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "limit", required_argument, NULL, OPT_LIMIT },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "filter", required_argument, NULL, OPT_FILTER },
	{ "alpha", required_argument, NULL, OPT_ALPHA },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "out", required_argument, NULL, OPT_OUT },
	{ "base", required_argument, NULL, OPT_BASE },
	{ "new", required_argument, NULL, OPT_NEW },
	{ "allow-missing", no_argument, NULL, OPT_ALLOW_MISSING },
	{ 0 },
};

/* The report @path of @side (0: BASE, 1: NEW). Return: 0 or -EINVAL with @err. */
static int add_path(struct cli_compare_args *cli, int side, const char *path, char *err,
		    size_t errsz)
{
	if (cli->nr_paths[side] == CLI_COMPARE_MAX_RUNS)
		return cli_complain(err, errsz, "more than %d reports a side",
				    CLI_COMPARE_MAX_RUNS);
	cli->paths[side][cli->nr_paths[side]++] = path;
	return 0;
}

/* A positional argument: BASE, then NEW. Return: 0 or -EINVAL with @err. */
static int add_positional(struct cli_compare_args *cli, const char *a, char *err, size_t errsz)
{
	if (cli->nr_positional == 2)
		return cli_complain(err, errsz,
				    "one BASE and one NEW report, not '%.60s' as well "
				    "(several runs a side: --base FILE and --new FILE)",
				    a);
	return add_path(cli, cli->nr_positional++, a, err, errsz);
}

static int parse_format(struct cli_compare_args *cli, const char *v, char *err, size_t errsz)
{
	static const char *const names[] = { "table", "json", "junit", "lava" };

	for (int i = 0; i < 4; i++) {
		if (!strcmp(v, names[i])) {
			cli->format = (enum cli_compare_format)i;
			return 0;
		}
	}
	return cli_complain(err, errsz, "--format '%.40s': table, json, junit or lava", v);
}

/* Option @opt with its value @v into @cli. Return: 0 or -EINVAL with @err. */
static int parse_value(struct cli_compare_args *cli, int opt, const char *v, char *err,
		       size_t errsz)
{
	char *end;

	switch (opt) {
	case 'h':
		cli->help = true;
		return 0;
	case OPT_ALLOW_MISSING:
		cli->allow_missing = true;
		return 0;
	case 1:
		return add_positional(cli, v, err, errsz);
	case OPT_BASE:
	case OPT_NEW:
		return add_path(cli, opt == OPT_NEW, v, err, errsz);
	case OPT_LIMIT:
		if (cli->nr_limits == CLI_COMPARE_MAX_LIMITS)
			return cli_complain(err, errsz, "more than %d --limit",
					    CLI_COMPARE_MAX_LIMITS);
		return cli_limit_parse(v, &cli->limits[cli->nr_limits++], err, errsz);
	case OPT_METRIC:
		if (cli->nr_metrics == CLI_COMPARE_MAX_METRICS)
			return cli_complain(err, errsz, "more than %d --metric",
					    CLI_COMPARE_MAX_METRICS);
		cli->metrics[cli->nr_metrics++] = v;
		return 0;
	case OPT_FILTER:
		cli->filter = v;
		return 0;
	case OPT_OUT:
		cli->out = v;
		return 0;
	case OPT_ALPHA:
		cli->alpha = strtod(v, &end);
		if (end == v || *end || !(cli->alpha > 0 && cli->alpha < 1))
			return cli_complain(
				err, errsz,
				"--alpha '%.40s': a number between 0 and 1, such as 0.05", v);
		return 0;
	case OPT_FORMAT:
		return parse_format(cli, v, err, errsz);
	}
	return -EINVAL; /* '?': cli_getopt() said why */
}

int cli_compare_parse(int argc, char **argv, struct cli_compare_args *cli, char *err, size_t errsz)
{
	int opt;

	memset(cli, 0, sizeof(*cli));
	cli->alpha = 0.05;
	optind = 0;
	while ((opt = cli_getopt(argc, argv, compare_options, true, err, errsz)) != -1)
		if (parse_value(cli, opt, optarg, err, errsz))
			return -EINVAL;
	/* After "--": reports only, even one whose name starts with '-'. */
	for (; optind < argc; optind++)
		if (add_positional(cli, argv[optind], err, errsz))
			return -EINVAL;
	if (!cli->help && (!cli->nr_paths[0] || !cli->nr_paths[1] || cli->nr_positional == 1))
		return cli_complain(err, errsz,
				    "two reports are needed: selfmon compare BASE.json NEW.json "
				    "(or --base FILE ... --new FILE ...)");
	return 0;
}
