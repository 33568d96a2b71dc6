// SPDX-License-Identifier: MIT
/*
 * Ownership on a kernel without MADV_WIPEONFORK (before Linux 4.14): the
 * owners' list is a plain static one and the process is told by getpid(2)
 * at each check (core/owner.c). madvise is replaced (test_owner_nowipe.wrap)
 * to refuse MADV_WIPEONFORK with EINVAL, as such a kernel does; every other
 * advice runs for real. A child, forked by fork(3) or by the raw system
 * call that runs no atfork handler, is refused its parent's set; it opens
 * and reads one of its own; the parent reads on.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include <selfmon/selfmon.h>

int __real_madvise(void *addr, size_t len, int advice);
int __wrap_madvise(void *addr, size_t len, int advice);

static int wipe_refused;

int __wrap_madvise(void *addr, size_t len, int advice)
{
	if (advice == MADV_WIPEONFORK) {
		wipe_refused++;
		errno = EINVAL;
		return -1;
	}
	return __real_madvise(addr, len, advice);
}

/* The exit status of child @pid, or -1. */
static int child_status(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* In a child: 0 if the parent's @set is refused as forked and a set of its own reads. */
static int child_checks(struct selfmon_set *set)
{
	struct selfmon_count c;
	struct selfmon_set *own;
	int bad = 0;

	bad |= selfmon_set__read(set, 0, &c) != -SELFMON_ERRNO__FORKED;
	own = selfmon_set__open("task-clock", NULL);
	bad |= !own || selfmon_set__enable(own) || selfmon_set__read(own, 0, &c);
	selfmon_set__close(own);
	return bad ? 1 : 0;
}

static struct selfmon_set *open_enabled(void)
{
	struct selfmon_set *set = selfmon_set__open("task-clock", NULL);

	assert_non_null(set);
	assert_int_equal(selfmon_set__enable(set), 0);
	return set;
}

static void a_child_of_fork_is_refused_its_parent_s_set_and_reads_its_own(void **state)
{
	struct selfmon_set *set = open_enabled();
	struct selfmon_count c;
	pid_t pid;

	(void)state;
	/* The kernel of this test is emulated: the library asked, and was refused. */
	assert_true(wipe_refused > 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(child_checks(set));
	assert_int_equal(child_status(pid), 0);
	assert_int_equal(selfmon_set__read(set, 0, &c), 0);
	selfmon_set__close(set);
}

static void a_child_of_the_raw_fork_system_call_is_refused_too(void **state)
{
	struct selfmon_set *set = open_enabled();
	struct selfmon_count c;
	pid_t pid;

	(void)state;
	pid = (pid_t)syscall(SYS_clone, SIGCHLD, 0, NULL, NULL, 0);
	assert_true(pid >= 0);
	if (pid == 0)
		syscall(SYS_exit_group, child_checks(set));
	assert_int_equal(child_status(pid), 0);
	assert_int_equal(selfmon_set__read(set, 0, &c), 0);
	selfmon_set__close(set);
}

static void a_grandchild_is_refused_its_parent_s_set(void **state)
{
	struct selfmon_set *set = open_enabled();
	pid_t pid;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct selfmon_set *own = selfmon_set__open("task-clock", NULL);
		pid_t grandchild;

		if (!own || selfmon_set__enable(own))
			_exit(2);
		grandchild = fork();
		if (grandchild == 0)
			_exit(child_checks(own));
		_exit(child_status(grandchild) == 0 ? 0 : 1);
	}
	assert_int_equal(child_status(pid), 0);
	selfmon_set__close(set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_child_of_fork_is_refused_its_parent_s_set_and_reads_its_own),
		cmocka_unit_test(a_child_of_the_raw_fork_system_call_is_refused_too),
		cmocka_unit_test(a_grandchild_is_refused_its_parent_s_set),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
