// SPDX-License-Identifier: MIT
/*
 * The marker pair where a user links it dynamically, on the arm64 board
 * (exact: QEMU -icount shift=0, one CPU): this program is linked against
 * libselfmon.so, and dlopen()s two shared objects of marker_so_pair.c, one
 * against libselfmon.so (a plugin) and one with libselfmon_pic.a inside (its
 * own copy of the library). In each, a cached pair of the default two events
 * costs at most SHARED_BUDGET user instructions, and a region of 3000 known
 * instructions reports 3000 per call. The program's own sites are resolved
 * when markers start, and with markers off its by-name pairs make no call. Not a *_test of the static bundle:
 * scripts/mk/markers.mk (check-run-shared-pair) builds it with its shared
 * objects and runs it with scripts/board-run --sysroot, twice: bound at
 * load (-z now) and lazily (marker_shared_lazy, -z lazy). Each test runs in
 * a process of its own (the harness forks), with markers of its own.
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
#include "marker_near.h"

/* The budget of a cached pair through libselfmon.so and inside a user's shared object, as a static program's. */
enum { SHARED_BUDGET = 120, PAIRS = 1000, CALLS = 20 };

/* What a shared object of marker_so_pair.c gives, or this program's own. */
struct pair_code {
	void (*loop)(void *, int);
	void (*empty)(void *, int);
	void (*region)(void);
	int (*min)(const char *, int64_t *, uint64_t *, uint64_t *);
	const char *region_name;
	int64_t cost; /* measure()'s: the pair's cost times PAIRS; -1 before */
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

/* The pair's cost times PAIRS (markers' default events), kept in @c; the region's least count and calls. */
static void measure(struct __test_metadata *_metadata, struct pair_code *c)
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
	c->cost = cost;
}

TEST(a_cached_pair_through_libselfmon_so_costs_at_most_120_instructions_no_syscall_and_counts_exactly)
{
	struct pair_code c = { loop_cached, loop_empty, region_3000, region_min, "3000", -1 };

	EXACT_USER_OR_SKIP();
	measure(_metadata, &c);
}

TEST(a_cached_pair_in_a_plugin_against_libselfmon_so_costs_at_most_120_no_syscall_and_counts_exactly)
{
	struct pair_code c = { 0 };
	void *h;

	EXACT_USER_OR_SKIP();
	h = so_open("marker_so_pair.so", &c);
	ASSERT_NE(NULL, h);
	measure(_metadata, &c);
}

TEST(a_cached_pair_in_a_shared_object_with_libselfmon_pic_a_costs_at_most_120_no_syscall_and_counts_exactly)
{
	struct pair_code c = { 0 };
	void *h;

	EXACT_USER_OR_SKIP();
	h = so_open("marker_so_pair_pic.so", &c);
	ASSERT_NE(NULL, h);
	measure(_metadata, &c);
}

/* One call of an outer region of 300 known instructions holding an inner pair. */
static __attribute__((noinline)) void outer_holding_inner(void)
{
	SELFMON_MARKER_BEGIN("outer");
	__asm__ __volatile__(".rept 300\n\tnop\n\t.endr");
	SELFMON_MARKER_BEGIN("inner");
	SELFMON_MARKER_END("inner");
	SELFMON_MARKER_END("outer");
}

/*
 * The program's sites are not in libselfmon.so's section: the header
 * registers them at load, so that markers starting (here in region 3000)
 * resolve them all, and the inner site's first use inside "outer" costs it
 * what a later one does, not a lookup (about 1,400 instructions). A timer
 * tick may still land in one call (the static tree's marker_exact_test
 * allows the same re-read margin).
 */
TEST(a_site_used_first_inside_another_region_through_libselfmon_so_costs_it_what_a_later_use_does)
{
	struct selfmon_marker_result r = { .sz = sizeof(r) };

	EXACT_USER_OR_SKIP();
	unsetenv("SELFMON_EVENTS");
	region_3000();
	for (int i = 0; i < CALLS; i++)
		outer_holding_inner();
	ASSERT_EQ(0, selfmon_marker__result("outer", -1, &r));
	TH_LOG("outer holding an inner pair: %lld to %lld user instructions a call",
	       (long long)r.event[0].min, (long long)r.event[0].max);
	EXPECT_EQ(CALLS, r.calls);
	EXPECT_TRUE(r.event[0].min > 300);
	EXPECT_TRUE(r.event[0].max - r.event[0].min <= 48);
}

