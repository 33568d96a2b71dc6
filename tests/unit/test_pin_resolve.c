// SPDX-License-Identifier: MIT
/*
 * Pinning policies: selfmon_pin__parse() for every form of policy, and
 * selfmon_pin__resolve() on each fixture board (pin_world.h): the cluster
 * and CPUs each policy gives, and the errors that name what is wrong.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pin_world.h"

/* ---- selfmon_pin__parse ---- */

static void the_four_words_parse_to_their_kinds(void **state)
{
	static const struct { const char *word; enum selfmon_pin_kind kind; } words[] = {
		{ "none", SELFMON_PIN_NONE }, { "current", SELFMON_PIN_CURRENT },
		{ "big", SELFMON_PIN_BIG }, { "little", SELFMON_PIN_LITTLE },
	};
	struct selfmon_pin pin;

	(void)state;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		memset(&pin, 0xa5, sizeof(pin));
		assert_int_equal(selfmon_pin__parse(words[i].word, &pin), 0);
		assert_int_equal(pin.kind, words[i].kind);
		assert_string_equal(pin.pmu, "");
		assert_int_equal(CPU_COUNT(&pin.cpus), 0);
	}
	/* the words are exact: anything else is a PMU's name */
	assert_int_equal(selfmon_pin__parse("Big", &pin), 0);
	assert_int_equal(pin.kind, SELFMON_PIN_PMU);
	assert_int_equal(selfmon_pin__parse("bigger", &pin), 0);
	assert_int_equal(pin.kind, SELFMON_PIN_PMU);
}

static void a_cpu_list_parses_with_or_without_the_cpus_prefix(void **state)
{
	static const struct { const char *policy, *cpus; } lists[] = {
		{ "2-3", "2-3" }, { "cpus:4,5", "4-5" }, { "0", "0" }, { "cpus:7", "7" },
		{ "0-1,6", "0-1,6" }, { "cpus:16-23", "16-23" },
	};
	struct selfmon_pin pin;

	(void)state;
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		cpu_set_t want = cpuset(lists[i].cpus);

		if (selfmon_pin__parse(lists[i].policy, &pin))
			fail_msg("'%s': %s", lists[i].policy, selfmon_errmsg());
		assert_int_equal(pin.kind, SELFMON_PIN_CPUS);
		cpus_equal(lists[i].policy, &pin.cpus, &want);
	}
}

static void any_other_word_is_a_core_pmus_name(void **state)
{
	char longest[64];
	struct selfmon_pin pin;

	(void)state;
	assert_int_equal(selfmon_pin__parse("armv8_cortex_a53", &pin), 0);
	assert_int_equal(pin.kind, SELFMON_PIN_PMU);
	assert_string_equal(pin.pmu, "armv8_cortex_a53");
	assert_int_equal(selfmon_pin__parse("cpu_atom", &pin), 0);
	assert_int_equal(pin.kind, SELFMON_PIN_PMU);
	assert_string_equal(pin.pmu, "cpu_atom");

	memset(longest, 'p', sizeof(longest) - 1);	/* 63 characters: fits with its NUL */
	longest[sizeof(longest) - 1] = '\0';
	assert_int_equal(selfmon_pin__parse(longest, &pin), 0);
	assert_int_equal(pin.kind, SELFMON_PIN_PMU);
	assert_string_equal(pin.pmu, longest);
}

static void a_malformed_policy_is_einval_with_a_message_naming_it(void **state)
{
	char toolong[65];
	const char *bad[] = { "", "a/b", "armv8_cortex_a53/", toolong, "2-x", "3-1", "1,,2", "99999" };
	struct selfmon_pin pin;

	(void)state;
	memset(toolong, 'p', sizeof(toolong) - 1);	/* 64 characters: one too many */
	toolong[sizeof(toolong) - 1] = '\0';
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char quoted[80];

		selfmon__err_clear();
		if (selfmon_pin__parse(bad[i], &pin) != -EINVAL)
			fail_msg("'%s' parses, want -EINVAL", bad[i]);
		snprintf(quoted, sizeof(quoted), "'%s'", bad[i]);
		if (!strstr(selfmon_errmsg(), quoted))
			fail_msg("'%s': message '%s' does not name it", bad[i], selfmon_errmsg());
	}
	/* a name that is no list says what a policy may be */
	assert_int_equal(selfmon_pin__parse("a/b", &pin), -EINVAL);
	assert_non_null(strstr(selfmon_errmsg(), "none, current, big, little"));
	/* a list that is no list says so */
	assert_int_equal(selfmon_pin__parse("2-x", &pin), -EINVAL);
	assert_non_null(strstr(selfmon_errmsg(), "not a CPU list"));
}

