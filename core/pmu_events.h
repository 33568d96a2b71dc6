/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_PMU_EVENTS_H
#define SELFMON_CORE_PMU_EVENTS_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The kernel's pmu-events tables (tools/perf/pmu-events/arch/<arch>/) as
 * scripts/pmu-events.py compiles them: a string pool and arrays of offsets
 * into it. Every string field is an offset into the table's pool, except
 * descriptions, in dpool (0: none, when built without them).
 */
struct selfmon_pe_event {
	uint32_t name;
	uint32_t enc; /* the PMU's terms: "event=0x11", "event=0xc0,umask=0x1" */
	uint32_t pmu; /* x86 hybrid: "cpu_core" or "cpu_atom"; "" any core PMU */
	uint32_t desc;
};

struct selfmon_pe_metric {
	uint32_t name;
	uint32_t expr; /* perf's metric expression language */
	uint32_t groups; /* "TopdownL1;Default", ';'-separated */
	uint32_t unit; /* ScaleUnit: "1percent of slots", "100%" */
	uint32_t desc;
	uint32_t pmu;
};

/* One folder of mapfile.csv: its events and metrics, by index. */
struct selfmon_pe_core {
	uint32_t name; /* "arm/cortex-a53", "amdzen3" */
	uint32_t ev_first, nr_ev; /* into ev_idx[] */
	uint32_t m_first, nr_m; /* into m_idx[] */
};

/* A mapfile.csv rule: arm64 a MIDR ("0x00000000410fd030"), x86 a regex. */
struct selfmon_pe_map {
	uint32_t match;
	uint32_t core;
};

struct selfmon_pe_table {
	const char *arch; /* "arm64", "x86" */
	const char *pool, *dpool;
	const struct selfmon_pe_event *events;
	int nr_events;
	const struct selfmon_pe_metric *metrics;
	int nr_metrics;
	const uint32_t *ev_idx, *m_idx;
	const struct selfmon_pe_core *cores;
	int nr_cores;
	const struct selfmon_pe_map *maps;
	int nr_maps;
	/* The architecture's common set (arm64: sbsa's), for an unlisted core; -1 none. */
	int common;
	/*
	 * The arch's rules, named by the generated table so that a program links
	 * only its own (x86's needs regcomp): does the part @id match mapfile
	 * rule @rule; is @id the part @want names, at its version or later.
	 */
	bool (*matches)(const char *rule, const char *id);
	int (*at_least)(const char *id, const char *want);
};

bool selfmon_pe__midr_matches(const char *rule, const char *id);
int selfmon_pe__midr_at_least(const char *id, const char *want);
bool selfmon_pe__cpuid_matches(const char *rule, const char *id);
int selfmon_pe__cpuid_at_least_x86(const char *id, const char *want);

/* The tables Kconfig selected (CONFIG_PMU_EVENTS). */
extern const struct selfmon_pe_table selfmon_pe__table;

#endif
