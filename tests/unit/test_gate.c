// SPDX-License-Identifier: MIT
/*
 * The arch gates that decide whether a counter may be read from user space,
 * each run against a fake sysfs/procfs root on any host:
 *  - arm64: the PMU's format/rdpmc bit must be set in the attr and
 *    kernel.perf_user_access must be 1 (arm64 perf document); format/long
 *    asks for a 64-bit counter, and an EOPNOTSUPP open is retried without it;
 *  - x86: the core PMU's sysfs 'rdpmc' must not be 0;
 *  - generic: never.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <generated/autoconf.h>
#include "../../core/arch_int.h"
#include "pmu_world.h"

#define SYSCTL "/proc/sys/kernel/perf_user_access"

static int world_setup(void **state)
{
	return world__new(state) ? 0 : -1;
}

/* Load the root's PMUs and aim the event at @pmu, as the event parser would. */
static struct selfmon_event *event_on(struct world *w, const char *pmu)
{
	selfmon_pmus__free(&w->pmus);
	assert_int_equal(selfmon_pmus__load(&w->pmus, w->root), 0);
	memset(&w->ev, 0, sizeof(w->ev));
	w->ev.attr.size = sizeof(w->ev.attr);
	w->ev.hardware = true;
	w->ev.pmu = pmu ? selfmon_pmus__find(&w->pmus, pmu) : NULL;
	if (pmu)
		assert_non_null(w->ev.pmu);
	if (w->ev.pmu)
		w->ev.attr.type = w->ev.pmu->type;
	w->notes = 0;
	return &w->ev;
}

static enum selfmon_reason prepare(const struct selfmon_arch *arch, struct world *w, bool want_long)
{
	return arch->prepare(w->root, &w->ev, want_long, &w->notes);
}

/* ---- arm64 ---- */

static void arm64_sets_the_rdpmc_format_bit_and_asks_long_when_wanted(void **state)
{
	struct world *w = *state;

	fakeroot__armv8(w->root, "armv8_pmuv3_0", 8, "0-3");
	fakeroot__write(w->root, SYSCTL, "1\n");
	event_on(w, "armv8_pmuv3_0");
	assert_int_equal(prepare(&selfmon_arch__arm64, w, true), SELFMON_REASON_NONE);
	assert_true(w->ev.attr.config1 == ((1u << 1) | (1u << 0)));
	assert_true(w->notes & SELFMON_NOTE_LONG_ASKED);
	assert_false(w->notes & SELFMON_NOTE_LONG_REFUSED);
	assert_true(w->ev.attr.config == 0);
}

static void arm64_without_want_long_sets_only_the_rdpmc_bit(void **state)
{
	struct world *w = *state;

	fakeroot__armv8(w->root, "armv8_pmuv3_0", 8, "0-3");
	fakeroot__write(w->root, SYSCTL, "1\n");
	event_on(w, "armv8_pmuv3_0");
	assert_int_equal(prepare(&selfmon_arch__arm64, w, false), SELFMON_REASON_NONE);
	assert_true(w->ev.attr.config1 == (1u << 1));
	assert_false(w->notes & SELFMON_NOTE_LONG_ASKED);
}

static void arm64_keeps_config1_bits_the_event_already_had(void **state)
{
	struct world *w = *state;

	fakeroot__armv8(w->root, "armv8_pmuv3_0", 8, "0-3");
	fakeroot__write(w->root, SYSCTL, "1\n");
	event_on(w, "armv8_pmuv3_0");
	w->ev.attr.config1 = 1u << 7;
	w->ev.attr.config = 0x11;
	assert_int_equal(prepare(&selfmon_arch__arm64, w, false), SELFMON_REASON_NONE);
	assert_true(w->ev.attr.config1 == ((1u << 7) | (1u << 1)));
	assert_true(w->ev.attr.config == 0x11);
}

static void arm64_takes_the_bit_positions_from_sysfs(void **state)
{
	struct world *w = *state;

	fakeroot__armv8(w->root, "armv8_pmuv3_0", 8, "0-3");
	fakeroot__pmu_file(w->root, "armv8_pmuv3_0", "format/rdpmc", "config1:5");
	fakeroot__pmu_file(w->root, "armv8_pmuv3_0", "format/long", "config2:9");
	fakeroot__write(w->root, SYSCTL, "1\n");
	event_on(w, "armv8_pmuv3_0");
	assert_int_equal(prepare(&selfmon_arch__arm64, w, true), SELFMON_REASON_NONE);
	assert_true(w->ev.attr.config1 == (1u << 5));
	assert_true(w->ev.attr.config2 == (1u << 9));
}

