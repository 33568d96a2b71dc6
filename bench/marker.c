// SPDX-License-Identifier: MIT
/*
 * Markers' paths below the inline pair of <selfmon/marker.h>: what the
 * inline begin and end leave to the library (a site to resolve, a thread to
 * open, a thread that reads the long way, nesting, a refused read, an
 * unbalanced end), the by-name forms, which run the inline pair after their
 * lookup, and the empty pair measured at a thread's first begin. The reads
 * the long way and the accounting are in marker_slow.c, the life cycle in
 * marker_thread.c, both below this file.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <selfmon/marker.h>
#include <selfmon/read.h>
#include <selfmon/selfmon.h>
#include "marker_int.h"

/* ---- begin: the plain one is inline in <selfmon/marker.h> ---- */

/* Every counter into the slot through its page. Return: 0, or 1 when a page refuses. */
static int mk_read_pages(const struct mk_thread *t, struct selfmon_priv_marker_slot *s)
{
	for (int i = 0; i < t->h.nr; i++)
		if (selfmon_page__read_value(t->h.pg[i], &s->begin[i]))
			return 1;
	return 0;
}

/*
 * The region a site or region names, this thread's counters open, and room
 * for it; NULL when off. A thread's first begin opens its counters
 * (marker_thread.c, below this file) and, back here, measures its empty
 * pairs with the paths of this file: the life cycle calls nothing above it.
 */
struct mk_thread *mk_ready(struct selfmon_marker **mp)
{
	struct selfmon_marker *m;
	struct mk_thread *t;
	bool opened = false;

	m = *mp = mk_resolve(*mp);
	t = m ? mk_thread_get(&opened) : NULL;
	if (__builtin_expect(opened, 0))
		mk_calibrate(t);
	if (!t || ((unsigned long)m->id >= t->h.nr_slots && mk_grow(t, m->id)))
		return NULL;
	return t;
}

/* The whole begin: nested begins count their depth, and only the outermost reads, last. */
void selfmon_marker__begin_at(struct selfmon_marker *marker)
{
	struct selfmon_priv_marker_slot *s;
	struct mk_thread *t = mk_ready(&marker);

	if (!t)
		return;
	s = &t->h.slot[marker->id];
	if (s->depth++ != 0)
		return;
	if (!t->fast || mk_read_pages(t, s))
		mk_begin_read(t, s);
}

struct selfmon_priv_marker_ready selfmon_priv_marker_prepare(struct selfmon_marker *marker, int layout)
{
	struct selfmon_priv_marker_ready r = { NULL, 0 };
	struct mk_thread *t = mk_ready(&marker);

	if (!t)
		return r;
	if (__builtin_expect(layout != SELFMON_ABI_LAYOUT, 0))
		mk_say_layout(layout);
	/* A caller of another layout would read our slots at its offsets: the library begins. */
	if (!t->inline_ok || t->h.slot[marker->id].depth != 0 || layout != SELFMON_ABI_LAYOUT) {
		selfmon_marker__begin_at(marker);
		return r;
	}
	r.t = &t->h;
	r.id = (unsigned long)marker->id;
	return r;
}

/*
 * The region @name in @t's cache of names: its pointer, then, if @verify,
 * its text (a buffer may be reused; a string literal may not).
 */
static inline struct selfmon_marker *mk_cached_name(struct mk_thread *t, const char *name,
						    int verify)
{
	unsigned int h = (unsigned int)((uintptr_t)name >> 4) & 15;

	if (__builtin_expect(t->cache[h].ptr == name && name &&
				     (!verify || !strcmp(t->cache[h].m->name, name)),
			     1))
		return t->cache[h].m;
	return NULL;
}

/* By name, the long way: init, look up, remember. */
static __attribute__((noinline, cold)) struct selfmon_marker *mk_named_slow(const char *name)
{
	struct selfmon_marker *m;
	struct mk_thread *t;

	mk_init();
	if (mk.state != MK_STATE_ON || mk_self == &mk_dead)
		return NULL;
	m = mk_lookup(name);
	t = m ? mk_ready(&m) : NULL;
	if (!t)
		return NULL;
	t->cache[((uintptr_t)name >> 4) & 15].ptr = name;
	t->cache[((uintptr_t)name >> 4) & 15].m = m;
	return m;
}

/*
 * The by-name begin of a known region, reached from either by-name entry:
 * the inline begin with every other case a tail call, so no frame, and the
 * code after its reads (the stores, the return) the same as in
 * mk_begin_named()'s copy, which the empty pair measures.
 */
static void mk_begin_region(struct selfmon_marker *m);

/*
 * A region's first begin in this thread: made ready (room in the slots),
 * then begun again the plain way, so that its reads are those of every
 * later begin (the same instructions after them).
 */
