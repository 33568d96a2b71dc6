// SPDX-License-Identifier: MIT
/*
 * util/opts.h: the sized option structs of every layer, as libbpf's
 * (OPTS_HAS, OPTS_GET, OPTS_VALID).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../util/opts.h"

struct demo_opts {
	size_t sz;
	int a;
	int b;
};

/* A newer caller's struct: demo_opts and one field past it. */
struct demo_opts_newer {
	struct demo_opts o;
	long c;
};

static void a_field_counts_only_where_the_callers_size_covers_it(void **state)
{
	struct demo_opts o = { .sz = offsetof(struct demo_opts, b), .a = 1, .b = 2 };
	struct demo_opts *p = &o, *none = NULL;

	(void)state;
	assert_true(OPTS_HAS(p, a));
	assert_false(OPTS_HAS(p, b));
	assert_int_equal(OPTS_GET(p, a, 7), 1);
	assert_int_equal(OPTS_GET(p, b, 7), 7);
	assert_false(OPTS_HAS(none, a));
	assert_int_equal(OPTS_GET(none, a, 7), 7);
}

static void no_options_are_valid_and_a_size_below_its_own_field_is_not(void **state)
{
	struct demo_opts o = { .sz = sizeof(o) }, *p = &o, *none = NULL;

	(void)state;
	assert_true(OPTS_VALID(none));
	assert_true(OPTS_VALID(p));
	o.sz = sizeof(o.sz) - 1;
	assert_false(OPTS_VALID(p));
	o.sz = sizeof(o.sz);
	assert_true(OPTS_VALID(p));
}

static void a_newer_callers_unknown_fields_must_be_zero(void **state)
{
	struct demo_opts_newer n;
	struct demo_opts *p = &n.o;

	(void)state;
	memset(&n, 0, sizeof(n));
	n.o.sz = sizeof(n);
	assert_true(OPTS_VALID(p));
	n.c = 1;
	assert_false(OPTS_VALID(p));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_field_counts_only_where_the_callers_size_covers_it),
		cmocka_unit_test(no_options_are_valid_and_a_size_below_its_own_field_is_not),
		cmocka_unit_test(a_newer_callers_unknown_fields_must_be_zero),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
