// SPDX-License-Identifier: MIT
/*
 * Event names from the core's pmu-events tables, wherever selfmon takes
 * events: "BACLEARS.ANY" on the alderlake fixture is its cpu_core encoding
 * by default and its cpu_atom one once the thread counts on the E-cores (each
 * cluster its own tables); case does not matter, modifiers apply, and a name
 * that is nowhere stays an error that says where names come from and names
 * the closest ones. Needs
 * x86 tables (the x86_64 defconfig builds all).
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <generated/autoconf.h>
#include <selfmon/selfmon.h>
#include "../../core/event.h"
#include "../../core/pmu.h"
#include "fakeroot.h"

#if defined(CONFIG_PMU_EVENTS) && defined(CONFIG_ARCH_X86_64)
static char fixtures[PATH_MAX];
static struct selfmon_pmus pmus;

static int load(void **state)
{
	char root[PATH_MAX + 32];

	(void)state;
	fakeroot__fixtures(fixtures, sizeof(fixtures));
	snprintf(root, sizeof(root), "%s/alderlake", fixtures);
	return selfmon_pmus__load(&pmus, strdup(root));
}

static int unload(void **state)
{
	(void)state;
	selfmon_pmus__free(&pmus);
	return 0;
}

static void a_table_name_opens_on_the_default_core_pmu(void **state)
{
	struct selfmon_event ev;

	(void)state;
	assert_int_equal(selfmon_event__parse("BACLEARS.ANY:u", &pmus, &ev), 0);
	assert_string_equal(ev.pmu->name, "cpu_core");
	assert_int_equal(ev.attr.type, 4);
	/* cpu_core: EventCode 0x60, UMask 0x1 (umask is config:8-15) */
	assert_int_equal(ev.attr.config, 0x160);
	assert_true(ev.hardware && ev.table_named);
	assert_true(ev.attr.exclude_kernel && !ev.attr.exclude_user);
	assert_int_equal(selfmon_event__parse("baclears.any", &pmus, &ev), 0);
	assert_int_equal(ev.attr.config, 0x160);
}

static void each_cluster_takes_the_name_from_its_own_tables(void **state)
{
	struct selfmon_event ev;

	(void)state;
	assert_int_equal(selfmon_event__parse("BACLEARS.ANY:u", &pmus, &ev), 0);
	assert_int_equal(selfmon_event__for_pmu(&ev, &pmus, selfmon_pmus__find(&pmus, "cpu_atom")), 0);
	assert_string_equal(ev.pmu->name, "cpu_atom");
	assert_int_equal(ev.attr.type, selfmon_pmus__find(&pmus, "cpu_atom")->type);
	/* cpu_atom: EventCode 0xe6, UMask 0x1; the modifier stays */
	assert_int_equal(ev.attr.config, 0x1e6);
	assert_true(ev.attr.exclude_kernel);
	/* An event only the P-cores have is refused on the E-cores, by name. */
	assert_int_equal(selfmon_event__parse("DECODE.LCP", &pmus, &ev), 0);
	assert_int_equal(selfmon_event__for_pmu(&ev, &pmus, selfmon_pmus__find(&pmus, "cpu_atom")), -ENOENT);
	assert_non_null(strstr(selfmon_errmsg(), "'DECODE.LCP'"));
}

static void a_name_only_another_cluster_has_parses_and_opens_there(void **state)
{
	const struct selfmon_pmu *atom = selfmon_pmus__find(&pmus, "cpu_atom");
	struct selfmon_event ev;

	(void)state;
	/* Only the E-cores' tables have it: not a typo because the P-cores lack it. */
	assert_int_equal(selfmon_event__parse("BR_INST_RETIRED.JCC:u", &pmus, &ev), 0);
	assert_true(ev.hardware && ev.table_named);
	assert_string_equal(ev.pmu->name, "cpu_atom");
	assert_int_equal(selfmon_event__for_pmu(&ev, &pmus, atom), 0);
	assert_int_equal(ev.attr.type, atom->type);
	/* cpu_atom: EventCode 0xc4, UMask 0x7e */
	assert_int_equal(ev.attr.config, 0x7ec4);
	assert_true(ev.attr.exclude_kernel && !ev.attr.exclude_user);
	/* On the P-cores it is refused, naming the event and their PMU. */
	assert_int_equal(selfmon_event__parse("BR_INST_RETIRED.JCC", &pmus, &ev), 0);
	assert_int_equal(selfmon_event__for_pmu(&ev, &pmus, selfmon_pmus__find(&pmus, "cpu_core")),
			 -ENOENT);
	assert_non_null(strstr(selfmon_errmsg(), "'BR_INST_RETIRED.JCC'"));
	assert_non_null(strstr(selfmon_errmsg(), "cpu_core"));
}

static void an_unknown_name_says_where_names_come_from(void **state)
{
	struct selfmon_event ev;

	(void)state;
	assert_int_equal(selfmon_event__parse("NO_SUCH.EVENT", &pmus, &ev), -SELFMON_ERRNO__NOEVENT);
	assert_non_null(strstr(selfmon_errmsg(), "pmu-events tables"));
	/* Generic names keep their meaning. */
	assert_int_equal(selfmon_event__parse("instructions", &pmus, &ev), 0);
	assert_false(ev.table_named);
}

/* The closer names in the error: a generic one, a table one; none when nothing is close. */
static void a_typo_names_the_closest_events_and_nothing_close_names_none(void **state)
{
	static const struct {
		const char *typo, *close;
	} typos[] = {
		{ "instrucions:u", "close: 'instructions'" },
		{ "cyles", "close: 'cycles'" },
		{ "baclears.an", "close: 'BACLEARS.ANY'" },
	};
	struct selfmon_event ev;

	(void)state;
	for (size_t i = 0; i < sizeof(typos) / sizeof(typos[0]); i++) {
		assert_int_equal(selfmon_event__parse(typos[i].typo, &pmus, &ev), -SELFMON_ERRNO__NOEVENT);
		if (!strstr(selfmon_errmsg(), typos[i].close))
			fail_msg("'%s': no \"%s\" in: %s", typos[i].typo, typos[i].close, selfmon_errmsg());
	}
	assert_int_equal(selfmon_event__parse("zzqqxw", &pmus, &ev), -SELFMON_ERRNO__NOEVENT);
	assert_non_null(strstr(selfmon_errmsg(), "'zzqqxw'"));
	assert_null(strstr(selfmon_errmsg(), "close:"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_table_name_opens_on_the_default_core_pmu),
		cmocka_unit_test(each_cluster_takes_the_name_from_its_own_tables),
		cmocka_unit_test(a_name_only_another_cluster_has_parses_and_opens_there),
		cmocka_unit_test(an_unknown_name_says_where_names_come_from),
		cmocka_unit_test(a_typo_names_the_closest_events_and_nothing_close_names_none),
	};

	return cmocka_run_group_tests(tests, load, unload);
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
