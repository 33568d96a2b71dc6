// SPDX-License-Identifier: MIT
/*
 * selfmon_set__open() and the reads, with libperf's system calls mocked
 * (test_set.wrap) and a fake sysfs root holding an x86 'cpu' PMU: which read
 * path each counter takes and why, the fallback to read(2), the retry of
 * an arm64 open without the 'long' bit, reset, and the owner checks after
 * fork() and from another thread (the open's errors: test_set_errors.c).
 *
 * A user-space read executes the build arch's real instruction. On x86_64
 * a host with no PMU makes rdpmc fault; a SIGSEGV handler then plays the
 * counter, so those tests check the value too.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>
#include <cmocka.h>

#include <perf/evsel.h>
#include <linux/perf_event.h>
#include <generated/autoconf.h>
#include <selfmon/selfmon.h>
#include "../../core/arch_int.h"
#include "set_world.h"

/* ---- the counter instruction, played on x86_64 when it faults ---- */

static volatile sig_atomic_t rdpmc_played;
static uint64_t rdpmc_value;
static uint32_t rdpmc_ecx;

#if defined(__x86_64__) && defined(CONFIG_ARCH_X86_64)
#define CAN_PLAY_RDPMC 1
static void play_rdpmc(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	greg_t *r = uc->uc_mcontext.gregs;
	const uint8_t *ip = (const uint8_t *)r[REG_RIP];

	(void)si;
	if (ip[0] != 0x0f || ip[1] != 0x33) {	/* not rdpmc: a real crash */
		signal(sig, SIG_DFL);
		return;
	}
	rdpmc_ecx = (uint32_t)r[REG_RCX];
	r[REG_RAX] = (greg_t)(uint32_t)rdpmc_value;
	r[REG_RDX] = (greg_t)(uint32_t)(rdpmc_value >> 32);
	r[REG_RIP] += 2;
	rdpmc_played++;
}
#else
#define CAN_PLAY_RDPMC 0
#endif

/* rdpmc faults with SIGSEGV on a host without a PMU, and with SIGILL under valgrind. */
static struct sigaction saved_segv, saved_ill;

static void rdpmc_player_on(void)
{
	struct sigaction sa = { 0 };

#if CAN_PLAY_RDPMC
	sa.sa_sigaction = play_rdpmc;
	sa.sa_flags = SA_SIGINFO;
#endif
	sigaction(SIGSEGV, &sa, &saved_segv);
	sigaction(SIGILL, &sa, &saved_ill);
}

static void rdpmc_player_off(void)
{
	sigaction(SIGSEGV, &saved_segv, NULL);
	sigaction(SIGILL, &saved_ill, NULL);
}

/* ---- fixture ---- */

static int world_setup(void **state)
{
	rdpmc_played = 0;
	unsetenv("SELFMON_NO_USER_READ");
	return set_world__setup(state, "3");
}

/* The page of a counter the kernel has put on hardware counter @index. */
static void page_on_counter(uint32_t index, int64_t offset)
{
	sim_page.lock = 2;
	sim_page.index = index;
	sim_page.cap_user_rdpmc = 1;
	sim_page.pmc_width = 48;
	sim_page.offset = offset;
	sim_page.time_enabled = 5000;
	sim_page.time_running = 5000;
}


/* ---- which path, and why ---- */

static void a_software_event_is_read_with_read2_and_has_no_page(void **state)
{
	struct world *w = *state;
	enum selfmon_reason why = SELFMON_REASON_NONE;
	struct selfmon_count c;

	set_world__open(w, "task-clock");
	assert_int_equal(selfmon_set__nr(w->set), 1);
	assert_string_equal(selfmon_set__name(w->set, 0), "task-clock");
	assert_int_equal(selfmon_set__path(w->set, 0, &why), SELFMON_PATH_SYSCALL);
	assert_int_equal(why, SELFMON_REASON_SOFTWARE);
	assert_null(selfmon_set__page(w->set, 0));
	assert_int_equal(lp.mmaps, 0);
	assert_int_equal(selfmon_set__pmc_width(w->set, 0), 0);

	libperf_mock__counts((struct perf_counts_values){ .val = 42, .ena = 10, .run = 10 });
	assert_int_equal(selfmon_set__read(w->set, 0, &c), 0);
	assert_true(c.value == 42);
	assert_int_equal(c.flags & SELFMON_COUNT_USER, 0);
	assert_int_equal(c.reason, SELFMON_REASON_SOFTWARE);
	assert_int_equal(selfmon_set__fallbacks(w->set, 0), 0);	/* not a fallback: by design */
}

