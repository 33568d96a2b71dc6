// SPDX-License-Identifier: MIT
/*
 * Fault injection: every failure point met while a set is opened,
 * read and closed fails in turn, and each gives a named error and leaves
 * nothing behind. The points are the N-th call, for N = 1, 2, ... until a run
 * makes fewer calls, of each function test_fault.wrap replaces:
 *   - allocation: calloc, malloc, realloc (selfmon's and libperf's);
 *   - perf_event_open, with each errno of perf_event_open(2)'s ERRORS section;
 *   - mmap of the counter page, sched_setaffinity (pinning and its restore);
 *   - the sysfs/procfs reads: open (of a file and of a directory), read
 *     (read(2) of a counter too);
 *   - ioctl (enable, disable, reset).
 * After each run: a failed open returns NULL with errno set and a message;
 * a failed read or ioctl returns -errno with a message; the open file
 * descriptors and the thread's affinity are what they were; and, in the ASan
 * build of `make check`, LeakSanitizer finds nothing.
 *
 * Only the public API is driven (selfmon_set__open, enable, the reads, reset,
 * disable, close), so the suite holds whatever set.c does inside. perf_event_open
 * runs for real, as a task-clock event whatever was asked, so that hardware
 * events open (and mmap) on a machine without a PMU; the x86 gates decide the
 * path on every build, as in test_set.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cmocka.h>

#include <linux/perf_event.h>
#include <selfmon/selfmon.h>
#include "../../core/arch_int.h"
#include "../../core/error.h"
#include "fakeroot.h"
#include "fault_inject.h"

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
#endif

/* ---- the wrapped functions of this program's own (fault_inject.h has the rest) ---- */

long __real_syscall(long n, ...);
int __real_sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set);
const struct selfmon_arch *__real_selfmon_arch__host(void);

long __wrap_syscall(long n, ...);
int __wrap_sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set);
const struct selfmon_arch *__wrap_selfmon_arch__host(void);

/* perf_event_open as a task-clock event: it opens, and mmaps, on any kernel. */
long __wrap_syscall(long n, ...)
{
	struct perf_event_attr attr;
	va_list ap;
	long a[5];

	va_start(ap, n);
	for (int i = 0; i < 5; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (n != __NR_perf_event_open)
		return __real_syscall(n, a[0], a[1], a[2], a[3], a[4]);
	if (inject(F_PERF_OPEN))
		return -1;
	attr = *(const struct perf_event_attr *)a[0];
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.config1 = attr.config2 = 0;
	return __real_syscall(n, &attr, a[1], a[2], a[3], a[4]);
}

int __wrap_sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set)
{
	return inject(F_SETAFFINITY) ? -1 : __real_sched_setaffinity(pid, size, set);
}

/* The x86 gates on every build, as test_set does: the same decisions everywhere. */
const struct selfmon_arch *__wrap_selfmon_arch__host(void)
{
	return &selfmon_arch__x86;
}

/* ---- the machine: an x86 'cpu' PMU on the first CPU this thread may use ---- */

static char *root;
static cpu_set_t affinity0;
static int fds0;

static int machine_setup(void **state)
{
	int first = -1;

	(void)state;
	if (sched_getaffinity(0, sizeof(affinity0), &affinity0))
		return -1;
	for (int c = 0; c < CPU_SETSIZE && first < 0; c++)
		if (CPU_ISSET(c, &affinity0))
			first = c;
	root = fakeroot__new();
	fakeroot__x86_cpu(root, 1);
	fakeroot__pmu_file(root, "cpu", "cpus", "%d", first);
	fakeroot__write(root, "/sys/devices/system/cpu/possible", "0-%d\n", CPU_SETSIZE - 1);
	fakeroot__write(root, "/sys/devices/system/cpu/online", "0-%d\n", CPU_SETSIZE - 1);
	fakeroot__write(root, "/proc/sys/kernel/perf_event_paranoid", "2\n");
	fds0 = open_fds();
	return fds0 < 0 ? -1 : 0;
}

static int machine_teardown(void **state)
{
	(void)state;
	fakeroot__free(root);
	print_fault_points();
	return 0;
}

/* ---- one run: open, read every way, close ---- */

#define EVENTS "task-clock,cycles:u,cpu/event=0x3c,umask=0/,instructions"
#define NR_EVENTS 4

/* A step that failed must say why; @what names it for the failure message. */
static void failed_step_is_named(int ret, const char *what)
{
	char msg[512];

	if (!ret)
		return;
	snprintf(msg, sizeof(msg), "%s", selfmon_errmsg());
	inj.armed = false;
	if (ret > 0 || !msg[0])
		fail_msg("%s failed (%d) at %s call %d without a message", what, ret,
			 fault_name[inj.which], inj.fail_at);
	inj.armed = true;
}

