// SPDX-License-Identifier: MIT
/*
 * Markers: named regions counted per thread with the events of
 * $SELFMON_EVENTS. A thread opens its own set at its first begin (the
 * public set API: a set belongs to the thread that opened it); its counts
 * stay in the process's list when it exits, for the report at exit.
 *
 * Nothing here may harm the host program: every failure is one message on
 * stderr, and the call returns as if markers were off.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <selfmon/marker.h>
#include <selfmon/read.h>
#include <selfmon/selfmon.h>
#include "marker_int.h"

struct mk_global mk = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* This thread's counters; NULL until its first begin. */
static __thread struct mk_thread *mk_self;
/* A thread whose counters could not open: every call returns at once. */
static struct mk_thread mk_dead;
static pthread_key_t mk_key;
static bool mk_key_ok;
/* atexit() and pthread_atfork() are registered once per process, whatever mk__reset() does. */
static bool mk_registered;

/* The default where a core PMU counts; task-clock elsewhere. */
static const char mk_default[] = "{instructions:u,cycles:u}";
static const char mk_fallback[] = "task-clock";

void mk_say(const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	/* One write, so that threads' messages do not interleave. */
	fprintf(stderr, "selfmon: markers: %s\n", msg);
}

/* @s with control bytes (and, for a quoted text, quotes and backslashes) as \xNN. */
static const char *escape(char *buf, size_t size, const char *s, bool quoted)
{
	size_t o = 0;

	for (; s && *s && o + 5 < size; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f || (quoted && (c >= 0x80 || c == '\'' || c == '\\')))
			o += (size_t)snprintf(buf + o, size - o, "\\x%02x", c);
		else
			buf[o++] = (char)c;
	}
	if (s && *s && o + 4 <= size) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = '\0';
	return buf;
}

const char *mk_quote(char *buf, size_t size, const char *s)
{
	return escape(buf, size, s, true);
}

/* The library's last message, which may quote what the environment gave: no raw control bytes. */
static const char *mk_errmsg(char *buf, size_t size)
{
	return escape(buf, size, selfmon_errmsg(), false);
}

/* ---- set-up: once per process, and again in a forked child ---- */

static void mk_thread_free(struct mk_thread *t)
{
	free(t->slot);
	free(t);
}

/* Thread exit: its counts stay for the report; its counters close here, in their thread. */
static void mk_thread_exit(void *arg)
{
	struct mk_thread *t = arg;

	if (!t || t == &mk_dead)
		return;
	pthread_mutex_lock(&mk.lock);
	selfmon_set__close(t->set);
	t->set = NULL;
	t->all_user = 0;
	t->exited = 1;
	pthread_mutex_unlock(&mk.lock);
	mk_self = NULL;
}

/* A forked child starts with no regions of its parent's and counts with counters of its own. */
static void mk_prepare(void)
{
	pthread_mutex_lock(&mk.lock);
}

static void mk_parent(void)
{
	pthread_mutex_unlock(&mk.lock);
}

static void mk_child(void)
{
	struct mk_thread *t = mk.threads, *next;

	mk.threads = NULL;
	for (; t; t = next) {
		next = t->next;
		selfmon_set__close(t->set);
		mk_thread_free(t);
	}
	mk_self = NULL;
	if (mk_key_ok)
		pthread_setspecific(mk_key, NULL);
	pthread_mutex_unlock(&mk.lock);
}

static void mk_at_exit(void)
{
	struct mk_thread *t, **pp;

	/* A process that never reached a begin (a forked child, say) reports nothing. */
	if (mk.threads)
		mk_report_write();
	/* The exited threads' counts go; live threads may still be running markers. */
	pthread_mutex_lock(&mk.lock);
	for (pp = &mk.threads; (t = *pp);) {
		if (t->exited) {
			*pp = t->next;
			mk_thread_free(t);
		} else {
			pp = &t->next;
		}
	}
	pthread_mutex_unlock(&mk.lock);
}