static __attribute__((noinline, cold)) void mk_begin_region_first(struct selfmon_marker *m)
{
	if (selfmon_priv_marker_prepare(m, SELFMON_ABI_LAYOUT).t)
		mk_begin_region(m);
}

static __attribute__((noinline)) void mk_begin_region(struct selfmon_marker *m)
{
	selfmon_priv_marker_begin_with(m, mk_begin_region_first);
}

/* A by-name begin whose region is not known by its pointer alone: verify, look up, then begin. */
static __attribute__((noinline, cold)) void mk_begin_lookup(const char *name, int verify)
{
	struct mk_thread *t = mk_self;
	struct selfmon_marker *m;

	/* Off is decided before any lookup: a name in a buffer, or a site the library did not zero. */
	if (__atomic_load_n(&mk.state, __ATOMIC_RELAXED) == MK_STATE_OFF)
		return;
	m = t ? mk_cached_name(t, name, verify) : NULL;

	if (!m)
		m = mk_named_slow(name);
	if (m)
		mk_begin_region(m);
}

/*
 * Both by-name begins, one body: each entry point only sets @verify and
 * jumps here. A string literal found by its pointer begins here, inline;
 * everything else (a name in a buffer, compared in full; a first use) by a
 * tail call. The entry points are never inlined, not even into the
 * library's own empty pair: a program calls them, and the empty pair must
 * run what a program runs.
 */
static __attribute__((noinline)) void mk_begin_named(const char *name, int verify)
{
	struct mk_thread *t = mk_self;
	struct selfmon_marker *m = t && !verify ? mk_cached_name(t, name, 0) : NULL;

	if (__builtin_expect(!m, 0)) {
		mk_begin_lookup(name, verify);
		return;
	}
	selfmon_priv_marker_begin_with(m, mk_begin_region_first);
}

__attribute__((noinline)) void(selfmon_marker__begin)(const char *name)
{
	mk_begin_named(name, 1);
}

/*
 * Markers off, decided before anything else, where a literal's by-name pair
 * is a plain call (no arch sequence whose word the library zeroes): the
 * entry's own load and branch, so that an off pair costs its two calls and
 * little more. Where the arch's sequence skips the call itself, no test.
 */
#ifdef SELFMON_ARCH_MARKER_NAMED
#define MK_NAMED_OFF() 0
#else
#define MK_NAMED_OFF() (__atomic_load_n(&mk.state, __ATOMIC_RELAXED) == MK_STATE_OFF)
#endif

__attribute__((noinline)) void selfmon_marker__begin_const(const char *name)
{
	if (__builtin_expect(MK_NAMED_OFF(), 0))
		return;
	mk_begin_named(name, 0);
}

/* ---- end: the plain one is inline in <selfmon/marker.h> ---- */

void selfmon_marker__end_at(struct selfmon_marker *marker)
{
	selfmon_priv_marker_end_inline(marker);
}

/*
 * The begin's two figures in vector registers cost gcc moves into them
 * (fmov, ins, xtn) that two scalar adds do without: three instructions a
 * begin (the end, which also adds up sum, min and max, is shorter in
 * vectors).
 */
#if defined(__GNUC__) && !defined(__clang__)
#define MK_SCALAR __attribute__((optimize("no-tree-vectorize", "no-tree-slp-vectorize")))
#else
#define MK_SCALAR
#endif

/*
 * The fixed sequence's calls: the inline pair, compiled once, here. No
 * frame on the plain path (every other case leaves by a tail call), so the
 * begin's reads are followed by its stores and ret alone, and the end's
 * are preceded by its loads of the thread's pages alone.
 */
/* A site's first begin in this thread, as mk_begin_region_first(); the site resolves here. */
static __attribute__((noinline, cold)) void mk_begin_call_first(struct selfmon_marker *m)
{
	if (selfmon_priv_marker_prepare(m, SELFMON_ABI_LAYOUT).t)
		selfmon_priv_marker_begin_call(mk_resolve(m));
}

MK_SCALAR __attribute__((noinline)) void selfmon_priv_marker_begin_call(struct selfmon_marker *marker)
{
	selfmon_priv_marker_begin_with(marker, mk_begin_call_first);
}

__attribute__((noinline)) void selfmon_priv_marker_end_call(struct selfmon_marker *marker)
{
	selfmon_priv_marker_end_inline(marker);
}

#ifdef SELFMON_ARCH_MARKER_SCOPE
/*
 * The scope form's end the long way (more events than the inline pair
 * reads, the read(2) fallback): as the pair's, less the stub's difference
 * measured on this same path.
 */
