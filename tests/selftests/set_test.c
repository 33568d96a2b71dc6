// SPDX-License-Identifier: MIT
/*
 * Integration tests on the running kernel: what selfmon promises about event
 * sets, whatever PMU this machine has. Hardware-only checks SKIP (with the
 * reason) where the kernel has no CPU PMU; the emulated arm64 board of
 * `make check` runs them for real.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <selfmon/selfmon.h>
#include "kselftest_harness.h"

static volatile unsigned long sink;

static void spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
}

/* Opens @events or SKIPs the test when the machine lacks the hardware for it. */
#define OPEN_OR_SKIP(set, events)						\
	do {									\
		set = selfmon_set__open(events, NULL);				\
		if (!set && (errno == ENOENT || errno == EOPNOTSUPP || errno == ENODEV)) \
			SKIP(return, "%s", selfmon_errmsg());			\
		ASSERT_NE(NULL, set) TH_LOG("%s", selfmon_errmsg());		\
	} while (0)

TEST(software_events_open_and_take_read2_with_reason_software)
{
	struct selfmon_set *set = selfmon_set__open("task-clock,page-faults,context-switches", NULL);
	enum selfmon_reason why;
	struct selfmon_count c;

	ASSERT_NE(NULL, set) TH_LOG("%s", selfmon_errmsg());
	ASSERT_EQ(3, selfmon_set__nr(set));
	ASSERT_EQ(0, selfmon_set__enable(set));
	for (int i = 0; i < 3; i++) {
		EXPECT_EQ(SELFMON_PATH_SYSCALL, selfmon_set__path(set, i, &why));
		EXPECT_EQ(SELFMON_REASON_SOFTWARE, why);
		EXPECT_EQ(NULL, selfmon_set__page(set, i));
		ASSERT_EQ(0, selfmon_set__read(set, i, &c));
		EXPECT_EQ(0, c.flags & SELFMON_COUNT_USER);
		EXPECT_EQ(SELFMON_REASON_SOFTWARE, c.reason);
	}
	selfmon_set__close(set);
}

TEST(task_clock_reads_are_monotonic_and_grow_while_spinning)
{
	struct selfmon_set *set = selfmon_set__open("task-clock", NULL);
	struct selfmon_count prev = { 0 }, c;

	ASSERT_NE(NULL, set) TH_LOG("%s", selfmon_errmsg());
	ASSERT_EQ(0, selfmon_set__enable(set));
	for (int i = 0; i < 20; i++) {
		spin(20000);
		ASSERT_EQ(0, selfmon_set__read(set, 0, &c));
		ASSERT_GE(c.value, prev.value);
		ASSERT_GE(c.enabled, prev.enabled);
		prev = c;
	}
	/* 400k additions take far more than a microsecond of CPU. */
	EXPECT_GT(prev.value, 1000);
	selfmon_set__close(set);
}

TEST(a_disabled_set_does_not_count)
{
	struct selfmon_set *set = selfmon_set__open("task-clock", NULL);
	struct selfmon_count a, b;

	ASSERT_NE(NULL, set);
	ASSERT_EQ(0, selfmon_set__read(set, 0, &a));
	spin(200000);
	ASSERT_EQ(0, selfmon_set__read(set, 0, &b));
	EXPECT_EQ(0, a.value);
	EXPECT_EQ(a.value, b.value);
	selfmon_set__close(set);
}

TEST(reset_makes_reads_count_from_that_point)
{
	struct selfmon_set *set = selfmon_set__open("task-clock", NULL);
	struct selfmon_count before, after;

	ASSERT_NE(NULL, set);
	ASSERT_EQ(0, selfmon_set__enable(set));
	spin(2000000);
	ASSERT_EQ(0, selfmon_set__read(set, 0, &before));
	ASSERT_EQ(0, selfmon_set__reset(set));
	ASSERT_EQ(0, selfmon_set__read(set, 0, &after));
	EXPECT_LT(after.value, before.value);
	selfmon_set__close(set);
}

