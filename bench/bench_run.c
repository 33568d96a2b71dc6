// SPDX-License-Identifier: MIT
/*
 * The bench driver's run: the read(2) fallback of a region (here, where the
 * shots' regions inline it), one region a shot, the iterations grown to
 * rep_time, repetitions with calibration, the filtering of disturbed ones
 * and their spares, the statistics, and the result's columns. The driver
 * is opened in bench.c.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_int.h"
#include "../util/sort.h"

/* Empty regions measured for SELFMON_CALIB_EMPTY; their median is subtracted. */
#define EMPTY_REGIONS 15
/* Dropped repetitions are run again, up to this many times the repetitions asked. */
#define RETRY_FACTOR 4
/*
 * A 2L run shorter than its L run by more than this share of the L run (and
 * for a time column also more than INVERTED_SLACK_NS) did not measure the
 * body: twice the work never takes less, and the clocks' jitter is far
 * below both; the L run was disturbed.
 */
#define INVERTED_SHARE 0.05
#define INVERTED_SLACK_NS 1000.0
#define MAX_ITERATIONS 1000000000ull

int selfmon_pages__read_slow(const struct selfmon_pages *pages, uint64_t *values)
{
	struct selfmon_count c[SELFMON_PAGES_MAX];
	int err;

	if (!pages || !values)
		return selfmon_errmsg__set(-EINVAL, "selfmon_pages__read_slow: %s is NULL",
					   pages ? "values" : "pages");
	/* Raw, not rebased: the quantity the inline read gives; each group from one instant. */
	err = selfmon_set__read_raw_all(pages->set, c);
	for (int i = 0; i < pages->nr && !err; i++)
		values[i] = c[i].value;
	return err;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* What one run of the body measured: each column's delta, side counts. */
struct shot {
	double d[SELFMON_BENCH_MAX_COLS];
	uint64_t switches, migrations;
	unsigned int slow;
	/* 1: an event's counter did not run in the region: its delta is no measurement */
	int idle;
	int err;
};

/*
 * The time_running of each measured counter (perf_event_open(2),
 * "read_format"): it stands still while the counter is disabled
 * (PR_TASK_PERF_EVENTS_DISABLE in prctl(2)) or multiplexed out. By read(2),
 * outside the region: the mmap page's times are those of the kernel's last
 * update ("MMAP layout"), which a counter that runs on leaves behind.
 */
static int running_read(struct selfmon_bench *b, uint64_t *running)
{
	struct selfmon_count c;
	int err = 0;

	for (int i = 0; b->set && i < b->pages.nr && !err; i++) {
		err = selfmon_set__read_syscall(b->set, i, &c);
		if (!err)
			running[i] = c.running;
	}
	return err;
}

static int side_read(struct selfmon_bench *b, uint64_t *v)
{
	struct selfmon_count c[SIDE_NR] = { 0 };
	int err;

	if (!b->side)
		return 0;
	err = selfmon_set__read_all(b->side, c);
	for (int i = 0; i < SIDE_NR; i++)
		v[i] = c[i].value;
	return err;
}

/* Columns: 0 time, 1 task-clock when the side set opened, then the events. */
static int first_event_col(const struct selfmon_bench *b)
{
	return b->side ? 2 : 1;
}

/* Run @fn(@arg, @n) inside one region; @fn NULL: the empty region. */
static void shot(struct selfmon_bench *b, selfmon_bench_fn fn, void *arg, uint64_t n,
		 struct shot *s)
{
	uint64_t sa[SIDE_NR] = { 0 }, sb[SIDE_NR] = { 0 };
	uint64_t ra[SELFMON_PAGES_MAX] = { 0 }, rb[SELFMON_PAGES_MAX] = { 0 };
	struct selfmon_region r;
	double t0, t1;
	int e0 = first_event_col(b);

	s->err = running_read(b, ra);
	if (!s->err)
		s->err = side_read(b, sa);
	t0 = now_ns();
	selfmon_region__begin(&b->pages, &r);
	if (fn)
		fn(arg, n);
	selfmon_region__end(&b->pages, &r);
	t1 = now_ns();
	if (!s->err)
		s->err = side_read(b, sb);
	if (!s->err)
		s->err = running_read(b, rb);
	if (!s->err)
		s->err = r.err;
	s->slow = r.slow;
	s->idle = 0;
	for (int i = 0; i < b->pages.nr; i++)
		s->idle |= ra[i] == rb[i];
	s->d[0] = t1 - t0;
	/* Without the side set nothing was counted: no switch, no migration seen. */
	s->switches = s->migrations = 0;
	if (b->side) {
		s->d[1] = (double)(sb[SIDE_TASK_CLOCK] - sa[SIDE_TASK_CLOCK]);
		s->switches = sb[SIDE_SWITCHES] - sa[SIDE_SWITCHES];
		s->migrations = sb[SIDE_MIGRATIONS] - sa[SIDE_MIGRATIONS];
	}
	for (int i = 0; i < b->pages.nr; i++)
		s->d[e0 + i] = (double)selfmon_region__delta(&r, i);
}

/* Iterations for one repetition to last rep_time: grow by the ratio still missing. */
static uint64_t grow_iterations(struct selfmon_bench *b, selfmon_bench_fn fn, void *arg)
{
	const double target = b->rep_time * 1e9;
	uint64_t n = 1;

	for (;;) {
		double t0 = now_ns(), t, mult;

		fn(arg, n);
		t = now_ns() - t0;
		if (t >= target || n >= MAX_ITERATIONS)
			return n;
		/* 1.4x the estimate overshoots a little rather than crawl up (at most 10x a step). */
		mult = t > 0 ? target * 1.4 / t : 10;
		if (mult > 10)
			mult = 10;
		if (mult < 2)
			mult = 2;
		n = (uint64_t)((double)n * mult);
		/* A body too fast to time (the empty one) stops at the cap. */
		if (n > MAX_ITERATIONS)
			n = MAX_ITERATIONS;
	}
}

static void name_cols(struct selfmon_bench *b, struct selfmon_bench_result *res)
{
	int e0 = first_event_col(b);

	res->nr_cols = e0 + b->pages.nr;
	snprintf(res->col[0].name, sizeof(res->col[0].name), "time");
	res->col[0].unit = "ns";
	res->col[0].path = SELFMON_PATH_SYSCALL;
	if (b->side) {
		snprintf(res->col[1].name, sizeof(res->col[1].name), "task-clock");
		res->col[1].unit = "ns";
		res->col[1].path = SELFMON_PATH_SYSCALL;
		res->col[1].reason = SELFMON_REASON_SOFTWARE;
	}
	for (int i = 0; i < b->pages.nr; i++) {
		struct selfmon_bench_col *c = &res->col[e0 + i];
		enum selfmon_reason why = SELFMON_REASON_NONE;

		snprintf(c->name, sizeof(c->name), "%s", selfmon_set__name(b->set, i));
		c->unit = "";
		c->path = selfmon_set__path(b->set, i, &why);
		c->reason = why;
	}
}

/* The empty region's cost per column (the median of EMPTY_REGIONS), for SELFMON_CALIB_EMPTY. */
static int measure_empty(struct selfmon_bench *b, struct selfmon_bench_result *res, double *empty)
{
	double v[EMPTY_REGIONS][SELFMON_BENCH_MAX_COLS], tmp[EMPTY_REGIONS];
	struct shot s;

	for (int k = 0; k < EMPTY_REGIONS; k++) {
		shot(b, NULL, NULL, 0, &s);
		if (s.err)
			return s.err;
		memcpy(v[k], s.d, sizeof(v[k]));
	}
	for (int c = 0; c < res->nr_cols; c++) {
		for (int k = 0; k < EMPTY_REGIONS; k++)
			tmp[k] = v[k][c];
		empty[c] = util_median(tmp, EMPTY_REGIONS);
		res->col[c].overhead = empty[c];
	}
	return 0;
}

/* NOISE_INVERTED: no measurement (inverted()), never kept unless nothing else is. */
enum noise { NOISE_NONE, NOISE_SWITCH, NOISE_MIGRATION, NOISE_FALLBACK, NOISE_INVERTED };

/*
 * Whether the two runs of a repetition are inverted, the 2L run shorter
 * than the L run beyond jitter in some column: their difference would come
 * out below zero and be clamped to 0, a number no body costs. Under load
 * the L run alone is preempted now and then, and a gate comparing such
 * zeros with the other side's values saw a change that was not there.
 */
static bool inverted(const struct selfmon_bench *b, int nr_cols, const struct shot *s1,
		     const struct shot *s2)
{
	int e0 = first_event_col(b);

	for (int c = 0; c < nr_cols; c++) {
		double slack = INVERTED_SHARE * s1->d[c] + (c < e0 ? INVERTED_SLACK_NS : 0);

		if (s2->d[c] < s1->d[c] - slack)
			return true;
	}
	return false;
}

/*
 * Whether a repetition was disturbed (a context switch, a migration, or a
 * read that fell back to read(2) where every read is a user read), and how.
 */
static enum noise noise_of(const struct selfmon_bench *b, const struct shot *s1,
			   const struct shot *s2, bool two)
{
	if (s1->switches + (two ? s2->switches : 0))
		return NOISE_SWITCH;
	if (s1->migrations + (two ? s2->migrations : 0))
		return NOISE_MIGRATION;
	/* The fallback's own instructions are in this region only. */
	if (b->pages.all_user && (s1->slow || s2->slow))
		return NOISE_FALLBACK;
	return NOISE_NONE;
}

/* Count a dropped repetition of kind @why (@by 1), or take the count back (@by -1). */
static void count_drop(struct selfmon_bench_result *res, enum noise why, int by)
{
	int *n;

	/* Not among the dropped_* of the result: repetitions less kept and dropped. */
	if (why == NOISE_INVERTED)
		return;
	n = why == NOISE_SWITCH	   ? &res->dropped_switch :
	    why == NOISE_MIGRATION ? &res->dropped_migration :
				     &res->dropped_fallback;
	*n += by;
}

/* Samples kept so far, row-major: @cap rows of SELFMON_BENCH_MAX_COLS. */
struct kept {
	double *all;
	int cap;
};

/* Keep one repetition: each column's per-iteration value, calibrated. Return: 0 or -ENOMEM. */
static int keep_repetition(struct selfmon_bench_result *res, struct kept *k, const struct shot *s1,
			   const struct shot *s2, const double *empty, uint64_t n, bool two)
{
	if (res->kept == k->cap) {
		int cap = k->cap ? k->cap * 2 : 64;
		double *grown =
			realloc(k->all, (size_t)cap * SELFMON_BENCH_MAX_COLS * sizeof(*k->all));

		if (!grown)
			return -ENOMEM;
		k->all = grown;
		k->cap = cap;
	}
	for (int c = 0; c < res->nr_cols; c++) {
		double *v = &k->all[(size_t)res->kept * SELFMON_BENCH_MAX_COLS + c];

		if (two)
			res->col[c].clamped += selfmon_calib__two_length(s1->d[c], s2->d[c], n, v);
		else
			res->col[c].clamped += selfmon_calib__empty(s1->d[c], empty[c], n, v);
	}
	res->kept++;
	return 0;
}

/*
 * Dropped repetitions held back, the first @cap of them: if too few
 * undisturbed ones are kept within the retries, these fill the result up,
 * flagged, so that no benchmark that ran ends with no repetition at all.
 */
struct spares {
	struct shot *s; /* two a repetition: the L run and the 2L run */
	enum noise *why;
	int nr, cap;
};

static void spare_keep(struct spares *sp, const struct shot *s1, const struct shot *s2,
		       enum noise why)
{
	if (sp->nr == sp->cap)
		return;
	if (!sp->s) {
		sp->s = malloc((size_t)sp->cap * 2 * sizeof(*sp->s));
		sp->why = malloc((size_t)sp->cap * sizeof(*sp->why));
		if (!sp->s || !sp->why) {
			/* Without memory nothing is held back: the result may end short. */
			sp->cap = 0;
			return;
		}
	}
	sp->s[2 * (size_t)sp->nr] = *s1;
	sp->s[2 * (size_t)sp->nr + 1] = *s2;
	sp->why[sp->nr++] = why;
}

/*
 * The retries are spent with fewer repetitions kept than asked: keep the
 * held-back disturbed ones, flagged, up to the number asked; they are no
 * longer counted as dropped. Return: 0 or -ENOMEM.
 */
static int keep_spares(struct selfmon_bench *b, struct selfmon_bench_result *res, struct kept *k,
		       const struct spares *sp, const double *empty, uint64_t n, bool two)
{
	/* The disturbed ones first, the inverted (clamped values) only if still short. */
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < sp->nr && res->kept < b->repetitions; i++) {
			int err;

			if ((sp->why[i] == NOISE_INVERTED) != pass)
				continue;
			err = keep_repetition(res, k, &sp->s[2 * (size_t)i],
					      &sp->s[2 * (size_t)i + 1], empty, n, two);
			if (err)
				return err;
			res->flagged++;
			count_drop(res, sp->why[i], -1);
		}
	}
	return 0;
}

