// SPDX-License-Identifier: MIT
/*
 * Fault injection over the sampler: every failure point met while a sampler
 * is opened, asked for overflow signals, enabled, drained, disabled and
 * closed fails in turn, and each gives a named error and leaves nothing
 * behind. The points are the N-th call, for N = 1, 2, ... until a run makes
 * fewer calls, of each function test_sampler_fault.wrap replaces:
 *   - allocation: calloc, malloc, realloc;
 *   - perf_event_open (through syscall), with each errno of perf_event_open(2)'s
 *     ERRORS section;
 *   - mmap of the ring;
 *   - ioctl (PERF_EVENT_IOC_ID, SET_OUTPUT, ENABLE, DISABLE);
 *   - fcntl, the overflow signal's set-up (F_GETOWN_EX ... F_SETFL O_ASYNC);
 *   - the sysfs reads of the PMUs: open (of a file and of a directory), read.
 * After each run: a failed open returns NULL with errno set and a message;
 * a failed call returns -errno with a message; a failed signal set-up leaves
 * every sampling fd's owner, signal and O_ASYNC as they were; and once the
 * sampler is closed the open fds, every signal's disposition, the signal
 * mask and (in ASan builds) the heap are what they were.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
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
#include <selfmon/sampler.h>
#include "../../core/error.h"
#include "fault_inject.h"

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
#endif

/* ---- the wrapped functions of this program's own (fault_inject.h has the rest) ---- */

long __real_syscall(long n, ...);
int __real_fcntl(int fd, int cmd, ...);

long __wrap_syscall(long n, ...);
int __wrap_fcntl(int fd, int cmd, ...);