static void the_cpus_prefix_with_no_list_after_it_is_einval(void **state)
{
	const char *bad[] = { "cpus:", "cpus:abc", "cpus:-1" };
	struct selfmon_pin pin;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (selfmon_pin__parse(bad[i], &pin) != -EINVAL)
			fail_msg("'%s' parses as kind %d, want -EINVAL", bad[i], pin.kind);
}

/* ---- selfmon_pin__resolve, per board ---- */

struct resolve_case {
	const char *board, *policy;
	int cpu;		/* where the thread runs */
	const char *pmu;	/* the cluster; NULL: none (policy none) */
	const char *cpus;	/* the CPUs to pin to */
};

static const struct resolve_case resolves[] = {
	{ "rk3399", "big", 0, "armv8_cortex_a72", "4-5" },
	{ "rk3399", "little", 4, "armv8_cortex_a53", "0-3" },
	{ "rk3399", "armv8_cortex_a53", 5, "armv8_cortex_a53", "0-3" },
	{ "rk3399", "armv8_cortex_a72", 0, "armv8_cortex_a72", "4-5" },
	{ "rk3399", "2-3", 5, "armv8_cortex_a53", "2-3" },
	{ "rk3399", "cpus:4,5", 0, "armv8_cortex_a72", "4-5" },
	{ "rk3399", "5", 0, "armv8_cortex_a72", "5" },
	{ "rk3399", "current", 1, "armv8_cortex_a53", "0-3" },
	{ "rk3399", "current", 5, "armv8_cortex_a72", "4-5" },
	{ "rk3399", "none", 5, NULL, NULL },
	{ "qemu-biglittle", "big", 0, "armv8_cortex_a72", "2-3" },
	{ "qemu-biglittle", "little", 3, "armv8_cortex_a53", "0-1" },
	{ "qemu-biglittle", "current", 2, "armv8_cortex_a72", "2-3" },
	{ "snapdragon-8gen1", "big", 0, "armv9_cortex_x2", "7" },
	{ "snapdragon-8gen1", "little", 7, "armv9_cortex_a510", "0-3" },
	{ "snapdragon-8gen1", "armv9_cortex_a710", 0, "armv9_cortex_a710", "4-6" },
	{ "snapdragon-8gen1", "current", 6, "armv9_cortex_a710", "4-6" },
	{ "snapdragon-8gen1", "cpus:4,6", 0, "armv9_cortex_a710", "4,6" },
	{ "snapdragon-8gen1-upstream-dt", "big", 3, "armv8_pmuv3", "0-7" },
	{ "snapdragon-8gen1-upstream-dt", "little", 3, "armv8_pmuv3", "0-7" },
	{ "snapdragon-8gen1-upstream-dt", "0-7", 3, "armv8_pmuv3", "0-7" },
	{ "m1", "big", 0, "apple_firestorm_pmu", "4-7" },
	{ "m1", "little", 7, "apple_icestorm_pmu", "0-3" },
	{ "m1", "current", 3, "apple_icestorm_pmu", "0-3" },
	{ "alderlake", "big", 20, "cpu_core", "0-15" },
	{ "alderlake", "little", 0, "cpu_atom", "16-23" },
	{ "alderlake", "cpus:16-23", 0, "cpu_atom", "16-23" },
	{ "alderlake", "current", 17, "cpu_atom", "16-23" },
	{ "rpi4", "big", 2, "armv8_cortex_a72", "0-3" },
	{ "rpi4", "current", 2, "armv8_cortex_a72", "0-3" },
	{ "qemu-virt", "little", 0, "armv8_pmuv3", "0" },
	{ "skylake", "big", 0, "cpu", "0-7" },
	{ "skylake", "current", 6, "cpu", "0-7" },
	{ "skylake", "cpu", 6, "cpu", "0-7" },
	{ "x86-nopmu", "none", 0, NULL, NULL },
};