/*
 * Repeat the body until enough repetitions are kept and min_time has passed,
 * or the retries are spent: then disturbed ones fill up, flagged.
 */
static int repeat(struct selfmon_bench *b, selfmon_bench_fn fn, void *arg, uint64_t n,
		  const double *empty, struct selfmon_bench_result *res, struct kept *k)
{
	bool two = b->calibration == SELFMON_CALIB_TWO_LENGTH;
	/* With keep_noisy, only the inverted are held back. */
	struct spares sp = { .cap = b->repetitions };
	double start = now_ns();
	struct shot s1, s2;
	int err = 0;

	for (int r = 0; r < MAX_REPETITIONS; r++) {
		enum noise why;

		/* Repetitions count kept samples; a noisy machine gets a bounded number of retries. */
		if ((res->kept >= b->repetitions || r >= RETRY_FACTOR * b->repetitions + 16) &&
		    now_ns() - start >= b->min_time * 1e9)
			break;
		shot(b, fn, arg, n, &s1);
		if (two)
			shot(b, fn, arg, 2 * n, &s2);
		else
			s2 = s1;
		err = s1.err ? s1.err : s2.err;
		if (err)
			goto out;
		res->repetitions++;
		res->slow_regions += !!s1.slow + (two && s2.slow);
		/* Not even --keep-noisy keeps a count of nothing, nor holds it back as a spare. */
		if (s1.idle || s2.idle) {
			res->dropped_not_run++;
			continue;
		}
		/* Nor --keep-noisy a pair of runs that measured no body: retried, held back. */
		if (two && inverted(b, res->nr_cols, &s1, &s2)) {
			spare_keep(&sp, &s1, &s2, NOISE_INVERTED);
			continue;
		}
		why = noise_of(b, &s1, &s2, two);
		if (why != NOISE_NONE && !b->keep_noisy) {
			count_drop(res, why, 1);
			spare_keep(&sp, &s1, &s2, why);
			continue;
		}
		res->flagged += why != NOISE_NONE;
		err = keep_repetition(res, k, &s1, &s2, empty, n, two);
		if (err)
			goto out;
	}
	err = keep_spares(b, res, k, &sp, empty, n, two);
out:
	free(sp.s);
	free(sp.why);
	return err;
}

