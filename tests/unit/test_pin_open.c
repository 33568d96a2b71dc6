// SPDX-License-Identifier: MIT
/*
 * Pinning through selfmon_set__open(), with the scheduler calls and libperf
 * mocked (pin_world.h, test_pin_open.wrap): the affinity the thread is
 * given and given back, and the attr each event is opened with on the
 * pinned cluster's PMU.
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
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "pin_world.h"

/* ---- through selfmon_set__open: affinity and attrs ---- */

/* config1 an arm64 core PMU with format/rdpmc is opened with. */
static uint64_t arm_config1(const struct cluster *c, bool no_long)
{
	uint64_t v = 0;

	if (!c->rdpmc)
		return 0;
	v |= 1u << 1;		/* rdpmc = config1:1 */
#ifdef CONFIG_LONG_COUNTERS
	if (!no_long)
		v |= 1u << 0;	/* long = config1:0 */
#else
	(void)no_long;
#endif
	return v;
}

/* Check the n-th open is @generic ("instructions" or "cycles") on @c of @b. */
static void check_attr(const struct board *b, const struct cluster *c, int n, bool instructions,
		       bool no_long, const char *what)
{
	const struct perf_event_attr *a = &lp.attr[n];
	uint64_t hw = instructions ? PERF_COUNT_HW_INSTRUCTIONS : PERF_COUNT_HW_CPU_CYCLES;
	uint64_t want_config, want_config1 = 0;
	uint32_t want_type;

	switch (b->kind) {
	case ARM:
		want_type = c->type;
		want_config = instructions ? c->inst : c->cycles;
		want_config1 = arm_config1(c, no_long);
		break;
	case X86_HYBRID:
		want_type = PERF_TYPE_HARDWARE;
		want_config = hw | ((uint64_t)c->type << 32);
		break;
	default:
		want_type = PERF_TYPE_HARDWARE;
		want_config = hw;
		break;
	}
	if (a->type != want_type || a->config != want_config || a->config1 != want_config1)
		fail_msg("%s: open %d of %s: type %u config 0x%llx config1 0x%llx, "
			 "want type %u config 0x%llx config1 0x%llx", what, n,
			 instructions ? "instructions" : "cycles", a->type,
			 (unsigned long long)a->config, (unsigned long long)a->config1, want_type,
			 (unsigned long long)want_config, (unsigned long long)want_config1);
	assert_int_equal(a->disabled, 1);
}

/*
 * Open "instructions,cycles" on board @b pinned by @policy, the thread on
 * @cpu and allowed @allowed (NULL: every online CPU): it must land on
 * cluster @ci, on CPUs @want ∩ allowed, and get its affinity back on close.
 */
static void check_pinned(struct world *w, const struct board *b, const char *policy, int cpu,
			 int ci, const char *want_list, const char *allowed)
{
	const struct cluster *c = &b->cl[ci];
	cpu_set_t before, want;
	enum selfmon_reason why = SELFMON_REASON__MAX;
	char what[160];
	bool moved;
	int path;

	reset_mock();
	use_board(w, b);
	if (allowed)
		sched.affinity = cpuset(allowed);
	before = sched.affinity;
	sched.cpu = cpu;
	want = cpuset(want_list ? want_list : c->cpus);
	CPU_AND(&want, &want, &before);
	moved = !CPU_EQUAL(&want, &before);
	snprintf(what, sizeof(what), "%s pinned '%s' from CPU %d", b->name, policy, cpu);

	w->opts.pin = policy;
	open_ok(w, "instructions,cycles");
	path = selfmon_set__path(w->set, 0, &why);

	if (!selfmon_set__pmu(w->set) || strcmp(selfmon_set__pmu(w->set), c->pmu))
		fail_msg("%s: pinned to %s, want %s", what,
			 selfmon_set__pmu(w->set) ? selfmon_set__pmu(w->set) : "(none)", c->pmu);
	if (lp.opens != 2)
		fail_msg("%s: %d opens, want 2", what, lp.opens);
	check_attr(b, c, 0, true, w->opts.no_long, what);
	check_attr(b, c, 1, false, w->opts.no_long, what);
	assert_int_equal(path, why == SELFMON_REASON_NONE ? SELFMON_PATH_USER : SELFMON_PATH_SYSCALL);
	if (why != b->gate)
		fail_msg("%s: reason '%s', want '%s'", what, selfmon_reason__str(why),
			 selfmon_reason__str(b->gate));
	if (moved) {
		if (sched.sets != 1)
			fail_msg("%s: %d sched_setaffinity calls at open, want 1", what, sched.sets);
		cpus_equal(what, &sched.set_mask[0], &want);
	} else if (sched.sets) {
		fail_msg("%s: sched_setaffinity called though the thread was within the cluster", what);
	}

	close_set(w);
	if (moved) {
		if (sched.sets != 2)
			fail_msg("%s: %d sched_setaffinity calls after close, want 2", what, sched.sets);
		cpus_equal("the affinity given back", &sched.set_mask[1], &before);
	} else {
		assert_int_equal(sched.sets, 0);
	}
	cpus_equal("the affinity after close", &sched.affinity, &before);
}

