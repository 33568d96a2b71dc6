// SPDX-License-Identifier: MIT
/*
 * The clusters of each fixture board (tests/fixtures/sysfs/<board>/): one
 * per core PMU with the CPUs it names, its cpu_capacity, its rank from
 * little to big and how that rank was told (cpu_capacity first, the PMU's
 * name where capacities tie), the look-ups by CPU and by name, and the text
 * messages show. Synthetic roots cover the rules no board shows: ties that
 * cannot be broken, capacity beating the name, the largest capacity of a
 * cluster's CPUs. A board whose tree is missing is skipped.
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

#include "../../core/cpulist.h"
#include "../../core/pmu.h"
#include "../../core/topology.h"
#include "fakeroot.h"

static char fixtures[PATH_MAX];

static int find_fixtures(void **state)
{
	(void)state;
	fakeroot__fixtures(fixtures, sizeof(fixtures));
	return 0;
}

struct want_cluster {
	const char *pmu;
	const char *cpus;
	unsigned long capacity;
	int rank;
};

struct want_cpu {
	int cpu;
	const char *pmu;	/* NULL: no cluster holds it */
};

struct board {
	const char *name;
	int nr;
	const char *ranked_by;		/* NULL: not ranked (one cluster, or none) */
	const char *big, *little;	/* NULL: none */
	struct want_cluster cl[3];	/* in PMU type order */
	const char *describe;
	struct want_cpu cpus[6];	/* of_cpu() cases */
	int nr_cpus;
};

static const struct board boards[] = {
	{ "rk3399", 2, "cpu_capacity", "armv8_cortex_a72", "armv8_cortex_a53",
	  { { "armv8_cortex_a72", "4-5", 1024, 1 }, { "armv8_cortex_a53", "0-3", 381, 0 } },
	  "armv8_cortex_a72 (4-5), armv8_cortex_a53 (0-3)",
	  { { 0, "armv8_cortex_a53" }, { 3, "armv8_cortex_a53" }, { 4, "armv8_cortex_a72" },
	    { 5, "armv8_cortex_a72" }, { 6, NULL }, { -1, NULL } }, 6 },
	{ "qemu-biglittle", 2, "cpu_capacity", "armv8_cortex_a72", "armv8_cortex_a53",
	  { { "armv8_cortex_a53", "0-1", 485, 0 }, { "armv8_cortex_a72", "2-3", 1024, 1 } },
	  "armv8_cortex_a53 (0-1), armv8_cortex_a72 (2-3)",
	  { { 0, "armv8_cortex_a53" }, { 1, "armv8_cortex_a53" }, { 2, "armv8_cortex_a72" },
	    { 3, "armv8_cortex_a72" }, { 4, NULL } }, 5 },
	{ "snapdragon-8gen1", 3, "PMU name", "armv9_cortex_x2", "armv9_cortex_a510",
	  { { "armv9_cortex_a510", "0-3", 1024, 0 }, { "armv9_cortex_a710", "4-6", 1024, 1 },
	    { "armv9_cortex_x2", "7", 1024, 2 } },
	  "armv9_cortex_a510 (0-3), armv9_cortex_a710 (4-6), armv9_cortex_x2 (7)",
	  { { 0, "armv9_cortex_a510" }, { 4, "armv9_cortex_a710" }, { 6, "armv9_cortex_a710" },
	    { 7, "armv9_cortex_x2" }, { 8, NULL } }, 5 },
	{ "snapdragon-8gen1-upstream-dt", 1, NULL, "armv8_pmuv3", "armv8_pmuv3",
	  { { "armv8_pmuv3", "0-7", 1024, 0 } },
	  "armv8_pmuv3 (0-7)",
	  { { 0, "armv8_pmuv3" }, { 7, "armv8_pmuv3" }, { 8, NULL } }, 3 },
	{ "m1", 2, "PMU name", "apple_firestorm_pmu", "apple_icestorm_pmu",
	  { { "apple_icestorm_pmu", "0-3", 1024, 0 }, { "apple_firestorm_pmu", "4-7", 1024, 1 } },
	  "apple_icestorm_pmu (0-3), apple_firestorm_pmu (4-7)",
	  { { 3, "apple_icestorm_pmu" }, { 4, "apple_firestorm_pmu" }, { 7, "apple_firestorm_pmu" },
	    { 8, NULL } }, 4 },
	{ "alderlake", 2, "PMU name", "cpu_core", "cpu_atom",
	  { { "cpu_core", "0-15", 0, 1 }, { "cpu_atom", "16-23", 0, 0 } },
	  "cpu_core (0-15), cpu_atom (16-23)",
	  { { 0, "cpu_core" }, { 15, "cpu_core" }, { 16, "cpu_atom" }, { 23, "cpu_atom" },
	    { 24, NULL } }, 5 },
	{ "rpi4", 1, NULL, "armv8_cortex_a72", "armv8_cortex_a72",
	  { { "armv8_cortex_a72", "0-3", 1024, 0 } },
	  "armv8_cortex_a72 (0-3)",
	  { { 0, "armv8_cortex_a72" }, { 3, "armv8_cortex_a72" }, { 4, NULL } }, 3 },
	{ "qemu-virt", 1, NULL, "armv8_pmuv3", "armv8_pmuv3",
	  { { "armv8_pmuv3", "0", 1024, 0 } },
	  "armv8_pmuv3 (0)",
	  { { 0, "armv8_pmuv3" }, { 1, NULL } }, 2 },
	{ "qemu-virt-useraccess", 1, NULL, "armv8_pmuv3", "armv8_pmuv3",
	  { { "armv8_pmuv3", "0", 1024, 0 } },
	  "armv8_pmuv3 (0)",
	  { { 0, "armv8_pmuv3" }, { 1, NULL } }, 2 },
	/* "cpu" has no cpus file: it covers sys/devices/system/cpu/online */
	{ "skylake", 1, NULL, "cpu", "cpu",
	  { { "cpu", "0-7", 0, 0 } },
	  "cpu (0-7)",
	  { { 0, "cpu" }, { 7, "cpu" }, { 8, NULL } }, 3 },
	{ "skylake-rdpmc0", 1, NULL, "cpu", "cpu",
	  { { "cpu", "0-7", 0, 0 } },
	  "cpu (0-7)",
	  { { 0, "cpu" }, { 7, "cpu" }, { 8, NULL } }, 3 },
	{ "x86-nopmu", 0, NULL, NULL, NULL, { { NULL, NULL, 0, 0 } },
	  "no CPU PMU",
	  { { 0, NULL }, { 1, NULL } }, 2 },
};

