// SPDX-License-Identifier: MIT
/*
 * selfmon_set__open() and the reads, with libperf's system calls mocked
 * (test_set.wrap) and a fake sysfs root holding an x86 'cpu' PMU: which read
 * path each counter takes and why, the fallback to read(2), the retry of
 * an arm64 open without the 'long' bit, errors, reset, and the owner checks
 * after fork() and from another thread.
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

/* ---- libperf (libperf_mock.h) and the user, mocked ---- */

/* The set's messages differ for root; these tests speak of an ordinary user unless told. */
static uid_t mock_euid = 1000;
uid_t __wrap_geteuid(void);
uid_t __wrap_geteuid(void)
{
	return mock_euid;
}

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

static struct selfmon_set *open_ok(struct world *w, const char *events)
{
	w->set = selfmon_set__open(events, &w->opts);
	if (!w->set)
		fail_msg("open '%s': %s (%s)", events, strerror(errno), selfmon_errmsg());
	/* Open reads each event once for its id (to find its fd): not a measurement. */
	lp.reads = 0;
	return w->set;
}

/* ---- which path, and why ---- */

static void a_software_event_is_read_with_read2_and_has_no_page(void **state)
{
	struct world *w = *state;
	enum selfmon_reason why = SELFMON_REASON_NONE;
	struct selfmon_count c;

	open_ok(w, "task-clock");
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

	open_ok(w, "cycles:u");
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
	open_ok(w, "cycles");
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
	open_ok(w, "instructions");
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
	open_ok(w, "cycles");
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
	open_ok(w, "cycles");
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
	open_ok(w, "cycles");
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
	open_ok(w, "cycles");
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
	open_ok(w, "cycles");
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
	open_ok(w, "cycles");
	assert_int_equal(lp.mmaps, 1);
	assert_int_equal(selfmon_set__path(w->set, 0, &why), SELFMON_PATH_SYSCALL);
	assert_int_equal(why, SELFMON_REASON_SYSFS_RDPMC);
}

static void a_failed_mmap_is_reason_mmap(void **state)
{
	struct world *w = *state;
	enum selfmon_reason why;

	lp.mmap_err = -ENOMEM;
	open_ok(w, "cycles");
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
	open_ok(w, "armv8_pmuv3/inst_retired/");
	assert_int_equal(lp.opens, 1);
	assert_int_equal(lp.attr[0].type, 8);
	assert_true(lp.attr[0].config == 8);
	assert_true(lp.attr[0].config1 == (1u << 1));
}

/* ---- errors ---- */

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

	mock_euid = 0;
	lp.open_err[0] = -EACCES;
	w->set = selfmon_set__open("cycles:uk", &w->opts);
	mock_euid = 1000;
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
	open_ok(w, "cycles");
	assert_string_equal(selfmon_errmsg(), "");
}

static void reads_of_a_counter_that_is_not_there_are_einval(void **state)
{
	struct world *w = *state;
	struct selfmon_count c;

	open_ok(w, "task-clock");
	assert_int_equal(selfmon_set__read(w->set, 1, &c), -EINVAL);
	assert_int_equal(selfmon_set__read(w->set, -1, &c), -EINVAL);
	assert_int_equal(selfmon_set__read(NULL, 0, &c), -EINVAL);
	assert_null(selfmon_set__name(w->set, 1));
}

static void a_refused_read_names_the_public_function_called_and_what_was_wrong(void **state)
{
	struct world *w = *state;
	struct selfmon_count c;

	open_ok(w, "task-clock");
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

/* ---- reset ---- */

static void reset_makes_the_next_read_count_from_the_baseline(void **state)
{
	struct world *w = *state;
	struct selfmon_count c[2];

	open_ok(w, "task-clock,page-faults");
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
	open_ok(w, "cycles");
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

	open_ok(w, "task-clock");
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

	open_ok(w, "task-clock");
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

	open_ok(w, "cycles");
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

	r.set = open_ok(w, "task-clock");
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
		T(eacces_without_chosen_levels_falls_back_to_user_space_only_and_says_so),
		T(eacces_of_chosen_kernel_counting_is_not_narrowed_and_names_the_value_that_would_do),
		T(eacces_never_suggests_the_paranoid_value_already_in_force),
		T(eacces_as_root_blames_no_sysctl),
		T(a_failure_in_the_second_event_closes_the_first),
		T(an_unparsable_event_is_null_before_anything_is_opened),
		T(options_of_an_older_build_keep_the_fields_their_size_covers),
		T(options_without_even_their_size_are_einval),
		T(options_that_set_a_field_this_library_does_not_know_are_einval),
		T(options_of_a_newer_build_open_when_the_unknown_fields_are_zero),
		T(a_successful_open_leaves_no_message),
		T(reads_of_a_counter_that_is_not_there_are_einval),
		T(a_refused_read_names_the_public_function_called_and_what_was_wrong),
		T(reset_makes_the_next_read_count_from_the_baseline),
		T(a_baseline_taken_from_the_page_holds_for_read2_too),
		T(before_any_reset_reads_count_from_the_open),
		T(a_forked_child_gets_forked_from_read),
		T(a_forked_child_cannot_reset_or_enable_either),
		T(another_thread_gets_thread_from_read),
	};

	return cmocka_run_group_tests_name("set", tests, NULL, NULL);
}