static void big_pins_to_the_biggest_cluster_and_opens_on_its_pmu(void **state)
{
	struct world *w = *state;
	const struct board *b;

	FOR_EACH_BOARD(w, b)
		check_pinned(w, b, "big", 0, b->big, NULL, NULL);
}

static void little_pins_to_the_littlest_cluster_and_opens_on_its_pmu(void **state)
{
	struct world *w = *state;
	const struct board *b;

	FOR_EACH_BOARD(w, b)
		check_pinned(w, b, "little", 0, b->little, NULL, NULL);
}

static void a_core_pmus_name_pins_to_its_cluster(void **state)
{
	struct world *w = *state;
	const struct board *b;

	FOR_EACH_BOARD(w, b)
		for (int i = 0; i < b->nr; i++)
			check_pinned(w, b, b->cl[i].pmu, 0, i, NULL, NULL);
}

static void a_cpu_list_pins_to_exactly_those_cpus(void **state)
{
	struct world *w = *state;
	const struct board *b;

	FOR_EACH_BOARD(w, b) {
		for (int i = 0; i < b->nr; i++) {
			cpu_set_t s = cpuset(b->cl[i].cpus);
			char whole[80], one[16];

			/* the whole cluster, as "cpus:LIST" */
			snprintf(whole, sizeof(whole), "cpus:%s", b->cl[i].cpus);
			check_pinned(w, b, whole, 0, i, NULL, NULL);
			/* one CPU of it, as a bare list */
			snprintf(one, sizeof(one), "%d", last_cpu(&s));
			check_pinned(w, b, one, 0, i, one, NULL);
		}
	}
}

static void current_pins_to_the_cluster_of_the_cpu_the_thread_runs_on(void **state)
{
	struct world *w = *state;
	const struct board *b;

	FOR_EACH_BOARD(w, b) {
		for (int i = 0; i < b->nr; i++) {
			cpu_set_t s = cpuset(b->cl[i].cpus);

			check_pinned(w, b, "current", first_cpu(&s), i, NULL, NULL);
			check_pinned(w, b, "current", last_cpu(&s), i, NULL, NULL);
		}
	}
}

static void the_pin_is_the_cluster_within_the_affinity_the_thread_already_has(void **state)
{
	struct world *w = *state;

	/* allowed 0,1,4: big (4-5) gives 4 alone; little (0-3) gives 0-1 */
	check_pinned(w, board("rk3399"), "big", 0, 0, NULL, "0-1,4");
	check_pinned(w, board("rk3399"), "little", 4, 1, NULL, "0-1,4");
	check_pinned(w, board("rk3399"), "1-3", 4, 1, "1-3", "0-1,4");
	check_pinned(w, board("alderlake"), "cpu_atom", 0, 1, NULL, "0-3,20-23");
}

