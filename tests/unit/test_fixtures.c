// SPDX-License-Identifier: MIT
/*
 * The PMUs of real boards, as tests/fixtures/sysfs/<board>/ describes them
 * (see its README for where each fact comes from): what selfmon_pmus__load
 * finds, which core PMU generic events land on, how events resolve there
 * and what the board's arch gate says. A board whose tree is missing is
 * skipped; the fixtures are found by walking up from this binary, or at
 * $SELFMON_FIXTURES.
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
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../core/arch_int.h"
#include "../../core/cpulist.h"
#include "../../core/event.h"

static char fixtures[PATH_MAX];

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* @root = the fixture tree of @board; false when it is not there. */
static bool board_root(const char *board, char *root, size_t size)
{
	int n = snprintf(root, size, "%s/%s", fixtures, board);

	return fixtures[0] && n > 0 && (size_t)n < size && is_dir(root);
}

static int find_fixtures(void **state)
{
	const char *env = getenv("SELFMON_FIXTURES");
	char dir[PATH_MAX];
	ssize_t n;

	(void)state;
	if (env) {
		snprintf(fixtures, sizeof(fixtures), "%s", env);
		return 0;
	}
	n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
	if (n <= 0)
		return 0;
	dir[n] = '\0';
	for (char *slash = strrchr(dir, '/'); slash; slash = strrchr(dir, '/')) {
		*slash = '\0';
		n = snprintf(fixtures, sizeof(fixtures), "%s/tests/fixtures/sysfs", dir);
		if (n > 0 && (size_t)n < sizeof(fixtures) && is_dir(fixtures))
			return 0;
	}
	/* a build directory outside the tree: try the working directory */
	if (realpath("tests/fixtures/sysfs", fixtures) && is_dir(fixtures))
		return 0;
	fixtures[0] = '\0';
	return 0;
}

struct core {
	const char *name;
	uint32_t type;
	const char *cpus;	/* NULL: no cpus file (x86 "cpu") */
};

struct board {
	const char *name;
	const struct selfmon_arch *arch;
	int nr_core;
	const char *default_core;	/* NULL: no hardware PMU */
	struct core cores[3];
	enum selfmon_reason gate;	/* the arch gate for "cycles" */
};

static const struct board boards[] = {
	{ "rk3399", &selfmon_arch__arm64, 2, "armv8_cortex_a72",
	  { { "armv8_cortex_a53", 9, "0-3" }, { "armv8_cortex_a72", 8, "4-5" } }, SELFMON_REASON_SYSCTL },
	{ "snapdragon-8gen1", &selfmon_arch__arm64, 3, "armv9_cortex_a510",
	  { { "armv9_cortex_a510", 8, "0-3" }, { "armv9_cortex_a710", 9, "4-6" },
	    { "armv9_cortex_x2", 10, "7" } }, SELFMON_REASON_SYSCTL },
	{ "snapdragon-8gen1-upstream-dt", &selfmon_arch__arm64, 1, "armv8_pmuv3",
	  { { "armv8_pmuv3", 8, "0-7" } }, SELFMON_REASON_SYSCTL },
	{ "m1", &selfmon_arch__arm64, 2, "apple_icestorm_pmu",
	  { { "apple_icestorm_pmu", 8, "0-3" }, { "apple_firestorm_pmu", 9, "4-7" } },
	  SELFMON_REASON_NO_FORMAT },
	{ "rpi4", &selfmon_arch__arm64, 1, "armv8_cortex_a72",
	  { { "armv8_cortex_a72", 8, "0-3" } }, SELFMON_REASON_SYSCTL },
	{ "qemu-virt", &selfmon_arch__arm64, 1, "armv8_pmuv3",
	  { { "armv8_pmuv3", 8, "0" } }, SELFMON_REASON_SYSCTL },
	{ "qemu-virt-useraccess", &selfmon_arch__arm64, 1, "armv8_pmuv3",
	  { { "armv8_pmuv3", 8, "0" } }, SELFMON_REASON_NONE },
	{ "qemu-biglittle", &selfmon_arch__arm64, 2, "armv8_cortex_a53",
	  { { "armv8_cortex_a53", 8, "0-1" }, { "armv8_cortex_a72", 9, "2-3" } }, SELFMON_REASON_SYSCTL },
	{ "alderlake", &selfmon_arch__x86, 2, "cpu_core",
	  { { "cpu_core", 4, "0-15" }, { "cpu_atom", 8, "16-23" } }, SELFMON_REASON_NONE },
	{ "skylake", &selfmon_arch__x86, 1, "cpu", { { "cpu", 4, NULL } }, SELFMON_REASON_NONE },
	{ "skylake-rdpmc0", &selfmon_arch__x86, 1, "cpu", { { "cpu", 4, NULL } }, SELFMON_REASON_SYSFS_RDPMC },
	{ "zen3", &selfmon_arch__x86, 1, "cpu", { { "cpu", 4, NULL } }, SELFMON_REASON_NONE },
	{ "x86-nopmu", &selfmon_arch__x86, 0, NULL, { { NULL, 0, NULL } }, SELFMON_REASON_NO_PMU },
};