static void the_attr_counts_disabled_with_both_times_in_the_read_format(void **state)
{
	struct world *w = *state;

	set_world__open(w, "cycles:u");
	assert_int_equal(lp.opens, 1);
	assert_int_equal(lp.attr[0].type, PERF_TYPE_HARDWARE);
	assert_true(lp.attr[0].config == PERF_COUNT_HW_CPU_CYCLES);
	assert_int_equal(lp.attr[0].disabled, 1);
	assert_int_equal(lp.attr[0].exclude_kernel, 1);
	assert_true(lp.attr[0].read_format & PERF_FORMAT_TOTAL_TIME_ENABLED);
	assert_true(lp.attr[0].read_format & PERF_FORMAT_TOTAL_TIME_RUNNING);
	assert_int_equal(lp.enables, 0);
	assert_int_equal(selfmon_set__enable(w->set), 0);
	assert_int_equal(lp.enables, 1);
	assert_int_equal(selfmon_set__disable(w->set), 0);
	assert_int_equal(lp.disables, 1);
}

static void a_hardware_event_with_open_gates_gets_its_page(void **state)
{
	struct world *w = *state;
	enum selfmon_reason why = SELFMON_REASON__MAX;

	page_on_counter(0, 0);
	set_world__open(w, "cycles");
	assert_int_equal(lp.mmaps, 1);
	assert_ptr_equal(selfmon_set__page(w->set, 0), &sim_page);
	assert_int_equal(selfmon_set__pmc_width(w->set, 0), 48);
	/* before enable, the gates decide */
	assert_int_equal(selfmon_set__path(w->set, 0, &why), SELFMON_PATH_USER);
	assert_int_equal(why, SELFMON_REASON_NONE);
}

static void a_page_without_cap_user_rdpmc_sends_reads_to_read2_with_reason_cap(void **state)
{
	struct world *w = *state;
	enum selfmon_reason why;
	struct selfmon_count c;

	page_on_counter(3, 0);
	sim_page.cap_user_rdpmc = 0;
	set_world__open(w, "instructions");
	assert_int_equal(selfmon_set__path(w->set, 0, &why), SELFMON_PATH_SYSCALL);
	assert_int_equal(why, SELFMON_REASON_CAP);
	libperf_mock__counts((struct perf_counts_values){ .val = 9, .ena = 1, .run = 1 });
	assert_int_equal(selfmon_set__read(w->set, 0, &c), 0);
	assert_int_equal(c.reason, SELFMON_REASON_CAP);
	assert_true(c.value == 9);
}

static void index_0_falls_back_to_read2_and_counts_the_fallback(void **state)
{
	struct world *w = *state;
	enum selfmon_reason why;
	struct selfmon_count c;

	page_on_counter(0, 0);
	set_world__open(w, "cycles");
	assert_int_equal(selfmon_set__enable(w->set), 0);
	assert_int_equal(selfmon_set__path(w->set, 0, &why), SELFMON_PATH_SYSCALL);
	assert_int_equal(why, SELFMON_REASON_INDEX);

	libperf_mock__counts((struct perf_counts_values){ .val = 777, .ena = 20, .run = 10 });
	assert_int_equal(selfmon_set__read(w->set, 0, &c), 0);
	assert_int_equal(lp.reads, 1);
	assert_true(c.value == 777 && c.enabled == 20 && c.running == 10);
	assert_int_equal(c.flags & SELFMON_COUNT_USER, 0);
	assert_int_equal(c.reason, SELFMON_REASON_INDEX);
	assert_int_equal(selfmon_set__fallbacks(w->set, 0), 1);
	assert_int_equal(selfmon_set__read(w->set, 0, &c), 0);
	assert_int_equal(selfmon_set__fallbacks(w->set, 0), 2);
}

