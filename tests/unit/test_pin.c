// SPDX-License-Identifier: MIT
/*
 * Pinning: selfmon_pin__parse() for every policy form, selfmon_pin__resolve()
 * on each fixture board (tests/fixtures/sysfs/<board>/), and the whole way
 * through selfmon_set__open() with the scheduler calls and libperf mocked
 * (test_pin.wrap): the affinity the thread is given and given back, the attr
 * each event is opened with on the pinned cluster's PMU, the summing of an
 * unpinned thread's counts on a heterogeneous board, which policy wins
 * (option, $SELFMON_PIN, CONFIG_PIN_POLICY), and the fallback reason of a
 * thread found outside its cluster. A board whose tree is missing is skipped.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <perf/evsel.h>
#include <linux/perf_event.h>
#include <generated/autoconf.h>
#include <selfmon/read.h>
#include <selfmon/selfmon.h>
#include "../../core/arch.h"
#include "../../core/cpulist.h"
#include "../../core/error.h"
#include "../../core/pin.h"
#include "../../core/pmu.h"
#include "../../core/topology.h"
#include "fakeroot.h"


static char fixtures[PATH_MAX];

/* ---- the scheduler and libperf, mocked ---- */

#define MAX_OPENS 8
#define MAX_SETS 16

static struct {
	/* libperf */
	int opens;
	int open_err[MAX_OPENS];
	struct perf_event_attr attr[MAX_OPENS];
	struct perf_evsel *evsel[MAX_OPENS];
	struct perf_counts_values counts[MAX_OPENS];	/* what read(2) of the n-th open says */
	int mmaps, reads, enables, disables;
	const struct selfmon_arch *arch;		/* NULL: x86's gates */
	/* the scheduler */
	int cpu;				/* what sched_getcpu() says */
	int getcpus, getaffinities;
	cpu_set_t affinity;			/* the thread's, as the kernel keeps it */
	int getaffinity_err, setaffinity_err;	/* errno to fail with */
	int sets;
	cpu_set_t set_mask[MAX_SETS];		/* what each sched_setaffinity() asked */
	pid_t set_pid[MAX_SETS];		/* ...and of which thread */
	pid_t main_tid;				/* the test's thread, for a close from another */
} mock;

static struct perf_event_mmap_page sim_page __attribute__((aligned(4096)));

int __wrap_perf_evsel__open(struct perf_evsel *evsel, struct perf_cpu_map *cpus,
			    struct perf_thread_map *threads);
int __wrap_perf_evsel__mmap(struct perf_evsel *evsel, int pages);
void *__wrap_perf_evsel__mmap_base(struct perf_evsel *evsel, int cpu_map_idx, int thread);
int __wrap_perf_evsel__read(struct perf_evsel *evsel, int cpu_map_idx, int thread,
			    struct perf_counts_values *count);
int __wrap_perf_evsel__enable(struct perf_evsel *evsel);
int __wrap_perf_evsel__disable(struct perf_evsel *evsel);
const struct selfmon_arch *__wrap_selfmon_arch__host(void);
int __wrap_sched_getcpu(void);
int __wrap_sched_getaffinity(pid_t pid, size_t size, cpu_set_t *mask);
int __wrap_sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *mask);

int __wrap_perf_evsel__open(struct perf_evsel *evsel, struct perf_cpu_map *cpus,
			    struct perf_thread_map *threads)
{
	int n = mock.opens++;

	(void)cpus;
	assert_non_null(threads);
	assert_true(n < MAX_OPENS);
	mock.attr[n] = *perf_evsel__attr(evsel);
	mock.evsel[n] = evsel;
	return mock.open_err[n];
}

int __wrap_perf_evsel__mmap(struct perf_evsel *evsel, int pages)
{
	(void)evsel;
	(void)pages;
	mock.mmaps++;
	return 0;
}

void *__wrap_perf_evsel__mmap_base(struct perf_evsel *evsel, int cpu_map_idx, int thread)
{
	(void)evsel;
	(void)cpu_map_idx;
	(void)thread;
	return &sim_page;
}

int __wrap_perf_evsel__read(struct perf_evsel *evsel, int cpu_map_idx, int thread,
			    struct perf_counts_values *count)
{
	(void)cpu_map_idx;
	(void)thread;
	mock.reads++;
	for (int n = mock.opens - 1; n >= 0; n--) {
		if (mock.evsel[n] == evsel && !mock.open_err[n]) {
			*count = mock.counts[n];
			return 0;
		}
	}
	fail_msg("perf_evsel__read of an evsel that was never opened");
	return -EBADF;
}

int __wrap_perf_evsel__enable(struct perf_evsel *evsel)
{
	(void)evsel;
	mock.enables++;
	return 0;
}

int __wrap_perf_evsel__disable(struct perf_evsel *evsel)
{
	(void)evsel;
	mock.disables++;
	return 0;
}

/* The board's arch, whatever this build's is: arm64 boards need its gates. */
const struct selfmon_arch *__wrap_selfmon_arch__host(void)
{
	return mock.arch ? mock.arch : &selfmon_arch__x86;
}

int __wrap_sched_getcpu(void)
{
	mock.getcpus++;
	return mock.cpu;
}

int __wrap_sched_getaffinity(pid_t pid, size_t size, cpu_set_t *mask)
{
	assert_int_equal(pid, 0);
	assert_true(size >= sizeof(cpu_set_t));
	mock.getaffinities++;
	if (mock.getaffinity_err) {
		errno = mock.getaffinity_err;
		return -1;
	}
	*mask = mock.affinity;
	return 0;
}

int __wrap_sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *mask)
{
	/* 0: the caller; or the pinned thread by its tid, from a thread closing its set */
	assert_true(pid == 0 || pid == mock.main_tid);
	mock.set_pid[mock.sets] = pid;
	assert_int_equal(size, sizeof(cpu_set_t));
	assert_true(mock.sets < MAX_SETS);
	mock.set_mask[mock.sets++] = *mask;
	if (mock.setaffinity_err) {
		errno = mock.setaffinity_err;
		return -1;
	}
	mock.affinity = *mask;
	return 0;
}

/* ---- the boards ---- */

enum kind { ARM, X86, X86_HYBRID };

struct cluster {
	const char *pmu;
	uint32_t type;
	const char *cpus;
	uint64_t inst, cycles;	/* arm: the events/ alias values of instructions, cycles */
	bool rdpmc;		/* arm: format/rdpmc is there */
};

struct board {
	const char *name;
	enum kind kind;
	const char *online;
	int nr;
	struct cluster cl[3];	/* in PMU type order, as the topology lists them */
	int big, little;	/* indices into cl */
	enum selfmon_reason gate;	/* why not user space, before enable, when pinned */
};

static const struct board boards[] = {
	{ "rk3399", ARM, "0-5", 2,
	  { { "armv8_cortex_a72", 8, "4-5", 0x08, 0x11, true },
	    { "armv8_cortex_a53", 9, "0-3", 0x08, 0x11, true } }, 0, 1, SELFMON_REASON_SYSCTL },
	{ "qemu-biglittle", ARM, "0-3", 2,
	  { { "armv8_cortex_a53", 8, "0-1", 0x08, 0x11, true },
	    { "armv8_cortex_a72", 9, "2-3", 0x08, 0x11, true } }, 1, 0, SELFMON_REASON_SYSCTL },
	{ "snapdragon-8gen1", ARM, "0-7", 3,
	  { { "armv9_cortex_a510", 8, "0-3", 0x08, 0x11, true },
	    { "armv9_cortex_a710", 9, "4-6", 0x08, 0x11, true },
	    { "armv9_cortex_x2", 10, "7", 0x08, 0x11, true } }, 2, 0, SELFMON_REASON_SYSCTL },
	{ "snapdragon-8gen1-upstream-dt", ARM, "0-7", 1,
	  { { "armv8_pmuv3", 8, "0-7", 0x08, 0x11, true } }, 0, 0, SELFMON_REASON_SYSCTL },
	{ "m1", ARM, "0-7", 2,
	  { { "apple_icestorm_pmu", 8, "0-3", 0x8c, 0x02, false },
	    { "apple_firestorm_pmu", 9, "4-7", 0x8c, 0x02, false } }, 1, 0, SELFMON_REASON_NO_FORMAT },
	{ "rpi4", ARM, "0-3", 1,
	  { { "armv8_cortex_a72", 8, "0-3", 0x08, 0x11, true } }, 0, 0, SELFMON_REASON_SYSCTL },
	{ "qemu-virt", ARM, "0", 1,
	  { { "armv8_pmuv3", 8, "0", 0x08, 0x11, true } }, 0, 0, SELFMON_REASON_SYSCTL },
	{ "qemu-virt-useraccess", ARM, "0", 1,
	  { { "armv8_pmuv3", 8, "0", 0x08, 0x11, true } }, 0, 0, SELFMON_REASON_NONE },
	{ "alderlake", X86_HYBRID, "0-23", 2,
	  { { "cpu_core", 4, "0-15", 0, 0, false }, { "cpu_atom", 8, "16-23", 0, 0, false } },
	  0, 1, SELFMON_REASON_NONE },
	{ "skylake", X86, "0-7", 1, { { "cpu", 4, "0-7", 0, 0, false } }, 0, 0, SELFMON_REASON_NONE },
};

