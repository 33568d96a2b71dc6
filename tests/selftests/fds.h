/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_TESTS_FDS_H
#define SELFMON_TESTS_FDS_H

#include <dirent.h>

/* The fds this process has open (/proc/self/fd), or -1. */
static inline int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n - 1;	/* the directory's own fd */
}

#endif
