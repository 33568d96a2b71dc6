// SPDX-License-Identifier: MIT
/*
 * Markers on the arm64 board, exactly (QEMU -icount shift=0, one CPU): a
 * region of 3n known instructions reports 3n per call once the empty pair is
 * subtracted, in one thread, in 8 threads and nested; and what a pair
 * costs, in user instructions, beside the bare inline reads of the same run
 * (the set's own reads: set_read_board_test.c). Each test runs in a process
 * of its own (the harness forks), so each starts with markers of its own.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include <selfmon/marker.h>
#include <selfmon/read.h>
#include <selfmon/selfmon.h>
#include "kselftest_harness.h"
#include "board.h"
#include "marker_json.h"

/* Exactly @N3 instructions, no operand for the compiler to set up: N3 nops. */
#define NOPS(N3) __asm__ __volatile__(".rept " #N3 "\n\tnop\n\t.endr")

static double num(const struct util_json *o, const char *key)
{
	const struct util_json *v = util_json_get(o, key);

	return v && v->type == UTIL_JSON_NUMBER ? v->num : -1;
}

/* The median aggregate of region @name, which holds its extras. */
static const struct util_json *median(const struct util_json *root, const char *name)
{
	char m[128];

	snprintf(m, sizeof(m), "%s_median", name);
	return json_bench(root, m);
}

/*
 * A read of a counter's page that the kernel rewrites meanwhile (a context
 * switch updates it: perf_event_open(2), "the mmap layout", the lock field)
 * is read again, and at a region's end that second read is counted: at
 * most one re-read of each of the two pages, 23 instructions each on the
 * board (the bare reads of a_marker_pair_costs_...). Exact counts are the
 * minimum; a call may read up to this much over, never under.
 */
enum { REREAD_MAX = 2 * 24 };

/* The region of @name: every call exactly @insns instructions (up to one re-read over), none by read(2). */
#define EXPECT_EXACT(root, name, insns, calls)						\
	do {										\
		const struct util_json *b_ = json_bench(&(root), name);			\
		double min_, max_, mean_;						\
		ASSERT_NE(NULL, b_) TH_LOG("no region %s", name);			\
		min_ = num(b_, "instructions:u_min");					\
		max_ = num(b_, "instructions:u_max");					\
		mean_ = num(b_, "instructions:u");					\
		EXPECT_EQ(calls, num(b_, "iterations")) TH_LOG("%s", name);		\
		EXPECT_EQ(insns, min_) TH_LOG("%s: min %.0f max %.0f", name, min_, max_); \
		EXPECT_TRUE(max_ >= (insns) && max_ <= (insns) + REREAD_MAX)		\
			TH_LOG("%s: max %.0f, %d to %d expected", name, max_, (insns), (insns) + REREAD_MAX); \
		EXPECT_TRUE(mean_ >= (insns) && mean_ <= max_)				\
			TH_LOG("%s: mean %.3f, min %.0f, max %.0f", name, mean_, min_, max_); \
		EXPECT_EQ(0, num(median(&(root), name), "read_fallbacks")) TH_LOG("%s", name); \
	} while (0)

static __attribute__((noinline)) void region_cached_300(void)
{
	SELFMON_MARKER_BEGIN("cached 300");
	NOPS(300);
	SELFMON_MARKER_END("cached 300");
}

static __attribute__((noinline)) void region_cached_3000(void)
{
	SELFMON_MARKER_BEGIN("cached 3000");
	NOPS(3000);
	SELFMON_MARKER_END("cached 3000");
}

static __attribute__((noinline)) void region_named_3000(void)
{
	selfmon_marker__begin("by name 3000");
	NOPS(3000);
	selfmon_marker__end("by name 3000");
}