#define NR_BOARDS (sizeof(boards) / sizeof(boards[0]))

static const struct board *board(const char *name)
{
	for (size_t i = 0; i < NR_BOARDS; i++)
		if (!strcmp(boards[i].name, name))
			return &boards[i];
	fail_msg("no board %s in the table", name);
	return NULL;
}

static cpu_set_t cpuset(const char *list)
{
	cpu_set_t s;

	if (selfmon_cpulist__parse(list, &s))
		fail_msg("bad CPU list '%s' in the test", list);
	return s;
}

static const char *fmt_cpus(const cpu_set_t *s, char *buf, size_t size)
{
	if (selfmon_cpulist__format(s, buf, size))
		snprintf(buf, size, "(too many)");
	return buf;
}

static void cpus_equal(const char *what, const cpu_set_t *have, const cpu_set_t *want)
{
	char a[256], b[256];

	if (!CPU_EQUAL(have, want))
		fail_msg("%s: CPUs %s, want %s", what, fmt_cpus(have, a, sizeof(a)), fmt_cpus(want, b, sizeof(b)));
}

static int last_cpu(const cpu_set_t *s)
{
	int last = -1;

	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, s))
			last = c;
	return last;
}

static int first_cpu(const cpu_set_t *s)
{
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, s))
			return c;
	return -1;
}

/* ---- fixture ---- */

struct world {
	char root[PATH_MAX];
	char *fake;		/* a synthetic root, when a test makes one */
	struct selfmon_opts opts;
	struct selfmon_set *set;
	/* selfmon_pin__resolve() tests */
	struct selfmon_pmus pmus;
	struct selfmon_topology topo;
	bool loaded;
};

static int find_fixtures(void **state)
{
	(void)state;
	fakeroot__fixtures(fixtures, sizeof(fixtures));
	return 0;
}

static void reset_mock(void)
{
	memset(&mock, 0, sizeof(mock));
	memset(&sim_page, 0, sizeof(sim_page));
	sim_page.cap_user_rdpmc = 1;	/* the page allows; index 0: not on a counter now */
	sim_page.pmc_width = 64;
}

static int world_setup(void **state)
{
	struct world *w = calloc(1, sizeof(*w));

	if (!w)
		return -1;
	reset_mock();
	unsetenv("SELFMON_PIN");
	unsetenv("SELFMON_NO_USER_READ");
	unsetenv("SELFMON_SYSFS_ROOT");
	w->opts.sz = sizeof(w->opts);
	*state = w;
	return 0;
}

static int world_teardown(void **state)
{
	struct world *w = *state;

	selfmon_set__close(w->set);
	if (w->loaded)
		selfmon_pmus__free(&w->pmus);
	fakeroot__free(w->fake);
	unsetenv("SELFMON_PIN");
	free(w);
	return 0;
}

/* Point @w at @b's tree, the thread runnable on all of @b's CPUs; skip if the tree is missing. */
static void use_board(struct world *w, const struct board *b)
{
	if (fakeroot__board(fixtures, b->name, w->root, sizeof(w->root)))
		skip();
	w->opts.root = w->root;
	mock.arch = b->kind == ARM ? &selfmon_arch__arm64 : &selfmon_arch__x86;
	mock.affinity = cpuset(b->online);
}

/* Like use_board(), but false (and nothing changed) when the tree is missing. */
static bool try_board(struct world *w, const struct board *b)
{
	char root[PATH_MAX];

	if (fakeroot__board(fixtures, b->name, root, sizeof(root)))
		return false;
	use_board(w, b);
	return true;
}

static void load_topology(struct world *w, const char *name)
{
	if (fakeroot__board(fixtures, name, w->root, sizeof(w->root)))
		skip();
	if (w->loaded)
		selfmon_pmus__free(&w->pmus);
	assert_int_equal(selfmon_pmus__load(&w->pmus, w->root), 0);
	w->loaded = true;
	assert_int_equal(selfmon_topology__load(&w->topo, &w->pmus), 0);
}

static struct selfmon_set *open_ok(struct world *w, const char *events)
{
	w->set = selfmon_set__open(events, &w->opts);
	if (!w->set)
		fail_msg("open '%s' pinned '%s': %s (%s)", events, w->opts.pin ? w->opts.pin : "(default)",
			 strerror(errno), selfmon_errmsg());
	return w->set;
}

static void close_set(struct world *w)
{
	selfmon_set__close(w->set);
	w->set = NULL;
}

/* ---- selfmon_pin__parse ---- */

static void the_four_words_parse_to_their_kinds(void **state)
{
	static const struct { const char *word; enum selfmon_pin_kind kind; } words[] = {
		{ "none", SELFMON_PIN_NONE }, { "current", SELFMON_PIN_CURRENT },
		{ "big", SELFMON_PIN_BIG }, { "little", SELFMON_PIN_LITTLE },
	};
	struct selfmon_pin pin;

	(void)state;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		memset(&pin, 0xa5, sizeof(pin));
		assert_int_equal(selfmon_pin__parse(words[i].word, &pin), 0);
		assert_int_equal(pin.kind, words[i].kind);
		assert_string_equal(pin.pmu, "");
		assert_int_equal(CPU_COUNT(&pin.cpus), 0);
	}
	/* the words are exact: anything else is a PMU's name */
	assert_int_equal(selfmon_pin__parse("Big", &pin), 0);
	assert_int_equal(pin.kind, SELFMON_PIN_PMU);
	assert_int_equal(selfmon_pin__parse("bigger", &pin), 0);
	assert_int_equal(pin.kind, SELFMON_PIN_PMU);
}

static void a_cpu_list_parses_with_or_without_the_cpus_prefix(void **state)
{
	static const struct { const char *policy, *cpus; } lists[] = {
		{ "2-3", "2-3" }, { "cpus:4,5", "4-5" }, { "0", "0" }, { "cpus:7", "7" },
		{ "0-1,6", "0-1,6" }, { "cpus:16-23", "16-23" },
	};
	struct selfmon_pin pin;

	(void)state;
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		cpu_set_t want = cpuset(lists[i].cpus);

		if (selfmon_pin__parse(lists[i].policy, &pin))
			fail_msg("'%s': %s", lists[i].policy, selfmon_errmsg());
		assert_int_equal(pin.kind, SELFMON_PIN_CPUS);
		cpus_equal(lists[i].policy, &pin.cpus, &want);
	}
}

static void any_other_word_is_a_core_pmus_name(void **state)
{
	char longest[64];
	struct selfmon_pin pin;

	(void)state;
	assert_int_equal(selfmon_pin__parse("armv8_cortex_a53", &pin), 0);
	assert_int_equal(pin.kind, SELFMON_PIN_PMU);
	assert_string_equal(pin.pmu, "armv8_cortex_a53");
	assert_int_equal(selfmon_pin__parse("cpu_atom", &pin), 0);
	assert_int_equal(pin.kind, SELFMON_PIN_PMU);
	assert_string_equal(pin.pmu, "cpu_atom");

	memset(longest, 'p', sizeof(longest) - 1);	/* 63 characters: fits with its NUL */
	longest[sizeof(longest) - 1] = '\0';
	assert_int_equal(selfmon_pin__parse(longest, &pin), 0);
	assert_int_equal(pin.kind, SELFMON_PIN_PMU);
	assert_string_equal(pin.pmu, longest);
}

