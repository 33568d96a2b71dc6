// SPDX-License-Identifier: MIT
/*
 * The markers' figures inside the program: selfmon_marker__result() and
 * selfmon_marker__walk() give a region's row of the report (marker_row.c
 * computes both), and selfmon_marker__check_le() holds one to a budget.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <selfmon/budget.h>
#include <selfmon/marker_result.h>
#include <selfmon/selfmon.h>
#include "marker_int.h"

/* The fields a caller's struct must hold: all but the events' figures. */
#define MK_RESULT_MIN_SZ offsetof(struct selfmon_marker_result, event)

/* @r (a row of region @id; @t its thread, NULL: the totals) as a result, in full. */
static void result_fill(struct selfmon_marker_result *o, int id, const struct mk_thread *t,
			const struct mk_row *r)
{
	const struct mk_thread *t0 = t;

	memset(o, 0, sizeof(*o));
	o->sz = sizeof(*o);
	snprintf(o->region, sizeof(o->region), "%s", mk.region[id]->name);
	o->thread = t ? mk_thread_ordinal(t, id) : -1;
	o->threads = r->threads;
	o->tid = t ? (long)t->tid : 0;
	o->exited = t ? t->exited : 0;
	o->calls = r->calls;
	o->fallbacks = r->fallbacks;
	o->time_enabled = r->enabled;
	o->time_running = r->running;
	o->below_resolution = mk_row_below(r);
	o->nr_events = mk.nr;
	/* The totals state the first thread's empty pair, as the report's header does. */
	for (const struct mk_thread *k = mk.threads; !t0 && k; k = k->next)
		if (!k->next)
			t0 = k;
	for (int i = 0; i < mk.nr; i++) {
		struct selfmon_marker_event_figures *e = &o->event[i];

		snprintf(e->name, sizeof(e->name), "%s", mk.event_name[i]);
		e->sum = r->sum[i];
		e->min = r->min[i];
		e->max = r->max[i];
		e->empty_pair = t0 ? t0->overhead[MK_CACHED][i] : 0;
	}
}

/* Copy @full into the caller's @out of @out->sz bytes: what both know of, the rest zeroed. */
static void result_copy(struct selfmon_marker_result *out, const struct selfmon_marker_result *full)
{
	size_t sz;

	if (out->sz > sizeof(*full))
		memset((char *)out + sizeof(*full), 0, out->sz - sizeof(*full));
	sz = out->sz < sizeof(*full) ? out->sz : sizeof(*full);
	memcpy((char *)out + sizeof(out->sz), (const char *)full + sizeof(full->sz),
	       sz - sizeof(out->sz));
}

/* Markers off in this process: -ENODATA, said. */
static int say_off(void)
{
	return selfmon_errmsg__set(-ENODATA,
				   "markers are off in this process (SELFMON_EVENTS is empty, or its "
				   "events did not open: the markers said why on stderr), so no region "
				   "has figures. Fix: set SELFMON_EVENTS to events this machine counts");
}

/* Region @name's index, counted and not the library's own; -1: none. Caller holds mk.lock. */
static int region_find(const char *name)
{
	for (int id = 0; id < mk.nr_regions; id++)
		if (!strcmp(mk.region[id]->name, name))
			return mk_is_internal(mk.region[id]) ? -1 : id;
	return -1;
}

/* Region @id's row for @thread into @full; 0 or -ENOENT (said). Caller holds mk.lock. */
static int result_locked(const char *region, int id, int thread,
			 struct selfmon_marker_result *full)
{
	const struct mk_thread *t = NULL;
	struct mk_row r = { 0 };
	char q[96];

