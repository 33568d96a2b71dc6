// SPDX-License-Identifier: MIT
/*
 * The marker pair where a user links it dynamically, on the arm64 board
 * (exact: QEMU -icount shift=0, one CPU): this program is linked against
 * libselfmon.so, and dlopen()s two shared objects of marker_so_pair.c, one
 * against libselfmon.so (a plugin) and one with libselfmon_pic.a inside (its
 * own copy of the library). In each, a cached pair of the default two events
 * costs at most SHARED_BUDGET user instructions, and a region of 3000 known
 * instructions reports 3000 per call. Not a *_test of the static bundle:
 * scripts/mk/markers.mk (check-run-shared-pair) builds it with its shared
 * objects and runs it with scripts/board-run --sysroot. Each test runs in a
 * process of its own (the harness forks), with markers of its own.
 */
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <selfmon/marker.h>
#include <selfmon/marker_result.h>
#include <selfmon/read.h>
#include <selfmon/selfmon.h>
#include "kselftest_harness.h"
#include "board.h"

/* The budget of a cached pair through libselfmon.so and inside a user's shared object (static: 120). */
enum { SHARED_BUDGET = 130, PAIRS = 1000, CALLS = 20 };

/* What a shared object of marker_so_pair.c gives, or this program's own. */
struct pair_code {
	void (*loop)(void *, int);
	void (*empty)(void *, int);
	void (*region)(void);
	int (*min)(const char *, int64_t *, uint64_t *, uint64_t *);
	const char *region_name;
};

static __attribute__((noinline)) void loop_cached(void *arg, int n)
{
	(void)arg;
	for (int i = 0; i < n; i++) {
		SELFMON_MARKER_BEGIN("pair");
		SELFMON_MARKER_END("pair");
	}
}

static __attribute__((noinline)) void loop_empty(void *arg, int n)
{
	for (int i = 0; i < n; i++)
		__asm__ __volatile__("" : : "r"(arg) : "memory");
}

static __attribute__((noinline)) void region_3000(void)
{
	SELFMON_MARKER_BEGIN("3000");
	__asm__ __volatile__(".rept 3000\n\tnop\n\t.endr");
	SELFMON_MARKER_END("3000");
}

static int region_min(const char *region, int64_t *min, uint64_t *calls, uint64_t *fallbacks)
{
	struct selfmon_marker_result r = { .sz = sizeof(r) };
	int err = selfmon_marker__result(region, -1, &r);

	if (err)
		return err;
	*min = r.event[0].min;
	*calls = r.calls;
	*fallbacks = r.fallbacks;
	return 0;
}

/* Shared object @name, next to this program, with its functions; NULL and a message if not. */
static void *so_open(const char *name, struct pair_code *c)
{
	char exe[PATH_MAX], path[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	void *h;

	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	snprintf(path, sizeof(path), "%s/%s", dirname(exe), name);
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return NULL;
	}
	c->loop = (void (*)(void *, int))dlsym(h, "so_loop_cached");
	c->empty = (void (*)(void *, int))dlsym(h, "so_loop_empty");
	c->region = (void (*)(void))dlsym(h, "so_region_3000");
	c->min =
		(int (*)(const char *, int64_t *, uint64_t *, uint64_t *))dlsym(h, "so_region_min");
	c->region_name = "so 3000";
	return h;
}

/* The pair's cost times PAIRS (markers' default events), and the region's least count and calls. */
static void measure(struct __test_metadata *_metadata, const struct pair_code *c)
{
	struct selfmon_set *set;
	uint64_t calls = 0, fallbacks = ~0ull;
	int64_t cost, min = -1;

	unsetenv("SELFMON_EVENTS");
	ASSERT_TRUE(c->loop && c->empty && c->region && c->min);
	OPEN_USER(set, "instructions:u", NULL);
	c->loop(NULL, 1); /* this thread's counters open, the site resolves: outside the meter */
	for (int i = 0; i < CALLS; i++)
		c->region();
	cost = metered_cost(selfmon_set__page(set, 0), c->loop, c->empty, NULL, PAIRS);
	ASSERT_EQ(0, c->min(c->region_name, &min, &calls, &fallbacks));
	TH_LOG("marker pair, 2 events: cached %lld.%03lld user instructions (budget %d); "
	       "a region of 3000: %lld at least, %llu calls, %llu read(2) fallbacks",
	       (long long)(cost / PAIRS), (long long)(cost % PAIRS), SHARED_BUDGET, (long long)min,
	       (unsigned long long)calls, (unsigned long long)fallbacks);
	EXPECT_TRUE(cost > 0 && cost <= SHARED_BUDGET * PAIRS);
	/* Every pair read its counters inline: no syscall. */
	EXPECT_EQ(0, fallbacks);
	EXPECT_EQ(3000, min);
	EXPECT_EQ(CALLS, calls);
	selfmon_set__close(set);
}

TEST(a_cached_pair_through_libselfmon_so_costs_at_most_130_instructions_no_syscall_and_counts_exactly)
{
	struct pair_code c = { loop_cached, loop_empty, region_3000, region_min, "3000" };

	EXACT_USER_OR_SKIP();
	measure(_metadata, &c);
}

TEST(a_cached_pair_in_a_plugin_against_libselfmon_so_costs_at_most_130_no_syscall_and_counts_exactly)
{
	struct pair_code c = { 0 };
	void *h;

	EXACT_USER_OR_SKIP();
	h = so_open("marker_so_pair.so", &c);
	ASSERT_NE(NULL, h);
	measure(_metadata, &c);
}

TEST(a_cached_pair_in_a_shared_object_with_libselfmon_pic_a_costs_at_most_130_no_syscall_and_counts_exactly)
{
	struct pair_code c = { 0 };
	void *h;

	EXACT_USER_OR_SKIP();
	h = so_open("marker_so_pair_pic.so", &c);
	ASSERT_NE(NULL, h);
	measure(_metadata, &c);
}

TEST_HARNESS_MAIN
