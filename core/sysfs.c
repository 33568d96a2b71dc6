// SPDX-License-Identifier: MIT
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysfs.h"
#include "fmt.h"
#include "number.h"

/* @s for a message, into @buf: control bytes, quotes and backslashes as \xNN, cut with "...". */
static const char *quote(char *buf, size_t size, const char *s)
{
	size_t o = 0;

	for (; *s && o + 8 < size; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f || c == '\'' || c == '\\')
			o += (size_t)selfmon_fmt__print(buf + o, size - o, "\\x%02x", c);
		else
			buf[o++] = (char)c;
	}
	selfmon_fmt__print(buf + o, size - o, "%s", *s ? "..." : "");
	return buf;
}

/*
 * SELFMON_SYSFS_ROOT, unless this program runs with raised rights (AT_SECURE,
 * getauxval(3): setuid, setgid, file capabilities): the files under the root
 * it names would be read with those rights, whoever set the variable, and
 * their contents go into messages. Then it is ignored, said once on stderr
 * (the caller can do nothing else about it), and the machine's own read.
 */
const char *selfmon_root__get(const char *override)
{
	static int said;
	const char *env;
	char q[160], msg[480];

	if (override)
		return override;
	env = secure_getenv("SELFMON_SYSFS_ROOT");
	if (env || !getauxval(AT_SECURE))
		return env ? env : "";
	/* Raised rights: secure_getenv() said nothing; was it set? */
	env = getenv("SELFMON_SYSFS_ROOT");
	if (!env)
		return "";
	if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED)) {
		selfmon_fmt__print(
			msg, sizeof(msg),
			"selfmon: SELFMON_SYSFS_ROOT='%s' ignored: this program runs with raised "
			"rights (setuid, setgid or file capabilities), which the files under it would be "
			"read with; reading the machine's own /sys and /proc\n",
			quote(q, sizeof(q), env));
		fputs(msg, stderr);
	}
	return "";
}

int selfmon_root__path(const char *root, const char *path, char *buf, size_t size)
{
	int n = selfmon_fmt__print(buf, size, "%s%s", root, path);

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

int selfmon_sysfs__read(const char *root, const char *path, char *buf, size_t size)
{
	char full[4096];
	struct stat st;
	char extra;
	ssize_t n;
	int fd, err = 0;

	err = selfmon_root__path(root, path, full, sizeof(full));
	if (err)
		return err;
	/*
	 * O_NONBLOCK: a FIFO planted in place of an attribute must not block
	 * the open; sysfs and procfs attributes are regular files, anything
	 * else (FIFO, device, socket) is refused before it is read.
	 */
	fd = open(full, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		err = -errno;
	else if (!S_ISREG(st.st_mode))
		err = -EINVAL;
	n = err ? -1 : read(fd, buf, size - 1);
	if (!err && n < 0)
		err = -errno;
	/* A file longer than @buf would be parsed cut short: refuse it. */
	if (!err && (size_t)n == size - 1 && read(fd, &extra, 1) > 0)
		err = -EFBIG;
	close(fd);
	if (err)
		return err;
	/* Text attributes hold no NUL: one would hide what follows it from the parsers. */
	if (memchr(buf, '\0', (size_t)n))
		return -EINVAL;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = '\0';
	return (int)n;
}

int selfmon_sysfs__read_long(const char *root, const char *path, long *val)
{
	char buf[64];
	const char *p = buf;
	int n = selfmon_sysfs__read(root, path, buf, sizeof(buf));
	bool minus;
	uint64_t v;

	if (n < 0)
		return n;
	/* A decimal number, '-' before it or not: what the kernel writes (no blanks, no '+'). */
	minus = *p == '-';
	p += minus;
	if (selfmon_number__parse(&p, 10, (uint64_t)LONG_MAX + minus, &v) || *p)
		return -EINVAL;
	*val = minus ? (long)(0 - v) : (long)v;
	return 0;
}
