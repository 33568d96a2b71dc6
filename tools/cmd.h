/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_TOOLS_CMD_H
#define SELFMON_TOOLS_CMD_H

/* Exit codes of every subcommand. */
#define EXIT_USER_READ		0	/* probe: user-space reads work here */
#define EXIT_NO_USER_READ	1	/* probe: they do not (and it said why) */
#define EXIT_USAGE		2

int cmd_probe(int argc, char **argv);
int cmd_bench(int argc, char **argv);

#endif