static void arm64_sysctl_0_is_the_sysctl_gate_but_the_bit_is_still_set(void **state)
{
	struct world *w = *state;

	fakeroot__armv8(w->root, "armv8_pmuv3_0", 8, "0-3");
	fakeroot__write(w->root, SYSCTL, "0\n");
	event_on(w, "armv8_pmuv3_0");
	assert_int_equal(prepare(&selfmon_arch__arm64, w, false), SELFMON_REASON_SYSCTL);
	/* turning the sysctl on later opens the path of an event already open */
	assert_true(w->ev.attr.config1 & (1u << 1));
}

static void arm64_without_the_sysctl_file_is_a_kernel_before_5_17(void **state)
{
	struct world *w = *state;

	fakeroot__armv8(w->root, "armv8_pmuv3_0", 8, "0-3");
	event_on(w, "armv8_pmuv3_0");
	assert_int_equal(prepare(&selfmon_arch__arm64, w, false), SELFMON_REASON_NO_SYSCTL);
}

static void arm64_pmu_without_an_rdpmc_format_offers_no_user_access(void **state)
{
	struct world *w = *state;

	fakeroot__armv8(w->root, "armv8_pmuv3_0", 8, "0-3");
	fakeroot__remove_path(w->root, FAKEROOT_DEVICES "/armv8_pmuv3_0/format/rdpmc");
	fakeroot__write(w->root, SYSCTL, "1\n");
	event_on(w, "armv8_pmuv3_0");
	assert_int_equal(prepare(&selfmon_arch__arm64, w, true), SELFMON_REASON_NO_FORMAT);
	assert_false(w->notes & SELFMON_NOTE_LONG_ASKED);
}

static void arm64_event_without_a_pmu_is_no_pmu(void **state)
{
	struct world *w = *state;

	fakeroot__write(w->root, SYSCTL, "1\n");
	event_on(w, NULL);
	assert_int_equal(prepare(&selfmon_arch__arm64, w, true), SELFMON_REASON_NO_PMU);
}

static void arm64_retries_eopnotsupp_without_the_long_bit_once(void **state)
{
	struct world *w = *state;

	fakeroot__armv8(w->root, "armv8_pmuv3_0", 8, "0-3");
	fakeroot__write(w->root, SYSCTL, "1\n");
	event_on(w, "armv8_pmuv3_0");
	assert_int_equal(prepare(&selfmon_arch__arm64, w, true), SELFMON_REASON_NONE);

	assert_true(selfmon_arch__arm64.retry(&w->ev, -EOPNOTSUPP, &w->notes));
	assert_true(w->ev.attr.config1 == (1u << 1));	/* rdpmc stays, long goes */
	assert_true(w->notes & SELFMON_NOTE_LONG_REFUSED);
	assert_false(w->notes & SELFMON_NOTE_LONG_ASKED);

	assert_false(selfmon_arch__arm64.retry(&w->ev, -EOPNOTSUPP, &w->notes));
	assert_true(w->ev.attr.config1 == (1u << 1));
}

static void arm64_does_not_retry_other_errors(void **state)
{
	struct world *w = *state;

	fakeroot__armv8(w->root, "armv8_pmuv3_0", 8, "0-3");
	fakeroot__write(w->root, SYSCTL, "1\n");
	event_on(w, "armv8_pmuv3_0");
	assert_int_equal(prepare(&selfmon_arch__arm64, w, true), SELFMON_REASON_NONE);
	assert_false(selfmon_arch__arm64.retry(&w->ev, -EACCES, &w->notes));
	assert_false(selfmon_arch__arm64.retry(&w->ev, -ENOENT, &w->notes));
	assert_true(w->ev.attr.config1 == 3);
	assert_true(w->notes == SELFMON_NOTE_LONG_ASKED);
}

static void arm64_does_not_retry_when_long_was_not_asked(void **state)
{
	struct world *w = *state;

	fakeroot__armv8(w->root, "armv8_pmuv3_0", 8, "0-3");
	fakeroot__write(w->root, SYSCTL, "1\n");
	event_on(w, "armv8_pmuv3_0");
	assert_int_equal(prepare(&selfmon_arch__arm64, w, false), SELFMON_REASON_NONE);
	assert_false(selfmon_arch__arm64.retry(&w->ev, -EOPNOTSUPP, &w->notes));
	assert_true(w->notes == 0);
}

/* ---- x86 ---- */

static void x86_rdpmc_0_closes_the_gate(void **state)
{
	struct world *w = *state;

	fakeroot__x86_cpu(w->root, 0);
	event_on(w, "cpu");
	assert_int_equal(prepare(&selfmon_arch__x86, w, true), SELFMON_REASON_SYSFS_RDPMC);
}

