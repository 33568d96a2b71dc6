// SPDX-License-Identifier: MIT
/* The `selfmon bench` command line: parsed here so that tests can feed it. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* A whole-string unsigned integer within [lo, hi]. */
static int parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *v)
{
	char *end;

	if (!s || !*s || *s == '-')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno || *end || *v < lo || *v > hi)
		return -EINVAL;
	return 0;
}

static int parse_seconds(const char *s, double *v)
{
	char *end;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	*v = strtod(s, &end);
	/* A trailing "s" reads as seconds, as Google Benchmark's --benchmark_min_time allows. */
	if (*end == 's')
		end++;
	if (errno || *end || !(*v >= 0) || *v > 3600)
		return -EINVAL;
	return 0;
}

/* Not an option of this kind: the caller tries the next. */
#define NOT_MINE 1

/* The long-only options' vals: past any character. */
enum {
	OPT_LIST = 256,
	OPT_SERIALIZE,
	OPT_KEEP_NOISY,
	OPT_FILTER,
	OPT_EVENTS,
	OPT_METRICS,
	OPT_REPETITIONS,
	OPT_MIN_TIME,
	OPT_WARMUP,
	OPT_ITERATIONS,
	OPT_CPU,
	OPT_CLUSTER,
	OPT_FORMAT,
	OPT_OUT,
	OPT_CALIBRATION,
};

static const struct option bench_options[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "list", no_argument, NULL, OPT_LIST },
	{ "serialize", no_argument, NULL, OPT_SERIALIZE },
	{ "keep-noisy", no_argument, NULL, OPT_KEEP_NOISY },
	{ "filter", required_argument, NULL, OPT_FILTER },
	{ "events", required_argument, NULL, OPT_EVENTS },
	{ "metrics", required_argument, NULL, OPT_METRICS },
	{ "repetitions", required_argument, NULL, OPT_REPETITIONS },
	{ "min-time", required_argument, NULL, OPT_MIN_TIME },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ "iterations", required_argument, NULL, OPT_ITERATIONS },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "cluster", required_argument, NULL, OPT_CLUSTER },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "out", required_argument, NULL, OPT_OUT },
	{ "calibration", required_argument, NULL, OPT_CALIBRATION },
	{ 0 },
};

/* Text option @val into *@dst; an empty one is refused with @why. Return: 0 or -EINVAL. */
static int nonempty(const char **dst, const char *val, const char *why, char *err, size_t errsz)
{
	if (!*val)
		return cli_complain(err, errsz, "%s", why);
	*dst = val;
	return 0;
}

/* The flag option @opt sets; NULL when @opt takes a value. */
static bool *flag_of(struct cli_bench *cli, int opt)
{
	return opt == 'h'	     ? &cli->help :
	       opt == OPT_LIST	     ? &cli->list :
	       opt == OPT_SERIALIZE  ? &cli->serialize :
	       opt == OPT_KEEP_NOISY ? &cli->keep_noisy :
				       NULL;
}

/* The flags and the options whose value is text. Return: 0, NOT_MINE or -EINVAL. */
static int set_text(struct cli_bench *cli, int opt, const char *val, char *err, size_t errsz)
{
	bool *flag = flag_of(cli, opt);

	if (flag) {
		*flag = true;
		return 0;
	}
	switch (opt) {
	case OPT_FILTER:
		cli->filter = val;
		break;
	case OPT_EVENTS:
		return nonempty(&cli->events, val, "--events: empty event list", err, errsz);
	case OPT_METRICS:
		return nonempty(&cli->metrics, val,
				"--metrics: empty list (metric or group names; selfmon list shows them)",
				err, errsz);
	case OPT_CLUSTER:
		return nonempty(&cli->cluster, val,
				"--cluster: empty name (a core PMU, 'big' or 'little')", err, errsz);
	case OPT_OUT:
		return nonempty(&cli->out, val, "--out: empty file name", err, errsz);
	default:
		return NOT_MINE;
	}
	return 0;
}

/* The options whose value is a number. Return: 0, NOT_MINE or -EINVAL. */
static int set_number(struct cli_bench *cli, int opt, const char *val, char *err, size_t errsz)
{
	uint64_t u;

	switch (opt) {
	case OPT_REPETITIONS:
		if (parse_u64(val, 1, 100000, &u))
			return cli_complain(err, errsz,
					    "--repetitions '%s': a number from 1 to 100000", val);
		cli->repetitions = (int)u;
		break;
	case OPT_WARMUP:
		if (parse_u64(val, 0, 1000, &u))
			return cli_complain(err, errsz, "--warmup '%s': a number from 0 to 1000",
					    val);
		cli->warmup = (int)u;
		break;
	case OPT_ITERATIONS:
		if (parse_u64(val, 1, 1000000000ull, &u))
			return cli_complain(err, errsz,
					    "--iterations '%s': a number from 1 to 10^9", val);
		cli->iterations = u;
		break;
	case OPT_MIN_TIME:
		if (parse_seconds(val, &cli->min_time))
			return cli_complain(err, errsz, "--min-time '%s': seconds, from 0 to 3600",
					    val);
		break;
	case OPT_CPU:
		if (parse_u64(val, 0, 4095, &u))
			return cli_complain(err, errsz, "--cpu '%s': a CPU number", val);
		cli->cpu = val;
		break;
	default:
		return NOT_MINE;
	}
	return 0;
}

/* The options whose value is one of a few words. Return: 0, NOT_MINE or -EINVAL. */
static int set_choice(struct cli_bench *cli, int opt, const char *val, char *err, size_t errsz)
{
	if (opt == OPT_FORMAT) {
		if (!strcmp(val, "table"))
			cli->format = CLI_FORMAT_TABLE;
		else if (!strcmp(val, "csv"))
			cli->format = CLI_FORMAT_CSV;
		else if (!strcmp(val, "json"))
			cli->format = CLI_FORMAT_JSON;
		else
			return cli_complain(err, errsz, "--format '%s': table, csv or json", val);
	} else if (opt == OPT_CALIBRATION) {
		if (!strcmp(val, "two-length"))
			cli->calibration = SELFMON_CALIB_TWO_LENGTH;
		else if (!strcmp(val, "empty"))
			cli->calibration = SELFMON_CALIB_EMPTY;
		else
			return cli_complain(err, errsz, "--calibration '%s': empty or two-length",
					    val);
	} else {
		return NOT_MINE;
	}
	return 0;
}

int cli_bench__parse(int argc, char **argv, struct cli_bench *cli, char *err, size_t errsz)
{
	int opt;

	memset(cli, 0, sizeof(*cli));
	cli->repetitions = 10;
	cli->warmup = 1;
	cli->format = CLI_FORMAT_TABLE;
	cli->calibration = SELFMON_CALIB_TWO_LENGTH;
	if (err && errsz)
		err[0] = '\0';

	optind = 0;
	while ((opt = cli_getopt(argc, argv, bench_options, false, err, errsz)) != -1) {
		int r = opt == '?' ? -EINVAL : set_text(cli, opt, optarg, err, errsz);

		if (r == NOT_MINE)
			r = set_number(cli, opt, optarg, err, errsz);
		if (r == NOT_MINE)
			r = set_choice(cli, opt, optarg, err, errsz);
		if (r)
			return -EINVAL;
	}
	if (cli->cpu && cli->cluster)
		return cli_complain(err, errsz,
				    "--cpu and --cluster both pin the thread: give one");
	return 0;
}
