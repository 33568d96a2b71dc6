// SPDX-License-Identifier: MIT
/*
 * The markers' life cycle (bench/marker_thread.c) stands below their hot
 * paths (bench/marker.c) and calls nothing above it: it opens a thread's
 * counters at its first begin and says that this call opened them; the
 * empty pair is then measured by marker.c, with its own paths, before the
 * begin goes on. Counted with task-clock, which any machine has.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include <selfmon/marker.h>
#include "../../bench/marker_int.h"

static void *get_twice(void *arg)
{
	bool *opened = arg;
	struct mk_thread *t = mk_thread_get(&opened[0]);

	if (t != mk_thread_get(&opened[1]))
		opened[2] = true;
	/* The life cycle leaves the empty pair to its caller: nothing measured. */
	for (int f = 0; t && f < MK_FORMS; f++)
		if (t->overhead[f][0])
			opened[3] = true;
	return t;
}

static void the_life_cycle_opens_a_threads_counters_says_so_once_and_measures_nothing(void **state)
{
	bool opened[4] = { false, false, false, false };
	pthread_t th;
	void *t;

	(void)state;
	assert_int_equal(pthread_create(&th, NULL, get_twice, opened), 0);
	assert_int_equal(pthread_join(th, &t), 0);
	assert_non_null(t);
	assert_true(opened[0]);
	assert_false(opened[1]);
	assert_false(opened[2]); /* the same thread both times */
	assert_false(opened[3]);
}

static void *first_begin(void *arg)
{
	(void)arg;
	selfmon_marker__begin("first");
	selfmon_marker__end("first");
	return mk_self;
}

static void a_threads_first_begin_measures_the_empty_pair_of_each_form(void **state)
{
	struct mk_thread *t;
	pthread_t th;
	void *ret;

	(void)state;
	assert_int_equal(pthread_create(&th, NULL, first_begin, NULL), 0);
	assert_int_equal(pthread_join(th, &ret), 0);
	t = ret;
	assert_non_null(t);
	/* task-clock across two reads by read(2): never 0 ns. */
	for (int f = 0; f < MK_FORMS; f++)
		assert_true(t->overhead[f][0] > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_life_cycle_opens_a_threads_counters_says_so_once_and_measures_nothing),
		cmocka_unit_test(a_threads_first_begin_measures_the_empty_pair_of_each_form),
	};

	setenv("SELFMON_EVENTS", "task-clock", 1);
	setenv("SELFMON_OUTPUT", "/dev/null", 1);
	return cmocka_run_group_tests_name("marker_thread", tests, NULL, NULL);
}
