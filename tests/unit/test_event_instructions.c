// SPDX-License-Identifier: MIT
/*
 * Whether an event counts instructions retired is read from the attr it
 * resolved to, never from its name: the generic event on any arch, and a
 * core PMU's own event number where the arch defines it (arm64 INST_RETIRED
 * 0x08; x86 event select 0xc0, umask 0, and Intel's fixed counter 0, event
 * 0 umask 1). Resolved against a fake sysfs root with an x86 'cpu' PMU
 * (type 4), an arm64 'armv8_pmuv3_0' (type 8) and an uncore PMU (type 20),
 * and on the zen3 and skylake fixture boards by their tables' names; each
 * arch's answer is asked of that arch's gates, which every host links.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <generated/autoconf.h>
#include <selfmon/selfmon.h>
#include "../../core/arch_int.h"
#include "pmu_world.h"

static int world_setup(void **state)
{
	struct world *w = world__new(state);

	if (!w)
		return -1;
	fakeroot__x86_cpu(w->root, 1);
	fakeroot__pmu_file(w->root, "cpu", "events/instructions", "event=0xc0");
	fakeroot__pmu_file(w->root, "cpu", "events/branch-instructions", "event=0xc4");
	fakeroot__armv8(w->root, "armv8_pmuv3_0", 8, "0-3");
	fakeroot__pmu_file(w->root, "armv8_pmuv3_0", "events/inst_spec", "event=0x001b");
	fakeroot__pmu_file(w->root, "uncore_imc", "type", "20");
	fakeroot__pmu_file(w->root, "uncore_imc", "cpumask", "0");
	fakeroot__pmu_file(w->root, "uncore_imc", "format/event", "config:0-7");
	fakeroot__pmu_file(w->root, "uncore_imc", "format/umask", "config:8-15");
	return world__load(w, 4);
}

static const struct selfmon_event *parse(void **state, const char *spec)
{
	struct world *w = *state;
	int err = selfmon_event__parse(spec, &w->pmus, &w->ev);

	if (err)
		fail_msg("'%s': %d (%s)", spec, err, selfmon_errmsg());
	return &w->ev;
}

static bool counts(const struct selfmon_arch *arch, void **state, const char *spec)
{
	struct world *w = *state;

	return selfmon_arch__counts_instructions(arch, w->root, parse(state, spec));
}

static const struct selfmon_arch *const every_arch[] = {
	&selfmon_arch__x86,
	&selfmon_arch__arm64,
	&selfmon_arch__generic,
};

#define for_each_arch(a)                                                              \
	for (size_t i_ = 0; i_ < sizeof(every_arch) / sizeof(every_arch[0]); i_++)    \
		for (const struct selfmon_arch *a = every_arch[i_]; a; a = NULL)

static void the_generic_instructions_event_counts_instructions_on_every_arch(void **state)
{
	for_each_arch(a) {
		assert_true(counts(a, state, "instructions"));
		assert_true(counts(a, state, "instructions:u"));
	}
}

static void the_generic_event_on_one_pmu_of_a_hybrid_machine_still_counts_instructions(void **state)
{
	struct world *w = *state;

	parse(state, "instructions:u");
	/* The extended type: the PMU's type in config's upper half. */
	w->ev.attr.config |= (uint64_t)8 << 32;
	for_each_arch(a)
		assert_true(selfmon_arch__counts_instructions(a, w->root, &w->ev));
}

static void a_name_that_contains_instructions_is_not_what_decides(void **state)
{
	for_each_arch(a) {
		assert_false(counts(a, state, "branch-instructions"));
		assert_false(counts(a, state, "branch-instructions:u"));
	}
	/* x86's alias named so resolves to event 0xc4, branches retired. */
	assert_false(counts(&selfmon_arch__x86, state, "cpu/branch-instructions/"));
}

static void a_software_event_with_the_instructions_config_number_does_not(void **state)
{
	/* task-clock is PERF_COUNT_SW_TASK_CLOCK, 1 like PERF_COUNT_HW_INSTRUCTIONS. */
	const struct world *w = *state;
	const struct selfmon_event *ev = parse(state, "task-clock");

	assert_int_equal(ev->attr.config, PERF_COUNT_HW_INSTRUCTIONS);
	for_each_arch(a)
		assert_false(selfmon_arch__counts_instructions(a, w->root, ev));
}

static void x86_raw_event_0xc0_counts_instructions_by_any_spelling(void **state)
{
	const struct selfmon_arch *x86 = &selfmon_arch__x86;

	assert_true(counts(x86, state, "rc0"));
	assert_true(counts(x86, state, "r00c0:u"));
	assert_true(counts(x86, state, "cpu/event=0xc0/"));
	assert_true(counts(x86, state, "cpu/instructions/u"));
}

