// SPDX-License-Identifier: MIT
/*
 * On the emulated big.LITTLE board each cluster's core is identified from
 * its own MIDR and its own pmu-events tables are used: `selfmon list` names
 * each cluster's core with its events and metrics, an event named by a
 * cluster's tables opens on that cluster's PMU and counts there, a name
 * only the other core has is refused, and a metric computes on each.
 *
 * What is supplied: the MIDR. QEMU 7.2's virt machine builds every vCPU from
 * the one -cpu model (its `midr` property, and -global, set all of them
 * alike), so all four vCPUs report the `max` CPU's MIDR (0x000f0510, which
 * no mapfile.csv rule names). Each test therefore bind-mounts a file holding
 * a Cortex-A53 MIDR over midr_el1 of the CPUs the device tree gives the
 * Cortex-A53 PMU (0-1) and a Cortex-A72 MIDR over those of the Cortex-A72
 * PMU's CPUs (2-3), RK3399's values (r0p4 and r0p2), in a mount namespace of
 * its own (the mounts die with the test, whatever happens to it). What is
 * real: the kernel, its two PMU drivers (armv8_cortex_a53, armv8_cortex_a72)
 * with their own perf types and CPUs, the pinning, and every count. Counts
 * are within 10%: with several vCPUs QEMU's icount charges some
 * instructions of one vCPU to another. QEMU counts only SW_INCR,
 * INST_RETIRED and CPU_CYCLES, so a Cortex-A53 implementation event opens
 * and reads 0 here: its test checks where it opens, not what it counts.
 *
 * Off that board (SELFMON_BOARD=biglittle unset) every test SKIPs: the MIDRs
 * supplied here are that board's layout.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <selfmon/machine.h>
#include <selfmon/metric.h>
#include <selfmon/read.h>
#include <selfmon/selfmon.h>
#include "../json_check.h"
#include "kselftest_harness.h"
#include "board.h"

#define MIDR_A53 "0x00000000410fd034" /* Cortex-A53 r0p4 */
#define MIDR_A72 "0x00000000410fd082" /* Cortex-A72 r0p2 */
#define LITTLE_PMU "armv8_cortex_a53"
#define BIG_PMU "armv8_cortex_a72"
/* A Cortex-A53 implementation event (its tables' cache.json, 0xC2): the A72's tables lack it. */
#define A53_ONLY "PREFETCH_LINEFILL"
#define BOARD_CPUS 4
#define NOT_THE_BOARD								\
	"SELFMON_BOARD=biglittle not set: the MIDRs this test supplies are the emulated "	\
	"big.LITTLE board's (Cortex-A53 PMU on CPUs 0-1, Cortex-A72 PMU on CPUs 2-3)"

static void midr_path(char *buf, size_t size, int cpu)
{
	snprintf(buf, size, "/sys/devices/system/cpu/cpu%d/regs/identification/midr_el1", cpu);
}

/* The whole of file @path (up to @size - 1 bytes); 0 or -errno. */
static int read_file(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, size - 1, f) : 0;

	if (!f)
		return -errno;
	fclose(f);
	buf[n] = '\0';
	return 0;
}

/* Its first line. */
static int read_text(const char *path, char *buf, size_t size)
{
	int err = read_file(path, buf, size);

	buf[err ? 0 : strcspn(buf, "\n")] = '\0';
	return err;
}

static int cpu_of_cluster(int cpu)
{
	return cpu < BOARD_CPUS / 2 ? 0 : 1;
}

FIXTURE(cluster_core) {
	char dir[64];
	char file[2][96]; /* the MIDR each cluster is given */
	char real[BOARD_CPUS][32];
	int mounted[BOARD_CPUS];
	int ready; /* the setup bound every MIDR */
	const char *why; /* else why not */
};

/*
 * A SKIP in a fixture's setup does not stop the test body in every edition
 * of the kselftest harness (6.1's runs it): each body checks.
 */
#define READY_OR_SKIP()									\
	do {										\
		if (!self->ready)							\
			SKIP(return, "%s", self->why ? self->why : "the setup failed"); \
	} while (0)

/* Bind @file over CPU @cpu's midr_el1; 0 or -errno. */
static int bind_midr(const char *file, int cpu)
{
	char path[128];

	midr_path(path, sizeof(path), cpu);
	return mount(file, path, NULL, MS_BIND, NULL) ? -errno : 0;
}

static void unbind_midr(FIXTURE_DATA(cluster_core) *self, int cpu)
{
	char path[128];

	if (!self->mounted[cpu])
		return;
	midr_path(path, sizeof(path), cpu);
	umount2(path, MNT_DETACH);
	self->mounted[cpu] = 0;
}

