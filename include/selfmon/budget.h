/* SPDX-License-Identifier: MIT */
/*
 * selfmon budgets: measure one statement in a test and hold its cost in an
 * event (instructions:u, cycles:u, task-clock, ...) to a budget.
 *
 * SELFMON_MEASURE() runs the statement K times inside a region of
 * <selfmon/bench.h> (two inline reads, fenced), each time right after an
 * empty region of the same expansion; the result is the statistic of the
 * statement's regions less the statistic of the empty ones: the fixed cost
 * of the reads is subtracted. Events that count instructions retired, as
 * the set resolved them (selfmon_set__counts_instructions(): "instructions",
 * "r08" on arm64, "cpu/event=0xc0/" on x86_64, Intel's INST_RETIRED.ANY,
 * whatever the name), take the
 * minimum of the K repetitions, since an interrupt or a page fault only ever
 * adds; other events take the median. A region the
 * counter did not run all through (disabled, multiplexed out: its
 * time_running fell behind) is left out, never kept as 0; when no region
 * ran, nothing was measured and the check fails.
 *
 * The measurer of an event is opened on first use in each thread (and again
 * in a forked child) and kept until the thread exits: no set-up in the test. The framework headers
 * <selfmon/cmocka.h> and <selfmon/kselftest.h> turn a measurement into a
 * pass, a failure with a message, or a skip that says why.
 *
 * Environment:
 *   SELFMON_BUDGET_REPS=K        repetitions (1..SELFMON_BUDGET_REPS_MAX, default 5)
 *   SELFMON_EXPECT_USER_READ=1   this machine must count: an event that cannot
 *                                open, or a hardware event read by read(2),
 *                                fails the test instead of skipping it
 */
#ifndef SELFMON_BUDGET_H
#define SELFMON_BUDGET_H

#include <selfmon/bench.h>
#include <selfmon/read.h>
#include <selfmon/selfmon.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Most repetitions SELFMON_BUDGET_REPS may ask for. */
#define SELFMON_BUDGET_REPS_MAX 1000
/** Repetitions without SELFMON_BUDGET_REPS. */
#define SELFMON_BUDGET_REPS_DEFAULT 5

/** The measurer of one event in one thread. Opaque. */
struct selfmon_budget;

/** What SELFMON_MEASURE() measured: a plain value. */
struct selfmon_measure {
	char event[SELFMON_EVENT_NAME_MAX]; /**< the event measured, as given */
	double value; /**< raw - overhead, clamped at 0: the statement's cost */
	double raw; /**< the statement's regions, reads included */
	double overhead; /**< the empty regions: subtracted */
	int reps; /**< the statement's regions kept (see @dropped) */
	int min_of_reps; /**< 1: the minimum of the repetitions (instructions retired); 0: the median */
	int clamped; /**< 1: raw < overhead, value set to 0 */
	int path; /**< enum selfmon_path of the reads; SYSCALL when any fell back */
	enum selfmon_reason reason; /**< why read(2), for path SYSCALL */
	/**
	 * 0, or -errno: nothing was measured and @why says why. A machine
	 * that cannot count the event (it does not open) skips; bad input
	 * (@bad_input) always fails.
	 */
	int err;
	int bad_input; /**< 1: the error is the caller's (a bad SELFMON_BUDGET_REPS) */
	/**
	 * 1: the counter opened but ran all through no region (@err is
	 * -ENODATA): disabled (PR_TASK_PERF_EVENTS_DISABLE) or multiplexed
	 * out. Nothing was measured, which fails: it is no pass, and no skip
	 * either, since this machine can count the event.
	 */
	int not_run;
	/**
	 * Regions (empty and statement) left out because the counter did not
	 * run all through them: time_running did not keep pace with
	 * time_enabled. @reps counts the statement regions kept.
	 */
	int dropped;
	char why[256]; /**< with @err: the cause and the fix */
};

/** Results of selfmon_measure__check_le() and selfmon_measure__check_within(). */
enum selfmon_verdict {
	SELFMON_VERDICT_PASS = 0,
	SELFMON_VERDICT_FAIL = 1,
	SELFMON_VERDICT_SKIP = 2,
};

/**
 * selfmon_budget__get() - the calling thread's measurer of @event, opened
 * (and enabled) on first use and kept until selfmon_budget__close_all() or
 * the thread's exit, which closes the thread's measurers
 *
 * A process forked after the first use gets a measurer of its own.
 * Return: the measurer, or NULL with errno set and selfmon_errmsg() saying
 * why (the event does not open here, a bad SELFMON_BUDGET_REPS).
 */
struct selfmon_budget *selfmon_budget__get(const char *event);

/** selfmon_budget__close_all() - close the calling thread's measurers. */
void selfmon_budget__close_all(void);