static void x86_event_0xc0_with_a_umask_or_a_cmask_counts_something_else(void **state)
{
	const struct selfmon_arch *x86 = &selfmon_arch__x86;

	assert_false(counts(x86, state, "r01c0"));
	assert_false(counts(x86, state, "cpu/event=0xc0,cmask=1/"));
	assert_false(counts(x86, state, "r3c"));
	assert_false(counts(x86, state, "cpu/cpu-cycles/"));
}

/*
 * Event select 0 with umask 1 is Intel's fixed counter 0, INST_RETIRED.ANY;
 * on AMD it is another event. The vendor is /proc/cpuinfo's, under the root
 * the event was resolved under; none there: not claimed.
 */
static void x86_event_0_umask_1_counts_instructions_on_intel_only(void **state)
{
	const struct world *w = *state;
	const struct selfmon_arch *x86 = &selfmon_arch__x86;

	assert_false(counts(x86, state, "r0100"));
	fakeroot__write(w->root, "/proc/cpuinfo", "processor\t: 0\nvendor_id\t: AuthenticAMD\n");
	assert_false(counts(x86, state, "r0100"));
	fakeroot__write(w->root, "/proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\n");
	assert_true(counts(x86, state, "r0100"));
	assert_true(counts(x86, state, "r0100:u"));
	assert_true(counts(x86, state, "cpu/event=0,umask=1/"));
	/* The other fixed counters' codes, and the fixed code with a field that changes it. */
	assert_false(counts(x86, state, "r0300"));
	assert_false(counts(x86, state, "r0400"));
	assert_false(counts(x86, state, "cpu/event=0,umask=1,cmask=1/"));
	assert_false(counts(x86, state, "r0101"));
	/* Intel's code means nothing to the other arches. */
	assert_false(counts(&selfmon_arch__arm64, state, "r0100"));
	assert_false(counts(&selfmon_arch__generic, state, "r0100"));
}

static void arm64_inst_retired_0x08_counts_instructions_by_any_spelling(void **state)
{
	const struct selfmon_arch *arm64 = &selfmon_arch__arm64;

	assert_true(counts(arm64, state, "r08"));
	assert_true(counts(arm64, state, "r0008:u"));
	assert_true(counts(arm64, state, "armv8_pmuv3_0/event=0x08/"));
	assert_true(counts(arm64, state, "armv8_pmuv3_0/inst_retired/u"));
}

static void arm64_events_other_than_0x08_do_not(void **state)
{
	const struct selfmon_arch *arm64 = &selfmon_arch__arm64;

	/* Speculatively executed, not retired. */
	assert_false(counts(arm64, state, "armv8_pmuv3_0/inst_spec/"));
	assert_false(counts(arm64, state, "r11"));
	assert_false(counts(arm64, state, "rc0"));
}

static void arm64_instructions_pinned_to_a_cluster_is_its_inst_retired_and_still_counts(void **state)
{
	struct world *w = *state;

	parse(state, "instructions:u");
	assert_int_equal(selfmon_event__for_pmu(&w->ev, &w->pmus,
						selfmon_pmus__find(&w->pmus, "armv8_pmuv3_0")),
			 0);
	assert_int_equal(w->ev.attr.type, 8);
	assert_true(selfmon_arch__counts_instructions(&selfmon_arch__arm64, w->root, &w->ev));
}

static void a_raw_number_means_instructions_only_to_its_own_arch(void **state)
{
	assert_false(counts(&selfmon_arch__x86, state, "r08"));
	assert_false(counts(&selfmon_arch__arm64, state, "rc0"));
	assert_false(counts(&selfmon_arch__generic, state, "rc0"));
	assert_false(counts(&selfmon_arch__generic, state, "r08"));
}

static void an_uncore_pmus_event_of_the_same_number_does_not(void **state)
{
	for_each_arch(a) {
		assert_false(counts(a, state, "uncore_imc/event=0xc0/"));
		assert_false(counts(a, state, "uncore_imc/event=0x08/"));
	}
}

