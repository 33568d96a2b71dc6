// SPDX-License-Identifier: MIT
/*
 * Every metric of the kernel tree's pmu-events, arm64 and x86 (tables of all
 * cores, built for this test): each either parses and evaluates to a finite
 * number on fixture counts, or is reported unsupported with a reason. The
 * counts of each are printed, with the reasons. Then formulas against values
 * computed by hand (Neoverse N1 and N2: IPC, the L1D miss ratio, top-down
 * level 1 and N1's stalled-cycle fallback), and which core each fixture
 * board's CPUs are (MIDR on arm64, CPUID on x86), through mapfile.csv.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <cmocka.h>

#include <generated/autoconf.h>
#include "../../core/event.h"
#include "../../core/metric_int.h"
#include "fakeroot.h"

#ifdef CONFIG_PMU_EVENTS
extern const struct selfmon_pe_table selfmon_pe__table_all_arm64, selfmon_pe__table_all_x86;

static char fixtures[PATH_MAX];

/*
 * Not in the table, yet counted where perf counts it: a generic event name
 * of selfmon's parser, an alias the kernel puts in a core PMU's sysfs events/
 * (the Intel topdown-* of the alderlake fixture), or the time of the region.
 */
static bool counted_elsewhere(const char *name)
{
	struct selfmon_pmus none = { .nr = 0 };
	struct selfmon_event ev;
	char path[PATH_MAX + 128];
	size_t n = strcspn(name, ":,");

	if (!strcmp(name, "duration_time") || !selfmon_event__parse(name, &none, &ev))
		return true;
	snprintf(path, sizeof(path), "%s/alderlake/sys/bus/event_source/devices/cpu_core/events/%.*s",
		 fixtures, (int)n, name);
	return !access(path, F_OK);
}

/* Fixture counts: an event counts a number drawn from its name, 1000 to 1999000. */
static int hash_count(void *arg, const struct selfmon_pe_event *ev, const char *name, double *v,
		      char *why, size_t why_size)
{
	uint32_t h = 2166136261u;

	(void)arg;
	if (!ev && !counted_elsewhere(name)) {
		snprintf(why, why_size, "event '%s' is not in the tables of this core", name);
		return -ENOENT;
	}
	for (const char *p = name; *p; p++)
		h = (h ^ (uint32_t)(*p | 0x20)) * 16777619u;
	*v = 1000.0 * (1 + h % 1999);
	return 0;
}

/* What a thread of a fixture machine knows: its PMU's slots, SMT on, 8 CPUs, one package. */
static int fixture_literal(void *arg, const char *name, double *v, char *why, size_t why_size)
{
	static const struct { const char *name; double v; } lits[] = {
		{ "slots", 8 }, { "smt_on", 1 }, { "num_cpus_online", 8 }, { "num_cpus", 8 },
		{ "num_cores", 4 }, { "num_packages", 1 }, { "num_dies", 1 }, { "core_wide", 0 }, { "has_pmem", 0 },
	};

	(void)arg;
	for (size_t i = 0; i < sizeof(lits) / sizeof(lits[0]); i++)
		if (!strcmp(name, lits[i].name)) {
			*v = lits[i].v;
			return 0;
		}
	snprintf(why, why_size, "literal '#%s' is not known to a self-monitoring thread", name);
	return -EOPNOTSUPP;
}

/* The reason with its quoted names starred: "event 'X' is not in..." -> "event * is not in...". */
static void reason_kind(const char *why, char *out, size_t size)
{
	size_t n = 0;
	bool quoted = false;

	for (const char *p = why; *p && n + 1 < size; p++) {
		if (*p == '\'') {
			quoted = !quoted;
			if (quoted && n + 2 < size)
				out[n++] = '*';
			continue;
		}
		if (!quoted)
			out[n++] = *p;
	}
	out[n] = '\0';
}

#define MAX_KINDS 32
struct tally {
	int ok, unsupported, parse_errors;
	char kinds[MAX_KINDS][96];
	int kind_nr[MAX_KINDS];
};

static void count_reason(struct tally *t, const char *why)
{
	char kind[96];
	int i;

	reason_kind(why, kind, sizeof(kind));
	for (i = 0; i < MAX_KINDS && t->kinds[i][0]; i++)
		if (!strcmp(t->kinds[i], kind))
			break;
	if (i == MAX_KINDS)
		return;
	snprintf(t->kinds[i], sizeof(t->kinds[i]), "%s", kind);
	t->kind_nr[i]++;
}

