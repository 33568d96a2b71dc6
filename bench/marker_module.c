// SPDX-License-Identifier: MIT
/*
 * The objects whose call sites the library resolves when markers start:
 * its own (the sections it is linked with, marker_thread.c) and every
 * other that <selfmon/priv/marker.h> registers at load, a program linked
 * against libselfmon.so and each shared object with markers. Without them
 * such an object's site would be resolved at its first use, inside
 * whatever region is open then, and its by-name words would never learn
 * that markers are off.
 *
 * The lock is taken before mk.lock, never under it: resolving a site looks
 * its name up under mk.lock, and an object is forgotten before it goes, so
 * that nothing writes to its sections once it is unloaded.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include <selfmon/marker.h>
#include "marker_int.h"

struct mk_module {
	struct selfmon_marker_site *sites, *sites_end;
	struct selfmon_priv_marker_named *names, *names_end;
	int refs; /* the object's files that registered it */
	struct mk_module *next;
};

static pthread_mutex_t mk_modules_lock = PTHREAD_MUTEX_INITIALIZER;
static struct mk_module *mk_modules;

/*
 * Bring one object's sites and words to the markers' state, which is
 * decided (on or off): with @resolve each site holds its region (on) or 0
 * (off), as its first use would store; each word its name unless off.
 */
static void mk_module_apply(const struct mk_module *m, bool resolve)
{
	bool on = __atomic_load_n(&mk.state, __ATOMIC_ACQUIRE) == MK_STATE_ON;

	for (struct selfmon_marker_site *s = m->sites; resolve && s && s < m->sites_end; s++)
		__atomic_store_n(&s->marker, on ? mk_lookup(s->name) : NULL, __ATOMIC_RELAXED);
	for (struct selfmon_priv_marker_named *w = m->names; w && w < m->names_end; w++)
		__atomic_store_n(&w->live, on ? w->name : NULL, __ATOMIC_RELAXED);
}

void mk_modules_apply(bool resolve)
{
	pthread_mutex_lock(&mk_modules_lock);
	for (const struct mk_module *m = mk_modules; m; m = m->next)
		mk_module_apply(m, resolve);
	pthread_mutex_unlock(&mk_modules_lock);
}

void mk_modules_reset(void)
{
	pthread_mutex_lock(&mk_modules_lock);
	for (const struct mk_module *m = mk_modules; m; m = m->next) {
		for (struct selfmon_marker_site *s = m->sites; s && s < m->sites_end; s++)
			__atomic_store_n(&s->marker, (struct selfmon_marker *)s, __ATOMIC_RELAXED);
		for (struct selfmon_priv_marker_named *w = m->names; w && w < m->names_end; w++)
			__atomic_store_n(&w->live, w->name, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&mk_modules_lock);
}

/* The entry of the object with these sections, or where it would be linked. */
static struct mk_module **mk_module_find(const struct selfmon_marker_site *sites,
					 const struct selfmon_priv_marker_named *names)
{
	struct mk_module **p = &mk_modules;

	while (*p && ((*p)->sites != sites || (*p)->names != names))
		p = &(*p)->next;
	return p;
}

/* An object's sections, registered once however many of its files call; the library's own are its already. */
static void mk_module_in(struct selfmon_marker_site *sites, struct selfmon_marker_site *sites_end,
			 struct selfmon_priv_marker_named *names,
			 struct selfmon_priv_marker_named *names_end)
{
	struct mk_module **p = mk_module_find(sites, names);

	if (*p) {
		(*p)->refs++;
		return;
	}
	/* Out of memory: the object's sites resolve at their first use, as before it registered. */
	*p = calloc(1, sizeof(**p));
	if (!*p)
		return;
	**p = (struct mk_module){ sites, sites_end, names, names_end, 1, NULL };
	/* Markers already started (a plugin loaded later): its sites now, not inside a region. */
	if (__atomic_load_n(&mk.state, __ATOMIC_ACQUIRE) != MK_STATE_NEW)
		mk_module_apply(*p, true);
}

static void mk_module_out(const struct selfmon_marker_site *sites,
			  const struct selfmon_priv_marker_named *names)
{
	struct mk_module **p = mk_module_find(sites, names), *m = *p;

	if (m && --m->refs == 0) {
		*p = m->next;
		free(m);
	}
}

void selfmon_priv_marker_module(struct selfmon_marker_site *sites,
				struct selfmon_marker_site *sites_end,
				struct selfmon_priv_marker_named *names,
				struct selfmon_priv_marker_named *names_end, int in)
{
	/* An object without sites, and the library's own object (marker_thread.c has it). */
	if (!sites_end || sites_end <= sites)
		sites = sites_end = NULL;
	if (!names_end || names_end <= names)
		names = names_end = NULL;
	if ((!sites && !names) || (sites && sites == __start_selfmon_sites) ||
	    (names && names == __start_selfmon_names))
		return;
	pthread_mutex_lock(&mk_modules_lock);
	if (in)
		mk_module_in(sites, sites_end, names, names_end);
	else
		mk_module_out(sites, names);
	pthread_mutex_unlock(&mk_modules_lock);
}
