// SPDX-License-Identifier: MIT
/*
 * The files the CLI writes (--out): whole or not at all, through the
 * library's <selfmon/outfile.h>, as perf.data is, and on the disk before
 * it replaces the old one. A failed run removes the new file and leaves the
 * old one as it was.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <selfmon/outfile.h>
#include "cli.h"

FILE *cli_outfile_open(const char *who, const char *path, char **tmp)
{
	int fd = selfmon_outfile__open("--out", path, tmp);
	FILE *f;

	if (fd < 0) {
		fprintf(stderr, "%s: %s\n", who, cli_errmsg(fd));
		return NULL;
	}
	f = fdopen(fd, "w");
	if (!f) {
		fprintf(stderr, "%s: --out '%s': %s\n", who, cli_text(path), strerror(errno));
		close(fd);
		selfmon_outfile__discard(*tmp);
		*tmp = NULL;
	}
	return f;
}

int cli_outfile_close(FILE *f, const char *who, const char *path, char *tmp, bool ok)
{
	int err = 0;

	/*
	 * On the disk before the rename: rename(2) orders nothing by itself, and
	 * a power cut after it must find the old file or the new one, not an
	 * empty one. A failed flush is cli_fclose()'s to report.
	 */
	if (ok && tmp && !fflush(f) && fsync(fileno(f))) {
		err = -errno;
		fprintf(stderr, "%s: cannot write '%s': %s\n", who, cli_text(tmp), strerror(-err));
	}
	err = cli_fclose(f, who, path) ? -EIO : err;
	if (!ok || err) {
		selfmon_outfile__discard(tmp);
		return err;
	}
	/* On failure the new file is kept: it holds the output, and the message names it. */
	err = selfmon_outfile__commit("--out", path, tmp, false);
	if (err)
		fprintf(stderr, "%s: %s\n", who, cli_errmsg(err));
	return err;
}
