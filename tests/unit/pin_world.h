/* SPDX-License-Identifier: MIT */
/*
 * What the pinning tests (test_pin_*.c) share: the scheduler mocked beside
 * libperf (libperf_mock.h; each program's test_pin_*.wrap lists both), the
 * fixture boards of tests/fixtures/sysfs/<board>/ with what each should
 * give, and the world a test starts from. A board whose tree is missing is
 * skipped. Include after <cmocka.h>, in one file per test program.
 */
#ifndef SELFMON_TEST_PIN_WORLD_H
#define SELFMON_TEST_PIN_WORLD_H

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <generated/autoconf.h>
#include <selfmon/read.h>
#include <selfmon/selfmon.h>
#include "../../core/arch_int.h"
#include "../../core/cpulist.h"
#include "../../core/error.h"
#include "../../core/pin.h"
#include "../../core/pmu.h"
#include "../../core/topology.h"
#include "fakeroot.h"
#include "libperf_mock.h"

static char fixtures[PATH_MAX];

/* ---- the scheduler, mocked ---- */

#define MAX_SETS 16

static struct {
	int cpu;				/* what sched_getcpu() says */
	int getcpus, getaffinities;
	cpu_set_t affinity;			/* the thread's, as the kernel keeps it */
	int getaffinity_err, setaffinity_err;	/* errno to fail with */
	int sets;
	cpu_set_t set_mask[MAX_SETS];		/* what each sched_setaffinity() asked */
	pid_t set_pid[MAX_SETS];		/* ...and of which thread */
	pid_t main_tid;				/* the test's thread, for a close from another */
} sched;

int __wrap_sched_getcpu(void);
int __wrap_sched_getaffinity(pid_t pid, size_t size, cpu_set_t *mask);
int __wrap_sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *mask);

int __wrap_sched_getcpu(void)
{
	sched.getcpus++;
	return sched.cpu;
}

int __wrap_sched_getaffinity(pid_t pid, size_t size, cpu_set_t *mask)
{
	assert_int_equal(pid, 0);
	assert_true(size >= sizeof(cpu_set_t));
	sched.getaffinities++;
	if (sched.getaffinity_err) {
		errno = sched.getaffinity_err;
		return -1;
	}
	*mask = sched.affinity;
	return 0;
}

int __wrap_sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *mask)
{
	/* 0: the caller; or the pinned thread by its tid, from a thread closing its set */
	assert_true(pid == 0 || pid == sched.main_tid);
	sched.set_pid[sched.sets] = pid;
	assert_int_equal(size, sizeof(cpu_set_t));
	assert_true(sched.sets < MAX_SETS);
	sched.set_mask[sched.sets++] = *mask;
	if (sched.setaffinity_err) {
		errno = sched.setaffinity_err;
		return -1;
	}
	sched.affinity = *mask;
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

static inline const struct board *board(const char *name)
{
	for (size_t i = 0; i < NR_BOARDS; i++)
		if (!strcmp(boards[i].name, name))
			return &boards[i];
	fail_msg("no board %s in the table", name);
	return NULL;
}

static inline cpu_set_t cpuset(const char *list)
{
	cpu_set_t s;

	if (selfmon_cpulist__parse(list, &s))
		fail_msg("bad CPU list '%s' in the test", list);
	return s;
}

static inline const char *fmt_cpus(const cpu_set_t *s, char *buf, size_t size)
{
	if (selfmon_cpulist__format(s, buf, size))
		snprintf(buf, size, "(too many)");
	return buf;
}

static inline void cpus_equal(const char *what, const cpu_set_t *have, const cpu_set_t *want)
{
	char a[256], b[256];

	if (!CPU_EQUAL(have, want))
		fail_msg("%s: CPUs %s, want %s", what, fmt_cpus(have, a, sizeof(a)), fmt_cpus(want, b, sizeof(b)));
}

static inline int last_cpu(const cpu_set_t *s)
{
	int last = -1;

	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, s))
			last = c;
	return last;
}

static inline int first_cpu(const cpu_set_t *s)
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

static inline int find_fixtures(void **state)
{
	(void)state;
	fakeroot__fixtures(fixtures, sizeof(fixtures));
	return 0;
}

static inline void reset_mock(void)
{
	libperf_mock__reset();
	memset(&sched, 0, sizeof(sched));
	sim_page.cap_user_rdpmc = 1;	/* the page allows; index 0: not on a counter now */
	sim_page.pmc_width = 64;
}

static inline int world_setup(void **state)
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

static inline int world_teardown(void **state)
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
static inline void use_board(struct world *w, const struct board *b)
{
	if (fakeroot__board(fixtures, b->name, w->root, sizeof(w->root)))
		skip();
	w->opts.root = w->root;
	lp.arch = b->kind == ARM ? &selfmon_arch__arm64 : &selfmon_arch__x86;
	sched.affinity = cpuset(b->online);
}

/* Like use_board(), but false (and nothing changed) when the tree is missing. */
static inline bool try_board(struct world *w, const struct board *b)
{
	char root[PATH_MAX];

	if (fakeroot__board(fixtures, b->name, root, sizeof(root)))
		return false;
	use_board(w, b);
	return true;
}

static inline void load_topology(struct world *w, const char *name)
{
	if (fakeroot__board(fixtures, name, w->root, sizeof(w->root)))
		skip();
	if (w->loaded)
		selfmon_pmus__free(&w->pmus);
	assert_int_equal(selfmon_pmus__load(&w->pmus, w->root), 0);
	w->loaded = true;
	assert_int_equal(selfmon_topology__load(&w->topo, &w->pmus), 0);
}

static inline struct selfmon_set *open_ok(struct world *w, const char *events)
{
	w->set = selfmon_set__open(events, &w->opts);
	if (!w->set)
		fail_msg("open '%s' pinned '%s': %s (%s)", events, w->opts.pin ? w->opts.pin : "(default)",
			 strerror(errno), selfmon_errmsg());
	return w->set;
}

static inline void close_set(struct world *w)
{
	selfmon_set__close(w->set);
	w->set = NULL;
}

/* The last message names @text. */
static inline void has(const char *text)
{
	if (!strstr(selfmon_errmsg(), text))
		fail_msg("message '%s' lacks '%s'", selfmon_errmsg(), text);
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

#define T(f) cmocka_unit_test_setup_teardown(f, world_setup, world_teardown)

#endif
