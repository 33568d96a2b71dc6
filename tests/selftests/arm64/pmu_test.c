// SPDX-License-Identifier: MIT
/*
 * The arm64 user-space read on a real kernel: built only for arm64, run on the
 * emulated board of `make check` (QEMU -icount shift=0, one CPU: every count
 * is exact) and on real boards through the test bundle.
 *
 * A region is measured as the difference of two reads around an asm loop of
 * n iterations of add/subs/b.ne, 3 instructions each. The same code with n = 0
 * is the empty region; their difference must be 3n exactly. Events are user
 * only (":u"), so the kernel's work inside read(2) does not count.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

#include <selfmon/read.h>
#include <selfmon/selfmon.h>
#include "kselftest_harness.h"
#include "board.h"

/* The same region by read(2) on the same fd. */
static __attribute__((noinline)) int64_t region_syscall(struct selfmon_set *set, int idx, uint64_t n)
{
	struct selfmon_count a, b;

	if (selfmon_set__read_syscall(set, idx, &a))
		return -1;
	loop3(n);
	if (selfmon_set__read_syscall(set, idx, &b))
		return -1;
	return (int64_t)(b.value - a.value);
}

TEST(instructions_cycles_and_a_raw_alias_take_the_mrs_path)
{
	struct selfmon_set *set;
	enum selfmon_reason why;
	char ev[160];

	/* The alias is the core PMU's own: armv8_pmuv3, or a cluster's on big.LITTLE. */
	OPEN_USER(set, "instructions:u", NULL);
	ASSERT_NE(NULL, selfmon_set__pmu(set)) TH_LOG("the set is not pinned to a core PMU");
	snprintf(ev, sizeof(ev), "instructions:u,cycles:u,%s/inst_retired/u", selfmon_set__pmu(set));
	selfmon_set__close(set);
	OPEN_USER(set, ev, NULL);
	for (int i = 0; i < 3; i++) {
		const struct perf_event_mmap_page *pg = selfmon_set__page(set, i);
		struct selfmon_count c;

		ASSERT_NE(NULL, pg);
		EXPECT_EQ(SELFMON_PATH_USER, selfmon_set__path(set, i, &why))
			TH_LOG("%s: %s", selfmon_set__name(set, i), selfmon_reason__str(why));
		EXPECT_NE(0, pg->index) TH_LOG("%s: index 0", selfmon_set__name(set, i));
		ASSERT_EQ(0, selfmon_set__read(set, i, &c));
		EXPECT_EQ(SELFMON_COUNT_USER, c.flags & SELFMON_COUNT_USER);
	}
	/* The cycle counter is published as index 32 (PMCCNTR_EL0). */
	EXPECT_EQ(32, selfmon_set__page(set, 1)->index);
	selfmon_set__close(set);
}

/* A counting watchpoint on user loads of @addr (4 bytes), or -errno. */
static int load_watch(const void *addr)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_BREAKPOINT,
		.size = sizeof(a),
		.bp_type = HW_BREAKPOINT_R,
		.bp_addr = (uintptr_t)addr,
		.bp_len = HW_BREAKPOINT_LEN_4,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);

	return fd < 0 ? -errno : fd;
}

static __attribute__((noinline)) int read_value_once(const struct perf_event_mmap_page *pg, uint64_t *v)
{
	return selfmon_page__read_value(pg, v);
}

static __attribute__((noinline)) int read_once(const struct perf_event_mmap_page *pg, struct selfmon_count *c)
{
	return selfmon_page__read(pg, c);
}

/*
 * A read loads the page's index once per seqlock iteration, so the
 * index it checks is the index it reads. A hardware watchpoint (a counting
 * PERF_TYPE_BREAKPOINT event, user loads only) on the index of a quiet page
 * counts the loads one read makes in the code as compiled for this board:
 * exactly 1 (arm64 loads lock and index with one ldp). A compiler that
 * loaded it again between the check and the mrs would make it 2.
 */
