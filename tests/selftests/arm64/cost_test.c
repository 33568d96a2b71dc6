// SPDX-License-Identifier: MIT
/*
 * What the inline read and selfmon_set__read() cost on the arm64 board, in
 * user instructions, exactly (QEMU -icount shift=0, one CPU): the read
 * budgets. Built only for arm64; on a board that counts inexactly (several
 * vCPUs) the tests SKIP.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <selfmon/read.h>
#include <selfmon/selfmon.h>
#include "kselftest_harness.h"
#include "board.h"

/*
 * What one read costs, in user instructions, exactly: a loop of n reads and
 * the same loop with an empty asm in place of the read, each run for n and
 * 2n iterations and counted by the inline read of a meter counter. The
 * difference d(2n) - d(n) cancels every fixed cost (calls, the meter's own
 * reads), and the reads' loop minus the empty loop leaves n reads exactly.
 * Both loops add a value to a sum that reaches a volatile sink, so the
 * compiler keeps the same loop around the read.
 */
enum { READS = 1000 };
static volatile uint64_t sink;

static __attribute__((noinline)) void loop_reads(void *arg, int n)
{
	const struct perf_event_mmap_page *pg = arg;
	uint64_t v, sum = 0;

	for (int i = 0; i < n; i++) {
		if (selfmon_page__read_value(pg, &v))
			v = 0;
		sum += v;
	}
	sink = sum;
}

static __attribute__((noinline)) void loop_empty(void *arg, int n)
{
	const struct perf_event_mmap_page *pg = arg;
	uint64_t v, sum = 0;

	for (int i = 0; i < n; i++) {
		__asm__ __volatile__("" : "=r"(v) : "r"(pg));
		sum += v;
	}
	sink = sum;
}

static __attribute__((noinline)) void loop_set_reads(void *arg, int n)
{
	struct selfmon_set *set = arg;
	struct selfmon_count c = { 0 };
	uint64_t sum = 0;

	for (int i = 0; i < n; i++) {
		selfmon_set__read(set, 0, &c);
		sum += c.value;
	}
	sink = sum;
}

static __attribute__((noinline)) void loop_set_empty(void *arg, int n)
{
	struct selfmon_set *set = arg;
	struct selfmon_count c = { 0 };
	uint64_t sum = 0;

	for (int i = 0; i < n; i++) {
		/* The call's result is loaded from memory: so is this one. */
		__asm__ __volatile__("" : : "r"(set), "r"(&c) : "memory");
		sum += c.value;
	}
	sink = sum;
}

/* Instructions per read of @pg, times READS (exact: it must divide); board.h's metered_cost(). */
static int64_t read_cost_x1000(const struct perf_event_mmap_page *meter, const struct perf_event_mmap_page *pg)
{
	return metered_cost(meter, loop_reads, loop_empty, (void *)pg, READS);
}

/*
 * The event counters this board has (PMCR_EL0.N, which EL0 cannot read): one
 * instructions:u event more at a time until one finds no counter right after
 * enable (index 0; the kernel rotates only at its next multiplexing tick).
 */
static int event_counters(void)
{
	char ev[31 * 16] = "";

	for (int n = 1; n <= 31; n++) {
		struct selfmon_set *set;
		int off = 0;

		strcat(ev, n > 1 ? ",instructions:u" : "instructions:u");
		set = selfmon_set__open(ev, NULL);
		if (!set || selfmon_set__enable(set)) {
			selfmon_set__close(set);
			return -1;
		}
		for (int i = 0; i < n; i++)
			off += selfmon_set__page(set, i) && selfmon_set__page(set, i)->index == 0;
		selfmon_set__close(set);
		if (off)
			return n - 1;
	}
	return 31;
}

/*
 * The inline read's budget: it costs at most 16 user instructions at
 * every page index, 1..31 and 32 (PMCCNTR_EL0). Every counter this board has
 * is occupied (cycles:u on the cycle counter, instructions:u on each event
 * counter) and measured; each must cost the same, as the arm64 dispatch's
 * shape says (equal mrs blocks, arch/arm64/include/selfmon/arch.h), so the
 * indices no board here reaches cost what these do. Each counter also
 * measures a known region exactly: its block reads its own register.
 */
