// SPDX-License-Identifier: MIT
/*
 * Pinning through selfmon_set__open() when it cannot be done (errors that
 * name the PMU, the cluster or the scheduler call), and which policy wins:
 * the option, then $SELFMON_PIN, then CONFIG_PIN_POLICY (pin_world.h).
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

/* ---- through selfmon_set__open: errors ---- */

static void expect_open_error(struct world *w, const char *events, int err)
{
	w->set = selfmon_set__open(events, &w->opts);
	if (w->set)
		fail_msg("'%s' pinned '%s' opened, want errno %d", events, w->opts.pin, err);
	if (errno != err)
		fail_msg("'%s' pinned '%s': errno %d (%s), want %d", events, w->opts.pin, errno,
			 selfmon_errmsg(), err);
}

static void a_generic_event_the_pinned_pmu_lacks_is_enoent_naming_the_pmu(void **state)
{
	struct world *w = *state;
	cpu_set_t all;

	use_board(w, board("rk3399"));
	all = sched.affinity;
	w->opts.pin = "armv8_cortex_a72";	/* its events/ has no pc_write_retired */
	expect_open_error(w, "cycles,branches", ENOENT);
	has("armv8_cortex_a72");
	has("branches");
	assert_int_equal(lp.opens, 0);	/* found before any open */
	/* the pin is undone */
	assert_int_equal(sched.sets, 2);
	cpus_equal("the affinity after a failed open", &sched.affinity, &all);

	reset_mock();
	use_board(w, board("snapdragon-8gen1"));
	w->opts.pin = "big";
	expect_open_error(w, "branches", ENOENT);
	has("armv9_cortex_x2");
	w->opts.pin = "little";			/* the a510 has it */
	open_ok(w, "branches");
	assert_true(lp.attr[0].config == 0x0c);
}

static void another_clusters_pmu_event_while_pinned_is_einval(void **state)
{
	struct world *w = *state;

	use_board(w, board("rk3399"));
	w->opts.pin = "big";
	expect_open_error(w, "armv8_cortex_a53/inst_retired/", EINVAL);
	has("armv8_cortex_a53");
	has("armv8_cortex_a72");
	assert_int_equal(lp.opens, 0);
	/* its own PMU's event is fine */
	open_ok(w, "armv8_cortex_a72/inst_retired/");
	assert_int_equal(lp.attr[0].type, 8);
	assert_true(lp.attr[0].config == 0x08);
}

static void another_hybrid_pmus_event_while_pinned_is_einval(void **state)
{
	struct world *w = *state;

	/* x86's cpu_core has type 4, PERF_TYPE_RAW's number: it is still its own PMU's event */
	use_board(w, board("alderlake"));
	w->opts.pin = "cpu_atom";
	expect_open_error(w, "cpu_core/slots/", EINVAL);
	has("cpu_core");
	has("cpu_atom");
}

static void an_affinity_outside_the_whole_cluster_is_einval(void **state)
{
	struct world *w = *state;

	use_board(w, board("rk3399"));
	sched.affinity = cpuset("0-3");
	w->opts.pin = "big";
	expect_open_error(w, "cycles", EINVAL);
	has("armv8_cortex_a72");
	has("4-5");
	has("0-3");
	assert_int_equal(sched.sets, 0);
	assert_int_equal(lp.opens, 0);
}

static void a_policy_that_does_not_resolve_fails_the_open(void **state)
{
	struct world *w = *state;

	use_board(w, board("rk3399"));
	w->opts.pin = "armv8_cortex_a57";
	expect_open_error(w, "cycles", ENOENT);
	has("armv8_cortex_a57");
	w->opts.pin = "3-4";
	expect_open_error(w, "cycles", EINVAL);
	w->opts.pin = "current";
	sched.cpu = 6;
	expect_open_error(w, "cycles", ENOENT);
	w->opts.pin = "a/b";
	expect_open_error(w, "cycles", EINVAL);
	assert_int_equal(lp.opens, 0);
	assert_int_equal(sched.sets, 0);
}

static void failing_scheduler_calls_fail_the_open_with_their_errno(void **state)
{
	struct world *w = *state;

	use_board(w, board("rk3399"));
	w->opts.pin = "big";
	sched.getaffinity_err = EPERM;
	expect_open_error(w, "cycles", EPERM);
	has("sched_getaffinity");
	sched.getaffinity_err = 0;
	sched.setaffinity_err = EINVAL;
	expect_open_error(w, "cycles", EINVAL);
	has("sched_setaffinity");
	has("armv8_cortex_a72");
	assert_int_equal(sched.sets, 1);		/* the failed one; nothing to give back */
	assert_int_equal(lp.opens, 0);
}

