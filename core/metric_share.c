// SPDX-License-Identifier: MIT
/*
 * selfmon_metrics__share(): a metric whose events the caller counts already
 * reads them from the caller's columns instead of opening them again. The
 * same event twice takes two of the PMU's few counters, and a marker pair
 * reads every counter it opens.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <selfmon/metric.h>
#include "error.h"
#include "event.h"
#include "list.h"
#include "metric_api.h"
#include "fmt.h"

#define MAX_SPECS 64

/* The caller's events, parsed for the metrics' core. */
struct caller {
	int nr, groups; /* groups: how many "{...}" the list has */
	struct selfmon_spec spec[MAX_SPECS];
	struct selfmon_event ev[MAX_SPECS];
	bool usable[MAX_SPECS]; /* parsed, and its name is its column's alone */
};

static int load(struct selfmon_metrics *m, struct caller *c, const char *events)
{
	c->nr = selfmon_list__split(events, c->spec, MAX_SPECS);
	if (c->nr < 0)
		return c->nr;
	for (int i = 0; i < c->nr; i++) {
		c->usable[i] = !selfmon_event__parse_mods(c->spec[i].name, c->spec[i].mods,
							  &m->pmus, &c->ev[i]);
		/* Two of one name: which column is which cannot be told by name. */
		for (int j = 0; j < c->nr; j++)
			if (j != i && !strcmp(c->spec[i].name, c->spec[j].name))
				c->usable[i] = false;
		if (c->spec[i].group >= c->groups)
			c->groups = c->spec[i].group + 1;
	}
	return 0;
}

/* The event of group @g of @c (of the whole list when -1) that counts @ev; -1: none. */
static int find(const struct selfmon_metrics *m, const struct caller *c, int g,
		const struct selfmon_event *ev)
{
	/* Intel's tables name fixed counters by a pseudo-encoding (event_same.c). */
	bool intel = !strncmp(m->id.id, "GenuineIntel", 12);

	for (int i = 0; i < c->nr; i++)
		if (c->usable[i] && (g < 0 || c->spec[i].group == g) &&
		    selfmon_event__same_counter(&c->ev[i], ev, &m->pmus, m->pmu, intel))
			return i;
	return -1;
}

/* Whether group @g of @c (the whole list when -1) counts every event of @o; if so, @o reads them there. */
static bool covers(const struct selfmon_metrics *m, const struct caller *c, int g, struct one *o)
{
	struct selfmon_event ev;
	int at[MAX_MEVENTS];

	for (int e = 0; e < o->nr_ev; e++) {
		if (selfmon_event__parse(o->ev[e], &m->pmus, &ev))
			return false;
		at[e] = find(m, c, g, &ev);
		if (at[e] < 0)
			return false;
	}
	for (int e = 0; e < o->nr_ev; e++)
		selfmon_fmt__print(o->col[e], sizeof(o->col[e]), "%s", c->spec[at[e]].name);
	return o->shared = true;
}

int selfmon_metrics__share(struct selfmon_metrics *m, const char *events)
{
	struct caller *c;
	int shared = 0, err;

	if (!m || !events)
		return selfmon__err(-EINVAL, "metrics: no events to share");
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (int i = 0; i < m->nr; i++)
		m->m[i].shared = false;
	err = load(m, c, events);
	for (int i = 0; !err && i < m->nr; i++) {
		struct one *o = &m->m[i];

		if (!o->nr_ev)
			continue;
		/* A ratio from one instant: all its events in one group, when the list has groups. */
		for (int g = c->groups ? 0 : -1; g < c->groups && !covers(m, c, g, o); g++)
			;
		shared += o->shared;
	}
	free(c);
	selfmon_metrics__list_events(m);
	return err ? err : shared;
}