static void x86_rdpmc_1_or_2_opens_it_and_leaves_the_attr_alone(void **state)
{
	struct world *w = *state;

	for (int v = 1; v <= 2; v++) {
		fakeroot__x86_cpu(w->root, v);
		event_on(w, "cpu");
		w->ev.attr.config = 0x3c;
		assert_int_equal(prepare(&selfmon_arch__x86, w, true), SELFMON_REASON_NONE);
		assert_true(w->ev.attr.config == 0x3c);
		assert_true(w->ev.attr.config1 == 0 && w->ev.attr.config2 == 0);
		assert_true(w->notes == 0);
	}
}

static void x86_without_a_pmu_is_no_pmu(void **state)
{
	struct world *w = *state;

	event_on(w, NULL);
	assert_int_equal(prepare(&selfmon_arch__x86, w, true), SELFMON_REASON_NO_PMU);
}

static void x86_never_retries(void **state)
{
	struct world *w = *state;

	fakeroot__x86_cpu(w->root, 1);
	event_on(w, "cpu");
	assert_false(selfmon_arch__x86.retry(&w->ev, -EOPNOTSUPP, &w->notes));
}

/* ---- generic ---- */

static void generic_has_no_user_read_whatever_the_tree_says(void **state)
{
	struct world *w = *state;

	fakeroot__x86_cpu(w->root, 2);
	event_on(w, "cpu");
	assert_int_equal(prepare(&selfmon_arch__generic, w, true), SELFMON_REASON_ARCH);
	assert_false(selfmon_arch__generic.retry(&w->ev, -EOPNOTSUPP, &w->notes));
}

static void the_host_arch_is_the_configured_one(void **state)
{
	const struct selfmon_arch *a = selfmon_arch__host();

	(void)state;
#if defined(CONFIG_ARCH_X86_64)
	assert_ptr_equal(a, &selfmon_arch__x86);
#elif defined(CONFIG_ARCH_ARM64)
	assert_ptr_equal(a, &selfmon_arch__arm64);
#else
	assert_ptr_equal(a, &selfmon_arch__generic);
#endif
}

#define T(f) cmocka_unit_test_setup_teardown(f, world_setup, world_teardown)

/* The instructions the arm64 SIGILL guard may step over, and no other. */
static void only_an_mrs_of_a_pmu_counter_is_a_counter_read(void **state)
{
	static const struct { uint32_t insn; int counter, rt; } cases[] = {
		{ 0xd53be800, 1, 0 },	/* mrs x0, pmevcntr0_el0 */
		{ 0xd53bebc7, 1, 7 },	/* mrs x7, pmevcntr30_el0 */
		{ 0xd53b9d1e, 1, 30 },	/* mrs x30, pmccntr_el0 */
		{ 0xd53b9c01, 0, 0 },	/* mrs x1, pmcr_el0 */
		{ 0xd53be042, 0, 0 },	/* mrs x2, cntvct_el0 */
		{ 0xd51be803, 0, 0 },	/* msr pmevcntr0_el0, x3 */
		{ 0xd53b9d44, 0, 0 },	/* mrs x4, pmxevcntr_el0 */
		{ 0x00000000, 0, 0 },	/* udf */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rt = -1;

		if (selfmon_arm64__is_counter_mrs(cases[i].insn, &rt) != cases[i].counter)
			fail_msg("%08x: counter read %d, want %d", cases[i].insn, !cases[i].counter,
				 cases[i].counter);
		if (cases[i].counter && rt != cases[i].rt)
			fail_msg("%08x: rt %d, want %d", cases[i].insn, rt, cases[i].rt);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(arm64_sets_the_rdpmc_format_bit_and_asks_long_when_wanted),
		T(arm64_without_want_long_sets_only_the_rdpmc_bit),
		T(arm64_keeps_config1_bits_the_event_already_had),
		T(arm64_takes_the_bit_positions_from_sysfs),
		T(arm64_sysctl_0_is_the_sysctl_gate_but_the_bit_is_still_set),
		T(arm64_without_the_sysctl_file_is_a_kernel_before_5_17),
		T(arm64_pmu_without_an_rdpmc_format_offers_no_user_access),
		T(arm64_event_without_a_pmu_is_no_pmu),
		T(arm64_retries_eopnotsupp_without_the_long_bit_once),
		T(arm64_does_not_retry_other_errors),
		T(arm64_does_not_retry_when_long_was_not_asked),
		T(x86_rdpmc_0_closes_the_gate),
		T(x86_rdpmc_1_or_2_opens_it_and_leaves_the_attr_alone),
		T(x86_without_a_pmu_is_no_pmu),
		T(x86_never_retries),
		T(generic_has_no_user_read_whatever_the_tree_says),
		cmocka_unit_test(the_host_arch_is_the_configured_one),
		cmocka_unit_test(only_an_mrs_of_a_pmu_counter_is_a_counter_read),
	};

	return cmocka_run_group_tests_name("gate", tests, NULL, NULL);
}
