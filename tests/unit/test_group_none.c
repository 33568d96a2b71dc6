// SPDX-License-Identifier: MIT
/*
 * A library built without CONFIG_GROUPS (core/group_none.c, linked here
 * in place of group.c on any build): selfmon_set__open() refuses a group
 * "{...}" with -EOPNOTSUPP and a message that names the option and the way
 * out, leaves nothing open, and still opens lone events. libperf's system
 * calls are mocked (test_group_none.wrap, libperf_mock.h) on a fake sysfs
 * root, as in test_set.c.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <selfmon/selfmon.h>
#include "set_world.h"

static int world_setup(void **state)
{
	return set_world__setup(state, "2");
}

static void a_group_is_refused_with_eopnotsupp_before_any_open(void **state)
{
	struct world *w = *state;

	w->set = selfmon_set__open("{task-clock,context-switches}", &w->opts);
	assert_null(w->set);
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(lp.opens, 0);
}

static void the_refusal_names_the_event_the_option_and_the_way_out(void **state)
{
	struct world *w = *state;
	const char *msg;

	w->set = selfmon_set__open("{task-clock,context-switches}:u", &w->opts);
	assert_null(w->set);
	msg = selfmon_errmsg();
	assert_non_null(strstr(msg, "'task-clock'"));
	assert_non_null(strstr(msg, "CONFIG_GROUPS"));
	assert_non_null(strstr(msg, "without braces"));
}

static void a_group_after_a_lone_event_closes_the_lone_event(void **state)
{
	struct world *w = *state;

	w->set = selfmon_set__open("page-faults,{task-clock,context-switches}", &w->opts);
	assert_null(w->set);
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(lp.opens, 1);
	assert_int_equal(lp.attr[0].config, PERF_COUNT_SW_PAGE_FAULTS);
}

static void lone_events_still_open_each_on_its_own(void **state)
{
	struct world *w = *state;
	struct selfmon_count c;

	w->set = selfmon_set__open("task-clock,context-switches", &w->opts);
	assert_non_null(w->set);
	assert_int_equal(selfmon_set__nr(w->set), 2);
	assert_int_equal(lp.opens, 2);
	libperf_mock__counts((struct perf_counts_values){ .val = 7, .ena = 3, .run = 3 });
	assert_int_equal(selfmon_set__read(w->set, 1, &c), 0);
	assert_true(c.value == 7);
}

#define T(f) cmocka_unit_test_setup_teardown(f, world_setup, set_world__teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(a_group_is_refused_with_eopnotsupp_before_any_open),
		T(the_refusal_names_the_event_the_option_and_the_way_out),
		T(a_group_after_a_lone_event_closes_the_lone_event),
		T(lone_events_still_open_each_on_its_own),
	};

	return cmocka_run_group_tests_name("group_none", tests, NULL, NULL);
}