static void a_malformed_policy_is_einval_with_a_message_naming_it(void **state)
{
	char toolong[65];
	const char *bad[] = { "", "a/b", "armv8_cortex_a53/", toolong, "2-x", "3-1", "1,,2", "99999" };
	struct selfmon_pin pin;

	(void)state;
	memset(toolong, 'p', sizeof(toolong) - 1);	/* 64 characters: one too many */
	toolong[sizeof(toolong) - 1] = '\0';
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char quoted[80];

		selfmon__err_clear();
		if (selfmon_pin__parse(bad[i], &pin) != -EINVAL)
			fail_msg("'%s' parses, want -EINVAL", bad[i]);
		snprintf(quoted, sizeof(quoted), "'%s'", bad[i]);
		if (!strstr(selfmon_errmsg(), quoted))
			fail_msg("'%s': message '%s' does not name it", bad[i], selfmon_errmsg());
	}
	/* a name that is no list says what a policy may be */
	assert_int_equal(selfmon_pin__parse("a/b", &pin), -EINVAL);
	assert_non_null(strstr(selfmon_errmsg(), "none, current, big, little"));
	/* a list that is no list says so */
	assert_int_equal(selfmon_pin__parse("2-x", &pin), -EINVAL);
	assert_non_null(strstr(selfmon_errmsg(), "not a CPU list"));
}

static void the_cpus_prefix_with_no_list_after_it_is_einval(void **state)
{
	const char *bad[] = { "cpus:", "cpus:abc", "cpus:-1" };
	struct selfmon_pin pin;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (selfmon_pin__parse(bad[i], &pin) != -EINVAL)
			fail_msg("'%s' parses as kind %d, want -EINVAL", bad[i], pin.kind);
}

/* ---- selfmon_pin__resolve, per board ---- */

struct resolve_case {
	const char *board, *policy;
	int cpu;		/* where the thread runs */
	const char *pmu;	/* the cluster; NULL: none (policy none) */
	const char *cpus;	/* the CPUs to pin to */
};

static const struct resolve_case resolves[] = {
	{ "rk3399", "big", 0, "armv8_cortex_a72", "4-5" },
	{ "rk3399", "little", 4, "armv8_cortex_a53", "0-3" },
	{ "rk3399", "armv8_cortex_a53", 5, "armv8_cortex_a53", "0-3" },
	{ "rk3399", "armv8_cortex_a72", 0, "armv8_cortex_a72", "4-5" },
	{ "rk3399", "2-3", 5, "armv8_cortex_a53", "2-3" },
	{ "rk3399", "cpus:4,5", 0, "armv8_cortex_a72", "4-5" },
	{ "rk3399", "5", 0, "armv8_cortex_a72", "5" },
	{ "rk3399", "current", 1, "armv8_cortex_a53", "0-3" },
	{ "rk3399", "current", 5, "armv8_cortex_a72", "4-5" },
	{ "rk3399", "none", 5, NULL, NULL },
	{ "qemu-biglittle", "big", 0, "armv8_cortex_a72", "2-3" },
	{ "qemu-biglittle", "little", 3, "armv8_cortex_a53", "0-1" },
	{ "qemu-biglittle", "current", 2, "armv8_cortex_a72", "2-3" },
	{ "snapdragon-8gen1", "big", 0, "armv9_cortex_x2", "7" },
	{ "snapdragon-8gen1", "little", 7, "armv9_cortex_a510", "0-3" },
	{ "snapdragon-8gen1", "armv9_cortex_a710", 0, "armv9_cortex_a710", "4-6" },
	{ "snapdragon-8gen1", "current", 6, "armv9_cortex_a710", "4-6" },
	{ "snapdragon-8gen1", "cpus:4,6", 0, "armv9_cortex_a710", "4,6" },
	{ "snapdragon-8gen1-upstream-dt", "big", 3, "armv8_pmuv3", "0-7" },
	{ "snapdragon-8gen1-upstream-dt", "little", 3, "armv8_pmuv3", "0-7" },
	{ "snapdragon-8gen1-upstream-dt", "0-7", 3, "armv8_pmuv3", "0-7" },
	{ "m1", "big", 0, "apple_firestorm_pmu", "4-7" },
	{ "m1", "little", 7, "apple_icestorm_pmu", "0-3" },
	{ "m1", "current", 3, "apple_icestorm_pmu", "0-3" },
	{ "alderlake", "big", 20, "cpu_core", "0-15" },
	{ "alderlake", "little", 0, "cpu_atom", "16-23" },
	{ "alderlake", "cpus:16-23", 0, "cpu_atom", "16-23" },
	{ "alderlake", "current", 17, "cpu_atom", "16-23" },
	{ "rpi4", "big", 2, "armv8_cortex_a72", "0-3" },
	{ "rpi4", "current", 2, "armv8_cortex_a72", "0-3" },
	{ "qemu-virt", "little", 0, "armv8_pmuv3", "0" },
	{ "skylake", "big", 0, "cpu", "0-7" },
	{ "skylake", "current", 6, "cpu", "0-7" },
	{ "skylake", "cpu", 6, "cpu", "0-7" },
	{ "x86-nopmu", "none", 0, NULL, NULL },
};

static void each_policy_resolves_to_its_cluster_and_cpus_on_every_board(void **state)
{
	struct world *w = *state;
	int seen = 0;

	for (size_t i = 0; i < sizeof(resolves) / sizeof(resolves[0]); i++) {
		const struct resolve_case *r = &resolves[i];
		const struct selfmon_cluster *cl = (const void *)1;
		struct selfmon_pin pin;
		cpu_set_t cpus, want;
		int err;

		if (fakeroot__board(fixtures, r->board, w->root, sizeof(w->root)))
			continue;
		seen++;
		load_topology(w, r->board);
		assert_int_equal(selfmon_pin__parse(r->policy, &pin), 0);
		CPU_ZERO(&cpus);
		err = selfmon_pin__resolve(&pin, &w->topo, r->cpu, &cl, &cpus);
		if (err)
			fail_msg("%s '%s' on CPU %d: %d (%s)", r->board, r->policy, r->cpu, err, selfmon_errmsg());
		if (!r->pmu) {
			assert_null(cl);
			continue;
		}
		if (!cl || strcmp(cl->pmu->name, r->pmu))
			fail_msg("%s '%s' on CPU %d: cluster %s, want %s", r->board, r->policy, r->cpu,
				 cl ? cl->pmu->name : "(none)", r->pmu);
		want = cpuset(r->cpus);
		cpus_equal(r->policy, &cpus, &want);
	}
	if (!seen)
		skip();
}

/* Resolve @policy on @board from @cpu: the error, with cl checked to stay NULL. */
static int resolve_err(struct world *w, const char *board_name, const char *policy, int cpu)
{
	const struct selfmon_cluster *cl = (const void *)1;
	struct selfmon_pin pin;
	cpu_set_t cpus;
	int err;

	load_topology(w, board_name);
	assert_int_equal(selfmon_pin__parse(policy, &pin), 0);
	selfmon__err_clear();
	err = selfmon_pin__resolve(&pin, &w->topo, cpu, &cl, &cpus);
	if (!err)
		fail_msg("%s '%s' resolves to %s, want an error", board_name, policy,
			 cl ? cl->pmu->name : "(none)");
	assert_null(cl);
	return err;
}

static void has(const char *text)
{
	if (!strstr(selfmon_errmsg(), text))
		fail_msg("message '%s' lacks '%s'", selfmon_errmsg(), text);
}

static void an_unknown_cluster_is_enoent_and_the_message_lists_the_clusters(void **state)
{
	struct world *w = *state;

	assert_int_equal(resolve_err(w, "rk3399", "armv8_cortex_a57", 0), -ENOENT);
	has("'armv8_cortex_a57'");
	has("armv8_cortex_a72 (4-5), armv8_cortex_a53 (0-3)");
	/* a PMU that is there but counts no CPU's instructions is no cluster either */
	assert_int_equal(resolve_err(w, "rk3399", "software", 0), -ENOENT);
	has("'software'");
	assert_int_equal(resolve_err(w, "alderlake", "cpu", 0), -ENOENT);	/* hybrid has no plain 'cpu' */
	has("cpu_core (0-15), cpu_atom (16-23)");
}

