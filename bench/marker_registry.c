// SPDX-License-Identifier: MIT
/*
 * Markers' registry of regions: a name to its region, made at its first
 * use, and the shared state that holds them. The life cycle around it
 * (SELFMON_EVENTS, threads, fork, exit, a site resolved to its region) is
 * in marker_thread.c; the registry calls nothing there, so that the two
 * objects do not call each other.
 *
 * Nothing here may harm the host program: a bad name or a full registry is
 * one message on stderr, and those markers are ignored.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <selfmon/marker.h>
#include "marker_int.h"

/*
 * The markers' shared state, defined beside the regions it holds; the
 * life cycle (marker_thread.c) and the report read it too.
 */
struct mk_global mk = { .lock = PTHREAD_MUTEX_INITIALIZER };

int mk_is_internal(const struct selfmon_marker *m)
{
	return !strcmp(m->name, MK_EMPTY);
}

/* The region called @name, made if new; NULL (said once) for a bad name or a full registry. */
struct selfmon_marker *mk_lookup(const char *name)
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
			       mk_quote(q, sizeof(q), name), len ? "too long" : "empty",
			       SELFMON_MARKER_NAME_MAX);
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
		       mk_quote(q, sizeof(q), name),
		       mk.nr_regions >= MK_REGIONS ? "more than " MK_REGIONS_TEXT " regions: use fewer names" :
						     "out of memory");
	return m;
}
