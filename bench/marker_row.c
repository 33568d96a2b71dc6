// SPDX-License-Identifier: MIT
/*
 * A region's figures as the report and selfmon_marker__result() give them:
 * each thread's raw sums less its empty pair, summed over threads, and the
 * threads' numbers in a region. One computation, so that what a program
 * reads of a region is what its report says of it.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "marker_int.h"

/* @a less @b, signed: below 0 where a call counted less than the empty pair. */
static int64_t sub(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b);
}

bool mk_row_below(const struct mk_row *r)
{
	for (int i = 0; i < mk.nr; i++)
		if (r->min[i] < 0)
			return true;
	return false;
}

/*
 * A region ended in both forms takes the smaller empty pair off its min and
 * max (and each form's off its sum).
 */
void mk_row_add(struct mk_row *r, const struct mk_thread *t, const struct selfmon_priv_marker_slot *s)
{
	uint64_t calls = s->calls[MK_CACHED] + s->calls[MK_NAMED];

	if (!calls)
		return;
	if (!r->calls)
		for (int i = 0; i < MK_EVENTS; i++) {
			r->min[i] = INT64_MAX;
			r->max[i] = INT64_MIN;
		}
	r->calls += calls;
	r->fallbacks += s->fallbacks;
	r->enabled += s->enabled;
	r->running += s->running;
	for (int i = 0; i < mk.nr; i++) {
		uint64_t oc = t->overhead[MK_CACHED][i], on = t->overhead[MK_NAMED][i];
		uint64_t o = !s->calls[MK_NAMED]  ? oc :
			     !s->calls[MK_CACHED] ? on :
			     oc < on		  ? oc :
						    on;
		int64_t min = sub(s->min[i], o), max = sub(s->max[i], o);

		r->sum[i] += sub(s->sum[i], s->calls[MK_CACHED] * oc + s->calls[MK_NAMED] * on);
		if (min < r->min[i])
			r->min[i] = min;
		if (max > r->max[i])
			r->max[i] = max;
	}
	r->threads++;
}

void mk_row_total(int id, struct mk_row *r)
{
	memset(r, 0, sizeof(*r));
	for (const struct mk_thread *t = mk.threads; t; t = t->next)
		if ((unsigned long)id < t->h.nr_slots)
			mk_row_add(r, t, &t->h.slot[id]);
}

double mk_row_per_call(const struct mk_row *r, int i)
{
	return r->calls ? (double)r->sum[i] / (double)r->calls : 0;
}

bool mk_counted(const struct mk_thread *t, int id)
{
	return (unsigned long)id < t->h.nr_slots &&
	       t->h.slot[id].calls[MK_CACHED] + t->h.slot[id].calls[MK_NAMED];
}

/*
 * A rerun gives the same numbers, where thread ids differ from run to run,
 * so that selfmon compare pairs two runs' per-thread rows. The list holds
 * the newest thread first: those after @t began earlier.
 */
int mk_thread_ordinal(const struct mk_thread *t, int id)
{
	int n = 1;

	for (const struct mk_thread *o = t->next; o; o = o->next)
		n += mk_counted(o, id);
	return n;
}

const struct mk_thread *mk_thread_nth(int id, int n)
{
	for (const struct mk_thread *t = mk.threads; t; t = t->next)
		if (mk_counted(t, id) && mk_thread_ordinal(t, id) == n)
			return t;
	return NULL;
}

void mk_each_row(int (*fn)(void *ctx, int id, const struct mk_thread *t, const struct mk_row *r),
		 void *ctx)
{
	for (int id = 0; id < mk.nr_regions; id++) {
		struct mk_row r;

		mk_row_total(id, &r);
		if (!r.calls || mk_is_internal(mk.region[id]))
			continue;
		if (fn(ctx, id, NULL, &r))
			return;
		for (const struct mk_thread *t = mk.threads; t; t = t->next) {
			struct mk_row one = { 0 };

			if (!mk_counted(t, id))
				continue;
			mk_row_add(&one, t, &t->h.slot[id]);
			if (fn(ctx, id, t, &one))
				return;
		}
	}
}