TEST(hardware_instructions_count_up_on_whichever_path)
{
	struct selfmon_set *set;
	struct selfmon_count a, b;
	enum selfmon_reason why;
	int path;

	OPEN_OR_SKIP(set, "instructions:u");
	ASSERT_EQ(0, selfmon_set__enable(set));
	path = selfmon_set__path(set, 0, &why);
	ASSERT_TRUE(path == SELFMON_PATH_USER || path == SELFMON_PATH_SYSCALL);
	if (path == SELFMON_PATH_SYSCALL)
		TH_LOG("read(2) because: %s", selfmon_reason__str(why));
	ASSERT_EQ(0, selfmon_set__read(set, 0, &a));
	spin(100000);
	ASSERT_EQ(0, selfmon_set__read(set, 0, &b));
	/* Each iteration retires several instructions. */
	EXPECT_GT(b.value - a.value, 100000);
	selfmon_set__close(set);
}

TEST(user_read_expected_by_the_environment_is_taken)
{
	const char *want = getenv("SELFMON_EXPECT_USER_READ");
	struct selfmon_set *set;
	enum selfmon_reason why;
	struct selfmon_count c;

	if (!want || strcmp(want, "1"))
		SKIP(return, "SELFMON_EXPECT_USER_READ=1 not set: this machine is not known to allow user reads");
	set = selfmon_set__open("instructions:u,cycles:u", NULL);
	ASSERT_NE(NULL, set) TH_LOG("%s", selfmon_errmsg());
	ASSERT_EQ(0, selfmon_set__enable(set));
	for (int i = 0; i < 2; i++) {
		EXPECT_EQ(SELFMON_PATH_USER, selfmon_set__path(set, i, &why))
			TH_LOG("%s: %s", selfmon_set__name(set, i), selfmon_reason__str(why));
		ASSERT_EQ(0, selfmon_set__read(set, i, &c));
		EXPECT_EQ(SELFMON_COUNT_USER, c.flags & SELFMON_COUNT_USER);
		EXPECT_NE(NULL, selfmon_set__page(set, i));
	}
	selfmon_set__close(set);
}

TEST(unknown_event_name_fails_with_noevent_and_names_it)
{
	struct selfmon_set *set = selfmon_set__open("cycles,no-such-event", NULL);

	ASSERT_EQ(NULL, set);
	EXPECT_EQ(SELFMON_ERRNO__NOEVENT, errno);
	EXPECT_NE(NULL, strstr(selfmon_errmsg(), "no-such-event")) TH_LOG("%s", selfmon_errmsg());
}

TEST(unknown_pmu_fails_with_noevent_and_names_it)
{
	struct selfmon_set *set = selfmon_set__open("nopmu/event=1/", NULL);

	ASSERT_EQ(NULL, set);
	EXPECT_EQ(SELFMON_ERRNO__NOEVENT, errno);
	EXPECT_NE(NULL, strstr(selfmon_errmsg(), "nopmu")) TH_LOG("%s", selfmon_errmsg());
}

TEST(bad_syntax_fails_with_selfmon_errno_syntax)
{
	static const char *const bad[] = { "software/cpu-clock", "task-clock:z", "", "task-clock,,cycles" };

	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		EXPECT_EQ(NULL, selfmon_set__open(bad[i], NULL)) TH_LOG("'%s' opened", bad[i]);
		EXPECT_EQ(SELFMON_ERRNO__SYNTAX, errno) TH_LOG("'%s': %s", bad[i], selfmon_errmsg());
		EXPECT_NE(0, strlen(selfmon_errmsg()));
	}
}

TEST(bad_index_is_einval_not_a_crash)
{
	struct selfmon_set *set = selfmon_set__open("task-clock", NULL);
	struct selfmon_count c;

	ASSERT_NE(NULL, set);
	EXPECT_EQ(-EINVAL, selfmon_set__read(set, 1, &c));
	EXPECT_EQ(-EINVAL, selfmon_set__read(set, -1, &c));
	EXPECT_EQ(-EINVAL, selfmon_set__read(NULL, 0, &c));
	selfmon_set__close(set);
}

