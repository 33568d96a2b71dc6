/* SPDX-License-Identifier: MIT */
/*
 * selfmon outfile: a file written whole or not at all, as perf.data and the
 * CLI's --out are. The output goes to a new name beside the file, renamed
 * over it once complete (rename(2): "If newpath already exists, it will be
 * atomically replaced"), so that the file holds the old contents or the
 * finished ones, never half; a failed run removes the new name and leaves
 * the old file as it was.
 */
#ifndef SELFMON_OUTFILE_H
#define SELFMON_OUTFILE_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * selfmon_outfile__open() - open a file to be written whole
 * @what: what the file is, for messages ("perf.data", "--out")
 * @path: the file. When it exists, it must be a regular file (replaced,
 *	never written through), or a character device or FIFO (/dev/null, a
 *	pipe: written in place). A symbolic link is followed only to such a
 *	device: never into a file, never to create its missing target.
 * @tmp: set to the new name beside @path ("@path.part-XXXXXX", created with
 *	O_CREAT | O_EXCL | O_NOFOLLOW: a link planted there is never
 *	followed), or NULL where @path is written in place. It goes to
 *	selfmon_outfile__commit() or selfmon_outfile__discard().
 *
 * Return: the fd (open for reading and writing), or -errno with
 * selfmon_errmsg() naming @what and @path.
 */
int selfmon_outfile__open(const char *what, const char *path, char **tmp);

/**
 * selfmon_outfile__commit() - put the finished file in place
 * @what: as to selfmon_outfile__open()
 * @path: as to selfmon_outfile__open()
 * @tmp: its name from selfmon_outfile__open(), renamed over @path; NULL
 *	(written in place) does nothing. Freed.
 * @keep_old: keep an existing @path as "@path.old" first, as perf record does
 *
 * @tmp is written to the disk (fsync(2)) before the rename, so that a power
 * cut leaves @path with the old file or the new one, never an empty or a
 * short one. The caller closes (or flushes) its descriptor first.
 * On failure the new file stays at @tmp, and the message names it.
 *
 * Return: 0 or -errno (selfmon_errmsg() says why).
 */
int selfmon_outfile__commit(const char *what, const char *path, char *tmp, bool keep_old);

/**
 * selfmon_outfile__discard() - remove an unfinished file and free its name
 * @tmp: its name from selfmon_outfile__open(); NULL is fine. The old @path
 *	stays as it was.
 */
void selfmon_outfile__discard(char *tmp);

#ifdef __cplusplus
}
#endif

#endif
