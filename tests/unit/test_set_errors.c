// SPDX-License-Identifier: MIT
/*
 * selfmon_set__open()'s errors, with libperf's system calls mocked
 * (test_set_errors.wrap) and a fake sysfs root holding an x86 'cpu' PMU,
 * perf_event_paranoid 3: what a refused open narrows and what it names,
 * a failure part way, options of older and newer builds, and reads the
 * set refuses (the read paths: test_set.c).
 */

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <perf/evsel.h>
#include <linux/perf_event.h>
#include <selfmon/selfmon.h>
#include "set_world.h"

static int world_setup(void **state)
{
	unsetenv("SELFMON_NO_USER_READ");
	return set_world__setup(state, "3");
}

static void eacces_without_chosen_levels_falls_back_to_user_space_only_and_says_so(void **state)
{
	struct world *w = *state;

	lp.open_err[0] = -EACCES;
	w->set = selfmon_set__open("cycles", &w->opts);
	assert_non_null(w->set);
	assert_int_equal(lp.opens, 2);
	assert_int_equal(lp.attr[0].exclude_kernel, 0);
	assert_int_equal(lp.attr[1].exclude_kernel, 1);
	assert_int_equal(lp.attr[1].exclude_hv, 1);
	assert_int_equal(lp.attr[1].exclude_user, 0);
	assert_non_null(selfmon_set__note(w->set, 0));
	assert_non_null(strstr(selfmon_set__note(w->set, 0), "user space only"));
}

static void eacces_of_chosen_kernel_counting_is_not_narrowed_and_names_the_value_that_would_do(void **state)
{
	struct world *w = *state;

	lp.open_err[0] = -EACCES;
	w->set = selfmon_set__open("cycles:uk", &w->opts);
	assert_null(w->set);
	assert_int_equal(errno, EACCES);
	assert_int_equal(lp.opens, 1);
	assert_non_null(strstr(selfmon_errmsg(), "perf_event_paranoid is 3"));	/* read from the root */
	assert_non_null(strstr(selfmon_errmsg(), "perf_event_paranoid=1"));
	assert_non_null(strstr(selfmon_errmsg(), "cycles:uk"));
}

static void eacces_as_root_blames_no_sysctl(void **state)
{
	struct world *w = *state;

	set_world__euid = 0;
	lp.open_err[0] = -EACCES;
	w->set = selfmon_set__open("cycles:uk", &w->opts);
	set_world__euid = 1000;
	assert_null(w->set);
	assert_int_equal(errno, EACCES);
	assert_non_null(strstr(selfmon_errmsg(), "even for root"));
	assert_null(strstr(selfmon_errmsg(), "sysctl -w"));
}

static void eacces_never_suggests_the_paranoid_value_already_in_force(void **state)
{
	struct world *w = *state;

	/* user space only is what 2 allows: at 2 the sysctl is not the cause */
	fakeroot__write(w->root, "/proc/sys/kernel/perf_event_paranoid", "2\n");
	lp.open_err[0] = -EACCES;
	w->set = selfmon_set__open("cycles:u", &w->opts);
	assert_null(w->set);
	assert_int_equal(errno, EACCES);
	assert_null(strstr(selfmon_errmsg(), "perf_event_paranoid=2"));
	assert_non_null(strstr(selfmon_errmsg(), "something else forbids it"));

	/* at 3, user space only needs 2 */
	fakeroot__write(w->root, "/proc/sys/kernel/perf_event_paranoid", "3\n");
	lp.open_err[1] = -EACCES;
	w->set = selfmon_set__open("cycles:u", &w->opts);
	assert_null(w->set);
	assert_non_null(strstr(selfmon_errmsg(), "perf_event_paranoid=2"));
	assert_null(strstr(selfmon_errmsg(), "perf_event_paranoid=3"));
}

static void a_failure_in_the_second_event_closes_the_first(void **state)
{
	struct world *w = *state;

	lp.open_err[1] = -ENOENT;
	w->set = selfmon_set__open("task-clock,r1234", &w->opts);
	assert_null(w->set);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(lp.opens, 2);
	assert_non_null(strstr(selfmon_errmsg(), "r1234"));
}

static void an_unparsable_event_is_null_before_anything_is_opened(void **state)
{
	struct world *w = *state;

	w->set = selfmon_set__open("cycles,bogus-event", &w->opts);
	assert_null(w->set);
	assert_int_equal(errno, SELFMON_ERRNO__NOEVENT);
	assert_non_null(strstr(selfmon_errmsg(), "bogus-event"));
	assert_int_equal(lp.opens, 0);
}

static void options_of_an_older_build_keep_the_fields_their_size_covers(void **state)
{
	struct world *w = *state;

	/* sz ends before no_user_read: that field and the later ones are defaults. */
	w->opts.no_user_read = 1;
	w->opts.sz = offsetof(struct selfmon_opts, no_user_read);
	w->set = selfmon_set__open("task-clock", &w->opts);
	assert_non_null(w->set);
	assert_int_equal(lp.opens, 1);
}