#define NR_BOARDS (sizeof(boards) / sizeof(boards[0]))

/* Load @b's PMUs; false (and the test skips) when its tree is not there. */
static bool load_board(const struct board *b, char *root, size_t size, struct selfmon_pmus *pmus)
{
	if (!board_root(b->name, root, size))
		return false;
	assert_int_equal(selfmon_pmus__load(pmus, root), 0);
	return true;
}

static void every_board_has_its_core_pmus_with_their_types_and_cpus(void **state)
{
	int seen = 0;

	(void)state;
	for (size_t i = 0; i < NR_BOARDS; i++) {
		const struct board *b = &boards[i];
		struct selfmon_pmus pmus;
		char root[PATH_MAX];

		if (!load_board(b, root, sizeof(root), &pmus))
			continue;
		seen++;
		if (selfmon_pmus__nr_core(&pmus) != b->nr_core)
			fail_msg("%s: %d core PMUs, want %d", b->name, selfmon_pmus__nr_core(&pmus), b->nr_core);
		for (int c = 0; c < b->nr_core; c++) {
			const struct core *want = &b->cores[c];
			const struct selfmon_pmu *p = selfmon_pmus__find(&pmus, want->name);
			cpu_set_t cpus;

			if (!p)
				fail_msg("%s: no PMU %s", b->name, want->name);
			assert_true(p->core);
			assert_int_equal(p->type, want->type);
			assert_ptr_equal(selfmon_pmus__by_type(&pmus, want->type), p);
			if (!want->cpus) {
				assert_false(p->has_cpus);
				continue;
			}
			assert_true(p->has_cpus);
			assert_int_equal(selfmon_cpulist__parse(want->cpus, &cpus), 0);
			if (!CPU_EQUAL(&cpus, &p->cpus))
				fail_msg("%s: %s cpus differ from %s", b->name, want->name, want->cpus);
		}
		selfmon_pmus__free(&pmus);
	}
	if (!seen)
		skip();
}

static void the_pmus_are_listed_by_type(void **state)
{
	int seen = 0;

	(void)state;
	for (size_t i = 0; i < NR_BOARDS; i++) {
		struct selfmon_pmus pmus;
		char root[PATH_MAX];

		if (!load_board(&boards[i], root, sizeof(root), &pmus))
			continue;
		seen++;
		assert_true(pmus.nr > boards[i].nr_core);	/* software, tracepoint, ... too */
		assert_non_null(selfmon_pmus__find(&pmus, "software"));
		assert_int_equal(selfmon_pmus__find(&pmus, "software")->type, PERF_TYPE_SOFTWARE);
		assert_false(selfmon_pmus__find(&pmus, "software")->core);
		for (int p = 1; p < pmus.nr; p++)
			assert_true(pmus.pmu[p - 1].type < pmus.pmu[p].type);
		selfmon_pmus__free(&pmus);
	}
	if (!seen)
		skip();
}

static void generic_events_land_on_the_boards_default_core_pmu(void **state)
{
	int seen = 0;

	(void)state;
	for (size_t i = 0; i < NR_BOARDS; i++) {
		const struct board *b = &boards[i];
		struct selfmon_pmus pmus;
		struct selfmon_event ev;
		char root[PATH_MAX];

		if (!load_board(b, root, sizeof(root), &pmus))
			continue;
		seen++;
		assert_int_equal(selfmon_event__parse("cycles", &pmus, &ev), 0);
		if (!b->default_core) {
			assert_null(ev.pmu);
			assert_null(selfmon_pmus__default_core(&pmus));
		} else {
			if (!ev.pmu || strcmp(ev.pmu->name, b->default_core))
				fail_msg("%s: cycles lands on %s, want %s", b->name,
					 ev.pmu ? ev.pmu->name : "(none)", b->default_core);
		}
		selfmon_pmus__free(&pmus);
	}
	if (!seen)
		skip();
}

static void the_boards_arch_gate_says_what_the_tree_allows(void **state)
{
	int seen = 0;

	(void)state;
	for (size_t i = 0; i < NR_BOARDS; i++) {
		const struct board *b = &boards[i];
		struct selfmon_pmus pmus;
		struct selfmon_event ev;
		unsigned int notes = 0;
		enum selfmon_reason r;
		char root[PATH_MAX];

		if (!load_board(b, root, sizeof(root), &pmus))
			continue;
		seen++;
		assert_int_equal(selfmon_event__parse("cycles", &pmus, &ev), 0);
		r = b->arch->prepare(root, &ev, true, &notes);
		if (r != b->gate)
			fail_msg("%s: gate says '%s', want '%s'", b->name, selfmon_reason__str(r),
				 selfmon_reason__str(b->gate));
		if (b->arch == &selfmon_arch__arm64 && b->gate != SELFMON_REASON_NO_FORMAT) {
			/* PMUv3: rdpmc=config1:1 and long=config1:0 */
			assert_true(ev.attr.config1 == 3);
			assert_true(notes & SELFMON_NOTE_LONG_ASKED);
		}
		selfmon_pmus__free(&pmus);
	}
	if (!seen)
		skip();
}

