// SPDX-License-Identifier: MIT
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <selfmon/selfmon.h>
#include "error.h"
#include "errtext.h"
#include "fmt.h"

/*
 * Per thread, like errno: two threads failing at once keep their own story.
 */
#define ERRMSG_MAX 512
#ifdef SELFMON_PIC_OBJECT
/*
 * In libselfmon.so and libselfmon_pic.a the message is on the heap, the
 * thread variable a pointer: the library keeps its thread data small enough
 * for the static TLS that its initial-exec accesses need (docs/markers.md,
 * "Shared objects and plugins"). A thread's buffer is freed when it exits;
 * without memory, a failure keeps its return value and loses its message.
 */
static _Thread_local char *errmsg;
static pthread_key_t errmsg_key;
static pthread_once_t errmsg_once = PTHREAD_ONCE_INIT;

static void errmsg_key_make(void)
{
	(void)pthread_key_create(&errmsg_key, free);
}

/* This thread's buffer, made at its first message; NULL without memory. */
static char *errmsg_buf(void)
{
	if (!errmsg) {
		int saved = errno; /* a constructor's errno outlives its message */

		pthread_once(&errmsg_once, errmsg_key_make);
		errmsg = calloc(1, ERRMSG_MAX);
		if (errmsg)
			(void)pthread_setspecific(errmsg_key, errmsg);
		errno = saved;
	}
	return errmsg;
}
#else
/*
 * In a program's own archive (libselfmon.a) the buffer is the thread
 * variable itself: a static program has no TLS room to keep, and the
 * smallest one (arm64_min_defconfig's, within 64 KiB) no room for the thread
 * keys' code either.
 */
static _Thread_local char errmsg_own[ERRMSG_MAX];
static _Thread_local char *errmsg;

static char *errmsg_buf(void)
{
	return errmsg = errmsg_own;
}
#endif

int selfmon__err(int err, const char *fmt, ...)
{
	char *buf = errmsg_buf();
	va_list ap;

	va_start(ap, fmt);
	if (buf)
		selfmon_fmt__vprint(buf, ERRMSG_MAX, fmt, ap);
	va_end(ap);
	return err;
}

int selfmon_errmsg__set(int err, const char *fmt, ...)
{
	char *buf = errmsg_buf();
	va_list ap;

	va_start(ap, fmt);
	if (buf)
		vsnprintf(buf, ERRMSG_MAX, fmt, ap);
	va_end(ap);
	return err;
}

void selfmon__err_clear(void)
{
	if (errmsg)
		errmsg[0] = '\0';
}

const char *selfmon_errmsg(void)
{
	return errmsg ? errmsg : "";
}

static const char *const selfmon_errstr[] = {
	[SELFMON_ERRNO__FORKED - SELFMON_ERRNO__START] =
		"event set used in a child process: perf mmap pages are not inherited by fork()",
	[SELFMON_ERRNO__THREAD - SELFMON_ERRNO__START] =
		"event set used by a thread that did not open it",
	[SELFMON_ERRNO__SYNTAX - SELFMON_ERRNO__START] = "invalid event syntax",
	[SELFMON_ERRNO__NOEVENT - SELFMON_ERRNO__START] =
		"no such event, PMU or term on this machine",
	[SELFMON_ERRNO__PINNED - SELFMON_ERRNO__START] =
		"a pinned event or group could not be scheduled on the PMU: it counts nothing",
};

const char *selfmon_strerror(int err)
{
	/* In unsigned: -INT_MIN does not exist as an int. */
	unsigned int e = err < 0 ? 0u - (unsigned int)err : (unsigned int)err;

	if (e >= SELFMON_ERRNO__START && e < SELFMON_ERRNO__END)
		return selfmon_errstr[e - SELFMON_ERRNO__START];
	if (e > INT_MAX)
		return "unknown error";
	return selfmon_errtext__str((int)e);
}

static const struct {
	const char *str;
	const char *fix;
} reasons[SELFMON_REASON__MAX] = {
	[SELFMON_REASON_NONE] = { "user-space read available", NULL },
	[SELFMON_REASON_ARCH] = { "this build's architecture has no user-space counter read",
				  NULL },
	[SELFMON_REASON_CONFIG] = { "user-space read turned off (CONFIG_USER_READ=n, SELFMON_NO_USER_READ or an option)",
				    "unset SELFMON_NO_USER_READ, or rebuild with CONFIG_USER_READ=y" },
	[SELFMON_REASON_SOFTWARE] = { "software event: counted by the kernel, no counter register to read",
				      NULL },
	[SELFMON_REASON_NO_PMU] = { "no hardware PMU serves this event (a VM without a vPMU?)",
				    NULL },
	[SELFMON_REASON_NOT_CPU_PMU] = { "the event's PMU is not a CPU PMU (uncore, msr, ...): no per-thread counter register",
					 NULL },
	[SELFMON_REASON_NO_FORMAT] = { "the PMU's sysfs format/ has no 'rdpmc' bit: its driver offers no user access",
				       NULL },
	[SELFMON_REASON_SYSCTL] = { "kernel.perf_user_access is 0: user-space counter access is off",
				    "sysctl -w kernel.perf_user_access=1" },
	[SELFMON_REASON_NO_SYSCTL] = { "the kernel has no kernel.perf_user_access (arm64 user access needs Linux 5.17 or later)",
				       NULL },
	[SELFMON_REASON_SYSFS_RDPMC] = { "the PMU's sysfs 'rdpmc' is 0: rdpmc faults in user space",
					 "echo 1 > /sys/bus/event_source/devices/cpu/rdpmc" },
	[SELFMON_REASON_CAP] = { "the mmap page says cap_user_rdpmc=0: the kernel grants no user read for this event",
				 NULL },
	[SELFMON_REASON_INDEX] = { "the mmap page says index=0: the event is not on a counter now (multiplexed, stopped or on another CPU type)",
				   NULL },
	[SELFMON_REASON_MMAP] = { "mmap of the event's page failed", NULL },
	[SELFMON_REASON_HETEROGENEOUS] = { "unpinned on a machine with several core types: the event is counted "
					   "on every core PMU and summed, by read(2)",
					   "SELFMON_PIN=current (or big, little, a PMU name, a CPU list)" },
	[SELFMON_REASON_OFF_CLUSTER] = { "the thread runs outside the cluster its counters belong to "
					 "(its affinity was changed after open)",
					 "give the thread back the CPUs of selfmon_set__pmu()" },
};

const char *selfmon_reason__str(enum selfmon_reason reason)
{
	if ((unsigned int)reason >= SELFMON_REASON__MAX)
		return "unknown reason";
	return reasons[reason].str;
}

const char *selfmon_reason__fix(enum selfmon_reason reason)
{
	if ((unsigned int)reason >= SELFMON_REASON__MAX)
		return NULL;
	return reasons[reason].fix;
}
