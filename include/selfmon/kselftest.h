/* SPDX-License-Identifier: MIT */
/*
 * Budgets in kselftest harness tests (the kernel's kselftest_harness.h,
 * included before this header):
 *
 *	#include "kselftest_harness.h"
 *	#include <selfmon/kselftest.h>
 *
 *	TEST(parse_stays_cheap)
 *	{
 *		SELFMON_ASSERT_BUDGET("instructions:u", 1200, parse(line));
 *	}
 *
 * SELFMON_ASSERT_BUDGET(event, max, statement...) and
 * SELFMON_ASSERT_WITHIN(event, expected, pct, statement...) measure and judge
 * as in <selfmon/cmocka.h>: a failure ends the test with the message (the
 * measured cost, the budget, the overhead subtracted, the read path, the
 * repetitions) in its log; an event this machine cannot count skips the
 * test with the reason, or fails it under SELFMON_EXPECT_USER_READ=1; a
 * counter that did not run (disabled, multiplexed out) fails it. The
 * SELFMON_EXPECT_* forms go on after a failure, as EXPECT_* do.
 */
#ifndef SELFMON_KSELFTEST_H
#define SELFMON_KSELFTEST_H

#include <selfmon/budget.h>

#ifdef SELFMON_CMOCKA_H
#error "<selfmon/cmocka.h> and <selfmon/kselftest.h> define the same macros: include one"
#endif
#ifndef TH_LOG
#error "include kselftest_harness.h before <selfmon/kselftest.h>"
#endif

/*
 * @check is a selfmon_measure__check_*() call on sm_m_ writing sm_msg_;
 * @cmp is the harness's ASSERT_EQ (the test ends) or EXPECT_EQ.
 */
#define SELFMON_KSFT_(event, check, cmp, ...)                           \
	do {                                                            \
		struct selfmon_measure sm_m_;                           \
		char sm_msg_[640];                                      \
		int sm_v_;                                              \
		SELFMON_MEASURE(sm_m_, event, __VA_ARGS__);             \
		sm_v_ = (check);                                        \
		if (sm_v_ == SELFMON_VERDICT_SKIP)                      \
			SKIP(return, "%s", sm_msg_);                    \
		cmp(SELFMON_VERDICT_PASS, sm_v_) TH_LOG("%s", sm_msg_); \
	} while (0)

/**
 * SELFMON_ASSERT_BUDGET() - end the kselftest test with a failure when a
 * statement costs more than @max in @event (include kselftest_harness.h first)
 * @event: the event string ("instructions:u")
 * @max: the budget, in @event's unit
 * @...: the statement, run K times (SELFMON_BUDGET_REPS): it must bear repeating
 *
 * The message (the measured cost, the budget, the overhead subtracted, the
 * read path, the repetitions) goes to the test's log; an event this machine
 * cannot count skips the test with the reason, or fails it under
 * SELFMON_EXPECT_USER_READ=1; a counter that did not run fails it.
 */
#define SELFMON_ASSERT_BUDGET(event, max, ...)                                                   \
	SELFMON_KSFT_(event, selfmon_measure__check_le(&sm_m_, (max), sm_msg_, sizeof(sm_msg_)), \
		      ASSERT_EQ, __VA_ARGS__)
/**
 * SELFMON_EXPECT_BUDGET() - as SELFMON_ASSERT_BUDGET(), and the test goes on
 * after a failure, as the harness's EXPECT_* do
 * @event: the event string ("instructions:u")
 * @max: the budget, in @event's unit
 * @...: the statement, run K times: it must bear repeating
 */
#define SELFMON_EXPECT_BUDGET(event, max, ...)                                                   \
	SELFMON_KSFT_(event, selfmon_measure__check_le(&sm_m_, (max), sm_msg_, sizeof(sm_msg_)), \
		      EXPECT_EQ, __VA_ARGS__)
/**
 * SELFMON_ASSERT_WITHIN() - end the kselftest test with a failure unless a
 * statement costs @expected in @event, give or take @pct percent
 * @event: the event string ("instructions:u")
 * @expected: the cost the statement should have
 * @pct: the tolerance, in percent of @expected
 * @...: the statement, run K times: it must bear repeating
 */
#define SELFMON_ASSERT_WITHIN(event, expected, pct, ...)                                \
	SELFMON_KSFT_(event,                                                            \
		      selfmon_measure__check_within(&sm_m_, (expected), (pct), sm_msg_, \
						    sizeof(sm_msg_)),                   \
		      ASSERT_EQ, __VA_ARGS__)
/**
 * SELFMON_EXPECT_WITHIN() - as SELFMON_ASSERT_WITHIN(), and the test goes on
 * after a failure
 * @event: the event string ("instructions:u")
 * @expected: the cost the statement should have
 * @pct: the tolerance, in percent of @expected
 * @...: the statement, run K times: it must bear repeating
 */
#define SELFMON_EXPECT_WITHIN(event, expected, pct, ...)                                \
	SELFMON_KSFT_(event,                                                            \
		      selfmon_measure__check_within(&sm_m_, (expected), (pct), sm_msg_, \
						    sizeof(sm_msg_)),                   \
		      EXPECT_EQ, __VA_ARGS__)

/* @check: a selfmon_marker__check_le() call writing sm_msg_; @cmp as in SELFMON_KSFT_(). */
#define SELFMON_KSFT_MARKER_(region, event, max, cmp)                                           \
	do {                                                                                    \
		char sm_msg_[640];                                                              \
		int sm_v_ = selfmon_marker__check_le((region), (event), (max), sm_msg_,         \
						     sizeof(sm_msg_));                          \
		if (sm_v_ == SELFMON_VERDICT_SKIP)                                              \
			SKIP(return, "%s", sm_msg_);                                            \
		cmp(SELFMON_VERDICT_PASS, sm_v_) TH_LOG("%s", sm_msg_);                         \
	} while (0)

/**
 * SELFMON_ASSERT_MARKER_BUDGET() - marker region @region counted at most
 * @max of @event per call so far (the mean over its calls in every thread,
 * the empty pair subtracted, as the report gives it); the test ends if not.
 * selfmon_marker__check_le() judges: nothing measured fails.
 */
#define SELFMON_ASSERT_MARKER_BUDGET(region, event, max) \
	SELFMON_KSFT_MARKER_(region, event, max, ASSERT_EQ)
/** As SELFMON_ASSERT_MARKER_BUDGET(), and the test goes on. */
#define SELFMON_EXPECT_MARKER_BUDGET(region, event, max) \
	SELFMON_KSFT_MARKER_(region, event, max, EXPECT_EQ)

#endif /* SELFMON_KSELFTEST_H */
