// SPDX-License-Identifier: MIT
/*
 * The closest names of core/closest.c, which the errors for an unknown event,
 * metric or group quote: edit distance counts a swap of neighbours as one and
 * ignores case; only names within a small distance (or holding the name
 * whole) are kept, at most SELFMON_CLOSEST_MAX, nearest first, each once.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../core/closest.h"

static void a_swap_an_insertion_a_deletion_each_cost_one(void **state)
{
	(void)state;
	assert_int_equal(selfmon_closest__distance("cycles", "cycles"), 0);
	assert_int_equal(selfmon_closest__distance("cyles", "cycles"), 1);
	assert_int_equal(selfmon_closest__distance("ipcc", "ipc"), 1);
	assert_int_equal(selfmon_closest__distance("instrutcions", "instructions"), 1);
	assert_int_equal(selfmon_closest__distance("IPC", "ipc"), 0);
	assert_int_equal(selfmon_closest__distance("", "abc"), 3);
}

static void the_nearest_come_first_each_once_and_few(void **state)
{
	static const char *const names[] = { "cpi", "ipc", "IPC", "ipcs", "ips", "tma_info_thread_ipc",
					     "ipx", "pc", "i", "zzz" };
	struct selfmon_closest c;
	char out[256];

	(void)state;
	selfmon_closest__init(&c, "ipcc");
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		selfmon_closest__offer(&c, names[i]);
	assert_int_equal(selfmon_closest__format(&c, out, sizeof(out)), 2);
	assert_string_equal(out, "'ipc', 'ipcs'");
	selfmon_closest__init(&c, "ipc");
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		selfmon_closest__offer(&c, names[i]);
	/* "ipc" itself is not a suggestion; the name that holds it comes after the near ones. */
	assert_int_equal(selfmon_closest__format(&c, out, sizeof(out)), SELFMON_CLOSEST_MAX);
	assert_string_equal(out, "'ipcs', 'ips', 'ipx', 'pc'");
}

static void nothing_close_gives_nothing(void **state)
{
	struct selfmon_closest c;
	char out[64] = "x";

	(void)state;
	selfmon_closest__init(&c, "zzqqxw");
	selfmon_closest__offer(&c, "instructions");
	selfmon_closest__offer(&c, "cycles");
	assert_int_equal(selfmon_closest__format(&c, out, sizeof(out)), 0);
	assert_string_equal(out, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_swap_an_insertion_a_deletion_each_cost_one),
		cmocka_unit_test(the_nearest_come_first_each_once_and_few),
		cmocka_unit_test(nothing_close_gives_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