static void a_reset_taken_at_index_0_is_not_counted_as_a_fallback(void **state)
{
	struct world *w = *state;
	struct selfmon_count c;

	page_on_counter(0, 0);
	set_world__open(w, "cycles");
	assert_int_equal(selfmon_set__enable(w->set), 0);
	libperf_mock__counts((struct perf_counts_values){ .val = 100, .ena = 20, .run = 10 });
	assert_int_equal(selfmon_set__reset(w->set), 0);
	assert_int_equal(lp.reads, 1);
	assert_int_equal(selfmon_set__fallbacks(w->set, 0), 0);
	/* The reads that measure still do. */
	libperf_mock__counts((struct perf_counts_values){ .val = 150, .ena = 30, .run = 15 });
	assert_int_equal(selfmon_set__read(w->set, 0, &c), 0);
	assert_int_equal(c.value, 50);
	assert_int_equal(selfmon_set__fallbacks(w->set, 0), 1);
}

static void a_counter_on_hardware_is_read_from_user_space(void **state)
{
	struct world *w = *state;
	enum selfmon_reason why;
	struct selfmon_count c;

	if (!CAN_PLAY_RDPMC)
		skip();
	rdpmc_player_on();

	page_on_counter(2, 1000);
	rdpmc_value = 234;
	set_world__open(w, "cycles");
	assert_int_equal(selfmon_set__enable(w->set), 0);
	assert_int_equal(selfmon_set__read(w->set, 0, &c), 0);
	assert_int_equal(selfmon_set__path(w->set, 0, &why), SELFMON_PATH_USER);

	rdpmc_player_off();

	assert_int_equal(c.flags & SELFMON_COUNT_USER, SELFMON_COUNT_USER);
	assert_int_equal(c.reason, SELFMON_REASON_NONE);
	assert_int_equal(why, SELFMON_REASON_NONE);
	assert_int_equal(lp.reads, 0);
	assert_int_equal(selfmon_set__fallbacks(w->set, 0), 0);
	if (!rdpmc_played) {
		print_message("# rdpmc ran for real on this host: value not checked\n");
		return;
	}
	assert_true(c.value == 1234);			/* offset + counter */
	assert_int_equal(rdpmc_ecx, 1);			/* page index - 1 */
	assert_true(c.enabled == 5000 && c.running == 5000);
}

static void no_user_read_option_keeps_every_read_on_read2(void **state)
{
	struct world *w = *state;
	enum selfmon_reason why;
	struct selfmon_count c;

	page_on_counter(2, 1000);
	w->opts.no_user_read = 1;
	set_world__open(w, "cycles");
	assert_int_equal(lp.mmaps, 0);
	assert_null(selfmon_set__page(w->set, 0));
	assert_int_equal(selfmon_set__path(w->set, 0, &why), SELFMON_PATH_SYSCALL);
	assert_int_equal(why, SELFMON_REASON_CONFIG);
	for (int n = 0; n < MOCK_OPENS; n++)
		lp.counts[n].val = 5;
	assert_int_equal(selfmon_set__read(w->set, 0, &c), 0);
	assert_int_equal(c.reason, SELFMON_REASON_CONFIG);
	assert_int_equal(selfmon_set__fallbacks(w->set, 0), 0);
}

static void selfmon_no_user_read_in_the_environment_does_the_same(void **state)
{
	struct world *w = *state;
	enum selfmon_reason why;

	setenv("SELFMON_NO_USER_READ", "1", 1);
	set_world__open(w, "cycles");
	unsetenv("SELFMON_NO_USER_READ");
	assert_int_equal(selfmon_set__path(w->set, 0, &why), SELFMON_PATH_SYSCALL);
	assert_int_equal(why, SELFMON_REASON_CONFIG);
	assert_int_equal(lp.mmaps, 0);
}

static void sysfs_rdpmc_0_is_the_reason_but_the_page_is_still_mapped(void **state)
{
	struct world *w = *state;
	enum selfmon_reason why;

	fakeroot__pmu_file(w->root, "cpu", "rdpmc", "0");
	page_on_counter(0, 0);
	set_world__open(w, "cycles");
	assert_int_equal(lp.mmaps, 1);
	assert_int_equal(selfmon_set__path(w->set, 0, &why), SELFMON_PATH_SYSCALL);
	assert_int_equal(why, SELFMON_REASON_SYSFS_RDPMC);
}

static void a_failed_mmap_is_reason_mmap(void **state)
{
	struct world *w = *state;
	enum selfmon_reason why;

	lp.mmap_err = -ENOMEM;
	set_world__open(w, "cycles");
	assert_null(selfmon_set__page(w->set, 0));
	assert_int_equal(selfmon_set__path(w->set, 0, &why), SELFMON_PATH_SYSCALL);
	assert_int_equal(why, SELFMON_REASON_MMAP);
}

