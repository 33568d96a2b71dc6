// SPDX-License-Identifier: MIT
/*
 * What the kernel line changes in the core PMU's format: the rewritten
 * arm_pmuv3 driver of the 6.12 line (drivers/perf/arm_pmuv3.c) publishes
 * three more format terms for FEAT_PMUv3_TH, all in config1 beside the
 * 'long' (config1:0) and 'rdpmc' (config1:1) bits selfmon sets:
 *   threshold_count    config1:2     PMEVTYPER.TC[0]
 *   threshold_compare  config1:3-4   PMEVTYPER.TC[2:1]
 *   threshold          config1:5-16  PMEVTYPER.TH
 * and caps/threshold_max, (2 ^ PMMIR_EL1.THWIDTH) - 1: 0 where the CPU has
 * no FEAT_PMUv3_TH (QEMU 7.2's -cpu max), and the kernel refuses any
 * threshold above it with EINVAL. The 6.1 line's driver
 * (arch/arm64/kernel/perf_event.c) has none of them.
 *
 * The boot says which line it is (SELFMON_EXPECT_THRESHOLD, from
 * selfmon.expect_threshold= on the emulated board): the tests assert that
 * line's format, and that selfmon parses the terms from sysfs (their widths
 * included) like any other.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <selfmon/read.h>
#include <selfmon/selfmon.h>
#include "kselftest_harness.h"
#include "board.h"

#define DEVICES "/sys/bus/event_source/devices"

/* The first line of @path, without its newline, or "" when it cannot be read. */
static const char *sysfs_line(char *buf, size_t len, const char *pmu, const char *file)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), DEVICES "/%s/%s", pmu, file);
	buf[0] = '\0';
	f = fopen(path, "r");
	if (!f)
		return buf;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

/* The core PMU this thread counts on (armv8_pmuv3 on the emulated board), or NULL. */
static const char *core_pmu(char *name, size_t len)
{
	struct selfmon_set *set = selfmon_set__open("instructions:u", NULL);
	const char *pmu = set ? selfmon_set__pmu(set) : NULL;

	if (pmu)
		snprintf(name, len, "%s", pmu);
	selfmon_set__close(set);
	return pmu ? name : NULL;
}

#define EXPECT_THRESHOLD_OR_SKIP(expect)						\
	do {										\
		expect = expect_env("SELFMON_EXPECT_THRESHOLD");			\
		if (expect < 0)								\
			SKIP(return, "SELFMON_EXPECT_THRESHOLD not set: this kernel's " \
			     "arm_pmuv3 format is not declared");				\
	} while (0)

TEST(the_core_pmu_has_threshold_terms_on_the_6_12_line_and_none_on_6_1)
{
	char pmu[64], buf[64];
	int expect;

	EXPECT_THRESHOLD_OR_SKIP(expect);
	ASSERT_NE(NULL, core_pmu(pmu, sizeof(pmu))) TH_LOG("%s", selfmon_errmsg());
	TH_LOG("PMU %s: format/threshold '%s'", pmu, sysfs_line(buf, sizeof(buf), pmu, "format/threshold"));
	/* The bits selfmon's gates set stay where both lines put them. */
	EXPECT_STREQ("config1:0", sysfs_line(buf, sizeof(buf), pmu, "format/long"));
	EXPECT_STREQ("config1:1", sysfs_line(buf, sizeof(buf), pmu, "format/rdpmc"));
	EXPECT_STREQ("config:0-15", sysfs_line(buf, sizeof(buf), pmu, "format/event"));
	if (expect) {
		EXPECT_STREQ("config1:2", sysfs_line(buf, sizeof(buf), pmu, "format/threshold_count"));
		EXPECT_STREQ("config1:3-4", sysfs_line(buf, sizeof(buf), pmu, "format/threshold_compare"));
		EXPECT_STREQ("config1:5-16", sysfs_line(buf, sizeof(buf), pmu, "format/threshold"));
		EXPECT_STRNE("", sysfs_line(buf, sizeof(buf), pmu, "caps/threshold_max"));
	} else {
		EXPECT_STREQ("", sysfs_line(buf, sizeof(buf), pmu, "format/threshold"));
		EXPECT_STREQ("", sysfs_line(buf, sizeof(buf), pmu, "format/threshold_compare"));
		EXPECT_STREQ("", sysfs_line(buf, sizeof(buf), pmu, "format/threshold_count"));
		EXPECT_STREQ("", sysfs_line(buf, sizeof(buf), pmu, "caps/threshold_max"));
	}
}