	if (id >= 0)
		mk_row_total(id, &r);
	if (id < 0 || !r.calls)
		return selfmon_errmsg__set(-ENOENT,
					   "no region '%s' has figures: no pair of that name has "
					   "ended in this process yet. Fix: name a region as its "
					   "SELFMON_MARKER_BEGIN() names it, after its first end",
					   mk_quote(q, sizeof(q), region));
	if (thread > 0) {
		int threads = r.threads;

		t = mk_thread_nth(id, thread);
		if (!t)
			return selfmon_errmsg__set(-ENOENT,
						   "region '%s' has no thread %d: %d thread%s "
						   "ran it (numbered from 1, as the report's "
						   "'region/thread:N')",
						   mk_quote(q, sizeof(q), region), thread,
						   threads, threads == 1 ? "" : "s");
		memset(&r, 0, sizeof(r));
		mk_row_add(&r, t, &t->h.slot[id]);
	}
	result_fill(full, id, t, &r);
	return 0;
}

int selfmon_marker__result(const char *region, int thread, struct selfmon_marker_result *out)
{
	struct selfmon_marker_result full;
	int err;

	if (!region || !out || thread < -1 || thread == 0 || out->sz < MK_RESULT_MIN_SZ)
		return selfmon_errmsg__set(
			-EINVAL,
			"selfmon_marker__result(): %s. Fix: name a region, pass thread -1 (every "
			"thread) or N >= 1, and set out->sz = sizeof(struct selfmon_marker_result)",
			!region ? "no region" : !out ? "no result to fill" :
			thread < -1 || thread == 0 ? "no such thread number" :
						    "out->sz is smaller than the struct's fields");
	mk_init();
	if (__atomic_load_n(&mk.state, __ATOMIC_ACQUIRE) == MK_STATE_OFF)
		return say_off();
	pthread_mutex_lock(&mk.lock);
	err = result_locked(region, region_find(region), thread, &full);
	pthread_mutex_unlock(&mk.lock);
	if (!err)
		result_copy(out, &full);
	return err;
}

int selfmon_marker__walk(int (*fn)(const struct selfmon_marker_result *result, void *arg),
			 void *arg)
{
	if (!fn)
		return selfmon_errmsg__set(-EINVAL, "selfmon_marker__walk(): no function to call. "
						    "Fix: pass one");
	mk_init();
	if (__atomic_load_n(&mk.state, __ATOMIC_ACQUIRE) == MK_STATE_OFF)
		return say_off();
	for (int id = 0;; id++) {
		struct selfmon_marker_result res;
		struct mk_row r;
		int ret, counted;

		/* The lock is taken for one region at a time: @fn may call selfmon_marker__result(). */
		pthread_mutex_lock(&mk.lock);
		if (id >= mk.nr_regions) {
			pthread_mutex_unlock(&mk.lock);
			return 0;
		}
		mk_row_total(id, &r);
		counted = r.calls && !mk_is_internal(mk.region[id]);
		if (counted)
			result_fill(&res, id, NULL, &r);
		pthread_mutex_unlock(&mk.lock);
		if (!counted)
			continue;
		ret = fn(&res, arg);
		if (ret)
			return ret;
	}
}

/* ---- a budget on a region ---- */

static int expect_user_read(void)
{
	const char *s = secure_getenv("SELFMON_EXPECT_USER_READ");

	return s && !strcmp(s, "1");
}

/*
 * No figures for @region (@err from selfmon_marker__result()): nothing was
 * measured, which fails, unless the markers' events did not open here (as a
 * budget's event that does not open: a skip, or under
 * SELFMON_EXPECT_USER_READ=1 a failure).
 */
static int verdict_none(const char *region, const char *event, int err, char *msg, size_t size)
{
	int cannot = err == -ENODATA && mk.events[0], strict = expect_user_read();
	char q[96];

	char qe[96];

	snprintf(msg, size, "region '%s', %s: %s: %s%s", mk_quote(q, sizeof(q), region),
		 mk_quote(qe, sizeof(qe), event),
		 cannot ? "cannot be measured here" : "nothing was measured, which is no pass",
		 selfmon_errmsg(),
		 cannot && strict ? " (SELFMON_EXPECT_USER_READ=1: this machine must count it)" : "");
	return cannot && !strict ? SELFMON_VERDICT_SKIP : SELFMON_VERDICT_FAIL;
}

