/* SPDX-License-Identifier: MIT */
/*
 * selfmon bench: measuring code regions with the inline counter read.
 *
 * Two layers:
 *  - the region: selfmon_region__begin() / selfmon_region__end(), inline,
 *    reading every counter of a set through its mmap page with no function
 *    call between the two reads (<selfmon/read.h>);
 *  - the driver: selfmon_bench__run() runs a body with warm-up, repetitions,
 *    a growing inner iteration count and overhead calibration, and gives
 *    per-iteration statistics of each event.
 *
 * Naming and errors as in <selfmon/selfmon.h>.
 */
#ifndef SELFMON_BENCH_H
#define SELFMON_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <selfmon/read.h>
#include <selfmon/selfmon.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An arch without a fence of its own (a test's fake arch) gets a compiler barrier. */
#ifndef selfmon_arch_fence
#define selfmon_arch_fence() selfmon_barrier()
#endif

/** Counters one region reads. */
#define SELFMON_PAGES_MAX 16

/** The pages of a set, taken once so that a region reads them without a call. */
struct selfmon_pages {
	struct selfmon_set *set; /**< the set they belong to */
	int nr; /**< counters: the set's */
	/** 1 when every counter has a page: regions try the inline read. */
	int all_user;
	/**
	 * 1: a fence (arm64 isb, x86 lfence) before and after the reads at each
	 * end of a region, so that the region's instructions neither start
	 * before the first read nor finish after the last. CONFIG_SERIALIZE_READS
	 * fences every single read as well.
	 */
	int serialize;
	/** each counter's page; NULL: none */
	const struct perf_event_mmap_page *pg[SELFMON_PAGES_MAX];
};

/** SELFMON_REGION_* bits of selfmon_region.slow */
#define SELFMON_REGION_SLOW_BEGIN (1u << 0) /**< the begin reads took read(2) */
#define SELFMON_REGION_SLOW_END (1u << 1) /**< the end reads took read(2) */

/** One measured region: raw counts at both ends. */
struct selfmon_region {
	uint64_t begin[SELFMON_PAGES_MAX]; /**< each counter's raw count at the begin */
	uint64_t end[SELFMON_PAGES_MAX]; /**< and at the end: selfmon_region__delta() */
	/** SELFMON_REGION_SLOW_*: an end that fell back also counted its read(2) */
	unsigned int slow;
	/** 0, or the -errno of a fallback read that failed (the counts are then invalid) */
	int err;
};

/**
 * selfmon_set__pages() - take the pages of every counter of @set
 * @pages: filled; @pages->serialize is set from @serialize
 *
 * A counter without a page (a software event, read(2) forced, a summed
 * heterogeneous event) makes every region take the read(2) fallback.
 * Return: 0, -E2BIG when the set has more than SELFMON_PAGES_MAX counters,
 * or -EINVAL for a NULL @set or @pages.
 */
int selfmon_set__pages(struct selfmon_set *set, struct selfmon_pages *pages, int serialize);

/**
 * selfmon_pages__read_slow() - read every counter of @pages->set with
 * selfmon_set__read_raw() (page, else read(2)): raw counts, the same quantity
 * the inline read gives, so both ends of a region may mix paths (not
 * selfmon_set__read(), which counts from the last reset).
 * Return: 0 or -errno.
 */
int selfmon_pages__read_slow(const struct selfmon_pages *pages, uint64_t *values);

/* One end of a region: inline reads, or all counters by the fallback. */
SELFMON_HOT void selfmon_region__read(const struct selfmon_pages *p, uint64_t *v,
				      unsigned int slow_bit, struct selfmon_region *r)
{
	int i = 0;

	if (p->serialize)
		selfmon_arch_fence();
	if (p->all_user)
		for (; i < p->nr; i++)
			if (selfmon_page__read_value(p->pg[i], &v[i]))
				break;
	/* One refusal reads them all again: both ends stay one quantity. */
	if (i < p->nr) {
		r->slow |= slow_bit;
		r->err = selfmon_pages__read_slow(p, v);
	}
	if (p->serialize)
		selfmon_arch_fence();
}

/**
 * selfmon_region__begin() - start measuring a region: read every counter
 *
 * Inline: no call between this read and selfmon_region__end()'s, unless a
 * page refuses (-EAGAIN from the inline read), when every counter is read by
 * selfmon_pages__read_slow() and @r->slow says so.
 */
SELFMON_HOT void selfmon_region__begin(const struct selfmon_pages *p, struct selfmon_region *r)
{
	r->slow = 0;
	r->err = 0;
	selfmon_region__read(p, r->begin, SELFMON_REGION_SLOW_BEGIN, r);
}

