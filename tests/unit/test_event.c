// SPDX-License-Identifier: MIT
/*
 * Event strings as perf spells them, resolved against the PMUs of a fake
 * sysfs root: an x86 'cpu' PMU (type 4) and an arm64 'armv8_pmuv3' (type 8)
 * with its events/ aliases.
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
#include "../../core/list.h"
#include "pmu_world.h"

static int world_setup(void **state)
{
	struct world *w = world__new(state);

	if (!w)
		return -1;
	fakeroot__x86_cpu(w->root, 1);
	fakeroot__armv8(w->root, "armv8_pmuv3", 8, "0-3");
	return world__load(w, 3);
}

static struct selfmon_event *parse_ok(void **state, const char *spec)
{
	struct world *w = *state;
	int err = selfmon_event__parse(spec, &w->pmus, &w->ev);

	if (err)
		fail_msg("'%s': %d (%s)", spec, err, selfmon_errmsg());
	return &w->ev;
}

static int parse_err(void **state, const char *spec)
{
	struct world *w = *state;

	return selfmon_event__parse(spec, &w->pmus, &w->ev);
}

static void generic_hardware_names_are_perf_type_hardware(void **state)
{
	static const struct { const char *name; uint64_t config; } hw[] = {
		{ "cycles", PERF_COUNT_HW_CPU_CYCLES },
		{ "cpu-cycles", PERF_COUNT_HW_CPU_CYCLES },
		{ "instructions", PERF_COUNT_HW_INSTRUCTIONS },
		{ "branch-misses", PERF_COUNT_HW_BRANCH_MISSES },
		{ "cache-misses", PERF_COUNT_HW_CACHE_MISSES },
		{ "ref-cycles", PERF_COUNT_HW_REF_CPU_CYCLES },
	};

	for (size_t i = 0; i < sizeof(hw) / sizeof(hw[0]); i++) {
		struct selfmon_event *ev = parse_ok(state, hw[i].name);

		assert_int_equal(ev->attr.type, PERF_TYPE_HARDWARE);
		assert_true(ev->attr.config == hw[i].config);
		assert_true(ev->hardware);
		assert_int_equal(ev->attr.size, sizeof(ev->attr));
		assert_string_equal(ev->name, hw[i].name);
	}
}

static void generic_hardware_events_land_on_the_x86_cpu_pmu(void **state)
{
	struct selfmon_event *ev = parse_ok(state, "instructions");

	assert_non_null(ev->pmu);
	assert_string_equal(ev->pmu->name, "cpu");
}

static void generic_software_names_are_perf_type_software_without_a_pmu(void **state)
{
	static const struct { const char *name; uint64_t config; } sw[] = {
		{ "task-clock", PERF_COUNT_SW_TASK_CLOCK },
		{ "cpu-clock", PERF_COUNT_SW_CPU_CLOCK },
		{ "page-faults", PERF_COUNT_SW_PAGE_FAULTS },
		{ "context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES },
		{ "cpu-migrations", PERF_COUNT_SW_CPU_MIGRATIONS },
	};

	for (size_t i = 0; i < sizeof(sw) / sizeof(sw[0]); i++) {
		struct selfmon_event *ev = parse_ok(state, sw[i].name);

		assert_int_equal(ev->attr.type, PERF_TYPE_SOFTWARE);
		assert_true(ev->attr.config == sw[i].config);
		assert_false(ev->hardware);
		assert_null(ev->pmu);
	}
}

static void r_hex_is_a_raw_event_on_the_core_pmu(void **state)
{
	struct selfmon_event *ev = parse_ok(state, "r11");

	assert_int_equal(ev->attr.type, PERF_TYPE_RAW);
	assert_true(ev->attr.config == 0x11);
	assert_true(ev->hardware);
	assert_non_null(ev->pmu);

	ev = parse_ok(state, "r01C2");
	assert_true(ev->attr.config == 0x1c2);
}

static void a_pmu_alias_takes_its_terms_from_the_events_file(void **state)
{
	struct selfmon_event *ev = parse_ok(state, "armv8_pmuv3/inst_retired/");

	assert_int_equal(ev->attr.type, 8);
	assert_true(ev->attr.config == 0x0008);
	assert_true(ev->attr.config1 == 0);
	assert_non_null(ev->pmu);
	assert_string_equal(ev->pmu->name, "armv8_pmuv3");
	assert_true(ev->hardware);
}

static void pmu_terms_fill_the_bits_the_format_names(void **state)
{
	struct selfmon_event *ev = parse_ok(state, "armv8_pmuv3/event=0x11/");

	assert_int_equal(ev->attr.type, 8);
	assert_true(ev->attr.config == 0x11);

	ev = parse_ok(state, "cpu/event=0x3c,umask=0x00/");
	assert_int_equal(ev->attr.type, 4);
	assert_true(ev->attr.config == 0x3c);

	ev = parse_ok(state, "cpu/event=0xc0,umask=0x1,cmask=2/");
	assert_true(ev->attr.config == (0xc0 | 0x1 << 8 | 2u << 24));
}

static void a_bare_format_term_means_term_equals_1(void **state)
{
	struct selfmon_event *ev = parse_ok(state, "armv8_pmuv3/event=0x11,long/");

	assert_true(ev->attr.config == 0x11);
	assert_true(ev->attr.config1 == 1);
}

static void config_terms_write_the_attr_fields_directly(void **state)
{
	struct selfmon_event *ev = parse_ok(state, "cpu/config=0x1234,config1=5,config2=7/");

	assert_true(ev->attr.config == 0x1234);
	assert_true(ev->attr.config1 == 5);
	assert_true(ev->attr.config2 == 7);
}

static void no_modifier_counts_every_privilege_level(void **state)
{
	struct selfmon_event *ev = parse_ok(state, "cycles");

	assert_int_equal(ev->attr.exclude_user, 0);
	assert_int_equal(ev->attr.exclude_kernel, 0);
	assert_int_equal(ev->attr.exclude_hv, 0);
}

static void modifier_u_excludes_kernel_and_hypervisor(void **state)
{
	struct selfmon_event *ev = parse_ok(state, "cycles:u");

	assert_int_equal(ev->attr.exclude_user, 0);
	assert_int_equal(ev->attr.exclude_kernel, 1);
	assert_int_equal(ev->attr.exclude_hv, 1);
	assert_int_equal(ev->attr.type, PERF_TYPE_HARDWARE);
}

static void modifier_k_excludes_user_and_hypervisor(void **state)
{
	struct selfmon_event *ev = parse_ok(state, "instructions:k");

	assert_int_equal(ev->attr.exclude_user, 1);
	assert_int_equal(ev->attr.exclude_kernel, 0);
	assert_int_equal(ev->attr.exclude_hv, 1);
}

static void modifier_uk_excludes_only_the_hypervisor(void **state)
{
	struct selfmon_event *ev = parse_ok(state, "r11:uk");

	assert_int_equal(ev->attr.exclude_user, 0);
	assert_int_equal(ev->attr.exclude_kernel, 0);
	assert_int_equal(ev->attr.exclude_hv, 1);
	assert_true(ev->attr.config == 0x11);
}

static void pmu_event_modifiers_follow_the_slash_with_or_without_colon(void **state)
{
	static const char *const specs[] = { "armv8_pmuv3/event=0x11/u", "armv8_pmuv3/event=0x11/:u" };

	for (size_t i = 0; i < 2; i++) {
		struct selfmon_event *ev = parse_ok(state, specs[i]);

		assert_true(ev->attr.config == 0x11);
		assert_int_equal(ev->attr.exclude_user, 0);
		assert_int_equal(ev->attr.exclude_kernel, 1);
		assert_int_equal(ev->attr.exclude_hv, 1);
	}
}

static void an_unknown_event_name_is_noevent_and_the_message_names_it(void **state)
{
	assert_int_equal(parse_err(state, "cycels"), -SELFMON_ERRNO__NOEVENT);
	assert_non_null(strstr(selfmon_errmsg(), "cycels"));
}

static void an_unknown_pmu_is_noevent_and_the_message_names_it(void **state)
{
	assert_int_equal(parse_err(state, "armv9_pmu/event=0x11/"), -SELFMON_ERRNO__NOEVENT);
	assert_non_null(strstr(selfmon_errmsg(), "armv9_pmu"));
}

static void an_unknown_term_or_alias_is_noevent(void **state)
{
	assert_int_equal(parse_err(state, "cpu/frob=1/"), -SELFMON_ERRNO__NOEVENT);
	assert_non_null(strstr(selfmon_errmsg(), "frob"));
	assert_int_equal(parse_err(state, "armv8_pmuv3/no_such_alias/"), -SELFMON_ERRNO__NOEVENT);
	assert_non_null(strstr(selfmon_errmsg(), "no_such_alias"));
}

static void an_alias_is_not_a_term_that_takes_a_value(void **state)
{
	assert_int_equal(parse_err(state, "armv8_pmuv3/inst_retired=1/"), -SELFMON_ERRNO__NOEVENT);
}

static void a_bad_modifier_is_a_syntax_error(void **state)
{
	assert_int_equal(parse_err(state, "cycles:x"), -SELFMON_ERRNO__SYNTAX);
	assert_int_equal(parse_err(state, "cycles:uz"), -SELFMON_ERRNO__SYNTAX);
	assert_int_equal(parse_err(state, "cpu/event=1/q"), -SELFMON_ERRNO__SYNTAX);
	/* a modifier given twice is a typo, not a stronger request */
	assert_int_equal(parse_err(state, "cycles:uu"), -SELFMON_ERRNO__SYNTAX);
	assert_non_null(strstr(selfmon_errmsg(), "twice"));
}