static __attribute__((noinline, cold)) void mk_end_scope_slow(struct selfmon_marker *marker)
{
	struct mk_thread *t = mk_self;
	struct mk_end e = { .slow = 0 };

	mk_end_read(t, &e);
	for (int i = 0; t && t != &mk_dead && e.slow >= 0 && i < t->h.nr; i++)
		e.v[i] -= t->scope_extra[i];
	mk_end_account(marker, t, &e, MK_CACHED);
}

/*
 * The scope form's end, from the arch's stub: the end's reads, less what
 * the stub's path adds over a pair's end (mk_calibrate()), so that the
 * region's figures are a pair's. The reads come first, as in
 * selfmon_priv_marker_end_call(); the thread behind a page that reads
 * inline is one of the library's (mk_self_publish()).
 */
__attribute__((noinline)) void selfmon_priv_marker_scope_end_call(struct selfmon_marker *marker)
{
	struct selfmon_priv_marker_thread *h = selfmon_priv_marker_self;
	const struct perf_event_mmap_page *pg0 = h->pg[0], *pg1 = h->pg[1];
	const struct mk_thread *t;
	uint64_t v0, v1;

	/* As selfmon_priv_marker_end_inline(): both pages first, in one ldp. */
	if (__builtin_expect(selfmon_page__read_value32(pg0, &v0) ||
				     selfmon_page__read_value32(pg1, &v1),
			     0)) {
		mk_end_scope_slow(marker);
		return;
	}
	t = (const struct mk_thread *)((const char *)h - offsetof(struct mk_thread, h));
	selfmon_priv_marker_add_pg(h, pg0, marker, v0 - t->scope_extra[0], v1 - t->scope_extra[1],
				   MK_CACHED);
}
#endif

/*
 * A by-name end's region once its reads are taken: the one found in the
 * thread's cache, else looked up; NULL when markers are off or the thread
 * is past its exit.
 */
static struct selfmon_marker *mk_end_resolve(struct mk_thread *t, struct selfmon_marker *m,
					     const char *name)
{
	mk_init();
	if (mk.state != MK_STATE_ON || t == &mk_dead)
		return NULL;
	return m ? m : mk_lookup(name);
}

/* A by-name end read inline whose region its pointer alone does not give. */
static __attribute__((noinline, cold)) void mk_end_lookup(const char *name, uint64_t v0,
							  uint64_t v1, int verify)
{
	struct mk_thread *t = mk_self;
	struct selfmon_marker *m;

	if (__atomic_load_n(&mk.state, __ATOMIC_RELAXED) == MK_STATE_OFF)
		return;
	m = t ? mk_cached_name(t, name, verify) : NULL;
	if (m && t->inline_ok) {
		selfmon_priv_marker_add(selfmon_priv_marker_self, m, v0, v1, MK_NAMED);
		return;
	}
	m = mk_end_resolve(t, m, name);
	if (m)
		selfmon_priv_marker_finish(m, v0, v1, 1, MK_NAMED);
}

/*
 * A by-name end that could not read inline: the long way's reads come
 * first, before the name is compared or looked up, so that a name in a
 * buffer (compared in full) counts what a literal's pair does on this path
 * too.
 */
static __attribute__((noinline, cold)) void mk_end_named_read(const char *name, int verify)
{
	struct mk_thread *t = mk_self;
	struct mk_end e = { .slow = 0 };
	struct selfmon_marker *m;

	mk_end_read(t, &e);
	m = t ? mk_cached_name(t, name, verify) : NULL;
	m = mk_end_resolve(t, m, name);
	if (m)
		mk_end_account(m, t, &e, MK_NAMED);
}

/*
 * Markers off, decided first, before the frame the reads need: an end of
 * a name in a buffer with markers off stays short.
 */
static __attribute__((noinline, cold)) void mk_end_named_slow(const char *name, int verify)
{
	if (__atomic_load_n(&mk.state, __ATOMIC_RELAXED) == MK_STATE_OFF)
		return;
	mk_end_named_read(name, verify);
}

/*
 * Both by-name ends, one body, as mk_begin_named(): the code before the
 * reads is the same for both, and no frame: every case but a string
 * literal found by its pointer leaves by a tail call, with the reads.
 */
static __attribute__((noinline)) void mk_end_named(const char *name, int verify)
{
	struct selfmon_priv_marker_thread *h = selfmon_priv_marker_self;
	struct selfmon_marker *m = NULL;
	struct mk_thread *t;
	uint64_t v0 = 0, v1 = 0;

	/* The reads first: nothing after them counts in the region. */
	if (__builtin_expect(!selfmon_priv_marker_read(h, &v0, &v1), 0)) {
		mk_end_named_slow(name, verify);
		return;
	}
	t = mk_self;
	if (t && !verify)
		m = mk_cached_name(t, name, 0);
	if (__builtin_expect(!m, 0)) {
		mk_end_lookup(name, v0, v1, verify);
		return;
	}
	selfmon_priv_marker_add(h, m, v0, v1, MK_NAMED);
}

