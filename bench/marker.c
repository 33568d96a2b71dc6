// SPDX-License-Identifier: MIT
/*
 * Markers' hot paths: begin and end of a region in this thread, in the
 * cached form (a resolved region) and by name, and the empty pair measured
 * at a thread's first begin. A pair reads every counter inline through its
 * page at both ends; anything else (a site to resolve, a thread to open, a
 * refused read, an unbalanced end) leaves for a cold function. The life
 * cycle is in marker_thread.c.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <selfmon/marker.h>
#include <selfmon/read.h>
#include <selfmon/selfmon.h>
#include "marker_int.h"

/*
 * The life cycle (marker_thread.c) sits below this file and calls nothing
 * here: what it needs of the hot paths, the empty pair to measure and the
 * report to write at exit, it reaches through mk's hooks, set here before
 * any call into it.
 */
static void mk_hooks(void)
{
	mk.calibrate = mk_calibrate;
	mk.report = mk_report_write;
}

/* ---- reads ---- */

/* A begin that could not read: the depth says so, and the end drops the pair. */
#define MK_BAD	(1 << 20)

/* Both ends by the set's own reads: the fallback, and every read of a multiplexed set. */
static __attribute__((noinline)) int mk_read_slow(struct mk_thread *t, uint64_t *v, uint64_t *times)
{
	struct selfmon_count c[MK_EVENTS];
	int slow = 0;

	if (!t->set || selfmon_set__read_raw_all(t->set, c))
		return -1;
	for (int i = 0; i < t->nr; i++) {
		v[i] = c[i].value;
		if (t->pg[i] && !(c[i].flags & SELFMON_COUNT_USER))
			slow = 1;
	}
	times[0] = c[0].enabled;
	times[1] = c[0].running;
	return slow;
}

/*
 * Every counter into @v through its page, inline. The page reads' barriers
 * make the compiler load memory again after each read: what the loop needs
 * is kept in locals. Return: 0, or 1 when a page refuses.
 */
static inline __attribute__((always_inline)) int mk_read_inline(const struct mk_thread *t, uint64_t *v)
{
	const struct perf_event_mmap_page *const *pg = t->pg;
	const int nr = t->nr;

	for (int i = 0; i < nr; i++)
		if (__builtin_expect(selfmon_page__read_value(pg[i], &v[i]), 0))
			return 1;
	return 0;
}

/* ---- begin ---- */

/* The begin's read the long way: a refused page, or a multiplexed set (with times). */
static __attribute__((noinline, cold)) void mk_begin_read(struct mk_thread *t, struct mk_slot *s)
{
	uint64_t times[2] = { 0, 0 };

	if (mk_read_slow(t, s->begin, times) < 0)
		s->depth += MK_BAD;
	s->begin_enabled = times[0];
	s->begin_running = times[1];
}

/*
 * The first begin of a site, of a thread, or of a region in a thread:
 * resolve, open, make room, then begin again where every begin does, so
 * that what follows the read is the same for this pair as for the others.
 */
static __attribute__((noinline, cold)) void mk_begin_slow(struct selfmon_marker *m)
{
	struct mk_thread *t;

	mk_hooks();
	m = mk_resolve(m);
	t = m ? mk_thread_get() : NULL;
	if (!t || ((unsigned long)m->id >= t->nr_slots && mk_grow(t, m->id)))
		return;
	selfmon_marker__begin_at(m);
}

/* Only the outermost of nested begins reads; the read is the last thing a begin does. */
static inline __attribute__((always_inline)) void mk_begin_slot(struct mk_thread *t, struct mk_slot *s)
{
	if (__builtin_expect(s->depth++ != 0, 0))
		return;
	if (__builtin_expect(!t->fast || mk_read_inline(t, s->begin), 0))
		mk_begin_read(t, s);
}

void selfmon_marker__begin_at(struct selfmon_marker *marker)
{
	struct mk_thread *t = mk_self;
	unsigned long id = (unsigned long)marker->id;

	if (__builtin_expect(!t || id >= t->nr_slots, 0)) {
		mk_begin_slow(marker);
		return;
	}
	mk_begin_slot(t, &t->slot[id]);
}