static void pmu_aliases_resolve_on_the_boards(void **state)
{
	static const struct {
		const char *board, *spec;
		uint32_t type;
		uint64_t config;
	} cases[] = {
		{ "rk3399", "armv8_cortex_a53/inst_retired/", 9, 0x08 },
		{ "rk3399", "armv8_cortex_a72/cpu_cycles/u", 8, 0x11 },
		{ "qemu-virt", "armv8_pmuv3/inst_retired/", 8, 0x08 },
		{ "m1", "apple_firestorm_pmu/instructions/", 9, 0x8c },
		{ "skylake", "cpu/cpu-cycles/", 4, 0x3c },
		/* AMD: cycles are event 0x76; the 12-bit event select's top nibble is config:32-35 */
		{ "zen3", "cpu/cpu-cycles/", 4, 0x76 },
		{ "zen3", "cpu/cache-references/", 4, 0xff60 },
		{ "zen3", "cpu/event=0x18e,umask=0x1f/", 4, 0x100001f8eull },
		/* hybrid strings have no trailing newline */
		{ "alderlake", "cpu_core/slots/", 4, 0x0400 },
		{ "alderlake", "cpu_atom/event=0xc0/", 8, 0xc0 },
	};
	int seen = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct selfmon_pmus pmus;
		struct selfmon_event ev;
		char root[PATH_MAX];
		int err;

		if (!board_root(cases[i].board, root, sizeof(root)))
			continue;
		seen++;
		assert_int_equal(selfmon_pmus__load(&pmus, root), 0);
		err = selfmon_event__parse(cases[i].spec, &pmus, &ev);
		if (err)
			fail_msg("%s: '%s': %d (%s)", cases[i].board, cases[i].spec, err, selfmon_errmsg());
		assert_int_equal(ev.attr.type, cases[i].type);
		if (ev.attr.config != cases[i].config)
			fail_msg("%s: '%s' config 0x%llx, want 0x%llx", cases[i].board, cases[i].spec,
				 (unsigned long long)ev.attr.config, (unsigned long long)cases[i].config);
		assert_true(ev.hardware);
		selfmon_pmus__free(&pmus);
	}
	if (!seen)
		skip();
}

static void an_event_a_board_does_not_implement_is_noevent(void **state)
{
	struct selfmon_pmus pmus;
	struct selfmon_event ev;
	char root[PATH_MAX];

	(void)state;
	/* QEMU's TCG PMU has no branch events: code must not assume them */
	if (!board_root("qemu-virt", root, sizeof(root)))
		skip();
	assert_int_equal(selfmon_pmus__load(&pmus, root), 0);
	assert_int_equal(selfmon_event__parse("armv8_pmuv3/br_retired/", &pmus, &ev), -SELFMON_ERRNO__NOEVENT);
	selfmon_pmus__free(&pmus);
}

static void an_amd_core_pmu_has_no_alias_for_a_generic_event_its_map_lacks(void **state)
{
	struct selfmon_pmus pmus;
	struct selfmon_event ev;
	char root[PATH_MAX];

	(void)state;
	/* amd_f17h_perfmon_event_map has no bus-cycles or ref-cycles: sysfs hides them */
	if (!board_root("zen3", root, sizeof(root)))
		skip();
	assert_int_equal(selfmon_pmus__load(&pmus, root), 0);
	assert_int_equal(selfmon_event__parse("cpu/ref-cycles/", &pmus, &ev), -SELFMON_ERRNO__NOEVENT);
	assert_int_equal(selfmon_event__parse("cpu/bus-cycles/", &pmus, &ev), -SELFMON_ERRNO__NOEVENT);
	assert_int_equal(selfmon_event__parse("cpu/stalled-cycles-backend/", &pmus, &ev), 0);
	assert_int_equal(ev.attr.config, 0x0187);
	selfmon_pmus__free(&pmus);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_board_has_its_core_pmus_with_their_types_and_cpus),
		cmocka_unit_test(the_pmus_are_listed_by_type),
		cmocka_unit_test(generic_events_land_on_the_boards_default_core_pmu),
		cmocka_unit_test(the_boards_arch_gate_says_what_the_tree_allows),
		cmocka_unit_test(pmu_aliases_resolve_on_the_boards),
		cmocka_unit_test(an_event_a_board_does_not_implement_is_noevent),
		cmocka_unit_test(an_amd_core_pmu_has_no_alias_for_a_generic_event_its_map_lacks),
	};

	return cmocka_run_group_tests_name("fixtures", tests, find_fixtures, NULL);
}
