// SPDX-License-Identifier: MIT
/*
 * selfmon list and --metrics as a user meets them: the JSON of `selfmon list
 * --json` parses and names, per cluster, the core whose tables serve it,
 * events with encodings and metrics with formulas; the text form names the
 * same core; an unknown metric is refused with an error that names the
 * closest ones, as an unknown event is. The head of the list says what this
 * machine cannot open (no PMU driver, a refusal, CPUs no PMU counts on) and
 * marks the sections it cannot open; ipc resolves on every core, and where
 * no PMU is it says it cannot open. On a build without tables
 * (CONFIG_PMU_EVENTS_NONE) list says so and fails. Runs on the host and on
 * the board.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <selfmon/machine.h>
#include <selfmon/selfmon.h>
#include "json_check.h"
#include "kselftest_harness.h"

static char *run(struct __test_metadata *_metadata, const char *args, int *status)
{
	char cmd[1200];
	char *out;

	snprintf(cmd, sizeof(cmd), "%s %s 2>&1", selfmon_cli(), args);
	out = run_capture(cmd, status);
	TH_LOG("%s: exit status %d", cmd, *status);
	return out;
}

FIXTURE(list) {
	struct util_json root;
	char *out;
	const struct util_json *first;	/* the first cluster */
	int skip;			/* set up to skip: each test skips too */
};

#define SKIP_IF_SETUP_SKIPPED() \
	do { if (self->skip) SKIP(return, "no pmu-events tables, or no CLI"); } while (0)

FIXTURE_SETUP(list)
{
	char err[160];
	int status = -1;

	memset(&self->root, 0, sizeof(self->root));
	self->out = NULL;
	self->skip = 1;
	if (!selfmon_cli())
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	self->out = run(_metadata, "list --json", &status);
	ASSERT_NE(NULL, self->out);
	if (status && strstr(self->out, "CONFIG_PMU_EVENTS_NONE"))
		SKIP(return, "built without pmu-events tables: %.200s", self->out);
	self->skip = 0;
	ASSERT_EQ(0, status) TH_LOG("%.400s", self->out);
	ASSERT_EQ(0, json_parse(self->out, &self->root, err, sizeof(err))) TH_LOG("%s: %.300s", err, self->out);
	ASSERT_NE(NULL, util_json_get(&self->root, "clusters"));
	ASSERT_LT(0, util_json_get(&self->root, "clusters")->nr);
	self->first = &util_json_get(&self->root, "clusters")->kid[0];
}

FIXTURE_TEARDOWN(list)
{
	util_json_free(&self->root);
	free(self->out);
}

TEST_F(list, json_names_each_clusters_core_with_its_events_and_metrics)
{
	const struct util_json *cl = util_json_get(&self->root, "clusters");

	SKIP_IF_SETUP_SKIPPED();

	for (int c = 0; c < cl->nr; c++) {
		const struct util_json *k = &cl->kid[c], *ev = util_json_get(k, "events"), *m = util_json_get(k, "metrics");

		ASSERT_NE(NULL, util_json_str(k, "core"));
		ASSERT_NE(NULL, util_json_str(k, "cpus"));
		ASSERT_NE(NULL, util_json_get(k, "fallback"));
		TH_LOG("CPUs %s: %s%s, %d events, %d metrics", util_json_str(k, "cpus"), util_json_str(k, "core"),
		       util_json_get(k, "fallback")->num ? " (common set)" : "", ev ? ev->nr : 0, m ? m->nr : 0);
		ASSERT_NE(NULL, ev);
		ASSERT_LT(0, ev->nr);
		for (int i = 0; i < ev->nr; i++) {
			ASSERT_NE(NULL, util_json_str(&ev->kid[i], "name"));
			ASSERT_NE(NULL, strstr(util_json_str(&ev->kid[i], "encoding"), "event="));
		}
		for (int i = 0; m && i < m->nr; i++) {
			ASSERT_NE(NULL, util_json_str(&m->kid[i], "name"));
			ASSERT_NE(NULL, util_json_str(&m->kid[i], "expr"));
		}
	}
}

