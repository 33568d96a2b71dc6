// SPDX-License-Identifier: MIT
/*
 * A library built without CONFIG_PINNING (core/pin_none.c, linked here in
 * place of pin.c on any build): "none" is its only policy. Any other, from
 * selfmon_opts.pin or SELFMON_PIN, is refused with -EOPNOTSUPP before any
 * open, by a message that names the policy, the option and the way out;
 * the thread's affinity is never asked for or changed; a heterogeneous
 * board counts on every core PMU, and a homogeneous one still reads from
 * user space. The host build's default policy is compiled into set.c, so
 * the tests that open name "none" (a build without pinning has it as its
 * default: Kconfig, PIN_POLICY). Fixture boards and mocks: pin_world.h.
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

#include "pin_world.h"

static const char *const policies[] = { "current", "big", "little", "2-3", "cpus:0",
					"armv8_cortex_a72" };

static void every_policy_but_none_is_refused_before_any_open(void **state)
{
	struct world *w = *state;
	char quoted[64];

	use_board(w, board("rk3399"));
	for (size_t i = 0; i < sizeof(policies) / sizeof(policies[0]); i++) {
		w->opts.pin = policies[i];
		w->set = selfmon_set__open("instructions", &w->opts);
		assert_null(w->set);
		assert_int_equal(errno, EOPNOTSUPP);
		snprintf(quoted, sizeof(quoted), "'%s'", policies[i]);
		has(quoted);
		has("CONFIG_PINNING");
		has("SELFMON_PIN");
	}
	assert_int_equal(lp.opens, 0);
	assert_int_equal(sched.getaffinities, 0);
	assert_int_equal(sched.sets, 0);
}

static void selfmon_pin_from_the_environment_is_refused_the_same_way(void **state)
{
	struct world *w = *state;

	use_board(w, board("rk3399"));
	setenv("SELFMON_PIN", "big", 1);
	w->set = selfmon_set__open("instructions", &w->opts);
	assert_null(w->set);
	assert_int_equal(errno, EOPNOTSUPP);
	has("'big'");
	assert_int_equal(lp.opens, 0);
}

static void a_big_little_board_counts_on_every_core_pmu_and_keeps_its_affinity(void **state)
{
	struct world *w = *state;
	const struct board *b = board("rk3399");
	enum selfmon_reason why = SELFMON_REASON_NONE;

	use_board(w, b);
	w->opts.pin = "none";
	open_ok(w, "instructions");
	assert_null(selfmon_set__pmu(w->set));
	assert_int_equal(lp.opens, b->nr);
	assert_int_equal(selfmon_set__path(w->set, 0, &why), SELFMON_PATH_SYSCALL);
	assert_int_equal(why, SELFMON_REASON_HETEROGENEOUS);
	close_set(w);
	assert_int_equal(sched.getaffinities, 0);
	assert_int_equal(sched.sets, 0);
}

static void a_homogeneous_board_still_reads_from_user_space(void **state)
{
	struct world *w = *state;
	enum selfmon_reason why = SELFMON_REASON_HETEROGENEOUS;

	use_board(w, board("qemu-virt-useraccess"));
	w->opts.pin = "none";
	open_ok(w, "instructions");
	assert_int_equal(selfmon_set__path(w->set, 0, &why), SELFMON_PATH_USER);
	assert_int_equal(why, SELFMON_REASON_NONE);
	assert_int_equal(sched.sets, 0);
}

#define T(f) cmocka_unit_test_setup_teardown(f, world_setup, world_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(every_policy_but_none_is_refused_before_any_open),
		T(selfmon_pin_from_the_environment_is_refused_the_same_way),
		T(a_big_little_board_counts_on_every_core_pmu_and_keeps_its_affinity),
		T(a_homogeneous_board_still_reads_from_user_space),
	};

	return cmocka_run_group_tests_name("pin-none", tests, find_fixtures, NULL);
}