/** selfmon_region__end() - end the region: read every counter again. */
SELFMON_HOT void selfmon_region__end(const struct selfmon_pages *p, struct selfmon_region *r)
{
	selfmon_region__read(p, r->end, SELFMON_REGION_SLOW_END, r);
}

/** selfmon_region__delta() - events of counter @i between begin and end. */
static inline uint64_t selfmon_region__delta(const struct selfmon_region *r, int i)
{
	return r->end[i] - r->begin[i];
}

/* ---- statistics: pure functions ---- */

/** Summary of samples; quantiles interpolate linearly between closest ranks. */
struct selfmon_stats {
	size_t n; /**< values */
	double min, max, mean, median, p10, p90; /**< quantiles as selfmon_stats__quantile() */
	double stddev; /**< sample standard deviation (n - 1); 0 for n < 2 */
	double mad; /**< median absolute deviation from the median, unscaled */
};

/**
 * selfmon_stats__quantile() - the @q quantile (0..1) of @n sorted values:
 * rank h = (n - 1) q, interpolated between floor(h) and floor(h) + 1.
 * A @q below 0 gives the smallest value, above 1 the largest.
 * Return: the value, 0 for n = 0, NaN for a NaN @q.
 */
double selfmon_stats__quantile(const double *sorted, size_t n, double q);

/**
 * selfmon_stats__compute() - summarize @n samples (left unchanged) into @st
 * Return: 0, -EINVAL for n = 0 (@st zeroed), -ENOMEM.
 */
int selfmon_stats__compute(const double *v, size_t n, struct selfmon_stats *st);

/* ---- calibration ---- */

/** How fixed overhead (the reads, the call of the body) leaves the per-iteration numbers. */
enum selfmon_calib {
	/** Run the body with L and 2L iterations: (d(2L) - d(L)) / L. Cancels every fixed cost. */
	SELFMON_CALIB_TWO_LENGTH = 0,
	/** Subtract the median of empty regions: (d(L) - empty) / L. The body's call stays in. */
	SELFMON_CALIB_EMPTY = 1,
};

/** selfmon_calib__str() - "two-length" or "empty". */
const char *selfmon_calib__str(enum selfmon_calib c);

/**
 * selfmon_calib__empty() - per-iteration value of a region of @iters
 * iterations that measured @delta, where the empty region measures @empty
 * Return: 0, or 1 when the result was negative and was clamped to 0.
 */
int selfmon_calib__empty(double delta, double empty, uint64_t iters, double *per_iter);

/**
 * selfmon_calib__two_length() - per-iteration value from regions of @l and
 * 2 @l iterations that measured @d_l and @d_2l
 * Return: 0, or 1 when the result was negative and was clamped to 0.
 */
int selfmon_calib__two_length(double d_l, double d_2l, uint64_t l, double *per_iter);

/* ---- the driver ---- */

/** A benchmark body: run the code under test @iters times. */
typedef void (*selfmon_bench_fn)(void *arg, uint64_t iters);

/** Events measured when selfmon_bench_opts.events is NULL (those that open). */
#define SELFMON_BENCH_DEFAULT_EVENTS \
	"instructions:u,cycles:u,branches:u,branch-misses:u,cache-references:u,cache-misses:u"

/** Options of selfmon_bench__open(); zero-fill, set .sz = sizeof. NULL means defaults. */
struct selfmon_bench_opts {
	size_t sz;
	/** Events to count in the region; NULL: SELFMON_BENCH_DEFAULT_EVENTS. */
	const char *events;
	/** Repetitions (samples) at least; 0: 10; at most 100000. */
	int repetitions;
	/** Keep repeating until the repetitions took this many seconds in all (0 to 86400). */
	double min_time;
	/** Untimed runs of the body before the first repetition. */
	int warmup;
	/**
	 * Inner iterations per repetition; 0: grown until one lasts rep_time.
	 * At most 10^12: selfmon_bench__open() refuses more (-EINVAL), as they
	 * cannot run.
	 */
	uint64_t iterations;
	/** Seconds one repetition should last when iterations grow; 0: 0.001. */
	double rep_time;
	/** enum selfmon_calib */
	int calibration;
	/** 1: fence around each end of a region (struct selfmon_pages.serialize). */
	int serialize;
	/** 1: keep repetitions that saw a context switch, a migration or a fallback read, flagged. */
	int keep_noisy;
	/** Passed to selfmon_set__open(): pinning and the read path. */
	struct selfmon_opts set_opts;
	/**
	 * Events counted after @events where this machine can count them
	 * (a metric's, say): one that cannot open is left out, and
	 * selfmon_bench__note() says so. NULL: none.
	 */
	const char *optional_events;
};