static void run_once(const char *pin)
{
	struct selfmon_opts o = { .sz = sizeof(o), .root = root, .pin = pin };
	struct selfmon_count c[NR_EVENTS];
	struct selfmon_set *set;
	int err;

	selfmon__err_clear();
	errno = 0;
	inj.armed = true;
	set = selfmon_set__open(EVENTS, &o);
	err = errno;
	inj.armed = false;
	if (!set) {
		if (!err || !selfmon_errmsg()[0])
			fail_msg("open failed at %s call %d: errno %d, message '%s'", fault_name[inj.which],
				 inj.fail_at, err, selfmon_errmsg());
		return;
	}
	inj.armed = true;
	selfmon__err_clear();
	failed_step_is_named(selfmon_set__enable(set), "enable");
	for (int i = 0; i < NR_EVENTS; i++) {
		selfmon__err_clear();
		failed_step_is_named(selfmon_set__read(set, i, &c[i]), "read");
		selfmon__err_clear();
		failed_step_is_named(selfmon_set__read_raw(set, i, &c[i]), "read_raw");
		selfmon__err_clear();
		failed_step_is_named(selfmon_set__read_syscall(set, i, &c[i]), "read_syscall");
	}
	selfmon__err_clear();
	failed_step_is_named(selfmon_set__reset(set), "reset");
	selfmon__err_clear();
	failed_step_is_named(selfmon_set__read_all(set, c), "read_all");
	selfmon__err_clear();
	failed_step_is_named(selfmon_set__disable(set), "disable");
	selfmon_set__close(set);
	inj.armed = false;
}

/* Nothing left behind: fds, affinity and (ASan builds) heap. */
static void nothing_left_behind(bool restore_failed)
{
	cpu_set_t now;
	int fds = open_fds();

	if (fds != fds0)
		fail_msg("%d fds open after failing %s call %d, %d before", fds, fault_name[inj.which],
			 inj.fail_at, fds0);
	assert_int_equal(sched_getaffinity(0, sizeof(now), &now), 0);
	if (!CPU_EQUAL(&now, &affinity0)) {
		/* close() cannot report a failed restore: put it back, and say so. */
		__real_sched_setaffinity(0, sizeof(affinity0), &affinity0);
		if (!restore_failed)
			fail_msg("affinity not restored after failing %s call %d", fault_name[inj.which],
				 inj.fail_at);
	}
#ifdef __SANITIZE_ADDRESS__
	if (__lsan_do_recoverable_leak_check())
		fail_msg("leak after failing %s call %d", fault_name[inj.which], inj.fail_at);
#endif
}

/* Fail the 1st, 2nd, ... call of @f with @err until a run makes fewer calls. Return: points hit. */
static int sweep(enum fault f, int err, const char *pin)
{
	int hit = 0;

	for (int n = 1; n < 10000; n++) {
		inj = (__typeof__(inj)){ .which = f, .fail_at = n, .err = err };
		run_once(pin);
		/* The pin's restore is the second sched_setaffinity of a run. */
		nothing_left_behind(f == F_SETAFFINITY && n == 2);
		if (!inj.hit)
			break;
		hit++;
	}
	points[f] += hit;
	return hit;
}

static void each_allocation_failure_is_enomem_named_and_leaves_nothing(void **state)
{
	(void)state;
	assert_true(sweep(F_CALLOC, ENOMEM, "cpu") > 0);
	assert_true(sweep(F_MALLOC, ENOMEM, "cpu") > 0);
	sweep(F_REALLOC, ENOMEM, "cpu");
	/* unpinned too: another order of calls */
	sweep(F_CALLOC, ENOMEM, "none");
	sweep(F_MALLOC, ENOMEM, "none");
}

static void each_perf_event_open_errno_is_named_and_leaves_nothing(void **state)
{
	/* perf_event_open(2), ERRORS (man-pages 6.05) */
	static const int errs[] = { E2BIG, EACCES, EBADF, EBUSY, EFAULT, EINTR, EINVAL, EMFILE, ENODEV,
				    ENOENT, ENOSPC, ENOSYS, EOPNOTSUPP, EOVERFLOW, EPERM, ESRCH };

	(void)state;
	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++)
		if (sweep(F_PERF_OPEN, errs[i], "cpu") < NR_EVENTS)
			fail_msg("errno %d: fewer points than events", errs[i]);
}

static void a_failed_mmap_is_named_or_falls_back_and_leaves_nothing(void **state)
{
	(void)state;
	assert_true(sweep(F_MMAP, ENOMEM, "cpu") > 0);
	sweep(F_MMAP, EPERM, "cpu");
}

static void a_failed_sched_setaffinity_is_named_and_leaves_nothing(void **state)
{
	(void)state;
	if (CPU_COUNT(&affinity0) < 2) {
		print_message("# SKIP the thread may run on one CPU only: pinning changes no affinity\n");
		skip();
	}
	assert_true(sweep(F_SETAFFINITY, EINVAL, "cpu") >= 1);
	sweep(F_SETAFFINITY, EPERM, "cpu");
}

static void each_failed_sysfs_or_counter_read_is_named_and_leaves_nothing(void **state)
{
	(void)state;
	assert_true(sweep(F_OPEN, EACCES, "cpu") > 0);
	sweep(F_OPEN, EMFILE, "cpu");
	assert_true(sweep(F_OPENDIR, EACCES, "cpu") > 0);
	assert_true(sweep(F_READ, EIO, "cpu") > 0);
	sweep(F_READ, EINTR, "none");
}

static void each_failed_ioctl_is_named_and_leaves_nothing(void **state)
{
	(void)state;
	assert_true(sweep(F_IOCTL, EIO, "cpu") > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_allocation_failure_is_enomem_named_and_leaves_nothing),
		cmocka_unit_test(each_perf_event_open_errno_is_named_and_leaves_nothing),
		cmocka_unit_test(a_failed_mmap_is_named_or_falls_back_and_leaves_nothing),
		cmocka_unit_test(a_failed_sched_setaffinity_is_named_and_leaves_nothing),
		cmocka_unit_test(each_failed_sysfs_or_counter_read_is_named_and_leaves_nothing),
		cmocka_unit_test(each_failed_ioctl_is_named_and_leaves_nothing),
	};

	return cmocka_run_group_tests(tests, machine_setup, machine_teardown);
}