/* The region @name in @t's cache of names: its pointer, then its text (a buffer may be reused). */
static inline struct selfmon_marker *mk_cached_name(struct mk_thread *t, const char *name)
{
	unsigned int h = (unsigned int)((uintptr_t)name >> 4) & 15;

	if (__builtin_expect(t->cache[h].ptr == name && name && !strcmp(t->cache[h].m->name, name), 1))
		return t->cache[h].m;
	return NULL;
}

/* By name, the long way: init, look up, remember. */
static __attribute__((noinline, cold)) struct selfmon_marker *mk_named_slow(const char *name,
									      struct mk_thread **tp)
{
	struct selfmon_marker *m;
	struct mk_thread *t;

	mk_hooks();
	mk_init();
	if (mk.state != MK_STATE_ON || mk_self == &mk_dead)
		return NULL;
	m = mk_lookup(name);
	t = m ? mk_thread_get() : NULL;
	if (!t || ((unsigned long)m->id >= t->nr_slots && mk_grow(t, m->id)))
		return NULL;
	t->cache[((uintptr_t)name >> 4) & 15].ptr = name;
	t->cache[((uintptr_t)name >> 4) & 15].m = m;
	*tp = t;
	return m;
}

void selfmon_marker__begin(const char *name)
{
	struct mk_thread *t = mk_self;
	struct selfmon_marker *m = t ? mk_cached_name(t, name) : NULL;

	if (__builtin_expect(!m, 0) && !(m = mk_named_slow(name, &t)))
		return;
	mk_begin_slot(t, &t->slot[m->id]);
}

/* ---- end ---- */

static __attribute__((noinline, cold)) void mk_unbalanced(struct mk_thread *t, struct selfmon_marker *m)
{
	char q[96];

	if (!__atomic_exchange_n(&m->said_unbalanced, 1, __ATOMIC_RELAXED))
		mk_say("end of region '%s' without a begin in thread %d: pair every end with a begin "
		       "(this end, and later ones like it, are ignored)", mk_quote(q, sizeof(q), m->name),
		       t ? (int)t->tid : (int)syscall(SYS_gettid));
}

/*
 * Add one pair to its slot: the raw difference of each event (the report
 * subtracts the empty pair of the end's form, counted in @form's calls).
 * @slow: 1 when an end read by read(2).
 */
static inline __attribute__((always_inline)) void mk_account(struct mk_thread *t, struct mk_slot *s,
							      const uint64_t *now, int form, int slow)
{
	const int nr = t->nr;

	for (int i = 0; i < nr; i++) {
		uint64_t d = now[i] - s->begin[i];

		s->sum[i] += d;
		if (d < s->min[i])
			s->min[i] = d;
		if (d > s->max[i])
			s->max[i] = d;
	}
	s->calls[form]++;
	if (__builtin_expect(slow != 0, 0))
		s->fallbacks++;
}

/*
 * Any end but the plain one: no counters here, a read the long way (a
 * refused page, a multiplexed set), a site to resolve, an end of a nested
 * begin, an unbalanced end, or a pair whose begin could not read. @now was
 * read inline when @read is 0.
 */
static __attribute__((noinline, cold)) void mk_end_slow(struct mk_thread *t, struct selfmon_marker *m,
							 uint64_t *now, int read, int form)
{
	uint64_t times[2] = { 0, 0 };
	int slow = 0;
	struct mk_slot *s;

	mk_hooks();
	if (t && t != &mk_dead && read)
		slow = mk_read_slow(t, now, times);
	m = mk_resolve(m);
	if (!m || t == &mk_dead || (!t && mk.state != MK_STATE_ON))
		return;
	if (!t || (unsigned long)m->id >= t->nr_slots || t->slot[m->id].depth == 0) {
		mk_unbalanced(t, m);
		return;
	}
	s = &t->slot[m->id];
	if (--s->depth != 0 && s->depth != MK_BAD)
		return;
	if (s->depth == MK_BAD || slow < 0) {
		s->depth = 0;
		return;
	}
	mk_account(t, s, now, form, slow);
	if (t->timed) {
		s->enabled += times[0] - s->begin_enabled;
		s->running += times[1] - s->begin_running;
	} else if (t->fast && t->pg[0]->time_enabled != t->pg[0]->time_running) {
		/* The leader was multiplexed: from now on both ends read with their times. */
		t->timed = 1;
		t->fast = 0;
	}
}