static void a_value_too_wide_for_its_format_is_erange(void **state)
{
	assert_int_equal(parse_err(state, "cpu/event=0x100/"), -ERANGE);
	assert_non_null(strstr(selfmon_errmsg(), "event"));
	assert_int_equal(parse_err(state, "armv8_pmuv3/event=0x10000/"), -ERANGE);
	/* the largest that fits is fine */
	parse_ok(state, "armv8_pmuv3/event=0xffff/");
	/* a raw config of 17 hex digits is not clamped to 64 bits */
	assert_int_equal(parse_err(state, "r1ffffffffffffffff"), -ERANGE);
	assert_non_null(strstr(selfmon_errmsg(), "wider than 64 bits"));
}

static void a_value_that_is_not_a_number_is_a_syntax_error(void **state)
{
	assert_int_equal(parse_err(state, "cpu/event=zz/"), -SELFMON_ERRNO__SYNTAX);
	assert_int_equal(parse_err(state, "cpu/event=/"), -SELFMON_ERRNO__SYNTAX);
	assert_int_equal(parse_err(state, "cpu/event=-1/"), -SELFMON_ERRNO__SYNTAX);
}

static void a_missing_closing_slash_is_a_syntax_error(void **state)
{
	assert_int_equal(parse_err(state, "cpu/event=0x3c"), -SELFMON_ERRNO__SYNTAX);
	assert_int_equal(parse_err(state, "armv8_pmuv3/inst_retired"), -SELFMON_ERRNO__SYNTAX);
}