TEST(one_inline_read_loads_the_page_index_exactly_once)
{
	const struct perf_event_mmap_page *pg;
	struct selfmon_set *set;
	struct selfmon_count c;
	uint64_t v, before, after, loads_value = ~0ull, loads_count = ~0ull;
	int fd;

	OPEN_USER(set, "instructions:u", NULL);
	pg = selfmon_set__page(set, 0);
	ASSERT_NE(NULL, pg);
	fd = load_watch(&pg->index);
	if (fd < 0) {
		selfmon_set__close(set);
		SKIP(return, "no hardware watchpoint for a counting event here (%s)", strerror(-fd));
	}
	/* The least of a few tries: a kernel update in the middle would retry, legitimately. */
	for (int t = 0; t < 5; t++) {
		ASSERT_EQ(sizeof(before), read(fd, &before, sizeof(before)));
		ASSERT_EQ(0, read_value_once(pg, &v));
		ASSERT_EQ(sizeof(after), read(fd, &after, sizeof(after)));
		loads_value = after - before < loads_value ? after - before : loads_value;
		ASSERT_EQ(sizeof(before), read(fd, &before, sizeof(before)));
		ASSERT_EQ(0, read_once(pg, &c));
		ASSERT_EQ(sizeof(after), read(fd, &after, sizeof(after)));
		loads_count = after - before < loads_count ? after - before : loads_count;
	}
	TH_LOG("index loads per read (a watchpoint on the page's index): %llu by read_value, %llu by read",
	       (unsigned long long)loads_value, (unsigned long long)loads_count);
	EXPECT_EQ(1, loads_value);
	EXPECT_EQ(1, loads_count);
	close(fd);
	selfmon_set__close(set);
}

static void check_exact(struct __test_metadata *_metadata, const struct selfmon_opts *opts, int width)
{
	static const uint64_t n[] = { 1, 10, 1000, 123457 };
	struct selfmon_set *set;
	const struct perf_event_mmap_page *pg;
	int64_t empty_u, empty_s;

	EXACT_OR_SKIP();
	OPEN_USER(set, "instructions:u", opts);
	pg = selfmon_set__page(set, 0);
	ASSERT_NE(NULL, pg);
	if (width)
		ASSERT_EQ(width, selfmon_set__pmc_width(set, 0));
	empty_u = region_user(pg, 0);
	empty_s = region_syscall(set, 0, 0);
	ASSERT_GT(empty_u, 0);
	ASSERT_GT(empty_s, 0);
	TH_LOG("pmc_width %d: empty region %lld instructions by mrs, %lld by read(2)",
	       selfmon_set__pmc_width(set, 0), (long long)empty_u, (long long)empty_s);
	for (unsigned int i = 0; i < sizeof(n) / sizeof(n[0]); i++) {
		EXPECT_EQ(3 * n[i], region_user(pg, n[i]) - empty_u) TH_LOG("n = %llu by mrs", (unsigned long long)n[i]);
		EXPECT_EQ(3 * n[i], region_syscall(set, 0, n[i]) - empty_s) TH_LOG("n = %llu by read(2)", (unsigned long long)n[i]);
	}
	EXPECT_EQ(0, selfmon_set__fallbacks(set, 0));
	selfmon_set__close(set);
}

/* A region read inline at its start and by selfmon_set__read_raw() at its end. */
static __attribute__((noinline)) int64_t region_mixed(struct selfmon_set *set, uint64_t n, int sysctl_off,
						      struct selfmon_count *end)
{
	const struct perf_event_mmap_page *pg = selfmon_set__page(set, 0);
	uint64_t a;

	if (selfmon_page__read_value(pg, &a))
		return -1;
	loop3(n);
	if (sysctl_off) {
		/*
		 * A real fallback: user reads off, and the event stopped and
		 * started so that the kernel republishes its page (index 0).
		 */
		if (write_sysctl(USER_ACCESS, "0") || selfmon_set__disable(set) || selfmon_set__enable(set))
			return -1;
	}
	if (selfmon_set__read_raw(set, 0, end))
		return -1;
	return (int64_t)(end->value - a);
}

/* The same region, ended by selfmon_set__read(): counts since the reset. */
static __attribute__((noinline)) int64_t region_mixed_read(struct selfmon_set *set, uint64_t n)
{
	struct selfmon_count end;
	uint64_t a;

	if (selfmon_page__read_value(selfmon_set__page(set, 0), &a))
		return -1;
	loop3(n);
	if (selfmon_set__read(set, 0, &end))
		return -1;
	return (int64_t)(end.value - a);
}

