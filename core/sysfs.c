// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysfs.h"

const char *selfmon_root__get(const char *override)
{
	const char *env;

	if (override)
		return override;
	env = getenv("SELFMON_SYSFS_ROOT");
	return env ? env : "";
}

int selfmon_root__path(const char *root, const char *path, char *buf, size_t size)
{
	int n = snprintf(buf, size, "%s%s", root, path);

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

int selfmon_sysfs__read(const char *root, const char *path, char *buf, size_t size)
{
	char full[4096];
	ssize_t n;
	int fd, err;

	err = selfmon_root__path(root, path, full, sizeof(full));
	if (err)
		return err;
	fd = open(full, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	err = n < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = '\0';
	return (int)n;
}

int selfmon_sysfs__read_long(const char *root, const char *path, long *val)
{
	char buf[64], *end;
	int n = selfmon_sysfs__read(root, path, buf, sizeof(buf));

	if (n < 0)
		return n;
	errno = 0;
	*val = strtol(buf, &end, 10);
	if (errno || end == buf || *end)
		return -EINVAL;
	return 0;
}
