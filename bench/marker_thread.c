// SPDX-License-Identifier: MIT
/*
 * Markers' life cycle: SELFMON_EVENTS read once, each thread's set opened
 * at its first begin (the public set API: a set belongs to the thread that
 * opened it), a thread's exit (its counts stay for the report), fork (the
 * child starts empty) and exit (the report). The hot paths are in
 * marker.c, the registry of region names (and mk) in marker_registry.c.
 *
 * Nothing here may harm the host program: every failure is one message on
 * stderr, and the call returns as if markers were off.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/syscall.h>

#include <selfmon/marker.h>
#include <selfmon/read.h>
#include <selfmon/selfmon.h>
#include "marker_int.h"

struct mk_thread mk_dead;
/* This thread's counters; NULL until its first begin. */
__thread struct mk_thread *mk_self;
/* A page that allows no user read (index 0): the inline reads of a thread with no slots refuse. */
static struct perf_event_mmap_page mk_no_page;
struct selfmon_priv_marker_thread mk_none = { .pg = { &mk_no_page, &mk_no_page } };
__thread struct selfmon_priv_marker_thread *selfmon_priv_marker_self = &mk_none;

/*
 * Code built against an older layout of <selfmon/marker.h> reads the thread
 * variable of its own layout (the name carries it): the library keeps each
 * older one defined and exported (its declaration stays in the header), and
 * pointing at words that send every pair to the library whatever that
 * layout was: the first word, nr_slots in every layout, 0; every other word
 * a page that refuses, which is what such a thread's pages are. Its begins
 * reach selfmon_priv_marker_prepare() with their layout, which begins for them;
 * its ends read a refusing page and call selfmon_priv_marker_finish(). On a
 * layout bump (docs/abi.md) the previous layout's variable goes here.
 */
#if SELFMON_ABI_LAYOUT > 1
static void *mk_compat[64] = { [1 ... 63] = &mk_no_page };
__thread struct selfmon_priv_marker_thread *selfmon_priv_marker_self_1 =
	(struct selfmon_priv_marker_thread *)mk_compat;
#endif

/* The inline pair reads two pages: one event is read twice, more take the library's path. */
void mk_self_publish(struct mk_thread *t)
{
	if (t && t != &mk_dead && t->fast && t->h.nr == 1)
		t->h.pg[1] = t->h.pg[0];
	if (t && t != &mk_dead)
		t->inline_ok = t->fast && t->pages32 && t->h.nr <= 2;
	selfmon_priv_marker_self = t && t != &mk_dead && t->inline_ok ? &t->h : &mk_none;
}
static pthread_key_t mk_key;
static bool mk_key_ok;
/* atexit() and pthread_atfork() are registered once per process, whatever mk__reset() does. */
static bool mk_registered;

/* The default where a core PMU counts; task-clock elsewhere. */
static const char mk_default[] = "{instructions:u,cycles:u}";
static const char mk_fallback[] = "task-clock";

/* ---- set-up: once per process, and again in a forked child ---- */

static void mk_thread_free(struct mk_thread *t)
{
	free(t->h.slot);
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
	t->fast = 0;
	t->exited = 1;
	pthread_mutex_unlock(&mk.lock);
	mk_self = NULL;
	mk_self_publish(NULL);
}

/* SELFMON_OUTPUT at this process's last fork, for the child (marker_output.c). */
static char mk_output_at_fork[sizeof(mk.fork_output)];