/*
 * The tests that turn the perf_user_access gate off: the teardown puts it
 * back as it was, so that a failed assertion (which ends the test at once)
 * never leaves it off for the suites after this one.
 */
FIXTURE(user_access) {
	long saved;	/* the gate before the test; < 0: no such sysctl */
};

FIXTURE_SETUP(user_access)
{
	self->saved = read_sysctl(USER_ACCESS);
}

FIXTURE_TEARDOWN(user_access)
{
	if (self->saved >= 0 && geteuid() == 0)
		write_sysctl(USER_ACCESS, self->saved ? "1" : "0");
}

/*
 * After selfmon_set__reset(), a region read inline at its
 * start (the raw count) and by the fallback at its end must count exactly.
 * selfmon_set__read_raw() is that fallback: the raw count too. It is taken
 * here while the page still works (its user path), then as a real read(2)
 * fallback (perf_user_access=0 in the middle of the region). Ended by
 * selfmon_set__read() instead, the region is off by the reset's baseline:
 * that is the trap the raw read closes, and what shows this test can fail.
 */
TEST_F(user_access, a_region_read_inline_then_by_read_raw_counts_exactly_after_a_reset)
{
	const uint64_t n = 10000;
	struct selfmon_count end;
	struct selfmon_set *set;
	int64_t empty, got;

	EXACT_OR_SKIP();
	OPEN_USER(set, "instructions:u", NULL);
	loop3(50000);			/* a baseline well away from 0 */
	ASSERT_EQ(0, selfmon_set__reset(set));

	empty = region_mixed(set, 0, 0, &end);
	ASSERT_GT(empty, 0);
	got = region_mixed(set, n, 0, &end) - empty;
	EXPECT_EQ(3 * n, got);
	EXPECT_EQ(SELFMON_COUNT_USER, end.flags & SELFMON_COUNT_USER);
	TH_LOG("inline start, read_raw end (page): %lld for %llu, empty region %lld",
	       (long long)got, (unsigned long long)(3 * n), (long long)empty);

	/*
	 * selfmon_set__read() at the end counts since the reset: the region
	 * comes out short by the baseline (over 150,000 instructions, so
	 * negative here). No calibration by an empty region: that one would be
	 * short by the same baseline and hide it.
	 */
	got = region_mixed_read(set, n);
	EXPECT_LT(got, 0) TH_LOG("selfmon_set__read() at the end gave %lld: not off by the baseline", (long long)got);
	TH_LOG("inline start, selfmon_set__read() end: %lld for %llu (the trap read_raw avoids)",
	       (long long)got, (unsigned long long)(3 * n));

	if (self->saved != 1 || geteuid() != 0) {
		selfmon_set__close(set);
		SKIP(return, "the read(2) half needs root to flip " USER_ACCESS);
	}
	empty = region_mixed(set, 0, 1, &end);
	write_sysctl(USER_ACCESS, "1");
	ASSERT_GT(empty, 0);
	EXPECT_EQ(0, end.flags & SELFMON_COUNT_USER) TH_LOG("the end did not fall back to read(2)");
	ASSERT_EQ(0, selfmon_set__disable(set));
	ASSERT_EQ(0, selfmon_set__enable(set));
	got = region_mixed(set, n, 1, &end) - empty;
	write_sysctl(USER_ACCESS, "1");
	EXPECT_EQ(0, end.flags & SELFMON_COUNT_USER);
	EXPECT_NE(SELFMON_REASON_NONE, end.reason);
	EXPECT_EQ(3 * n, got);
	TH_LOG("inline start, read_raw end (read(2), %s): %lld for %llu", selfmon_reason__str(end.reason),
	       (long long)got, (unsigned long long)(3 * n));
	selfmon_set__close(set);
}

/* A region between two selfmon_set__read() calls, both by mrs; -1 otherwise. */
static __attribute__((noinline)) int64_t region_set_read(struct selfmon_set *set, uint64_t n)
{
	struct selfmon_count a, b;

	if (selfmon_set__read(set, 0, &a))
		return -1;
	loop3(n);
	if (selfmon_set__read(set, 0, &b) || !(a.flags & b.flags & SELFMON_COUNT_USER))
		return -1;
	return (int64_t)(b.value - a.value);
}

