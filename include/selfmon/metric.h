/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_METRIC_H
#define SELFMON_METRIC_H

/*
 * Metrics (IPC, miss ratios, stalled cycles, top-down level 1) and named
 * events from the kernel's pmu-events tables, for the core a CPU is
 * (docs/metrics.md). A library built with CONFIG_PMU_EVENTS_NONE has none:
 * every function here then fails with -EOPNOTSUPP and says so.
 */
#include <stddef.h>
#include <stdio.h>

#include <selfmon/bench.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Metrics resolved for one core. Opaque. */
struct selfmon_metrics;

/**
 * selfmon_metrics__new() - the metrics and metric groups @names on the core of CPU @cpu
 * @names: "ipc,TopdownL1" or "@ipc,@TopdownL1": metric or group names
 *         (case-insensitive), comma-separated
 * @cpu: a CPU of the cluster to count on; -1: the one the thread runs on
 * @mods: event modifiers for every event the metrics open ("u"), or NULL
 *
 * A metric whose event, literal or construct this core lacks stays in the
 * list as unavailable, with the reason (selfmon_metrics__why()).
 * Return: the metrics, or NULL with errno set: -ENOENT for a name that is
 * neither a metric nor a group of this core (selfmon_errmsg() names the
 * closest ones), -EOPNOTSUPP without tables.
 */
struct selfmon_metrics *selfmon_metrics__new(const char *names, int cpu, const char *mods);

/**
 * selfmon_metrics__split() - take the metrics out of an event list
 * @list: selfmon's event syntax (selfmon_set__open()), where an item written
 *        "@name" is a metric or a metric group: "instructions:u,@ipc,@TopdownL1"
 * @events: out: the list without its "@" items ("" when nothing is left)
 * @names: out: their names, comma-separated, for selfmon_metrics__new()
 *         ("" when the list has none)
 *
 * Works on any build: a list without "@" items comes back whole.
 * Return: 0, -ENAMETOOLONG (an output too small), or the syntax errors of
 * selfmon_events__next().
 */
int selfmon_metrics__split(const char *list, char *events, size_t events_size, char *names,
			   size_t names_size);

/** selfmon_metrics__delete() - free @m. NULL is fine. */
void selfmon_metrics__delete(struct selfmon_metrics *m);

/**
 * selfmon_metrics__core() - the tables used: "arm/cortex-a53", "amdzen3", or
 * the architecture's common set ("arm64 common (sbsa)", "x86 common
 * (generic)") with *@fallback set when the core has no entry in the
 * kernel's mapfile.csv (@fallback may be NULL)
 */
const char *selfmon_metrics__core(const struct selfmon_metrics *m, int *fallback);

/**
 * selfmon_metrics__events() - the events to open for the available metrics:
 * one group per metric ("{INST_RETIRED:u,CPU_CYCLES:u},{...}"), so that each
 * ratio comes from one instant; "" when none is available, or every one
 * reads the caller's events (selfmon_metrics__share())
 */
const char *selfmon_metrics__events(const struct selfmon_metrics *m);

/**
 * selfmon_metrics__share() - read the metrics' events from @events where they are counted there
 * @events: the caller's own events, opened beside the metrics' (selfmon_set__open()
 *          syntax, groups in braces)
 *
 * A metric whose every event one group of @events counts (or, when @events
 * has no group, the list does) takes its counts from those events' columns
 * and opens nothing of its own: selfmon_metrics__events() leaves it out,
 * and selfmon_metrics__add_columns() reads the columns named as those
 * events are written in @events. An event counts a metric's when both
 * come to the same counter on this core's PMU at the same privilege levels:
 * "instructions:u" is arm64's INST_RETIRED:u and Intel's
 * INST_RETIRED.ANY:u; "instructions" (all levels) is not. The other metrics
 * keep a group each. Each call replaces the previous one's sharing.
 * Return: how many metrics share, or -errno (the syntax errors of
 * selfmon_set__open(), -E2BIG: more events than it reads).
 */
int selfmon_metrics__share(struct selfmon_metrics *m, const char *events);

/** selfmon_metrics__nr() - how many metrics @names gave. */
int selfmon_metrics__nr(const struct selfmon_metrics *m);

/** selfmon_metrics__name() - metric @i's name, or NULL. */
const char *selfmon_metrics__name(const struct selfmon_metrics *m, int i);

/** selfmon_metrics__unit() - metric @i's unit as the tables give it ("1percent of slots"; "" none). */
const char *selfmon_metrics__unit(const struct selfmon_metrics *m, int i);

/** selfmon_metrics__why() - why metric @i is unavailable on this core, or "" when it is available. */
const char *selfmon_metrics__why(const struct selfmon_metrics *m, int i);

/**
 * selfmon_metrics__add_columns() - add a column per available metric to @res
 *
 * @res must come from a driver opened with selfmon_metrics__events() among
 * its events (and the events shared, if any). Each repetition's metric is
 * computed from that repetition's counts of the metric's own group (or of
 * the caller's columns it shares), and summarized as the other columns
 * are (unit: the metric's, "" for a ratio). A metric whose group did not
 * open gets no column, and its why says so.
 * Return: the number of columns added, or -errno (-E2BIG: no room left).
 */
int selfmon_metrics__add_columns(struct selfmon_metrics *m, struct selfmon_bench_result *res);

/** One event or metric of a core's tables (selfmon_pmu_events__get()). */
struct selfmon_pmu_event_info {
	const char *name; /**< the event's or metric's name */
	const char *desc; /**< one line; "" when built without descriptions */
	const char *encoding; /**< an event's PMU terms; NULL for a metric */
	const char *expr; /**< a metric's formula; NULL for an event */
	const char *groups; /**< a metric's groups, ';'-separated */
	const char *unit; /**< a metric's scale unit */
	const char *pmu; /**< x86 hybrid: "cpu_core" / "cpu_atom"; "" otherwise */
};

/**
 * selfmon_pmu_events__core() - the tables of CPU @cpu's core: their name
 * ("arm/cortex-a72"), with *@fallback set to 1 when the core has no rule in
 * mapfile.csv and the architecture's common set serves it (@fallback may be NULL)
 * Return: the name, or NULL with errno set (-EOPNOTSUPP: built without tables).
 */
const char *selfmon_pmu_events__core(int cpu, int *fallback);

/**
 * selfmon_pmu_events__part() - the part id of CPU @cpu as the tables' rules
 * match it (x86 "GenuineIntel-6-5E-3" from /proc/cpuinfo, arm64 MIDR_EL1
 * "0x00000000410fd083"), into @buf of @size bytes
 * Return: 0, or -errno: why it cannot be read (-EOPNOTSUPP: built without
 * tables, or an architecture they do not cover).
 */
int selfmon_pmu_events__part(int cpu, char *buf, size_t size);

/**
 * selfmon_pmu_events__get() - entry @idx of the tables of CPU @cpu's core:
 * its events first, then its metrics (on arm64 the common set's events
 * after the core's own)
 * Return: 0, -ENOENT past the last, -EOPNOTSUPP without tables, or -errno
 * when the core cannot be told.
 */
int selfmon_pmu_events__get(int cpu, int idx, struct selfmon_pmu_event_info *info);

#ifdef __cplusplus
}
#endif

#endif