static void empty_terms_and_empty_names_are_syntax_errors(void **state)
{
	assert_int_equal(parse_err(state, "cpu//"), -SELFMON_ERRNO__SYNTAX);
	assert_int_equal(parse_err(state, ""), -SELFMON_ERRNO__SYNTAX);
	/* an empty term between commas is a typo, not nothing */
	assert_int_equal(parse_err(state, "cpu/event=1,,umask=2/"), -SELFMON_ERRNO__SYNTAX);
	assert_int_equal(parse_err(state, "cpu/,event=1/"), -SELFMON_ERRNO__SYNTAX);
	assert_int_equal(parse_err(state, "cpu/event=1,/"), -SELFMON_ERRNO__SYNTAX);
}

static void split_leaves_commas_between_a_pmus_slashes_alone(void **state)
{
	struct selfmon_spec out[4];

	(void)state;
	assert_int_equal(selfmon_list__split("cycles,armv8_pmuv3/event=0x11,long=1/,task-clock", out, 4), 3);
	assert_string_equal(out[0].name, "cycles");
	assert_string_equal(out[1].name, "armv8_pmuv3/event=0x11,long=1/");
	assert_string_equal(out[2].name, "task-clock");
}

static void split_trims_blanks_around_events(void **state)
{
	struct selfmon_spec out[4];

	(void)state;
	assert_int_equal(selfmon_list__split(" cycles , instructions:u ", out, 4), 2);
	assert_string_equal(out[0].name, "cycles");
	assert_string_equal(out[1].name, "instructions:u");
}