/* selfmon_set__read()'s short read of a fixed page at @width: exact, with no fallback. */
static void check_set_read_exact(struct __test_metadata *_metadata, const struct selfmon_opts *opts,
				 int width)
{
	static const uint64_t n[] = { 1, 10, 1000, 123457 };
	struct selfmon_set *set;
	int64_t empty;

	EXACT_OR_SKIP();
	OPEN_USER(set, "instructions:u", opts);
	if (width)
		ASSERT_EQ(width, selfmon_set__pmc_width(set, 0));
	empty = region_set_read(set, 0);
	ASSERT_GT(empty, 0);
	for (unsigned int i = 0; i < sizeof(n) / sizeof(n[0]); i++) {
		EXPECT_EQ(3 * n[i], region_set_read(set, n[i]) - empty)
			TH_LOG("n = %llu, pmc_width %d", (unsigned long long)n[i], selfmon_set__pmc_width(set, 0));
	}
	EXPECT_EQ(0, selfmon_set__fallbacks(set, 0));
	selfmon_set__close(set);
}

TEST(selfmon_set_read_measures_a_known_region_exactly_with_the_default_counter)
{
	check_set_read_exact(_metadata, NULL, 0);
}

TEST(selfmon_set_read_measures_a_known_region_exactly_with_a_32_bit_counter)
{
	struct selfmon_opts opts = { .sz = sizeof(opts), .no_long = 1 };

	check_set_read_exact(_metadata, &opts, 32);
}

TEST(a_known_region_measures_exactly_by_mrs_and_by_read2_with_the_default_counter)
{
	check_exact(_metadata, NULL, 0);
}

TEST(a_known_region_measures_exactly_with_a_32_bit_counter)
{
	struct selfmon_opts opts = { .sz = sizeof(opts), .no_long = 1 };

	check_exact(_metadata, &opts, 32);
}

TEST(the_64_bit_request_is_granted_or_refused_as_this_cpu_says)
{
	int expect = expect_env("SELFMON_EXPECT_LONG");
	struct selfmon_set *set;
	const char *note;

	if (expect < 0)
		SKIP(return, "SELFMON_EXPECT_LONG not set: this board's counter width is not known");
	OPEN_USER(set, "instructions:u", NULL);
	note = selfmon_set__note(set, 0);
	if (expect) {
		EXPECT_EQ(64, selfmon_set__pmc_width(set, 0));
		EXPECT_EQ(NULL, note);
	} else {
		/* e.g. -cpu cortex-a72: INST_RETIRED with the long bit is EOPNOTSUPP. */
		EXPECT_EQ(32, selfmon_set__pmc_width(set, 0));
		ASSERT_NE(NULL, note);
		EXPECT_NE(NULL, strstr(note, "refused a 64-bit counter")) TH_LOG("%s", note);
	}
	selfmon_set__close(set);
}

TEST(a_32_bit_counter_that_wraps_during_the_region_still_gives_the_exact_delta)
{
	struct selfmon_opts opts = { .sz = sizeof(opts), .no_long = 1 };
	/* 4.5e9 instructions: more than 2^32, so the counter wraps at least once. */
	const uint64_t n = 1500000000ull;
	const struct perf_event_mmap_page *pg;
	struct selfmon_set *set;
	int64_t empty;

	EXACT_OR_SKIP();
	OPEN_USER(set, "instructions:u", &opts);
	ASSERT_EQ(32, selfmon_set__pmc_width(set, 0));
	pg = selfmon_set__page(set, 0);
	empty = region_user(pg, 0);
	EXPECT_EQ(3 * n, region_user(pg, n) - empty);
	selfmon_set__close(set);
}

