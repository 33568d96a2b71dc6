// SPDX-License-Identifier: MIT
/*
 * SELFMON_MARKER_SCOPE() on the running kernel (task-clock): the region
 * ends at every way out of its block. A scope that did not end would make
 * the next entry a nested begin of an open region, which counts no call:
 * so each region's calls are the entries of its block, and no pair is left
 * open. Exact counts on the board: tests/selftests/arm64/marker_exact_test.c.
 */
#include <stdlib.h>
#include <string.h>

#include <selfmon/marker.h>
#include "kselftest_harness.h"
#include "json_check.h"
#include "marker_run.h"

static __attribute__((noinline)) int leave_by_return(int i)
{
	SELFMON_MARKER_SCOPE("by return");
	if (i & 1)
		return i;
	work(100);
	return 0;
}

static __attribute__((noinline)) void leave_by_goto(int i)
{
	{
		SELFMON_MARKER_SCOPE("by goto");
		if (i & 1)
			goto out;
		work(100);
	}
out:
	work(1);
}

/* Every way out, each entered a known number of times; then a pair of the same name as a scope. */
static int scenario_every_exit(void)
{
	for (int i = 0; i < 4; i++)
		leave_by_return(i);
	for (int i = 0; i < 10; i++) {
		SELFMON_MARKER_SCOPE("by break");
		if (i == 2)
			break;
		work(100);
	}
	for (int i = 0; i < 4; i++) {
		SELFMON_MARKER_SCOPE("by continue");
		if (i & 1)
			continue;
		work(100);
	}
	for (int i = 0; i < 3; i++)
		leave_by_goto(i);
	for (int i = 0; i < 5; i++) {
		SELFMON_MARKER_SCOPE("block end");
		work(100);
	}
	/* A scope and a pair of one region: one region, their calls added. */
	for (int i = 0; i < 2; i++) {
		SELFMON_MARKER_SCOPE("scope and pair");
		work(100);
	}
	SELFMON_MARKER_BEGIN("scope and pair");
	SELFMON_MARKER_END("scope and pair");
	return 0;
}

TEST(a_scope_ends_its_region_at_return_break_continue_goto_and_the_block_end)
{
	static const struct {
		const char *region;
		int calls;
	} want[] = {
		{ "by return", 4 }, { "by break", 3 },	{ "by continue", 4 },
		{ "by goto", 3 },   { "block end", 5 }, { "scope and pair", 3 },
	};
	struct util_json root = { 0 };
	char err[128];
	struct run r;

	run_child(scenario_every_exit, "task-clock", "-", &r);
	ASSERT_TRUE(WIFEXITED(r.status));
	EXPECT_EQ(0, WEXITSTATUS(r.status));
	ASSERT_NE(NULL, r.err);
	EXPECT_EQ(0, count_lines(r.err, "without a begin")) TH_LOG("stderr: %s", r.err);
	ASSERT_NE(NULL, r.report);
	EXPECT_EQ(1, count_lines(r.report, "open pairs (a begin without its end yet): 0\""))
	TH_LOG("%s", r.report);
	ASSERT_EQ(0, json_parse(r.report, &root, err, sizeof(err))) TH_LOG("%s", err);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const char *region = want[i].region;

		EXPECT_EQ(want[i].calls, num(json_bench(&root, region), "iterations"))
		TH_LOG("region '%s'", region);
	}
	util_json_free(&root);
	run_free(&r);
}

static int scenario_off(void)
{
	for (int i = 0; i < 3; i++) {
		SELFMON_MARKER_SCOPE("off");
		if (i == 1)
			break;
	}
	return 5;
}

TEST(a_scope_with_markers_off_runs_silently)
{
	struct run r;

	run_child(scenario_off, "", "-", &r);
	ASSERT_TRUE(WIFEXITED(r.status));
	EXPECT_EQ(5, WEXITSTATUS(r.status));
	EXPECT_EQ(NULL, r.report);
	ASSERT_NE(NULL, r.err);
	EXPECT_STREQ("", r.err);
	run_free(&r);
}

TEST_HARNESS_MAIN
