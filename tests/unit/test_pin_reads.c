// SPDX-License-Identifier: MIT
/*
 * Reads of pinned and unpinned sets (pin_world.h): an unpinned thread's
 * counts summed over every core PMU of a heterogeneous board, and the
 * fallback reason of a thread found outside its cluster.
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

/* ---- unpinned on a heterogeneous board: one event per core PMU, summed ---- */

static void unpinned_on_big_little_each_event_opens_on_every_core_pmu(void **state)
{
	struct world *w = *state;
	const struct board *b;

	FOR_EACH_BOARD(w, b) {
		enum selfmon_reason why = SELFMON_REASON_NONE;
		char what[64];

		reset_mock();
		use_board(w, b);
		w->opts.pin = "none";
		snprintf(what, sizeof(what), "%s unpinned", b->name);
		open_ok(w, "instructions,cycles");
		assert_null(selfmon_set__pmu(w->set));
		assert_int_equal(sched.getaffinities, 0);
		assert_int_equal(sched.sets, 0);
		if (b->nr == 1) {
			/* homogeneous: one event, the page as usual */
			int path;

			assert_int_equal(lp.opens, 2);
			path = selfmon_set__path(w->set, 0, &why);
			assert_int_equal(path, why == SELFMON_REASON_NONE ? SELFMON_PATH_USER : SELFMON_PATH_SYSCALL);
			assert_int_equal(why, b->gate);
			close_set(w);
			continue;
		}
		if (lp.opens != 2 * b->nr)
			fail_msg("%s: %d opens, want %d", what, lp.opens, 2 * b->nr);
		for (int e = 0; e < 2; e++) {
			for (int k = 0; k < b->nr; k++) {
				const struct perf_event_attr *a = &lp.attr[e * b->nr + k];
				bool inst = e == 0;

				if (b->kind == ARM) {
					assert_int_equal(a->type, b->cl[k].type);
					assert_true(a->config == (inst ? b->cl[k].inst : b->cl[k].cycles));
				} else {
					assert_int_equal(a->type, PERF_TYPE_HARDWARE);
					assert_true(a->config == ((inst ? PERF_COUNT_HW_INSTRUCTIONS :
								   PERF_COUNT_HW_CPU_CYCLES) |
								  (uint64_t)b->cl[k].type << 32));
				}
				assert_true(a->config1 == 0);	/* no user read asked */
			}
			assert_int_equal(selfmon_set__path(w->set, e, &why), SELFMON_PATH_SYSCALL);
			assert_int_equal(why, SELFMON_REASON_HETEROGENEOUS);
			assert_null(selfmon_set__page(w->set, e));
		}
		assert_int_equal(lp.mmaps, 0);
		assert_int_equal(selfmon_set__enable(w->set), 0);
		assert_int_equal(lp.enables, 2 * b->nr);
		assert_int_equal(selfmon_set__disable(w->set), 0);
		assert_int_equal(lp.disables, 2 * b->nr);
		close_set(w);
	}
}

static void a_summed_read_adds_values_and_running_and_takes_the_longest_enabled(void **state)
{
	struct world *w = *state;
	struct selfmon_count c;

	use_board(w, board("snapdragon-8gen1"));
	w->opts.pin = "none";
	open_ok(w, "cycles");
	assert_int_equal(lp.opens, 3);
	lp.counts[0] = (struct perf_counts_values){ .val = 100, .ena = 50, .run = 10 };
	lp.counts[1] = (struct perf_counts_values){ .val = 20, .ena = 40, .run = 15 };
	lp.counts[2] = (struct perf_counts_values){ .val = 3, .ena = 45, .run = 5 };
	/* The open read each copy's id once (its fd is made close-on-exec): count the read's own. */
	lp.reads = 0;
	assert_int_equal(selfmon_set__read(w->set, 0, &c), 0);
	assert_int_equal(lp.reads, 3);
	assert_true(c.value == 123);
	assert_true(c.enabled == 50);
	assert_true(c.running == 30);
	assert_int_equal(c.reason, SELFMON_REASON_HETEROGENEOUS);
	assert_int_equal(c.flags & SELFMON_COUNT_USER, 0);
	assert_int_equal(selfmon_set__fallbacks(w->set, 0), 0);	/* by design, not a fallback */

	/* the running times overlap across PMUs: the sum is capped at enabled */
	lp.counts[0] = (struct perf_counts_values){ .val = 100, .ena = 50, .run = 30 };
	lp.counts[1] = (struct perf_counts_values){ .val = 20, .ena = 40, .run = 25 };
	lp.counts[2] = (struct perf_counts_values){ .val = 0, .ena = 10, .run = 0 };
	assert_int_equal(selfmon_set__read_syscall(w->set, 0, &c), 0);
	assert_true(c.value == 120);
	assert_true(c.enabled == 50);
	assert_true(c.running == 50);
}