#if defined(CONFIG_PMU_EVENTS) && defined(CONFIG_ARCH_X86_64)
/* @spec parsed on fixture @board: does x86 say it counts instructions? */
static bool counts_on(const char *board, const char *spec)
{
	char fixtures[PATH_MAX], root[PATH_MAX + 16];
	struct selfmon_pmus pmus;
	struct selfmon_event ev;
	bool yes;

	if (fakeroot__fixtures(fixtures, sizeof(fixtures)) ||
	    fakeroot__board(fixtures, board, root, sizeof(root)))
		fail_msg("no fixture board %s (tests/fixtures/sysfs/%s)", board, board);
	assert_int_equal(selfmon_pmus__load(&pmus, root), 0);
	if (selfmon_event__parse(spec, &pmus, &ev))
		fail_msg("'%s' on %s: %s", spec, board, selfmon_errmsg());
	yes = selfmon_arch__counts_instructions(&selfmon_arch__x86, root, &ev);
	selfmon_pmus__free(&pmus);
	return yes;
}

/* amdzen3's tables: ex_ret_instr is PMCx0C0; ls_not_halted_cyc 0x76, ex_ret_ops 0xc1. */
static void amds_retired_instructions_by_its_table_name_counts_instructions(void **state)
{
	(void)state;
	assert_true(counts_on("zen3", "ex_ret_instr"));
	assert_true(counts_on("zen3", "ex_ret_instr:u"));
	assert_true(counts_on("zen3", "cpu/instructions/u"));
	assert_false(counts_on("zen3", "ls_not_halted_cyc:u"));
	assert_false(counts_on("zen3", "cycles:u"));
	assert_false(counts_on("zen3", "ex_ret_ops"));
	/* event select 0x1c0 is PMCx1C0, not PMCx0C0: bit 8 lands on config:32 */
	assert_false(counts_on("zen3", "cpu/event=0x1c0/"));
	/* Intel's fixed-counter code is another event on AMD. */
	assert_false(counts_on("zen3", "cpu/event=0,umask=1/"));
}

/*
 * skylake's tables: INST_RETIRED.ANY is fixed counter 0 (event 0, umask 1),
 * INST_RETIRED.ANY_P the architectural event 0xc0 on any counter;
 * CPU_CLK_UNHALTED.REF_TSC is fixed counter 2 (event 0, umask 3).
 */
static void intels_fixed_and_programmable_instructions_by_table_name_count_instructions(void **state)
{
	(void)state;
	assert_true(counts_on("skylake", "INST_RETIRED.ANY"));
	assert_true(counts_on("skylake", "INST_RETIRED.ANY:u"));
	assert_true(counts_on("skylake", "INST_RETIRED.ANY_P:u"));
	assert_false(counts_on("skylake", "CPU_CLK_UNHALTED.REF_TSC"));
	assert_false(counts_on("skylake", "CPU_CLK_UNHALTED.THREAD"));
}
#endif

static void a_set_answers_for_each_counter_and_refuses_a_bad_index(void **state)
{
	struct selfmon_set *set = selfmon_set__open("task-clock,cpu-clock", NULL);

	(void)state;
	if (!set)
		fail_msg("task-clock,cpu-clock: %s", selfmon_errmsg());
	assert_int_equal(selfmon_set__counts_instructions(set, 0), 0);
	assert_int_equal(selfmon_set__counts_instructions(set, 1), 0);
	assert_int_equal(selfmon_set__counts_instructions(set, 2), -EINVAL);
	assert_int_equal(selfmon_set__counts_instructions(set, -1), -EINVAL);
	assert_int_equal(selfmon_set__counts_instructions(NULL, 0), -EINVAL);
	selfmon_set__close(set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, world_setup, world_teardown)
		T(the_generic_instructions_event_counts_instructions_on_every_arch),
		T(the_generic_event_on_one_pmu_of_a_hybrid_machine_still_counts_instructions),
		T(a_name_that_contains_instructions_is_not_what_decides),
		T(a_software_event_with_the_instructions_config_number_does_not),
		T(x86_raw_event_0xc0_counts_instructions_by_any_spelling),
		T(x86_event_0xc0_with_a_umask_or_a_cmask_counts_something_else),
		T(x86_event_0_umask_1_counts_instructions_on_intel_only),
		T(arm64_inst_retired_0x08_counts_instructions_by_any_spelling),
		T(arm64_events_other_than_0x08_do_not),
		T(arm64_instructions_pinned_to_a_cluster_is_its_inst_retired_and_still_counts),
		T(a_raw_number_means_instructions_only_to_its_own_arch),
		T(an_uncore_pmus_event_of_the_same_number_does_not),
		cmocka_unit_test(a_set_answers_for_each_counter_and_refuses_a_bad_index),
#if defined(CONFIG_PMU_EVENTS) && defined(CONFIG_ARCH_X86_64)
		cmocka_unit_test(amds_retired_instructions_by_its_table_name_counts_instructions),
		cmocka_unit_test(intels_fixed_and_programmable_instructions_by_table_name_count_instructions),
#endif
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