TEST_F(user_access, the_perf_user_access_gate_is_reported_and_opening_it_takes_the_fast_path)
{
	struct selfmon_set *set;
	enum selfmon_reason why;
	struct selfmon_count c;
	int64_t empty;

	if (self->saved < 0 || geteuid() != 0)
		SKIP(return, "needs root and " USER_ACCESS);
	ASSERT_EQ(0, write_sysctl(USER_ACCESS, "0"));

	set = selfmon_set__open("instructions:u", NULL);
	ASSERT_NE(NULL, set) TH_LOG("%s", selfmon_errmsg());
	ASSERT_EQ(0, selfmon_set__enable(set));
	EXPECT_EQ(SELFMON_PATH_SYSCALL, selfmon_set__path(set, 0, &why));
	EXPECT_EQ(SELFMON_REASON_SYSCTL, why);
	EXPECT_STREQ("sysctl -w kernel.perf_user_access=1", selfmon_reason__fix(why));
	/* The kernel grants the rdpmc bit but publishes index 0 while the sysctl is 0. */
	ASSERT_NE(NULL, selfmon_set__page(set, 0));
	EXPECT_EQ(0, selfmon_set__page(set, 0)->index);
	ASSERT_EQ(0, selfmon_set__read(set, 0, &c));
	EXPECT_EQ(0, c.flags & SELFMON_COUNT_USER);
	EXPECT_EQ(SELFMON_REASON_SYSCTL, c.reason);
	/* The fallback still counts, exactly where the board does. */
	empty = region_syscall(set, 0, 0);
	if (expect_env("SELFMON_INEXACT") == 1) {
		EXPECT_GE(region_syscall(set, 0, 1000) - empty, 3000);
	} else {
		EXPECT_EQ(3000, region_syscall(set, 0, 1000) - empty);
	}
	selfmon_set__close(set);

	ASSERT_EQ(0, write_sysctl(USER_ACCESS, "1"));
	set = selfmon_set__open("instructions:u", NULL);
	ASSERT_NE(NULL, set);
	ASSERT_EQ(0, selfmon_set__enable(set));
	EXPECT_EQ(SELFMON_PATH_USER, selfmon_set__path(set, 0, &why)) TH_LOG("%s", selfmon_reason__str(why));
	ASSERT_EQ(0, selfmon_set__read(set, 0, &c));
	EXPECT_EQ(SELFMON_COUNT_USER, c.flags & SELFMON_COUNT_USER);
	selfmon_set__close(set);
}

/* 6 event counters + the cycle counter: 10 instruction events must take turns. */
#define MUX_EVENTS "instructions:u,instructions:u,instructions:u,instructions:u,instructions:u," \
		   "instructions:u,instructions:u,instructions:u,instructions:u,instructions:u"
#define MUX_NR 10

TEST(multiplexed_counters_fall_back_while_off_and_scale_within_one_percent)
{
	const uint64_t chunk = 200000, chunks = 500;	/* 3e8 instructions, ~75 rotations */
	struct selfmon_count c[MUX_NR];
	int64_t user = 0, fallback = 0;
	struct selfmon_set *set;

	OPEN_USER(set, MUX_EVENTS, NULL);
	for (uint64_t k = 0; k < chunks; k++) {
		loop3(chunk);
		ASSERT_EQ(0, selfmon_set__read_all(set, c));
		for (int i = 0; i < MUX_NR; i++) {
			if (c[i].flags & SELFMON_COUNT_USER)
				user++;
			else
				EXPECT_EQ(SELFMON_REASON_INDEX, c[i].reason);
		}
	}
	for (int i = 0; i < MUX_NR; i++)
		fallback += selfmon_set__fallbacks(set, i);
	TH_LOG("%lld reads by mrs, %lld fell back to read(2) (index 0)", (long long)user, (long long)fallback);
	EXPECT_GT(user, 0);
	EXPECT_GT(fallback, 0);
	EXPECT_EQ(chunks * MUX_NR, (uint64_t)(user + fallback));

	for (int i = 0; i < MUX_NR; i++) {
		const double truth = 3.0 * chunk * chunks;
		uint64_t scaled;

		EXPECT_EQ(1, selfmon_count__scale(&c[i], &scaled)) TH_LOG("event %d was never multiplexed", i);
		EXPECT_LT(c[i].running, c[i].enabled);
		EXPECT_LT(abs((int)(((double)scaled - truth) * 1000.0 / truth)), 10)
			TH_LOG("event %d: scaled %llu, true %.0f", i, (unsigned long long)scaled, truth);
	}
	selfmon_set__close(set);
}

/*
 * The same, each counter by selfmon_set__read(), which reads a page of a
 * fixed width by the short read (core/set.h, "width"): an event off its
 * counter (index 0) falls back to read(2), and one on its counter after
 * being multiplexed (time_enabled != time_running) takes the timed read,
 * whose times scale its count.
 */