static void a_cpu_list_spanning_two_clusters_is_einval_naming_both(void **state)
{
	struct world *w = *state;

	assert_int_equal(resolve_err(w, "rk3399", "3-4", 0), -EINVAL);
	has("armv8_cortex_a53");
	has("armv8_cortex_a72");
	assert_int_equal(resolve_err(w, "snapdragon-8gen1", "cpus:6,7", 0), -EINVAL);
	has("armv9_cortex_a710 and armv9_cortex_x2");
	assert_int_equal(resolve_err(w, "alderlake", "15-16", 0), -EINVAL);
	has("cpu_core and cpu_atom");
}

static void a_cpu_list_with_a_cpu_in_no_cluster_is_enoent(void **state)
{
	struct world *w = *state;

	assert_int_equal(resolve_err(w, "rk3399", "4-6", 0), -ENOENT);
	has("CPU 6");
	assert_int_equal(resolve_err(w, "qemu-virt", "1", 0), -ENOENT);
	has("CPU 1");
}

static void current_on_a_cpu_without_a_pmu_is_enoent(void **state)
{
	struct world *w = *state;

	assert_int_equal(resolve_err(w, "rk3399", "current", 6), -ENOENT);
	has("CPU 6");
	has("armv8_cortex_a72 (4-5), armv8_cortex_a53 (0-3)");
	/* sched_getcpu() failed: no CPU at all */
	assert_int_equal(resolve_err(w, "rk3399", "current", -1), -ENOENT);
}

static void any_pinning_on_a_machine_without_a_cpu_pmu_is_enoent(void **state)
{
	struct world *w = *state;
	const char *policies[] = { "current", "big", "little", "cpu", "0", "cpus:0-1" };

	for (size_t i = 0; i < sizeof(policies) / sizeof(policies[0]); i++) {
		if (resolve_err(w, "x86-nopmu", policies[i], 0) != -ENOENT)
			fail_msg("x86-nopmu '%s': want -ENOENT", policies[i]);
		has("no CPU PMU");
	}
}

static void big_or_little_among_clusters_that_cannot_be_told_apart_is_einval(void **state)
{
	struct world *w = *state;
	const struct selfmon_cluster *cl = NULL;
	struct selfmon_pin pin;
	cpu_set_t cpus;

	w->fake = fakeroot__new();
	fakeroot__armv8(w->fake, "armv8_pmuv3_0", 8, "0-3");
	fakeroot__armv8(w->fake, "armv8_pmuv3_1", 9, "4-7");
	assert_int_equal(selfmon_pmus__load(&w->pmus, w->fake), 0);
	w->loaded = true;
	assert_int_equal(selfmon_topology__load(&w->topo, &w->pmus), 0);
	assert_int_equal(selfmon_pin__parse("big", &pin), 0);
	assert_int_equal(selfmon_pin__resolve(&pin, &w->topo, 0, &cl, &cpus), -EINVAL);
	assert_null(cl);
	has("cannot tell the big cluster");
	has("armv8_pmuv3_0 (0-3), armv8_pmuv3_1 (4-7)");
	assert_int_equal(selfmon_pin__parse("little", &pin), 0);
	assert_int_equal(selfmon_pin__resolve(&pin, &w->topo, 0, &cl, &cpus), -EINVAL);
	has("little");
	/* the other policies still work there */
	assert_int_equal(selfmon_pin__parse("current", &pin), 0);
	assert_int_equal(selfmon_pin__resolve(&pin, &w->topo, 5, &cl, &cpus), 0);
	assert_string_equal(cl->pmu->name, "armv8_pmuv3_1");
}

/* ---- through selfmon_set__open: affinity and attrs ---- */

/* config1 an arm64 core PMU with format/rdpmc is opened with. */
static uint64_t arm_config1(const struct cluster *c, bool no_long)
{
	uint64_t v = 0;

	if (!c->rdpmc)
		return 0;
	v |= 1u << 1;		/* rdpmc = config1:1 */
#ifdef CONFIG_LONG_COUNTERS
	if (!no_long)
		v |= 1u << 0;	/* long = config1:0 */
#else
	(void)no_long;
#endif
	return v;
}

/* Check the n-th open is @generic ("instructions" or "cycles") on @c of @b. */
static void check_attr(const struct board *b, const struct cluster *c, int n, bool instructions,
		       bool no_long, const char *what)
{
	const struct perf_event_attr *a = &mock.attr[n];
	uint64_t hw = instructions ? PERF_COUNT_HW_INSTRUCTIONS : PERF_COUNT_HW_CPU_CYCLES;
	uint64_t want_config, want_config1 = 0;
	uint32_t want_type;

	switch (b->kind) {
	case ARM:
		want_type = c->type;
		want_config = instructions ? c->inst : c->cycles;
		want_config1 = arm_config1(c, no_long);
		break;
	case X86_HYBRID:
		want_type = PERF_TYPE_HARDWARE;
		want_config = hw | ((uint64_t)c->type << 32);
		break;
	default:
		want_type = PERF_TYPE_HARDWARE;
		want_config = hw;
		break;
	}
	if (a->type != want_type || a->config != want_config || a->config1 != want_config1)
		fail_msg("%s: open %d of %s: type %u config 0x%llx config1 0x%llx, "
			 "want type %u config 0x%llx config1 0x%llx", what, n,
			 instructions ? "instructions" : "cycles", a->type,
			 (unsigned long long)a->config, (unsigned long long)a->config1, want_type,
			 (unsigned long long)want_config, (unsigned long long)want_config1);
	assert_int_equal(a->disabled, 1);
}

/*
 * Open "instructions,cycles" on board @b pinned by @policy, the thread on
 * @cpu and allowed @allowed (NULL: every online CPU): it must land on
 * cluster @ci, on CPUs @want ∩ allowed, and get its affinity back on close.
 */
static void check_pinned(struct world *w, const struct board *b, const char *policy, int cpu,
			 int ci, const char *want_list, const char *allowed)
{
	const struct cluster *c = &b->cl[ci];
	cpu_set_t before, want;
	enum selfmon_reason why = SELFMON_REASON__MAX;
	char what[160];
	bool moved;
	int path;

	reset_mock();
	use_board(w, b);
	if (allowed)
		mock.affinity = cpuset(allowed);
	before = mock.affinity;
	mock.cpu = cpu;
	want = cpuset(want_list ? want_list : c->cpus);
	CPU_AND(&want, &want, &before);
	moved = !CPU_EQUAL(&want, &before);
	snprintf(what, sizeof(what), "%s pinned '%s' from CPU %d", b->name, policy, cpu);

	w->opts.pin = policy;
	open_ok(w, "instructions,cycles");
	path = selfmon_set__path(w->set, 0, &why);

	if (!selfmon_set__pmu(w->set) || strcmp(selfmon_set__pmu(w->set), c->pmu))
		fail_msg("%s: pinned to %s, want %s", what,
			 selfmon_set__pmu(w->set) ? selfmon_set__pmu(w->set) : "(none)", c->pmu);
	if (mock.opens != 2)
		fail_msg("%s: %d opens, want 2", what, mock.opens);
	check_attr(b, c, 0, true, w->opts.no_long, what);
	check_attr(b, c, 1, false, w->opts.no_long, what);
	assert_int_equal(path, why == SELFMON_REASON_NONE ? SELFMON_PATH_USER : SELFMON_PATH_SYSCALL);
	if (why != b->gate)
		fail_msg("%s: reason '%s', want '%s'", what, selfmon_reason__str(why),
			 selfmon_reason__str(b->gate));
	if (moved) {
		if (mock.sets != 1)
			fail_msg("%s: %d sched_setaffinity calls at open, want 1", what, mock.sets);
		cpus_equal(what, &mock.set_mask[0], &want);
	} else if (mock.sets) {
		fail_msg("%s: sched_setaffinity called though the thread was within the cluster", what);
	}

	close_set(w);
	if (moved) {
		if (mock.sets != 2)
			fail_msg("%s: %d sched_setaffinity calls after close, want 2", what, mock.sets);
		cpus_equal("the affinity given back", &mock.set_mask[1], &before);
	} else {
		assert_int_equal(mock.sets, 0);
	}
	cpus_equal("the affinity after close", &mock.affinity, &before);
}