static void run_all(const struct selfmon_pe_table *t, struct tally *tl)
{
	for (int c = 0; c < t->nr_cores; c++) {
		const struct selfmon_pe_core *core = &t->cores[c];

		for (uint32_t i = 0; i < core->nr_m; i++) {
			const struct selfmon_pe_metric *m = &t->metrics[t->m_idx[core->m_first + i]];
			const char *pmu = selfmon_pe__str(t, m->pmu);
			struct selfmon_metric_ctx ctx = {
				.t = t, .core = c, .cpuid = "0x00000000410fd493", .pmu = *pmu ? pmu : NULL,
				.count = hash_count, .literal = fixture_literal,
			};
			char why[256] = "";
			double v = NAN;
			int err = selfmon_metric__eval(&ctx, m, false, &v, why, sizeof(why));

			if (!err) {
				assert_true(isfinite(v));
				tl->ok++;
				continue;
			}
			/* Unsupported always says why. */
			if (!why[0])
				fail_msg("%s %s: error %d with no reason", selfmon_pe__str(t, core->name),
					 selfmon_pe__str(t, m->name), err);
			if (err == -EINVAL)
				tl->parse_errors++, printf("# parse: %s %s: %s\n", selfmon_pe__str(t, core->name),
							    selfmon_pe__str(t, m->name), why);
			tl->unsupported++;
			count_reason(tl, why);
		}
	}
}

static void every_metric_evaluates_or_says_why(const struct selfmon_pe_table *t)
{
	struct tally tl;

	memset(&tl, 0, sizeof(tl));
	fakeroot__fixtures(fixtures, sizeof(fixtures));
	run_all(t, &tl);
	printf("# %s: %d metrics (per core) evaluate, %d unsupported (%.1f%%), %d do not parse\n", t->arch,
	       tl.ok, tl.unsupported, 100.0 * tl.unsupported / (tl.ok + tl.unsupported), tl.parse_errors);
	for (int i = 0; i < MAX_KINDS && tl.kinds[i][0]; i++)
		printf("#   %5d  %s\n", tl.kind_nr[i], tl.kinds[i]);
	/* Every expression of the tree is in the language the parser reads. */
	assert_int_equal(tl.parse_errors, 0);
	assert_true(tl.ok > 0);
	/* Unsupported stays the exception (the reasons above say which and why). */
	assert_true(tl.unsupported * 5 < tl.ok + tl.unsupported);
}

static void every_arm64_metric_evaluates_or_says_why(void **state)
{
	(void)state;
	every_metric_evaluates_or_says_why(&selfmon_pe__table_all_arm64);
}

static void every_x86_metric_evaluates_or_says_why(void **state)
{
	(void)state;
	every_metric_evaluates_or_says_why(&selfmon_pe__table_all_x86);
}

/* ---- formulas against hand-computed values ---- */

struct fixed {
	const char *name;
	double v;
};

static const struct fixed *fixed_counts;

static int fixed_count(void *arg, const struct selfmon_pe_event *ev, const char *name, double *v,
		       char *why, size_t why_size)
{
	(void)arg;
	for (const struct fixed *f = fixed_counts; f->name; f++)
		if (!strcasecmp(f->name, name) && ev) {
			*v = f->v;
			return 0;
		}
	snprintf(why, why_size, "event '%s' not counted", name);
	return -ENOENT;
}

static int slots5(void *arg, const char *name, double *v, char *why, size_t why_size)
{
	(void)arg;
	if (strcmp(name, "slots")) {
		snprintf(why, why_size, "no #%s", name);
		return -ENOENT;
	}
	*v = 5;	/* Neoverse N2's PMMIR_EL1.SLOTS */
	return 0;
}

static double metric_on(const char *core, const char *midr, const char *metric)
{
	const struct selfmon_pe_table *t = &selfmon_pe__table_all_arm64;
	int c = selfmon_pe__match(t, midr);
	struct selfmon_metric_ctx ctx = { .t = t, .core = c, .cpuid = midr, .count = fixed_count, .literal = slots5 };
	const struct selfmon_pe_metric *m;
	char why[256];
	double v = NAN;

	assert_true(c >= 0);
	assert_string_equal(selfmon_pe__str(t, t->cores[c].name), core);
	m = selfmon_pe__metric(t, c, metric, NULL);
	if (!m)
		fail_msg("%s has no metric %s", core, metric);
	if (selfmon_metric__eval(&ctx, m, false, &v, why, sizeof(why)))
		fail_msg("%s %s: %s", core, metric, why);
	return v;
}