/*
 * The kept samples, column-major for the caller (one event's samples are
 * contiguous), their statistics, and the paths after the run: a page that
 * refused meanwhile shows here. Return: 0 or -ENOMEM.
 */
static int summarize(struct selfmon_bench *b, struct selfmon_bench_result *res, const double *all)
{
	int nc = res->nr_cols;

	if (res->kept) {
		res->samples = malloc((size_t)nc * (size_t)res->kept * sizeof(*res->samples));
		if (!res->samples)
			return -ENOMEM;
		for (int c = 0; c < nc; c++) {
			double *col = &res->samples[(size_t)c * (size_t)res->kept];

			for (int r = 0; r < res->kept; r++)
				col[r] = all[(size_t)r * SELFMON_BENCH_MAX_COLS + c];
			selfmon_stats__compute(col, (size_t)res->kept, &res->col[c].st);
		}
	}
	for (int i = 0; i < b->pages.nr; i++) {
		enum selfmon_reason why = SELFMON_REASON_NONE;
		struct selfmon_bench_col *c = &res->col[first_event_col(b) + i];

		c->path = selfmon_set__path(b->set, i, &why);
		c->reason = why;
	}
	return 0;
}

int selfmon_bench__run(struct selfmon_bench *b, const char *name, selfmon_bench_fn fn, void *arg,
		       struct selfmon_bench_result *res)
{
	double empty[SELFMON_BENCH_MAX_COLS] = { 0 };
	struct kept k = { 0 };
	int err = 0;
	uint64_t n;

