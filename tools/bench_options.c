// SPDX-License-Identifier: MIT
/* The `selfmon bench` command line: parsed here so that tests can feed it. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int complain(char *err, size_t errsz, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int complain(char *err, size_t errsz, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errsz, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

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

/*
 * Option @argv[*@i]'s name into @name and its value, if it takes one, into
 * *@val ("--name=value" or the next argument, which *@i then passes).
 * Return: 0 or -EINVAL with the complaint in @err.
 */
static int split_option(int argc, char **argv, int *i, char *name, size_t namesz, const char **val,
			char *err, size_t errsz)
{
	static const char *const with_value[] = {
		"--filter", "--events",	     "--metrics", "--repetitions", "--min-time",
		"--warmup", "--iterations",  "--cpu",	  "--cluster",	   "--format",
		"--out",    "--calibration", NULL,
	};
	const char *opt = argv[*i], *eq = strchr(opt, '=');
	int takes = 0;

	*val = NULL;
	if (strncmp(opt, "--", 2) && strcmp(opt, "-h"))
		return complain(err, errsz, "unexpected argument '%s' (options start with --)",
				opt);
	snprintf(name, namesz, "%.*s", eq ? (int)(eq - opt) : (int)strlen(opt), opt);
	for (int k = 0; with_value[k]; k++)
		takes |= !strcmp(name, with_value[k]);
	if (takes) {
		if (eq)
			*val = eq + 1;
		else if (*i + 1 < argc)
			*val = argv[++*i];
		else
			return complain(err, errsz, "%s needs a value", name);
	} else if (eq) {
		return complain(err, errsz, "%s takes no value", name);
	}
	return 0;
}

/* The flags and the options whose value is text. Return: 0, NOT_MINE or -EINVAL. */
static int set_text(struct cli_bench *cli, const char *name, const char *val, char *err,
		    size_t errsz)
{
	if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
		cli->help = true;
	} else if (!strcmp(name, "--list")) {
		cli->list = true;
	} else if (!strcmp(name, "--serialize")) {
		cli->serialize = true;
	} else if (!strcmp(name, "--keep-noisy")) {
		cli->keep_noisy = true;
	} else if (!strcmp(name, "--filter")) {
		cli->filter = val;
	} else if (!strcmp(name, "--events")) {
		if (!*val)
			return complain(err, errsz, "--events: empty event list");
		cli->events = val;
	} else if (!strcmp(name, "--metrics")) {
		if (!*val)
			return complain(
				err, errsz,
				"--metrics: empty list (metric or group names; selfmon list shows them)");
		cli->metrics = val;
	} else if (!strcmp(name, "--cluster")) {
		if (!*val)
			return complain(err, errsz,
					"--cluster: empty name (a core PMU, 'big' or 'little')");
		cli->cluster = val;
	} else if (!strcmp(name, "--out")) {
		if (!*val)
			return complain(err, errsz, "--out: empty file name");
		cli->out = val;
	} else {
		return NOT_MINE;
	}
	return 0;
}

/* The options whose value is a number. Return: 0, NOT_MINE or -EINVAL. */
static int set_number(struct cli_bench *cli, const char *name, const char *val, char *err,
		      size_t errsz)
{
	uint64_t u;

	if (!strcmp(name, "--repetitions")) {
		if (parse_u64(val, 1, 100000, &u))
			return complain(err, errsz, "--repetitions '%s': a number from 1 to 100000",
					val);
		cli->repetitions = (int)u;
	} else if (!strcmp(name, "--warmup")) {
		if (parse_u64(val, 0, 1000, &u))
			return complain(err, errsz, "--warmup '%s': a number from 0 to 1000", val);
		cli->warmup = (int)u;
	} else if (!strcmp(name, "--iterations")) {
		if (parse_u64(val, 1, 1000000000ull, &u))
			return complain(err, errsz, "--iterations '%s': a number from 1 to 10^9",
					val);
		cli->iterations = u;
	} else if (!strcmp(name, "--min-time")) {
		if (parse_seconds(val, &cli->min_time))
			return complain(err, errsz, "--min-time '%s': seconds, from 0 to 3600",
					val);
	} else if (!strcmp(name, "--cpu")) {
		if (parse_u64(val, 0, 4095, &u))
			return complain(err, errsz, "--cpu '%s': a CPU number", val);
		cli->cpu = val;
	} else {
		return NOT_MINE;
	}
	return 0;
}

/* The options whose value is one of a few words. Return: 0, NOT_MINE or -EINVAL. */
static int set_choice(struct cli_bench *cli, const char *name, const char *val, char *err,
		      size_t errsz)
{
	if (!strcmp(name, "--format")) {
		if (!strcmp(val, "table"))
			cli->format = CLI_FORMAT_TABLE;
		else if (!strcmp(val, "csv"))
			cli->format = CLI_FORMAT_CSV;
		else if (!strcmp(val, "json"))
			cli->format = CLI_FORMAT_JSON;
		else
			return complain(err, errsz, "--format '%s': table, csv or json", val);
	} else if (!strcmp(name, "--calibration")) {
		if (!strcmp(val, "two-length"))
			cli->calibration = SELFMON_CALIB_TWO_LENGTH;
		else if (!strcmp(val, "empty"))
			cli->calibration = SELFMON_CALIB_EMPTY;
		else
			return complain(err, errsz, "--calibration '%s': empty or two-length", val);
	} else {
		return NOT_MINE;
	}
	return 0;
}

int cli_bench__parse(int argc, char **argv, struct cli_bench *cli, char *err, size_t errsz)
{
	memset(cli, 0, sizeof(*cli));
	cli->repetitions = 10;
	cli->warmup = 1;
	cli->format = CLI_FORMAT_TABLE;
	cli->calibration = SELFMON_CALIB_TWO_LENGTH;
	if (err && errsz)
		err[0] = '\0';

	for (int i = 1; i < argc; i++) {
		const char *val;
		char name[32];
		int r = split_option(argc, argv, &i, name, sizeof(name), &val, err, errsz);

		if (!r)
			r = set_text(cli, name, val, err, errsz);
		if (r == NOT_MINE)
			r = set_number(cli, name, val, err, errsz);
		if (r == NOT_MINE)
			r = set_choice(cli, name, val, err, errsz);
		if (r == NOT_MINE)
			return complain(err, errsz, "unknown option '%s'", name);
		if (r)
			return r;
	}
	if (cli->cpu && cli->cluster)
		return complain(err, errsz, "--cpu and --cluster both pin the thread: give one");
	return 0;
}