TEST(an_inline_read_costs_at_most_16_instructions_at_every_counter_index)
{
	const struct perf_event_mmap_page *meter = NULL;
	int64_t cost[33] = { 0 }, first = -1;
	int n, seen = 0, first_idx = 0;
	struct selfmon_set *set;
	char ev[32 * 16] = "cycles:u";

	EXACT_OR_SKIP();
	if (read_sysctl(USER_ACCESS) != 1)
		SKIP(return, "kernel.perf_user_access is not 1 (run as root through run_tests.sh)");
	n = event_counters();
	ASSERT_GT(n, 0) TH_LOG("no event counter took an instructions:u event");
	TH_LOG("%d event counters and the cycle counter", n);
	for (int i = 0; i < n; i++)
		strcat(ev, ",instructions:u");
	OPEN_USER(set, ev, NULL);
	for (int i = 0; i <= n; i++) {
		const struct perf_event_mmap_page *pg = selfmon_set__page(set, i);

		ASSERT_NE(NULL, pg);
		ASSERT_GT(pg->index, 0) TH_LOG("%s (event %d) is on no counter", selfmon_set__name(set, i), i);
		ASSERT_LE(pg->index, 32);
		ASSERT_EQ(0, cost[pg->index]) TH_LOG("two events on index %u", pg->index);
		cost[pg->index] = -1;
		if (pg->index == 1)
			meter = pg;
	}
	/* cycles:u on PMCCNTR_EL0, and the n instructions:u on indices 1..n. */
	EXPECT_EQ(32, selfmon_set__page(set, 0)->index);
	ASSERT_NE(NULL, meter);
	for (int i = 0; i <= n; i++) {
		const struct perf_event_mmap_page *pg = selfmon_set__page(set, i);
		int64_t x = read_cost_x1000(meter, pg), empty = region_user(pg, 0);
		char reg[24];

		ASSERT_GE(x, 0) TH_LOG("a meter read fell back");
		cost[pg->index] = x;
		if (pg->index == 32)
			snprintf(reg, sizeof(reg), "PMCCNTR_EL0");
		else
			snprintf(reg, sizeof(reg), "PMEVCNTR%u_EL0", pg->index - 1);
		TH_LOG("index %u (%s): %lld.%03lld user instructions per inline read", pg->index, reg,
		       (long long)(x / READS), (long long)(x % READS));
		EXPECT_EQ(0, x % READS) TH_LOG("index %u: not a whole number of instructions", pg->index);
		EXPECT_LE(x, 16 * READS) TH_LOG("index %u over budget", pg->index);
		if (first < 0) {
			first = x;
			first_idx = (int)pg->index;
		}
		EXPECT_EQ(first, x) TH_LOG("index %u costs other than index %d", pg->index, first_idx);
		/* Under -icount shift=0 a cycle is an instruction: both counters give 3n. */
		EXPECT_EQ(3 * 100000, region_user(pg, 100000) - empty) TH_LOG("index %u", pg->index);
		seen++;
	}
	EXPECT_EQ(n + 1, seen);
	selfmon_set__close(set);
}

/*
 * The budget of the public read: selfmon_set__read() (the page,
 * checks and the reset baseline, through a call) costs at most 40 user
 * instructions, the loop's call included: 39 on -cpu max (a 64-bit
 * counter), 40 on cortex-a72 (a 32-bit one: one test of the slot's width
 * more). Measured as the inline reads are, with the counter's own page as
 * the meter.
 */
TEST(selfmon_set_read_costs_at_most_40_user_instructions)
{
	const struct perf_event_mmap_page *pg;
	struct selfmon_set *set;
	int64_t r1, r2, e1, e2, x;

	EXACT_OR_SKIP();
	OPEN_USER(set, "instructions:u", NULL);
	pg = selfmon_set__page(set, 0);
	ASSERT_NE(NULL, pg);
	r1 = metered(pg, loop_set_reads, set, READS);
	r2 = metered(pg, loop_set_reads, set, 2 * READS);
	e1 = metered(pg, loop_set_empty, set, READS);
	e2 = metered(pg, loop_set_empty, set, 2 * READS);
	ASSERT_TRUE(r1 >= 0 && r2 >= 0 && e1 >= 0 && e2 >= 0) TH_LOG("a meter read fell back");
	x = (r2 - r1) - (e2 - e1);
	TH_LOG("selfmon_set__read: %lld.%03lld user instructions per call", (long long)(x / READS),
	       (long long)(x % READS));
	EXPECT_EQ(0, selfmon_set__fallbacks(set, 0));
	EXPECT_LE(x, 40 * READS);
	selfmon_set__close(set);
}

TEST_HARNESS_MAIN