static void no_setaffinity_when_the_thread_already_runs_within_the_cluster(void **state)
{
	struct world *w = *state;

	check_pinned(w, board("rk3399"), "big", 4, 0, NULL, "4-5");
	check_pinned(w, board("rk3399"), "big", 5, 0, NULL, "5");
	check_pinned(w, board("rk3399"), "current", 2, 1, NULL, "1-2");
	check_pinned(w, board("m1"), "apple_firestorm_pmu", 6, 1, NULL, "4-7");
	/* a homogeneous board: every CPU is the cluster's */
	check_pinned(w, board("rpi4"), "current", 1, 0, NULL, NULL);
	assert_int_equal(sched.getaffinities, 1);	/* asked, and left alone */
}

static void the_long_bit_follows_the_build_and_the_no_long_option(void **state)
{
	struct world *w = *state;

	/* check_attr() wants config1:0 only with CONFIG_LONG_COUNTERS and no no_long */
	check_pinned(w, board("qemu-biglittle"), "big", 0, 1, NULL, NULL);
	w->opts.no_long = 1;
	check_pinned(w, board("qemu-biglittle"), "big", 0, 1, NULL, NULL);
	assert_true(lp.attr[0].config1 == (1u << 1));	/* the rdpmc bit only */
}

static void alderlake_generic_events_carry_the_pinned_pmus_type_in_config(void **state)
{
	struct world *w = *state;

	use_board(w, board("alderlake"));
	w->opts.pin = "cpu_core";
	open_ok(w, "instructions");
	assert_int_equal(lp.attr[0].type, PERF_TYPE_HARDWARE);
	assert_true(lp.attr[0].config == (PERF_COUNT_HW_INSTRUCTIONS | (4ull << 32)));
	close_set(w);

	reset_mock();
	use_board(w, board("alderlake"));
	w->opts.pin = "cpu_atom";
	open_ok(w, "instructions,r00c0");
	assert_int_equal(lp.attr[0].type, PERF_TYPE_HARDWARE);
	assert_true(lp.attr[0].config == (PERF_COUNT_HW_INSTRUCTIONS | (8ull << 32)));
	/* a raw event takes the PMU's own type, its number unchanged */
	assert_int_equal(lp.attr[1].type, 8);
	assert_true(lp.attr[1].config == 0xc0);
	assert_string_equal(selfmon_set__pmu(w->set), "cpu_atom");
}

static void m1_firestorm_opens_instructions_by_its_own_alias(void **state)
{
	struct world *w = *state;
	enum selfmon_reason why;

	use_board(w, board("m1"));
	w->opts.pin = "big";
	open_ok(w, "instructions");
	assert_string_equal(selfmon_set__pmu(w->set), "apple_firestorm_pmu");
	assert_int_equal(lp.attr[0].type, 9);
	assert_true(lp.attr[0].config == 0x8c);
	/* no format/rdpmc: no bit to set, no page to map */
	assert_true(lp.attr[0].config1 == 0);
	assert_int_equal(selfmon_set__path(w->set, 0, &why), SELFMON_PATH_SYSCALL);
	assert_int_equal(why, SELFMON_REASON_NO_FORMAT);
	assert_int_equal(lp.mmaps, 0);
	assert_null(selfmon_set__page(w->set, 0));
}

static void pmu_and_raw_events_of_the_pinned_cluster_keep_their_numbers(void **state)
{
	struct world *w = *state;

	use_board(w, board("rk3399"));
	w->opts.pin = "little";
	open_ok(w, "armv8_cortex_a53/l1d_cache_refill/,r0011,branches,task-clock");
	assert_int_equal(lp.opens, 4);
	assert_int_equal(lp.attr[0].type, 9);
	assert_true(lp.attr[0].config == 0x03);
	assert_int_equal(lp.attr[1].type, 9);			/* raw: the PMU's type */
	assert_true(lp.attr[1].config == 0x11);
	assert_int_equal(lp.attr[2].type, 9);			/* pc_write_retired */
	assert_true(lp.attr[2].config == 0x0c);
	assert_int_equal(lp.attr[3].type, PERF_TYPE_SOFTWARE);	/* left alone */
	assert_true(lp.attr[3].config == PERF_COUNT_SW_TASK_CLOCK);
}

