// SPDX-License-Identifier: MIT
/*
 * Markers report the known count of a region exactly at every call-site
 * shape a program gives them (QEMU -icount shift=0, one CPU): a pair alone
 * in its function, in loops of 2 and 1000 iterations, two sites in one
 * loop, nested (on the inner site's first call and after), in 8 threads,
 * cached and by name, with 1 and 2 events (the inline pair) and 3 (the
 * library's reads); each shape built by gcc and by
 * clang at -O0, -O2, -O3 and -Os, and by gcc at -O2 and -O3 optimized at
 * link time (-flto) (marker_shapes.c, one table per build; clang's -O2 and
 * -O3 optimized at link time by lld are marker_exact_lto_test, this test
 * built once more: GNU ld reads no LLVM bitcode);
 * and the scope forms, SELFMON_MARKER_SCOPE() in C and SELFMON_MARKER_REGION()
 * in C++ (marker_shapes_cxx.cpp, by g++ and clang++), left by a break too.
 * Whatever each compiler does around a pair (hoisting the site's address
 * out of a loop, -O0's reloads), the instructions between its two reads are
 * the library's, the same as in the empty pair it subtracts.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <selfmon/marker.h>
#include "kselftest_harness.h"
#include "board.h"
#include "marker_json.h"
#include "marker_shapes.h"

static const struct shapes *const builds[] = {
	&shapes_gcc_O0,	    &shapes_gcc_O2,	&shapes_gcc_O3,	    &shapes_gcc_Os,
	&shapes_clang_O0,   &shapes_clang_O2,	&shapes_clang_O3,   &shapes_clang_Os,
	&shapes_gcclto_O2,  &shapes_gcclto_O3,  &shapes_clanglto_O2, &shapes_clanglto_O3,
	&shapes_gxx_O0,	    &shapes_gxx_O2,	&shapes_gxx_O3,	    &shapes_gxx_Os,
	&shapes_clangxx_O0, &shapes_clangxx_O2, &shapes_clangxx_O3, &shapes_clangxx_Os,
};
#define NR_BUILDS (sizeof(builds) / sizeof(builds[0]))
#ifndef EXACT_MIN_BUILDS
#define EXACT_MIN_BUILDS 4
#endif

/* Each region of run(), its known count and its calls. */
static const struct {
	const char *shape;
	double insns, calls;
} expected[] = {
	{ "alone 0", 0, 2 },
	{ "alone 3", 3, 2 },
	{ "alone 3000000", SHAPE_R3M, 2 },
	{ "by name 3", 3, 2 },
	{ "by name 3001", SHAPE_R3001, 2 },
	{ "loop 3", 3, 1002 },
	{ "loop 0", 0, 1000 },
	{ "loop 3001", SHAPE_R3001, 2 },
	{ "by name loop 3", 3, 1000 },
	{ "two 3", 3, 100 },
	{ "two 3001", SHAPE_R3001, 100 },
	{ "inner 3", 3, 10 },
};

/*
 * A page read that the kernel rewrites meanwhile is read again (the
 * seqlock of perf_event_open(2), "the mmap layout"), and at a region's end
 * that second read counts: the minimum is exact, a call may read one
 * re-read of each page over, never under (marker_board_test's REREAD_MAX).
 */
enum { REREAD_MAX = 2 * 24 };

static double field(const struct util_json *root, const char *tag, const char *shape, const char *key)
{
	char name[128];
	const struct util_json *b, *v;

	snprintf(name, sizeof(name), "%s/%s", tag, shape);
	b = json_bench(root, name);
	v = b ? util_json_get(b, key) : NULL;
	return v && v->type == UTIL_JSON_NUMBER ? v->num : -1;
}

/* A thread's first begin is the outer's: the inner site's first call is inside the outer region. */
static void *nested_in_a_new_thread(void *arg)
{
	((const struct shapes *)arg)->nested(10);
	return NULL;
}

static void *alone_in_a_thread(void *arg)
{
	((const struct shapes *)arg)->alone3001(10);
	return NULL;
}

