/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_TOOLS_CMD_H
#define SELFMON_TOOLS_CMD_H

#include <stdio.h>

/* Exit codes of every subcommand. */
#define EXIT_USER_READ		0	/* probe: user-space reads work here */
#define EXIT_NO_USER_READ	1	/* probe: they do not (and it said why) */
#define EXIT_USAGE		2

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

/* Close @f (a file of --out) and report a write error. Return: 0 or -EIO. */
int cli_fclose(FILE *f, const char *who, const char *name);
int cmd_bench(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_list(int argc, char **argv);

#endif