static const struct fixed counts[] = {
	{ "INST_RETIRED", 3000 }, { "CPU_CYCLES", 2000 }, { "L1D_CACHE", 800 }, { "L1D_CACHE_REFILL", 40 },
	{ "STALL_FRONTEND", 300 }, { "STALL_BACKEND", 500 }, { "STALL_SLOT", 4000 },
	{ "STALL_SLOT_FRONTEND", 2500 }, { "STALL_SLOT_BACKEND", 1500 }, { "OP_RETIRED", 2700 },
	{ "OP_SPEC", 3600 }, { "BR_MIS_PRED", 20 }, { NULL, 0 },
};

static void neoverse_n1_formulas_match_hand_values(void **state)
{
	(void)state;
	fixed_counts = counts;
	/* 3000 / 2000 */
	assert_float_equal(metric_on("arm/neoverse-n1", "0x00000000414fd0c1", "ipc"), 1.5, 1e-12);
	/* 40 / 800 */
	assert_float_equal(metric_on("arm/neoverse-n1", "0x00000000414fd0c1", "l1d_cache_miss_ratio"), 0.05, 1e-12);
	/* N1 has no slot events: its level 1 is stalled cycles, 300 and 500 of 2000 cycles. */
	assert_float_equal(metric_on("arm/neoverse-n1", "0x00000000414fd0c1", "frontend_stalled_cycles"), 15, 1e-12);
	assert_float_equal(metric_on("arm/neoverse-n1", "0x00000000414fd0c1", "backend_stalled_cycles"), 25, 1e-12);
}

static void neoverse_n2_top_down_level_1_matches_hand_values(void **state)
{
	const char *r0p3 = "0x00000000410fd493", *r0p0 = "0x00000000410fd490";

	(void)state;
	fixed_counts = counts;
	assert_float_equal(metric_on("arm/neoverse-n2-v2", r0p3, "ipc"), 1.5, 1e-12);
	/* slots = 5 x 2000 = 10000. frontend: 100 x (2500/10000 - 20/2000) = 24 */
	assert_float_equal(metric_on("arm/neoverse-n2-v2", r0p3, "frontend_bound"), 24, 1e-9);
	/* backend: 100 x (1500/10000 - 3 x 20/2000) = 12 */
	assert_float_equal(metric_on("arm/neoverse-n2-v2", r0p3, "backend_bound"), 12, 1e-9);
	/* retiring: 100 x (2700/3600) x (1 - 4000/10000) = 45 */
	assert_float_equal(metric_on("arm/neoverse-n2-v2", r0p3, "retiring"), 45, 1e-9);
	/* bad speculation: 100 x ((1 - 0.75) x 0.6 + 4 x 20/2000) = 19 */
	assert_float_equal(metric_on("arm/neoverse-n2-v2", r0p3, "bad_speculation"), 19, 1e-9);
	/*
	 * r0p0 counts a cycle too many per cycle in STALL_SLOT(_FRONTEND): the
	 * tables correct it. frontend: 100 x ((2500 - 2000)/10000 - 0.01) = 4;
	 * retiring: 100 x 0.75 x (1 - 2000/10000) = 60.
	 */
	assert_float_equal(metric_on("arm/neoverse-n2-v2", r0p0, "frontend_bound"), 4, 1e-9);
	assert_float_equal(metric_on("arm/neoverse-n2-v2", r0p0, "retiring"), 60, 1e-9);
}

/* ---- the generic set: the same names on every core of both architectures ---- */

static void the_generic_set_has_the_same_names_on_every_core(void **state)
{
	static const char *const names[] = { "ipc", "cpi", "branch_misprediction_ratio", "cache_miss_ratio" };
	const struct selfmon_pe_table *tables[] = { &selfmon_pe__table_all_arm64, &selfmon_pe__table_all_x86 };

	(void)state;
	for (size_t a = 0; a < 2; a++) {
		const struct selfmon_pe_table *t = tables[a];

		assert_true(t->common >= 0);
		for (int c = 0; c < t->nr_cores; c++)
			for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
				if (!selfmon_pe__metric(t, c, names[i], NULL))
					fail_msg("%s %s: no metric '%s'", t->arch,
						 selfmon_pe__str(t, t->cores[c].name), names[i]);
	}
}

/* ---- which core is this: the fixture boards ---- */

struct want_core {
	const char *board;
	int cpu;
	const char *core;	/* NULL: the common set */
	bool x86;
};