static void the_root_can_come_from_selfmon_sysfs_root(void **state)
{
	struct world *w = *state;
	enum selfmon_reason why;

	fakeroot__pmu_file(w->root, "cpu", "rdpmc", "0");
	setenv("SELFMON_SYSFS_ROOT", w->root, 1);
	w->set = selfmon_set__open("cycles", NULL);
	unsetenv("SELFMON_SYSFS_ROOT");
	assert_non_null(w->set);
	assert_int_equal(selfmon_set__path(w->set, 0, &why), SELFMON_PATH_SYSCALL);
	assert_int_equal(why, SELFMON_REASON_SYSFS_RDPMC);	/* the fake tree's word, not the host's */
}

/* ---- arm64's 64-bit counters (the arch swapped in through the wrap) ---- */

static void arm64_eopnotsupp_with_long_is_opened_again_without_the_long_bit(void **state)
{
	struct world *w = *state;

	fakeroot__armv8(w->root, "armv8_pmuv3", 8, "0-3");
	fakeroot__remove_path(w->root, FAKEROOT_DEVICES "/cpu");
	fakeroot__write(w->root, "/proc/sys/kernel/perf_user_access", "1\n");
	lp.arch = &selfmon_arch__arm64;
	lp.open_err[0] = -EOPNOTSUPP;

	w->set = selfmon_set__open("cycles", &w->opts);
#ifdef CONFIG_LONG_COUNTERS
	assert_non_null(w->set);
	assert_int_equal(lp.opens, 2);
	assert_true(lp.attr[0].config1 == ((1u << 1) | (1u << 0)));	/* rdpmc + long */
	assert_true(lp.attr[1].config1 == (1u << 1));			/* rdpmc only */
	assert_int_equal(lp.attr[1].type, PERF_TYPE_HARDWARE);
	assert_int_equal(lp.mmaps, 1);
#else
	/* this build never asks for long counters: EOPNOTSUPP is the PMU's final word */
	assert_null(w->set);
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(lp.opens, 1);
	assert_true(lp.attr[0].config1 == (1u << 1));
#endif
}

static void arm64_no_long_option_asks_only_for_the_rdpmc_bit(void **state)
{
	struct world *w = *state;

	fakeroot__armv8(w->root, "armv8_pmuv3", 8, "0-3");
	fakeroot__remove_path(w->root, FAKEROOT_DEVICES "/cpu");
	fakeroot__write(w->root, "/proc/sys/kernel/perf_user_access", "0\n");
	lp.arch = &selfmon_arch__arm64;
	w->opts.no_long = 1;
	set_world__open(w, "armv8_pmuv3/inst_retired/");
	assert_int_equal(lp.opens, 1);
	assert_int_equal(lp.attr[0].type, 8);
	assert_true(lp.attr[0].config == 8);
	assert_true(lp.attr[0].config1 == (1u << 1));
}

/* ---- reset ---- */

static void reset_makes_the_next_read_count_from_the_baseline(void **state)
{
	struct world *w = *state;
	struct selfmon_count c[2];

	set_world__open(w, "task-clock,page-faults");
	libperf_mock__counts((struct perf_counts_values){ .val = 1000, .ena = 500, .run = 400 });
	assert_int_equal(selfmon_set__reset(w->set), 0);
	libperf_mock__counts((struct perf_counts_values){ .val = 1700, .ena = 800, .run = 650 });
	assert_int_equal(selfmon_set__read_all(w->set, c), 0);
	for (int i = 0; i < 2; i++) {
		assert_true(c[i].value == 700);
		assert_true(c[i].enabled == 300);
		assert_true(c[i].running == 250);
	}
}

static void a_baseline_taken_from_the_page_holds_for_read2_too(void **state)
{
	struct world *w = *state;
	struct selfmon_count c;

	if (!CAN_PLAY_RDPMC)
		skip();
	rdpmc_player_on();
	page_on_counter(1, 1000);
	rdpmc_value = 234;
	set_world__open(w, "cycles");
	assert_int_equal(selfmon_set__enable(w->set), 0);
	assert_int_equal(selfmon_set__reset(w->set), 0);	/* baseline 1234 from the page */

	sim_page.offset = 5000;				/* the kernel moved on: 5234 */
	assert_int_equal(selfmon_set__read(w->set, 0, &c), 0);
	rdpmc_player_off();
	if (!rdpmc_played) {
		print_message("# rdpmc ran for real on this host: value not checked\n");
		return;
	}
	assert_true(c.flags & SELFMON_COUNT_USER);
	assert_true(c.value == 4000);

	/* the counter leaves the hardware: read(2) gives the same quantity */
	sim_page.index = 0;
	libperf_mock__counts((struct perf_counts_values){ .val = 6234, .ena = 9000, .run = 9000 });
	assert_int_equal(selfmon_set__read(w->set, 0, &c), 0);
	assert_false(c.flags & SELFMON_COUNT_USER);
	assert_true(c.value == 5000);
	assert_true(c.enabled == 4000 && c.running == 4000);	/* page times were 5000 */
}