static void options_without_even_their_size_are_einval(void **state)
{
	struct world *w = *state;

	w->opts.sz = 0;
	w->set = selfmon_set__open("cycles", &w->opts);
	assert_null(w->set);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(lp.opens, 0);
}

/* A newer caller's struct: this build's selfmon_opts and one field past it. */
struct newer_opts {
	struct selfmon_opts o;
	unsigned long later;
};

static void options_that_set_a_field_this_library_does_not_know_are_einval(void **state)
{
	struct world *w = *state;
	struct newer_opts n;

	memset(&n, 0, sizeof(n));
	n.o = w->opts;
	n.o.sz = sizeof(n);
	n.later = 1;
	w->set = selfmon_set__open("task-clock", &n.o);
	assert_null(w->set);
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(selfmon_errmsg(), "leave unknown fields zero"));
	assert_int_equal(lp.opens, 0);
}

static void options_of_a_newer_build_open_when_the_unknown_fields_are_zero(void **state)
{
	struct world *w = *state;
	struct newer_opts n;

	memset(&n, 0, sizeof(n));
	n.o = w->opts;
	n.o.sz = sizeof(n);
	w->set = selfmon_set__open("task-clock", &n.o);
	assert_non_null(w->set);
	assert_int_equal(lp.opens, 1);
}

static void a_successful_open_leaves_no_message(void **state)
{
	struct world *w = *state;

	assert_null(selfmon_set__open("bogus-event", &w->opts));
	assert_true(selfmon_errmsg()[0] != '\0');
	set_world__open(w, "cycles");
	assert_string_equal(selfmon_errmsg(), "");
}

static void reads_of_a_counter_that_is_not_there_are_einval(void **state)
{
	struct world *w = *state;
	struct selfmon_count c;

	set_world__open(w, "task-clock");
	assert_int_equal(selfmon_set__read(w->set, 1, &c), -EINVAL);
	assert_int_equal(selfmon_set__read(w->set, -1, &c), -EINVAL);
	assert_int_equal(selfmon_set__read(NULL, 0, &c), -EINVAL);
	assert_null(selfmon_set__name(w->set, 1));
}

static void a_refused_read_names_the_public_function_called_and_what_was_wrong(void **state)
{
	struct world *w = *state;
	struct selfmon_count c;

	set_world__open(w, "task-clock");
	assert_int_equal(selfmon_set__read(w->set, 1, &c), -EINVAL);
	assert_string_equal(selfmon_errmsg(), "selfmon_set__read: no counter 1 in this set");
	assert_int_equal(selfmon_set__read_raw(w->set, 1, &c), -EINVAL);
	assert_string_equal(selfmon_errmsg(), "selfmon_set__read_raw: no counter 1 in this set");
	assert_int_equal(selfmon_set__read_syscall(w->set, 1, &c), -EINVAL);
	assert_string_equal(selfmon_errmsg(), "selfmon_set__read_syscall: no counter 1 in this set");
	assert_int_equal(selfmon_set__read(w->set, 0, NULL), -EINVAL);
	assert_string_equal(selfmon_errmsg(), "selfmon_set__read: count is NULL");
	assert_int_equal(selfmon_set__read_raw(w->set, 0, NULL), -EINVAL);
	assert_string_equal(selfmon_errmsg(), "selfmon_set__read_raw: count is NULL");
	assert_int_equal(selfmon_set__read_syscall(w->set, 0, NULL), -EINVAL);
	assert_string_equal(selfmon_errmsg(), "selfmon_set__read_syscall: count is NULL");
}

#define T(f) cmocka_unit_test_setup_teardown(f, world_setup, set_world__teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(eacces_without_chosen_levels_falls_back_to_user_space_only_and_says_so),
		T(eacces_of_chosen_kernel_counting_is_not_narrowed_and_names_the_value_that_would_do),
		T(eacces_as_root_blames_no_sysctl),
		T(eacces_never_suggests_the_paranoid_value_already_in_force),
		T(a_failure_in_the_second_event_closes_the_first),
		T(an_unparsable_event_is_null_before_anything_is_opened),
		T(options_of_an_older_build_keep_the_fields_their_size_covers),
		T(options_without_even_their_size_are_einval),
		T(options_that_set_a_field_this_library_does_not_know_are_einval),
		T(options_of_a_newer_build_open_when_the_unknown_fields_are_zero),
		T(a_successful_open_leaves_no_message),
		T(reads_of_a_counter_that_is_not_there_are_einval),
		T(a_refused_read_names_the_public_function_called_and_what_was_wrong),
	};

	return cmocka_run_group_tests_name("set_errors", tests, NULL, NULL);
}