FIXTURE_SETUP(cluster_core)
{
	const char *board = getenv("SELFMON_BOARD");
	static const char *const midr[2] = { MIDR_A53, MIDR_A72 };
	char path[128], got[64];

	memset(self, 0, sizeof(*self));
	self->why = NOT_THE_BOARD;
	if (!board || strcmp(board, "biglittle"))
		SKIP(return, "%s", self->why);
	self->why = "built without pmu-events tables (CONFIG_PMU_EVENTS_NONE)";
	if (!selfmon_pmu_events__core(0, NULL) && errno == EOPNOTSUPP)
		SKIP(return, "%s", self->why);
	self->why = NULL;
	ASSERT_NE(NULL, selfmon_cli()) TH_LOG("no selfmon CLI next to this test (set SELFMON_BIN)");
	ASSERT_EQ(0, geteuid()) TH_LOG("bind-mounting the MIDRs needs root (run_tests.sh runs as root)");
	/* A namespace of this test's own: nothing it mounts outlives it or reaches another test. */
	ASSERT_EQ(0, unshare(CLONE_NEWNS)) TH_LOG("unshare(CLONE_NEWNS): %s", strerror(errno));
	ASSERT_EQ(0, mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) TH_LOG("%s", strerror(errno));
	snprintf(self->dir, sizeof(self->dir), "/tmp/selfmon-midr.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	for (int k = 0; k < 2; k++) {
		FILE *f;

		snprintf(self->file[k], sizeof(self->file[k]), "%s/midr%d", self->dir, k);
		f = fopen(self->file[k], "w");
		ASSERT_NE(NULL, f);
		fprintf(f, "%s\n", midr[k]);
		ASSERT_EQ(0, fclose(f));
	}
	for (int cpu = 0; cpu < BOARD_CPUS; cpu++) {
		midr_path(path, sizeof(path), cpu);
		ASSERT_EQ(0, read_text(path, self->real[cpu], sizeof(self->real[cpu])))
			TH_LOG("CPU %d has no midr_el1", cpu);
		ASSERT_EQ(0, bind_midr(self->file[cpu_of_cluster(cpu)], cpu))
			TH_LOG("bind %s over %s: %s", self->file[cpu_of_cluster(cpu)], path, strerror(errno));
		self->mounted[cpu] = 1;
		ASSERT_EQ(0, read_text(path, got, sizeof(got)));
		ASSERT_STREQ(midr[cpu_of_cluster(cpu)], got);
	}
	self->ready = 1;
	TH_LOG("QEMU's MIDRs: %s %s %s %s; supplied: CPUs 0-1 %s, CPUs 2-3 %s", self->real[0],
	       self->real[1], self->real[2], self->real[3], MIDR_A53, MIDR_A72);
}

FIXTURE_TEARDOWN(cluster_core)
{
	for (int cpu = 0; cpu < BOARD_CPUS; cpu++)
		unbind_midr(self, cpu);
	for (int k = 0; k < 2; k++)
		if (self->file[k][0])
			unlink(self->file[k]);
	if (self->dir[0])
		rmdir(self->dir);
}

/* `selfmon ARGS` with its stderr in @err (a file); its stdout, malloc'd. */
static char *cli(struct __test_metadata *_metadata, const char *args, const char *err, int *status)
{
	char cmd[1200];
	char *out;

	snprintf(cmd, sizeof(cmd), "%s %s 2>%s </dev/null", selfmon_cli(), args, err);
	out = run_capture(cmd, status);
	TH_LOG("%s: exit status %d", cmd, *status);
	return out;
}

static int has_entry(const struct util_json *arr, const char *name)
{
	for (int i = 0; arr && i < arr->nr; i++) {
		const char *n = util_json_str(&arr->kid[i], "name");

		if (n && !strcasecmp(n, name))
			return 1;
	}
	return 0;
}

