/* SPDX-License-Identifier: MIT */
/*
 * Budgets in cmocka tests: one line per assertion, no set-up.
 *
 *	#include <selfmon/cmocka.h>
 *
 *	static void parse_stays_cheap(void **state)
 *	{
 *		SELFMON_ASSERT_BUDGET("instructions:u", 1200, parse(line));
 *	}
 *
 * SELFMON_ASSERT_BUDGET(event, max, statement...) measures the statement as
 * SELFMON_MEASURE() does (<selfmon/budget.h>: the empty measurement
 * subtracted, the minimum of K repetitions for events counting
 * instructions retired) and fails the test when the cost exceeds @max; SELFMON_ASSERT_WITHIN(event,
 * expected, pct, statement...) when it is not within @pct percent of
 * @expected. The failure message gives the measured cost, the budget, the
 * overhead subtracted, the read path and the repetitions. Where the event
 * cannot be counted (no PMU) the test is skipped, with the reason printed;
 * with SELFMON_EXPECT_USER_READ=1 in the environment it fails instead. A
 * counter that opened but did not run (disabled with
 * PR_TASK_PERF_EVENTS_DISABLE, multiplexed out) measured nothing: the test
 * fails, naming the cause.
 * Link with libselfmon (pkg-config selfmon) and cmocka.
 */
#ifndef SELFMON_CMOCKA_H
#define SELFMON_CMOCKA_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
/* cmocka 1.1's header declares its functions without extern "C": a C++ test links them as C. */
#ifdef __cplusplus
extern "C" {
#endif
#include <cmocka.h>
#ifdef __cplusplus
}
#endif
#include <selfmon/budget.h>

#ifdef SELFMON_KSELFTEST_H
#error "<selfmon/cmocka.h> and <selfmon/kselftest.h> define the same macros: include one"
#endif

/* The verdict of a check, as cmocka reports it. */
#define SELFMON_CMOCKA_VERDICT_(verdict, msg)                  \
	do {                                                   \
		switch (verdict) {                             \
		case SELFMON_VERDICT_PASS:                     \
			break;                                 \
		case SELFMON_VERDICT_SKIP:                     \
			print_message("skipped: %s\n", (msg)); \
			skip();                                \
			break;                                 \
		default:                                       \
			fail_msg("%s", (msg));                 \
		}                                              \
	} while (0)

/**
 * SELFMON_ASSERT_BUDGET() - fail the cmocka test when a statement costs more
 * than @max in @event
 * @event: the event string, as selfmon_set__open() takes it ("instructions:u")
 * @max: the budget, in @event's unit
 * @...: the statement, run K times (SELFMON_BUDGET_REPS): it must bear repeating
 *
 * Measures the statement as SELFMON_MEASURE() does (the empty measurement
 * subtracted, the minimum of K repetitions for events counting
 * instructions retired, else the median). A cost over @max fails the test with a message giving
 * the measured cost, the budget, the overhead subtracted, the read path
 * and the repetitions. Where the event cannot be counted (no PMU) the test
 * is skipped, the reason printed; with SELFMON_EXPECT_USER_READ=1 in the
 * environment it fails instead. A counter that opened but did not run
 * (disabled with PR_TASK_PERF_EVENTS_DISABLE, multiplexed out) measured
 * nothing: the test fails, naming the cause. Link with libselfmon
 * (pkg-config selfmon) and cmocka.
 */
#define SELFMON_ASSERT_BUDGET(event, max, ...)                                            \
	do {                                                                              \
		struct selfmon_measure sm_m_;                                             \
		char sm_msg_[640];                                                        \
		SELFMON_MEASURE(sm_m_, event, __VA_ARGS__);                               \
		SELFMON_CMOCKA_VERDICT_(selfmon_measure__check_le(&sm_m_, (max), sm_msg_, \
								  sizeof(sm_msg_)),       \
					sm_msg_);                                         \
	} while (0)

/**
 * SELFMON_ASSERT_WITHIN() - fail the cmocka test unless a statement costs
 * @expected in @event, give or take @pct percent
 * @event: the event string ("instructions:u")
 * @expected: the cost the statement should have
 * @pct: the tolerance, in percent of @expected (|cost - expected| <= expected * pct / 100)
 * @...: the statement, run K times: it must bear repeating
 *
 * Measures, skips and reports as SELFMON_ASSERT_BUDGET() does.
 */
#define SELFMON_ASSERT_WITHIN(event, expected, pct, ...)                                         \
	do {                                                                                     \
		struct selfmon_measure sm_m_;                                                    \
		char sm_msg_[640];                                                               \
		SELFMON_MEASURE(sm_m_, event, __VA_ARGS__);                                      \
		SELFMON_CMOCKA_VERDICT_(selfmon_measure__check_within(&sm_m_, (expected), (pct), \
								      sm_msg_, sizeof(sm_msg_)), \
					sm_msg_);                                                \
	} while (0)

/**
 * SELFMON_ASSERT_MARKER_BUDGET() - marker region @region counted at most
 * @max of @event per call so far (the mean over its calls in every thread,
 * the empty pair subtracted): selfmon_marker__check_le() as a cmocka
 * assertion. A region with nothing measured fails; markers whose events
 * do not open here skip.
 */
#define SELFMON_ASSERT_MARKER_BUDGET(region, event, max)                                      \
	do {                                                                                 \
		char sm_msg_[640];                                                           \
		SELFMON_CMOCKA_VERDICT_(selfmon_marker__check_le((region), (event), (max), \
								 sm_msg_, sizeof(sm_msg_)),  \
					sm_msg_);                                            \
	} while (0)

#endif /* SELFMON_CMOCKA_H */
