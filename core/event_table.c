// SPDX-License-Identifier: MIT
/*
 * Event names of the core's pmu-events tables (event_table.h), for the
 * event parser: built with CONFIG_PMU_EVENTS (core/objs.mk).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "arch_int.h"
#include "closest.h"
#include "error.h"
#include "event_table.h"
#include "pmu_events_find.h"
#include "fmt.h"

/* The first CPU of core PMU @pmu (CPU 0 for NULL, or for a PMU with no cpus file). */
static int first_cpu(const struct selfmon_pmu *pmu)
{
	int cpu = 0;

	while (pmu && pmu->has_cpus && cpu < CPU_SETSIZE - 1 && !CPU_ISSET(cpu, &pmu->cpus))
		cpu++;
	return cpu;
}

/*
 * @name in the pmu-events tables of the core @pmu's CPUs are (the first of
 * them: a core PMU counts one core type): selfmon_event_table__find() for
 * one PMU. Return: 0, -ENOENT (not a table name there) or -errno.
 */
static int table_event(const char *name, const struct selfmon_pmus *pmus,
		       const struct selfmon_pmu *pmu, struct selfmon_event *ev, char *terms,
		       size_t size)
{
	const struct selfmon_pe_table *t = &selfmon_pe__table;
	const struct selfmon_pe_event *e;
	struct selfmon_pe_ident id;

	if (selfmon_pe__core_of_cpu(t, selfmon_arch__host(), pmus->root, first_cpu(pmu), &id))
		return -ENOENT;
	/* x86 hybrid: the event of this unit (cpu_core, cpu_atom), not the other's. */
	e = selfmon_pe__event(t, id.core, name,
			      pmu && !strncmp(pmu->name, "cpu_", 4) ? pmu->name : NULL);
	if (!e)
		return -ENOENT;
	/* A name of the tables, but nothing to count it with: the machine's lack, not a typo. */
	if (!pmu)
		return selfmon__err(
			-ENODEV,
			"event '%s' (%s's pmu-events tables) needs a core PMU, and "
			"/sys/bus/event_source/devices has none (a VM without a virtual PMU?)",
			name, selfmon_pe__str(t, t->cores[id.core].name));
	selfmon_fmt__print(terms, size, "%s", selfmon_pe__str(t, e->enc));
	ev->pmu = pmu;
	ev->attr.type = pmu->type;
	ev->attr.config = ev->attr.config1 = ev->attr.config2 = 0;
	ev->hardware = true;
	ev->table_named = true;
	return 0;
}

/* The default core PMU's tables, then another core PMU's. */
static int any_core(const char *name, const struct selfmon_pmus *pmus, struct selfmon_event *ev,
		    char *terms, size_t size)
{
	const struct selfmon_pmu *def = selfmon_pmus__default_core(pmus);
	int err = table_event(name, pmus, def, ev, terms, size);

	for (int i = 0; err == -ENOENT && i < pmus->nr; i++)
		if (pmus->pmu[i].core && &pmus->pmu[i] != def)
			err = table_event(name, pmus, &pmus->pmu[i], ev, terms, size);
	return err;
}

int selfmon_event_table__find(struct selfmon_event *ev, const char *name,
			      const struct selfmon_pmus *pmus, const struct selfmon_pmu *pmu,
			      char *terms, size_t size)
{
	char own[SELFMON_EVENT_NAME_MAX];
	int err;

	if (!pmu)
		return any_core(name, pmus, ev, terms, size);
	selfmon_fmt__print(own, sizeof(own), "%s", ev->name);
	own[strcspn(own, ":")] = '\0';
	/* The modifiers stay as parsed: the lookup and the terms set the type and configs only. */
	err = table_event(own, pmus, pmu, ev, terms, size);
	if (err == -ENOENT)
		return selfmon__err(
			-ENOENT,
			"event '%s': not in the pmu-events tables of the '%s' CPUs' core "
			"(selfmon list shows theirs)",
			ev->name, pmu->name);
	return err;
}

void selfmon_event_table__offer(const struct selfmon_pmus *pmus, struct selfmon_closest *near)
{
	/* Each core type's tables; CPU 0's core where no core PMU is there. */
	for (int i = 0; i <= pmus->nr; i++) {
		const struct selfmon_pmu *pmu = i < pmus->nr ? &pmus->pmu[i] : NULL;
		struct selfmon_pe_ident id;

		if (pmu ? !pmu->core : selfmon_pmus__default_core(pmus) != NULL)
			continue;
		if (!selfmon_pe__core_of_cpu(&selfmon_pe__table, selfmon_arch__host(), pmus->root,
					     first_cpu(pmu), &id))
			selfmon_pe__offer_events(&selfmon_pe__table, id.core, near);
	}
}