/* What SELFMON_EVENTS says, once per process (again after mk__reset()). Caller holds mk.lock. */
static void mk_init_locked(void)
{
	const char *ev = getenv("SELFMON_EVENTS");
	char q[96];
	int state = MK_STATE_OFF;

	if (ev && !*ev) {
		/* Off on purpose: nothing to say, nothing to report. */
	} else if (ev && strlen(ev) >= sizeof(mk.events)) {
		mk_say("SELFMON_EVENTS='%s' is longer than %zu bytes: name fewer events; markers are off",
		       mk_quote(q, sizeof(q), ev), sizeof(mk.events) - 1);
	} else {
		snprintf(mk.events, sizeof(mk.events), "%s", ev ? ev : mk_default);
		if (!mk_registered) {
			mk_key_ok = !pthread_key_create(&mk_key, mk_thread_exit);
			pthread_atfork(mk_prepare, mk_parent, mk_child);
			atexit(mk_at_exit);
			mk_registered = true;
		}
		state = MK_STATE_ON;
	}
	__atomic_store_n(&mk.state, state, __ATOMIC_RELEASE);
}

static void mk_init(void)
{
	if (__builtin_expect(__atomic_load_n(&mk.state, __ATOMIC_ACQUIRE) != MK_STATE_NEW, 1))
		return;
	pthread_mutex_lock(&mk.lock);
	if (mk.state == MK_STATE_NEW)
		mk_init_locked();
	pthread_mutex_unlock(&mk.lock);
}

static struct selfmon_marker_site mk_empty_site[2];

void mk__reset(void)
{
	struct mk_thread *t, *next;

	for (int i = 0; i < 2; i++)
		mk_empty_site[i].marker = (struct selfmon_marker *)&mk_empty_site[i];
	pthread_mutex_lock(&mk.lock);
	for (t = mk.threads; t; t = next) {
		next = t->next;
		selfmon_set__close(t->set);
		mk_thread_free(t);
	}
	mk.threads = NULL;
	for (int i = 0; i < mk.nr_regions; i++)
		free(mk.region[i]);
	mk.nr_regions = 0;
	mk.nr = 0;
	mk.note[0] = mk.read_path[0] = '\0';
	mk.state = MK_STATE_NEW;
	pthread_mutex_unlock(&mk.lock);
	mk_self = NULL;
	if (mk_key_ok)
		pthread_setspecific(mk_key, NULL);
}

/* ---- the registry of regions ---- */

/* The region called @name, made if new; NULL (said once) for a bad name or a full registry. */
static struct selfmon_marker *mk_lookup(const char *name)
{
	static int said_null, said_long, said_full;
	struct selfmon_marker *m = NULL;
	char q[96];
	size_t len;

	if (!name) {
		if (!__atomic_exchange_n(&said_null, 1, __ATOMIC_RELAXED))
			mk_say("a region name is NULL: give every marker a string; those markers are ignored");
		return NULL;
	}
	len = strnlen(name, SELFMON_MARKER_NAME_MAX + 1);
	if (len > SELFMON_MARKER_NAME_MAX || !len) {
		if (!__atomic_exchange_n(&said_long, 1, __ATOMIC_RELAXED))
			mk_say("region name '%s' is %s: use 1 to %d bytes; markers with it are ignored",
			       mk_quote(q, sizeof(q), name), len ? "too long" : "empty", SELFMON_MARKER_NAME_MAX);
		return NULL;
	}
	pthread_mutex_lock(&mk.lock);
	for (int i = 0; i < mk.nr_regions && !m; i++)
		if (!strcmp(mk.region[i]->name, name))
			m = mk.region[i];
	if (!m && mk.nr_regions < MK_REGIONS) {
		m = calloc(1, sizeof(*m));
		if (m) {
			memcpy(m->name, name, len + 1);
			m->id = mk.nr_regions;
			mk.region[mk.nr_regions++] = m;
		}
	}
	pthread_mutex_unlock(&mk.lock);
	if (!m && !__atomic_exchange_n(&said_full, 1, __ATOMIC_RELAXED))
		mk_say("region '%s' not counted: %s; markers with new names are ignored",
		       mk_quote(q, sizeof(q), name), mk.nr_regions >= MK_REGIONS ?
		       "more than " "256" " regions: use fewer names" : "out of memory");
	return m;
}

/*
 * The region a site names, resolved at its first use and kept in the site:
 * NULL when markers are off or the name is bad, which the macros then skip
 * with a load and a branch. Threads resolving one site store the same value.
 */
static struct selfmon_marker *mk_resolve(struct selfmon_marker *m)
{
	struct selfmon_marker_site *site = (struct selfmon_marker_site *)m;

	if (m->id >= 0)
		return m;
	mk_init();
	m = mk.state == MK_STATE_ON ? mk_lookup(site->name) : NULL;
	__atomic_store_n(&site->marker, m, __ATOMIC_RELAXED);
	return m;
}