#define NR_BOARDS (sizeof(boards) / sizeof(boards[0]))

/* The PMUs and topology of one board. */
struct loaded {
	char root[PATH_MAX];
	struct selfmon_pmus pmus;
	struct selfmon_topology t;
};

/* Load @b; false when its tree is not there. */
static bool load(const struct board *b, struct loaded *l)
{
	int err;

	if (fakeroot__board(fixtures, b->name, l->root, sizeof(l->root)))
		return false;
	assert_int_equal(selfmon_pmus__load(&l->pmus, l->root), 0);
	err = selfmon_topology__load(&l->t, &l->pmus);
	if (err)
		fail_msg("%s: selfmon_topology__load: %d", b->name, err);
	return true;
}

static void unload(struct loaded *l)
{
	selfmon_pmus__free(&l->pmus);
}

static void cpus_equal(const char *board, const char *pmu, const cpu_set_t *have, const char *want)
{
	cpu_set_t w;
	char buf[256];

	assert_int_equal(selfmon_cpulist__parse(want, &w), 0);
	if (!CPU_EQUAL(have, &w)) {
		selfmon_cpulist__format(have, buf, sizeof(buf));
		fail_msg("%s: cluster %s has CPUs %s, want %s", board, pmu, buf, want);
	}
}

/*
 * The statement after it runs for every board whose tree is there, with @b
 * the board and @l loaded; the test skips when no board is there at all.
 */
#define FOR_EACH_BOARD(b, l)							\
	for (size_t fe_i = 0, fe_seen = 0; fe_i <= NR_BOARDS; fe_i++)		\
		if (fe_i == NR_BOARDS) {					\
			if (!fe_seen)						\
				skip();						\
		} else if ((b = &boards[fe_i]), !load(b, &l)) {			\
		} else if (++fe_seen, 0) {					\
		} else

/* ---- the fixture boards ---- */

