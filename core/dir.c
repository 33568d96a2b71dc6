// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "dir.h"

/*
 * struct linux_dirent64 (getdents(2)): d_ino (8 bytes), d_off (8),
 * d_reclen (2), d_type (1), then d_name, NUL-terminated.
 */
#define RECLEN_AT 16
#define NAME_AT 19

int selfmon_dir__open(struct selfmon_dir *d, const char *path)
{
	d->pos = 0;
	d->len = 0;
	d->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return d->fd < 0 ? -errno : 0;
}

const char *selfmon_dir__next(struct selfmon_dir *d)
{
	const char *rec;
	unsigned short reclen;

	if (d->pos >= d->len) {
		long n = syscall(SYS_getdents64, d->fd, d->buf, sizeof(d->buf));

		if (n <= 0) {
			if (!n)
				errno = 0;
			return NULL;
		}
		d->len = (int)n;
		d->pos = 0;
	}
	rec = (const char *)d->buf + d->pos;
	memcpy(&reclen, rec + RECLEN_AT, sizeof(reclen));
	d->pos += reclen;
	return rec + NAME_AT;
}

void selfmon_dir__close(struct selfmon_dir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}
