// SPDX-License-Identifier: MIT
/*
 * The generic set on x86 (<selfmon/metric.h> on fake roots of an AMD Zen 5
 * and an Intel Emerald Rapids machine, whose tables define no ipc): ipc,
 * cpi and the miss ratios resolve to the kernel's generic events, also as
 * "@ipc" in an event list; a core's own metric of the same name wins;
 * TopdownL1 is Zen's PipelineL1; without a core PMU a metric resolves and
 * says it cannot open; an unknown name gets the closest names, or none.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <generated/autoconf.h>
#include <selfmon/metric.h>
#include <selfmon/selfmon.h>
#include "fakeroot.h"

#if defined(CONFIG_PMU_EVENTS) && defined(CONFIG_ARCH_X86_64)
static char *root;

/* Two CPUs of @vendor, family @family, model @model; a core PMU "cpu" when @pmu. */
static void machine(const char *vendor, int family, int model, int pmu)
{
	fakeroot__free(root);
	root = fakeroot__new();
	fakeroot__write(root, "/proc/cpuinfo",
			"processor\t: 0\nvendor_id\t: %s\ncpu family\t: %d\nmodel\t\t: %d\nstepping\t: 1\n\n"
			"processor\t: 1\nvendor_id\t: %s\ncpu family\t: %d\nmodel\t\t: %d\nstepping\t: 1\n\n",
			vendor, family, model, vendor, family, model);
	fakeroot__write(root, "/sys/devices/system/cpu/online", "0-1\n");
	if (pmu)
		fakeroot__x86_cpu(root, 1);
	else
		fakeroot__pmu_file(root, "software", "type", "1");
	assert_int_equal(setenv("SELFMON_SYSFS_ROOT", root, 1), 0);
}

static void zen5(void)
{
	machine("AuthenticAMD", 26, 2, 1);
}

static void emeraldrapids(void)
{
	machine("GenuineIntel", 6, 0xcf, 1);
}

static int teardown(void **state)
{
	(void)state;
	fakeroot__free(root);
	root = NULL;
	return unsetenv("SELFMON_SYSFS_ROOT");
}

/* @names on this root's CPU 0: the core, and the events they open. */
static void resolves(const char *names, const char *core, const char *events)
{
	struct selfmon_metrics *m = selfmon_metrics__new(names, 0, "u");

	if (!m)
		fail_msg("'%s' on %s: %s", names, core, selfmon_errmsg());
	assert_string_equal(selfmon_metrics__core(m, NULL), core);
	assert_string_equal(selfmon_metrics__events(m), events);
	for (int i = 0; i < selfmon_metrics__nr(m); i++)
		assert_string_equal(selfmon_metrics__why(m, i), "");
	selfmon_metrics__delete(m);
}

static void ipc_is_instructions_per_cycle_on_x86_cores_without_one(void **state)
{
	(void)state;
	zen5();
	resolves("ipc", "amdzen5", "{instructions:u,cycles:u}");
	emeraldrapids();
	resolves("ipc", "emeraldrapids", "{instructions:u,cycles:u}");
}

static void the_generic_set_resolves_by_name_and_as_a_group(void **state)
{
	struct selfmon_metrics *m;

	(void)state;
	zen5();
	resolves("cpi", "amdzen5", "{cycles:u,instructions:u}");
	resolves("cache_miss_ratio", "amdzen5", "{cache-misses:u,cache-references:u}");
	m = selfmon_metrics__new("Generic", 0, "u");
	assert_non_null(m);
	assert_int_equal(selfmon_metrics__nr(m), 4);
	assert_string_equal(selfmon_metrics__name(m, 0), "branch_misprediction_ratio");
	selfmon_metrics__delete(m);
	emeraldrapids();
	resolves("branch_misprediction_ratio", "emeraldrapids",
		 "{branch-misses:u,branch-instructions:u}");
}

static void an_at_metric_of_an_event_list_is_accepted(void **state)
{
	char events[64], names[64];

	(void)state;
	assert_int_equal(selfmon_metrics__split("{instructions:u,cycles:u},@ipc", events,
						sizeof(events), names, sizeof(names)), 0);
	assert_string_equal(names, "ipc");
	zen5();
	resolves(names, "amdzen5", "{instructions:u,cycles:u}");
	emeraldrapids();
	resolves("@ipc", "emeraldrapids", "{instructions:u,cycles:u}");
}

static void a_cores_own_metric_of_the_same_name_wins(void **state)
{
	(void)state;
	emeraldrapids();
	/* emr-metrics.json's cpi: CPU_CLK_UNHALTED.THREAD / INST_RETIRED.ANY */
	resolves("cpi", "emeraldrapids", "{CPU_CLK_UNHALTED.THREAD:u,INST_RETIRED.ANY:u}");
}

static void topdownl1_is_zens_pipelinel1(void **state)
{
	struct selfmon_metrics *m;
	int found = 0;

	(void)state;
	zen5();
	m = selfmon_metrics__new("ipc,TopdownL1", 0, "u");
	if (!m)
		fail_msg("%s", selfmon_errmsg());
	assert_true(selfmon_metrics__nr(m) >= 5);
	for (int i = 0; i < selfmon_metrics__nr(m); i++)
		found += !strcmp(selfmon_metrics__name(m, i), "frontend_bound") ||
			 !strcmp(selfmon_metrics__name(m, i), "backend_bound");
	assert_int_equal(found, 2);
	selfmon_metrics__delete(m);
}

static void without_a_core_pmu_ipc_resolves_and_says_it_cannot_open(void **state)
{
	struct selfmon_metrics *m;

	(void)state;
	machine("AuthenticAMD", 26, 2, 0);
	m = selfmon_metrics__new("ipc", 0, "u");
	if (!m)
		fail_msg("%s", selfmon_errmsg());
	assert_string_equal(selfmon_metrics__events(m), "");
	assert_non_null(strstr(selfmon_metrics__why(m, 0), "cannot open: no PMU"));
	selfmon_metrics__delete(m);
}

static void a_metric_typo_names_the_closest_and_nothing_close_names_none(void **state)
{
	(void)state;
	zen5();
	assert_null(selfmon_metrics__new("ipcc", 0, "u"));
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(selfmon_errmsg(), "close: 'ipc'"));
	assert_null(selfmon_metrics__new("Topdownl2", 0, "u"));
	assert_null(selfmon_metrics__new("zzqqxw", 0, "u"));
	assert_non_null(strstr(selfmon_errmsg(), "'zzqqxw'"));
	assert_null(strstr(selfmon_errmsg(), "close:"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(ipc_is_instructions_per_cycle_on_x86_cores_without_one, teardown),
		cmocka_unit_test_teardown(the_generic_set_resolves_by_name_and_as_a_group, teardown),
		cmocka_unit_test_teardown(an_at_metric_of_an_event_list_is_accepted, teardown),
		cmocka_unit_test_teardown(a_cores_own_metric_of_the_same_name_wins, teardown),
		cmocka_unit_test_teardown(topdownl1_is_zens_pipelinel1, teardown),
		cmocka_unit_test_teardown(without_a_core_pmu_ipc_resolves_and_says_it_cannot_open, teardown),
		cmocka_unit_test_teardown(a_metric_typo_names_the_closest_and_nothing_close_names_none,
					  teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
#else
static void needs_x86_tables(void **state)
{
	(void)state;
	skip();
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(needs_x86_tables) };

	printf("# SKIP: needs the x86 pmu-events tables (CONFIG_PMU_EVENTS on x86_64)\n");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
#endif