static void every_core_pmu_is_one_cluster_with_the_cpus_it_names(void **state)
{
	const struct board *b;
	struct loaded l;

	(void)state;
	FOR_EACH_BOARD(b, l) {
		if (l.t.nr != b->nr)
			fail_msg("%s: %d clusters, want %d", b->name, l.t.nr, b->nr);
		for (int i = 0; i < b->nr; i++) {
			const struct selfmon_cluster *c = &l.t.cl[i];

			if (strcmp(c->pmu->name, b->cl[i].pmu))
				fail_msg("%s: cluster %d is %s, want %s", b->name, i, c->pmu->name, b->cl[i].pmu);
			assert_true(c->pmu->core);
			cpus_equal(b->name, c->pmu->name, &c->cpus, b->cl[i].cpus);
		}
		unload(&l);
	}
}

static void a_clusters_capacity_is_its_cpus_cpu_capacity_or_0_where_there_is_none(void **state)
{
	const struct board *b;
	struct loaded l;

	(void)state;
	FOR_EACH_BOARD(b, l) {
		for (int i = 0; i < l.t.nr && i < b->nr; i++)
			if (l.t.cl[i].capacity != b->cl[i].capacity)
				fail_msg("%s: %s capacity %lu, want %lu", b->name, b->cl[i].pmu,
					 l.t.cl[i].capacity, b->cl[i].capacity);
		unload(&l);
	}
}

static void clusters_rank_from_the_littlest_0_to_the_biggest(void **state)
{
	const struct board *b;
	struct loaded l;

	(void)state;
	FOR_EACH_BOARD(b, l) {
		for (int i = 0; i < l.t.nr && i < b->nr; i++)
			if (l.t.cl[i].rank != b->cl[i].rank)
				fail_msg("%s: %s rank %d, want %d", b->name, b->cl[i].pmu,
					 l.t.cl[i].rank, b->cl[i].rank);
		unload(&l);
	}
}

static void big_is_the_highest_rank_and_little_the_lowest(void **state)
{
	const struct board *b;
	struct loaded l;

	(void)state;
	FOR_EACH_BOARD(b, l) {
		const struct selfmon_cluster *big = selfmon_topology__big(&l.t);
		const struct selfmon_cluster *little = selfmon_topology__little(&l.t);

		if (!b->big) {
			assert_null(big);
			assert_null(little);
		} else {
			if (!big || strcmp(big->pmu->name, b->big))
				fail_msg("%s: big is %s, want %s", b->name, big ? big->pmu->name : "(none)", b->big);
			if (!little || strcmp(little->pmu->name, b->little))
				fail_msg("%s: little is %s, want %s", b->name,
					 little ? little->pmu->name : "(none)", b->little);
		}
		unload(&l);
	}
}

static void big_and_little_are_told_by_cpu_capacity_else_by_the_pmu_name(void **state)
{
	const struct board *b;
	struct loaded l;

	(void)state;
	FOR_EACH_BOARD(b, l) {
		if (!b->ranked_by) {
			if (l.t.ranked_by)
				fail_msg("%s: ranked by '%s', want not ranked", b->name, l.t.ranked_by);
		} else if (!l.t.ranked_by || strcmp(l.t.ranked_by, b->ranked_by)) {
			fail_msg("%s: ranked by '%s', want '%s'", b->name,
				 l.t.ranked_by ? l.t.ranked_by : "(null)", b->ranked_by);
		}
		unload(&l);
	}
}

static void a_homogeneous_board_has_one_cluster_that_is_both_big_and_little(void **state)
{
	const struct board *b;
	struct loaded l;
	int homogeneous = 0;

	(void)state;
	FOR_EACH_BOARD(b, l) {
		if (b->nr == 1) {
			homogeneous++;
			assert_int_equal(l.t.nr, 1);
			assert_ptr_equal(selfmon_topology__big(&l.t), &l.t.cl[0]);
			assert_ptr_equal(selfmon_topology__little(&l.t), &l.t.cl[0]);
			assert_int_equal(l.t.cl[0].rank, 0);
			assert_null(l.t.ranked_by);
		}
		unload(&l);
	}
	if (!homogeneous)
		skip();
}

static void a_board_without_a_core_pmu_has_no_cluster(void **state)
{
	const struct board *b = NULL;
	struct loaded l;
	char buf[64];

	(void)state;
	for (size_t i = 0; i < NR_BOARDS; i++)
		if (!strcmp(boards[i].name, "x86-nopmu"))
			b = &boards[i];
	assert_non_null(b);
	if (!load(b, &l))
		skip();
	assert_int_equal(l.t.nr, 0);
	assert_null(selfmon_topology__big(&l.t));
	assert_null(selfmon_topology__little(&l.t));
	assert_null(selfmon_topology__of_cpu(&l.t, 0));
	assert_null(selfmon_topology__find(&l.t, "msr"));	/* a PMU, but not a core one */
	assert_null(l.t.ranked_by);
	selfmon_topology__describe(&l.t, buf, sizeof(buf));
	assert_string_equal(buf, "no CPU PMU");
	unload(&l);
}