/* ---- which policy: the option, then $SELFMON_PIN, then CONFIG_PIN_POLICY ---- */

/* The cluster @policy means on rk3399 for a thread on CPU @cpu; NULL: none. */
static const char *rk3399_means(struct world *w, const char *policy, int cpu)
{
	const struct selfmon_cluster *cl = NULL;
	struct selfmon_pin pin;
	cpu_set_t cpus;

	load_topology(w, "rk3399");
	assert_int_equal(selfmon_pin__parse(policy, &pin), 0);
	assert_int_equal(selfmon_pin__resolve(&pin, &w->topo, cpu, &cl, &cpus), 0);
	return cl ? cl->pmu->name : NULL;
}

static void pinned_where(struct world *w, const char *want)
{
	open_ok(w, "cycles");
	if (!want)
		assert_null(selfmon_set__pmu(w->set));
	else if (!selfmon_set__pmu(w->set) || strcmp(selfmon_set__pmu(w->set), want))
		fail_msg("pinned to %s, want %s", selfmon_set__pmu(w->set) ? selfmon_set__pmu(w->set) : "(none)",
			 want);
	close_set(w);
}

static void with_no_option_and_no_environment_config_pin_policy_decides(void **state)
{
	struct world *w = *state;

	use_board(w, board("rk3399"));
	sched.cpu = 1;			/* on the a53s: "current" means them, "big" does not */
	w->opts.pin = NULL;
	pinned_where(w, rk3399_means(w, CONFIG_PIN_POLICY, 1));
	/* an empty SELFMON_PIN is no choice */
	setenv("SELFMON_PIN", "", 1);
	pinned_where(w, rk3399_means(w, CONFIG_PIN_POLICY, 1));
	/* NULL options are defaults too (the root from $SELFMON_SYSFS_ROOT) */
	setenv("SELFMON_SYSFS_ROOT", w->root, 1);
	w->set = selfmon_set__open("cycles", NULL);
	unsetenv("SELFMON_SYSFS_ROOT");
	if (!w->set)
		fail_msg("open with NULL options: %s", selfmon_errmsg());
	if (rk3399_means(w, CONFIG_PIN_POLICY, 1))
		assert_string_equal(selfmon_set__pmu(w->set), rk3399_means(w, CONFIG_PIN_POLICY, 1));
	else
		assert_null(selfmon_set__pmu(w->set));
}

static void selfmon_pin_in_the_environment_overrides_config(void **state)
{
	struct world *w = *state;

	use_board(w, board("rk3399"));
	sched.cpu = 1;
	w->opts.pin = NULL;
	setenv("SELFMON_PIN", "big", 1);
	pinned_where(w, "armv8_cortex_a72");
	setenv("SELFMON_PIN", "cpus:0-1", 1);
	pinned_where(w, "armv8_cortex_a53");
	setenv("SELFMON_PIN", "none", 1);
	pinned_where(w, NULL);
	setenv("SELFMON_PIN", "a/b", 1);
	expect_open_error(w, "cycles", EINVAL);
	has("'a/b'");
}

static void the_pin_option_overrides_the_environment(void **state)
{
	struct world *w = *state;

	use_board(w, board("rk3399"));
	sched.cpu = 4;
	setenv("SELFMON_PIN", "big", 1);
	w->opts.pin = "little";
	pinned_where(w, "armv8_cortex_a53");
	w->opts.pin = "none";
	pinned_where(w, NULL);
	/* options from a build older than .pin: the environment decides */
	w->opts.pin = "little";
	w->opts.sz = offsetof(struct selfmon_opts, pin);
	pinned_where(w, "armv8_cortex_a72");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(a_generic_event_the_pinned_pmu_lacks_is_enoent_naming_the_pmu),
		T(another_clusters_pmu_event_while_pinned_is_einval),
		T(another_hybrid_pmus_event_while_pinned_is_einval),
		T(an_affinity_outside_the_whole_cluster_is_einval),
		T(a_policy_that_does_not_resolve_fails_the_open),
		T(failing_scheduler_calls_fail_the_open_with_their_errno),
		T(with_no_option_and_no_environment_config_pin_policy_decides),
		T(selfmon_pin_in_the_environment_overrides_config),
		T(the_pin_option_overrides_the_environment),
	};

	return cmocka_run_group_tests_name("pin-policy", tests, find_fixtures, NULL);
}
