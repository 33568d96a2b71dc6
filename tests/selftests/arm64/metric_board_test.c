// SPDX-License-Identifier: MIT
/*
 * Metrics on the arm64 board. Each cluster's core is identified from its
 * MIDR: QEMU's -cpu max (implementer 0, no mapfile.csv rule) takes the
 * architecture's common set and says so, -cpu cortex-a72 the Cortex-A57/A72
 * tables; on the big.LITTLE boot each cluster is listed with its own. On the
 * exact board (icount, one vCPU) a cycle is an instruction, so the `ipc`
 * metric of the dependent add chain is exactly 1, on -cpu max (the common
 * set's ipc) and on -cpu cortex-a72 alike.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../json_check.h"
#include "kselftest_harness.h"
#include "board.h"

/* stderr to @err: bench notes there that the common set serves this core. */
static char *cli(struct __test_metadata *_metadata, const char *args, int *status)
{
	char cmd[1200];
	char *out;

	snprintf(cmd, sizeof(cmd), "%s %s 2>/tmp/metric_board_test.err", selfmon_cli(), args);
	out = run_capture(cmd, status);
	TH_LOG("%s: exit status %d", cmd, *status);
	return out;
}

/* What the last command wrote to stderr (its notes), for the log. */
static const char *err_text(void)
{
	static char buf[2048];
	FILE *f = fopen("/tmp/metric_board_test.err", "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

	if (f)
		fclose(f);
	buf[n] = '\0';
	return buf;
}

/* MIDR_EL1 of CPU @cpu with variant and revision masked, or 0. */
static unsigned long long midr_part(int cpu)
{
	char path[128], buf[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/regs/identification/midr_el1", cpu);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return strtoull(buf, NULL, 16) & ~0xf0000full;
}

TEST(each_clusters_core_is_told_by_its_midr)
{
	struct util_json root;
	const struct util_json *cl;
	char err[160];
	int status = -1;
	char *out;

	if (!selfmon_cli())
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	out = cli(_metadata, "list --json", &status);
	ASSERT_NE(NULL, out);
	if (status && strstr(out, "CONFIG_PMU_EVENTS_NONE"))
		SKIP(return, "built without pmu-events tables");
	ASSERT_EQ(0, status) TH_LOG("%.300s", out);
	ASSERT_EQ(0, json_parse(out, &root, err, sizeof(err))) TH_LOG("%s", err);
	cl = util_json_get(&root, "clusters");
	ASSERT_NE(NULL, cl);
	for (int c = 0; c < cl->nr; c++) {
		const char *core = util_json_str(&cl->kid[c], "core"), *cpus = util_json_str(&cl->kid[c], "cpus");
		unsigned long long part = midr_part(atoi(cpus));

		TH_LOG("cluster %s (%s): MIDR part 0x%llx -> %s%s", cpus, util_json_str(&cl->kid[c], "pmu"), part, core,
		       util_json_get(&cl->kid[c], "fallback")->num ? " (common set)" : "");
		ASSERT_NE(0, part) TH_LOG("no midr_el1 for CPU %s", cpus);
		if (part == 0x000f0510) {	/* QEMU -cpu max */
			EXPECT_EQ(1, util_json_get(&cl->kid[c], "fallback")->num);
			EXPECT_EQ(0, strcmp(core, "arm64 common (sbsa)"));
		} else if (part == 0x410fd080 || part == 0x410fd070) {
			EXPECT_EQ(0, util_json_get(&cl->kid[c], "fallback")->num);
			EXPECT_EQ(0, strcmp(core, "arm/cortex-a57-a72"));
		} else if (part == 0x410fd030) {
			EXPECT_EQ(0, strcmp(core, "arm/cortex-a53"));
		}
	}
	/* The big.LITTLE boot (two core PMUs): one block per cluster, each its own CPUs. */
	if (getenv("SELFMON_BOARD") && !strcmp(getenv("SELFMON_BOARD"), "biglittle"))
		EXPECT_EQ(2, cl->nr);
	util_json_free(&root);
	free(out);
}

TEST(ipc_of_the_dependent_add_chain_is_exactly_one)
{
	const struct util_json *b, *v;
	struct util_json root;
	char err[160];
	int status = -1;
	char *out;

	EXACT_OR_SKIP();
	if (read_sysctl(USER_ACCESS) != 1)
		SKIP(return, "kernel.perf_user_access is not 1 (run as root through run_tests.sh)");
	if (!selfmon_cli())
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	/* Few events beside it: QEMU's Cortex-A72 has 6 counters, and a group that does not fit never runs. */
	out = cli(_metadata, "bench --format json --events instructions:u --metrics ipc --filter '^add_chain$' "
		  "--repetitions 3 --warmup 1 --iterations 1000", &status);
	ASSERT_NE(NULL, out);
	if (status && strstr(out, "CONFIG_PMU_EVENTS_NONE"))
		SKIP(return, "built without pmu-events tables");
	ASSERT_EQ(0, status) TH_LOG("%.400s %s", out, err_text());
	ASSERT_EQ(0, json_parse(out, &root, err, sizeof(err))) TH_LOG("%s: %.300s", err, out);
	b = json_bench(&root, "add_chain_median");
	ASSERT_NE(NULL, b) TH_LOG("%.400s", out);
	v = util_json_get(b, "ipc");
	ASSERT_NE(NULL, v) TH_LOG("no ipc column: %s", err_text());
	TH_LOG("ipc of add_chain: %.17g", v->num);
	EXPECT_EQ(1.0, v->num);
	util_json_free(&root);
	free(out);
}

TEST_HARNESS_MAIN