static void of_cpu_gives_the_cluster_holding_the_cpu_and_null_outside_every_cluster(void **state)
{
	const struct board *b;
	struct loaded l;

	(void)state;
	FOR_EACH_BOARD(b, l) {
		for (int i = 0; i < b->nr_cpus; i++) {
			const struct want_cpu *w = &b->cpus[i];
			const struct selfmon_cluster *c = selfmon_topology__of_cpu(&l.t, w->cpu);

			if (!w->pmu && c)
				fail_msg("%s: CPU %d is in %s, want no cluster", b->name, w->cpu, c->pmu->name);
			if (w->pmu && (!c || strcmp(c->pmu->name, w->pmu)))
				fail_msg("%s: CPU %d is in %s, want %s", b->name, w->cpu,
					 c ? c->pmu->name : "(none)", w->pmu);
		}
		/* out of range is no cluster, not a crash */
		assert_null(selfmon_topology__of_cpu(&l.t, -1));
		assert_null(selfmon_topology__of_cpu(&l.t, CPU_SETSIZE));
		assert_null(selfmon_topology__of_cpu(&l.t, INT_MAX));
		unload(&l);
	}
}

static void find_looks_a_cluster_up_by_its_core_pmus_exact_name(void **state)
{
	const struct board *b;
	struct loaded l;

	(void)state;
	FOR_EACH_BOARD(b, l) {
		for (int i = 0; i < l.t.nr; i++)
			assert_ptr_equal(selfmon_topology__find(&l.t, b->cl[i].pmu), &l.t.cl[i]);
		assert_null(selfmon_topology__find(&l.t, "software"));	/* not a core PMU */
		assert_null(selfmon_topology__find(&l.t, "no_such_pmu"));
		assert_null(selfmon_topology__find(&l.t, ""));
		if (b->nr) {	/* a prefix is not the name */
			char prefix[64];

			snprintf(prefix, sizeof(prefix), "%.*s", (int)strlen(b->cl[0].pmu) - 1, b->cl[0].pmu);
			assert_null(selfmon_topology__find(&l.t, prefix));
		}
		unload(&l);
	}
}

/*
 * Sixteen PMUs whose types run against their names' order, and so against
 * any order the directory could list them in: loaded, they are in type order.
 */
static void pmus_load_in_type_order_whatever_order_the_directory_lists_them(void **state)
{
	char *root = fakeroot__new();
	struct selfmon_pmus pmus;
	char name[16];

	(void)state;
	for (int i = 0; i < 16; i++) {
		snprintf(name, sizeof(name), "pmu%02d", i);
		fakeroot__pmu_file(root, name, "type", "%d", 100 + (i * 7) % 16);
	}
	assert_int_equal(selfmon_pmus__load(&pmus, root), 0);
	assert_int_equal(pmus.nr, 16);
	for (int i = 0; i < pmus.nr; i++)
		assert_int_equal(pmus.pmu[i].type, 100 + i);
	selfmon_pmus__free(&pmus);
	fakeroot__free(root);
}

static void describe_lists_each_cluster_with_its_cpus_in_type_order(void **state)
{
	const struct board *b;
	struct loaded l;

	(void)state;
	FOR_EACH_BOARD(b, l) {
		char buf[512];

		memset(buf, 'x', sizeof(buf));
		selfmon_topology__describe(&l.t, buf, sizeof(buf));
		if (strcmp(buf, b->describe))
			fail_msg("%s: describe says '%s', want '%s'", b->name, buf, b->describe);
		unload(&l);
	}
}

static void describe_into_a_short_buffer_is_cut_and_terminated(void **state)
{
	const struct board *b;
	struct loaded l;

	(void)state;
	FOR_EACH_BOARD(b, l) {
		char buf[12 + 8];

		memset(buf, 'x', sizeof(buf));
		buf[12 + 7] = '#';
		selfmon_topology__describe(&l.t, buf, 12);
		assert_true(strlen(buf) < 12);
		assert_memory_equal(buf, b->describe, strlen(buf));
		assert_int_equal(buf[12 + 7], '#');	/* nothing written past the size */
		unload(&l);
	}
}