TEST(selfmon_set_read_of_multiplexed_counters_falls_back_while_off_and_scales_within_one_percent)
{
	const uint64_t chunk = 200000, chunks = 500;
	struct selfmon_count c[MUX_NR];
	int64_t user = 0, timed = 0, fallback = 0;
	struct selfmon_set *set;

	OPEN_USER(set, MUX_EVENTS, NULL);
	for (uint64_t k = 0; k < chunks; k++) {
		loop3(chunk);
		for (int i = 0; i < MUX_NR; i++) {
			ASSERT_EQ(0, selfmon_set__read(set, i, &c[i]));
			if (!(c[i].flags & SELFMON_COUNT_USER)) {
				EXPECT_EQ(SELFMON_REASON_INDEX, c[i].reason);
				continue;
			}
			user++;
			timed += c[i].running < c[i].enabled;
		}
	}
	for (int i = 0; i < MUX_NR; i++)
		fallback += selfmon_set__fallbacks(set, i);
	TH_LOG("%lld reads by mrs (%lld of a multiplexed event, timed), %lld by read(2) (index 0)",
	       (long long)user, (long long)timed, (long long)fallback);
	EXPECT_GT(timed, 0);
	EXPECT_GT(fallback, 0);
	EXPECT_EQ(chunks * MUX_NR, (uint64_t)(user + fallback));
	for (int i = 0; i < MUX_NR; i++) {
		const double truth = 3.0 * chunk * chunks;
		uint64_t scaled;

		EXPECT_EQ(1, selfmon_count__scale(&c[i], &scaled)) TH_LOG("event %d was never multiplexed", i);
		EXPECT_LT(abs((int)(((double)scaled - truth) * 1000.0 / truth)), 10)
			TH_LOG("event %d: scaled %llu, true %.0f", i, (unsigned long long)scaled, truth);
	}
	selfmon_set__close(set);
}

TEST(an_event_that_has_not_run_yet_scales_to_enodata_not_a_division_by_zero)
{
	struct selfmon_count c[MUX_NR];
	struct selfmon_set *set;
	int never_ran = 0;

	OPEN_USER(set, MUX_EVENTS, NULL);
	/* Right after enable, the events past the 6 counters have not run. */
	ASSERT_EQ(0, selfmon_set__read_all(set, c));
	for (int i = 0; i < MUX_NR; i++) {
		uint64_t scaled = 1;

		if (c[i].running)
			continue;
		never_ran++;
		EXPECT_EQ(-ENODATA, selfmon_count__scale(&c[i], &scaled));
		EXPECT_EQ(0, scaled);
	}
	EXPECT_GT(never_ran, 0);
	selfmon_set__close(set);
}

struct worker {
	uint64_t n;
	int64_t measured;
	int err;
};

static void *worker_main(void *p)
{
	struct worker *w = p;
	struct selfmon_set *set = selfmon_set__open("instructions:u", NULL);
	const struct perf_event_mmap_page *pg;
	int64_t empty;

	if (!set || selfmon_set__enable(set)) {
		w->err = errno ? errno : EIO;
		return NULL;
	}
	pg = selfmon_set__page(set, 0);
	empty = region_user(pg, 0);
	w->measured = region_user(pg, w->n) - empty;
	selfmon_set__close(set);
	return NULL;
}

TEST(a_second_thread_counts_its_own_instructions_exactly)
{
	struct worker w = { .n = 300000 };
	const struct perf_event_mmap_page *pg;
	struct selfmon_set *set;
	pthread_t t;
	int64_t empty;

	EXACT_OR_SKIP();
	OPEN_USER(set, "instructions:u", NULL);
	pg = selfmon_set__page(set, 0);
	empty = region_user(pg, 0);
	ASSERT_EQ(0, pthread_create(&t, NULL, worker_main, &w));
	/* Both threads count while they share the one CPU. */
	EXPECT_EQ(3 * 200000, region_user(pg, 200000) - empty);
	ASSERT_EQ(0, pthread_join(t, NULL));
	ASSERT_EQ(0, w.err);
	EXPECT_EQ(3 * w.n, w.measured);
	selfmon_set__close(set);
}

TEST_HARNESS_MAIN
