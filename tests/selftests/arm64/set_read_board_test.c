// SPDX-License-Identifier: MIT
/*
 * The set's own reads on the arm64 board, exactly (QEMU -icount shift=0, one
 * CPU): what selfmon_set__read_all() costs a group of n, in user
 * instructions beside selfmon_set__read() and _read_raw() in the same run,
 * and that it reads every member exactly, at either counter width and at
 * mixed widths. The markers' own costs: marker_board_test.c.
 */
#include <stdint.h>

#include <selfmon/read.h>
#include <selfmon/selfmon.h>
#include "kselftest_harness.h"
#include "board.h"

#define NOPS(N3) __asm__ __volatile__(".rept " #N3 "\n\tnop\n\t.endr")

enum { READS = 1000 };
static volatile uint64_t sink;

#define PER_CALL(x) (long long)((x) / READS), (long long)((x) % READS)

static __attribute__((noinline)) void loop_read_all(void *arg, int n)
{
	struct selfmon_count c[6] = { 0 };
	uint64_t sum = 0;

	for (int i = 0; i < n; i++) {
		selfmon_set__read_all(arg, c);
		sum += c[0].value;
	}
	sink = sum;
}

static __attribute__((noinline)) void loop_read(void *arg, int n)
{
	struct selfmon_count c = { 0 };
	uint64_t sum = 0;

	for (int i = 0; i < n; i++) {
		selfmon_set__read(arg, 0, &c);
		sum += c.value;
	}
	sink = sum;
}

static __attribute__((noinline)) void loop_read_raw(void *arg, int n)
{
	struct selfmon_count c = { 0 };
	uint64_t sum = 0;

	for (int i = 0; i < n; i++) {
		selfmon_set__read_raw(arg, 0, &c);
		sum += c.value;
	}
	sink = sum;
}

static __attribute__((noinline)) void loop_set_empty(void *arg, int n)
{
	struct selfmon_count c = { 0 };
	uint64_t sum = 0;

	for (int i = 0; i < n; i++) {
		__asm__ __volatile__("" : : "r"(arg), "r"(&c) : "memory");
		sum += c.value;
	}
	sink = sum;
}

/* Instructions per read of @set by @fn, times READS: each loop's minimum of five (board.h). */
static int64_t cost_x1000(struct selfmon_set *set, void (*fn)(void *, int))
{
	return metered_cost(selfmon_set__page(set, 0), fn, loop_set_empty, set, READS);
}

/* 1 when every counter of @set has a page of the same pmc_width: read_all's short path. */
static int one_width(struct selfmon_set *set)
{
	for (int i = 1; i < selfmon_set__nr(set); i++)
		if (selfmon_set__page(set, i)->pmc_width != selfmon_set__page(set, 0)->pmc_width)
			return 0;
	return 1;
}

/*
 * read_all's cost: at most 25n + 25 user instructions for a group of n,
 * whether its counters share one width (the short read of read.h: always
 * with 32-bit counters, and at 64 bits where the PMU grants them all, as
 * -cpu max does) or not (cortex-a72: 32-bit event counters beside the
 * 64-bit cycle counter, each member then sign-extended by its own shift).
 * read_raw no more than read.
 */
TEST(read_all_of_a_group_of_n_costs_at_most_25n_plus_25_and_read_raw_no_more_than_read)
{
	static const char *const groups[] = {
		"{instructions:u}", "{instructions:u,cycles:u}",
		"{instructions:u,cycles:u,instructions:u,instructions:u,instructions:u,instructions:u}",
	};
	static const int sizes[] = { 1, 2, 6 };

	EXACT_USER_OR_SKIP();
	for (int k = 0; k < 6; k++) {
		struct selfmon_opts o = { .sz = sizeof(o), .no_long = k & 1 };
		int g = k / 2, n = sizes[g], budget;
		struct selfmon_set *set;
		int64_t x, r, w;

		OPEN_USER(set, groups[g], &o);
		budget = 25 * n + 25;
		x = cost_x1000(set, loop_read_all);
		r = cost_x1000(set, loop_read);
		w = cost_x1000(set, loop_read_raw);
		TH_LOG("group of %d, %s: selfmon_set__read_all %lld.%03lld user instructions (budget %d); "
		       "selfmon_set__read %lld.%03lld, selfmon_set__read_raw %lld.%03lld", n,
		       !one_width(set) ? "mixed widths" : o.no_long ? "32-bit counters" : "64-bit counters asked",
		       PER_CALL(x), budget, PER_CALL(r), PER_CALL(w));
		EXPECT_LE(x, budget * READS) TH_LOG("group of %d", n);
		EXPECT_LE(w, r);
		for (int i = 0; i < n; i++)
			EXPECT_EQ(0, selfmon_set__fallbacks(set, i));
		selfmon_set__close(set);
	}
}