static void split_of_more_events_than_room_is_e2big(void **state)
{
	struct selfmon_spec out[2];

	(void)state;
	assert_int_equal(selfmon_list__split("cycles,instructions", out, 2), 2);
	assert_int_equal(selfmon_list__split("cycles,instructions,branches", out, 2), -E2BIG);
}

static void split_of_an_empty_list_or_an_empty_event_is_an_error(void **state)
{
	struct selfmon_spec out[4];

	(void)state;
	assert_true(selfmon_list__split("", out, 4) < 0);
	assert_true(selfmon_list__split("   ", out, 4) < 0);
	assert_int_equal(selfmon_list__split("cycles,,instructions", out, 4), -SELFMON_ERRNO__SYNTAX);
	assert_int_equal(selfmon_list__split("cycles,", out, 4), -SELFMON_ERRNO__SYNTAX);
}

static void split_of_an_unclosed_pmu_event_is_a_syntax_error(void **state)
{
	struct selfmon_spec out[4];

	(void)state;
	assert_int_equal(selfmon_list__split("cycles,cpu/event=1,umask=2", out, 4), -SELFMON_ERRNO__SYNTAX);
}

#define T(f) cmocka_unit_test_setup_teardown(f, world_setup, world_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(generic_hardware_names_are_perf_type_hardware),
		T(generic_hardware_events_land_on_the_x86_cpu_pmu),
		T(generic_software_names_are_perf_type_software_without_a_pmu),
		T(r_hex_is_a_raw_event_on_the_core_pmu),
		T(a_pmu_alias_takes_its_terms_from_the_events_file),
		T(pmu_terms_fill_the_bits_the_format_names),
		T(a_bare_format_term_means_term_equals_1),
		T(config_terms_write_the_attr_fields_directly),
		T(no_modifier_counts_every_privilege_level),
		T(modifier_u_excludes_kernel_and_hypervisor),
		T(modifier_k_excludes_user_and_hypervisor),
		T(modifier_uk_excludes_only_the_hypervisor),
		T(pmu_event_modifiers_follow_the_slash_with_or_without_colon),
		T(an_unknown_event_name_is_noevent_and_the_message_names_it),
		T(an_unknown_pmu_is_noevent_and_the_message_names_it),
		T(an_unknown_term_or_alias_is_noevent),
		T(an_alias_is_not_a_term_that_takes_a_value),
		T(a_bad_modifier_is_a_syntax_error),
		T(a_value_too_wide_for_its_format_is_erange),
		T(a_value_that_is_not_a_number_is_a_syntax_error),
		T(a_missing_closing_slash_is_a_syntax_error),
		T(empty_terms_and_empty_names_are_syntax_errors),
		cmocka_unit_test(split_leaves_commas_between_a_pmus_slashes_alone),
		cmocka_unit_test(split_trims_blanks_around_events),
		cmocka_unit_test(split_of_more_events_than_room_is_e2big),
		cmocka_unit_test(split_of_an_empty_list_or_an_empty_event_is_an_error),
		cmocka_unit_test(split_of_an_unclosed_pmu_event_is_a_syntax_error),
	};

	return cmocka_run_group_tests_name("event", tests, NULL, NULL);
}