/* Every build's shapes, the nested one in a fresh thread, then 8 threads at once. */
static void run_every_build(struct __test_metadata *_metadata)
{
	for (size_t b = 0; b < NR_BUILDS; b++) {
		pthread_t t[SHAPE_THREADS];

		/* A build not linked in (clang's, in a musl tree): its weak table's address is 0. */
		if (!builds[b] || !builds[b]->tag)
			continue;
		builds[b]->scoped();
		/* The C++ builds have the scope shapes alone. */
		if (!builds[b]->run)
			continue;
		builds[b]->run();
		ASSERT_EQ(0, pthread_create(&t[0], NULL, nested_in_a_new_thread, (void *)builds[b]));
		ASSERT_EQ(0, pthread_join(t[0], NULL));
		for (int i = 0; i < SHAPE_THREADS; i++)
			ASSERT_EQ(0, pthread_create(&t[i], NULL, alone_in_a_thread, (void *)builds[b]));
		for (int i = 0; i < SHAPE_THREADS; i++)
			ASSERT_EQ(0, pthread_join(t[i], NULL));
	}
}

/* One region of one build: @calls calls, each exactly @insns instructions (min), none under. */
#define EXPECT_SHAPE(root, tag, shape, insns, calls)                                              \
	do {                                                                                      \
		double min_ = field(&(root), tag, shape, "instructions:u_min");                   \
		double max_ = field(&(root), tag, shape, "instructions:u_max");                   \
		EXPECT_EQ(calls, field(&(root), tag, shape, "iterations")) TH_LOG("%s/%s", tag, shape); \
		EXPECT_EQ(insns, min_) TH_LOG("%s/%s: min %.0f max %.0f, known %.0f", tag, shape, \
					      min_, max_, (double)(insns));                     \
		EXPECT_TRUE(max_ >= (insns) && max_ <= (insns) + REREAD_MAX)                      \
			TH_LOG("%s/%s: max %.0f, known %.0f", tag, shape, max_, (double)(insns)); \
	} while (0)

/*
 * The outer region holds its 3001 and 3 instructions and one whole inner
 * pair: the pair's cost, which must be the same in every build and on the
 * inner site's first call: no call costs more than the least by more than
 * a re-read (a timer tick on the -cpu max boot once made one call 12 over;
 * a site resolved inside the region cost it about 1,400). Return it, or -1.
 */
static double check_nested(struct __test_metadata *_metadata, const struct util_json *root,
			   const char *tag, double pair)
{
	double min = field(root, tag, "outer", "instructions:u_min");
	double max = field(root, tag, "outer", "instructions:u_max");

	EXPECT_EQ(10, field(root, tag, "outer", "iterations")) TH_LOG("%s/outer", tag);
	EXPECT_TRUE(max >= min && max - min <= REREAD_MAX)
	TH_LOG("%s/outer: a call (the inner site's first?) cost the outer %.0f more than "
	       "the least, over a re-read (%d)",
	       tag, max - min, REREAD_MAX);
	if (pair >= 0)
		EXPECT_EQ(pair, min - SHAPE_R3001 - 3) TH_LOG("%s/outer: an inner pair of %.0f, %.0f elsewhere",
							      tag, min - SHAPE_R3001 - 3, pair);
	return min - SHAPE_R3001 - 3;
}

/*
 * The scope forms count what the pair counts. C's SELFMON_MARKER_SCOPE()
 * at every level, -O0 too: an outer pair holding a whole scope region
 * counts a whole pair (check_nested()) and, from -O1 on, SCOPE_C_STORE,
 * the begin's store of its region; at -O0, where the end is a call of the
 * arch's stub whose cost over a pair's end the library measured and takes
 * off, SCOPE_C_O0_MORE: the store, the end's add and bl to the stub, and
 * the library's taking off (docs/markers.md, "The scope forms, and C++").
 * C++'s SELFMON_MARKER_REGION() from -O1 on is the region object, a pair
 * itself; at -O0 it is C's scope form (<selfmon/marker.hpp>: an object's
 * inlined constructor and destructor kept code inside the region, g++ a
 * nop, clang++ `this` stored, 1 and 2 over), and counts as C's does, its
 * variable's initializer more to an outer region (g++ a store of the zero
 * register, clang++ a mov and a store). The
 * C++ shape's break is conditional: at -O0 its test (the loop variable and
 * the bound loaded, compared) lies inside the region, at most
 * SCOPE_O0_OVER (g++ 6, clang++ 8). selfmon::marker_region by name, whose
 * constructor and destructor are always inlined, at most
 * OBJECT_BY_NAME_O0_OVER: g++ a nop and the name's load into its register,
 * clang++ `this` copied through the stack and the name loaded through it
 * (12 over with the destructor a call of its own).
 */
