/* SPDX-License-Identifier: MIT */
/*
 * The markers' figures inside the program: a region's row of the report,
 * now, for one thread or the totals over threads, and a walk over every
 * region (docs/markers.md, "Figures inside the program").
 *
 *	#include <selfmon/marker_result.h>
 *
 *	struct selfmon_marker_result r = { .sz = sizeof(r) };
 *
 *	if (!selfmon_marker__result("solve", -1, &r))
 *		printf("%llu calls, %lld %s\n", (unsigned long long)r.calls,
 *		       (long long)r.event[0].sum, r.event[0].name);
 *
 * A test holds a region to a budget with SELFMON_ASSERT_MARKER_BUDGET()
 * (<selfmon/kselftest.h>, <selfmon/cmocka.h>).
 */
#ifndef SELFMON_MARKER_RESULT_H
#define SELFMON_MARKER_RESULT_H

#include <stddef.h>
#include <stdint.h>
#include <selfmon/marker.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Longest event name in a struct selfmon_marker_result, with its NUL. */
#define SELFMON_MARKER_EVENT_NAME_MAX 64

/**
 * struct selfmon_marker_event_figures - one event's figures in a region, as
 * the report gives them: each call's count less the empty pair (the cost of
 * a pair around nothing, which the library measures in each thread and
 * subtracts), so that a region counts what runs inside it
 */
struct selfmon_marker_event_figures {
	/** The event, as opened ("instructions:u", "task-clock"). */
	char name[SELFMON_MARKER_EVENT_NAME_MAX];
	/** Over all calls, less one empty pair per call. */
	int64_t sum;
	/**
	 * The least and the most one call counted, less the empty pair. Below
	 * 0 where a call counted less than the empty pair (below the
	 * resolution: the report flags such a row), as measured, never floored.
	 */
	int64_t min, max;
	/** The empty pair subtracted per call (cached form; of the first thread for the totals). */
	uint64_t empty_pair;
};

/**
 * struct selfmon_marker_result - a region's figures, as
 * selfmon_marker__result() and selfmon_marker__walk() give them: the report's
 * row of the region (@thread -1) or of one of its threads
 *
 * A value: the caller sets @sz to sizeof(struct selfmon_marker_result) (as
 * compiled); the library fills as much as both know of and zeroes the rest.
 */
struct selfmon_marker_result {
	/** sizeof the struct as the caller was compiled with: set it. */
	size_t sz;
	/** The region's name. */
	char region[SELFMON_MARKER_NAME_MAX + 1];
	/** -1: the totals over every thread; else the thread's number N in the report's "region/thread:N". */
	int thread;
	/** The threads that ran the region (1 for one thread's figures). */
	int threads;
	/** One thread's figures: its thread id (gettid(2)); 0 for the totals. */
	long tid;
	/** One thread's figures: 1 when the thread has exited (its figures are final). */
	int exited;
	/** Pairs counted (ended), in every form. Pairs still open are not counted. */
	uint64_t calls;
	/** Calls that read their counters by read(2), not from user space, although pages exist. */
	uint64_t fallbacks;
	/**
	 * The counters' time enabled and time running summed over the calls
	 * that were timed (perf_event_open(2), "read_format"): they differ
	 * when the kernel multiplexed the counters, which then did not count
	 * all through those calls.
	 */
	uint64_t time_enabled, time_running;
	/** 1 when a figure of an event fell below the empty pair (below the resolution). */
	int below_resolution;
	/** The events counted, in the order of SELFMON_EVENTS: @event[0] to @event[@nr_events - 1]. */
	int nr_events;
	/** Each event's figures. */
	struct selfmon_marker_event_figures event[SELFMON_MARKER_EVENTS];
};

/**
 * selfmon_marker__result() - a region's figures now, inside the program:
 * what the report at exit says of it, so far
 * @region: the region's name, as the markers name it
 * @thread: -1 for the totals over every thread; else N, the thread's
 *	number in the region as the report names it ("region/thread:N": 1 for
 *	the first thread that ran the region, in the order threads began their
 *	first region)
 * @out: filled; the caller sets @out->sz
 *
 * The figures are the report's: the same empty pair subtracted, the same
 * min and max, the same threads. Thread safety: it takes the markers' lock,
 * as the report does, so the list of threads and their regions is stable
 * while it reads. The calling thread's own figures are exact, and so are
 * those of a thread that has exited or been joined (pthread_join() orders
 * its writes before the read). A thread that runs on writes its figures
 * without a lock, so its figures read while it runs are each one it
 * stored, but not one set: a pair it is ending may be in @sum and not yet
 * in @calls. Read another thread's figures once it waits or has ended.
 *
 * Return: 0; -ENOENT when no region is called @region (or it has no thread
 * @thread), with selfmon_errmsg() naming it; -ENODATA when markers are off
 * in this process (SELFMON_EVENTS empty, or its events did not open);
 * -EINVAL for a NULL argument, a @thread below -1 or 0, or an @out->sz
 * smaller than the fields before @event.
 */
int selfmon_marker__result(const char *region, int thread, struct selfmon_marker_result *out);

/**
 * selfmon_marker__walk() - call @fn with the totals of every region counted
 * so far, once each, in the report's order (the order regions were first
 * seen), as selfmon_marker__result() gives them with thread -1
 * @fn: called with a result valid during the call, and @arg; returns 0 to
 *	go on, anything else to stop. It may call selfmon_marker__result()
 *	(for a region's threads, say): the markers' lock is not held while it
 *	runs.
 * @arg: passed to @fn
 *
 * Regions with no call yet (a site not run, a pair still open) are not
 * visited, as the report leaves them out.
 * Return: 0 when every region was visited, @fn's nonzero value when it
 * stopped, -ENODATA when markers are off, -EINVAL for a NULL @fn.
 */
int selfmon_marker__walk(int (*fn)(const struct selfmon_marker_result *result, void *arg),
			 void *arg);

#ifdef __cplusplus
}
#endif

#endif /* SELFMON_MARKER_RESULT_H */
