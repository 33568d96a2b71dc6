/* SPDX-License-Identifier: MIT */
/*
 * The sampler inside the library: struct selfmon_sampler, which sampler.c
 * opens, maps, enables and signals, and sampler_drain.c drains.
 */
#ifndef SELFMON_SAMPLE_SAMPLER_H
#define SELFMON_SAMPLE_SAMPLER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <generated/autoconf.h>
#include <selfmon/sampler.h>
#include "../core/event.h"
#include "../core/owner.h"
#include "record.h"
#include "ring.h"


struct sampler_event {
	struct selfmon_event ev;
	int fd;
	int leader; /* index of its group's leader, itself for a leader, -1 alone */
	uint64_t id; /* PERF_EVENT_IOC_ID */
};

struct selfmon_sampler {
	int nr;
	int ring_fd; /* the first sampling event: the one mapped */
	struct sampler_event evs[CONFIG_MAX_EVENTS];
	void *map;
	size_t map_len;
	struct selfmon_record_layout layout;
	struct selfmon_sample_plan plan; /* the drain's fast path for its SAMPLEs */
	struct selfmon_sampler_stats stats;
	/* planned SAMPLEs a drain took and has not yet added to stats.records and .samples */
	uint64_t planned;
	struct selfmon_owner owner;
	bool attached; /* selfmon_sampler__attach(): the mapping is the caller's */
	/* Set while a drain runs: a signal handler's drain on this thread backs off. */
	volatile sig_atomic_t in_drain;
	struct selfmon_ring ring; /* last: it holds a 64 KiB copy buffer */
};

#endif /* SELFMON_SAMPLE_SAMPLER_H */
