// SPDX-License-Identifier: MIT
/*
 * <selfmon/metric.h>'s listing: the pmu-events tables of a CPU's core, their
 * events and metrics one by one (selfmon list), and the core's name and
 * part id. The metrics resolved and computed: metric_api.c; a build
 * without tables: metric_none.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <selfmon/metric.h>
#include "error.h"
#include "errtext.h"
#include "metric_int.h"
#include "sysfs.h"
#include "fmt.h"

static void info_of_event(const struct selfmon_pe_table *t, const struct selfmon_pe_event *e,
			  struct selfmon_pmu_event_info *info)
{
	memset(info, 0, sizeof(*info));
	info->name = selfmon_pe__str(t, e->name);
	info->desc = selfmon_pe__desc(t, e->desc);
	info->encoding = selfmon_pe__str(t, e->enc);
	info->pmu = selfmon_pe__str(t, e->pmu);
}

const char *selfmon_pmu_events__core(int cpu, int *fallback)
{
	const struct selfmon_pe_table *t = &selfmon_pe__table;
	struct selfmon_pe_ident id;
	int err = selfmon_pe__core_of_cpu(t, selfmon_arch__host(), selfmon_root__get(NULL),
					  cpu < 0 ? 0 : cpu, &id);

	if (err) {
		errno = -selfmon__err(err, "CPU %d's core cannot be told: %s", cpu, selfmon_errtext__str(-err));
		return NULL;
	}
	if (fallback)
		*fallback = id.fallback;
	return selfmon_pe__str(t, t->cores[id.core].name);
}

int selfmon_pmu_events__part(int cpu, char *buf, size_t size)
{
	const struct selfmon_pe_table *t = &selfmon_pe__table;
	struct selfmon_pe_ident id;
	int err;

	if (!buf || !size)
		return -EINVAL;
	buf[0] = '\0';
	/* -ENOENT with an id read: no rule and no common set; the id stands. */
	err = selfmon_pe__core_of_cpu(t, selfmon_arch__host(), selfmon_root__get(NULL),
				      cpu < 0 ? 0 : cpu, &id);
	if (err == -ENOENT && id.id[0])
		err = 0;
	if (!err && selfmon_fmt__print(buf, size, "%s", id.id) >= (int)size)
		err = -ENAMETOOLONG;
	return err;
}

int selfmon_pmu_events__get(int cpu, int idx, struct selfmon_pmu_event_info *info)
{
	const struct selfmon_pe_table *t = &selfmon_pe__table;
	const struct selfmon_pe_core *c, *common;
	struct selfmon_pe_ident id;
	int err = selfmon_pe__core_of_cpu(t, selfmon_arch__host(), selfmon_root__get(NULL),
					  cpu < 0 ? 0 : cpu, &id);

	if (err)
		return selfmon__err(err, "CPU %d's core cannot be told: %s", cpu, selfmon_errtext__str(-err));
	c = &t->cores[id.core];
	if (idx < 0)
		return -ENOENT;
	if ((uint32_t)idx < c->nr_ev)
		return info_of_event(t, &t->events[t->ev_idx[c->ev_first + (uint32_t)idx]], info),
		       0;
	idx -= (int)c->nr_ev;
	common = t->common >= 0 && t->common != id.core ? &t->cores[t->common] : NULL;
	if (common && (uint32_t)idx < common->nr_ev)
		return info_of_event(t, &t->events[t->ev_idx[common->ev_first + (uint32_t)idx]],
				     info),
		       0;
	idx -= common ? (int)common->nr_ev : 0;
	{
		const struct selfmon_pe_metric *pm = selfmon_pe__metric_at(t, id.core, idx);

		if (!pm)
			return -ENOENT;
		memset(info, 0, sizeof(*info));
		info->name = selfmon_pe__str(t, pm->name);
		info->desc = selfmon_pe__desc(t, pm->desc);
		info->expr = selfmon_pe__str(t, pm->expr);
		info->groups = selfmon_pe__str(t, pm->groups);
		info->unit = selfmon_pe__str(t, pm->unit);
		info->pmu = selfmon_pe__str(t, pm->pmu);
	}
	return 0;
}
