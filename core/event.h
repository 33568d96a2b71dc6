/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_EVENT_H
#define SELFMON_CORE_EVENT_H

#include <stdbool.h>
#include <linux/perf_event.h>

#include <selfmon/selfmon.h>
#include "pmu.h"

/* An event string resolved to the attr the kernel wants. */
struct selfmon_event {
	struct perf_event_attr attr;
	char name[SELFMON_EVENT_NAME_MAX];
	/* The PMU whose counters hold it; NULL for software events or no PMU. */
	const struct selfmon_pmu *pmu;
	/* Counted in a PMU register (as opposed to by the kernel in software). */
	bool hardware;
	/* Written "pmu/.../": that PMU's own event, whatever its type number. */
	bool pmu_named;
	/* The privilege levels were chosen (":u", ":k", ":h"): never changed behind the caller's back. */
	bool levels_given;
	/* A name from the core's pmu-events tables ("INST_RETIRED", "L1D_CACHE_REFILL"): each cluster looks it up in its own. */
	bool table_named;
};

/*
 * Parse one event: "cycles", "task-clock", "r11", "pmu/alias/",
 * "pmu/event=0x11,term=v/", each with optional ":ukhHGDe" modifiers (for PMU
 * events also straight after the last '/').
 * Return: 0, -SELFMON_ERRNO__SYNTAX, -SELFMON_ERRNO__NOEVENT (unknown name, PMU,
 * alias or term)
 * or -ERANGE (value too wide); selfmon_errmsg() names the culprit.
 */
int selfmon_event__parse(const char *spec, const struct selfmon_pmus *pmus,
			 struct selfmon_event *ev);

/* The same, with a group's modifiers @extra after the event's own (see list.h). */
int selfmon_event__parse_mods(const char *spec, const char *extra, const struct selfmon_pmus *pmus,
			      struct selfmon_event *ev);

/*
 * Re-express a generic hardware or raw event for one core PMU, as a pinned
 * thread must open it (arm64 perf document, "About heterogeneous systems"):
 * its own type, with the generic event taken from the PMU's events/ aliases
 * (the ones the kernel's generic map names), or on x86 hybrid the extended
 * type in config's upper half. Software events are left alone.
 * Return: 0, -ENOENT (the PMU does not offer the event) or -EINVAL (the
 * event belongs to another PMU).
 */
int selfmon_event__for_pmu(struct selfmon_event *ev, const struct selfmon_pmus *pmus,
			   const struct selfmon_pmu *pmu);

/*
 * Re-express @ev as alias @alias of @pmu's events/ directory ("inst_retired",
 * on x86 "instructions"): @pmu's type, the alias's terms; the modifiers stay.
 * Return: 0, -ENOENT (no such alias) or the errors of its terms.
 */
int selfmon_event__apply_alias(struct selfmon_event *ev, const struct selfmon_pmus *pmus,
			       const struct selfmon_pmu *pmu, const char *alias);

/*
 * Whether @a and @b count the same thing on core PMU @pmu: both resolved for
 * it (selfmon_event__for_pmu(), and on x86 a generic event through the
 * PMU's events/ alias of the same name) to one type and config (config1,
 * config2), at the same privilege levels. @intel: an Intel core, whose
 * tables name fixed counters 0 and 1 by a pseudo-encoding. Software events
 * match by type and config. Anything that cannot be resolved is not the same.
 */
bool selfmon_event__same_counter(const struct selfmon_event *a, const struct selfmon_event *b,
				 const struct selfmon_pmus *pmus, const struct selfmon_pmu *pmu,
				 bool intel);

/* The generic event names selfmon knows, for probe; NULL-terminated. */
extern const char *const selfmon_event__standard[];

#endif
