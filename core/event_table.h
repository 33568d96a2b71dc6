/* SPDX-License-Identifier: MIT */
/*
 * Event names of the core's pmu-events tables ("INST_RETIRED"), for the
 * event parser (event.c): event_table.c with CONFIG_PMU_EVENTS (core/objs.mk
 * builds it then), otherwise the stubs of event_table_none.h, which know no
 * name. A name found sets up the event on its PMU and gives its encoding
 * as terms ("event=0x8,umask=0x1"), which event.c applies as it applies
 * any PMU event's terms.
 */
#ifndef SELFMON_CORE_EVENT_TABLE_H
#define SELFMON_CORE_EVENT_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include <generated/autoconf.h>
#include "event.h"

struct selfmon_closest;

#ifdef CONFIG_PMU_EVENTS
/* What the refusal of an unknown name adds to the kinds of name it suggests. */
#define SELFMON_EVENT_TABLE_HINT "a name of this core's pmu-events tables (selfmon list), "

/*
 * With @pmu NULL: @name in the tables of the default core PMU's core, else
 * of another core PMU's (on big.LITTLE and hybrid machines a name only one
 * core type has is that type's event). With @pmu: @ev, named from the
 * tables, looked up again (by its name, @name unused) in the tables of
 * @pmu's core, as a big.LITTLE cluster has its own.
 * Found, @ev is on that PMU (its type, the configs cleared, hardware and
 * table_named) and @terms holds the encoding; the modifiers are not touched.
 * Return: 0, -ENOENT (not a table name: always without tables; with @pmu
 * also a message), -ENODEV (a table name but no core PMU to count it) or
 * -errno; selfmon_errmsg() says why.
 */
int selfmon_event_table__find(struct selfmon_event *ev, const char *name,
			      const struct selfmon_pmus *pmus, const struct selfmon_pmu *pmu,
			      char *terms, size_t size);

/* Whether @ev was named from the tables (a cluster of another core looks it up again). */
static inline bool selfmon_event_table__named(const struct selfmon_event *ev)
{
	return ev->table_named;
}

/*
 * Offer @near the table names of each core type (CPU 0's core where there
 * is no core PMU), for the refusal of an unknown name.
 */
void selfmon_event_table__offer(const struct selfmon_pmus *pmus, struct selfmon_closest *near);
#else
#include "event_table_none.h"
#endif

#endif