enum {
	SCOPE_C_STORE = 1,
	SCOPE_C_O0_MORE = 5,
	SCOPE_GXX_O0_INIT = 1,
	SCOPE_CLANGXX_O0_INIT = 2,
	SCOPE_O0_OVER = 8,
	OBJECT_BY_NAME_O0_OVER = 4
};

/*
 * C at -O0, where the compilers keep no statement lean: gcc gives a
 * break a nop of its own, inside the region (the block's own code, as a
 * conditional break's test would be), SCOPE_C_O0_BREAK over; clang makes a
 * copy of the variable's address before the begin, in an outer region and
 * outside the scope's own, SCOPE_C_O0_ADDR more for the outer.
 */
enum { SCOPE_C_O0_BREAK = 1, SCOPE_C_O0_ADDR = 2 };

/*
 * With more events than the inline pair reads, every end reads the set
 * through the library; the stub's end tries the inline read first, then
 * takes that path, and takes its difference off each event: a whole -O0
 * scope pair holds SCOPE_C_O0_SLOW_MORE more than a whole pair (which is
 * itself the library's path's), counted from those two paths' code.
 */
enum { SCOPE_C_O0_SLOW_MORE = 36 };

/*
 * One region exact, as EXPECT_SHAPE(), or in a build at -O0 (@o0) within
 * @over of its count, never under.
 */
#define EXPECT_EXACT_OR_O0_OVER(root, tag, shape, insns, calls, o0, over)                           \
	do {                                                                                       \
		double omin_ = field(root, tag, shape, "instructions:u_min");                      \
		EXPECT_EQ(calls, field(root, tag, shape, "iterations")) TH_LOG("%s/%s", tag, shape); \
		if (o0) {                                                                          \
			EXPECT_TRUE(omin_ >= (insns) && omin_ <= (insns) + (over))                 \
			TH_LOG("%s/%s: min %.0f, known %.0f", tag, shape, omin_, (double)(insns)); \
		} else {                                                                           \
			EXPECT_SHAPE(*(root), tag, shape, insns, calls);                           \
		}                                                                                  \
	} while (0)

/*
 * A name in a buffer counts what a literal's pair counts where the name
 * stays in its register across the region (from -O1 on). At -O0 gcc's and
 * g++'s asm reads a pointer from its stack slot (C's "buffer 3001",
 * passed as a pointer): exact too; clang loads it into a register inside
 * the region, and g++ makes an array's address there (C++'s "run-time
 * name", a local array, whose address clang++ keeps in a register): at
 * most BUFFER_O0_OVER over in those builds, never under (docs/markers.md,
 * "What a pair costs").
 */
enum { BUFFER_O0_OVER = 1 };

/* Whether @tag is a -O0 build of @compiler ("gcc", "clang", "gxx", "clangxx"). */
static int o0_build_of(const char *tag, const char *compiler)
{
	size_t len = strlen(compiler);

	return !strncmp(tag, compiler, len) && !strcmp(tag + len, "-O0");
}

#define EXPECT_BUFFER(root, tag, shape, insns, calls, may_be_over) \
	EXPECT_EXACT_OR_O0_OVER(root, tag, shape, insns, calls, may_be_over, BUFFER_O0_OVER)

