// SPDX-License-Identifier: MIT
/* selfmon: the command-line tool. One subcommand per file: tools/<cmd>.c. */
#include <stdio.h>
#include <string.h>

#include <selfmon/selfmon.h>
#include "cli.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} cmds[] = {
	{ "probe", cmd_probe,
	  "explain this machine: PMUs, gates, and the read path of each event" },
	{ "bench", cmd_bench,
	  "measure built-in kernels and the read cost with inline counter reads" },
	{ "record", cmd_record, "sample the built-in kernels: perf.data and samples per function" },
	{ "compare", cmd_compare,
	  "compare two JSON reports against limits: exit 1 on a regression" },
	{ "list", cmd_list,
	  "the named events and metrics of this machine's cores (pmu-events tables)" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: selfmon <command> [options]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-8s %s\n", cmds[i].name, cmds[i].help);
	fprintf(f, "\n'selfmon <command> --help' for its options. Version %s.\n",
		selfmon_version());
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return cli_close_stdout("selfmon") ? 2 : 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("selfmon %s\n", selfmon_version());
		return cli_close_stdout("selfmon") ? 2 : 0;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (!strcmp(argv[1], cmds[i].name)) {
			int rc = cmds[i].fn(argc - 1, argv + 1);

			/* Output that did not reach its file is a failure, whatever the command. */
			return cli_close_stdout("selfmon") && !rc ? 2 : rc;
		}
	}
	fprintf(stderr, "selfmon: unknown command '%s'\n\n", cli_text(argv[1]));
	usage(stderr);
	return 2;
}