/*
 * The first region a process runs: its end's call into the library is the
 * program's first. Through a PLT slot bound lazily (marker_shared_lazy, the
 * same program linked -z lazy, runs this too), the dynamic linker would
 * resolve the slot inside the region (hundreds of instructions); the fixed
 * sequence calls through the program's GOT, whose entries the dynamic
 * linker fills at load (<selfmon/arch.h>). The harness forks each test from
 * a parent that never ran a marker.
 */
TEST(the_first_region_a_program_runs_counts_exactly_however_the_program_was_bound)
{
	struct selfmon_marker_result r = { .sz = sizeof(r) };

	EXACT_USER_OR_SKIP();
	unsetenv("SELFMON_EVENTS");
	region_3000();
	region_3000();
	ASSERT_EQ(0, selfmon_marker__result("3000", -1, &r));
	TH_LOG("the first region, twice: %lld to %lld user instructions (3000 known)",
	       (long long)r.event[0].min, (long long)r.event[0].max);
	EXPECT_EQ(2, r.calls);
	EXPECT_EQ(0, r.fallbacks);
	EXPECT_EQ(3000, r.event[0].min);
	EXPECT_EQ(3000, r.event[0].max);
}

/* A region of 3000 known instructions by a name in a buffer, @n times. */
static __attribute__((noinline)) void buffer_3000(const char *name, int n)
{
	for (int i = 0; i < n; i++) {
		selfmon_marker__begin(name);
		__asm__ __volatile__(".rept 3000\n\tnop\n\t.endr");
		selfmon_marker__end(name);
	}
}

/*
 * A name in a buffer takes a fixed sequence as a literal does, through the
 * program's GOT: from -O1 on, with the name in a register across the
 * region, it counts exactly, through libselfmon.so as statically linked
 * (a plain call read 3000 here only because the program's PLT entry made
 * up the 4 that the static program read under).
 */
TEST(a_region_named_by_a_buffer_through_libselfmon_so_counts_exactly)
{
	struct selfmon_marker_result r = { .sz = sizeof(r) };
	char name[] = "by a buffer";

	EXACT_USER_OR_SKIP();
	unsetenv("SELFMON_EVENTS");
	buffer_3000(name, CALLS);
	ASSERT_EQ(0, selfmon_marker__result("by a buffer", -1, &r));
	TH_LOG("a region of 3000 named by a buffer: %lld to %lld user instructions",
	       (long long)r.event[0].min, (long long)r.event[0].max);
	EXPECT_EQ(CALLS, r.calls);
	EXPECT_EQ(3000, r.event[0].min);
}

/* A scope region of 3000 known instructions, @n times. */
static __attribute__((noinline)) void scope_3000(int n)
{
	for (int i = 0; i < n; i++) {
		SELFMON_MARKER_SCOPE("scope 3000");
		__asm__ __volatile__(".rept 3000\n\tnop\n\t.endr");
	}
}

static void expect_scope_3000(struct __test_metadata *_metadata, const char *name)
{
	struct selfmon_marker_result r = { .sz = sizeof(r) };

	ASSERT_EQ(0, selfmon_marker__result(name, -1, &r));
	TH_LOG("%s: %lld to %lld user instructions", name, (long long)r.event[0].min,
	       (long long)r.event[0].max);
	EXPECT_EQ(CALLS, r.calls);
	EXPECT_EQ(3000, r.event[0].min);
}

/*
 * A scope region's end through libselfmon.so: inline from -O1 on, as a
 * pair's end; at -O0 a call of the program's own copy of the stub, which
 * branches to libselfmon.so through the program's GOT, and the library
 * takes off what that path adds over a pair's end, as it measured it in
 * its own copy: the same 3000 through the .so as statically linked.
 */
TEST(a_scope_region_through_libselfmon_so_counts_exactly_at_O2_and_at_O0)
{
	EXACT_USER_OR_SKIP();
	unsetenv("SELFMON_EVENTS");
	scope_3000(CALLS);
	o0_scope_3000(CALLS);
	expect_scope_3000(_metadata, "scope 3000");
	expect_scope_3000(_metadata, "scope 3000 at -O0");
}

/*
 * A scope region built -O0 inside a user's shared object: its end calls
 * the object's own hidden copy of the stub, which branches through the
 * object's GOT to the library it needs (a plugin against libselfmon.so) or
 * carries (libselfmon_pic.a inside, bound to that copy); either library
 * takes off what the stub's path adds, as it measured it in its own copy.
 */