TEST(a_region_of_3n_instructions_reports_exactly_3n_per_call_in_either_form)
{
	struct util_json root = { 0 };
	char err[160];

	EXACT_USER_OR_SKIP();
	unsetenv("SELFMON_EVENTS");
	for (int i = 0; i < 20; i++) {
		region_cached_300();
		region_cached_3000();
		region_named_3000();
	}
	ASSERT_EQ(0, report_json(&root, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_STREQ("{instructions:u,cycles:u}", util_json_str(util_json_get(&root, "context"), "selfmon_events"));
	EXPECT_STREQ("inline", util_json_str(util_json_get(&root, "context"), "selfmon_read_path"));
	TH_LOG("%s", util_json_str(util_json_get(&root, "context"), "selfmon_note"));
	EXPECT_EXACT(root, "cached 300", 300, 20);
	EXPECT_EXACT(root, "cached 3000", 3000, 20);
	EXPECT_EXACT(root, "by name 3000", 3000, 20);
	util_json_free(&root);
}

static void *thread_regions(void *arg)
{
	(void)arg;
	for (int i = 0; i < 10; i++)
		region_cached_3000();
	return NULL;
}

TEST(eight_threads_each_count_their_own_region_exactly)
{
	const struct util_json *b;
	struct util_json root = { 0 };
	pthread_t t[8];
	char err[160];
	int seen = 0;

	EXACT_USER_OR_SKIP();
	unsetenv("SELFMON_EVENTS");
	for (int i = 0; i < 8; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, thread_regions, NULL));
	for (int i = 0; i < 8; i++)
		pthread_join(t[i], NULL);
	ASSERT_EQ(0, report_json(&root, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EXACT(root, "cached 3000", 3000, 80);
	EXPECT_EQ(8, num(median(&root, "cached 3000"), "region_threads"));
	b = util_json_get(&root, "benchmarks");
	for (int i = 0; b && i < b->nr; i++) {
		const char *name = util_json_str(&b->kid[i], "name");

		if (!name || strncmp(name, "cached 3000/thread:", 19) ||
		    strcmp(util_json_str(&b->kid[i], "run_type"), "iteration"))
			continue;
		seen++;
		EXPECT_EQ(10, num(&b->kid[i], "iterations")) TH_LOG("%s", name);
		EXPECT_EQ(3000, num(&b->kid[i], "instructions:u_min")) TH_LOG("%s", name);
		EXPECT_LE(num(&b->kid[i], "instructions:u_max"), 3000 + REREAD_MAX) TH_LOG("%s", name);
	}
	EXPECT_EQ(8, seen);
	util_json_free(&root);
}

/* ---- what a pair costs: loops of n and 2n, less the empty loop ---- */

enum { PAIRS = 1000 };
static volatile uint64_t sink;

struct loops {
	void (*fn)(void *, int);
	void (*empty)(void *, int);
	void *arg;
};

/* Instructions per call times PAIRS, each loop's minimum of five (board.h). */
static int64_t cost_x1000(const struct perf_event_mmap_page *meter, const struct loops *l)
{
	return metered_cost(meter, l->fn, l->empty, l->arg, PAIRS);
}

static __attribute__((noinline)) void loop_cached(void *arg, int n)
{
	(void)arg;
	for (int i = 0; i < n; i++) {
		SELFMON_MARKER_BEGIN("pair");
		SELFMON_MARKER_END("pair");
	}
}

static __attribute__((noinline)) void loop_named(void *arg, int n)
{
	(void)arg;
	for (int i = 0; i < n; i++) {
		selfmon_marker__begin("pair by name");
		selfmon_marker__end("pair by name");
	}
}

/* The name of `selfmon bench --filter markercost`'s row, 33 bytes: a string literal costs the same at any length. */
static __attribute__((noinline)) void loop_named_long(void *arg, int n)
{
	(void)arg;
	for (int i = 0; i < n; i++) {
		selfmon_marker__begin("selfmon bench markercost, by name");
		selfmon_marker__end("selfmon bench markercost, by name");
	}
}

/* A name in a buffer: compared in full at each call (the buffer may hold another name later). */
static __attribute__((noinline)) void loop_named_buffer(void *arg, int n)
{
	const char *name = arg;

	for (int i = 0; i < n; i++) {
		selfmon_marker__begin(name);
		selfmon_marker__end(name);
	}
}

static __attribute__((noinline)) void loop_empty(void *arg, int n)
{
	for (int i = 0; i < n; i++)
		__asm__ __volatile__("" : : "r"(arg) : "memory");
}

/*
 * The bare inline reads of a pair with two events, each page read at both
 * ends by @read: a constant at each caller, so that the read is inlined.
 */
static inline __attribute__((always_inline)) void
inline4(void *arg, int n, int (*read)(const struct perf_event_mmap_page *, uint64_t *))
{
	const struct perf_event_mmap_page *const *pg = arg;
	/* Set: gcc (12) does not follow the read's asm goto to the a = b = 0 below. */
	uint64_t a = 0, b = 0, c = 0, d = 0, sum = 0;

	for (int i = 0; i < n; i++) {
		if (read(pg[0], &a) | read(pg[1], &b))
			a = b = 0;
		if (read(pg[0], &c) | read(pg[1], &d))
			c = d = 0;
		sum += (c - a) + (d - b);
	}
	sink = sum;
}

static __attribute__((noinline)) void loop_inline4(void *arg, int n)
{
	inline4(arg, n, selfmon_page__read_value);
}

/* The same four reads as the inline pair takes them. */
static __attribute__((noinline)) void loop_inline4_32(void *arg, int n)
{
	inline4(arg, n, selfmon_page__read_value32);
}

static __attribute__((noinline)) void loop_inline4_empty(void *arg, int n)
{
	uint64_t a, b, c, d, sum = 0;

	for (int i = 0; i < n; i++) {
		__asm__ __volatile__("" : "=r"(a), "=r"(b) : "r"(arg));
		__asm__ __volatile__("" : "=r"(c), "=r"(d) : "r"(arg));
		sum += (c - a) + (d - b);
	}
	sink = sum;
}

#define PER_CALL(x) (long long)((x) / PAIRS), (long long)((x) % PAIRS)

/*
 * The four bare reads of a pair on the markers' own kind of counter, 32
 * bits (two counters, so no multiplexing): times PAIRS, or -1 when the set
 * does not open and enable with 32-bit counters.
 */
static int64_t bare32_cost_x1000(void)
{
	struct selfmon_opts o32 = { .sz = sizeof(o32), .no_long = 1 };
	const struct perf_event_mmap_page *pg32[2];
	struct loops bare32 = { loop_inline4_32, loop_inline4_empty, pg32 };
	struct selfmon_set *set32 = selfmon_set__open("instructions:u,instructions:u", &o32);
	int64_t r32 = -1;

	if (!set32 || selfmon_set__enable(set32))
		goto out;
	pg32[0] = selfmon_set__page(set32, 0);
	pg32[1] = selfmon_set__page(set32, 1);
	if (pg32[0] && pg32[1] && pg32[0]->pmc_width == 32 && pg32[1]->pmc_width == 32)
		r32 = cost_x1000(pg32[0], &bare32);
out:
	selfmon_set__close(set32);
	return r32;
}

/*
 * The pair's cost: at most 120 user instructions in the cached form (the
 * fixed sequence of <selfmon/arch.h>, which keeps the window exact at every
 * call site, is a call through the GOT and a return at each end and an
 * address the compiler cannot hoist; the pair's words are read and written
 * in pairs: 116 on the board), by name at most 1.5 times that (a string literal of 12 or 33 bytes alike),
 * no read(2). Beside them, the four page reads of a pair bare, both ways:
 * selfmon_page__read_value(), and selfmon_page__read_value32(), which the
 * pair takes (docs/markers.md says where the rest goes).
 */
TEST(a_marker_pair_costs_at_most_120_instructions_cached_and_1_5x_by_name_with_no_read2)
{
	const struct perf_event_mmap_page *pg[2], *meter;
	char buffer[] = "pair by name, in a buffer";
	struct loops cached = { loop_cached, loop_empty, NULL }, named = { loop_named, loop_empty, NULL };
	struct loops named_long = { loop_named_long, loop_empty, NULL };
	struct loops named_buffer = { loop_named_buffer, loop_empty, buffer };
	struct loops bare = { loop_inline4, loop_inline4_empty, pg };
	struct selfmon_set *set;
	struct util_json root = { 0 };
	int64_t c, nm, nl, nb, r, r32;
	char err[160];

	EXACT_USER_OR_SKIP();
	unsetenv("SELFMON_EVENTS");
	/* Two pages to read bare (any two cost alike: cost_test.c), the fewer counters the better. */
	OPEN_USER(set, "instructions:u,instructions:u", NULL);
	meter = pg[0] = selfmon_set__page(set, 0);
	pg[1] = selfmon_set__page(set, 1);
	ASSERT_TRUE(pg[0] && pg[1]);
	/* The first pairs open this thread's counters: outside the measurement. */
	loop_cached(NULL, 1);
	loop_named(NULL, 1);
	loop_named_long(NULL, 1);
	loop_named_buffer(buffer, 1);
	c = cost_x1000(meter, &cached);
	nm = cost_x1000(meter, &named);
	nl = cost_x1000(meter, &named_long);
	nb = cost_x1000(meter, &named_buffer);
	r = cost_x1000(meter, &bare);
	/* The 32-bit counters in place of the first two: no multiplexing. */
	selfmon_set__close(set);
	r32 = bare32_cost_x1000();
	ASSERT_TRUE(c > 0 && nm > 0 && nl > 0 && nb > 0 && r > 0 && r32 > 0)
		TH_LOG("a meter read fell back (-1: no 32-bit counters): %lld %lld %lld %lld %lld %lld", (long long)c,
		       (long long)nm, (long long)nl, (long long)nb, (long long)r, (long long)r32);
	TH_LOG("marker pair, 2 events: cached %lld.%03lld (budget 120); by name %lld.%03lld "
	       "(12 bytes), %lld.%03lld (33 bytes), %lld.%03lld (a 25-byte buffer) user instructions; "
	       "the 4 bare inline reads: %lld.%03lld (read_value), %lld.%03lld (read_value32, the pair's)",
	       PER_CALL(c), PER_CALL(nm), PER_CALL(nl), PER_CALL(nb), PER_CALL(r), PER_CALL(r32));
	EXPECT_LE(c, 120 * PAIRS);
	EXPECT_LT(r32, r) TH_LOG("the pair's reads are the cheaper kind");
	EXPECT_LE(nm * 2, c * 3);
	EXPECT_LE(nl * 2, c * 3);
	EXPECT_EQ(nm, nl) TH_LOG("a string literal's lookup does not depend on its length: %lld against %lld",
				 (long long)nm, (long long)nl);
	ASSERT_EQ(0, report_json(&root, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(0, num(median(&root, "pair"), "read_fallbacks"));
	EXPECT_EQ(0, num(median(&root, "pair by name"), "read_fallbacks"));
	EXPECT_EQ(0, num(median(&root, "selfmon bench markercost, by name"), "read_fallbacks"));
	/* Every call of the empty region reads 0, or a re-read over where the kernel rewrote a page. */
	EXPECT_EQ(0, num(json_bench(&root, "pair"), "instructions:u_min"));
	EXPECT_LE(num(json_bench(&root, "pair"), "instructions:u_max"), REREAD_MAX)
		TH_LOG("the empty region's max per call: %.0f", num(json_bench(&root, "pair"), "instructions:u_max"));
	util_json_free(&root);
}

/*
 * Markers off: each end loads its site's region by the site's address,
 * which the fixed sequence makes in place (adrp), and branches over the
 * call (ldr, cbz): 3 instructions an end. Two would need the site's word
 * loaded by one PC-relative literal load (ldr x0, label), whose reach is
 * 1 MiB: this program's own sites are 1.1 MiB past its code (the section
 * selfmon_sites lies with the data), so it would not even link.
 */
TEST(markers_off_cost_at_most_6_instructions_a_pair)
{
	struct loops cached = { loop_cached, loop_empty, NULL };
	struct selfmon_set *set;
	int64_t c;

	EXACT_USER_OR_SKIP();
	setenv("SELFMON_EVENTS", "", 1);
	OPEN_USER(set, "instructions:u", NULL);
	loop_cached(NULL, 1);
	c = cost_x1000(selfmon_set__page(set, 0), &cached);
	TH_LOG("marker pair, markers off: %lld.%03lld user instructions", PER_CALL(c));
	EXPECT_LE(c, 6 * PAIRS);
	EXPECT_EQ(1, selfmon_marker__report());
	selfmon_set__close(set);
}

/*
 * Markers off, by name: each by-name site (a string literal) loads a word
 * of its own that the library zeroes once markers are off, and branches
 * over the call, as the cached form does; a name in a buffer calls the
 * library, which says off before any lookup.
 */
TEST(markers_off_by_name_cost_at_most_10_instructions_a_pair)
{
	struct loops named = { loop_named, loop_empty, NULL };
	char buffer[] = "pair by name, in a buffer";
	struct loops named_buffer = { loop_named_buffer, loop_empty, buffer };
	struct selfmon_set *set;
	int64_t nm, nb;

	EXACT_USER_OR_SKIP();
	setenv("SELFMON_EVENTS", "", 1);
	OPEN_USER(set, "instructions:u", NULL);
	/* The first pair finds markers off. */
	loop_named(NULL, 1);
	nm = cost_x1000(selfmon_set__page(set, 0), &named);
	nb = cost_x1000(selfmon_set__page(set, 0), &named_buffer);
	TH_LOG("marker pair by name, markers off: %lld.%03lld user instructions (a string literal), "
	       "%lld.%03lld (a name in a buffer)",
	       PER_CALL(nm), PER_CALL(nb));
	EXPECT_LE(nm, 10 * PAIRS);
	EXPECT_EQ(1, selfmon_marker__report());
	selfmon_set__close(set);
}

/* Nesting: the inner region exact; the outer one holds its body, the inner body, and one whole pair. */
static __attribute__((noinline)) void region_nested(void)
{
	SELFMON_MARKER_BEGIN("outer");
	NOPS(600);
	SELFMON_MARKER_BEGIN("inner");
	NOPS(300);
	SELFMON_MARKER_END("inner");
	SELFMON_MARKER_END("outer");
}

/* The same nesting with nothing in either region: the outer then holds the inner pair alone. */
static __attribute__((noinline)) void region_nested_empty(void)
{
	SELFMON_MARKER_BEGIN("outer of an empty pair");
	SELFMON_MARKER_BEGIN("empty");
	SELFMON_MARKER_END("empty");
	SELFMON_MARKER_END("outer of an empty pair");
}

TEST(nested_regions_are_exact_the_outer_holds_the_inner_pair_whole)
{
	const struct util_json *outer, *pair;
	struct util_json root = { 0 };
	char err[160];

	EXACT_USER_OR_SKIP();
	unsetenv("SELFMON_EVENTS");
	for (int i = 0; i < 10; i++) {
		region_nested();
		region_nested_empty();
	}
	ASSERT_EQ(0, report_json(&root, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EXACT(root, "inner", 300, 10);
	EXPECT_EXACT(root, "empty", 0, 10);
	outer = json_bench(&root, "outer");
	pair = json_bench(&root, "outer of an empty pair");
	ASSERT_TRUE(outer && pair);
	/* The first call of each also resolves its inner site: the minimum is the steady pair. */
	TH_LOG("outer: %.0f instructions a call: 900 of its own and the inner's, and an inner pair of %.0f",
	       num(outer, "instructions:u_min"), num(pair, "instructions:u_min"));
	EXPECT_EQ(900 + num(pair, "instructions:u_min"), num(outer, "instructions:u_min"));
	util_json_free(&root);
}

/*
 * More events than the PMU has counters: the kernel multiplexes them, and a
 * region then reports the times its counters were enabled and running
 * (read with their times from the moment the leader was seen multiplexed).
 */
TEST(a_multiplexed_region_reports_its_counters_running_less_than_enabled)
{
	const struct util_json *m;
	struct util_json root = { 0 };
	char err[160];

	EXACT_USER_OR_SKIP();
	setenv("SELFMON_EVENTS", "instructions:u,instructions:u,instructions:u,instructions:u,"
	       "instructions:u,instructions:u,instructions:u,instructions:u", 1);
	for (int i = 0; i < 20; i++) {
		SELFMON_MARKER_BEGIN("multiplexed");
		loop3(2000000);
		SELFMON_MARKER_END("multiplexed");
	}
	ASSERT_EQ(0, report_json(&root, err, sizeof(err))) TH_LOG("%s", err);
	m = median(&root, "multiplexed");
	ASSERT_NE(NULL, m);
	TH_LOG("multiplexed: enabled %.0f ns, running %.0f ns over the timed pairs",
	       num(m, "time_enabled"), num(m, "time_running"));
	EXPECT_GT(num(m, "time_running"), 0);
	EXPECT_LT(num(m, "time_running"), num(m, "time_enabled"));
	EXPECT_EQ(20, num(json_bench(&root, "multiplexed"), "iterations"));
	util_json_free(&root);
}

/*
 * A metric in SELFMON_EVENTS ("@ipc", as selfmon bench --events takes it):
 * the markers open its group and the report gives it per region, from the
 * region's counts per call. Under -icount shift=0 a user instruction takes
 * one user cycle, so each event's least call of 3000 nops is exactly 3000
 * and the IPC exactly 1. The reported IPC is of the mean call: an interrupt
 * that lands inside a region (a timer tick, now and then) leaves the user
 * instructions exact but adds a few user cycles to that call under QEMU,
 * so the mean is held to within 0.1% of 1, never above it.
 */
TEST(a_metric_in_selfmon_events_is_reported_per_region_and_nops_run_at_ipc_1)
{
	const struct util_json *b;
	struct util_json root = { 0 };
	char err[160];
	int mins = 0;

	EXACT_USER_OR_SKIP();
	setenv("SELFMON_EVENTS", "@ipc", 1);
	for (int i = 0; i < 10; i++)
		region_cached_3000();
	ASSERT_EQ(0, report_json(&root, err, sizeof(err))) TH_LOG("%s", err);
	TH_LOG("events %s, read %s", util_json_str(util_json_get(&root, "context"), "selfmon_events"),
	       util_json_str(util_json_get(&root, "context"), "selfmon_read_path"));
	b = json_bench(&root, "cached 3000");
	ASSERT_NE(NULL, b);
	EXPECT_EQ(10, num(b, "iterations"));
	for (int k = 0; k < b->nr; k++) {
		const char *key = b->kid[k].key;
		size_t len = key ? strlen(key) : 0;

		if (len > 4 && !strcmp(key + len - 4, "_min")) {
			EXPECT_EQ(3000, b->kid[k].num) TH_LOG("%s %.0f", key, b->kid[k].num);
			mins++;
		}
	}
	EXPECT_EQ(2, mins) TH_LOG("the row's events, each with its least call");
	EXPECT_TRUE(num(b, "ipc") > 0.999 && num(b, "ipc") <= 1) TH_LOG("ipc %.6f", num(b, "ipc"));
	util_json_free(&root);
}

/*
 * The cached empty pair of instructions:u under SELFMON_EVENTS=@events, as
 * the report's note states it, in a child (markers start once a process):
 * -1 when the child could not tell. @note gets the note, @ipc the ipc of 10
 * calls of a 3000-nop region (-1: none).
 */
static long empty_pair(const char *events, char *note, size_t size, double *ipc)
{
	struct { long pair; double ipc; char note[600]; } out = { -1, -1, "" };
	int fd[2], status = 0;
	pid_t pid;

	if (pipe(fd))
		return -1;
	pid = fork();
	if (!pid) {
		struct util_json root = { 0 };
		const struct util_json *b;
		const char *n, *at;
		char err[160];

		close(fd[0]);
		setenv("SELFMON_EVENTS", events, 1);
		for (int i = 0; i < 10; i++)
			region_cached_3000();
		if (!report_json(&root, err, sizeof(err))) {
			n = util_json_str(util_json_get(&root, "context"), "selfmon_note");
			snprintf(out.note, sizeof(out.note), "%s", n ? n : "");
			at = strstr(out.note, "instructions:u ");
			out.pair = at ? strtol(at + 15, NULL, 10) : -1;
			b = json_bench(&root, "cached 3000");
			out.ipc = b ? num(b, "ipc") : -1;
			util_json_free(&root);
		}
		if (write(fd[1], &out, sizeof(out)) != (ssize_t)sizeof(out))
			_exit(1);
		_exit(0);
	}
	close(fd[1]);
	if (pid < 0 || read(fd[0], &out, sizeof(out)) != (ssize_t)sizeof(out))
		out.pair = -1;
	close(fd[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	snprintf(note, size, "%s", out.note);
	*ipc = out.ipc;
	return out.pair;
}

/*
 * "@ipc" beside a group that counts instructions and cycles already (the
 * PMU's INST_RETIRED and CPU_CYCLES under their generic names) reads that
 * group: no second pair of counters, so the empty pair costs what it costs
 * without the metric, and ipc is still reported.
 */
TEST(a_metric_over_the_events_counted_reads_them_and_the_pair_costs_no_more)
{
	char plain_note[600], shared_note[600];
	double none, ipc;
	long plain, shared;

	EXACT_USER_OR_SKIP();
	plain = empty_pair("{instructions:u,cycles:u}", plain_note, sizeof(plain_note), &none);
	shared = empty_pair("{instructions:u,cycles:u},@ipc", shared_note, sizeof(shared_note), &ipc);
	TH_LOG("without @ipc: %s", plain_note);
	TH_LOG("with @ipc: %s", shared_note);
	ASSERT_LT(0, plain);
	EXPECT_EQ(plain, shared);
	EXPECT_EQ(NULL, strstr(shared_note, "INST_RETIRED"));
	EXPECT_EQ(NULL, strstr(shared_note, "CPU_CYCLES"));
	EXPECT_EQ(1, ipc) TH_LOG("ipc %.6f", ipc);
}

TEST_HARNESS_MAIN
