// SPDX-License-Identifier: MIT
/*
 * selfmon bench on the arm64 board: on the emulated one (QEMU -icount
 * shift=0, one CPU) every count is exact, so each fixed-count asm kernel must
 * report exactly its stated instructions per iteration after two-length
 * calibration, read by mrs; the dependent add chain retires one instruction
 * per cycle there; and readcost's selfmon read stays within 16 instructions,
 * its selfmon_set__read() row within 42.
 * (The file is not called bench_test.c: the bundle's bin/ is flat, and the
 * portable bench_test is there already.)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <selfmon/bench.h>
#include <selfmon/selfmon.h>
#include "../../../tools/cli.h"
#include "../json_check.h"
#include "kselftest_harness.h"
#include "board.h"

TEST(every_fixed_count_kernel_measures_its_stated_instructions_exactly_by_mrs)
{
	struct selfmon_bench_opts o = {
		.sz = sizeof(o), .events = "instructions:u,cycles:u", .repetitions = 3,
		.iterations = 1000, .warmup = 1, .calibration = SELFMON_CALIB_TWO_LENGTH,
	};
	struct selfmon_bench *b;

	EXACT_USER_OR_SKIP();
	cli_kernels__init();
	b = selfmon_bench__open(&o);
	ASSERT_NE(NULL, b) TH_LOG("%s", selfmon_errmsg());
	ASSERT_EQ(2, selfmon_bench__nr_events(b)) TH_LOG("%s", selfmon_bench__note(b));
	for (int i = 0; i < cli_kernels_nr; i++) {
		const struct cli_kernel *k = &cli_kernels[i];
		struct selfmon_bench_result res;
		int ins, cyc;

		if (*k->insns < 0)
			continue;
		ASSERT_EQ(0, selfmon_bench__run(b, k->name, k->fn, k->arg, &res)) TH_LOG("%s", selfmon_errmsg());
		ins = selfmon_bench_result__col(&res, "instructions:u");
		cyc = selfmon_bench_result__col(&res, "cycles:u");
		ASSERT_GE(ins, 0);
		ASSERT_GE(cyc, 0);
		EXPECT_EQ(SELFMON_PATH_USER, res.col[ins].path) TH_LOG("%s", selfmon_reason__str(res.col[ins].reason));
		EXPECT_EQ(0, res.slow_regions) TH_LOG("%s: regions fell back to read(2)", k->name);
		EXPECT_EQ(3, res.kept);
		/* Every repetition exact, not only the median. */
		EXPECT_EQ(*k->insns, res.col[ins].st.min) TH_LOG("%s", k->name);
		EXPECT_EQ(*k->insns, res.col[ins].st.max) TH_LOG("%s", k->name);
		EXPECT_EQ(0, res.col[ins].clamped);
		TH_LOG("%s: %.3f instructions/iteration (expected %g), %.3f cycles/iteration", k->name,
		       res.col[ins].st.median, (double)*k->insns, res.col[cyc].st.median);
		/* Under icount shift=0 a cycle is an instruction: the latency-bound chain shows it. */
		if (!strcmp(k->name, "add_chain"))
			EXPECT_EQ(res.col[ins].st.median, res.col[cyc].st.median);
		selfmon_bench_result__fini(&res);
	}
	selfmon_bench__close(b);
}