/* ---- synthetic roots: the rules no board shows ---- */

static void capacity(const char *root, int cpu, int cap)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu%d/cpu_capacity", cpu);
	fakeroot__write(root, rel, "%d\n", cap);
}

static void load_root(const char *root, struct selfmon_pmus *pmus, struct selfmon_topology *t)
{
	assert_int_equal(selfmon_pmus__load(pmus, root), 0);
	assert_int_equal(selfmon_topology__load(t, pmus), 0);
}

static void two_clusters_alike_in_capacity_and_name_have_no_big_and_no_little(void **state)
{
	char *root = fakeroot__new();
	struct selfmon_pmus pmus;
	struct selfmon_topology t;

	(void)state;
	/* ACPI probing names PMUs armv8_pmuv3_0, _1: the names say nothing */
	fakeroot__armv8(root, "armv8_pmuv3_0", 8, "0-3");
	fakeroot__armv8(root, "armv8_pmuv3_1", 9, "4-7");
	for (int c = 0; c < 8; c++)
		capacity(root, c, 1024);
	load_root(root, &pmus, &t);
	assert_int_equal(t.nr, 2);
	assert_int_equal(t.cl[0].rank, t.cl[1].rank);
	assert_null(t.ranked_by);
	errno = 0;
	assert_null(selfmon_topology__big(&t));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(selfmon_topology__little(&t));
	assert_int_equal(errno, EINVAL);
	selfmon_pmus__free(&pmus);
	fakeroot__free(root);
}

static void cpu_capacity_outranks_what_the_pmu_name_says(void **state)
{
	char *root = fakeroot__new();
	struct selfmon_pmus pmus;
	struct selfmon_topology t;

	(void)state;
	/* a 'little' name on the CPUs of larger capacity: capacity wins */
	fakeroot__armv8(root, "armv8_cortex_a53", 8, "0-1");
	fakeroot__armv8(root, "armv8_cortex_a72", 9, "2-3");
	capacity(root, 0, 1024);
	capacity(root, 1, 1024);
	capacity(root, 2, 600);
	capacity(root, 3, 600);
	load_root(root, &pmus, &t);
	assert_int_equal(t.nr, 2);
	assert_string_equal(selfmon_topology__big(&t)->pmu->name, "armv8_cortex_a53");
	assert_string_equal(selfmon_topology__little(&t)->pmu->name, "armv8_cortex_a72");
	assert_string_equal(t.ranked_by, "cpu_capacity");
	selfmon_pmus__free(&pmus);
	fakeroot__free(root);
}

static void a_clusters_capacity_is_the_largest_of_its_cpus(void **state)
{
	char *root = fakeroot__new();
	struct selfmon_pmus pmus;
	struct selfmon_topology t;

	(void)state;
	fakeroot__armv8(root, "armv8_cortex_a55", 8, "0-2");
	capacity(root, 0, 300);
	capacity(root, 1, 450);	/* a faster-clocked core of the same type */
	capacity(root, 2, 300);
	load_root(root, &pmus, &t);
	assert_int_equal(t.nr, 1);
	assert_true(t.cl[0].capacity == 450);
	selfmon_pmus__free(&pmus);
	fakeroot__free(root);
}

static void the_name_ranks_three_core_types_when_capacities_tie(void **state)
{
	char *root = fakeroot__new();
	struct selfmon_pmus pmus;
	struct selfmon_topology t;

	(void)state;
	/* the types do not follow the ranks on purpose */
	fakeroot__armv8(root, "armv8_cortex_x1", 8, "7");
	fakeroot__armv8(root, "armv8_cortex_a55", 9, "0-3");
	fakeroot__armv8(root, "armv8_cortex_a78", 10, "4-6");
	load_root(root, &pmus, &t);
	assert_int_equal(t.nr, 3);
	assert_string_equal(t.cl[0].pmu->name, "armv8_cortex_x1");
	assert_int_equal(t.cl[0].rank, 2);
	assert_int_equal(t.cl[1].rank, 0);
	assert_int_equal(t.cl[2].rank, 1);
	assert_string_equal(selfmon_topology__big(&t)->pmu->name, "armv8_cortex_x1");
	assert_string_equal(selfmon_topology__little(&t)->pmu->name, "armv8_cortex_a55");
	assert_string_equal(t.ranked_by, "PMU name");
	selfmon_pmus__free(&pmus);
	fakeroot__free(root);
}

