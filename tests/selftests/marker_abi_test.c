// SPDX-License-Identifier: MIT
/*
 * The layout the inline pair reads (SELFMON_ABI_LAYOUT, docs/abi.md): code
 * built against another layout than the library's reaches it through
 * selfmon_priv_marker_prepare() with its own, and the library does its pairs
 * itself, says so once, and counts them as any other.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <selfmon/marker.h>
#include "kselftest_harness.h"
#include "marker_run.h"

/*
 * The inline begin of code built against the next layout, by hand: the
 * library must not hand it this layout's slots (a NULL thread: it began
 * the pair), and the end goes to the library as the compatibility
 * variable's refusing pages send it.
 */
static int scenario_other_layout(void)
{
	static struct selfmon_marker_site site = { (struct selfmon_marker *)&site, -1, "other layout" };

	for (int i = 0; i < 3; i++) {
		struct selfmon_priv_marker_ready r =
			selfmon_priv_marker_prepare((struct selfmon_marker *)&site, SELFMON_ABI_LAYOUT + 1);

		if (r.t)
			return 9;
		selfmon_priv_marker_finish(site.marker, 0, 0, 0, 0);
	}
	SELFMON_MARKER_BEGIN("this layout");
	work(10);
	SELFMON_MARKER_END("this layout");
	return 0;
}

TEST(code_of_another_layout_takes_the_library_path_said_once_and_its_pairs_count)
{
	struct util_json root = { 0 };
	char err[128], want[160];
	struct run r;

	run_child(scenario_other_layout, "task-clock", "-", &r);
	ASSERT_TRUE(WIFEXITED(r.status));
	EXPECT_EQ(0, WEXITSTATUS(r.status)) TH_LOG("9: the library gave its slots to another layout");
	ASSERT_NE(NULL, r.err);
	snprintf(want, sizeof(want), "code built against layout %d of <selfmon/marker.h>, this library has layout %d",
		 SELFMON_ABI_LAYOUT + 1, SELFMON_ABI_LAYOUT);
	EXPECT_EQ(1, count_lines(r.err, want)) TH_LOG("%s", r.err);
	ASSERT_NE(NULL, r.report) TH_LOG("%s", r.err);
	ASSERT_EQ(0, json_parse(r.report, &root, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(3, num(json_bench(&root, "other layout"), "iterations")) TH_LOG("%s", r.report);
	EXPECT_EQ(1, num(json_bench(&root, "this layout"), "iterations")) TH_LOG("%s", r.report);
	util_json_free(&root);
	run_free(&r);
}

TEST_HARNESS_MAIN