/* ---- a thread's counters ---- */

/* Room for region @id in @t's slots; the report may read them meanwhile. Return: 0 or -ENOMEM. */
static int mk_grow(struct mk_thread *t, long id)
{
	unsigned long nr = ((unsigned long)id | 15) + 1;
	struct mk_slot *s;

	pthread_mutex_lock(&mk.lock);
	s = realloc(t->slot, nr * sizeof(*s));
	if (s) {
		memset(&s[t->nr_slots], 0, (nr - t->nr_slots) * sizeof(*s));
		for (unsigned long i = t->nr_slots; i < nr; i++)
			memset(s[i].min, 0xff, sizeof(s[i].min));
		t->slot = s;
		t->nr_slots = nr;
	}
	pthread_mutex_unlock(&mk.lock);
	if (!s)
		mk_say("out of memory for region %ld in thread %d: it is not counted there", id, (int)t->tid);
	return s ? 0 : -ENOMEM;
}

/* Open this thread's set on mk.events (the default falls back to task-clock). Caller holds mk.lock. */
static struct selfmon_set *mk_open_set(void)
{
	struct selfmon_opts o = { .sz = sizeof(o) };
	struct selfmon_set *set;
	char q[96], e[320];

	/* The host program's threads keep their affinity unless SELFMON_PIN says otherwise. */
	o.pin = getenv("SELFMON_PIN") ? NULL : "none";
	set = selfmon_set__open(mk.events, &o);
	if (!set && !strcmp(mk.events, mk_default)) {
		snprintf(mk.note, sizeof(mk.note), "no core PMU counts %s here (%.120s): counting %s; "
			 "SELFMON_EVENTS names other events", mk_default, mk_errmsg(e, sizeof(e)), mk_fallback);
		mk_say("%s", mk.note);
		snprintf(mk.events, sizeof(mk.events), "%s", mk_fallback);
		set = selfmon_set__open(mk.events, &o);
	}
	if (!set) {
		mk_say("cannot count SELFMON_EVENTS='%s': %s. Fix: name events this machine has (selfmon's "
		       "event syntax, e.g. '{instructions:u,cycles:u}' or 'task-clock'), or unset it for the "
		       "default; markers are off", mk_quote(q, sizeof(q), mk.events), mk_errmsg(e, sizeof(e)));
		return NULL;
	}
	if (selfmon_set__nr(set) > MK_EVENTS) {
		mk_say("SELFMON_EVENTS='%s' has %d events, markers count at most %d: name fewer; markers are off",
		       mk_quote(q, sizeof(q), mk.events), selfmon_set__nr(set), MK_EVENTS);
		selfmon_set__close(set);
		return NULL;
	}
	if (selfmon_set__enable(set)) {
		mk_say("cannot start the counters of SELFMON_EVENTS='%s': %s; markers are off",
		       mk_quote(q, sizeof(q), mk.events), mk_errmsg(e, sizeof(e)));
		selfmon_set__close(set);
		return NULL;
	}
	return set;
}

static void mk_calibrate(struct mk_thread *t);

/* This thread's counters, opened at its first begin; NULL when markers are off for it. */
static struct mk_thread *mk_thread_get(void)
{
	struct mk_thread *t;

	mk_init();
	if (mk_self || mk.state != MK_STATE_ON)
		return mk_self == &mk_dead || mk.state != MK_STATE_ON ? NULL : mk_self;
	t = calloc(1, sizeof(*t));
	pthread_mutex_lock(&mk.lock);
	if (t && mk.state == MK_STATE_ON)
		t->set = mk_open_set();
	if (!t || !t->set) {
		/* Every thread would fail alike: off for all, said once. */
		if (t)
			mk.state = MK_STATE_OFF;
		pthread_mutex_unlock(&mk.lock);
		if (!t)
			mk_say("out of memory: this thread's markers are off");
		free(t);
		mk_self = &mk_dead;
		return NULL;
	}
	t->tid = (pid_t)syscall(SYS_gettid);
	t->nr = selfmon_set__nr(t->set);
	mk.nr = t->nr;
	t->all_user = 1;
	for (int i = 0; i < t->nr; i++) {
		snprintf(mk.event_name[i], sizeof(mk.event_name[i]), "%s", selfmon_set__name(t->set, i));
		t->pg[i] = selfmon_set__page(t->set, i);
		if (!t->pg[i])
			t->all_user = 0;
	}
	if (!mk.read_path[0]) {
		enum selfmon_reason why = SELFMON_REASON_NONE;

		selfmon_set__path(t->set, 0, &why);
		snprintf(mk.read_path, sizeof(mk.read_path), "%s%s", t->all_user ? "inline" : "read(2): ",
			 t->all_user ? "" : selfmon_reason__str(why));
	}
	t->next = mk.threads;
	mk.threads = t;
	pthread_mutex_unlock(&mk.lock);
	if (mk_key_ok)
		pthread_setspecific(mk_key, t);
	mk_self = t;
	mk_calibrate(t);
	return t;
}