/** A driver: the counted events, opened once. Opaque. */
struct selfmon_bench;

/** Columns of a result: time, task-clock, then the events. */
#define SELFMON_BENCH_MAX_COLS (SELFMON_PAGES_MAX + 2)

/** One measured quantity of a result, per iteration. */
struct selfmon_bench_col {
	char name[64]; /**< "time", "task-clock" or the event as given */
	const char *unit; /**< "ns", or "" for counts */
	int path; /**< enum selfmon_path of the region reads */
	enum selfmon_reason reason; /**< why read(2), for path SYSCALL */
	struct selfmon_stats st; /**< over the kept repetitions */
	double overhead; /**< per region, subtracted (empty calibration); else 0 */
	int clamped; /**< kept repetitions that came out negative, reported as 0 */
};

/** What selfmon_bench__run() measured. */
struct selfmon_bench_result {
	char name[64]; /**< as given to selfmon_bench__run() */
	enum selfmon_calib calibration; /**< how the reads' cost was taken out */
	uint64_t iterations; /**< per repetition (L of the two-length method) */
	int repetitions; /**< run */
	int kept; /**< of which the statistics use */
	int dropped_switch; /**< dropped: a context switch happened in the region */
	int dropped_migration; /**< dropped: the thread moved to another CPU */
	int dropped_fallback; /**< dropped: a read fell back to read(2) while others were inline */
	/**
	 * dropped, whatever keep_noisy says: an event's counter did not run in
	 * the region (its time_running stood still: the task's counters
	 * disabled with PR_TASK_PERF_EVENTS_DISABLE, or multiplexed out), so
	 * its count is no measurement, not a 0
	 */
	int dropped_not_run;
	/**
	 * kept although noisy: with keep_noisy, or, without it, when the retries
	 * (4 x repetitions + 16 tries) ran out with fewer undisturbed ones than
	 * asked: the first disturbed ones fill up to the number asked
	 */
	int flagged;
	int slow_regions; /**< regions read by read(2) */
	int nr_cols; /**< columns in @col */
	/** time, task-clock, then each event; selfmon_bench_result__col() finds one by name */
	struct selfmon_bench_col col[SELFMON_BENCH_MAX_COLS];
	/** nr_cols x kept per-iteration values: samples[c * kept + r] */
	double *samples;
};

/**
 * selfmon_bench__open() - open the events of a driver for the calling thread
 *
 * With no .events, the default events that cannot open for want of hardware
 * (no PMU, an event the PMU does not have, a gate) are left out, and so are
 * .optional_events': selfmon_bench__note() says which and why; with none
 * left it still measures time and task-clock. An event named in .events
 * that cannot open fails, with the refusal: nothing is counted in its
 * place. A syntax error or an unknown name fails.
 * Return: the driver, or NULL with errno set (selfmon_errmsg()).
 */
struct selfmon_bench *selfmon_bench__open(const struct selfmon_bench_opts *opts);

/** selfmon_bench__close() - close the events and free the driver. NULL is fine. */
void selfmon_bench__close(struct selfmon_bench *b);

/**
 * selfmon_bench__note() - why events were left out ("" if none): for
 * example that no hardware PMU exists, with the fix.
 */
const char *selfmon_bench__note(const struct selfmon_bench *b);

/** selfmon_bench__nr_events() - hardware or other events counted in regions. */
int selfmon_bench__nr_events(const struct selfmon_bench *b);

/** selfmon_bench__set() - the set of region events (for paths, names, pinning). */
struct selfmon_set *selfmon_bench__set(const struct selfmon_bench *b);

/**
 * selfmon_bench__run() - measure @fn(@arg, iters) and summarize it
 * @name: copied into the result
 * @res: filled; free its samples with selfmon_bench_result__fini()
 * Return: 0 or -errno; -EINVAL for a NULL @b, @fn or @res.
 */
int selfmon_bench__run(struct selfmon_bench *b, const char *name, selfmon_bench_fn fn, void *arg,
		       struct selfmon_bench_result *res);

/** selfmon_bench_result__fini() - free what a result holds. */
void selfmon_bench_result__fini(struct selfmon_bench_result *res);

/**
 * selfmon_bench_result__col() - the column of @res named @name, ignoring
 * modifiers (":u") on both sides, or -1.
 */
int selfmon_bench_result__col(const struct selfmon_bench_result *res, const char *name);

#ifdef __cplusplus
}
#endif

#endif /* SELFMON_BENCH_H */