/**
 * selfmon_budget__start() - begin a measurement of @event by @b into @m
 * @b: selfmon_budget__get()'s result, NULL included (then @m gets its error)
 *
 * Return: the repetitions to run (> 0), or 0 when @b is NULL and @m says why.
 */
int selfmon_budget__start(struct selfmon_budget *b, const char *event, struct selfmon_measure *m);

/** selfmon_budget__pages() - the pages the regions of @b read. */
const struct selfmon_pages *selfmon_budget__pages(const struct selfmon_budget *b);

/**
 * selfmon_budget__add() - keep one region of a measurement
 * @stmt: 0 for an empty region, 1 for one of the statement
 */
void selfmon_budget__add(struct selfmon_budget *b, int stmt, const struct selfmon_region *r);

/**
 * selfmon_budget__finish() - summarize the regions kept since
 * selfmon_budget__start() into @m. Return: 0, or @m->err.
 */
int selfmon_budget__finish(struct selfmon_budget *b, struct selfmon_measure *m);

/**
 * selfmon_measure__check_le() - @m against "at most @budget"
 * @msg: filled whatever the verdict: measured, budget, overhead subtracted,
 *	read path and repetitions (pass and fail), or why not (skip)
 *
 * An error in @m skips, unless it is bad input or SELFMON_EXPECT_USER_READ=1
 * (then it fails); a counter that did not run (@m->not_run) fails, naming
 * the cause; with SELFMON_EXPECT_USER_READ=1 a hardware event read by
 * read(2) fails too. Return: enum selfmon_verdict.
 */
int selfmon_measure__check_le(const struct selfmon_measure *m, double budget, char *msg,
			      size_t size);

/**
 * selfmon_measure__check_within() - @m against "@expected, give or take
 * @pct percent" (|value - expected| <= expected * pct / 100), as
 * selfmon_measure__check_le() does otherwise. A negative @pct fails.
 * Return: enum selfmon_verdict.
 */
int selfmon_measure__check_within(const struct selfmon_measure *m, double expected, double pct,
				  char *msg, size_t size);

/**
 * selfmon_marker__check_le() - region @region of the markers
 * (<selfmon/marker_result.h>) against "at most @budget of @event per call": the
 * mean per call over every thread so far, as selfmon_marker__result() and
 * the report give it (the empty pair subtracted)
 * @region: the region, as SELFMON_MARKER_BEGIN() names it
 * @event: one of the markers' events, as opened ("instructions:u"): an
 *	event of SELFMON_EVENTS
 * @budget: the most @event may count per call
 * @msg: filled whatever the verdict: the mean, the budget, the calls,
 *	threads, min and max per call, the empty pair subtracted (pass and
 *	fail), or why nothing was measured
 *
 * Nothing measured fails, as a budget's counter that did not run does: an
 * unknown region or one with no ended pair, an event the markers do not
 * count, markers off, counters multiplexed during the region's calls.
 * Markers whose events did not open on this machine skip, as a budget's
 * event that does not open (they fail under SELFMON_EXPECT_USER_READ=1).
 * Return: enum selfmon_verdict.
 */
int selfmon_marker__check_le(const char *region, const char *event, double budget, char *msg,
			     size_t size);

/**
 * SELFMON_MEASURE() - measure a statement in @event into @m
 * @m: a struct selfmon_measure (not a pointer): what was measured
 * @event: the event string, as selfmon_set__open() takes it ("instructions:u")
 * @...: the statement
 *
 * The statement runs K times (it must
 * bear repeating); an empty region of this same expansion runs before each,
 * so both are read by the same code and its cost is subtracted. The compiler
 * may drop a statement without effects: measure a call, or use its result.
 */
#define SELFMON_MEASURE(m, event, ...)                                                    \
	do {                                                                              \
		struct selfmon_budget *sm_b_ = selfmon_budget__get(event);                \
		int sm_n_ = selfmon_budget__start(sm_b_, (event), &(m));                  \
		for (int sm_k_ = 0; sm_k_ < sm_n_; sm_k_++) {                             \
			const struct selfmon_pages *sm_p_ = selfmon_budget__pages(sm_b_); \
			struct selfmon_region sm_r_;                                      \
			selfmon_region__begin(sm_p_, &sm_r_);                             \
			selfmon_barrier();                                                \
			selfmon_region__end(sm_p_, &sm_r_);                               \
			selfmon_budget__add(sm_b_, 0, &sm_r_);                            \
			selfmon_region__begin(sm_p_, &sm_r_);                             \
			selfmon_barrier();                                                \
			__VA_ARGS__;                                                      \
			selfmon_barrier();                                                \
			selfmon_region__end(sm_p_, &sm_r_);                               \
			selfmon_budget__add(sm_b_, 1, &sm_r_);                            \
		}                                                                         \
		if (sm_n_ > 0)                                                            \
			selfmon_budget__finish(sm_b_, &(m));                              \
	} while (0)

#ifdef __cplusplus
}
#endif

#endif /* SELFMON_BUDGET_H */