/* ---- reads ---- */

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

/* Every counter into @v: inline through the pages. Return: 0 inline, 1 read(2), -1 failed. */
static inline __attribute__((always_inline)) int mk_read(struct mk_thread *t, uint64_t *v, uint64_t *times)
{
	int i = 0;

	if (__builtin_expect(t->all_user, 1))
		for (; i < t->nr; i++)
			if (selfmon_page__read_value(t->pg[i], &v[i]))
				break;
	if (__builtin_expect(i < t->nr, 0))
		return mk_read_slow(t, v, times);
	return 0;
}

/* ---- begin ---- */

/* The begin of a region whose slot exists: only the outermost of nested begins counts. */
static inline __attribute__((always_inline)) void mk_begin_slot(struct mk_thread *t, struct mk_slot *s, int form)
{
	uint64_t times[2];

	if (__builtin_expect(s->depth++ != 0, 0))
		return;
	s->form = form;
	if (__builtin_expect(t->timed, 0)) {
		/* Unreadable: the end drops the pair. */
		s->bad = mk_read_slow(t, s->begin, times) < 0;
		s->begin_enabled = times[0];
		s->begin_running = times[1];
		return;
	}
	if (__builtin_expect(mk_read(t, s->begin, times) < 0, 0))
		s->bad = 1;
}

/* A site to resolve, a thread to open, or a slot to add. */
static __attribute__((noinline, cold)) void mk_begin_slow(struct selfmon_marker *m, int form)
{
	struct mk_thread *t;

	m = mk_resolve(m);
	t = m ? mk_thread_get() : NULL;
	if (!t || ((unsigned long)m->id >= t->nr_slots && mk_grow(t, m->id)))
		return;
	mk_begin_slot(t, &t->slot[m->id], form);
}

