// SPDX-License-Identifier: MIT
/*
 * The files the CLI writes (--out): whole or not at all. The output goes to
 * a new name beside the file, created with O_EXCL | O_NOFOLLOW, and is
 * renamed over the file once complete (rename(2) replaces the name
 * atomically and never follows a link planted there); a failed run removes
 * it and leaves the old file as it was. A character device or a FIFO
 * (/dev/null, /dev/stdout on a pipe) is written in place; a symbolic link
 * only to one of those: never into a file, never to create its target.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static const char *kind(mode_t m)
{
	return S_ISDIR(m)  ? "a directory" :
	       S_ISBLK(m)  ? "a block device" :
	       S_ISSOCK(m) ? "a socket" :
	       S_ISREG(m)  ? "a file" :
			     "not a file";
}

static int create_tmp(const char *path, char **tmp)
{
	static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
	size_t len = strlen(path) + sizeof(".part-XXXXXX");
	unsigned long long seed = (unsigned long long)getpid() << 20 ^
				  (unsigned long long)time(NULL);
	char *name = malloc(len);
	int fd = -EEXIST;

	if (!name)
		return -ENOMEM;
	for (int tries = 0; fd == -EEXIST && tries < 100; tries++) {
		unsigned long long x = seed + (unsigned long long)tries * 0x9e3779b97f4a7c15ull;

		snprintf(name, len, "%s.part-", path);
		for (int i = 0; i < 6; i++, x /= 36)
			name[len - 7 + i] = digits[x % 36];
		name[len - 1] = '\0';
		fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd < 0)
			fd = -errno;
	}
	if (fd < 0)
		free(name);
	else
		*tmp = name;
	return fd;
}

/* -errno, with the reason in @why for what strerror() cannot say. */
static int open_fd(const char *path, char **tmp, const char **why)
{
	struct stat st;
	int fd;

	if (lstat(path, &st))
		return errno == ENOENT ? create_tmp(path, tmp) : -errno;
	if (S_ISREG(st.st_mode))
		return create_tmp(path, tmp);
	if (!S_ISLNK(st.st_mode) && !S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode)) {
		*why = kind(st.st_mode);
		return -EISDIR;
	}
	errno = 0;
	if (S_ISLNK(st.st_mode) &&
	    (stat(path, &st) || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)))) {
		if (errno && errno != ENOENT)
			return -errno;
		*why = errno == ENOENT ? "a symbolic link to nothing" : "a symbolic link to a file";
		return -ELOOP;
	}
	fd = open(path, O_WRONLY | O_CLOEXEC | (S_ISLNK(st.st_mode) ? 0 : O_NOFOLLOW));
	if (fd < 0)
		return -errno;
	/* A link that changed since stat(): a device or a FIFO still? */
	if (fstat(fd, &st) || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
		close(fd);
		*why = "a link that changed while being opened";
		return -ELOOP;
	}
	return fd;
}

FILE *cli_outfile_open(const char *who, const char *path, char **tmp)
{
	const char *why = NULL;
	int fd = open_fd(path, tmp, &why);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (f)
		return f;
	if (fd >= 0) {
		int e = errno;

		close(fd);
		fd = -e;
	}
	if (why && fd == -ELOOP)
		fprintf(stderr,
			"%s: --out '%s': %s: selfmon writes no file through a link (name the "
			"file itself, or remove the link)\n",
			who, cli_text(path), why);
	else if (why)
		fprintf(stderr, "%s: --out '%s': %s, not a file: name a file\n", who,
			cli_text(path), why);
	else
		fprintf(stderr, "%s: --out '%s': %s\n", who, cli_text(path), strerror(-fd));
	if (*tmp)
		unlink(*tmp);
	free(*tmp);
	*tmp = NULL;
	return NULL;
}

int cli_outfile_close(FILE *f, const char *who, const char *path, char *tmp, bool ok)
{
	int err = cli_fclose(f, who, path);

	if (tmp && ok && !err && rename(tmp, path)) {
		err = -errno;
		/* Kept: it holds the output. */
		fprintf(stderr, "%s: --out '%s': renaming '%s' over it: %s\n", who, cli_text(path),
			cli_text(tmp), strerror(-err));
	} else if (tmp && (!ok || err)) {
		unlink(tmp);
	}
	free(tmp);
	return err;
}
