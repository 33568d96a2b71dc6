// SPDX-License-Identifier: MIT
/*
 * Budgets on the board (<selfmon/kselftest.h>), where instructions:u is read
 * by mrs and counted exactly (QEMU -icount shift=0, one CPU): the assertion
 * passes at the count it measured and fails one instruction under it, in
 * both forms; the empty measurement is subtracted, so the loop's cost is
 * what a longer loop adds exactly; the failure message names the mrs path
 * and the minimum of the repetitions. (The file is not called budget_test.c:
 * the bundle's bin/ is flat, and the portable budget_test is there already.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include <selfmon/kselftest.h>
#include "board.h"
#include "../child.h"

#define EVENT "instructions:u"

static __attribute__((noinline)) void loop3_call(uint64_t n)
{
	loop3(n);
}

/* Where the board is declared exact and readable, nothing may skip. */
#define BOARD_OR_SKIP()								\
	do {									\
		EXACT_OR_SKIP();						\
		if (read_sysctl(USER_ACCESS) != 1)				\
			SKIP(return, "kernel.perf_user_access is not 1 (run as root through run_tests.sh)"); \
	} while (0)

TEST(the_empty_measurement_is_subtracted_so_a_longer_loop_adds_exactly_its_instructions)
{
	struct selfmon_measure m100, m200;

	BOARD_OR_SKIP();
	SELFMON_MEASURE(m100, EVENT, loop3_call(100));
	SELFMON_MEASURE(m200, EVENT, loop3_call(200));
	ASSERT_EQ(0, m100.err) TH_LOG("%s", m100.why);
	ASSERT_EQ(0, m200.err) TH_LOG("%s", m200.why);
	EXPECT_EQ(SELFMON_PATH_USER, m100.path) TH_LOG("%s", selfmon_reason__str(m100.reason));
	EXPECT_EQ(1, m100.min_of_reps);
	EXPECT_EQ(300, m200.value - m100.value);
	/* the loop's 1 + 3n, and the call around it: mov, bl, ret */
	EXPECT_LE(301, m100.value);
	EXPECT_GE(301 + 8, m100.value);
	EXPECT_LT(0, m100.overhead);
	TH_LOG("loop3_call(100): %.0f instructions, %.0f with the reads (overhead %.0f subtracted)",
	       m100.value, m100.raw, m100.overhead);
}

struct child_arg {
	struct __test_metadata *md;
	double budget;
	int within;
};

static void child_assert(struct __test_metadata *_metadata, const struct child_arg *a)
{
	if (a->within)
		SELFMON_ASSERT_WITHIN(EVENT, a->budget, 0, loop3_call(100));
	else
		SELFMON_ASSERT_BUDGET(EVENT, a->budget, loop3_call(100));
}

/* A failure ends the child (abort); a skip exits 42, a pass 0. */
static int child(void *p)
{
	struct child_arg *a = p;

	/* SKIP() leaves its reason there, in the 6.1 and the 6.12 harness alike. */
	a->md->results->reason[0] = '\0';
	child_assert(a->md, a);
	return a->md->results->reason[0] ? 42 : 0;
}

static double measured_in(const char *out)
{
	const char *p = strstr(out, ": measured ");

	return p ? strtod(p + strlen(": measured "), NULL) : -1;
}

static void pass_at_the_count_fail_one_under(struct __test_metadata *_metadata, int within)
{
	struct child_arg a = { _metadata, 0, within };
	char out[8192];
	double n;
	int st;

	/* One expansion measures, passes and fails: budget 0 prints the count. */
	st = run_child(child, &a, out, sizeof(out));
	ASSERT_FALSE(WIFEXITED(st) && (WEXITSTATUS(st) == 0 || WEXITSTATUS(st) == 42)) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "read path user space (arm64)")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "minimum of 5 repetitions")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "overhead subtracted ")) TH_LOG("%s", out);
	n = measured_in(out);
	ASSERT_LT(300, n) TH_LOG("%s", out);

	a.budget = n;
	st = run_child(child, &a, out, sizeof(out));
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) TH_LOG("budget %.0f: status %#x: %s", n, st, out);

	a.budget = n - 1;
	st = run_child(child, &a, out, sizeof(out));
	EXPECT_FALSE(WIFEXITED(st) && (WEXITSTATUS(st) == 0 || WEXITSTATUS(st) == 42)) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, within ? "within 0%" : "budget <= ")) TH_LOG("%s", out);
	TH_LOG("%s: passes at %.0f, fails at %.0f: %s", within ? "within 0%" : "<=", n, n - 1,
	       strstr(out, EVENT ": measured") ? strstr(out, EVENT ": measured") : out);
}

TEST(the_budget_assertion_passes_at_the_measured_count_and_fails_one_instruction_under)
{
	BOARD_OR_SKIP();
	pass_at_the_count_fail_one_under(_metadata, 0);
}

TEST(the_within_assertion_passes_at_the_measured_count_and_fails_one_instruction_off)
{
	BOARD_OR_SKIP();
	pass_at_the_count_fail_one_under(_metadata, 1);
}

TEST_HARNESS_MAIN
