// SPDX-License-Identifier: MIT
/*
 * Markers' long way, below the paths of marker.c: the reads of the set by
 * the library (more events than the inline pair reads, a refused page, a
 * multiplexed set, the read(2) fallback) and the accounting of every end
 * the inline pair does not finish itself.
 */
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <selfmon/marker.h>
#include <selfmon/selfmon.h>
#include "marker_int.h"

/* Both ends by the set's own reads: the fallback, and every read of a multiplexed set. */
static __attribute__((noinline)) int mk_read_slow(struct mk_thread *t, uint64_t *v, uint64_t *times)
{
	struct selfmon_count c[MK_EVENTS];
	int slow = 0;

	if (!t->set || selfmon_set__read_raw_all(t->set, c))
		return -1;
	for (int i = 0; i < t->h.nr; i++) {
		v[i] = c[i].value;
		if (t->h.pg[i] && !(c[i].flags & SELFMON_COUNT_USER))
			slow = 1;
	}
	times[0] = c[0].enabled;
	times[1] = c[0].running;
	return slow;
}

/* ---- begin ---- */

/* The begin's read the long way: a refused page, or a multiplexed set (with times). */
__attribute__((noinline, cold)) void mk_begin_read(struct mk_thread *t, struct selfmon_priv_marker_slot *s)
{
	uint64_t v[MK_EVENTS], times[2] = { 0, 0 };

	if (mk_read_slow(t, v, times) < 0)
		s->depth += MK_BAD;
	for (int i = 0; i < t->h.nr; i++)
		s->begin[i] = v[i];
	s->begin_enabled = times[0];
	s->begin_running = times[1];
}

/* ---- end ---- */

static __attribute__((noinline, cold)) void mk_unbalanced(struct mk_thread *t,
							  struct selfmon_marker *m)
{
	char q[96];

	if (!__atomic_exchange_n(&m->said_unbalanced, 1, __ATOMIC_RELAXED))
		mk_say("end of region '%s' without a begin in thread %d: pair every end with a begin "
		       "(this end, and later ones like it, are ignored)",
		       mk_quote(q, sizeof(q), m->name), t ? (int)t->tid : (int)syscall(SYS_gettid));
}

/* Add one pair to its slot, as the inline end does; @slow: 1 when an end read by read(2). */
static void mk_account(struct mk_thread *t, struct selfmon_priv_marker_slot *s, const uint64_t *now,
		       int form, int slow)
{
	for (int i = 0; i < t->h.nr; i++) {
		uint64_t d = now[i] - s->begin[i];

		s->sum[i] += d;
		s->min[i] = d < s->min[i] ? d : s->min[i];
		s->max[i] = d > s->max[i] ? d : s->max[i];
	}
	s->calls[form]++;
	s->fallbacks += slow != 0;
}

/* The end's reads the long way, first thing on that path; none where no thread counts. */
void mk_end_read(struct mk_thread *t, struct mk_end *e)
{
	if (t && t != &mk_dead)
		e->slow = mk_read_slow(t, e->v, e->times);
}

/*
 * An end read in @e: resolve, check the nesting, account. What runs here
 * runs after the end's reads, outside the region.
 */
void mk_end_account(struct selfmon_marker *m, struct mk_thread *t, const struct mk_end *e, int form)
{
	struct selfmon_priv_marker_slot *s;

	m = mk_resolve(m);
	if (!m || t == &mk_dead || (!t && mk.state != MK_STATE_ON))
		return;
	if (!t || (unsigned long)m->id >= t->h.nr_slots || t->h.slot[m->id].depth == 0) {
		mk_unbalanced(t, m);
		return;
	}
	s = &t->h.slot[m->id];
	if (--s->depth != 0 && s->depth != MK_BAD)
		return;
	if (s->depth == MK_BAD || e->slow < 0) {
		s->depth = 0;
		return;
	}
	mk_account(t, s, e->v, form, e->slow);
	if (t->timed) {
		s->enabled += e->times[0] - s->begin_enabled;
		s->running += e->times[1] - s->begin_running;
	} else if (t->fast && t->h.pg[0]->time_enabled != t->h.pg[0]->time_running) {
		/* The leader was multiplexed: from now on both ends read with their times. */
		t->timed = 1;
		t->fast = 0;
		mk_self_publish(t);
	}
}

/*
 * Any end but the plain one: no counters here, a read the long way (a
 * refused page, a multiplexed set), a site to resolve, an end of a nested
 * begin, an unbalanced end, or a pair whose begin could not read. @now was
 * read inline when @read is 1 (and the thread reads inline).
 */
void selfmon_priv_marker_finish(struct selfmon_marker *m, uint64_t v0, uint64_t v1, int read, int form)
{
	struct mk_thread *t = mk_self;
	struct mk_end e = { .slow = 0 };

	if (read && t && t != &mk_dead && t->inline_ok) {
		e.v[0] = v0;
		e.v[1] = v1;
	} else {
		mk_end_read(t, &e);
	}
	mk_end_account(m, t, &e, form);
}