TEST_F(cluster_core, list_names_each_clusters_core_with_its_own_events_and_metrics)
{
	static const struct {
		const char *cpus, *pmu, *core;
		int a53_only;
	} want[2] = { { "0-1", LITTLE_PMU, "arm/cortex-a53", 1 },
		      { "2-3", BIG_PMU, "arm/cortex-a57-a72", 0 } };
	char errf[96], err[160], line[160];
	struct util_json root;
	const struct util_json *cl;
	int status = -1;
	char *out;

	READY_OR_SKIP();
	snprintf(errf, sizeof(errf), "%s/err", self->dir);
	out = cli(_metadata, "list --json", errf, &status);
	ASSERT_NE(NULL, out);
	ASSERT_EQ(0, status) TH_LOG("%.300s", out);
	ASSERT_EQ(0, json_parse(out, &root, err, sizeof(err))) TH_LOG("%s", err);
	cl = util_json_get(&root, "clusters");
	ASSERT_NE(NULL, cl);
	ASSERT_EQ(2, cl->nr);
	for (int c = 0; c < 2; c++) {
		const struct util_json *k = &cl->kid[c], *ev = util_json_get(k, "events"),
				  *me = util_json_get(k, "metrics");

		TH_LOG("cluster %s (%s): %s, %d events, %d metrics", util_json_str(k, "cpus"),
		       util_json_str(k, "pmu"), util_json_str(k, "core"), ev ? ev->nr : -1, me ? me->nr : -1);
		EXPECT_STREQ(want[c].cpus, util_json_str(k, "cpus"));
		EXPECT_STREQ(want[c].pmu, util_json_str(k, "pmu"));
		EXPECT_STREQ(want[c].core, util_json_str(k, "core"));
		ASSERT_NE(NULL, util_json_get(k, "fallback"));
		EXPECT_EQ(0, util_json_get(k, "fallback")->num);
		ASSERT_NE(NULL, ev);
		ASSERT_NE(NULL, me);
		/* The core's own implementation events are its own; the standard ones both have. */
		EXPECT_EQ(want[c].a53_only, has_entry(ev, A53_ONLY));
		EXPECT_EQ(want[c].a53_only, has_entry(ev, "EXT_MEM_REQ"));
		EXPECT_TRUE(has_entry(ev, "INST_RETIRED"));
		EXPECT_TRUE(has_entry(me, "ipc"));
	}
	util_json_free(&root);
	free(out);

	out = cli(_metadata, "list", errf, &status);
	ASSERT_NE(NULL, out);
	ASSERT_EQ(0, status);
	for (int c = 0; c < 2; c++) {
		snprintf(line, sizeof(line), "CPUs %s (%s): %s\n", want[c].cpus, want[c].pmu, want[c].core);
		EXPECT_NE(NULL, strstr(out, line)) TH_LOG("no line '%s' in: %.400s", line, out);
	}
	EXPECT_EQ(NULL, strstr(out, "common set"));
	/* A53_ONLY appears once: in the LITTLE block, before the big one. */
	ASSERT_NE(NULL, strstr(out, A53_ONLY));
	EXPECT_EQ(NULL, strstr(strstr(out, "CPUs 2-3"), A53_ONLY));
	free(out);
}

/* Open @events pinned to @pin; count loop3(1e6) by the first; the set's PMU in @pmu. */
static uint64_t count_pinned(struct __test_metadata *_metadata, const char *events, const char *pin,
			     const char *pmu)
{
	struct selfmon_opts opts = { .sz = sizeof(opts), .pin = pin };
	struct selfmon_count a, b;
	struct selfmon_set *set;

	set = selfmon_set__open(events, &opts);
	if (!set) {
		TH_LOG("%s pinned to %s: %s", events, pin, selfmon_errmsg());
		return UINT64_MAX;
	}
	EXPECT_STREQ(pmu, selfmon_set__pmu(set));
	EXPECT_EQ(0, selfmon_set__enable(set));
	EXPECT_EQ(0, selfmon_set__read(set, 0, &a));
	loop3(1000000);
	EXPECT_EQ(0, selfmon_set__read(set, 0, &b));
	EXPECT_EQ(SELFMON_COUNT_USER, b.flags & SELFMON_COUNT_USER) TH_LOG("%s on %s", events, pin);
	selfmon_set__close(set);
	TH_LOG("%s pinned to %s (%s): %llu", events, pin, pmu, (unsigned long long)(b.value - a.value));
	return b.value - a.value;
}

TEST_F(cluster_core, an_event_named_by_a_clusters_tables_counts_on_that_cluster)
{
	uint64_t n;

	READY_OR_SKIP();
	/* INST_RETIRED: the A72's tables list it; the A53's take it from the standard events. */
	n = count_pinned(_metadata, "INST_RETIRED:u", BIG_PMU, BIG_PMU);
	EXPECT_TRUE(n != UINT64_MAX && n >= 2700000 && n <= 3300000) TH_LOG("%llu", (unsigned long long)n);
	n = count_pinned(_metadata, "INST_RETIRED:u", LITTLE_PMU, LITTLE_PMU);
	EXPECT_TRUE(n != UINT64_MAX && n >= 2700000 && n <= 3300000) TH_LOG("%llu", (unsigned long long)n);
	/* The A53's own event opens on the LITTLE PMU (QEMU does not count it: 0 or close). */
	n = count_pinned(_metadata, A53_ONLY ":u,INST_RETIRED:u", "little", LITTLE_PMU);
	EXPECT_NE(UINT64_MAX, n);
}