static void each_policy_resolves_to_its_cluster_and_cpus_on_every_board(void **state)
{
	struct world *w = *state;
	int seen = 0;

	for (size_t i = 0; i < sizeof(resolves) / sizeof(resolves[0]); i++) {
		const struct resolve_case *r = &resolves[i];
		const struct selfmon_cluster *cl = (const void *)1;
		struct selfmon_pin pin;
		cpu_set_t cpus, want;
		int err;

		if (fakeroot__board(fixtures, r->board, w->root, sizeof(w->root)))
			continue;
		seen++;
		load_topology(w, r->board);
		assert_int_equal(selfmon_pin__parse(r->policy, &pin), 0);
		CPU_ZERO(&cpus);
		err = selfmon_pin__resolve(&pin, &w->topo, r->cpu, &cl, &cpus);
		if (err)
			fail_msg("%s '%s' on CPU %d: %d (%s)", r->board, r->policy, r->cpu, err, selfmon_errmsg());
		if (!r->pmu) {
			assert_null(cl);
			continue;
		}
		if (!cl || strcmp(cl->pmu->name, r->pmu))
			fail_msg("%s '%s' on CPU %d: cluster %s, want %s", r->board, r->policy, r->cpu,
				 cl ? cl->pmu->name : "(none)", r->pmu);
		want = cpuset(r->cpus);
		cpus_equal(r->policy, &cpus, &want);
	}
	if (!seen)
		skip();
}

/* Resolve @policy on @board from @cpu: the error, with cl checked to stay NULL. */
static int resolve_err(struct world *w, const char *board_name, const char *policy, int cpu)
{
	const struct selfmon_cluster *cl = (const void *)1;
	struct selfmon_pin pin;
	cpu_set_t cpus;
	int err;

	load_topology(w, board_name);
	assert_int_equal(selfmon_pin__parse(policy, &pin), 0);
	selfmon__err_clear();
	err = selfmon_pin__resolve(&pin, &w->topo, cpu, &cl, &cpus);
	if (!err)
		fail_msg("%s '%s' resolves to %s, want an error", board_name, policy,
			 cl ? cl->pmu->name : "(none)");
	assert_null(cl);
	return err;
}

static void an_unknown_cluster_is_enoent_and_the_message_lists_the_clusters(void **state)
{
	struct world *w = *state;

	assert_int_equal(resolve_err(w, "rk3399", "armv8_cortex_a57", 0), -ENOENT);
	has("'armv8_cortex_a57'");
	has("armv8_cortex_a72 (4-5), armv8_cortex_a53 (0-3)");
	/* a PMU that is there but counts no CPU's instructions is no cluster either */
	assert_int_equal(resolve_err(w, "rk3399", "software", 0), -ENOENT);
	has("'software'");
	assert_int_equal(resolve_err(w, "alderlake", "cpu", 0), -ENOENT);	/* hybrid has no plain 'cpu' */
	has("cpu_core (0-15), cpu_atom (16-23)");
}

static void a_cpu_list_spanning_two_clusters_is_einval_naming_both(void **state)
{
	struct world *w = *state;

	assert_int_equal(resolve_err(w, "rk3399", "3-4", 0), -EINVAL);
	has("armv8_cortex_a53");
	has("armv8_cortex_a72");
	assert_int_equal(resolve_err(w, "snapdragon-8gen1", "cpus:6,7", 0), -EINVAL);
	has("armv9_cortex_a710 and armv9_cortex_x2");
	assert_int_equal(resolve_err(w, "alderlake", "15-16", 0), -EINVAL);
	has("cpu_core and cpu_atom");
}