/* Run @body for each board in the table whose tree is there; skip if none is. */
#define FOR_EACH_BOARD(w, b)							\
	for (size_t fe_i = 0, fe_seen = 0; fe_i <= NR_BOARDS; fe_i++)		\
		if (fe_i == NR_BOARDS) {					\
			if (!fe_seen)						\
				skip();						\
		} else if ((b = &boards[fe_i]), !try_board(w, b)) {		\
		} else if (++fe_seen, 0) {					\
		} else

static void big_pins_to_the_biggest_cluster_and_opens_on_its_pmu(void **state)
{
	struct world *w = *state;
	const struct board *b;

	FOR_EACH_BOARD(w, b)
		check_pinned(w, b, "big", 0, b->big, NULL, NULL);
}

static void little_pins_to_the_littlest_cluster_and_opens_on_its_pmu(void **state)
{
	struct world *w = *state;
	const struct board *b;

	FOR_EACH_BOARD(w, b)
		check_pinned(w, b, "little", 0, b->little, NULL, NULL);
}

static void a_core_pmus_name_pins_to_its_cluster(void **state)
{
	struct world *w = *state;
	const struct board *b;

	FOR_EACH_BOARD(w, b)
		for (int i = 0; i < b->nr; i++)
			check_pinned(w, b, b->cl[i].pmu, 0, i, NULL, NULL);
}

static void a_cpu_list_pins_to_exactly_those_cpus(void **state)
{
	struct world *w = *state;
	const struct board *b;

	FOR_EACH_BOARD(w, b) {
		for (int i = 0; i < b->nr; i++) {
			cpu_set_t s = cpuset(b->cl[i].cpus);
			char whole[80], one[16];

			/* the whole cluster, as "cpus:LIST" */
			snprintf(whole, sizeof(whole), "cpus:%s", b->cl[i].cpus);
			check_pinned(w, b, whole, 0, i, NULL, NULL);
			/* one CPU of it, as a bare list */
			snprintf(one, sizeof(one), "%d", last_cpu(&s));
			check_pinned(w, b, one, 0, i, one, NULL);
		}
	}
}

static void current_pins_to_the_cluster_of_the_cpu_the_thread_runs_on(void **state)
{
	struct world *w = *state;
	const struct board *b;

	FOR_EACH_BOARD(w, b) {
		for (int i = 0; i < b->nr; i++) {
			cpu_set_t s = cpuset(b->cl[i].cpus);

			check_pinned(w, b, "current", first_cpu(&s), i, NULL, NULL);
			check_pinned(w, b, "current", last_cpu(&s), i, NULL, NULL);
		}
	}
}

static void the_pin_is_the_cluster_within_the_affinity_the_thread_already_has(void **state)
{
	struct world *w = *state;

	/* allowed 0,1,4: big (4-5) gives 4 alone; little (0-3) gives 0-1 */
	check_pinned(w, board("rk3399"), "big", 0, 0, NULL, "0-1,4");
	check_pinned(w, board("rk3399"), "little", 4, 1, NULL, "0-1,4");
	check_pinned(w, board("rk3399"), "1-3", 4, 1, "1-3", "0-1,4");
	check_pinned(w, board("alderlake"), "cpu_atom", 0, 1, NULL, "0-3,20-23");
}

static void no_setaffinity_when_the_thread_already_runs_within_the_cluster(void **state)
{
	struct world *w = *state;

	check_pinned(w, board("rk3399"), "big", 4, 0, NULL, "4-5");
	check_pinned(w, board("rk3399"), "big", 5, 0, NULL, "5");
	check_pinned(w, board("rk3399"), "current", 2, 1, NULL, "1-2");
	check_pinned(w, board("m1"), "apple_firestorm_pmu", 6, 1, NULL, "4-7");
	/* a homogeneous board: every CPU is the cluster's */
	check_pinned(w, board("rpi4"), "current", 1, 0, NULL, NULL);
	assert_int_equal(mock.getaffinities, 1);	/* asked, and left alone */
}

static void the_long_bit_follows_the_build_and_the_no_long_option(void **state)
{
	struct world *w = *state;

	/* check_attr() wants config1:0 only with CONFIG_LONG_COUNTERS and no no_long */
	check_pinned(w, board("qemu-biglittle"), "big", 0, 1, NULL, NULL);
	w->opts.no_long = 1;
	check_pinned(w, board("qemu-biglittle"), "big", 0, 1, NULL, NULL);
	assert_true(mock.attr[0].config1 == (1u << 1));	/* the rdpmc bit only */
}

static void alderlake_generic_events_carry_the_pinned_pmus_type_in_config(void **state)
{
	struct world *w = *state;

	use_board(w, board("alderlake"));
	w->opts.pin = "cpu_core";
	open_ok(w, "instructions");
	assert_int_equal(mock.attr[0].type, PERF_TYPE_HARDWARE);
	assert_true(mock.attr[0].config == (PERF_COUNT_HW_INSTRUCTIONS | (4ull << 32)));
	close_set(w);

	reset_mock();
	use_board(w, board("alderlake"));
	w->opts.pin = "cpu_atom";
	open_ok(w, "instructions,r00c0");
	assert_int_equal(mock.attr[0].type, PERF_TYPE_HARDWARE);
	assert_true(mock.attr[0].config == (PERF_COUNT_HW_INSTRUCTIONS | (8ull << 32)));
	/* a raw event takes the PMU's own type, its number unchanged */
	assert_int_equal(mock.attr[1].type, 8);
	assert_true(mock.attr[1].config == 0xc0);
	assert_string_equal(selfmon_set__pmu(w->set), "cpu_atom");
}

static void m1_firestorm_opens_instructions_by_its_own_alias(void **state)
{
	struct world *w = *state;
	enum selfmon_reason why;

	use_board(w, board("m1"));
	w->opts.pin = "big";
	open_ok(w, "instructions");
	assert_string_equal(selfmon_set__pmu(w->set), "apple_firestorm_pmu");
	assert_int_equal(mock.attr[0].type, 9);
	assert_true(mock.attr[0].config == 0x8c);
	/* no format/rdpmc: no bit to set, no page to map */
	assert_true(mock.attr[0].config1 == 0);
	assert_int_equal(selfmon_set__path(w->set, 0, &why), SELFMON_PATH_SYSCALL);
	assert_int_equal(why, SELFMON_REASON_NO_FORMAT);
	assert_int_equal(mock.mmaps, 0);
	assert_null(selfmon_set__page(w->set, 0));
}

static void pmu_and_raw_events_of_the_pinned_cluster_keep_their_numbers(void **state)
{
	struct world *w = *state;

	use_board(w, board("rk3399"));
	w->opts.pin = "little";
	open_ok(w, "armv8_cortex_a53/l1d_cache_refill/,r0011,branches,task-clock");
	assert_int_equal(mock.opens, 4);
	assert_int_equal(mock.attr[0].type, 9);
	assert_true(mock.attr[0].config == 0x03);
	assert_int_equal(mock.attr[1].type, 9);			/* raw: the PMU's type */
	assert_true(mock.attr[1].config == 0x11);
	assert_int_equal(mock.attr[2].type, 9);			/* pc_write_retired */
	assert_true(mock.attr[2].config == 0x0c);
	assert_int_equal(mock.attr[3].type, PERF_TYPE_SOFTWARE);	/* left alone */
	assert_true(mock.attr[3].config == PERF_COUNT_SW_TASK_CLOCK);
}

static void only_software_events_leave_the_affinity_alone(void **state)
{
	struct world *w = *state;

	use_board(w, board("rk3399"));
	w->opts.pin = "big";
	open_ok(w, "task-clock,page-faults");
	assert_null(selfmon_set__pmu(w->set));
	assert_int_equal(mock.getaffinities, 0);
	assert_int_equal(mock.sets, 0);
	close_set(w);
	assert_int_equal(mock.sets, 0);
}

struct closer {
	struct selfmon_set *set;
};

static void *close_elsewhere(void *arg)
{
	selfmon_set__close(((struct closer *)arg)->set);
	return NULL;
}