static const struct want_core boards[] = {
	{ "rk3399", 0, "arm/cortex-a53", false },
	{ "rk3399", 3, "arm/cortex-a53", false },
	{ "rk3399", 4, "arm/cortex-a57-a72", false },
	{ "rk3399", 5, "arm/cortex-a57-a72", false },
	{ "rpi4", 2, "arm/cortex-a57-a72", false },
	{ "snapdragon-8gen1", 0, "arm/cortex-a510", false },
	{ "snapdragon-8gen1", 5, "arm/cortex-a710", false },
	{ "snapdragon-8gen1", 7, "arm/cortex-x2", false },
	{ "qemu-virt", 0, NULL, false },
	{ "qemu-biglittle", 3, NULL, false },
	{ "skylake", 5, "skylake", true },
	{ "alderlake", 20, "alderlake", true },
	{ "x86-nopmu", 1, "amdzen3", true },
	{ "zen3", 15, "amdzen3", true },
};

static void each_fixture_cpu_maps_to_its_core(void **state)
{
	(void)state;
	fakeroot__fixtures(fixtures, sizeof(fixtures));
	for (size_t i = 0; i < sizeof(boards) / sizeof(boards[0]); i++) {
		const struct want_core *w = &boards[i];
		const struct selfmon_pe_table *t = w->x86 ? &selfmon_pe__table_all_x86 : &selfmon_pe__table_all_arm64;
		struct selfmon_pe_ident id;
		char root[PATH_MAX + 64];
		int err;

		snprintf(root, sizeof(root), "%s/%s", fixtures, w->board);
		err = selfmon_pe__core_of_cpu(t, w->x86 ? &selfmon_arch__x86 : &selfmon_arch__arm64, root, w->cpu, &id);
		if (err)
			fail_msg("%s cpu%d: %d", w->board, w->cpu, err);
		printf("# %s cpu%d: %s -> %s%s\n", w->board, w->cpu, id.id, selfmon_pe__str(t, t->cores[id.core].name),
		       id.fallback ? " (no rule: the common set)" : "");
		assert_int_equal(id.fallback, w->core == NULL);
		if (w->core)
			assert_string_equal(selfmon_pe__str(t, t->cores[id.core].name), w->core);
	}
}

/*
 * perf's x86 cpuid string (tools/perf/arch/x86/util/header.c in the kernel
 * tree) prints the stepping in hex, "%s-%u-%X-%X", and mapfile.csv's rules
 * that name a stepping spell it so: family 6 model 0x55 is skylakex at
 * steppings 0-4 and cascadelakex at 5-F. A Cooper Lake, stepping 11, is "B".
 */
static void the_stepping_is_hex_as_the_tables_rules_spell_it(void **state)
{
	char *root = fakeroot__new();
	struct selfmon_pe_ident id;
	const struct selfmon_pe_table *t = &selfmon_pe__table_all_x86;
	int err;

	(void)state;
	fakeroot__write(root, "/proc/cpuinfo",
			"processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n"
			"model\t\t: 85\nstepping\t: 11\n\n");
	err = selfmon_pe__core_of_cpu(t, &selfmon_arch__x86, root, 0, &id);
	fakeroot__free(root);
	assert_int_equal(err, 0);
	assert_string_equal(id.id, "GenuineIntel-6-55-B");
	assert_false(id.fallback);
	assert_string_equal(selfmon_pe__str(t, t->cores[id.core].name), "cascadelakex");
}

static void a_cpu_without_an_id_is_an_error_not_a_guess(void **state)
{
	struct selfmon_pe_ident id;
	char root[PATH_MAX + 64];

	(void)state;
	fakeroot__fixtures(fixtures, sizeof(fixtures));
	snprintf(root, sizeof(root), "%s/rk3399", fixtures);
	assert_int_equal(selfmon_pe__core_of_cpu(&selfmon_pe__table_all_arm64, &selfmon_arch__arm64, root, 9, &id),
			 -ENOENT);
	assert_int_equal(id.core, -1);
	/* No /proc/cpuinfo in an arm64 tree. */
	assert_true(selfmon_pe__core_of_cpu(&selfmon_pe__table_all_x86, &selfmon_arch__x86, root, 0, &id) < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_arm64_metric_evaluates_or_says_why),
		cmocka_unit_test(every_x86_metric_evaluates_or_says_why),
		cmocka_unit_test(neoverse_n1_formulas_match_hand_values),
		cmocka_unit_test(neoverse_n2_top_down_level_1_matches_hand_values),
		cmocka_unit_test(the_generic_set_has_the_same_names_on_every_core),
		cmocka_unit_test(each_fixture_cpu_maps_to_its_core),
		cmocka_unit_test(a_cpu_without_an_id_is_an_error_not_a_guess),
		cmocka_unit_test(the_stepping_is_hex_as_the_tables_rules_spell_it),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
#else
static void needs_pmu_events(void **state)
{
	(void)state;
	skip();
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(needs_pmu_events) };

	printf("# SKIP: built with CONFIG_PMU_EVENTS_NONE: no metrics to test\n");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
#endif
