/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_OUTFILE_H
#define SELFMON_CORE_OUTFILE_H

#include <stdbool.h>

/*
 * A file the library writes whole or not at all. selfmon_outfile__open()
 * creates a temporary name beside @path (O_CREAT | O_EXCL | O_NOFOLLOW: a
 * link planted there is never followed) and returns its fd, the name in
 * *@tmp; selfmon_outfile__commit() renames it over @path once it is
 * complete, so that @path holds the old file or the finished one, never a
 * half-written one. @path itself, when it exists, must be a regular file
 * (replaced, never written through), or a character device or FIFO
 * (/dev/null, a pipe: written in place, *@tmp NULL). A symbolic link is
 * followed only to such a device: never into a file, never to create its
 * missing target. Return: the fd, or -errno with selfmon_errmsg() naming
 * @what and @path.
 */
int selfmon_outfile__open(const char *what, const char *path, char **tmp);

/*
 * Rename @tmp over @path; with @keep_old, an existing @path is kept as
 * "@path.old" first (as perf record does). On failure @tmp stays, and the
 * message names it. NULL @tmp (written in place) is 0. Frees @tmp.
 */
int selfmon_outfile__commit(const char *what, const char *path, char *tmp, bool keep_old);

/* Remove an unfinished @tmp (the old @path stays as it was) and free it. NULL is fine. */
void selfmon_outfile__discard(char *tmp);

#endif
