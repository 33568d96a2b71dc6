// SPDX-License-Identifier: MIT
/*
 * Who may use a set: only the thread that opened it, only in the process
 * that opened it, however the process was forked and whatever TLS a new
 * thread happens to get; and closing it in a forked child is safe.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <selfmon/selfmon.h>
#include "kselftest_harness.h"
#include "fds.h"


/* The exit status of child @pid, or -1. */
static int child_status(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

TEST(a_child_of_a_raw_fork_system_call_is_refused_though_no_atfork_handler_ran)
{
	struct selfmon_set *set = selfmon_set__open("task-clock", NULL);
	pid_t pid;

	ASSERT_NE(NULL, set) TH_LOG("%s", selfmon_errmsg());
	ASSERT_EQ(0, selfmon_set__enable(set));
	pid = (pid_t)syscall(SYS_clone, SIGCHLD, 0, NULL, NULL, 0);
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		struct selfmon_count c;

		syscall(SYS_exit_group, selfmon_set__read(set, 0, &c) == -SELFMON_ERRNO__FORKED ? 0 : 1);
	}
	EXPECT_EQ(0, child_status(pid));
	selfmon_set__close(set);
}

struct opener {
	struct selfmon_set *set;
	int err;
};

static void *open_and_leave(void *p)
{
	((struct opener *)p)->set = selfmon_set__open("task-clock", NULL);
	return NULL;
}

static void *read_other(void *p)
{
	struct opener *o = p;
	struct selfmon_count c;

	o->err = selfmon_set__read(o->set, 0, &c);
	return NULL;
}

TEST(a_new_thread_on_an_exited_owners_tls_is_not_the_owner)
{
	struct opener o = { 0 };
	pthread_t t;

	/* glibc hands an exited thread's stack, TLS included, to the next thread */
	ASSERT_EQ(0, pthread_create(&t, NULL, open_and_leave, &o));
	ASSERT_EQ(0, pthread_join(t, NULL));
	ASSERT_NE(NULL, o.set) TH_LOG("%s", selfmon_errmsg());
	ASSERT_EQ(0, pthread_create(&t, NULL, read_other, &o));
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(-SELFMON_ERRNO__THREAD, o.err);
	selfmon_set__close(o.set);
}

TEST(closing_a_set_in_a_forked_child_closes_its_fds)
{
	struct selfmon_set *set = selfmon_set__open("task-clock,page-faults", NULL);
	pid_t pid;

	ASSERT_NE(NULL, set) TH_LOG("%s", selfmon_errmsg());
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		int before = open_fds();

		selfmon_set__close(set);
		_exit(open_fds() == before - 2 ? 0 : 1);
	}
	EXPECT_EQ(0, child_status(pid));
	selfmon_set__close(set);
}

TEST(closing_a_set_in_a_forked_child_leaves_the_childs_mapping_at_its_page_address)
{
	struct selfmon_set *set = selfmon_set__open("instructions:u", NULL);
	const void *page;
	pid_t pid;

	if (!set || !selfmon_set__page(set, 0)) {
		selfmon_set__close(set);
		SKIP(return, "no counter page on this machine (no hardware PMU or no user access): "
		     "the emulated arm64 board runs this");
	}
	page = selfmon_set__page(set, 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		/* perf pages are not inherited: the child may map its own memory there */
		volatile char *mine = mmap((void *)page, 4096, PROT_READ | PROT_WRITE,
					   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

		if (mine != page)
			_exit(2);
		mine[0] = 42;
		selfmon_set__close(set);
		/* had close unmapped it, this load would fault */
		_exit(mine[0] == 42 ? 0 : 1);
	}
	EXPECT_EQ(0, child_status(pid));
	selfmon_set__close(set);
}

TEST_HARNESS_MAIN