TEST(a_forked_child_gets_a_clear_error_not_garbage)
{
	struct selfmon_set *set = selfmon_set__open("task-clock", NULL);
	int status;
	pid_t pid;

	ASSERT_NE(NULL, set);
	ASSERT_EQ(0, selfmon_set__enable(set));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		struct selfmon_count c;

		_exit(selfmon_set__read(set, 0, &c) == -SELFMON_ERRNO__FORKED ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	selfmon_set__close(set);
}

/* The thread's own CPU time spent spinning: task-clock counts it, whatever the load. */
#define THREAD_SPIN_NS 30000000ull

static uint64_t thread_cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

struct thread_arg {
	struct selfmon_set *parent_set;
	int parent_read_err;
	uint64_t own_value, spun_ns;
	int own_err;
};

static void *thread_main(void *p)
{
	struct thread_arg *a = p;
	struct selfmon_set *set;
	struct selfmon_count c;
	uint64_t t0;

	a->parent_read_err = selfmon_set__read(a->parent_set, 0, &c);
	set = selfmon_set__open("task-clock", NULL);
	if (!set) {
		a->own_err = -errno;
		return NULL;
	}
	selfmon_set__enable(set);
	t0 = thread_cpu_ns();
	while (thread_cpu_ns() - t0 < THREAD_SPIN_NS)
		spin(10000);
	a->spun_ns = thread_cpu_ns() - t0;
	a->own_err = selfmon_set__read(set, 0, &c);
	a->own_value = c.value;
	selfmon_set__close(set);
	return NULL;
}

/*
 * The thread spins for 30 ms of its own CPU time, which its task-clock
 * counts; this thread is blocked in pthread_join() meanwhile, so its own
 * set, read around the thread's life, grows by its own short work alone
 * (thread creation), never by the thread's 30 ms. No race: both sides
 * are CPU time, which a loaded machine does not shorten or stretch.
 */
TEST(each_thread_reads_its_own_set_and_not_anothers)
{
	struct selfmon_set *set = selfmon_set__open("task-clock", NULL);
	struct thread_arg arg = { .parent_set = set };
	struct selfmon_count before, after;
	pthread_t t;

	ASSERT_NE(NULL, set);
	ASSERT_EQ(0, selfmon_set__enable(set));
	ASSERT_EQ(0, selfmon_set__read(set, 0, &before));
	ASSERT_EQ(0, pthread_create(&t, NULL, thread_main, &arg));
	ASSERT_EQ(0, pthread_join(t, NULL));
	ASSERT_EQ(0, selfmon_set__read(set, 0, &after));
	EXPECT_EQ(-SELFMON_ERRNO__THREAD, arg.parent_read_err);
	ASSERT_EQ(0, arg.own_err);
	/* task-clock and the thread's CPU clock are two kernel clocks of one running time. */
	EXPECT_LE(arg.spun_ns / 100 * 95, arg.own_value) TH_LOG("thread spun %llu ns, its set read %llu ns",
		(unsigned long long)arg.spun_ns, (unsigned long long)arg.own_value);
	EXPECT_LT(after.value - before.value, arg.spun_ns) TH_LOG("main grew %llu ns while the thread spun %llu ns",
		(unsigned long long)(after.value - before.value), (unsigned long long)arg.spun_ns);
	selfmon_set__close(set);
}

TEST(no_user_read_env_forces_read2_with_reason_config)
{
	struct selfmon_set *set;
	enum selfmon_reason why;

	setenv("SELFMON_NO_USER_READ", "1", 1);
	set = selfmon_set__open("instructions:u", NULL);
	unsetenv("SELFMON_NO_USER_READ");
	if (!set && (errno == ENOENT || errno == EOPNOTSUPP || errno == ENODEV))
		SKIP(return, "%s", selfmon_errmsg());
	ASSERT_NE(NULL, set);
	ASSERT_EQ(0, selfmon_set__enable(set));
	EXPECT_EQ(SELFMON_PATH_SYSCALL, selfmon_set__path(set, 0, &why));
	EXPECT_EQ(SELFMON_REASON_CONFIG, why);
	EXPECT_EQ(NULL, selfmon_set__page(set, 0));
	selfmon_set__close(set);
}

TEST_HARNESS_MAIN