static void a_set_closed_by_another_thread_gives_the_pinned_thread_its_affinity_back(void **state)
{
	struct world *w = *state;
	struct closer c;
	cpu_set_t before;
	pthread_t t;

	use_board(w, board("rk3399"));
	before = mock.affinity;
	w->opts.pin = "big";
	mock.main_tid = gettid();
	c.set = open_ok(w, "cycles");
	w->set = NULL;
	assert_int_equal(mock.sets, 1);
	assert_int_equal(pthread_create(&t, NULL, close_elsewhere, &c), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	/* by the pinned thread's tid, not the closing thread's own (pid 0) */
	assert_int_equal(mock.sets, 2);
	assert_int_equal(mock.set_pid[1], mock.main_tid);
	assert_true(CPU_EQUAL(&mock.set_mask[1], &before));
}

static void a_second_set_on_the_same_cluster_shares_the_pin_and_the_last_close_restores(void **state)
{
	struct world *w = *state;
	struct selfmon_set *a, *b;
	cpu_set_t before;

	use_board(w, board("rk3399"));
	before = mock.affinity;
	w->opts.pin = "big";
	a = open_ok(w, "cycles");
	w->set = NULL;
	w->opts.pin = "current";	/* the thread now runs on big: the same cluster */
	mock.cpu = 4;
	b = open_ok(w, "instructions");
	w->set = NULL;
	assert_int_equal(mock.sets, 1);
	assert_string_equal(selfmon_set__pmu(b), "armv8_cortex_a72");
	selfmon_set__close(a);
	/* b still counts on the big cores: the thread stays there */
	assert_int_equal(mock.sets, 1);
	selfmon_set__close(b);
	assert_int_equal(mock.sets, 2);
	assert_true(CPU_EQUAL(&mock.affinity, &before));
}

static void a_second_set_for_another_cluster_is_refused_while_the_first_is_open(void **state)
{
	struct world *w = *state;
	struct selfmon_set *a;

	use_board(w, board("rk3399"));
	w->opts.pin = "big";
	a = open_ok(w, "cycles");
	w->set = NULL;
	w->opts.pin = "little";
	w->set = selfmon_set__open("instructions", &w->opts);
	assert_null(w->set);
	assert_int_equal(errno, EBUSY);
	assert_non_null(strstr(selfmon_errmsg(), "armv8_cortex_a72"));
	assert_non_null(strstr(selfmon_errmsg(), "armv8_cortex_a53"));
	/* the refused set moved nothing */
	assert_int_equal(mock.sets, 1);
	selfmon_set__close(a);
	assert_int_equal(mock.sets, 2);
}

/* ---- through selfmon_set__open: errors ---- */

static void expect_open_error(struct world *w, const char *events, int err)
{
	w->set = selfmon_set__open(events, &w->opts);
	if (w->set)
		fail_msg("'%s' pinned '%s' opened, want errno %d", events, w->opts.pin, err);
	if (errno != err)
		fail_msg("'%s' pinned '%s': errno %d (%s), want %d", events, w->opts.pin, errno,
			 selfmon_errmsg(), err);
}

static void a_generic_event_the_pinned_pmu_lacks_is_enoent_naming_the_pmu(void **state)
{
	struct world *w = *state;
	cpu_set_t all;

	use_board(w, board("rk3399"));
	all = mock.affinity;
	w->opts.pin = "armv8_cortex_a72";	/* its events/ has no pc_write_retired */
	expect_open_error(w, "cycles,branches", ENOENT);
	has("armv8_cortex_a72");
	has("branches");
	assert_int_equal(mock.opens, 0);	/* found before any open */
	/* the pin is undone */
	assert_int_equal(mock.sets, 2);
	cpus_equal("the affinity after a failed open", &mock.affinity, &all);

	reset_mock();
	use_board(w, board("snapdragon-8gen1"));
	w->opts.pin = "big";
	expect_open_error(w, "branches", ENOENT);
	has("armv9_cortex_x2");
	w->opts.pin = "little";			/* the a510 has it */
	open_ok(w, "branches");
	assert_true(mock.attr[0].config == 0x0c);
}

static void another_clusters_pmu_event_while_pinned_is_einval(void **state)
{
	struct world *w = *state;

	use_board(w, board("rk3399"));
	w->opts.pin = "big";
	expect_open_error(w, "armv8_cortex_a53/inst_retired/", EINVAL);
	has("armv8_cortex_a53");
	has("armv8_cortex_a72");
	assert_int_equal(mock.opens, 0);
	/* its own PMU's event is fine */
	open_ok(w, "armv8_cortex_a72/inst_retired/");
	assert_int_equal(mock.attr[0].type, 8);
	assert_true(mock.attr[0].config == 0x08);
}

static void another_hybrid_pmus_event_while_pinned_is_einval(void **state)
{
	struct world *w = *state;

	/* x86's cpu_core has type 4, PERF_TYPE_RAW's number: it is still its own PMU's event */
	use_board(w, board("alderlake"));
	w->opts.pin = "cpu_atom";
	expect_open_error(w, "cpu_core/slots/", EINVAL);
	has("cpu_core");
	has("cpu_atom");
}

static void an_affinity_outside_the_whole_cluster_is_einval(void **state)
{
	struct world *w = *state;

	use_board(w, board("rk3399"));
	mock.affinity = cpuset("0-3");
	w->opts.pin = "big";
	expect_open_error(w, "cycles", EINVAL);
	has("armv8_cortex_a72");
	has("4-5");
	has("0-3");
	assert_int_equal(mock.sets, 0);
	assert_int_equal(mock.opens, 0);
}

static void a_policy_that_does_not_resolve_fails_the_open(void **state)
{
	struct world *w = *state;

	use_board(w, board("rk3399"));
	w->opts.pin = "armv8_cortex_a57";
	expect_open_error(w, "cycles", ENOENT);
	has("armv8_cortex_a57");
	w->opts.pin = "3-4";
	expect_open_error(w, "cycles", EINVAL);
	w->opts.pin = "current";
	mock.cpu = 6;
	expect_open_error(w, "cycles", ENOENT);
	w->opts.pin = "a/b";
	expect_open_error(w, "cycles", EINVAL);
	assert_int_equal(mock.opens, 0);
	assert_int_equal(mock.sets, 0);
}

static void failing_scheduler_calls_fail_the_open_with_their_errno(void **state)
{
	struct world *w = *state;

	use_board(w, board("rk3399"));
	w->opts.pin = "big";
	mock.getaffinity_err = EPERM;
	expect_open_error(w, "cycles", EPERM);
	has("sched_getaffinity");
	mock.getaffinity_err = 0;
	mock.setaffinity_err = EINVAL;
	expect_open_error(w, "cycles", EINVAL);
	has("sched_setaffinity");
	has("armv8_cortex_a72");
	assert_int_equal(mock.sets, 1);		/* the failed one; nothing to give back */
	assert_int_equal(mock.opens, 0);
}

/* ---- unpinned on a heterogeneous board: one event per core PMU, summed ---- */

static void unpinned_on_big_little_each_event_opens_on_every_core_pmu(void **state)
{
	struct world *w = *state;
	const struct board *b;

	FOR_EACH_BOARD(w, b) {
		enum selfmon_reason why = SELFMON_REASON_NONE;
		char what[64];

		reset_mock();
		use_board(w, b);
		w->opts.pin = "none";
		snprintf(what, sizeof(what), "%s unpinned", b->name);
		open_ok(w, "instructions,cycles");
		assert_null(selfmon_set__pmu(w->set));
		assert_int_equal(mock.getaffinities, 0);
		assert_int_equal(mock.sets, 0);
		if (b->nr == 1) {
			/* homogeneous: one event, the page as usual */
			int path;

			assert_int_equal(mock.opens, 2);
			path = selfmon_set__path(w->set, 0, &why);
			assert_int_equal(path, why == SELFMON_REASON_NONE ? SELFMON_PATH_USER : SELFMON_PATH_SYSCALL);
			assert_int_equal(why, b->gate);
			close_set(w);
			continue;
		}
		if (mock.opens != 2 * b->nr)
			fail_msg("%s: %d opens, want %d", what, mock.opens, 2 * b->nr);
		for (int e = 0; e < 2; e++) {
			for (int k = 0; k < b->nr; k++) {
				const struct perf_event_attr *a = &mock.attr[e * b->nr + k];
				bool inst = e == 0;

				if (b->kind == ARM) {
					assert_int_equal(a->type, b->cl[k].type);
					assert_true(a->config == (inst ? b->cl[k].inst : b->cl[k].cycles));
				} else {
					assert_int_equal(a->type, PERF_TYPE_HARDWARE);
					assert_true(a->config == ((inst ? PERF_COUNT_HW_INSTRUCTIONS :
								   PERF_COUNT_HW_CPU_CYCLES) |
								  (uint64_t)b->cl[k].type << 32));
				}
				assert_true(a->config1 == 0);	/* no user read asked */
			}
			assert_int_equal(selfmon_set__path(w->set, e, &why), SELFMON_PATH_SYSCALL);
			assert_int_equal(why, SELFMON_REASON_HETEROGENEOUS);
			assert_null(selfmon_set__page(w->set, e));
		}
		assert_int_equal(mock.mmaps, 0);
		assert_int_equal(selfmon_set__enable(w->set), 0);
		assert_int_equal(mock.enables, 2 * b->nr);
		assert_int_equal(selfmon_set__disable(w->set), 0);
		assert_int_equal(mock.disables, 2 * b->nr);
		close_set(w);
	}
}

static void a_summed_read_adds_values_and_running_and_takes_the_longest_enabled(void **state)
{
	struct world *w = *state;
	struct selfmon_count c;

	use_board(w, board("snapdragon-8gen1"));
	w->opts.pin = "none";
	open_ok(w, "cycles");
	assert_int_equal(mock.opens, 3);
	mock.counts[0] = (struct perf_counts_values){ .val = 100, .ena = 50, .run = 10 };
	mock.counts[1] = (struct perf_counts_values){ .val = 20, .ena = 40, .run = 15 };
	mock.counts[2] = (struct perf_counts_values){ .val = 3, .ena = 45, .run = 5 };
	/* The open read each copy's id once (its fd is made close-on-exec): count the read's own. */
	mock.reads = 0;
	assert_int_equal(selfmon_set__read(w->set, 0, &c), 0);
	assert_int_equal(mock.reads, 3);
	assert_true(c.value == 123);
	assert_true(c.enabled == 50);
	assert_true(c.running == 30);
	assert_int_equal(c.reason, SELFMON_REASON_HETEROGENEOUS);
	assert_int_equal(c.flags & SELFMON_COUNT_USER, 0);
	assert_int_equal(selfmon_set__fallbacks(w->set, 0), 0);	/* by design, not a fallback */

	/* the running times overlap across PMUs: the sum is capped at enabled */
	mock.counts[0] = (struct perf_counts_values){ .val = 100, .ena = 50, .run = 30 };
	mock.counts[1] = (struct perf_counts_values){ .val = 20, .ena = 40, .run = 25 };
	mock.counts[2] = (struct perf_counts_values){ .val = 0, .ena = 10, .run = 0 };
	assert_int_equal(selfmon_set__read_syscall(w->set, 0, &c), 0);
	assert_true(c.value == 120);
	assert_true(c.enabled == 50);
	assert_true(c.running == 50);
}

static void a_summed_counter_resets_to_its_summed_baseline(void **state)
{
	struct world *w = *state;
	struct selfmon_count c;

	use_board(w, board("rk3399"));
	w->opts.pin = "none";
	open_ok(w, "instructions");
	mock.counts[0] = (struct perf_counts_values){ .val = 100, .ena = 50, .run = 20 };
	mock.counts[1] = (struct perf_counts_values){ .val = 10, .ena = 50, .run = 30 };
	assert_int_equal(selfmon_set__reset(w->set), 0);
	mock.counts[0] = (struct perf_counts_values){ .val = 150, .ena = 80, .run = 40 };
	mock.counts[1] = (struct perf_counts_values){ .val = 15, .ena = 80, .run = 40 };
	assert_int_equal(selfmon_set__read(w->set, 0, &c), 0);
	assert_true(c.value == 55);
	assert_true(c.enabled == 30);
	assert_true(c.running == 30);
}

static void unpinned_a_pmu_event_opens_on_its_own_pmu_alone(void **state)
{
	struct world *w = *state;

	use_board(w, board("rk3399"));
	w->opts.pin = "none";
	open_ok(w, "armv8_cortex_a53/inst_retired/");
	assert_int_equal(mock.opens, 1);
	assert_int_equal(mock.attr[0].type, 9);
	assert_true(mock.attr[0].config == 0x08);
}

/* ---- which policy: the option, then $SELFMON_PIN, then CONFIG_PIN_POLICY ---- */

/* The cluster @policy means on rk3399 for a thread on CPU @cpu; NULL: none. */
static const char *rk3399_means(struct world *w, const char *policy, int cpu)
{
	const struct selfmon_cluster *cl = NULL;
	struct selfmon_pin pin;
	cpu_set_t cpus;

	load_topology(w, "rk3399");
	assert_int_equal(selfmon_pin__parse(policy, &pin), 0);
	assert_int_equal(selfmon_pin__resolve(&pin, &w->topo, cpu, &cl, &cpus), 0);
	return cl ? cl->pmu->name : NULL;
}

static void pinned_where(struct world *w, const char *want)
{
	open_ok(w, "cycles");
	if (!want)
		assert_null(selfmon_set__pmu(w->set));
	else if (!selfmon_set__pmu(w->set) || strcmp(selfmon_set__pmu(w->set), want))
		fail_msg("pinned to %s, want %s", selfmon_set__pmu(w->set) ? selfmon_set__pmu(w->set) : "(none)",
			 want);
	close_set(w);
}

static void with_no_option_and_no_environment_config_pin_policy_decides(void **state)
{
	struct world *w = *state;

	use_board(w, board("rk3399"));
	mock.cpu = 1;			/* on the a53s: "current" means them, "big" does not */
	w->opts.pin = NULL;
	pinned_where(w, rk3399_means(w, CONFIG_PIN_POLICY, 1));
	/* an empty SELFMON_PIN is no choice */
	setenv("SELFMON_PIN", "", 1);
	pinned_where(w, rk3399_means(w, CONFIG_PIN_POLICY, 1));
	/* NULL options are defaults too (the root from $SELFMON_SYSFS_ROOT) */
	setenv("SELFMON_SYSFS_ROOT", w->root, 1);
	w->set = selfmon_set__open("cycles", NULL);
	unsetenv("SELFMON_SYSFS_ROOT");
	if (!w->set)
		fail_msg("open with NULL options: %s", selfmon_errmsg());
	if (rk3399_means(w, CONFIG_PIN_POLICY, 1))
		assert_string_equal(selfmon_set__pmu(w->set), rk3399_means(w, CONFIG_PIN_POLICY, 1));
	else
		assert_null(selfmon_set__pmu(w->set));
}

static void selfmon_pin_in_the_environment_overrides_config(void **state)
{
	struct world *w = *state;

	use_board(w, board("rk3399"));
	mock.cpu = 1;
	w->opts.pin = NULL;
	setenv("SELFMON_PIN", "big", 1);
	pinned_where(w, "armv8_cortex_a72");
	setenv("SELFMON_PIN", "cpus:0-1", 1);
	pinned_where(w, "armv8_cortex_a53");
	setenv("SELFMON_PIN", "none", 1);
	pinned_where(w, NULL);
	setenv("SELFMON_PIN", "a/b", 1);
	expect_open_error(w, "cycles", EINVAL);
	has("'a/b'");
}

static void the_pin_option_overrides_the_environment(void **state)
{
	struct world *w = *state;

	use_board(w, board("rk3399"));
	mock.cpu = 4;
	setenv("SELFMON_PIN", "big", 1);
	w->opts.pin = "little";
	pinned_where(w, "armv8_cortex_a53");
	w->opts.pin = "none";
	pinned_where(w, NULL);
	/* options from a build older than .pin: the environment decides */
	w->opts.pin = "little";
	w->opts.sz = offsetof(struct selfmon_opts, pin);
	pinned_where(w, "armv8_cortex_a72");
}

/* ---- a thread found outside its cluster ---- */

/* Two PMUv3 clusters, user access on: the page is what decides reads. */
static void biglittle_with_user_access(struct world *w)
{
	w->fake = fakeroot__new();
	fakeroot__armv8(w->fake, "armv8_cortex_a53", 8, "0-1");
	fakeroot__armv8(w->fake, "armv8_cortex_a72", 9, "2-3");
	fakeroot__write(w->fake, "/proc/sys/kernel/perf_user_access", "1\n");
	fakeroot__write(w->fake, "/sys/devices/system/cpu/online", "0-3\n");
	for (int c = 0; c < 4; c++) {
		char rel[96];

		snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu%d/cpu_capacity", c);
		fakeroot__write(w->fake, rel, "%d\n", c < 2 ? 485 : 1024);
	}
	w->opts.root = w->fake;
	mock.arch = &selfmon_arch__arm64;
	mock.affinity = cpuset("0-3");
}

static void index_0_on_a_cpu_outside_the_cluster_is_reason_off_cluster(void **state)
{
	struct world *w = *state;
	enum selfmon_reason why;
	struct selfmon_count c;

	biglittle_with_user_access(w);
	w->opts.pin = "big";
	mock.cpu = 2;
	open_ok(w, "cycles");
	assert_ptr_equal(selfmon_set__page(w->set, 0), &sim_page);
	assert_int_equal(selfmon_set__enable(w->set), 0);

	mock.cpu = 0;	/* someone moved the thread to an a53 */
	mock.counts[0] = (struct perf_counts_values){ .val = 77, .ena = 9, .run = 9 };
	assert_int_equal(selfmon_set__read(w->set, 0, &c), 0);
	assert_int_equal(c.reason, SELFMON_REASON_OFF_CLUSTER);
	assert_true(c.value == 77);
	assert_int_equal(c.flags & SELFMON_COUNT_USER, 0);
	assert_int_equal(selfmon_set__fallbacks(w->set, 0), 1);
	assert_int_equal(selfmon_set__path(w->set, 0, &why), SELFMON_PATH_SYSCALL);
	assert_int_equal(why, SELFMON_REASON_OFF_CLUSTER);
	assert_non_null(selfmon_reason__fix(SELFMON_REASON_OFF_CLUSTER));
}

static void index_0_within_the_cluster_is_reason_index(void **state)
{
	struct world *w = *state;
	enum selfmon_reason why;
	struct selfmon_count c;

	biglittle_with_user_access(w);
	w->opts.pin = "big";
	mock.cpu = 2;
	open_ok(w, "cycles");
	assert_int_equal(selfmon_set__enable(w->set), 0);
	mock.cpu = 3;	/* the other a72: still the cluster */
	mock.counts[0] = (struct perf_counts_values){ .val = 5, .ena = 1, .run = 1 };
	assert_int_equal(selfmon_set__read(w->set, 0, &c), 0);
	assert_int_equal(c.reason, SELFMON_REASON_INDEX);
	assert_int_equal(selfmon_set__path(w->set, 0, &why), SELFMON_PATH_SYSCALL);
	assert_int_equal(why, SELFMON_REASON_INDEX);
}

static void off_cluster_is_judged_against_the_cluster_not_the_cpus_pinned_to(void **state)
{
	struct world *w = *state;
	struct selfmon_count c;

	/* pinned to CPU 3 alone, found on CPU 2: an a72 too, where the counter is live */
	biglittle_with_user_access(w);
	w->opts.pin = "3";
	mock.cpu = 3;
	open_ok(w, "cycles");
	mock.cpu = 0;
	assert_int_equal(selfmon_set__read(w->set, 0, &c), 0);
	assert_int_equal(c.reason, SELFMON_REASON_OFF_CLUSTER);
	mock.cpu = 2;
	assert_int_equal(selfmon_set__read(w->set, 0, &c), 0);
	assert_int_equal(c.reason, SELFMON_REASON_INDEX);
}

static void an_unpinned_thread_is_never_off_cluster(void **state)
{
	struct world *w = *state;
	struct selfmon_count c;

	/* one cluster, unpinned: no cluster to be off, whatever CPU */
	w->fake = fakeroot__new();
	fakeroot__armv8(w->fake, "armv8_pmuv3", 8, "0-1");
	fakeroot__write(w->fake, "/proc/sys/kernel/perf_user_access", "1\n");
	w->opts.root = w->fake;
	mock.arch = &selfmon_arch__arm64;
	mock.affinity = cpuset("0-1");
	w->opts.pin = "none";
	open_ok(w, "cycles");
	mock.cpu = 5;
	mock.getcpus = 0;
	assert_int_equal(selfmon_set__read(w->set, 0, &c), 0);
	assert_int_equal(c.reason, SELFMON_REASON_INDEX);
	assert_int_equal(mock.getcpus, 0);	/* not even asked */
}

#define T(f) cmocka_unit_test_setup_teardown(f, world_setup, world_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		/* parse */
		T(the_four_words_parse_to_their_kinds),
		T(a_cpu_list_parses_with_or_without_the_cpus_prefix),
		T(any_other_word_is_a_core_pmus_name),
		T(a_malformed_policy_is_einval_with_a_message_naming_it),
		T(the_cpus_prefix_with_no_list_after_it_is_einval),
		/* resolve */
		T(each_policy_resolves_to_its_cluster_and_cpus_on_every_board),
		T(an_unknown_cluster_is_enoent_and_the_message_lists_the_clusters),
		T(a_cpu_list_spanning_two_clusters_is_einval_naming_both),
		T(a_cpu_list_with_a_cpu_in_no_cluster_is_enoent),
		T(current_on_a_cpu_without_a_pmu_is_enoent),
		T(any_pinning_on_a_machine_without_a_cpu_pmu_is_enoent),
		T(big_or_little_among_clusters_that_cannot_be_told_apart_is_einval),
		/* open, pinned */
		T(big_pins_to_the_biggest_cluster_and_opens_on_its_pmu),
		T(little_pins_to_the_littlest_cluster_and_opens_on_its_pmu),
		T(a_core_pmus_name_pins_to_its_cluster),
		T(a_cpu_list_pins_to_exactly_those_cpus),
		T(current_pins_to_the_cluster_of_the_cpu_the_thread_runs_on),
		T(the_pin_is_the_cluster_within_the_affinity_the_thread_already_has),
		T(no_setaffinity_when_the_thread_already_runs_within_the_cluster),
		T(the_long_bit_follows_the_build_and_the_no_long_option),
		T(alderlake_generic_events_carry_the_pinned_pmus_type_in_config),
		T(m1_firestorm_opens_instructions_by_its_own_alias),
		T(pmu_and_raw_events_of_the_pinned_cluster_keep_their_numbers),
		T(only_software_events_leave_the_affinity_alone),
		T(a_set_closed_by_another_thread_gives_the_pinned_thread_its_affinity_back),
		T(a_second_set_on_the_same_cluster_shares_the_pin_and_the_last_close_restores),
		T(a_second_set_for_another_cluster_is_refused_while_the_first_is_open),
		/* open, errors */
		T(a_generic_event_the_pinned_pmu_lacks_is_enoent_naming_the_pmu),
		T(another_clusters_pmu_event_while_pinned_is_einval),
		T(another_hybrid_pmus_event_while_pinned_is_einval),
		T(an_affinity_outside_the_whole_cluster_is_einval),
		T(a_policy_that_does_not_resolve_fails_the_open),
		T(failing_scheduler_calls_fail_the_open_with_their_errno),
		/* unpinned, summed */
		T(unpinned_on_big_little_each_event_opens_on_every_core_pmu),
		T(a_summed_read_adds_values_and_running_and_takes_the_longest_enabled),
		T(a_summed_counter_resets_to_its_summed_baseline),
		T(unpinned_a_pmu_event_opens_on_its_own_pmu_alone),
		/* which policy */
		T(with_no_option_and_no_environment_config_pin_policy_decides),
		T(selfmon_pin_in_the_environment_overrides_config),
		T(the_pin_option_overrides_the_environment),
		/* off the cluster */
		T(index_0_on_a_cpu_outside_the_cluster_is_reason_off_cluster),
		T(index_0_within_the_cluster_is_reason_index),
		T(off_cluster_is_judged_against_the_cluster_not_the_cpus_pinned_to),
		T(an_unpinned_thread_is_never_off_cluster),
	};

	return cmocka_run_group_tests_name("pin", tests, find_fixtures, NULL);
}