TEST_F(list, the_text_form_names_the_same_core)
{
	int status = -1;
	char *out;

	SKIP_IF_SETUP_SKIPPED();
	out = run(_metadata, "list", &status);

	ASSERT_NE(NULL, out);
	EXPECT_EQ(0, status);
	EXPECT_NE(NULL, strstr(out, util_json_str(self->first, "core"))) TH_LOG("%.300s", out);
	free(out);
}

TEST_F(list, an_unknown_metric_is_refused_naming_the_closest)
{
	const struct util_json *m = util_json_get(self->first, "metrics");
	char args[300], want[200], name[120];
	int status = -1;
	char *out;

	SKIP_IF_SETUP_SKIPPED();
	if (!m || !m->nr)
		SKIP(return, "this core's tables have no metric");
	/* A metric's name with its last letter dropped: a typo. */
	snprintf(name, sizeof(name), "%s", util_json_str(&m->kid[0], "name"));
	name[strlen(name) - 1] = '\0';
	snprintf(args, sizeof(args), "bench --filter '^empty$' --repetitions 3 --metrics '%s'", name);
	out = run(_metadata, args, &status);
	ASSERT_NE(NULL, out);
	EXPECT_NE(0, status);
	snprintf(want, sizeof(want), "no metric or metric group '%s'", name);
	EXPECT_NE(NULL, strstr(out, want)) TH_LOG("%.400s", out);
	snprintf(want, sizeof(want), "'%s'", util_json_str(&m->kid[0], "name"));
	EXPECT_NE(NULL, strstr(out, want)) TH_LOG("no close match named: %.400s", out);
	free(out);
}

/* Whether a hardware event opens here, as selfmon list should find it. */
static int hardware_opens(void)
{
	struct selfmon_opts opts = { .sz = sizeof(opts), .pin = "none" };
	struct selfmon_set *set = selfmon_set__open("instructions:u", &opts);

	selfmon_set__close(set);
	return set != NULL;
}

static int has_core_pmu(void)
{
	struct selfmon_machine *m = selfmon_machine__open(NULL);
	int pmu = m ? selfmon_machine__default_pmu(m) : -1;

	selfmon_machine__close(m);
	return pmu >= 0;
}

TEST_F(list, the_head_says_what_this_machine_cannot_open)
{
	const struct util_json *opens = util_json_get(&self->root, "opens");
	int status = -1, can = hardware_opens();
	char *out;

	SKIP_IF_SETUP_SKIPPED();
	ASSERT_NE(NULL, opens);
	ASSERT_NE(NULL, util_json_get(opens, "hardware"));
	EXPECT_EQ(can, util_json_get(opens, "hardware")->num);
	EXPECT_EQ(!can, util_json_str(opens, "why") != NULL);
	out = run(_metadata, "list", &status);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(0, status);
	if (can) {
		EXPECT_EQ(NULL, strstr(out, "cannot open")) TH_LOG("%.300s", out);
		EXPECT_EQ(NULL, strstr(out, "cannot be opened here")) TH_LOG("%.300s", out);
	} else {
		/* The first line says it, with the reason; each section is marked. */
		EXPECT_EQ(out, strstr(out, "This machine cannot open hardware events (")) TH_LOG("%.300s", out);
		EXPECT_NE(NULL, strstr(out, " events (cannot be opened here: ")) TH_LOG("%.600s", out);
		if (!has_core_pmu()) {
			EXPECT_NE(NULL, strstr(out, "(no PMU driver)")) TH_LOG("%.300s", out);
			EXPECT_NE(NULL, strstr(out, "events (cannot be opened here: no PMU driver):"));
		}
	}
	free(out);
}

/* The directory of the fixture boards: $SELFMON_FIXTURES, else tests/fixtures/sysfs above this binary. */
static int fixtures(char *dir, size_t size)
{
	char exe[900];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (getenv("SELFMON_FIXTURES"))
		return snprintf(dir, size, "%s", getenv("SELFMON_FIXTURES")), 0;
	if (n <= 0)
		return -1;
	exe[n] = '\0';
	for (char *slash = strrchr(exe, '/'); slash; slash = strrchr(exe, '/')) {
		*slash = '\0';
		snprintf(dir, size, "%s/tests/fixtures/sysfs/alderlake", exe);
		if (!access(dir, F_OK))
			return snprintf(dir, size, "%s/tests/fixtures/sysfs", exe), 0;
	}
	return -1;
}

