// SPDX-License-Identifier: MIT
/*
 * A user's own benchmark, through the public API only: selfmon_bench__run()
 * measures a body, <selfmon/report.h> writes the JSON of `selfmon bench`,
 * and `selfmon compare` reads it (linked as a user links libselfmon.a).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <selfmon/bench.h>
#include <selfmon/report.h>
#include "json_check.h"
#include "kselftest_harness.h"

static void body(void *arg, uint64_t iters)
{
	volatile uint64_t *x = arg;

	for (uint64_t i = 0; i < iters; i++)
		*x += i;
}

TEST(a_users_benchmark_writes_the_bench_json_that_compare_reads)
{
	struct selfmon_bench_opts o = { .sz = sizeof(o), .repetitions = 9, .iterations = 1000,
					.keep_noisy = 1 };
	struct selfmon_report_context ctx = { 0 };
	struct selfmon_bench_result res;
	struct selfmon_report_entry e = { .res = &res, .expected_insns = -1 };
	char path[] = "/tmp/report_test.XXXXXX", cmd[2200], *text;
	const struct util_json *b;
	struct util_json root;
	uint64_t x = 0;
	int fd, status, reps = 0;
	struct selfmon_bench *bench;
	FILE *f;

	bench = selfmon_bench__open(&o);
	ASSERT_NE(NULL, bench) TH_LOG("%s", selfmon_errmsg());
	ASSERT_EQ(0, selfmon_bench__run(bench, "users/sum", body, &x, &res));
	selfmon_report__context_fill(&ctx);
	ctx.version = selfmon_version();
	ctx.events = "";
	fd = mkstemp(path);
	ASSERT_LE(0, fd);
	f = fdopen(fd, "w");
	ASSERT_NE(NULL, f);
	EXPECT_EQ(0, selfmon_report__json(f, &ctx, &e, 1));
	fclose(f);

	text = run_capture((snprintf(cmd, sizeof(cmd), "cat %s", path), cmd), &status);
	ASSERT_NE(NULL, text);
	ASSERT_EQ(0, json_parse(text, &root, cmd, sizeof(cmd))) TH_LOG("%s", cmd);
	EXPECT_STREQ(SELFMON_REPORT_SCHEMA, util_json_str(&root, "schema"));
	b = util_json_get(&root, "benchmarks");
	ASSERT_NE(NULL, b);
	for (int i = 0; i < b->nr; i++)
		reps += util_json_str(&b->kid[i], "run_type") && !strcmp(util_json_str(&b->kid[i], "run_type"), "iteration");
	EXPECT_EQ(res.kept, reps);
	util_json_free(&root);
	free(text);

	if (selfmon_cli()) {
		snprintf(cmd, sizeof(cmd), "%s compare %s %s", selfmon_cli(), path, path);
		text = run_capture(cmd, &status);
		ASSERT_NE(NULL, text);
		EXPECT_EQ(0, status) TH_LOG("%s", text);
		EXPECT_NE(NULL, strstr(text, "users/sum")) TH_LOG("%s", text);
		free(text);
	}
	unlink(path);
	selfmon_bench_result__fini(&res);
	selfmon_bench__close(bench);
}

TEST_HARNESS_MAIN
