/* SPDX-License-Identifier: MIT */
/*
 * What the fault-injection programs (test_fault.c over a set,
 * test_sampler_fault.c over a sampler) share: the failure points, the N-th
 * call of each that fails with a chosen errno, and the wrappers of the calls
 * both programs fail (allocation, mmap, ioctl, the sysfs reads; each
 * program's .wrap lists them). A program wraps its own others
 * (perf_event_open through syscall, sched_setaffinity, fcntl) with
 * inject(). The open fds are counted with fds.h's open_fds(), called
 * disarmed. Include after <cmocka.h>, in one file per test program.
 */
#ifndef SELFMON_TEST_FAULT_INJECT_H
#define SELFMON_TEST_FAULT_INJECT_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/types.h>

#include "../selftests/fds.h"

enum fault { F_CALLOC, F_MALLOC, F_REALLOC, F_PERF_OPEN, F_MMAP, F_SETAFFINITY, F_IOCTL, F_FCNTL,
	     F_OPEN, F_OPENDIR, F_READ, F__NR };

static const char *const fault_name[F__NR] = {
	"calloc",   "malloc", "realloc", "perf_event_open", "mmap", "sched_setaffinity",
	"ioctl",    "fcntl",  "open",    "open (dir)", "read",
};

/* The fault of this run: call @fail_at of @which fails with @err while @armed. */
static struct {
	bool armed;
	enum fault which;
	int fail_at, calls, err;
	bool hit;
} inj;

/* The failure points each fault had, over all its sweeps. */
static int points[F__NR];

/* Count a call of @f; true if this one is to fail (errno then set). */
static bool inject(enum fault f)
{
	if (!inj.armed || inj.which != f || ++inj.calls != inj.fail_at)
		return false;
	inj.hit = true;
	errno = inj.err;
	return true;
}

/* The points of each fault the program swept, and their sum, for the log. */
static void print_fault_points(void)
{
	int total = 0;

	for (int f = 0; f < F__NR; f++) {
		if (!points[f])
			continue;
		print_message("# fault points: %-18s %d\n", fault_name[f], points[f]);
		total += points[f];
	}
	print_message("# fault points: %d in all\n", total);
}

void *__real_calloc(size_t n, size_t size);
void *__real_malloc(size_t size);
void *__real_realloc(void *p, size_t size);
void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
int __real_ioctl(int fd, unsigned long req, ...);
int __real_open(const char *path, int flags, ...);
ssize_t __real_read(int fd, void *buf, size_t n);

void *__wrap_calloc(size_t n, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_realloc(void *p, size_t size);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
int __wrap_ioctl(int fd, unsigned long req, ...);
int __wrap_open(const char *path, int flags, ...);
ssize_t __wrap_read(int fd, void *buf, size_t n);

void *__wrap_calloc(size_t n, size_t size)
{
	return inject(F_CALLOC) ? NULL : __real_calloc(n, size);
}

void *__wrap_malloc(size_t size)
{
	return inject(F_MALLOC) ? NULL : __real_malloc(size);
}

void *__wrap_realloc(void *p, size_t size)
{
	return inject(F_REALLOC) ? NULL : __real_realloc(p, size);
}

void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return inject(F_MMAP) ? MAP_FAILED : __real_mmap(addr, len, prot, flags, fd, off);
}

int __wrap_ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	return inject(F_IOCTL) ? -1 : __real_ioctl(fd, req, arg);
}

int __wrap_open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if (flags & O_CREAT) {
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	/* A directory is opened by open(2) too (core/dir.c): its own fault. */
	return inject(flags & O_DIRECTORY ? F_OPENDIR : F_OPEN) ? -1 : __real_open(path, flags, mode);
}

ssize_t __wrap_read(int fd, void *buf, size_t n)
{
	return inject(F_READ) ? -1 : __real_read(fd, buf, n);
}

#endif
