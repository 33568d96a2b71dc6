/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_DIR_H
#define SELFMON_CORE_DIR_H

/*
 * A directory's entries by getdents64(2), read into the caller's struct:
 * opendir(3) allocates its stream with the C library's malloc, which a
 * static program built with CONFIG_SMALL_HEAP otherwise need not carry
 * (Kconfig, SMALL_HEAP). Names come in the kernel's order, "." and ".."
 * among them.
 */
struct selfmon_dir {
	int fd;
	int pos, len;
	/* linux_dirent64 records, 8-byte aligned as the kernel writes them */
	unsigned long long buf[128];
};

/* Open directory @path. Return: 0 or -errno of open(2). */
int selfmon_dir__open(struct selfmon_dir *d, const char *path);

/*
 * The next entry's name, valid until the next call; NULL at the end, or on
 * an error of getdents64(2), which then leaves its errno (0 at the end).
 */
const char *selfmon_dir__next(struct selfmon_dir *d);

/* Close @d's directory. */
void selfmon_dir__close(struct selfmon_dir *d);

#endif