/* The end of a plain pair, after its read: a slot at depth 1, in a thread that reads inline. */
static inline __attribute__((always_inline)) void mk_end_slot(struct mk_thread *t, struct selfmon_marker *m,
							       uint64_t *now, int form)
{
	unsigned long id = (unsigned long)m->id;
	struct mk_slot *s;

	if (__builtin_expect(id >= t->nr_slots || t->slot[id].depth != 1 ||
			     t->pg[0]->time_enabled != t->pg[0]->time_running, 0)) {
		mk_end_slow(t, m, now, 0, form);
		return;
	}
	s = &t->slot[id];
	s->depth = 0;
	mk_account(t, s, now, form, 0);
}

void selfmon_marker__end_at(struct selfmon_marker *marker)
{
	struct mk_thread *t = mk_self;
	uint64_t now[MK_EVENTS];

	/* The read first: nothing after it counts in the region. */
	if (__builtin_expect(!t || !t->fast || mk_read_inline(t, now), 0)) {
		mk_end_slow(t, marker, now, 1, MK_CACHED);
		return;
	}
	mk_end_slot(t, marker, now, MK_CACHED);
}

void (selfmon_marker__end)(const char *name)
{
	struct mk_thread *t = mk_self;
	uint64_t now[MK_EVENTS];
	struct selfmon_marker *m;
	int read = 1;

	if (__builtin_expect(t && t->fast, 1))
		read = mk_read_inline(t, now);
	m = t ? mk_cached_name(t, name) : NULL;
	if (__builtin_expect(!m || read, 0)) {
		mk_hooks();
		mk_init();
		if (mk.state != MK_STATE_ON || t == &mk_dead)
			return;
		m = m ? m : mk_lookup(name);
		if (m)
			mk_end_slow(t, m, now, read, MK_NAMED);
		return;
	}
	mk_end_slot(t, m, now, MK_NAMED);
}

/* ---- the cost of an empty pair, measured once per thread and subtracted ---- */

/* SELFMON_MARKER_BEGIN()/END()'s sites, here at file scope so that mk__reset() can unresolve them. */
static struct selfmon_marker_site mk_empty_site[2] = {
	{ (struct selfmon_marker *)&mk_empty_site[0], -1, MK_EMPTY },
	{ (struct selfmon_marker *)&mk_empty_site[1], -1, MK_EMPTY },
};

void mk__reset(void)
{
	for (int i = 0; i < 2; i++)
		mk_empty_site[i].marker = (struct selfmon_marker *)&mk_empty_site[i];
	mk_forget();
}

/* The cached pair as the macros write it. */
static __attribute__((noinline)) void mk_empty_cached(void)
{
	struct selfmon_marker *m = __atomic_load_n(&mk_empty_site[0].marker, __ATOMIC_RELAXED);

	if (__builtin_expect(m != 0, 1))
		selfmon_marker__begin_at(m);
	__asm__ __volatile__("");
	m = __atomic_load_n(&mk_empty_site[1].marker, __ATOMIC_RELAXED);
	if (__builtin_expect(m != 0, 1))
		selfmon_marker__end_at(m);
	__asm__ __volatile__("");
}

static __attribute__((noinline)) void mk_empty_named(void)
{
	selfmon_marker__begin(MK_EMPTY);
	selfmon_marker__end(MK_EMPTY);
}

/* The least each event counts over empty pairs of each form: what a pair adds to a region. */
void mk_calibrate(struct mk_thread *t)
{
	struct selfmon_marker *m = mk_lookup(MK_EMPTY);
	void (*const pair[MK_FORMS])(void) = { mk_empty_cached, mk_empty_named };

	if (!m || ((unsigned long)m->id >= t->nr_slots && mk_grow(t, m->id)))
		return;
	for (int f = 0; f < MK_FORMS; f++) {
		struct mk_slot *s = &t->slot[m->id];

		for (int k = 0; k < 16; k++)
			pair[f]();
		pthread_mutex_lock(&mk.lock);
		for (int i = 0; i < t->nr; i++)
			t->overhead[f][i] = s->calls[f] ? s->min[i] : 0;
		memset(s, 0, sizeof(*s));
		memset(s->min, 0xff, sizeof(s->min));
		pthread_mutex_unlock(&mk.lock);
	}
}

int selfmon_marker__report(void)
{
	mk_hooks();
	mk_init();
	if (mk.state == MK_STATE_NEW || !mk.threads)
		return 1;
	return mk_report_write();
}
