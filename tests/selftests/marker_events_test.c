// SPDX-License-Identifier: MIT
/*
 * Which events the markers count: the default, which task-clock replaces
 * where no core PMU counts it (said), and events named in SELFMON_EVENTS,
 * which are counted as named or not at all (markers off, said, no report).
 * The cases need a machine where the default's hardware events do not
 * open (a VM without a PMU); elsewhere they skip.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <selfmon/marker.h>
#include <selfmon/selfmon.h>
#include "kselftest_harness.h"
#include "marker_run.h"

static int scenario_pairs(void)
{
	for (int i = 0; i < 10; i++) {
		SELFMON_MARKER_BEGIN("cached");
		work(1000);
		SELFMON_MARKER_END("cached");
		selfmon_marker__begin("by name");
		work(1000);
		selfmon_marker__end("by name");
	}
	return 0;
}

/* 1 when this machine counts the default's events (then there is nothing to replace). */
static int hardware_opens(void)
{
	struct selfmon_set *s = selfmon_set__open("{instructions:u,cycles:u}", NULL);

	selfmon_set__close(s);
	return s != NULL;
}

TEST(explicit_events_that_cannot_open_turn_markers_off_and_are_never_replaced_by_task_clock)
{
	struct run r;

	if (hardware_opens())
		SKIP(return, "instructions:u and cycles:u open here: nothing fails to open");
	run_child(scenario_pairs, "{instructions:u,cycles:u}", "-", &r);
	ASSERT_TRUE(WIFEXITED(r.status));
	EXPECT_EQ(0, WEXITSTATUS(r.status)) TH_LOG("the program runs on");
	ASSERT_NE(NULL, r.err);
	EXPECT_NE(NULL, strstr(r.err, "cannot count SELFMON_EVENTS='{instructions:u,cycles:u}': "))
		TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "Fix: name events this machine has")) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "markers are off")) TH_LOG("%s", r.err);
	EXPECT_EQ(NULL, strstr(r.err, "counting task-clock")) TH_LOG("%s", r.err);
	EXPECT_EQ(1, count_lines(r.err, "selfmon: markers:")) TH_LOG("said once: %s", r.err);
	EXPECT_EQ(NULL, r.report) TH_LOG("no report of other events: %s", r.report);
	run_free(&r);
}

TEST(the_default_events_fall_back_to_task_clock_with_a_note_in_the_report)
{
	const struct util_json *ctx;
	struct util_json root = { 0 };
	char err[128];
	struct run r;

	if (hardware_opens())
		SKIP(return, "instructions:u and cycles:u open here: the default is counted as it is");
	run_child(scenario_pairs, NULL, "-", &r);
	ASSERT_NE(NULL, r.err);
	EXPECT_EQ(1, count_lines(r.err, "no core PMU counts {instructions:u,cycles:u} here"))
		TH_LOG("%s", r.err);
	ASSERT_NE(NULL, r.report) TH_LOG("%s", r.err);
	ASSERT_EQ(0, json_parse(r.report, &root, err, sizeof(err))) TH_LOG("%s", err);
	ctx = util_json_get(&root, "context");
	ASSERT_NE(NULL, ctx);
	EXPECT_STREQ("task-clock", util_json_str(ctx, "selfmon_events"));
	EXPECT_NE(NULL, strstr(util_json_str(ctx, "selfmon_note"), "counting task-clock"));
	EXPECT_EQ(10, num(json_bench(&root, "by name"), "iterations")) TH_LOG("%s", r.report);
	util_json_free(&root);
	run_free(&r);
}

TEST_HARNESS_MAIN