static void only_software_events_leave_the_affinity_alone(void **state)
{
	struct world *w = *state;

	use_board(w, board("rk3399"));
	w->opts.pin = "big";
	open_ok(w, "task-clock,page-faults");
	assert_null(selfmon_set__pmu(w->set));
	assert_int_equal(sched.getaffinities, 0);
	assert_int_equal(sched.sets, 0);
	close_set(w);
	assert_int_equal(sched.sets, 0);
}

struct closer {
	struct selfmon_set *set;
};

static void *close_elsewhere(void *arg)
{
	selfmon_set__close(((struct closer *)arg)->set);
	return NULL;
}

static void a_set_closed_by_another_thread_gives_the_pinned_thread_its_affinity_back(void **state)
{
	struct world *w = *state;
	struct closer c;
	cpu_set_t before;
	pthread_t t;

	use_board(w, board("rk3399"));
	before = sched.affinity;
	w->opts.pin = "big";
	sched.main_tid = gettid();
	c.set = open_ok(w, "cycles");
	w->set = NULL;
	assert_int_equal(sched.sets, 1);
	assert_int_equal(pthread_create(&t, NULL, close_elsewhere, &c), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	/* by the pinned thread's tid, not the closing thread's own (pid 0) */
	assert_int_equal(sched.sets, 2);
	assert_int_equal(sched.set_pid[1], sched.main_tid);
	assert_true(CPU_EQUAL(&sched.set_mask[1], &before));
}

static void a_second_set_on_the_same_cluster_shares_the_pin_and_the_last_close_restores(void **state)
{
	struct world *w = *state;
	struct selfmon_set *a, *b;
	cpu_set_t before;

	use_board(w, board("rk3399"));
	before = sched.affinity;
	w->opts.pin = "big";
	a = open_ok(w, "cycles");
	w->set = NULL;
	w->opts.pin = "current";	/* the thread now runs on big: the same cluster */
	sched.cpu = 4;
	b = open_ok(w, "instructions");
	w->set = NULL;
	assert_int_equal(sched.sets, 1);
	assert_string_equal(selfmon_set__pmu(b), "armv8_cortex_a72");
	selfmon_set__close(a);
	/* b still counts on the big cores: the thread stays there */
	assert_int_equal(sched.sets, 1);
	selfmon_set__close(b);
	assert_int_equal(sched.sets, 2);
	assert_true(CPU_EQUAL(&sched.affinity, &before));
}

static void a_second_set_for_another_cluster_is_refused_while_the_first_is_open(void **state)
{
	struct world *w = *state;
	struct selfmon_set *a;

	use_board(w, board("rk3399"));
	w->opts.pin = "big";
	a = open_ok(w, "cycles");
	w->set = NULL;
	w->opts.pin = "little";
	w->set = selfmon_set__open("instructions", &w->opts);
	assert_null(w->set);
	assert_int_equal(errno, EBUSY);
	assert_non_null(strstr(selfmon_errmsg(), "armv8_cortex_a72"));
	assert_non_null(strstr(selfmon_errmsg(), "armv8_cortex_a53"));
	/* the refused set moved nothing */
	assert_int_equal(sched.sets, 1);
	selfmon_set__close(a);
	assert_int_equal(sched.sets, 2);
}

static pid_t exited_tid;

static void *open_pinned_and_exit(void *arg)
{
	struct world *w = arg;

	exited_tid = (pid_t)syscall(SYS_gettid);
	w->set = selfmon_set__open("cycles", &w->opts);
	return NULL;
}

/*
 * pthread_join() returns once the thread's tid word is cleared, which can be
 * before the kernel has released the task (a slow board showed it): wait
 * until tgkill(2) no longer finds it in this process, as a reused tid would.
 */
static void wait_until_gone(pid_t tid)
{
	for (int i = 0; i < 2000 && !syscall(SYS_tgkill, getpid(), tid, 0); i++)
		usleep(1000);
}

/*
 * A thread that exits with its pinned set open: its tid may go to a thread
 * of another process, whose affinity the close must not touch.
 */
static void closing_the_set_of_an_exited_thread_moves_no_thread(void **state)
{
	struct world *w = *state;
	pthread_t t;

	use_board(w, board("rk3399"));
	w->opts.pin = "big";
	sched.main_tid = gettid();
	assert_int_equal(pthread_create(&t, NULL, open_pinned_and_exit, w), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	wait_until_gone(exited_tid);
	assert_non_null(w->set);
	assert_int_equal(sched.sets, 1);
	close_set(w);
	/* no sched_setaffinity by the gone thread's tid (the mock fails one by another tid) */
	assert_int_equal(sched.sets, 1);
}

/*
 * The child of a process with a pinned set: its own set takes its own hold
 * (its thread pinned by itself, given back to itself), not its parent's,
 * and closing the parent's inherited set there moves no thread. Exit codes
 * say what went wrong; the child runs no cmocka assertion.
 */
static int child_of_a_pinned_parent(struct world *w, struct selfmon_set *parents)
{
	int sets0 = sched.sets, code = 0;
	struct selfmon_set *b;

	sched.affinity = cpuset(board("rk3399")->online);	/* the child widened its own */
	w->opts.pin = "little";
	b = selfmon_set__open("instructions", &w->opts);
	if (!b)
		return 2;	/* refused: the parent's hold taken for the child's */
	if (sched.sets != sets0 + 1 || sched.set_pid[sets0] != 0)
		code = 3;	/* not pinned, or another thread pinned */
	selfmon_set__close(b);
	if (!code && (sched.sets != sets0 + 2 || sched.set_pid[sets0 + 1] != 0))
		code = 4;	/* given back to another thread: the parent's */
	selfmon_set__close(parents);
	if (!code && sched.sets != sets0 + 2)
		code = 5;	/* the parent's inherited hold restored an affinity */
	return code;
}

static void a_forked_childs_set_takes_its_own_pin_never_its_parents(void **state)
{
	struct world *w = *state;
	struct selfmon_set *a;
	int status;
	pid_t pid;

	use_board(w, board("rk3399"));
	w->opts.pin = "big";
	sched.main_tid = gettid();	/* lets the child's mock record a restore of this thread */
	a = open_ok(w, "cycles");
	w->set = NULL;
	assert_int_equal(sched.sets, 1);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(child_of_a_pinned_parent(w, a));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	selfmon_set__close(a);	/* first: a failure must not leave this thread's hold to the next test */
	assert_int_equal(sched.sets, 2);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status))
		fail_msg("the child's pin: code %d (2 refused with the parent's hold, 3 not pinned "
			 "itself, 4 gave another thread's affinity back, 5 the parent's hold moved "
			 "a thread)", WEXITSTATUS(status));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(big_pins_to_the_biggest_cluster_and_opens_on_its_pmu),
		T(little_pins_to_the_littlest_cluster_and_opens_on_its_pmu),
		T(a_core_pmus_name_pins_to_its_cluster),
		T(a_cpu_list_pins_to_exactly_those_cpus),
		T(current_pins_to_the_cluster_of_the_cpu_the_thread_runs_on),
		T(the_pin_is_the_cluster_within_the_affinity_the_thread_already_has),
		T(no_setaffinity_when_the_thread_already_runs_within_the_cluster),
		T(the_long_bit_follows_the_build_and_the_no_long_option),
		T(alderlake_generic_events_carry_the_pinned_pmus_type_in_config),
		T(m1_firestorm_opens_instructions_by_its_own_alias),
		T(pmu_and_raw_events_of_the_pinned_cluster_keep_their_numbers),
		T(only_software_events_leave_the_affinity_alone),
		T(a_set_closed_by_another_thread_gives_the_pinned_thread_its_affinity_back),
		T(a_second_set_on_the_same_cluster_shares_the_pin_and_the_last_close_restores),
		T(a_second_set_for_another_cluster_is_refused_while_the_first_is_open),
		T(a_forked_childs_set_takes_its_own_pin_never_its_parents),
		T(closing_the_set_of_an_exited_thread_moves_no_thread),
	};

	return cmocka_run_group_tests_name("pin-open", tests, find_fixtures, NULL);
}
