// SPDX-License-Identifier: MIT
/*
 * Files written whole (<selfmon/outfile.h>): a temporary name in the target's own
 * directory, so that the final rename(2) is atomic ("If newpath already
 * exists, it will be atomically replaced", rename(2)), and it replaces the
 * name: a symbolic link planted at the target is replaced, not followed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <selfmon/outfile.h>
#include "error.h"
#include "errtext.h"
#include "fmt.h"

/* "@path.part-XXXXXX", created with O_EXCL: a name nobody else holds. */
static int create_tmp(const char *what, const char *path, char **tmp)
{
	static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
	size_t len = strlen(path) + sizeof(".part-XXXXXX");
	unsigned long long seed = (unsigned long long)getpid() << 20 ^
				  (unsigned long long)time(NULL);
	char *name = malloc(len);
	int fd = -EEXIST;

	if (!name)
		return selfmon__err(-ENOMEM, "%s '%s': no memory", what, path);
	for (int tries = 0; fd == -EEXIST && tries < 100; tries++) {
		unsigned long long x = seed + (unsigned long long)tries * 0x9e3779b97f4a7c15ull;

		selfmon_fmt__print(name, len, "%s.part-", path);
		for (int i = 0; i < 6; i++, x /= 36)
			name[len - 7 + i] = digits[x % 36];
		name[len - 1] = '\0';
		fd = open(name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd < 0)
			fd = -errno;
	}
	if (fd < 0) {
		free(name);
		return selfmon__err(fd, "%s '%s': creating it: %s", what, path, selfmon_errtext__str(-fd));
	}
	*tmp = name;
	return fd;
}

static const char *kind(mode_t m)
{
	return S_ISDIR(m)  ? "a directory" :
	       S_ISBLK(m)  ? "a block device" :
	       S_ISSOCK(m) ? "a socket" :
	       S_ISREG(m)  ? "a file" :
			     "not a file";
}

/* A link, followed only to a character device or a FIFO, opened without O_CREAT or O_TRUNC. */
static int open_link(const char *what, const char *path)
{
	struct stat st;
	int fd;

	errno = 0;
	if (stat(path, &st) && errno != ENOENT)
		return selfmon__err(-errno, "%s '%s': %s", what, path, selfmon_errtext__str(errno));
	if (errno == ENOENT || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)))
		return selfmon__err(
			-ELOOP,
			"%s '%s': a symbolic link to %s: selfmon writes no "
			"file through a link (name the file itself, or remove the link)",
			what, path, errno == ENOENT ? "nothing" : kind(st.st_mode));
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return selfmon__err(-errno, "%s '%s': %s", what, path, selfmon_errtext__str(errno));
	/* The link may have changed since stat(): still a device or a FIFO? */
	if (fstat(fd, &st) || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
		close(fd);
		return selfmon__err(-ELOOP, "%s '%s': the link changed while being opened", what,
				    path);
	}
	return fd;
}

int selfmon_outfile__open(const char *what, const char *path, char **tmp)
{
	struct stat st;
	int fd;

	*tmp = NULL;
	if (lstat(path, &st)) {
		if (errno != ENOENT)
			return selfmon__err(-errno, "%s '%s': %s", what, path, selfmon_errtext__str(errno));
		return create_tmp(what, path, tmp);
	}
	if (S_ISREG(st.st_mode))
		return create_tmp(what, path, tmp);
	if (S_ISLNK(st.st_mode))
		return open_link(what, path);
	if (!S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode))
		return selfmon__err(-EISDIR, "%s '%s': %s, not a file: name a file", what, path,
				    kind(st.st_mode));
	/* /dev/null, a pipe: nothing to replace; O_NOFOLLOW in case a link took its place. */
	fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	return fd < 0 ? selfmon__err(-errno, "%s '%s': %s", what, path, selfmon_errtext__str(errno)) : fd;
}

/* @path as @path.old: a hard link, so that @path never goes missing; a rename where links fail. */
static int keep_old(const char *what, const char *path, const char *tmp)
{
	size_t len = strlen(path) + sizeof(".old");
	char *old = malloc(len);
	struct stat st;
	int err = 0;

	if (!old)
		return selfmon__err(-ENOMEM, "%s '%s': no memory", what, path);
	selfmon_fmt__print(old, len, "%s.old", path);
	/* No @path: nothing to keep, and an earlier .old stays. */
	if (lstat(path, &st) && errno == ENOENT)
		goto out;
	/* Each step finding nothing (ENOENT) is no failure; unlink's failure stops before link. */
	if ((unlink(old) && errno != ENOENT) ||
	    (link(path, old) && errno != ENOENT && rename(path, old) && errno != ENOENT))
		err = -errno;
	if (err)
		selfmon__err(err, "%s '%s': keeping the old file as '%s': %s; the new one is '%s'",
			     what, path, old, selfmon_errtext__str(-err), tmp);
out:
	free(old);
	return err;
}

/*
 * @tmp's contents on the disk before the rename: without it a power cut
 * after the rename can leave @path empty or short (fsync(2): "transfers all
 * modified in-core data of the file ... to the disk device"), so that the
 * name holds neither the old file nor the new one. The caller has closed its
 * descriptor; the file's data is flushed through any descriptor of it.
 */
static int sync_tmp(const char *what, const char *path, const char *tmp)
{
	int fd = open(tmp, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), err = 0;

	if (fd < 0 || fsync(fd))
		err = -errno;
	if (fd >= 0)
		close(fd);
	/* EINVAL: a file system that does not support synchronization (fsync(2)): nothing to wait for. */
	if (err == -EINVAL)
		err = 0;
	if (err)
		selfmon__err(err, "%s '%s': writing '%s' to the disk: %s; it stays there", what,
			     path, tmp, selfmon_errtext__str(-err));
	return err;
}

int selfmon_outfile__commit(const char *what, const char *path, char *tmp, bool keep)
{
	int err;

	if (!tmp)
		return 0;
	err = sync_tmp(what, path, tmp);
	if (!err && keep)
		err = keep_old(what, path, tmp);
	if (!err && rename(tmp, path))
		err = selfmon__err(-errno, "%s '%s': renaming '%s' over it: %s", what, path, tmp,
				   selfmon_errtext__str(errno));
	free(tmp);
	return err;
}

void selfmon_outfile__discard(char *tmp)
{
	if (tmp)
		unlink(tmp);
	free(tmp);
}