TEST_F(cluster_core, a_name_only_the_other_clusters_core_has_is_refused_naming_the_cluster)
{
	struct selfmon_opts opts = { .sz = sizeof(opts), .pin = "big" };
	struct selfmon_set *set;

	READY_OR_SKIP();
	set = selfmon_set__open(A53_ONLY ":u", &opts);
	EXPECT_EQ(NULL, set);
	if (set) {
		selfmon_set__close(set);
		return;
	}
	TH_LOG("%s", selfmon_errmsg());
	EXPECT_NE(NULL, strstr(selfmon_errmsg(), A53_ONLY));
	EXPECT_NE(NULL, strstr(selfmon_errmsg(), BIG_PMU));
}

/*
 * `selfmon bench --cluster @cl --metrics ipc` of add_chain, started on CPU 0
 * (a LITTLE one) with every CPU allowed, as a shell started there would run
 * it; its stderr in @errf. Its ipc, or -1.
 */
static double ipc_on(struct __test_metadata *_metadata, const char *cl, const char *errf)
{
	char *const argv[] = { "selfmon", "bench", "--format", "json", "--cluster", (char *)cl,
			       "--events", "instructions:u", "--metrics", "ipc", "--filter", "^add_chain$",
			       "--repetitions", "3", "--warmup", "1", "--iterations", "1000", NULL };
	size_t len = 0, cap = 1 << 16;
	char *out = malloc(cap), err[160];
	const struct util_json *b, *v;
	cpu_set_t all, cpu0;
	struct util_json root;
	int fd[2], status = -1;
	double ipc = -1;
	ssize_t n;
	pid_t pid;

	if (!out || pipe(fd) || sched_getaffinity(0, sizeof(all), &all)) {
		free(out);
		return -1;
	}
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	pid = fork();
	if (!pid) {
		int e = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		/* On CPU 0, then free to go: the thread stays where it is until something moves it. */
		if (sched_setaffinity(0, sizeof(cpu0), &cpu0) || sched_yield() ||
		    sched_setaffinity(0, sizeof(all), &all) || e < 0 || dup2(e, 2) < 0 ||
		    dup2(fd[1], 1) < 0)
			_exit(126);
		close(fd[0]);
		execv(selfmon_cli(), argv);
		_exit(127);
	}
	close(fd[1]);
	while (pid > 0 && len + 1 < cap && (n = read(fd[0], out + len, cap - len - 1)) > 0)
		len += (size_t)n;
	out[len] = '\0';
	close(fd[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	TH_LOG("selfmon bench --cluster %s --metrics ipc (from CPU 0): exit status %d", cl, status);
	if (!status && !json_parse(out, &root, err, sizeof(err))) {
		b = json_bench(&root, "add_chain_median");
		v = b ? util_json_get(b, "ipc") : NULL;
		if (v)
			ipc = v->num;
		util_json_free(&root);
	}
	if (ipc < 0) {
		char msg[1024] = "";

		read_file(errf, msg, sizeof(msg));
		TH_LOG("%s: no ipc; stderr: %s; stdout: %.400s", cl, msg, out);
	}
	free(out);
	return ipc;
}

static int file_has(const char *path, const char *text)
{
	char buf[4096];

	return !read_file(path, buf, sizeof(buf)) && strstr(buf, text);
}

TEST_F(cluster_core, a_metric_computes_on_each_cluster_from_that_clusters_tables)
{
	const char *cl[2] = { LITTLE_PMU, BIG_PMU };
	char errf[96];

	READY_OR_SKIP();
	snprintf(errf, sizeof(errf), "%s/err", self->dir);
	for (int k = 0; k < 2; k++) {
		double ipc = ipc_on(_metadata, cl[k], errf);

		TH_LOG("ipc of add_chain on %s: %.6f", cl[k], ipc);

		/* One instruction a cycle under icount, within what icount leaks between vCPUs. */
		EXPECT_TRUE(ipc > 0.9 && ipc < 1.1) TH_LOG("%s: ipc %.6f", cl[k], ipc);
		EXPECT_FALSE(file_has(errf, "common set")) TH_LOG("%s: a core with tables fell back", cl[k]);
	}
	/*
	 * The big CPUs back at QEMU's MIDR (no rule): --cluster big must take
	 * the common set and say so, though started on a LITTLE CPU, whose
	 * core has its tables.
	 */
	for (int cpu = BOARD_CPUS / 2; cpu < BOARD_CPUS; cpu++)
		unbind_midr(self, cpu);
	EXPECT_TRUE(ipc_on(_metadata, "big", errf) > 0.9);
	EXPECT_TRUE(file_has(errf, "common set")) TH_LOG("--cluster big took the LITTLE core's tables");
	EXPECT_TRUE(ipc_on(_metadata, "little", errf) > 0.9);
	EXPECT_FALSE(file_has(errf, "common set"));
}

TEST_HARNESS_MAIN
