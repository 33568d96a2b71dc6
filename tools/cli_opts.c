// SPDX-License-Identifier: MIT
/*
 * The subcommands' command lines: getopt_long(3) (glibc's and musl's alike)
 * with the CLI's own messages instead of getopt's, which name neither the
 * subcommand nor the fix.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

/*
 * getopt_long's short options for @opts: "-:" (arguments in order, returned
 * as 1; ':' for a missing value, no message of getopt's own), then each
 * option whose val is a letter.
 */
static const char *short_options(const struct option *opts, char *buf, size_t size)
{
	size_t n = 0;

	buf[n++] = '-';
	buf[n++] = ':';
	for (; opts->name && n + 3 < size; opts++) {
		if (opts->flag || opts->val < 'A' || opts->val > 'z')
			continue;
		buf[n++] = (char)opts->val;
		if (opts->has_arg == required_argument)
			buf[n++] = ':';
	}
	buf[n] = '\0';
	return buf;
}

/* The long option whose val is @val, or NULL. */
static const struct option *by_val(const struct option *opts, int val)
{
	for (; opts->name; opts++)
		if (!opts->flag && opts->val == val)
			return opts;
	return NULL;
}

/*
 * What getopt refused in @arg ("--name[=value]" or "-x"): an abbreviation
 * that fits two options, or an option this command does not have.
 */
static void say_unknown(const struct option *opts, const char *arg, char *err, size_t errsz)
{
	int len = (int)strcspn(arg, "="), nr = 0;
	const char *first = NULL, *second = NULL;

	if (arg[0] == '-' && arg[1] == '-' && len > 2) {
		for (const struct option *o = opts; o->name; o++) {
			if (strncmp(o->name, arg + 2, (size_t)len - 2))
				continue;
			*(nr++ ? &second : &first) = o->name;
		}
	}
	if (nr > 1 && first && second)
		snprintf(err, errsz, "ambiguous option '%.*s' (--%s, --%s%s)", len, arg, first,
			 second, nr > 2 ? ", ..." : "");
	else
		snprintf(err, errsz, "unknown option '%.*s'", len, arg);
}

const struct option cli_json_options[] = {
	{ "json", no_argument, NULL, CLI_OPT_JSON },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

int cli_getopt(int argc, char **argv, const struct option *opts, bool args, char *err, size_t errsz)
{
	char shorts[64];
	const struct option *o;
	int c;

	opterr = 0;
	c = getopt_long(argc, argv, short_options(opts, shorts, sizeof(shorts)), opts, NULL);
	if (!args && (c == 1 || (c == -1 && optind < argc))) {
		snprintf(err, errsz, "unexpected argument '%s' (options start with --)",
			 c == 1 ? optarg : argv[optind]);
		return '?';
	}
	if (c != '?' && c != ':')
		return c;
	o = optopt ? by_val(opts, optopt) : NULL;
	if (c == ':' && o)
		snprintf(err, errsz, "--%s needs a value", o->name);
	else if (o)
		snprintf(err, errsz, "--%s takes no value", o->name);
	else if (optopt)
		snprintf(err, errsz, "unknown option '-%c'", optopt);
	else
		say_unknown(opts, argv[optind - 1], err, errsz);
	return '?';
}

int cli_usage_error(const char *cmd, const char *err)
{
	fprintf(stderr, "selfmon %s: %s\n'selfmon %s --help' lists the options.\n", cmd,
		cli_text(err), cmd);
	return EXIT_USAGE;
}

int cli_complain(char *err, size_t errsz, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errsz, fmt, ap);
	va_end(ap);
	return -EINVAL;
}
