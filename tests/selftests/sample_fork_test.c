// SPDX-License-Identifier: MIT
/*
 * A sampler opened in a forked child belongs to the child: its overflow
 * signals go to the child's thread, none to the parent that opened a
 * sampler before the fork, and a parent that never asked for the signal
 * (no handler: the default action kills) lives on. The forking thread's
 * cached tid survives fork(): the child must not hand it to F_SETOWN_EX.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <selfmon/selfmon.h>
#include <selfmon/sampler.h>
#include "kselftest_harness.h"

#define SIG SIGUSR1

static volatile sig_atomic_t got, got_foreign_fd;
static struct selfmon_sampler *child_smp;

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	got++;
	if (!selfmon_sampler__owns_fd(child_smp, si->si_fd))
		got_foreign_fd = 1;
}

static uint64_t cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static volatile uint64_t sink;

/* Run on this thread's CPU for @ms: cpu-clock counts it, a wakeup every sample. */
static void spin(unsigned int ms)
{
	uint64_t end = cpu_ns() + ms * 1000000ull;

	while (cpu_ns() < end)
		for (int i = 0; i < 10000; i++)
			sink += (uint64_t)i;
}

static struct selfmon_sampler *open_sampler(void)
{
	struct selfmon_sampler_opts o = { .sz = sizeof(o), .period = 200000, .wakeup_events = 1 };

	return selfmon_sampler__open("cpu-clock:u", &o);
}

/*
 * The child: its own sampler, signals asked for, 50 ms of CPU. Exit 0 when
 * its own handler saw signals of its own fds; 2, 3, 4 say what went wrong.
 */
static void child(void)
{
	struct sigaction sa = { .sa_sigaction = on_signal, .sa_flags = SA_SIGINFO | SA_RESTART };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIG);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	sigaction(SIG, &sa, NULL);
	child_smp = open_sampler();
	if (!child_smp || selfmon_sampler__signal(child_smp, SIG) || selfmon_sampler__enable(child_smp))
		_exit(2);
	spin(50);
	selfmon_sampler__disable(child_smp);
	_exit(!got ? 3 : got_foreign_fd ? 4 : 0);
}

static int child_status(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) != pid)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST(a_forked_childs_sampler_signals_the_child_and_never_the_parent)
{
	struct selfmon_sampler *smp = open_sampler();
	sigset_t set, pending;
	pid_t pid;

	ASSERT_NE(NULL, smp) TH_LOG("%s", selfmon_errmsg());
	/* Blocked here: a signal sent to this thread stays pending, to be seen. */
	sigemptyset(&set);
	sigaddset(&set, SIG);
	ASSERT_EQ(0, sigprocmask(SIG_BLOCK, &set, NULL));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)
		child();
	EXPECT_EQ(0, child_status(pid)) TH_LOG("2: the child's sampler did not open or signal; "
					       "3: the child got no signal; 4: a signal of an fd "
					       "not the child's");
	ASSERT_EQ(0, sigpending(&pending));
	EXPECT_FALSE(sigismember(&pending, SIG)) TH_LOG("the child's overflow signal came here");
	signal(SIG, SIG_IGN);	/* drop a pending one before unblocking */
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	selfmon_sampler__close(smp);
}

TEST(a_parent_without_a_handler_outlives_its_childs_sampler)
{
	struct selfmon_sampler *smp = open_sampler();
	pid_t pid;

	ASSERT_NE(NULL, smp) TH_LOG("%s", selfmon_errmsg());
	signal(SIG, SIG_DFL);	/* the default action: death */
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)
		child();
	/* A stray signal kills this process here: the harness reports it. */
	EXPECT_EQ(0, child_status(pid));
	selfmon_sampler__close(smp);
}

/* The same after a raw fork system call, which runs no atfork handler. */
TEST(a_child_of_a_raw_fork_system_call_signals_itself_too)
{
	struct selfmon_sampler *smp = open_sampler();
	sigset_t set, pending;
	pid_t pid;

	ASSERT_NE(NULL, smp) TH_LOG("%s", selfmon_errmsg());
	sigemptyset(&set);
	sigaddset(&set, SIG);
	ASSERT_EQ(0, sigprocmask(SIG_BLOCK, &set, NULL));
	pid = (pid_t)syscall(SYS_clone, SIGCHLD, 0, NULL, NULL, 0);
	ASSERT_GE(pid, 0);
	if (pid == 0)
		child();
	EXPECT_EQ(0, child_status(pid));
	ASSERT_EQ(0, sigpending(&pending));
	EXPECT_FALSE(sigismember(&pending, SIG));
	signal(SIG, SIG_IGN);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	selfmon_sampler__close(smp);
}

TEST_HARNESS_MAIN