/*
 * selfmon knows no term by name: 'threshold' is whatever the PMU's format/
 * says. On 6.1 it is no term at all; on 6.12 a 12-bit field, so 4096 is
 * refused by selfmon itself, and a value the field holds but the CPU does
 * not (above caps/threshold_max) by the kernel, each error naming the event.
 */
TEST(a_threshold_is_refused_by_name_where_the_pmu_or_the_cpu_has_none)
{
	char pmu[64], buf[64], ev[160];
	struct selfmon_set *set;
	unsigned long max;
	int expect;

	EXPECT_THRESHOLD_OR_SKIP(expect);
	ASSERT_NE(NULL, core_pmu(pmu, sizeof(pmu))) TH_LOG("%s", selfmon_errmsg());
	if (!expect) {
		snprintf(ev, sizeof(ev), "%s/inst_retired,threshold=1/u", pmu);
		set = selfmon_set__open(ev, NULL);
		EXPECT_EQ(NULL, set);
		EXPECT_NE(NULL, strstr(selfmon_errmsg(), "has no event or format term 'threshold'"))
			TH_LOG("%s", selfmon_errmsg());
		selfmon_set__close(set);
		return;
	}
	snprintf(ev, sizeof(ev), "%s/inst_retired,threshold=4096/u", pmu);
	set = selfmon_set__open(ev, NULL);
	EXPECT_EQ(NULL, set);
	EXPECT_NE(NULL, strstr(selfmon_errmsg(), "does not fit term 'threshold' (12 bits)"))
		TH_LOG("%s", selfmon_errmsg());
	selfmon_set__close(set);

	max = strtoul(sysfs_line(buf, sizeof(buf), pmu, "caps/threshold_max"), NULL, 16);
	TH_LOG("caps/threshold_max %#lx", max);
	if (max >= 4095)
		SKIP(return, "this CPU takes every threshold the field holds (threshold_max %#lx)", max);
	snprintf(ev, sizeof(ev), "%s/inst_retired,threshold=%lu/u", pmu, max + 1);
	set = selfmon_set__open(ev, NULL);
	EXPECT_EQ(NULL, set);
	EXPECT_NE(NULL, strstr(selfmon_errmsg(), "perf_event_open: Invalid argument"))
		TH_LOG("%s", selfmon_errmsg());
	EXPECT_NE(NULL, strstr(selfmon_errmsg(), ev)) TH_LOG("%s", selfmon_errmsg());
	selfmon_set__close(set);
}

/* threshold=0 is no threshold (the driver programs TH and TC only when it is not 0). */
TEST(a_zero_threshold_term_still_takes_the_mrs_path_and_counts_exactly)
{
	char pmu[64], ev[160];
	struct selfmon_set *set;
	enum selfmon_reason why;
	int64_t empty;
	int expect;

	EXPECT_THRESHOLD_OR_SKIP(expect);
	if (!expect)
		SKIP(return, "this kernel line has no threshold term");
	EXACT_OR_SKIP();
	ASSERT_NE(NULL, core_pmu(pmu, sizeof(pmu))) TH_LOG("%s", selfmon_errmsg());
	snprintf(ev, sizeof(ev), "%s/inst_retired,threshold=0,threshold_compare=0,threshold_count=0/u", pmu);
	OPEN_USER(set, ev, NULL);
	EXPECT_EQ(SELFMON_PATH_USER, selfmon_set__path(set, 0, &why)) TH_LOG("%s", selfmon_reason__str(why));
	empty = region_user(selfmon_set__page(set, 0), 0);
	EXPECT_EQ(3 * 100000, region_user(selfmon_set__page(set, 0), 100000) - empty);
	selfmon_set__close(set);
}

TEST_HARNESS_MAIN
