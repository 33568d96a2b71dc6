/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_LIBPERF_H
#define SELFMON_CORE_LIBPERF_H

/*
 * The one place where libperf's API differs between the kernel sources
 * selfmon builds against (LINUX_SRC, docs/building.md). What the libperf
 * at hand offers is found by scripts/check-libperf.sh when it is built and
 * lands in <generated/libperf.h>; the rest of core/ calls the names here.
 */
#include <perf/cpumap.h>

#include <generated/libperf.h>

/*
 * A map of the one "any CPU" entry (-1): the event follows its thread
 * (perf_event_open(2), "pid == 0 and cpu == -1"). Its name changed in
 * Linux 6.8 (perf_cpu_map__dummy_new() became perf_cpu_map__new_any_cpu()).
 */
static inline struct perf_cpu_map *selfmon_libperf__cpu_map_any(void)
{
	return SELFMON_LIBPERF_CPU_MAP_ANY();
}

#endif