void selfmon_marker__begin_at(struct selfmon_marker *marker)
{
	struct mk_thread *t = mk_self;
	unsigned long id = (unsigned long)marker->id;

	if (__builtin_expect(!t || id >= t->nr_slots, 0)) {
		mk_begin_slow(marker, MK_CACHED);
		return;
	}
	mk_begin_slot(t, &t->slot[id], MK_CACHED);
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
	mk_begin_slot(t, &t->slot[m->id], MK_NAMED);
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

/* A multiplexed leader: from now on both ends read with their times. */
static __attribute__((noinline, cold)) void mk_go_timed(struct mk_thread *t)
{
	t->timed = 1;
}

/*
 * Add one pair to its slot: @now read at the end (@slow: 1 by read(2), -1
 * unread), less the begin and the cost of an empty pair of the begin's form.
 */
static inline __attribute__((always_inline)) void mk_account(struct mk_thread *t, struct mk_slot *s,
							      const uint64_t *now, int slow, const uint64_t *times)
{
	const uint64_t *ovh;

	/* Callers send an end with no begin (depth 0) to mk_unbalanced(). */
	if (__builtin_expect(--s->depth != 0, 0))
		return;
	if (__builtin_expect(slow < 0 || s->bad, 0)) {
		s->bad = 0;
		return;
	}
	ovh = t->overhead[s->form];
	for (int i = 0; i < t->nr; i++) {
		uint64_t d = now[i] - s->begin[i];

		d = d > ovh[i] ? d - ovh[i] : 0;
		s->sum[i] += d;
		if (d < s->min[i])
			s->min[i] = d;
		if (d > s->max[i])
			s->max[i] = d;
	}
	s->calls++;
	if (__builtin_expect(slow != 0, 0))
		s->fallbacks++;
	if (__builtin_expect(t->timed, 0)) {
		s->enabled += times[0] - s->begin_enabled;
		s->running += times[1] - s->begin_running;
	} else if (__builtin_expect(t->all_user && t->pg[0]->time_enabled != t->pg[0]->time_running, 0)) {
		mk_go_timed(t);
	}
}

/* The end's read, done first so that nothing after it counts in the region. */
static inline __attribute__((always_inline)) int mk_end_read(struct mk_thread *t, uint64_t *now, uint64_t *times)
{
	if (__builtin_expect(t->timed, 0))
		return mk_read_slow(t, now, times);
	return mk_read(t, now, times);
}

/* A site to resolve, or an end with no slot: no begin in this thread. */
static __attribute__((noinline, cold)) void mk_end_slow(struct mk_thread *t, struct selfmon_marker *m,
							 const uint64_t *now, int slow, const uint64_t *times)
{
	m = mk_resolve(m);
	if (!m || (t && t == &mk_dead))
		return;
	if (!t || (unsigned long)m->id >= t->nr_slots || t->slot[m->id].depth == 0) {
		mk_unbalanced(t, m);
		return;
	}
	mk_account(t, &t->slot[m->id], now, slow, times);
}

void selfmon_marker__end_at(struct selfmon_marker *marker)
{
	struct mk_thread *t = mk_self;
	uint64_t now[MK_EVENTS], times[2] = { 0, 0 };
	unsigned long id;
	int slow = -1;

	if (__builtin_expect(t != NULL, 1))
		slow = mk_end_read(t, now, times);
	id = (unsigned long)marker->id;
	if (__builtin_expect(!t || id >= t->nr_slots || t->slot[id].depth == 0, 0)) {
		mk_end_slow(t, marker, now, slow, times);
		return;
	}
	mk_account(t, &t->slot[id], now, slow, times);
}

void selfmon_marker__end(const char *name)
{
	struct mk_thread *t = mk_self;
	uint64_t now[MK_EVENTS], times[2] = { 0, 0 };
	struct selfmon_marker *m;
	int slow = -1;

	if (__builtin_expect(t != NULL, 1))
		slow = mk_end_read(t, now, times);
	m = t ? mk_cached_name(t, name) : NULL;
	if (__builtin_expect(!m || t->slot[m->id].depth == 0, 0)) {
		mk_init();
		if (mk.state != MK_STATE_ON || t == &mk_dead)
			return;
		m = m ? m : mk_lookup(name);
		if (m)
			mk_end_slow(t, m, now, slow, times);
		return;
	}
	mk_account(t, &t->slot[m->id], now, slow, times);
}

/* ---- the cost of an empty pair, measured once per thread and subtracted ---- */

#define MK_EMPTY "selfmon:empty pair"

/* SELFMON_MARKER_BEGIN()/END()'s sites, here at file scope so that mk__reset() can unresolve them. */
static struct selfmon_marker_site mk_empty_site[2] = {
	{ (struct selfmon_marker *)&mk_empty_site[0], -1, MK_EMPTY },
	{ (struct selfmon_marker *)&mk_empty_site[1], -1, MK_EMPTY },
};

/* The cached pair as the macros write it. */
static __attribute__((noinline)) void mk_empty_cached(void)
{
	struct selfmon_marker *m = __atomic_load_n(&mk_empty_site[0].marker, __ATOMIC_RELAXED);

	if (__builtin_expect(m != 0, 1))
		selfmon_marker__begin_at(m);
	m = __atomic_load_n(&mk_empty_site[1].marker, __ATOMIC_RELAXED);
	if (__builtin_expect(m != 0, 1))
		selfmon_marker__end_at(m);
}

static __attribute__((noinline)) void mk_empty_named(void)
{
	selfmon_marker__begin(MK_EMPTY);
	selfmon_marker__end(MK_EMPTY);
}

/* The least each event counts over empty pairs of each form: what a pair adds to a region. */
static void mk_calibrate(struct mk_thread *t)
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
			t->overhead[f][i] = s->calls ? s->min[i] : 0;
		memset(s, 0, sizeof(*s));
		memset(s->min, 0xff, sizeof(s->min));
		pthread_mutex_unlock(&mk.lock);
	}
}

int mk_is_internal(const struct selfmon_marker *m)
{
	return !strcmp(m->name, MK_EMPTY);
}

int selfmon_marker__report(void)
{
	mk_init();
	if (mk.state == MK_STATE_NEW || !mk.threads)
		return 1;
	return mk_report_write();
}