	if (!res)
		return selfmon__err(-EINVAL, "selfmon_bench__run: no result to fill (NULL)");
	memset(res, 0, sizeof(*res));
	if (!b || !fn)
		return selfmon__err(-EINVAL, "selfmon_bench__run: no driver or no body");
	snprintf(res->name, sizeof(res->name), "%s", name ? name : "");
	res->calibration = b->calibration;
	name_cols(b, res);

	n = b->iterations ? b->iterations : grow_iterations(b, fn, arg);
	res->iterations = n;
	for (int i = 0; i < b->warmup; i++)
		fn(arg, n);

	if (b->calibration != SELFMON_CALIB_TWO_LENGTH)
		err = measure_empty(b, res, empty);
	if (!err)
		err = repeat(b, fn, arg, n, empty, res, &k);
	if (!err)
		err = summarize(b, res, k.all);
	free(k.all);
	if (err) {
		selfmon_bench_result__fini(res);
		return selfmon__err(err, "benchmark '%s': %s", res->name, selfmon_strerror(err));
	}
	return 0;
}

void selfmon_bench_result__fini(struct selfmon_bench_result *res)
{
	if (!res)
		return;
	free(res->samples);
	res->samples = NULL;
	res->kept = 0;
}

/* "instructions:u" -> length of "instructions"; PMU events keep their slashes. */
static size_t base_len(const char *s)
{
	const char *slash = strrchr(s, '/'), *colon = strrchr(s, ':');

	if (colon && (!slash || colon > slash))
		return (size_t)(colon - s);
	return strlen(s);
}

int selfmon_bench_result__col(const struct selfmon_bench_result *res, const char *name)
{
	size_t len = base_len(name);

	for (int c = 0; c < res->nr_cols; c++)
		if (!strcmp(res->col[c].name, name))
			return c;
	for (int c = 0; c < res->nr_cols; c++)
		if (base_len(res->col[c].name) == len && !strncmp(res->col[c].name, name, len))
			return c;
	return -1;
}