static void a_core_pmu_without_cpus_on_a_machine_without_online_or_possible_is_left_out_with_a_note(void **state)
{
	char *root = fakeroot__new();
	struct selfmon_pmus pmus;
	struct selfmon_topology t;

	(void)state;
	fakeroot__x86_cpu(root, 1);
	fakeroot__remove_path(root, FAKEROOT_DEVICES "/cpu/cpus");
	assert_int_equal(selfmon_pmus__load(&pmus, root), 0);
	assert_int_equal(selfmon_topology__load(&t, &pmus), 0);
	assert_int_equal(t.nr, 0);
	assert_non_null(strstr(selfmon_topology__notes(&t), "'cpu'"));
	selfmon_pmus__free(&pmus);

	/* 'possible' stands in for a missing 'online' */
	fakeroot__write(root, "/sys/devices/system/cpu/possible", "0-7\n");
	load_root(root, &pmus, &t);
	assert_int_equal(t.nr, 1);
	cpus_equal("fake", "cpu", &t.cl[0].cpus, "0-7");
	assert_string_equal(selfmon_topology__notes(&t), "");
	selfmon_pmus__free(&pmus);

	/* with the online list it covers every online CPU */
	fakeroot__write(root, "/sys/devices/system/cpu/online", "0-5\n");
	load_root(root, &pmus, &t);
	assert_int_equal(t.nr, 1);
	cpus_equal("fake", "cpu", &t.cl[0].cpus, "0-5");
	selfmon_pmus__free(&pmus);
	fakeroot__free(root);
}

static void no_more_clusters_than_selfmon_max_clusters_are_kept(void **state)
{
	char *root = fakeroot__new();
	struct selfmon_pmus pmus;
	struct selfmon_topology t;
	char name[32], cpu[8];

	(void)state;
	for (int i = 0; i < SELFMON_MAX_CLUSTERS + 2; i++) {
		snprintf(name, sizeof(name), "armv8_pmuv3_%d", i);
		snprintf(cpu, sizeof(cpu), "%d", i);
		fakeroot__armv8(root, name, 8 + i, cpu);
	}
	load_root(root, &pmus, &t);
	assert_int_equal(t.nr, SELFMON_MAX_CLUSTERS);
	selfmon_pmus__free(&pmus);
	fakeroot__free(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_core_pmu_is_one_cluster_with_the_cpus_it_names),
		cmocka_unit_test(a_clusters_capacity_is_its_cpus_cpu_capacity_or_0_where_there_is_none),
		cmocka_unit_test(clusters_rank_from_the_littlest_0_to_the_biggest),
		cmocka_unit_test(big_is_the_highest_rank_and_little_the_lowest),
		cmocka_unit_test(big_and_little_are_told_by_cpu_capacity_else_by_the_pmu_name),
		cmocka_unit_test(a_homogeneous_board_has_one_cluster_that_is_both_big_and_little),
		cmocka_unit_test(a_board_without_a_core_pmu_has_no_cluster),
		cmocka_unit_test(of_cpu_gives_the_cluster_holding_the_cpu_and_null_outside_every_cluster),
		cmocka_unit_test(find_looks_a_cluster_up_by_its_core_pmus_exact_name),
		cmocka_unit_test(pmus_load_in_type_order_whatever_order_the_directory_lists_them),
		cmocka_unit_test(describe_lists_each_cluster_with_its_cpus_in_type_order),
		cmocka_unit_test(describe_into_a_short_buffer_is_cut_and_terminated),
		cmocka_unit_test(two_clusters_alike_in_capacity_and_name_have_no_big_and_no_little),
		cmocka_unit_test(cpu_capacity_outranks_what_the_pmu_name_says),
		cmocka_unit_test(a_clusters_capacity_is_the_largest_of_its_cpus),
		cmocka_unit_test(the_name_ranks_three_core_types_when_capacities_tie),
		cmocka_unit_test(a_core_pmu_without_cpus_on_a_machine_without_online_or_possible_is_left_out_with_a_note),
		cmocka_unit_test(no_more_clusters_than_selfmon_max_clusters_are_kept),
	};

	return cmocka_run_group_tests_name("topology", tests, find_fixtures, NULL);
}