long __wrap_syscall(long n, ...)
{
	va_list ap;
	long a[5];

	va_start(ap, n);
	for (int i = 0; i < 5; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (n == __NR_perf_event_open && inject(F_PERF_OPEN))
		return -1;
	return __real_syscall(n, a[0], a[1], a[2], a[3], a[4]);
}

int __wrap_fcntl(int fd, int cmd, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	return inject(F_FCNTL) ? -1 : __real_fcntl(fd, cmd, arg);
}

/* ---- what must be as it was ---- */

struct process_state {
	int fds;
	struct sigaction act[_NSIG];
	sigset_t mask;
};

static struct process_state before;

static void take_state(struct process_state *st)
{
	/* zeroed: sigaction() refuses the C library's own signals (32, 33), leaving them so */
	memset(st, 0, sizeof(*st));
	st->fds = open_fds();
	for (int s = 1; s < _NSIG; s++)
		sigaction(s, NULL, &st->act[s]);
	sigprocmask(SIG_BLOCK, NULL, &st->mask);
}

static void nothing_left_behind(void)
{
	struct process_state now;

	take_state(&now);
	if (now.fds != before.fds)
		fail_msg("%d fds open after failing %s call %d, %d before", now.fds,
			 fault_name[inj.which], inj.fail_at, before.fds);
	for (int s = 1; s < _NSIG; s++)
		if (now.act[s].sa_handler != before.act[s].sa_handler ||
		    now.act[s].sa_flags != before.act[s].sa_flags)
			fail_msg("signal %d's disposition changed after failing %s call %d", s,
				 fault_name[inj.which], inj.fail_at);
	for (int s = 1; s < _NSIG; s++)
		if (sigismember(&now.mask, s) != sigismember(&before.mask, s))
			fail_msg("signal %d's blocking changed after failing %s call %d", s,
				 fault_name[inj.which], inj.fail_at);
#ifdef __SANITIZE_ADDRESS__
	if (__lsan_do_recoverable_leak_check())
		fail_msg("leak after failing %s call %d", fault_name[inj.which], inj.fail_at);
#endif
}

/* After a refused signal set-up: no sampling fd may keep an owner, a signal or O_ASYNC. */
static void no_fd_left_signalling(const struct selfmon_sampler *smp)
{
	for (int fd = 0; fd < 1024; fd++) {
		struct f_owner_ex owner;
		int fl = 0, sig = 0;

		if (!selfmon_sampler__owns_fd(smp, fd))
			continue;
		if (__real_fcntl(fd, F_GETOWN_EX, &owner) ||
		    (sig = __real_fcntl(fd, F_GETSIG, NULL)) < 0 ||
		    (fl = __real_fcntl(fd, F_GETFL, NULL)) < 0)
			fail_msg("fcntl of the sampler's fd %d: %s", fd, strerror(errno));
		if (owner.pid || sig || (fl & O_ASYNC))
			fail_msg("fd %d keeps owner %d, signal %d, O_ASYNC %d after failing %s call %d",
				 fd, owner.pid, sig, !!(fl & O_ASYNC), fault_name[inj.which],
				 inj.fail_at);
	}
}

/* ---- one run: open, signal, enable, drain, disable, close ---- */

#define EVENTS "cpu-clock:u,{task-clock,page-faults}:u"

static void failed_step_is_named(int ret, const char *what)
{
	char msg[512];

	if (ret >= 0)
		return;
	snprintf(msg, sizeof(msg), "%s", selfmon_errmsg());
	inj.armed = false;
	if (!msg[0])
		fail_msg("%s failed (%d) at %s call %d without a message", what, ret,
			 fault_name[inj.which], inj.fail_at);
	inj.armed = true;
}

static volatile uint64_t sink;

static void run_once(void)
{
	struct selfmon_sampler_opts o = { .sz = sizeof(o), .period = 100000, .ring_pages = 2 };
	struct selfmon_sampler *smp;
	int err;

	selfmon__err_clear();
	errno = 0;
	inj.armed = true;
	smp = selfmon_sampler__open(EVENTS, &o);
	err = errno;
	inj.armed = false;
	if (!smp) {
		if (!err || !selfmon_errmsg()[0])
			fail_msg("open failed at %s call %d: errno %d, message '%s'",
				 fault_name[inj.which], inj.fail_at, err, selfmon_errmsg());
		return;
	}
	inj.armed = true;
	selfmon__err_clear();
	/* SIGURG: ignored by default, so the overflow signals harm nothing. */
	err = selfmon_sampler__signal(smp, SIGURG);
	failed_step_is_named(err, "signal");
	if (err) {
		inj.armed = false;
		no_fd_left_signalling(smp);
		inj.armed = true;
	}
	selfmon__err_clear();
	failed_step_is_named(selfmon_sampler__enable(smp), "enable");
	for (int i = 0; i < 200000; i++)
		sink += (uint64_t)i;
	selfmon__err_clear();
	failed_step_is_named(selfmon_sampler__disable(smp), "disable");
	selfmon__err_clear();
	failed_step_is_named(selfmon_sampler__drain(smp, NULL, NULL, 0), "drain");
	selfmon_sampler__close(smp);
	inj.armed = false;
}

static int sweep(enum fault f, int err)
{
	int hit = 0;

	take_state(&before);
	for (int n = 1; n < 10000; n++) {
		inj = (__typeof__(inj)){ .which = f, .fail_at = n, .err = err };
		run_once();
		nothing_left_behind();
		if (!inj.hit)
			break;
		hit++;
	}
	points[f] += hit;
	return hit;
}

static int teardown(void **state)
{
	(void)state;
	print_fault_points();
	return 0;
}

static void each_allocation_failure_is_named_and_leaves_nothing(void **state)
{
	(void)state;
	assert_true(sweep(F_CALLOC, ENOMEM) > 0);
	sweep(F_MALLOC, ENOMEM);
	sweep(F_REALLOC, ENOMEM);
}

static void each_perf_event_open_errno_is_named_and_leaves_nothing(void **state)
{
	/* perf_event_open(2), ERRORS (man-pages 6.05) */
	static const int errs[] = { E2BIG, EACCES, EBADF, EBUSY, EFAULT, EINTR, EINVAL, EMFILE, ENODEV,
				    ENOENT, ENOSPC, ENOSYS, EOPNOTSUPP, EOVERFLOW, EPERM, ESRCH };

	(void)state;
	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++)
		if (sweep(F_PERF_OPEN, errs[i]) < 3)
			fail_msg("errno %d: fewer points than events", errs[i]);
}

static void a_failed_ring_mmap_is_named_and_leaves_nothing(void **state)
{
	(void)state;
	assert_true(sweep(F_MMAP, ENOMEM) > 0);
	sweep(F_MMAP, EPERM);
}

static void each_failed_ioctl_is_named_and_leaves_nothing(void **state)
{
	(void)state;
	/* ID of each event, SET_OUTPUT of the second ring, ENABLE and DISABLE of each */
	assert_true(sweep(F_IOCTL, EIO) >= 3 + 1 + 2 + 2);
}

static void each_failed_signal_fcntl_is_named_and_puts_the_fds_back(void **state)
{
	(void)state;
	/* two sampling fds, each with three reads and three writes */
	assert_true(sweep(F_FCNTL, EPERM) >= 12);
	sweep(F_FCNTL, EBADF);
}

static void each_failed_sysfs_read_is_named_and_leaves_nothing(void **state)
{
	(void)state;
	sweep(F_OPEN, EACCES);
	sweep(F_OPENDIR, EACCES);
	sweep(F_READ, EIO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_allocation_failure_is_named_and_leaves_nothing),
		cmocka_unit_test(each_perf_event_open_errno_is_named_and_leaves_nothing),
		cmocka_unit_test(a_failed_ring_mmap_is_named_and_leaves_nothing),
		cmocka_unit_test(each_failed_ioctl_is_named_and_leaves_nothing),
		cmocka_unit_test(each_failed_signal_fcntl_is_named_and_puts_the_fds_back),
		cmocka_unit_test(each_failed_sysfs_read_is_named_and_leaves_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, teardown);
}