static void before_any_reset_reads_count_from_the_open(void **state)
{
	struct world *w = *state;
	struct selfmon_count c;

	set_world__open(w, "task-clock");
	libperf_mock__counts((struct perf_counts_values){ .val = 1234, .ena = 5, .run = 5 });
	assert_int_equal(selfmon_set__read(w->set, 0, &c), 0);
	assert_true(c.value == 1234);
}

/* ---- owner checks ---- */

static void a_forked_child_gets_forked_from_read(void **state)
{
	struct world *w = *state;
	int status;
	pid_t pid;

	set_world__open(w, "task-clock");
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct selfmon_count c;
		int err = selfmon_set__read(w->set, 0, &c);

		_exit(err == -SELFMON_ERRNO__FORKED ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	/* the parent still reads */
	{
		struct selfmon_count c;

		assert_int_equal(selfmon_set__read(w->set, 0, &c), 0);
	}
}

static void a_forked_child_cannot_reset_or_enable_either(void **state)
{
	struct world *w = *state;
	int status;
	pid_t pid;

	set_world__open(w, "cycles");
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int ok = selfmon_set__reset(w->set) == -SELFMON_ERRNO__FORKED &&
			 selfmon_set__enable(w->set) == -SELFMON_ERRNO__FORKED &&
			 strstr(selfmon_errmsg(), "fork") != NULL;

		_exit(ok ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

struct reader {
	struct selfmon_set *set;
	int err;
};

static void *read_from_another_thread(void *arg)
{
	struct reader *r = arg;
	struct selfmon_count c;

	r->err = selfmon_set__read(r->set, 0, &c);
	return NULL;
}

static void another_thread_gets_thread_from_read(void **state)
{
	struct world *w = *state;
	struct reader r = { 0 };
	struct selfmon_count c;
	pthread_t t;

	r.set = set_world__open(w, "task-clock");
	assert_int_equal(pthread_create(&t, NULL, read_from_another_thread, &r), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(r.err, -SELFMON_ERRNO__THREAD);
	assert_int_equal(lp.reads, 0);
	assert_int_equal(selfmon_set__read(w->set, 0, &c), 0);
}

#define T(f) cmocka_unit_test_setup_teardown(f, world_setup, set_world__teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(a_software_event_is_read_with_read2_and_has_no_page),
		T(the_attr_counts_disabled_with_both_times_in_the_read_format),
		T(a_hardware_event_with_open_gates_gets_its_page),
		T(a_page_without_cap_user_rdpmc_sends_reads_to_read2_with_reason_cap),
		T(index_0_falls_back_to_read2_and_counts_the_fallback),
		T(a_reset_taken_at_index_0_is_not_counted_as_a_fallback),
		T(a_counter_on_hardware_is_read_from_user_space),
		T(no_user_read_option_keeps_every_read_on_read2),
		T(selfmon_no_user_read_in_the_environment_does_the_same),
		T(sysfs_rdpmc_0_is_the_reason_but_the_page_is_still_mapped),
		T(a_failed_mmap_is_reason_mmap),
		T(the_root_can_come_from_selfmon_sysfs_root),
		T(arm64_eopnotsupp_with_long_is_opened_again_without_the_long_bit),
		T(arm64_no_long_option_asks_only_for_the_rdpmc_bit),
		T(reset_makes_the_next_read_count_from_the_baseline),
		T(a_baseline_taken_from_the_page_holds_for_read2_too),
		T(before_any_reset_reads_count_from_the_open),
		T(a_forked_child_gets_forked_from_read),
		T(a_forked_child_cannot_reset_or_enable_either),
		T(another_thread_gets_thread_from_read),
	};

	return cmocka_run_group_tests_name("set", tests, NULL, NULL);
}
