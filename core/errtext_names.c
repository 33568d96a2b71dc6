// SPDX-License-Identifier: MIT
/*
 * errtext.h by name: the build without CONFIG_ERRNO_TEXT. The names are
 * those of errno(3); the list holds what perf_event_open(2) ("ERRORS"),
 * the reads, ioctls and mmaps of its file descriptors, and the files of
 * sysfs and /proc that the library opens can return. A name is as telling
 * as the sentence to whoever looks it up, and costs a tenth of its bytes.
 */
#include <errno.h>

#include "errtext.h"
#include "fmt.h"

#define ERRNO_NAMES(X)                                                                      \
	X(EPERM) X(ENOENT) X(ESRCH) X(EINTR) X(EIO) X(ENXIO) X(E2BIG) X(EBADF) X(ECHILD)    \
	X(EAGAIN) X(ENOMEM) X(EACCES) X(EFAULT) X(EBUSY) X(EEXIST) X(EXDEV) X(ENODEV)        \
	X(ENOTDIR) X(EISDIR) X(EINVAL) X(ENFILE) X(EMFILE) X(ENOTTY) X(EFBIG) X(ENOSPC)      \
	X(ESPIPE) X(EROFS) X(EMLINK) X(EPIPE) X(ERANGE) X(EDEADLK) X(ENAMETOOLONG) X(ENOSYS) \
	X(ENOTEMPTY) X(ELOOP) X(ENODATA) X(EOVERFLOW) X(EOPNOTSUPP) X(ETIMEDOUT) X(ESTALE)   \
	X(EDQUOT)

#define ERRNO_NUMBER(e) e,
#define ERRNO_NAME(e) #e "\0"

/* Each number's name is the one at the same place in the names that follow. */
static const unsigned char numbers[] = { ERRNO_NAMES(ERRNO_NUMBER) };
static const char names[] = ERRNO_NAMES(ERRNO_NAME);

static _Thread_local char other[sizeof("errno -2147483648")];

const char *selfmon_errtext__str(int errnum)
{
	const char *name = names;
	const char *text = other;

	for (unsigned int i = 0; i < sizeof(numbers); i++) {
		if (numbers[i] == errnum) {
			text = name;
			goto out;
		}
		while (*name++)
			;
	}
	selfmon_fmt__print(other, sizeof(other), "errno %d", errnum);
out:
	return text;
}
