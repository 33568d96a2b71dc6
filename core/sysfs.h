/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_SYSFS_H
#define SELFMON_CORE_SYSFS_H

#include <stddef.h>

/*
 * Every /sys and /proc path selfmon reads goes through here, so that a test
 * can point SELFMON_SYSFS_ROOT (or selfmon_opts.root) at a fixture tree that
 * holds sys/ and proc/.
 */

/* The root to use: @override, else $SELFMON_SYSFS_ROOT (not with raised rights: AT_SECURE), else "" (the real /). */
const char *selfmon_root__get(const char *override);

/* Join @root and the absolute @path into @buf. Return: 0 or -ENAMETOOLONG. */
int selfmon_root__path(const char *root, const char *path, char *buf, size_t size);

/*
 * Read a small regular file, trailing newline removed. Opened O_NONBLOCK, and
 * anything but a regular file (a FIFO, a device) is -EINVAL unread, so that
 * a corrupt tree cannot block. Return: length or -errno.
 */
int selfmon_sysfs__read(const char *root, const char *path, char *buf, size_t size);

/* Read a file holding one decimal integer. Return: 0 or -errno. */
int selfmon_sysfs__read_long(const char *root, const char *path, long *val);

#endif