/*
 * The short read of a group is exact: around 3000 known instructions each
 * member of {instructions:u x3} moves by the same count (the code between a
 * member's two reads is the same for all), at 64 bits and at 32 (no_long,
 * sign-extended), with the leader's times and no read(2).
 */
TEST(read_all_of_one_group_reads_every_member_exactly_at_either_counter_width)
{
	for (int no_long = 0; no_long < 2; no_long++) {
		struct selfmon_opts o = { .sz = sizeof(o), .no_long = no_long };
		struct selfmon_count a[3], b[3];
		struct selfmon_set *set;
		int64_t d[3] = { 0 };
		int same = 0;

		EXACT_USER_OR_SKIP();
		OPEN_USER(set, "{instructions:u,instructions:u,instructions:u}", &o);
		if (no_long)
			ASSERT_EQ(32, selfmon_set__page(set, 1)->pmc_width);
		/* A read that the kernel's page update made retry adds; a clean try shows the rule. */
		for (int k = 0; k < 5 && !same; k++) {
			ASSERT_EQ(0, selfmon_set__read_all(set, a));
			NOPS(3000);
			ASSERT_EQ(0, selfmon_set__read_all(set, b));
			for (int i = 0; i < 3; i++)
				d[i] = (int64_t)(b[i].value - a[i].value);
			same = d[0] == d[1] && d[1] == d[2];
		}
		EXPECT_TRUE(same) TH_LOG("width %d: %lld %lld %lld", no_long ? 32 : 64, (long long)d[0],
					 (long long)d[1], (long long)d[2]);
		EXPECT_TRUE(d[0] >= 3000 && d[0] < 3200) TH_LOG("%lld", (long long)d[0]);
		for (int i = 0; i < 3; i++) {
			EXPECT_EQ(b[0].enabled, b[i].enabled);
			EXPECT_EQ(b[0].running, b[i].running);
			EXPECT_TRUE(b[i].flags & SELFMON_COUNT_USER);
			EXPECT_EQ(0, selfmon_set__fallbacks(set, i));
		}
		TH_LOG("read_all of a group of 3, %d-bit counters: %lld instructions between two reads of 3000 nops",
		       no_long ? 32 : 64, (long long)d[0]);
		selfmon_set__close(set);
	}
}

/*
 * A group of mixed widths (cortex-a72: the 64-bit cycle counter between two
 * 32-bit event counters; -cpu max grants 64 bits to all three) reads by
 * read_all what read(2) reads right after it, each member at its own width.
 * The kernel starts a counting event's counter at half its range, top bit
 * set (drivers/perf/arm_pmu.c, armpmu_event_set_period), so a member read
 * at the other width would be 2^32 or more off.
 */
TEST(read_all_of_a_group_of_mixed_widths_reads_what_read_2_reads_after_it)
{
	struct selfmon_count a[3], k[3];
	struct selfmon_set *set;

	EXACT_USER_OR_SKIP();
	OPEN_USER(set, "{instructions:u,cycles:u,instructions:u}", NULL);
	ASSERT_EQ(0, selfmon_set__read_all(set, a));
	for (int i = 0; i < 3; i++)
		EXPECT_EQ(0, selfmon_set__fallbacks(set, i)); /* read_all took no read(2) */
	/* The group's read(2), which selfmon counts as each member's fallback. */
	ASSERT_EQ(0, selfmon_set__read_group(set, 0, k));
	for (int i = 0; i < 3; i++) {
		int64_t d = (int64_t)(k[i].value - a[i].value);

		EXPECT_TRUE(d >= 0 && d < 1000) TH_LOG("member %d, %u bits: read_all %llu, read(2) %llu", i,
						     selfmon_set__page(set, i)->pmc_width,
						     (unsigned long long)a[i].value,
						     (unsigned long long)k[i].value);
		EXPECT_TRUE(a[i].flags & SELFMON_COUNT_USER);
	}
	TH_LOG("widths %u, %u, %u: read(2) after read_all by %lld, %lld, %lld",
	       selfmon_set__page(set, 0)->pmc_width, selfmon_set__page(set, 1)->pmc_width,
	       selfmon_set__page(set, 2)->pmc_width, (long long)(k[0].value - a[0].value),
	       (long long)(k[1].value - a[1].value), (long long)(k[2].value - a[2].value));
	selfmon_set__close(set);
}

TEST_HARNESS_MAIN