static void a_cpu_list_with_a_cpu_in_no_cluster_is_enoent(void **state)
{
	struct world *w = *state;

	assert_int_equal(resolve_err(w, "rk3399", "4-6", 0), -ENOENT);
	has("CPU 6");
	assert_int_equal(resolve_err(w, "qemu-virt", "1", 0), -ENOENT);
	has("CPU 1");
}

static void current_on_a_cpu_without_a_pmu_is_enoent(void **state)
{
	struct world *w = *state;

	assert_int_equal(resolve_err(w, "rk3399", "current", 6), -ENOENT);
	has("CPU 6");
	has("armv8_cortex_a72 (4-5), armv8_cortex_a53 (0-3)");
	/* sched_getcpu() failed: no CPU at all */
	assert_int_equal(resolve_err(w, "rk3399", "current", -1), -ENOENT);
}

static void any_pinning_on_a_machine_without_a_cpu_pmu_is_enoent(void **state)
{
	struct world *w = *state;
	const char *policies[] = { "current", "big", "little", "cpu", "0", "cpus:0-1" };

	for (size_t i = 0; i < sizeof(policies) / sizeof(policies[0]); i++) {
		if (resolve_err(w, "x86-nopmu", policies[i], 0) != -ENOENT)
			fail_msg("x86-nopmu '%s': want -ENOENT", policies[i]);
		has("no CPU PMU");
	}
}

static void big_or_little_among_clusters_that_cannot_be_told_apart_is_einval(void **state)
{
	struct world *w = *state;
	const struct selfmon_cluster *cl = NULL;
	struct selfmon_pin pin;
	cpu_set_t cpus;

	w->fake = fakeroot__new();
	fakeroot__armv8(w->fake, "armv8_pmuv3_0", 8, "0-3");
	fakeroot__armv8(w->fake, "armv8_pmuv3_1", 9, "4-7");
	assert_int_equal(selfmon_pmus__load(&w->pmus, w->fake), 0);
	w->loaded = true;
	assert_int_equal(selfmon_topology__load(&w->topo, &w->pmus), 0);
	assert_int_equal(selfmon_pin__parse("big", &pin), 0);
	assert_int_equal(selfmon_pin__resolve(&pin, &w->topo, 0, &cl, &cpus), -EINVAL);
	assert_null(cl);
	has("cannot tell the big cluster");
	has("armv8_pmuv3_0 (0-3), armv8_pmuv3_1 (4-7)");
	assert_int_equal(selfmon_pin__parse("little", &pin), 0);
	assert_int_equal(selfmon_pin__resolve(&pin, &w->topo, 0, &cl, &cpus), -EINVAL);
	has("little");
	/* the other policies still work there */
	assert_int_equal(selfmon_pin__parse("current", &pin), 0);
	assert_int_equal(selfmon_pin__resolve(&pin, &w->topo, 5, &cl, &cpus), 0);
	assert_string_equal(cl->pmu->name, "armv8_pmuv3_1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(the_four_words_parse_to_their_kinds),
		T(a_cpu_list_parses_with_or_without_the_cpus_prefix),
		T(any_other_word_is_a_core_pmus_name),
		T(a_malformed_policy_is_einval_with_a_message_naming_it),
		T(the_cpus_prefix_with_no_list_after_it_is_einval),
		T(each_policy_resolves_to_its_cluster_and_cpus_on_every_board),
		T(an_unknown_cluster_is_enoent_and_the_message_lists_the_clusters),
		T(a_cpu_list_spanning_two_clusters_is_einval_naming_both),
		T(a_cpu_list_with_a_cpu_in_no_cluster_is_enoent),
		T(current_on_a_cpu_without_a_pmu_is_enoent),
		T(any_pinning_on_a_machine_without_a_cpu_pmu_is_enoent),
		T(big_or_little_among_clusters_that_cannot_be_told_apart_is_einval),
	};

	return cmocka_run_group_tests_name("pin-resolve", tests, find_fixtures, NULL);
}
