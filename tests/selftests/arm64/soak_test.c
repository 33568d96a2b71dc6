// SPDX-License-Identifier: MIT
/*
 * Soak on a board with two core types (the emulated big.LITTLE boot): a
 * thread reads its set without pause while another thread moves it from
 * cluster to cluster every few milliseconds; eight threads read sets of
 * their own at once; and the process forks and execs meanwhile. No read may
 * go backwards, and no read taken off the set's cluster may claim to come
 * from a counter register (the arm64 perf document, "About heterogeneous
 * systems": there the page says index = 0, and the read falls back).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <selfmon/machine.h>
#include <selfmon/selfmon.h>
#include "kselftest_harness.h"
#include "board.h"

#define SOAK_READS	1000000
#define SOAK_SECONDS	40
#define MOVE_NS		3000000		/* the mover's period: 3 ms */
#define THREADS		8
#define MIN_MOVES	20

/* "0-1,4" into @set. Return: 0, or -1 on anything else. */
static int parse_cpus(const char *list, cpu_set_t *set)
{
	CPU_ZERO(set);
	while (*list) {
		char *end;
		long a = strtol(list, &end, 10), b = a;

		if (end == list)
			return -1;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (long c = a; c <= b && c < CPU_SETSIZE; c++)
			CPU_SET((int)c, set);
		list = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return -1;
	}
	return 0;
}

/* The two clusters' CPUs, or SKIP where the board has one core type. */
static int two_clusters(cpu_set_t cl[2])
{
	struct selfmon_machine *m = selfmon_machine__open(NULL);
	struct selfmon_cluster_info info;
	int n = m ? selfmon_machine__nr_clusters(m) : 0;

	for (int i = 0; i < 2 && n == 2; i++)
		if (selfmon_machine__cluster(m, i, &info) || parse_cpus(info.cpus, &cl[i]))
			n = -1;
	selfmon_machine__close(m);
	return n;
}

#define TWO_CLUSTERS_OR_SKIP(cl)						\
	do {									\
		if (read_sysctl(USER_ACCESS) != 1)				\
			SKIP(return, "kernel.perf_user_access is not 1 (run as root through run_tests.sh)"); \
		if (two_clusters(cl) != 2)					\
			SKIP(return, "one core type here: the emulated big.LITTLE boot runs this"); \
	} while (0)

struct mover {
	pid_t tid;
	cpu_set_t cl[2];
	volatile int stop;
	volatile long moves;
};

static void *move_it(void *p)
{
	struct mover *m = p;
	struct timespec ts = { 0, MOVE_NS };

	while (!m->stop) {
		sched_setaffinity(m->tid, sizeof(cpu_set_t), &m->cl[m->moves++ % 2]);
		nanosleep(&ts, NULL);
	}
	return NULL;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

TEST(reads_stay_monotonic_and_flagged_while_another_thread_moves_the_reader_between_clusters)
{
	struct mover m = { 0 };
	struct selfmon_count c;
	struct selfmon_set *set;
	long reads = 0, user = 0, off = 0, backwards = 0, unflagged = 0;
	uint64_t prev = 0;
	cpu_set_t mine;
	pthread_t t;
	double end;

	TWO_CLUSTERS_OR_SKIP(m.cl);
	OPEN_USER(set, "instructions:u", NULL);
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(mine), &mine));
	m.tid = gettid();
	ASSERT_EQ(0, pthread_create(&t, NULL, move_it, &m));
	/* The reads count only once the mover runs: a new thread may start late. */
	end = now_s() + SOAK_SECONDS;
	while (!m.moves && now_s() < end)
		sched_yield();
	/* A million reads, and at least MIN_MOVES moves among them, within the deadline. */
	for (; (reads < SOAK_READS || m.moves < MIN_MOVES) && (reads & 1023 || now_s() < end); reads++) {
		int before = sched_getcpu(), after;

		ASSERT_EQ(0, selfmon_set__read(set, 0, &c)) TH_LOG("%s", selfmon_errmsg());
		after = sched_getcpu();
		backwards += c.value < prev;
		prev = c.value;
		if (c.flags & SELFMON_COUNT_USER) {
			user++;
			/* a register read on a CPU of the other PMU would be garbage */
			unflagged += !CPU_ISSET(before, &mine) && !CPU_ISSET(after, &mine);
		} else if (c.reason == SELFMON_REASON_OFF_CLUSTER) {
			off++;
		}
	}
	m.stop = 1;
	pthread_join(t, NULL);
	TH_LOG("%ld reads (%ld from the register, %ld off the cluster), %ld moves", reads, user, off, m.moves);
	EXPECT_EQ(0, backwards);
	EXPECT_EQ(0, unflagged);
	EXPECT_GT(user, 0);
	EXPECT_GT(off, 0) TH_LOG("the reader was never seen off its cluster: the soak proved nothing");
	EXPECT_GE(m.moves, MIN_MOVES);
	EXPECT_GE(reads, SOAK_READS);
	sched_setaffinity(0, sizeof(mine), &mine);
	selfmon_set__close(set);
}

struct worker {
	int err;
	long backwards;
	uint64_t last;
};

static void *read_own(void *p)
{
	struct worker *w = p;
	struct selfmon_set *set = selfmon_set__open("instructions:u", NULL);
	struct selfmon_count c;

	if (!set || selfmon_set__enable(set)) {
		w->err = -errno ? -errno : -EIO;
		selfmon_set__close(set);
		return NULL;
	}
	for (int i = 0; i < 20000 && !w->err; i++) {
		loop3(100);
		w->err = selfmon_set__read(set, 0, &c);
		w->backwards += c.value < w->last;
		w->last = c.value;
	}
	selfmon_set__close(set);
	return NULL;
}

TEST(eight_threads_with_sets_of_their_own_read_while_the_process_forks_and_execs)
{
	struct worker w[THREADS] = { 0 };
	pthread_t t[THREADS];
	cpu_set_t cl[2];
	int children = 0, failed = 0;

	TWO_CLUSTERS_OR_SKIP(cl);
	for (int i = 0; i < THREADS; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, read_own, &w[i]));
	/* a fork and exec storm beside them */
	for (int i = 0; i < 50; i++) {
		pid_t pid = fork();
		int status;

		ASSERT_GE(pid, 0);
		if (pid == 0) {
			execl("/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		children++;
		failed += waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status);
	}
	for (int i = 0; i < THREADS; i++) {
		ASSERT_EQ(0, pthread_join(t[i], NULL));
		EXPECT_EQ(0, w[i].err) TH_LOG("thread %d: %s", i, strerror(-w[i].err));
		EXPECT_EQ(0, w[i].backwards);
		EXPECT_GT(w[i].last, 20000 * 250);	/* 301 a pass; icount leaks between vCPUs */
	}
	EXPECT_EQ(0, failed) TH_LOG("%d of %d children did not exec /bin/true", failed, children);
}

TEST_HARNESS_MAIN
