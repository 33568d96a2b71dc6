/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_PMU_H
#define SELFMON_CORE_PMU_H

#include <stdbool.h>
#include <stdint.h>

#include "cpulist.h"
#include "format.h"

#define SELFMON_PMU_MAX_FORMATS 32

/* A PMU as /sys/bus/event_source/devices/<name>/ describes it. */
struct selfmon_pmu {
	char name[64];
	uint32_t type;
	/* A CPU PMU: counts what the thread executes (x86 cpu*, arm core PMUs). */
	bool core;
	/* Its 'cpus' (or 'cpumask') file existed; else it covers every CPU. */
	bool has_cpus;
	cpu_set_t cpus;
	/* x86 'rdpmc' attribute: 0 off, 1 mmapped events, 2 any; -1 no file. */
	int rdpmc;
	int nr_formats;
	struct selfmon_format formats[SELFMON_PMU_MAX_FORMATS];
};

struct selfmon_pmus {
	const char *root; /* as selfmon_root__get() returned it */
	int nr;
	struct selfmon_pmu *pmu; /* sorted by type */
	/* What was left out and why, a line each (selfmon_pmus__notes()). */
	char notes[2048];
};

/* Discover the PMUs under @root. Return: 0 or -errno (none found is not an error). */
int selfmon_pmus__load(struct selfmon_pmus *pmus, const char *root);
void selfmon_pmus__free(struct selfmon_pmus *pmus);

/*
 * What the last load left out and why, for probe: one line per PMU (or
 * format term) whose sysfs files are unreadable or wrong: a 'type' that is
 * not a number, a 'cpus'/'cpumask' that is not a CPU list, is empty or names
 * CPUs beyond 'possible'; such a PMU is not in the list at all, so it can
 * neither be opened nor change another PMU's cluster. "" when nothing was.
 */
const char *selfmon_pmus__notes(const struct selfmon_pmus *pmus);

const struct selfmon_pmu *selfmon_pmus__find(const struct selfmon_pmus *pmus, const char *name);
const struct selfmon_pmu *selfmon_pmus__by_type(const struct selfmon_pmus *pmus, uint32_t type);

/*
 * The core PMU that generic PERF_TYPE_HARDWARE / PERF_TYPE_RAW events land
 * on: x86 "cpu" (or "cpu_core" on hybrid), else the core PMU with the lowest
 * type, the first registered (which is where a 6.1 arm64 kernel sends them
 * on big.LITTLE, too). NULL: no hardware PMU.
 */
const struct selfmon_pmu *selfmon_pmus__default_core(const struct selfmon_pmus *pmus);

int selfmon_pmus__nr_core(const struct selfmon_pmus *pmus);

const struct selfmon_format *selfmon_pmu__format(const struct selfmon_pmu *pmu, const char *term);

/* Read the alias @alias of @pmu's events/ directory ("event=0x08"). Return: length or -errno. */
int selfmon_pmu__alias(const struct selfmon_pmus *pmus, const struct selfmon_pmu *pmu,
		       const char *alias, char *buf, size_t size);

#endif
