// SPDX-License-Identifier: MIT
/*
 * Who may use a set: only the thread that opened it, only in the process
 * that opened it, however the process was forked and whatever TLS a new
 * thread happens to get; and closing it in a forked child is safe.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
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
	const char *events;
	struct selfmon_set *set;
	pthread_t opened_by, read_by;
	int err, err_raw, err_all;
};

static void *open_and_leave(void *p)
{
	struct opener *o = p;

	o->opened_by = pthread_self();
	o->set = selfmon_set__open(o->events, NULL);
	if (o->set)
		selfmon_set__enable(o->set);
	return NULL;
}

static void *read_other(void *p)
{
	struct opener *o = p;
	struct selfmon_count c[2];

	o->read_by = pthread_self();
	o->err = selfmon_set__read(o->set, 0, c);
	o->err_raw = selfmon_set__read_raw(o->set, 0, c);
	o->err_all = selfmon_set__read_all(o->set, c);
	return NULL;
}

/*
 * glibc hands an exited thread's stack, its thread pointer and TLS with it,
 * to the next thread: that one has the owner's pointer, which the inline
 * check compares, and must still be refused by each read.
 */
static void check_new_thread_on_exited_owner(struct __test_metadata *_metadata,
					     const char *events)
{
	struct opener o = { .events = events };
	pthread_t t;

	ASSERT_EQ(0, pthread_create(&t, NULL, open_and_leave, &o));
	ASSERT_EQ(0, pthread_join(t, NULL));
	ASSERT_NE(NULL, o.set) TH_LOG("%s", selfmon_errmsg());
	ASSERT_EQ(0, pthread_create(&t, NULL, read_other, &o));
	ASSERT_EQ(0, pthread_join(t, NULL));
	TH_LOG("%s: the reader %s the exited owner's thread",
	       events, pthread_equal(o.opened_by, o.read_by) ? "took over" : "did not take over");
	EXPECT_EQ(-SELFMON_ERRNO__THREAD, o.err);
	EXPECT_EQ(-SELFMON_ERRNO__THREAD, o.err_raw);
	EXPECT_EQ(-SELFMON_ERRNO__THREAD, o.err_all);
	selfmon_set__close(o.set);
}

TEST(a_new_thread_on_an_exited_owners_tls_is_not_the_owner)
{
	check_new_thread_on_exited_owner(_metadata, "task-clock");
}

/* The inline read's own check: a counter with a page (the emulated board's). */
TEST(a_new_thread_on_an_exited_owners_tls_is_not_the_owner_of_a_counter_read_inline)
{
	struct selfmon_set *set = selfmon_set__open("instructions:u", NULL);
	bool inline_read = set && selfmon_set__page(set, 0);

	selfmon_set__close(set);
	if (!inline_read)
		SKIP(return, "no counter page on this machine (no hardware PMU or no user access): "
		     "the emulated arm64 board runs this");
	check_new_thread_on_exited_owner(_metadata, "instructions:u");
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