TEST(bench_json_carries_exact_counts_and_the_read_cost_within_budget)
{
	const struct util_json *m, *v;
	const char *cli = selfmon_cli();
	struct util_json root;
	char cmd[1200], err[160];
	double self, libperf, sys, sys_all, set_read;
	int status = -1;
	char *out;

	EXACT_USER_OR_SKIP();
	if (!cli)
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	snprintf(cmd, sizeof(cmd), "%s bench --format json --filter '^(add_chain|readcost)' "
		 "--repetitions 3 --warmup 1 --iterations 1000 2>&1", cli);
	out = run_capture(cmd, &status);
	ASSERT_NE(NULL, out);
	ASSERT_EQ(0, status) TH_LOG("%s", out);
	ASSERT_EQ(0, json_parse(out, &root, err, sizeof(err))) TH_LOG("%s: %.300s", err, out);

	m = json_bench(&root, "add_chain_median");
	ASSERT_NE(NULL, m);
	v = util_json_get(m, "instructions:u");
	ASSERT_NE(NULL, v) TH_LOG("no instructions:u counter in the JSON");
	EXPECT_EQ(10, v->num);
	v = util_json_get(m, "cycles:u");
	ASSERT_NE(NULL, v);
	EXPECT_EQ(10, v->num);
	EXPECT_EQ(10, util_json_get(json_bench(&root, "add_chain"), "instructions:u")->num);

	m = json_bench(&root, "readcost/selfmon_median");
	ASSERT_NE(NULL, m) TH_LOG("readcost/selfmon missing: %.400s", out);
	self = util_json_get(m, "instructions:u")->num;
	m = json_bench(&root, "readcost/libperf_median");
	ASSERT_NE(NULL, m);
	libperf = util_json_get(m, "instructions:u")->num;
	m = json_bench(&root, "readcost/read(2)_median");
	ASSERT_NE(NULL, m);
	sys = util_json_get(m, "instructions:u")->num;
	v = util_json_get(m, "instructions");
	sys_all = v ? v->num : -1;
	m = json_bench(&root, "readcost/set_read_median");
	ASSERT_NE(NULL, m) TH_LOG("readcost/set_read missing: %.400s", out);
	set_read = util_json_get(m, "instructions:u")->num;
	TH_LOG("readcost per read: selfmon %.0f, libperf %.0f, read(2) %.0f user / %.0f user+kernel "
	       "instructions; libperf/selfmon %.1fx, read(2)/selfmon %.1fx (user+kernel); "
	       "selfmon_set__read %.0f",
	       self, libperf, sys, sys_all, libperf / self, sys_all / self, set_read);
	EXPECT_LE(self, 16);
	/* The call with its checks and baseline, in bench's loop (cost_test: 40 in its own). */
	EXPECT_LE(set_read, 42);
	EXPECT_LT(set_read, libperf);
	EXPECT_GT(self, 0);
	EXPECT_GT(libperf, self);
	EXPECT_GT(sys_all, libperf);
	util_json_free(&root);
	free(out);
}

/*
 * The sampling budget as a bench row: samplecost reads 1024 samples a drain
 * (one ring), so its per-sample figures carry the drain's fixed cost over
 * 1024; selfmon's stays within 0.7 times libperf's loop.
 */
TEST(bench_samplecost_reads_a_sample_within_0_7_times_libperfs_loop)
{
	const struct util_json *m;
	const char *cli = selfmon_cli();
	struct util_json root;
	char cmd[1200], err[160];
	double self, libperf;
	int status = -1;
	char *out;

	EXACT_USER_OR_SKIP();
	if (!cli)
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	snprintf(cmd, sizeof(cmd), "%s bench --format json --filter '^samplecost' "
		 "--repetitions 3 --warmup 1 --iterations 1024 2>&1", cli);
	out = run_capture(cmd, &status);
	ASSERT_NE(NULL, out);
	ASSERT_EQ(0, status) TH_LOG("%s", out);
	ASSERT_EQ(0, json_parse(out, &root, err, sizeof(err))) TH_LOG("%s: %.300s", err, out);
	m = json_bench(&root, "samplecost/selfmon_median");
	ASSERT_NE(NULL, m) TH_LOG("samplecost/selfmon missing: %.400s", out);
	ASSERT_NE(NULL, util_json_get(m, "instructions:u"));
	self = util_json_get(m, "instructions:u")->num;
	m = json_bench(&root, "samplecost/libperf_median");
	ASSERT_NE(NULL, m);
	libperf = util_json_get(m, "instructions:u")->num;
	TH_LOG("samplecost per 64-byte sample: selfmon %.3f, libperf %.3f user instructions; "
	       "ratio %.2f", self, libperf, self / libperf);
	EXPECT_GT(libperf, 0);
	EXPECT_GT(self, 0);
	EXPECT_LE(self, 0.7 * libperf);
	util_json_free(&root);
	free(out);
}

TEST_HARNESS_MAIN
