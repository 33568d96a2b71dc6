// SPDX-License-Identifier: MIT
/*
 * Where perf_event_open(2) itself is missing -- qemu-user, a container's
 * seccomp profile, a kernel without CONFIG_PERF_EVENTS -- every event fails
 * with ENOSYS, software ones too. The library and `selfmon probe` say so,
 * rather than blame the read path. The tests install a seccomp filter that
 * returns ENOSYS for the call (seccomp_enosys.h) in a child, so the runner
 * keeps its own perf_event_open.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <selfmon/selfmon.h>
#include "child.h"
#include "json_check.h"
#include "seccomp_enosys.h"
#include "kselftest_harness.h"

#define ENOSYS_MSG                                                                    \
	"perf_event_open is not available here (ENOSYS: qemu-user, a seccomp filter, " \
	"or a kernel without CONFIG_PERF_EVENTS)"

/* In the child: a software event under the filter; its errno and message, printed. */
static int open_task_clock(void *arg)
{
	struct selfmon_set *set;
	int err;

	(void)arg;
	err = seccomp_enosys_perf();
	if (err) {
		printf("no seccomp filter: %s\n", strerror(-err));
		return 3;
	}
	set = selfmon_set__open("task-clock", NULL);
	if (set) {
		printf("task-clock opened\n");
		return 4;
	}
	printf("errno %d: %s\n", errno, selfmon_errmsg());
	return 0;
}

/* In the child: the CLI; @arg is its argument vector. */
static int exec_cli(void *arg)
{
	char **argv = arg;

	execv(argv[0], argv);
	printf("exec %s: %s\n", argv[0], strerror(errno));
	return 5;
}

/* In the child: the CLI under the filter. */
static int exec_cli_enosys(void *arg)
{
	int err = seccomp_enosys_perf();

	if (err) {
		printf("no seccomp filter: %s\n", strerror(-err));
		return 3;
	}
	return exec_cli(arg);
}

TEST(an_event_refused_with_enosys_names_perf_event_open_as_missing_and_the_likely_causes)
{
	char out[4096], want[64];
	int status = run_child(open_task_clock, NULL, out, sizeof(out));

	ASSERT_TRUE(WIFEXITED(status)) TH_LOG("%s", out);
	if (WEXITSTATUS(status) == 3)
		SKIP(return, "%.200s", out);
	ASSERT_EQ(0, WEXITSTATUS(status)) TH_LOG("%s", out);
	snprintf(want, sizeof(want), "errno %d: ", ENOSYS);
	EXPECT_NE(NULL, strstr(out, want)) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "event 'task-clock': " ENOSYS_MSG)) TH_LOG("%s", out);
}

TEST(probe_where_perf_event_open_returns_enosys_says_it_is_not_available_and_exits_1)
{
	char out[16384];
	char *argv[] = { (char *)selfmon_cli(), "probe", NULL };
	int status;

	if (!argv[0])
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	status = run_child(exec_cli_enosys, argv, out, sizeof(out));
	ASSERT_TRUE(WIFEXITED(status)) TH_LOG("%s", out);
	if (WEXITSTATUS(status) == 3)
		SKIP(return, "%.200s", out);
	/* Exit status 1: no user-space reads (docs/man/selfmon-probe.1). */
	EXPECT_EQ(1, WEXITSTATUS(status)) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "verdict: " ENOSYS_MSG "\n")) TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "every read takes read(2)")) TH_LOG("%s", out);
	/* Each event says why, software ones included. */
	EXPECT_NE(NULL, strstr(out, "event 'task-clock': " ENOSYS_MSG)) TH_LOG("%s", out);
}

TEST(probe_json_where_perf_event_open_returns_enosys_has_perf_event_open_false)
{
	char out[32768], err[160];
	char *argv[] = { (char *)selfmon_cli(), "probe", "--json", NULL };
	struct util_json root;
	const struct util_json *v;
	int status;

	if (!argv[0])
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	status = run_child(exec_cli_enosys, argv, out, sizeof(out));
	ASSERT_TRUE(WIFEXITED(status)) TH_LOG("%s", out);
	if (WEXITSTATUS(status) == 3)
		SKIP(return, "%.200s", out);
	EXPECT_EQ(1, WEXITSTATUS(status)) TH_LOG("%s", out);
	ASSERT_EQ(0, json_parse(out, &root, err, sizeof(err))) TH_LOG("%s: %s", err, out);
	v = util_json_get(&root, "perf_event_open");
	ASSERT_NE(NULL, v) TH_LOG("%s", out);
	EXPECT_EQ(UTIL_JSON_FALSE, v->type) TH_LOG("%s", out);
	util_json_free(&root);
}

TEST(probe_json_where_perf_event_open_works_has_perf_event_open_true)
{
	char out[32768], err[160];
	char *argv[] = { (char *)selfmon_cli(), "probe", "--json", NULL };
	struct util_json root;
	const struct util_json *v;
	int status;

	if (!argv[0])
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	status = run_child(exec_cli, argv, out, sizeof(out));
	ASSERT_TRUE(WIFEXITED(status)) TH_LOG("%s", out);
	ASSERT_EQ(0, json_parse(out, &root, err, sizeof(err))) TH_LOG("%s: %s", err, out);
	v = util_json_get(&root, "perf_event_open");
	ASSERT_NE(NULL, v) TH_LOG("%s", out);
	EXPECT_EQ(UTIL_JSON_TRUE, v->type) TH_LOG("%s", out);
	util_json_free(&root);
}

TEST_HARNESS_MAIN
