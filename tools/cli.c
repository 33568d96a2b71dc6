// SPDX-License-Identifier: MIT
/* What every subcommand shares: safe text for the terminal, checked output. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <selfmon/selfmon.h>
#include "../util/text.h"
#include "cli.h"

#define CLI_TEXT_BUFS 8
#define CLI_TEXT_MAX 2048

const char *cli_text(const char *s)
{
	static char bufs[CLI_TEXT_BUFS][CLI_TEXT_MAX];
	static unsigned int next;

	return s ? util_text_escape(bufs[next++ % CLI_TEXT_BUFS], CLI_TEXT_MAX, s) : "(null)";
}

const char *cli_errmsg(int err)
{
	const char *msg = selfmon_errmsg();

	return cli_text(msg && *msg ? msg : selfmon_strerror(err ? err : -EIO));
}

int cli_close_stdout(const char *who)
{
	static int reported;
	int bad = fflush(stdout) != 0 || ferror(stdout);

	if (!bad)
		return 0;
	/* Once: a subcommand checks, then main() again for every subcommand. */
	if (reported++)
		return -EIO;
	fprintf(stderr, "%s: cannot write the output: %s\n", who, strerror(errno ? errno : EIO));
	return -EIO;
}

int cli_fclose(FILE *f, const char *who, const char *name)
{
	int bad = ferror(f);

	errno = 0;
	/* The flush first: its errno (ENOSPC) says more than fclose's. */
	bad |= fflush(f) != 0;
	bad |= fclose(f) != 0;
	if (!bad)
		return 0;
	fprintf(stderr, "%s: cannot write '%s': %s\n", who, cli_text(name),
		strerror(errno ? errno : EIO));
	return -EIO;
}
