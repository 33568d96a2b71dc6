// SPDX-License-Identifier: MIT
/*
 * Event lists with groups, as perf writes them: "{a,b}:mods" is a group whose
 * first event leads; groups do not nest and are never empty; modifiers after
 * the brace go to every member, D and e to the group through its leader.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <selfmon/selfmon.h>
#include "../../core/list.h"

#define N 8

static int split(const char *list, struct selfmon_spec *out)
{
	return selfmon_list__split(list, out, N);
}

static void a_group_is_its_events_with_the_first_as_leader(void **state)
{
	struct selfmon_spec s[N];

	(void)state;
	assert_int_equal(split("{cycles:u,instructions:u}", s), 2);
	assert_string_equal(s[0].name, "cycles:u");
	assert_string_equal(s[1].name, "instructions:u");
	assert_int_equal(s[0].group, 0);
	assert_int_equal(s[1].group, 0);
	assert_true(s[0].leader);
	assert_false(s[1].leader);
}

static void groups_and_lone_events_share_one_list_in_order(void **state)
{
	struct selfmon_spec s[N];

	(void)state;
	assert_int_equal(split("task-clock, {cycles,instructions} ,r08,{page-faults}", s), 5);
	assert_int_equal(s[0].group, -1);
	assert_int_equal(s[1].group, 0);
	assert_int_equal(s[2].group, 0);
	assert_int_equal(s[3].group, -1);
	assert_string_equal(s[3].name, "r08");
	assert_int_equal(s[4].group, 1);
	assert_true(s[4].leader);
	assert_string_equal(s[4].name, "page-faults");
}

static void commas_inside_a_pmu_event_inside_a_group_separate_terms(void **state)
{
	struct selfmon_spec s[N];

	(void)state;
	assert_int_equal(split("{armv8_pmuv3/event=0x11,long=1/,cycles}", s), 2);
	assert_string_equal(s[0].name, "armv8_pmuv3/event=0x11,long=1/");
	assert_string_equal(s[1].name, "cycles");
}

static void groups_do_not_nest(void **state)
{
	struct selfmon_spec s[N];

	(void)state;
	assert_int_equal(split("{cycles,{instructions}}", s), -SELFMON_ERRNO__SYNTAX);
	assert_non_null(strstr(selfmon_errmsg(), "nest"));
}

static void an_empty_group_is_a_syntax_error(void **state)
{
	struct selfmon_spec s[N];

	(void)state;
	assert_int_equal(split("{}", s), -SELFMON_ERRNO__SYNTAX);
	assert_int_equal(split("cycles,{ }", s), -SELFMON_ERRNO__SYNTAX);
	assert_int_equal(split("{cycles,}", s), -SELFMON_ERRNO__SYNTAX);
	assert_int_equal(split("{,cycles}", s), -SELFMON_ERRNO__SYNTAX);
}

static void unbalanced_braces_are_syntax_errors(void **state)
{
	struct selfmon_spec s[N];

	(void)state;
	assert_int_equal(split("{cycles,instructions", s), -SELFMON_ERRNO__SYNTAX);
	assert_int_equal(split("cycles}", s), -SELFMON_ERRNO__SYNTAX);
	assert_int_equal(split("{cycles}}", s), -SELFMON_ERRNO__SYNTAX);
}

static void modifiers_after_a_group_go_to_every_member(void **state)
{
	struct selfmon_spec s[N];

	(void)state;
	assert_int_equal(split("{cycles,instructions:k}:u", s), 2);
	assert_string_equal(s[0].mods, "u");
	assert_string_equal(s[1].mods, "u");
	assert_false(s[0].pinned);
}

static void d_and_e_after_a_group_pin_and_isolate_it_through_its_leader(void **state)
{
	struct selfmon_spec s[N];

	(void)state;
	assert_int_equal(split("{cycles,instructions}:uD", s), 2);
	assert_true(s[0].pinned);
	assert_false(s[0].exclusive);
	assert_false(s[1].pinned);
	assert_string_equal(s[0].mods, "u");
	assert_int_equal(split("{cycles}:e", s), 1);
	assert_true(s[0].exclusive);
	assert_string_equal(s[0].mods, "");
}

static void only_colon_modifiers_may_follow_a_group(void **state)
{
	struct selfmon_spec s[N];

	(void)state;
	assert_int_equal(split("{cycles}u", s), -SELFMON_ERRNO__SYNTAX);
	assert_int_equal(split("{cycles}:", s), -SELFMON_ERRNO__SYNTAX);
	assert_int_equal(split("{cycles}:DD", s), -SELFMON_ERRNO__SYNTAX);
}

static void a_group_counts_against_the_events_a_set_holds(void **state)
{
	struct selfmon_spec s[2];

	(void)state;
	assert_int_equal(selfmon_list__split("{cycles,instructions}", s, 2), 2);
	assert_int_equal(selfmon_list__split("{cycles,instructions,branches}", s, 2), -E2BIG);
}

static void next_gives_each_item_a_whole_group_at_a_time(void **state)
{
	const char *cursor = "cycles, {a,b/x,y/}:u ,c";
	char item[64];

	(void)state;
	assert_int_equal(selfmon_events__next(&cursor, item, sizeof(item)), 1);
	assert_string_equal(item, "cycles");
	assert_int_equal(selfmon_events__next(&cursor, item, sizeof(item)), 1);
	assert_string_equal(item, "{a,b/x,y/}:u");
	assert_int_equal(selfmon_events__next(&cursor, item, sizeof(item)), 1);
	assert_string_equal(item, "c");
	assert_int_equal(selfmon_events__next(&cursor, item, sizeof(item)), 0);
}

static void next_refuses_what_split_refuses(void **state)
{
	const char *bad[] = { "a,,b", "a,", "{a", "a/b", "{a,{b}}", NULL };
	char item[64];

	(void)state;
	for (int i = 0; bad[i]; i++) {
		const char *cursor = bad[i];
		int r;

		while ((r = selfmon_events__next(&cursor, item, sizeof(item))) > 0)
			;
		if (r != -SELFMON_ERRNO__SYNTAX)
			fail_msg("'%s': %d, want -SELFMON_ERRNO__SYNTAX", bad[i], r);
	}
	assert_int_equal(selfmon_events__next(NULL, item, sizeof(item)), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_group_is_its_events_with_the_first_as_leader),
		cmocka_unit_test(groups_and_lone_events_share_one_list_in_order),
		cmocka_unit_test(commas_inside_a_pmu_event_inside_a_group_separate_terms),
		cmocka_unit_test(groups_do_not_nest),
		cmocka_unit_test(an_empty_group_is_a_syntax_error),
		cmocka_unit_test(unbalanced_braces_are_syntax_errors),
		cmocka_unit_test(modifiers_after_a_group_go_to_every_member),
		cmocka_unit_test(d_and_e_after_a_group_pin_and_isolate_it_through_its_leader),
		cmocka_unit_test(only_colon_modifiers_may_follow_a_group),
		cmocka_unit_test(a_group_counts_against_the_events_a_set_holds),
		cmocka_unit_test(next_gives_each_item_a_whole_group_at_a_time),
		cmocka_unit_test(next_refuses_what_split_refuses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
