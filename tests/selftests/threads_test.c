// SPDX-License-Identifier: MIT
/*
 * Threads on the running kernel: sets opened, read and
 * closed by many threads at once share nothing a thread could race on. Run
 * by `make check` in a ThreadSanitizer build too (libperf included), where a
 * race fails the test. Software events only: they open on every kernel.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <selfmon/selfmon.h>
#include "kselftest_harness.h"

#define NR_THREADS 8

struct worker {
	pthread_barrier_t *start;
	int rounds;
	int err;
	char msg[256];
};

/* Open, enable, read and close a set @w->rounds times; the first open of all is at the barrier. */
static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct selfmon_count c;

	pthread_barrier_wait(w->start);
	for (int i = 0; i < w->rounds && !w->err; i++) {
		struct selfmon_set *set = selfmon_set__open("task-clock,context-switches", NULL);

		if (!set) {
			w->err = -errno;
			snprintf(w->msg, sizeof(w->msg), "%s", selfmon_errmsg());
			break;
		}
		w->err = selfmon_set__enable(set);
		if (!w->err)
			w->err = selfmon_set__read(set, 0, &c);
		if (!w->err && !c.enabled)
			w->err = -ENODATA;
		if (w->err)
			snprintf(w->msg, sizeof(w->msg), "%s", selfmon_errmsg());
		selfmon_set__close(set);
	}
	return NULL;
}

static void run_workers(struct __test_metadata *_metadata, int rounds)
{
	struct worker w[NR_THREADS];
	pthread_barrier_t start;
	pthread_t t[NR_THREADS];

	ASSERT_EQ(0, pthread_barrier_init(&start, NULL, NR_THREADS));
	for (int i = 0; i < NR_THREADS; i++) {
		w[i] = (struct worker){ .start = &start, .rounds = rounds };
		ASSERT_EQ(0, pthread_create(&t[i], NULL, worker_main, &w[i]));
	}
	for (int i = 0; i < NR_THREADS; i++)
		ASSERT_EQ(0, pthread_join(t[i], NULL));
	for (int k = 0; k < NR_THREADS; k++) {
		const struct worker *wk = &w[k];

		EXPECT_EQ(0, wk->err) TH_LOG("a thread: %s", wk->msg);
	}
	pthread_barrier_destroy(&start);
}

/* Each TEST runs in a fresh child: these are the process's first sets. */
TEST(eight_threads_opening_their_first_set_at_once_do_not_race)
{
	run_workers(_metadata, 1);
}

TEST(eight_threads_opening_reading_and_closing_sets_in_a_loop_do_not_race)
{
	run_workers(_metadata, 50);
}

static void *fail_main(void *arg)
{
	char *msg = arg;

	if (!selfmon_set__open("no-such-event-here", NULL))
		snprintf(msg, 256, "%s", selfmon_errmsg());
	return NULL;
}

TEST(each_thread_keeps_its_own_error_message)
{
	char msg[256] = "";
	pthread_t t;

	ASSERT_EQ(NULL, selfmon_set__open("cpu/event=zz/", NULL));
	ASSERT_EQ(0, pthread_create(&t, NULL, fail_main, msg));
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_NE(NULL, strstr(msg, "no-such-event-here")) TH_LOG("%s", msg);
	EXPECT_EQ(NULL, strstr(selfmon_errmsg(), "no-such-event-here")) TH_LOG("%s", selfmon_errmsg());
}

TEST_HARNESS_MAIN
