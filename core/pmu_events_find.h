/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_PMU_EVENTS_FIND_H
#define SELFMON_CORE_PMU_EVENTS_FIND_H

#include <stdbool.h>

#include "arch_int.h"
#include "pmu_events.h"

const char *selfmon_pe__str(const struct selfmon_pe_table *t, uint32_t off);
/* A description ("" when the tables were built without them). */
const char *selfmon_pe__desc(const struct selfmon_pe_table *t, uint32_t off);

/* The core of @t that mapfile.csv's rules give the part @id. Return: its index or -ENOENT. */
int selfmon_pe__match(const struct selfmon_pe_table *t, const char *id);

/* Which core CPU @cpu is. */
struct selfmon_pe_ident {
	char id[64]; /* as the arch spells it (arch.h, cpu_id) */
	int core; /* index in the table; -1: none */
	bool fallback; /* no rule for @id: the architecture's common set */
};

/*
 * Identify CPU @cpu (under @root) with @arch's cpu_id. A part with no rule
 * gets the common set, with @out->fallback. Return: 0, -ENOENT (no rule and
 * no common set), or what cpu_id returned (-EOPNOTSUPP, a sysfs error).
 */
int selfmon_pe__core_of_cpu(const struct selfmon_pe_table *t, const struct selfmon_arch *arch,
			    const char *root, int cpu, struct selfmon_pe_ident *out);

/*
 * The event @name (case-insensitive, as perf) of core @core, else of the
 * common set (arm64); @pmu: an x86 hybrid unit to keep to, or NULL.
 */
const struct selfmon_pe_event *selfmon_pe__event(const struct selfmon_pe_table *t, int core,
						 const char *name, const char *pmu);
struct selfmon_closest;
/* Offer @near each event name of core @core, and (arm64) of the common set. */
void selfmon_pe__offer_events(const struct selfmon_pe_table *t, int core,
			      struct selfmon_closest *near);
const struct selfmon_pe_metric *selfmon_pe__metric(const struct selfmon_pe_table *t, int core,
						   const char *name, const char *pmu);
/* Metric @idx of core @core: its own, then the common set's it does not replace; NULL past the last. */
const struct selfmon_pe_metric *selfmon_pe__metric_at(const struct selfmon_pe_table *t, int core,
						      int idx);
/* Is @m in the metric group @group (case-insensitive)? */
bool selfmon_pe__in_group(const struct selfmon_pe_table *t, const struct selfmon_pe_metric *m,
			  const char *group);

/* strcmp_cpuid_str() of perf's metrics: 1 if the part @id is @want's, at its version or later; else 0. */
int selfmon_pe__cpuid_at_least(const struct selfmon_pe_table *t, const char *id, const char *want);

#endif