__attribute__((noinline)) void(selfmon_marker__end)(const char *name)
{
	mk_end_named(name, 1);
}

__attribute__((noinline)) void selfmon_marker__end_const(const char *name)
{
	if (__builtin_expect(MK_NAMED_OFF(), 0))
		return;
	mk_end_named(name, 0);
}

/* ---- the cost of an empty pair, measured once per thread and subtracted ---- */

/* The library's own sites (the empty pair's) are in the section with the program's: mk_forget() unresolves them. */
void mk__reset(void)
{
	mk_forget();
}

/*
 * gcc may pad a label that several paths join with nops that the hot path
 * runs (loop alignment): a program's pair is seldom padded, so neither is
 * the empty pair measured here.
 */
#if defined(__GNUC__) && !defined(__clang__)
#define MK_UNPADDED __attribute__((optimize("align-loops=1", "align-jumps=1", "align-labels=1")))
#else
#define MK_UNPADDED
#endif

/* The cached pair as a program writes it. */
static __attribute__((noinline)) MK_UNPADDED void mk_empty_cached(void)
{
	SELFMON_MARKER_BEGIN(MK_EMPTY);
	SELFMON_MARKER_END(MK_EMPTY);
}

static __attribute__((noinline)) void mk_empty_named(void)
{
	selfmon_marker__begin(MK_EMPTY);
	selfmon_marker__end(MK_EMPTY);
}

/* The empty pair of each form, as a program writes it. */
static void (*const mk_pairs[MK_FORMS])(void) = { mk_empty_cached, mk_empty_named };

/* Forget what the empty pairs counted in @s, as if none had run. */
static void mk_slot_clear(struct selfmon_priv_marker_slot *s)
{
	memset(s, 0, sizeof(*s));
	for (int i = 0; i < MK_EVENTS; i++)
		s->min[i] = UINT64_MAX;
}

#ifdef SELFMON_ARCH_MARKER_SCOPE
/* The library's own copy of the stub (<selfmon/priv/marker.h>). */
__asm__(SELFMON_ARCH_MARKER_SCOPE_LEAVE(SELFMON_PRIV_MARKER_LEAVE, selfmon_priv_marker_scope_end_call));

/* The empty scope pair whose end is the stub, as a program built at -O0 writes it. */
static __attribute__((noinline)) MK_UNPADDED void mk_empty_scope(void)
{
	SELFMON_PRIV_MARKER_SCOPE_STUB(MK_EMPTY, mk_scope);
}

/*
 * What the stub's end (-O0) adds over a pair's end (its call of the stub;
 * on x86_64 it takes away, as the stub does not move the stack): the least
 * an empty scope pair of the stub counts, less the empty pair (cached),
 * each event, modulo 2^64 as the reads are. Measured with nothing taken
 * off yet.
 */
static void mk_calibrate_scope(struct mk_thread *t, struct selfmon_priv_marker_slot *s)
{
	memset(t->scope_extra, 0, sizeof(t->scope_extra));
	for (int k = 0; k < 16; k++)
		mk_empty_scope();
	pthread_mutex_lock(&mk.lock);
	for (int i = 0; i < t->h.nr; i++)
		t->scope_extra[i] = s->calls[MK_CACHED] ? s->min[i] - t->overhead[MK_CACHED][i] : 0;
	mk_slot_clear(s);
	pthread_mutex_unlock(&mk.lock);
}
#else
static void mk_calibrate_scope(struct mk_thread *t, struct selfmon_priv_marker_slot *s)
{
	(void)t;
	(void)s;
}
#endif


/* The least each event counts over empty pairs of each form: what a pair adds to a region. */
void mk_calibrate(struct mk_thread *t)
{
	struct selfmon_marker *m = mk_lookup(MK_EMPTY);

	if (!m || ((unsigned long)m->id >= t->h.nr_slots && mk_grow(t, m->id)))
		return;
	for (int f = 0; f < MK_FORMS; f++) {
		struct selfmon_priv_marker_slot *s = &t->h.slot[m->id];

		for (int k = 0; k < 16; k++)
			mk_pairs[f]();
		pthread_mutex_lock(&mk.lock);
		for (int i = 0; i < t->h.nr; i++)
			t->overhead[f][i] = s->calls[f] ? s->min[i] : 0;
		mk_slot_clear(s);
		pthread_mutex_unlock(&mk.lock);
	}
	mk_calibrate_scope(t, &t->h.slot[m->id]);
}

int selfmon_marker__report(void)
{
	mk_init();
	if (mk.state == MK_STATE_NEW || !mk.threads)
		return 1;
	return mk_report_write();
}