TEST_F(list, cpus_of_a_core_type_without_a_pmu_driver_are_named_at_the_head)
{
	char dir[1000], tmp[] = "/tmp/selfmon-list-XXXXXX", cmd[2400];
	int status = -1;
	char *out;

	SKIP_IF_SETUP_SKIPPED();
	if (fixtures(dir, sizeof(dir)))
		SKIP(return, "no fixture boards here (set SELFMON_FIXTURES)");
	ASSERT_NE(NULL, mkdtemp(tmp));
	/* Alder Lake whose E-cores' PMU (cpu_atom, CPUs 16-23) did not probe. */
	snprintf(cmd, sizeof(cmd), "cp -a '%s/alderlake/.' '%s' && rm '%s/sys/bus/event_source/devices/cpu_atom'",
		 dir, tmp, tmp);
	ASSERT_EQ(0, system(cmd));
	setenv("SELFMON_SYSFS_ROOT", tmp, 1);
	out = run(_metadata, "list", &status);
	unsetenv("SELFMON_SYSFS_ROOT");
	ASSERT_NE(NULL, out);
	EXPECT_EQ(0, status);
	EXPECT_NE(NULL, strstr(out, "CPUs 16-23 have no PMU driver")) TH_LOG("%.400s", out);
	/* The cluster that has one is listed by its core where the build carries x86's tables. */
#if defined(__x86_64__)
	EXPECT_NE(NULL, strstr(out, "CPUs 0-15 (cpu_core): alderlake")) TH_LOG("%.400s", out);
#else
	EXPECT_NE(NULL, strstr(out, "CPUs 0-15 (cpu_core)")) TH_LOG("%.400s", out);
#endif
	free(out);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	EXPECT_EQ(0, system(cmd));
}

TEST_F(list, ipc_resolves_on_every_core_and_says_when_it_cannot_open)
{
	static const char *const args[] = {
		"bench --filter '^empty$' --repetitions 3 --metrics ipc",
		"bench --filter '^empty$' --repetitions 3 --events 'task-clock,@ipc'",
	};
	int status = -1;
	char *out;

	SKIP_IF_SETUP_SKIPPED();
	for (size_t i = 0; i < sizeof(args) / sizeof(args[0]); i++) {
		out = run(_metadata, args[i], &status);
		ASSERT_NE(NULL, out);
		EXPECT_EQ(NULL, strstr(out, "no metric or metric group")) TH_LOG("%.600s", out);
		if (!has_core_pmu())
			EXPECT_NE(NULL, strstr(out, "metric ipc unavailable: cannot open: no PMU"))
				TH_LOG("%.600s", out);
		free(out);
	}
}

TEST_F(list, an_unknown_event_is_refused_naming_the_closest)
{
	int status = -1;
	char *out;

	SKIP_IF_SETUP_SKIPPED();
	out = run(_metadata, "bench --filter '^empty$' --repetitions 3 --events instrucions:u", &status);
	ASSERT_NE(NULL, out);
	EXPECT_NE(0, status);
	EXPECT_NE(NULL, strstr(out, "unknown event 'instrucions'; close: 'instructions'")) TH_LOG("%.400s", out);
	free(out);
}

/*
 * A copy of the Skylake board under a new directory (@tmp, from mkdtemp)
 * whose CPUs the tables lack: CPUID family 99 on x86, implementer 0xff in
 * MIDR_EL1 on arm64 (no rule in either mapfile.csv); @unreadable: neither
 * /proc/cpuinfo nor midr_el1 at all.
 */
static int unknown_core_board(const char *fixtures_dir, const char *tmp, int unreadable)
{
	char cmd[3000];

	snprintf(cmd, sizeof(cmd),
		 "cp -a '%s/skylake/.' '%s' && rm -f '%s/proc/cpuinfo' && %s", fixtures_dir, tmp, tmp,
		 unreadable ? ":" :
			      "for c in 0 1 2 3 4 5 6 7; do printf 'processor\\t: %%s\\nvendor_id\\t: "
			      "GenuineIntel\\ncpu family\\t: 99\\nmodel\\t\\t: 255\\nstepping\\t: 3\\n\\n' "
			      "$c >>\"$T/proc/cpuinfo\"; d=\"$T/sys/devices/system/cpu/cpu$c/regs/identification\"; "
			      "mkdir -p \"$d\" && echo 0x00000000ff0ff0f0 >\"$d/midr_el1\"; done");
	if (setenv("T", tmp, 1))
		return -1;
	return system(cmd);
}