/* A forked child starts with no regions of its parent's and counts with counters of its own. */
static void mk_prepare(void)
{
	mk_copy_output(mk_output_at_fork, sizeof(mk_output_at_fork));
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
	mk.forked = true;
	memcpy(mk.fork_output, mk_output_at_fork, sizeof(mk.fork_output));
	for (; t; t = next) {
		next = t->next;
		selfmon_set__close(t->set);
		mk_thread_free(t);
	}
	mk_self = NULL;
	mk_self_publish(NULL);
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

/*
 * SELFMON_EVENTS, unless this program runs with raised rights (AT_SECURE,
 * getauxval(3): setuid, setgid, file capabilities): then the events would
 * be opened with those rights (kernel counting, say), so a list is ignored
 * (said once) and the default counted; an empty one (off) asks for nothing
 * and is followed.
 */
static const char *mk_events_env(void)
{
	static int said;
	const char *ev = secure_getenv("SELFMON_EVENTS");
	char q[96];

	if (ev || !getauxval(AT_SECURE))
		return ev;
	/* Raised rights: secure_getenv() said nothing; was a list given? */
	ev = getenv("SELFMON_EVENTS");
	if (!ev || !*ev)
		return ev;
	if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
		mk_say("SELFMON_EVENTS='%s' ignored: this program runs with raised rights (setuid, "
		       "setgid or file capabilities), which its events would be counted with; "
		       "counting the default events",
		       mk_quote(q, sizeof(q), ev));
	return NULL;
}

/* What SELFMON_EVENTS says, once per process (again after mk__reset()). Caller holds mk.lock. */
static void mk_init_locked(void)
{
	const char *ev = mk_events_env();
	char q[96];
	int state = MK_STATE_OFF;

	if (ev && !*ev) {
		/* Off on purpose: nothing to say, nothing to report. */
	} else if (ev && strlen(ev) >= sizeof(mk.events)) {
		mk_say("SELFMON_EVENTS='%s' is longer than %zu bytes: name fewer events; markers are off",
		       mk_quote(q, sizeof(q), ev), sizeof(mk.events) - 1);
	} else {
		snprintf(mk.events, sizeof(mk.events), "%s", ev ? ev : mk_default);
		mk.defaulted = !ev;
		if (!mk_registered) {
			mk_key_ok = !pthread_key_create(&mk_key, mk_thread_exit);
			pthread_atfork(mk_prepare, mk_parent, mk_child);
			atexit(mk_at_exit);
			mk_registered = true;
		}
		state = MK_STATE_ON;
	}
	if (state == MK_STATE_OFF)
		mk_set_off();
	else
		__atomic_store_n(&mk.state, state, __ATOMIC_RELEASE);
}

/*
 * The program's call sites, as the linker gathers them: every
 * SELFMON_MARKER_BEGIN()/END() puts its struct selfmon_marker_site in the
 * section "selfmon_sites", and the linker names its bounds (ld,
 * "Input Section Example": __start_ and __stop_ of a section named as a C
 * identifier: <selfmon/priv/marker.h> declares them). Weak: a program with no site
 * has no section.
 */
/* The sites in the section, and how many: the bounds are two symbols, so counted by address. */
static size_t mk_sites(struct selfmon_marker_site **first)
{
	uintptr_t a = (uintptr_t)__start_selfmon_sites, b = (uintptr_t)__stop_selfmon_sites;

	*first = __start_selfmon_sites;
	return a && b > a ? (b - a) / sizeof(struct selfmon_marker_site) : 0;
}

/*
 * Resolve every site now, before any region is open: a site used first
 * inside another region then costs that region what any later use costs.
 * The sites of other objects (marker_module.c) are resolved next.
 */
static void mk_resolve_sites(void)
{
	struct selfmon_marker_site *s;
	size_t n = mk_sites(&s);

	for (size_t i = 0; i < n; i++)
		mk_resolve((struct selfmon_marker *)&s[i]);
}

/* Every site back to its first state (mk_forget): each resolves again. */
static void mk_unresolve_sites(void)
{
	struct selfmon_marker_site *s;
	size_t n = mk_sites(&s);

	for (size_t i = 0; i < n; i++)
		__atomic_store_n(&s[i].marker, (struct selfmon_marker *)&s[i], __ATOMIC_RELAXED);
}

/* Where the arch tests it before the by-name calls (<selfmon/priv/marker.h>). */
unsigned char selfmon_priv_marker_live = 1;

/*
 * Every by-name site's word: its name (markers on or not yet decided), or 0
 * (off: the site skips its call, so that a pair costs a load and a branch at
 * each end), and the word the arch's by-name test reads, for every object
 * alike. Other objects' words: marker_module.c.
 */
static void mk_names_live(bool on)
{
	uintptr_t a = (uintptr_t)__start_selfmon_names, b = (uintptr_t)__stop_selfmon_names;
	size_t n = a && b > a ? (b - a) / sizeof(struct selfmon_priv_marker_named) : 0;

	for (size_t i = 0; i < n; i++)
		__atomic_store_n(&__start_selfmon_names[i].live,
				 on ? __start_selfmon_names[i].name : NULL, __ATOMIC_RELAXED);
	__atomic_store_n(&selfmon_priv_marker_live, on, __ATOMIC_RELAXED);
}

void mk_set_off(void)
{
	__atomic_store_n(&mk.state, MK_STATE_OFF, __ATOMIC_RELEASE);
	mk_names_live(false);
}

void mk_init(void)
{
	if (__builtin_expect(__atomic_load_n(&mk.state, __ATOMIC_ACQUIRE) != MK_STATE_NEW, 1))
		return;
	int first = 0;

	pthread_mutex_lock(&mk.lock);
	if (mk.state == MK_STATE_NEW) {
		mk_init_locked();
		first = 1;
	}
	pthread_mutex_unlock(&mk.lock);
	if (first) {
		mk_resolve_sites();
		mk_modules_apply(true);
	}
}

void mk_forget(void)
{
	struct mk_thread *t, *next;

	pthread_mutex_lock(&mk.lock);
	for (t = mk.threads; t; t = next) {
		next = t->next;
		selfmon_set__close(t->set);
		mk_thread_free(t);
	}
	mk.threads = NULL;
	selfmon_metrics__delete(mk.metrics);
	mk.metrics = NULL;
	for (int i = 0; i < mk.nr_regions; i++)
		free(mk.region[i]);
	mk.nr_regions = 0;
	mk.nr = 0;
	mk.note[0] = mk.read_path[0] = '\0';
	mk.state = MK_STATE_NEW;
	mk_unresolve_sites();
	mk_names_live(true);
	pthread_mutex_unlock(&mk.lock);
	mk_modules_reset();
	mk_self = NULL;
	mk_self_publish(NULL);
	if (mk_key_ok)
		pthread_setspecific(mk_key, NULL);
}

/*
 * The region a site names, resolved at its first use and kept in the site:
 * NULL when markers are off or the name is bad, which the macros then skip
 * with a load and a branch. Threads resolving one site store the same value.
 */
struct selfmon_marker *mk_resolve(struct selfmon_marker *m)
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
int mk_grow(struct mk_thread *t, long id)
{
	unsigned long nr = ((unsigned long)id | 15) + 1;
	struct selfmon_priv_marker_slot *s;

	pthread_mutex_lock(&mk.lock);
	s = realloc(t->h.slot, nr * sizeof(*s));
	if (s) {
		memset(&s[t->h.nr_slots], 0, (nr - t->h.nr_slots) * sizeof(*s));
		for (unsigned long i = t->h.nr_slots; i < nr; i++)
			for (int k = 0; k < MK_EVENTS; k++)
				s[i].min[k] = UINT64_MAX;
		t->h.slot = s;
		t->h.nr_slots = nr;
	}
	pthread_mutex_unlock(&mk.lock);
	if (!s)
		mk_say("out of memory for region %ld in thread %d: it is not counted there", id,
		       (int)t->tid);
	return s ? 0 : -ENOMEM;
}

/*
 * The events to open for mk.events: its "@name" items are metrics or metric
 * groups, as `selfmon bench --events` takes them, resolved once on the core
 * this thread runs on; the groups of those the plain events do not count
 * already (selfmon_metrics__share()) go after the plain events, into @buf.
 * Caller holds mk.lock. Return: the events, or NULL (said: markers off).
 */
static const char *mk_metric_events(char *buf, size_t size)
{
	char plain[256], names[256], q[96], e[320];
	const char *groups;

	if (!strchr(mk.events, '@'))
		return mk.events;
	if (selfmon_metrics__split(mk.events, plain, sizeof(plain), names, sizeof(names))) {
		mk_say("SELFMON_EVENTS='%s': %s. Fix: write metrics as '@name' items of the event "
		       "list; markers are off",
		       mk_quote(q, sizeof(q), mk.events), mk_errmsg(e, sizeof(e)));
		return NULL;
	}
	if (!mk.metrics) {
		mk.metrics = selfmon_metrics__new(names, -1, "u");
		/* Events the plain list counts already are read there: no second counter, no second read. */
		if (mk.metrics && *plain)
			selfmon_metrics__share(mk.metrics, plain);
	}
	if (!mk.metrics) {
		mk_say("SELFMON_EVENTS='%s': %s. Fix: name metrics or metric groups that `selfmon list` "
		       "shows for this core; markers are off",
		       mk_quote(q, sizeof(q), mk.events), mk_errmsg(e, sizeof(e)));
		return NULL;
	}
	groups = selfmon_metrics__events(mk.metrics);
	if (!*plain && !*groups) {
		mk_say("SELFMON_EVENTS='%s': no metric of it can be counted on this core (%s: %s); "
		       "markers are off",
		       mk_quote(q, sizeof(q), mk.events), selfmon_metrics__name(mk.metrics, 0),
		       selfmon_metrics__why(mk.metrics, 0));
		return NULL;
	}
	if (snprintf(buf, size, "%s%s%s", plain, *plain && *groups ? "," : "", groups) >= (int)size) {
		mk_say("SELFMON_EVENTS='%s': its metrics need more events than markers count (%d): "
		       "name fewer; markers are off",
		       mk_quote(q, sizeof(q), mk.events), MK_EVENTS);
		return NULL;
	}
	return buf;
}

/*
 * Open this thread's set on mk.events. Only the default falls back to
 * task-clock: events named in SELFMON_EVENTS are counted as named or not at
 * all, so that a report never holds other events than it was asked for.
 * Caller holds mk.lock.
 */
static struct selfmon_set *mk_open_set(void)
{
	struct selfmon_opts o = { .sz = sizeof(o) };
	struct selfmon_set *set;
	char q[96], e[320], buf[512];
	const char *events = mk_metric_events(buf, sizeof(buf));

	/* The host program's threads keep their affinity unless SELFMON_PIN says otherwise. */
	o.pin = secure_getenv("SELFMON_PIN") ? NULL : "none";
	/* 32-bit counters, which every PMUv3 has: the inline pair's reads take that width (read.h). */
	o.no_long = 1;
	if (!events)
		return NULL;
	set = selfmon_set__open(events, &o);
	if (!set && mk.defaulted && !strcmp(mk.events, mk_default)) {
		snprintf(mk.note, sizeof(mk.note),
			 "no core PMU counts %s here (%.300s): counting %s; "
			 "SELFMON_EVENTS names other events",
			 mk_default, mk_errmsg(e, sizeof(e)), mk_fallback);
		mk_say("%s", mk.note);
		snprintf(mk.events, sizeof(mk.events), "%s", mk_fallback);
		set = selfmon_set__open(mk.events, &o);
	}
	if (!set) {
		mk_say("cannot count SELFMON_EVENTS='%s': %s. Fix: name events this machine has (selfmon's "
		       "event syntax, e.g. '{instructions:u,cycles:u}' or 'task-clock'), or unset it for the "
		       "default; markers are off (events named explicitly are never replaced by others), "
		       "no report",
		       mk_quote(q, sizeof(q), mk.events), mk_errmsg(e, sizeof(e)));
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

/*
 * 1 when the inline pair may read @t's pages with selfmon_page__read_value32():
 * where the kernel keeps cap_user_rdpmc and pmc_width for an event's life
 * (SELFMON_ARCH_FIXED_PAGE), each page shows both, the width 32; elsewhere
 * that read tests them itself. A thread that fails takes the library's path.
 */
static int mk_pages32(const struct mk_thread *t)
{
	for (int i = 0; SELFMON_ARCH_FIXED_PAGE && i < t->h.nr; i++)
		if (!t->h.pg[i] || t->h.pg[i]->pmc_width != 32 ||
		    !(t->h.pg[i]->capabilities & SELFMON_CAP_USER_RDPMC))
			return 0;
	return 1;
}

/* This thread's counters, opened at its first begin; NULL when markers are off for it. */
struct mk_thread *mk_thread_get(bool *opened)
{
	struct mk_thread *t = mk_self;
	int regions;

	mk_init();
	if (t || mk.state != MK_STATE_ON)
		return t == &mk_dead || mk.state != MK_STATE_ON ? NULL : t;
	t = calloc(1, sizeof(*t));
	pthread_mutex_lock(&mk.lock);
	if (t && mk.state == MK_STATE_ON)
		t->set = mk_open_set();
	if (!t || !t->set) {
		/* Every thread would fail alike: off for all, said once. */
		if (t)
			mk_set_off();
		pthread_mutex_unlock(&mk.lock);
		mk_modules_apply(false);
		if (!t)
			mk_say("out of memory: this thread's markers are off");
		free(t);
		mk_self = &mk_dead;
		mk_self_publish(NULL);
		return NULL;
	}
	t->tid = (pid_t)syscall(SYS_gettid);
	t->h.nr = selfmon_set__nr(t->set);
	mk.nr = (int)t->h.nr;
	t->all_user = 1;
	for (int i = 0; i < t->h.nr; i++) {
		snprintf(mk.event_name[i], sizeof(mk.event_name[i]), "%s",
			 selfmon_set__name(t->set, i));
		t->h.pg[i] = selfmon_set__page(t->set, i);
		if (!t->h.pg[i])
			t->all_user = 0;
	}
	t->pages32 = mk_pages32(t);
	if (!mk.read_path[0]) {
		enum selfmon_reason why = SELFMON_REASON_NONE;

		selfmon_set__path(t->set, 0, &why);
		snprintf(mk.read_path, sizeof(mk.read_path), "%s%s",
			 t->all_user ? "inline" : "read(2): ",
			 t->all_user ? "" : selfmon_reason__str(why));
	}
	t->fast = t->all_user;
	regions = mk.nr_regions;
	t->next = mk.threads;
	mk.threads = t;
	pthread_mutex_unlock(&mk.lock);
	if (mk_key_ok)
		pthread_setspecific(mk_key, t);
	mk_self = t;
	/* Room for every region known now (each site's): a first use needs no growth. */
	if (regions)
		mk_grow(t, regions - 1);
	mk_self_publish(t);
	*opened = true;
	return t;
}
