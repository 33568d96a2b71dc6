// SPDX-License-Identifier: MIT
/*
 * selfmon_once__run() (core/lock.h): the library's run-once, in place of
 * pthread_once(3). Its function runs once however many threads ask at
 * once, and each caller returns only after it has finished.
 */
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../core/lock.h"

#define THREADS 8

static struct selfmon_once once = SELFMON_ONCE_INIT;
static int runs;
static int finished;
static int start;

/* Slow on purpose: the other callers arrive while it runs. */
static void init_slowly(void)
{
	__atomic_add_fetch(&runs, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < 1000; i++)
		sched_yield();
	finished = 1;
}

static void *caller(void *arg)
{
	int *seen = arg;

	while (!__atomic_load_n(&start, __ATOMIC_ACQUIRE))
		sched_yield();
	selfmon_once__run(&once, init_slowly);
	*seen = finished;
	return NULL;
}

static void the_function_runs_once_and_every_caller_sees_it_finished(void **state)
{
	pthread_t t[THREADS];
	int seen[THREADS] = { 0 };

	(void)state;
	for (int i = 0; i < THREADS; i++)
		assert_int_equal(pthread_create(&t[i], NULL, caller, &seen[i]), 0);
	__atomic_store_n(&start, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < THREADS; i++) {
		assert_int_equal(pthread_join(t[i], NULL), 0);
		assert_int_equal(seen[i], 1);
	}
	assert_int_equal(runs, 1);
	selfmon_once__run(&once, init_slowly);
	assert_int_equal(runs, 1);
}

static int count;

static void add_one(void)
{
	count++;
}

static void each_once_object_runs_its_own_function(void **state)
{
	struct selfmon_once a = SELFMON_ONCE_INIT, b = SELFMON_ONCE_INIT;

	(void)state;
	selfmon_once__run(&a, add_one);
	selfmon_once__run(&a, add_one);
	selfmon_once__run(&b, add_one);
	assert_int_equal(count, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_function_runs_once_and_every_caller_sees_it_finished),
		cmocka_unit_test(each_once_object_runs_its_own_function),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