/* selfmon list under the board @tmp: its output, its exit status in *@status. */
static char *list_on(struct __test_metadata *_metadata, const char *tmp, const char *args, int *status)
{
	char *out;

	setenv("SELFMON_SYSFS_ROOT", tmp, 1);
	out = run(_metadata, args, status);
	unsetenv("SELFMON_SYSFS_ROOT");
	return out;
}

TEST_F(list, a_core_the_tables_lack_is_named_by_its_part_id_and_gets_the_generic_set)
{
#if defined(__aarch64__)
	const char *part = "0x00000000ff0ff0f0";
#else
	const char *part = "GenuineIntel-99-FF-3";
#endif
	char dir[1000], tmp[] = "/tmp/selfmon-list-XXXXXX", want[200], err[160], cmd[1100];
	struct util_json root;
	const struct util_json *cl;
	int status = -1;
	char *out;

	SKIP_IF_SETUP_SKIPPED();
	if (fixtures(dir, sizeof(dir)))
		SKIP(return, "no fixture boards here (set SELFMON_FIXTURES)");
	ASSERT_NE(NULL, mkdtemp(tmp));
	ASSERT_EQ(0, unknown_core_board(dir, tmp, 0));
	out = list_on(_metadata, tmp, "list", &status);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(0, status) TH_LOG("%.600s", out);
	snprintf(want, sizeof(want), "this core (%s) is not in the pmu-events tables", part);
	EXPECT_NE(NULL, strstr(out, want)) TH_LOG("%.600s", out);
	EXPECT_NE(NULL, strstr(out, "generic events")) TH_LOG("%.600s", out);
	EXPECT_NE(NULL, strstr(out, " cycles instructions")) TH_LOG("%.600s", out);
	EXPECT_NE(NULL, strstr(out, "\n  ipc ")) TH_LOG("%.600s", out);
	EXPECT_EQ(NULL, strstr(out, "selfmon list:")) TH_LOG("%.600s", out);
	free(out);
	out = list_on(_metadata, tmp, "list --json", &status);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(0, status);
	memset(&root, 0, sizeof(root));
	ASSERT_EQ(0, json_parse(out, &root, err, sizeof(err))) TH_LOG("%s: %.300s", err, out);
	cl = &util_json_get(&root, "clusters")->kid[0];
	ASSERT_NE(NULL, util_json_get(cl, "part"));
	EXPECT_STREQ(part, util_json_get(cl, "part")->str);
	ASSERT_NE(NULL, util_json_get(cl, "generic_events"));
	EXPECT_LT(0, util_json_get(cl, "generic_events")->nr);
	util_json_free(&root);
	free(out);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	EXPECT_EQ(0, system(cmd));
}

TEST_F(list, a_core_whose_part_cannot_be_read_says_so_and_lists_the_generic_events)
{
	char dir[1000], tmp[] = "/tmp/selfmon-list-XXXXXX", cmd[1100];
	int status = -1;
	char *out;

	SKIP_IF_SETUP_SKIPPED();
	if (fixtures(dir, sizeof(dir)))
		SKIP(return, "no fixture boards here (set SELFMON_FIXTURES)");
	ASSERT_NE(NULL, mkdtemp(tmp));
	ASSERT_EQ(0, unknown_core_board(dir, tmp, 1));
	out = list_on(_metadata, tmp, "list", &status);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(0, status) TH_LOG("%.600s", out);
	EXPECT_NE(NULL, strstr(out, "unknown core (its part id, ")) TH_LOG("%.600s", out);
	EXPECT_NE(NULL, strstr(out, "cannot be read: No such file or directory)")) TH_LOG("%.600s", out);
	EXPECT_NE(NULL, strstr(out, " cycles instructions")) TH_LOG("%.600s", out);
	EXPECT_EQ(NULL, strstr(out, "selfmon list:")) TH_LOG("%.600s", out);
	free(out);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	EXPECT_EQ(0, system(cmd));
}

TEST_HARNESS_MAIN
