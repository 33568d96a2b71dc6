// SPDX-License-Identifier: MIT
/*
 * selfmon_metrics__split(): the "@name" items of an event list are metrics,
 * taken out whole, in order; groups, PMU terms and modifiers stay with the
 * events; a list without "@" comes back unchanged; an output too small or a
 * list that does not parse is an error, never a cut list.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <selfmon/metric.h>
#include <selfmon/selfmon.h>

static void at_items_are_metrics_and_the_rest_stays_events(void **state)
{
	char ev[256], names[128];

	(void)state;
	assert_int_equal(selfmon_metrics__split("instructions:u,@ipc,{cycles,pmu/event=0x11,umask=1/}:u,@TopdownL1",
						ev, sizeof(ev), names, sizeof(names)), 0);
	assert_string_equal(ev, "instructions:u,{cycles,pmu/event=0x11,umask=1/}:u");
	assert_string_equal(names, "ipc,TopdownL1");
	assert_int_equal(selfmon_metrics__split("@ipc", ev, sizeof(ev), names, sizeof(names)), 0);
	assert_string_equal(ev, "");
	assert_string_equal(names, "ipc");
	assert_int_equal(selfmon_metrics__split("cycles,instructions", ev, sizeof(ev), names, sizeof(names)), 0);
	assert_string_equal(ev, "cycles,instructions");
	assert_string_equal(names, "");
}

static void no_room_or_bad_syntax_is_an_error(void **state)
{
	char ev[8], names[128];

	(void)state;
	assert_int_equal(selfmon_metrics__split("instructions,@ipc", ev, sizeof(ev), names, sizeof(names)),
			 -ENAMETOOLONG);
	assert_int_equal(selfmon_metrics__split("{cycles,@ipc", names, sizeof(names), ev, sizeof(ev)),
			 -SELFMON_ERRNO__SYNTAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(at_items_are_metrics_and_the_rest_stays_events),
		cmocka_unit_test(no_room_or_bad_syntax_is_an_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
