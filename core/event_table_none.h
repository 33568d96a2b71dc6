/* SPDX-License-Identifier: MIT */
/*
 * core/event_table.h in a library built without the pmu-events tables
 * (CONFIG_PMU_EVENTS off, and event_table.c not built: core/objs.mk): no
 * event is a table name, and the refusal of an unknown one suggests none.
 * Inline, so that the parser of such a build (the smallest image's, held
 * to its size budget) carries no code for the tables at all.
 */
#ifndef SELFMON_CORE_EVENT_TABLE_NONE_H
#define SELFMON_CORE_EVENT_TABLE_NONE_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include "event.h"

struct selfmon_closest;

#define SELFMON_EVENT_TABLE_HINT ""

static inline int selfmon_event_table__find(struct selfmon_event *ev, const char *name,
					    const struct selfmon_pmus *pmus,
					    const struct selfmon_pmu *pmu, char *terms,
					    size_t size)
{
	(void)ev;
	(void)name;
	(void)pmus;
	(void)pmu;
	(void)terms;
	(void)size;
	return -ENOENT;
}

/* No event is a table name here: the parser's re-lookup for a PMU is dead code. */
static inline bool selfmon_event_table__named(const struct selfmon_event *ev)
{
	(void)ev;
	return false;
}

static inline void selfmon_event_table__offer(const struct selfmon_pmus *pmus,
					      struct selfmon_closest *near)
{
	(void)pmus;
	(void)near;
}

#endif
