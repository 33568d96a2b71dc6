/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_SET_H
#define SELFMON_CORE_SET_H

#include <stdbool.h>
#include <stdint.h>
#include <selfmon/selfmon.h>

#include "cpulist.h"
#include "event.h"
#include "topology.h"

struct perf_evsel;
struct perf_thread_map;

struct selfmon_counter {
	struct selfmon_event ev;
	struct perf_evsel *evsel;
	/*
	 * Unpinned on a heterogeneous machine: the same event on each other core
	 * PMU, summed into this counter (a thread counts on whichever core type
	 * it runs), all by read(2).
	 */
	struct perf_evsel *more[SELFMON_MAX_CLUSTERS - 1];
	int nr_more;
	/* The page, when user reads are wanted and the arch has them. */
	const struct perf_event_mmap_page *page;
	/* Why reads take read(2) whatever the page says; NONE if the page decides. */
	enum selfmon_reason reason;
	unsigned int notes;		/* SELFMON_NOTE_* */
	struct selfmon_count base;	/* subtracted from reads: selfmon_set__reset() */
	int64_t fallbacks;
};

struct selfmon_set {
	int nr;
	bool enabled;
	/* Owner checks: the thread that opened it, in the process that opened it. */
	const void *owner;
	unsigned int fork_gen;
	/* Pinned to one cluster: its PMU and the CPUs the thread may use. */
	char pmu[64];
	cpu_set_t cpus;
	/* All the CPUs of that PMU: off them its counters are not live. */
	cpu_set_t cluster;
	/* The affinity before pinning, given back on close. */
	bool restore_affinity;
	cpu_set_t saved_affinity;
	struct perf_thread_map *threads;
	struct selfmon_counter ctr[];
};


#endif