static void a_summed_counter_resets_to_its_summed_baseline(void **state)
{
	struct world *w = *state;
	struct selfmon_count c;

	use_board(w, board("rk3399"));
	w->opts.pin = "none";
	open_ok(w, "instructions");
	lp.counts[0] = (struct perf_counts_values){ .val = 100, .ena = 50, .run = 20 };
	lp.counts[1] = (struct perf_counts_values){ .val = 10, .ena = 50, .run = 30 };
	assert_int_equal(selfmon_set__reset(w->set), 0);
	lp.counts[0] = (struct perf_counts_values){ .val = 150, .ena = 80, .run = 40 };
	lp.counts[1] = (struct perf_counts_values){ .val = 15, .ena = 80, .run = 40 };
	assert_int_equal(selfmon_set__read(w->set, 0, &c), 0);
	assert_true(c.value == 55);
	assert_true(c.enabled == 30);
	assert_true(c.running == 30);
}

static void unpinned_a_pmu_event_opens_on_its_own_pmu_alone(void **state)
{
	struct world *w = *state;

	use_board(w, board("rk3399"));
	w->opts.pin = "none";
	open_ok(w, "armv8_cortex_a53/inst_retired/");
	assert_int_equal(lp.opens, 1);
	assert_int_equal(lp.attr[0].type, 9);
	assert_true(lp.attr[0].config == 0x08);
}

/* ---- a thread found outside its cluster ---- */

/* Two PMUv3 clusters, user access on: the page is what decides reads. */
static void biglittle_with_user_access(struct world *w)
{
	w->fake = fakeroot__new();
	fakeroot__armv8(w->fake, "armv8_cortex_a53", 8, "0-1");
	fakeroot__armv8(w->fake, "armv8_cortex_a72", 9, "2-3");
	fakeroot__write(w->fake, "/proc/sys/kernel/perf_user_access", "1\n");
	fakeroot__write(w->fake, "/sys/devices/system/cpu/online", "0-3\n");
	for (int c = 0; c < 4; c++) {
		char rel[96];

		snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu%d/cpu_capacity", c);
		fakeroot__write(w->fake, rel, "%d\n", c < 2 ? 485 : 1024);
	}
	w->opts.root = w->fake;
	lp.arch = &selfmon_arch__arm64;
	sched.affinity = cpuset("0-3");
}

static void index_0_on_a_cpu_outside_the_cluster_is_reason_off_cluster(void **state)
{
	struct world *w = *state;
	enum selfmon_reason why;
	struct selfmon_count c;

	biglittle_with_user_access(w);
	w->opts.pin = "big";
	sched.cpu = 2;
	open_ok(w, "cycles");
	assert_ptr_equal(selfmon_set__page(w->set, 0), &sim_page);
	assert_int_equal(selfmon_set__enable(w->set), 0);

	sched.cpu = 0;	/* someone moved the thread to an a53 */
	lp.counts[0] = (struct perf_counts_values){ .val = 77, .ena = 9, .run = 9 };
	assert_int_equal(selfmon_set__read(w->set, 0, &c), 0);
	assert_int_equal(c.reason, SELFMON_REASON_OFF_CLUSTER);
	assert_true(c.value == 77);
	assert_int_equal(c.flags & SELFMON_COUNT_USER, 0);
	assert_int_equal(selfmon_set__fallbacks(w->set, 0), 1);
	assert_int_equal(selfmon_set__path(w->set, 0, &why), SELFMON_PATH_SYSCALL);
	assert_int_equal(why, SELFMON_REASON_OFF_CLUSTER);
	assert_non_null(selfmon_reason__fix(SELFMON_REASON_OFF_CLUSTER));
}

