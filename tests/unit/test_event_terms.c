// SPDX-License-Identifier: MIT
/*
 * The terms of a PMU event: each term once, and
 * its value read as perf's event lexer reads it (tools/perf/util/
 * parse-events.l: num_dec [0-9]+ in base 10, num_hex 0x[0-9a-fA-F]+ in base
 * 16, nothing else). Fake sysfs root: x86 'cpu' (type 4) and an 'msr' PMU
 * whose aliases all fill its one 'event' term, as the kernel's msr PMU does.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <selfmon/selfmon.h>
#include "../../core/event.h"
#include "pmu_world.h"

static int world_setup(void **state)
{
	struct world *w = world__new(state);

	if (!w)
		return -1;
	fakeroot__x86_cpu(w->root, 1);
	fakeroot__pmu_file(w->root, "msr", "type", "9");
	fakeroot__pmu_file(w->root, "msr", "cpumask", "0");
	fakeroot__pmu_file(w->root, "msr", "format/event", "config:0-63");
	fakeroot__pmu_file(w->root, "msr", "events/tsc", "event=0x00");
	fakeroot__pmu_file(w->root, "msr", "events/smi", "event=0x04");
	return world__load(w, 3);
}

static uint64_t config_of(void **state, const char *spec)
{
	struct world *w = *state;
	int err = selfmon_event__parse(spec, &w->pmus, &w->ev);

	if (err)
		fail_msg("'%s': %d (%s)", spec, err, selfmon_errmsg());
	return w->ev.attr.config;
}

static void is_syntax_error_naming(void **state, const char *spec, const char *term)
{
	struct world *w = *state;
	char quoted[64];
	int err = selfmon_event__parse(spec, &w->pmus, &w->ev);

	if (err != -SELFMON_ERRNO__SYNTAX)
		fail_msg("'%s': %d, config 0x%llx (want a syntax error)", spec, err,
			 (unsigned long long)w->ev.attr.config);
	snprintf(quoted, sizeof(quoted), "'%s'", term);
	if (!strstr(selfmon_errmsg(), quoted))
		fail_msg("'%s': message does not name %s: %s", spec, quoted, selfmon_errmsg());
}

static void a_term_given_twice_is_a_syntax_error_naming_it(void **state)
{
	is_syntax_error_naming(state, "cpu/event=0x3c,event=0xc0/", "event");
	is_syntax_error_naming(state, "cpu/event=0x3c,umask=1,event=0x3c/", "event");
	is_syntax_error_naming(state, "cpu/config=1,config=2/", "config");
	is_syntax_error_naming(state, "cpu/config1=1,config1=2/", "config1");
}

static void two_aliases_that_fill_the_same_term_are_a_syntax_error(void **state)
{
	is_syntax_error_naming(state, "msr/smi,tsc/", "event");
	is_syntax_error_naming(state, "msr/tsc,tsc/", "event");
	/* each alone is fine */
	assert_int_equal(config_of(state, "msr/smi/"), 4);
	assert_int_equal(config_of(state, "msr/tsc/"), 0);
}

/* Decided: an explicit term may not override an alias's; it may add other bits. */
static void an_explicit_term_over_an_alias_term_is_a_syntax_error(void **state)
{
	is_syntax_error_naming(state, "cpu/cpu-cycles,event=0xc0/", "event");
	is_syntax_error_naming(state, "cpu/event=0xc0,cpu-cycles/", "event");
	assert_int_equal(config_of(state, "cpu/cpu-cycles,umask=0x1/"), 0x013c);
}

static void config_and_a_format_term_over_it_are_a_syntax_error(void **state)
{
	is_syntax_error_naming(state, "cpu/config=0x3c,umask=1/", "umask");
	is_syntax_error_naming(state, "cpu/umask=1,config=0x3c/", "config");
	/* config1 is another field: no overlap with event's config bits */
	assert_int_equal(config_of(state, "cpu/event=0x3c,config1=5/"), 0x3c);
}

static void a_value_is_decimal_or_0x_hex_as_perf_reads_it(void **state)
{
	static const struct { const char *spec; uint64_t config; } ok[] = {
		{ "cpu/event=010/", 10 },	/* decimal, not octal */
		{ "cpu/event=08/", 8 },
		{ "cpu/event=0/", 0 },
		{ "cpu/event=0x3c/", 0x3c },
		{ "cpu/event=0x3C/", 0x3c },
		{ "cpu/event=255/", 255 },
		{ "cpu/config=18446744073709551615/", UINT64_MAX },
		{ "cpu/config=0xffffffffffffffff/", UINT64_MAX },
	};

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (config_of(state, ok[i].spec) != ok[i].config)
			fail_msg("'%s': config 0x%llx, want 0x%llx", ok[i].spec,
				 (unsigned long long)config_of(state, ok[i].spec),
				 (unsigned long long)ok[i].config);
}

static void a_sign_a_blank_or_another_base_is_not_a_number(void **state)
{
	static const char *const bad[] = {
		"cpu/event=-1/", "cpu/event= -1/", "cpu/event=+5/", "cpu/event= 5/", "cpu/event=5 /",
		"cpu/event=0X10/", "cpu/event=0x/", "cpu/event=1e3/", "cpu/event=0b1/", "cpu/event=0x-1/",
		"cpu/event=\t5/",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		is_syntax_error_naming(state, bad[i], "event");
}

static void a_value_wider_than_64_bits_is_erange(void **state)
{
	struct world *w = *state;

	assert_int_equal(selfmon_event__parse("cpu/config=18446744073709551616/", &w->pmus, &w->ev), -ERANGE);
	assert_non_null(strstr(selfmon_errmsg(), "wider than 64 bits"));
	assert_int_equal(selfmon_event__parse("cpu/config=0x10000000000000000/", &w->pmus, &w->ev), -ERANGE);
}

#define T(f) cmocka_unit_test_setup_teardown(f, world_setup, world_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(a_term_given_twice_is_a_syntax_error_naming_it),
		T(two_aliases_that_fill_the_same_term_are_a_syntax_error),
		T(an_explicit_term_over_an_alias_term_is_a_syntax_error),
		T(config_and_a_format_term_over_it_are_a_syntax_error),
		T(a_value_is_decimal_or_0x_hex_as_perf_reads_it),
		T(a_sign_a_blank_or_another_base_is_not_a_number),
		T(a_value_wider_than_64_bits_is_erange),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