/* Event @event's index in @r, or -1 with @msg saying which the markers count. */
static int event_find(const struct selfmon_marker_result *r, const char *event, char *msg,
		      size_t size)
{
	char have[256] = "", q[96];
	int o = 0;

	mk_quote(q, sizeof(q), event);
	for (int i = 0; i < r->nr_events; i++) {
		if (!strcmp(r->event[i].name, event))
			return i;
		if (o < (int)sizeof(have))
			o += snprintf(have + o, sizeof(have) - (size_t)o, "%s%s", i ? "," : "",
				      r->event[i].name);
	}
	snprintf(msg, size,
		 "region '%s', %s: nothing was measured, which is no pass: the markers do not "
		 "count %s (they count %s). Fix: name it in SELFMON_EVENTS",
		 r->region, q, q, have);
	return -1;
}

/*
 * An event the markers do not count (@msg says so): a failure, unless it is
 * one of the default events, which no core PMU here counts (the markers count
 * task-clock instead, mk.note): a skip, as a budget's event that does not
 * open, or a failure under SELFMON_EXPECT_USER_READ=1.
 */
static int verdict_replaced(const char *event, char *msg, size_t size)
{
	int replaced = mk.defaulted && mk.note[0], strict = expect_user_read();
	char q[96];

	if (!replaced)
		return SELFMON_VERDICT_FAIL;
	snprintf(msg, size, "%s: cannot be measured here: %s%s", mk_quote(q, sizeof(q), event),
		 mk.note, strict ? " (SELFMON_EXPECT_USER_READ=1: this machine must count it)" : "");
	return strict ? SELFMON_VERDICT_FAIL : SELFMON_VERDICT_SKIP;
}

int selfmon_marker__check_le(const char *region, const char *event, double budget, char *msg,
			     size_t size)
{
	struct selfmon_marker_result r = { .sz = sizeof(r) };
	const struct selfmon_marker_event_figures *e;
	double per_call;
	int err, i;

	if (!region || !event) {
		snprintf(msg, size, "a marker budget needs a region and an event");
		return SELFMON_VERDICT_FAIL;
	}
	err = selfmon_marker__result(region, -1, &r);
	if (err)
		return verdict_none(region, event, err, msg, size);
	i = event_find(&r, event, msg, size);
	if (i < 0)
		return verdict_replaced(event, msg, size);
	e = &r.event[i];
	if (r.time_enabled != r.time_running) {
		snprintf(msg, size,
			 "region '%s', %s: nothing was measured in full, which is no pass: the "
			 "counters were multiplexed (they ran %llu of %llu ns enabled), so the "
			 "figures miss part of the calls. Fix: count fewer events at once",
			 r.region, event, (unsigned long long)r.time_running,
			 (unsigned long long)r.time_enabled);
		return SELFMON_VERDICT_FAIL;
	}
	per_call = (double)e->sum / (double)r.calls;
	snprintf(msg, size,
		 "region '%s', %s: measured %.1f per call, budget <= %g; the mean of %llu calls "
		 "in %d thread%s (per call min %lld, max %lld), an empty pair of %llu subtracted "
		 "per call%s; %llu calls read by read(2)",
		 r.region, event, per_call, budget, (unsigned long long)r.calls, r.threads,
		 r.threads == 1 ? "" : "s", (long long)e->min, (long long)e->max,
		 (unsigned long long)e->empty_pair,
		 e->min < 0 ? " (below resolution: a call counted less than the empty pair)" : "",
		 (unsigned long long)r.fallbacks);
	return per_call <= budget ? SELFMON_VERDICT_PASS : SELFMON_VERDICT_FAIL;
}