TEST(a_scope_region_built_O0_in_a_shared_object_counts_exactly_as_a_plugin_and_with_libselfmon_pic_a)
{
	static const char *const objects[] = { "marker_so_pair.so", "marker_so_pair_pic.so" };

	EXACT_USER_OR_SKIP();
	unsetenv("SELFMON_EVENTS");
	for (int k = 0; k < 2; k++) {
		struct pair_code c = { 0 };
		uint64_t calls = 0, fallbacks = ~0ull;
		int64_t min = -1;
		void (*scope)(int);
		void *h = so_open(objects[k], &c);

		ASSERT_NE(NULL, h);
		scope = (void (*)(int))dlsym(h, "so_o0_scope_3000");
		ASSERT_NE(NULL, scope) TH_LOG("%s: no so_o0_scope_3000", objects[k]);
		scope(CALLS);
		ASSERT_EQ(0, c.min("so scope 3000 at -O0", &min, &calls, &fallbacks)) TH_LOG("%s", objects[k]);
		TH_LOG("%s: a scope region of 3000 built -O0: %lld at least, %llu calls", objects[k],
		       (long long)min, (unsigned long long)calls);
		EXPECT_EQ(3000, min) TH_LOG("%s", objects[k]);
		EXPECT_EQ(CALLS, calls) TH_LOG("%s", objects[k]);
		EXPECT_EQ(0, fallbacks) TH_LOG("%s", objects[k]);
	}
}

static __attribute__((noinline)) void loop_named(void *arg, int n)
{
	(void)arg;
	for (int i = 0; i < n; i++) {
		selfmon_marker__begin("named");
		selfmon_marker__end("named");
	}
}

/*
 * Markers off through libselfmon.so: the program's by-name words (the
 * section "selfmon_names") are zeroed as the library's own are, so that a
 * by-name pair makes no call and costs what a cached one does, within the
 * budget of 10 (a call to the library at each end: about 98).
 */
/* With markers off, the cost of one pair of @loop, within @budget instructions. */
static void expect_off_cost(struct __test_metadata *_metadata, void (*loop)(void *, int),
			    const char *what, int budget)
{
	struct selfmon_set *set;
	int64_t cost;

	setenv("SELFMON_EVENTS", "", 1);
	OPEN_USER(set, "instructions:u", NULL);
	loop(NULL, 1); /* markers decide off here: outside the meter */
	cost = metered_cost(selfmon_set__page(set, 0), loop, loop_empty, NULL, PAIRS);
	TH_LOG("%s, markers off: %lld.%03lld user instructions (budget %d)", what,
	       (long long)(cost / PAIRS), (long long)(cost % PAIRS), budget);
	EXPECT_TRUE(cost >= 0 && cost <= (int64_t)budget * PAIRS);
	selfmon_set__close(set);
}

TEST(markers_off_through_libselfmon_so_a_by_name_pair_makes_no_call_and_costs_at_most_10)
{
	EXACT_USER_OR_SKIP();
	expect_off_cost(_metadata, loop_named, "a by-name pair", 10);
}

/*
 * Near sites (SELFMON_MARKER_NEAR, marker_near.c): with markers on a pair
 * runs the same instructions as any other site, so it costs what the
 * others do and a region counts exactly.
 */
TEST(a_near_cached_pair_costs_what_any_other_does_and_counts_exactly)
{
	struct pair_code near = { near_loop_cached, loop_empty, near_region_3000, region_min,
				  "near 3000", -1 };
	struct pair_code far = { loop_cached, loop_empty, region_3000, region_min, "3000", -1 };

	EXACT_USER_OR_SKIP();
	measure(_metadata, &far);
	measure(_metadata, &near);
	EXPECT_EQ(far.cost, near.cost);
}

/* ...and with markers off a near pair, cached or by name, costs 4: a load and a branch an end. */
TEST(markers_off_a_near_pair_costs_at_most_4_instructions_cached_and_by_name)
{
	EXACT_USER_OR_SKIP();
	expect_off_cost(_metadata, near_loop_cached, "a near cached pair", 4);
	expect_off_cost(_metadata, near_loop_named, "a near by-name pair", 4);
}

/* ...and so does a pair in code of the tiny code model, which is near by itself. */
TEST(markers_off_a_pair_built_for_the_tiny_code_model_costs_at_most_4_instructions)
{
	EXACT_USER_OR_SKIP();
	expect_off_cost(_metadata, tiny_loop_cached, "a cached pair of -mcmodel=tiny", 4);
}

TEST_HARNESS_MAIN