static void check_scoped(struct __test_metadata *_metadata, const struct util_json *root,
			 const char *tag, int is_c, double pair, int slow)
{
	/* C's scope form: C's at every level, C++'s SELFMON_MARKER_REGION() at -O0. */
	int at_o0 = strstr(tag, "-O0") != NULL, c_form = is_c || at_o0;
	double o0_more = slow ? SCOPE_C_O0_SLOW_MORE : SCOPE_C_O0_MORE;
	double outer, more = !c_form ? 0 : at_o0 ? o0_more : SCOPE_C_STORE;

	if (!is_c && at_o0)
		more += o0_build_of(tag, "clangxx") ? SCOPE_CLANGXX_O0_INIT : SCOPE_GXX_O0_INIT;

	EXPECT_SHAPE(*root, tag, "scope 3", 3, 2);
	EXPECT_EXACT_OR_O0_OVER(root, tag, "scope break 3001", SHAPE_R3001, 2, at_o0,
				is_c ? SCOPE_C_O0_BREAK : SCOPE_O0_OVER);
	EXPECT_SHAPE(*root, tag, "scope inner 3", 3, 10);
	/*
	 * C++: a cached pair in a lambda is a pair, exact at every level, -O0
	 * too; so is a by-name pair of a string literal, in a lambda or a loop.
	 */
	if (!is_c) {
		EXPECT_SHAPE(*root, tag, "lambda 3", 3, 10);
		EXPECT_SHAPE(*root, tag, "lambda 3001", SHAPE_R3001, 10);
		EXPECT_SHAPE(*root, tag, "lambda by name 3", 3, 10);
		EXPECT_SHAPE(*root, tag, "by name loop 3001", SHAPE_R3001, 10);
		EXPECT_BUFFER(root, tag, "run-time name", 3, 10, o0_build_of(tag, "gxx"));
		/* By name, a scope form: at -O0 its inlined destructor's own code counts. */
		EXPECT_EXACT_OR_O0_OVER(root, tag, "region object by name 3001", SHAPE_R3001, 10, at_o0,
					OBJECT_BY_NAME_O0_OVER);
	}
	EXPECT_EQ(10, field(root, tag, "scope outer", "iterations")) TH_LOG("%s/scope outer", tag);
	outer = field(root, tag, "scope outer", "instructions:u_min") - SHAPE_R3001 - 3;
	if (at_o0) {
		EXPECT_TRUE(outer >= pair + more && outer <= pair + more + SCOPE_C_O0_ADDR)
		TH_LOG("%s/scope outer: a whole scope region adds %.0f, a whole pair %.0f", tag,
		       outer, pair);
	} else {
		EXPECT_EQ(pair + more, outer)
		TH_LOG("%s/scope outer: a whole scope region adds %.0f, a whole pair %.0f", tag,
		       outer, pair);
	}
}

static void check_every_build(struct __test_metadata *_metadata, const char *events, int slow)
{
	struct util_json root = { 0 };
	double pair = -1;
	char err[160];
	int builds_run = 0, scope_builds = 0;

	EXACT_USER_OR_SKIP();
	setenv("SELFMON_EVENTS", events, 1);
	run_every_build(_metadata);
	ASSERT_EQ(0, report_json(&root, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_STREQ("inline", util_json_str(util_json_get(&root, "context"), "selfmon_read_path"));
	for (size_t b = 0; b < NR_BUILDS; b++) {
		const char *tag = builds[b] ? builds[b]->tag : NULL;

		if (!tag || !builds[b]->run)
			continue;
		builds_run++;
		EXPECT_BUFFER(&root, tag, "buffer 3001", SHAPE_R3001, 11, o0_build_of(tag, "clang"));
		for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++)
			EXPECT_SHAPE(root, tag, expected[i].shape, expected[i].insns, expected[i].calls);
		EXPECT_SHAPE(root, tag, "alone 3001", SHAPE_R3001, 2 + 10 * SHAPE_THREADS);
		pair = check_nested(_metadata, &root, tag, pair);
	}
	for (size_t b = 0; b < NR_BUILDS; b++) {
		if (builds[b] && builds[b]->tag) {
			check_scoped(_metadata, &root, builds[b]->tag, builds[b]->run != NULL,
				     pair, slow);
			scope_builds += !builds[b]->run;
		}
	}
	TH_LOG("%s: %d builds, every shape exact; an inner pair adds %.0f to its outer region; "
	       "the scope forms of %d C++ builds too",
	       events, builds_run, pair, scope_builds);
	/*
	 * gcc's four always, clang's where the bundle was built beside it
	 * (glibc trees); marker_exact_lto_test (EXACT_MIN_BUILDS 2): clang's
	 * two optimized at link time.
	 */
	EXPECT_LE(EXACT_MIN_BUILDS, builds_run);
	util_json_free(&root);
}

TEST(every_call_site_shape_reports_its_known_count_exactly_with_two_events)
{
	check_every_build(_metadata, "{instructions:u,cycles:u}", 0);
}

TEST(every_call_site_shape_reports_its_known_count_exactly_with_one_event)
{
	check_every_build(_metadata, "instructions:u", 0);
}

/*
 * Three events are more than the inline end reads (two pages): every end
 * reads the set through the library, and a scope region's end at -O0 (the
 * stub's path) still counts what a pair's does.
 */
TEST(every_call_site_shape_reports_its_known_count_exactly_with_three_events_read_by_the_library)
{
	check_every_build(_metadata, "{instructions:u,cycles:u,instructions:u}", 1);
}

TEST_HARNESS_MAIN