static void index_0_within_the_cluster_is_reason_index(void **state)
{
	struct world *w = *state;
	enum selfmon_reason why;
	struct selfmon_count c;

	biglittle_with_user_access(w);
	w->opts.pin = "big";
	sched.cpu = 2;
	open_ok(w, "cycles");
	assert_int_equal(selfmon_set__enable(w->set), 0);
	sched.cpu = 3;	/* the other a72: still the cluster */
	lp.counts[0] = (struct perf_counts_values){ .val = 5, .ena = 1, .run = 1 };
	assert_int_equal(selfmon_set__read(w->set, 0, &c), 0);
	assert_int_equal(c.reason, SELFMON_REASON_INDEX);
	assert_int_equal(selfmon_set__path(w->set, 0, &why), SELFMON_PATH_SYSCALL);
	assert_int_equal(why, SELFMON_REASON_INDEX);
}

static void off_cluster_is_judged_against_the_cluster_not_the_cpus_pinned_to(void **state)
{
	struct world *w = *state;
	struct selfmon_count c;

	/* pinned to CPU 3 alone, found on CPU 2: an a72 too, where the counter is live */
	biglittle_with_user_access(w);
	w->opts.pin = "3";
	sched.cpu = 3;
	open_ok(w, "cycles");
	sched.cpu = 0;
	assert_int_equal(selfmon_set__read(w->set, 0, &c), 0);
	assert_int_equal(c.reason, SELFMON_REASON_OFF_CLUSTER);
	sched.cpu = 2;
	assert_int_equal(selfmon_set__read(w->set, 0, &c), 0);
	assert_int_equal(c.reason, SELFMON_REASON_INDEX);
}

static void an_unpinned_thread_is_never_off_cluster(void **state)
{
	struct world *w = *state;
	struct selfmon_count c;

	/* one cluster, unpinned: no cluster to be off, whatever CPU */
	w->fake = fakeroot__new();
	fakeroot__armv8(w->fake, "armv8_pmuv3", 8, "0-1");
	fakeroot__write(w->fake, "/proc/sys/kernel/perf_user_access", "1\n");
	w->opts.root = w->fake;
	lp.arch = &selfmon_arch__arm64;
	sched.affinity = cpuset("0-1");
	w->opts.pin = "none";
	open_ok(w, "cycles");
	sched.cpu = 5;
	sched.getcpus = 0;
	assert_int_equal(selfmon_set__read(w->set, 0, &c), 0);
	assert_int_equal(c.reason, SELFMON_REASON_INDEX);
	assert_int_equal(sched.getcpus, 0);	/* not even asked */
}

#define T(f) cmocka_unit_test_setup_teardown(f, world_setup, world_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(unpinned_on_big_little_each_event_opens_on_every_core_pmu),
		T(a_summed_read_adds_values_and_running_and_takes_the_longest_enabled),
		T(a_summed_counter_resets_to_its_summed_baseline),
		T(unpinned_a_pmu_event_opens_on_its_own_pmu_alone),
		T(index_0_on_a_cpu_outside_the_cluster_is_reason_off_cluster),
		T(index_0_within_the_cluster_is_reason_index),
		T(off_cluster_is_judged_against_the_cluster_not_the_cpus_pinned_to),
		T(an_unpinned_thread_is_never_off_cluster),
	};

	return cmocka_run_group_tests_name("pin-reads", tests, find_fixtures, NULL);
}
