/* SPDX-License-Identifier: MIT */
/*
 * The bench driver inside the library: struct selfmon_bench, which
 * bench.c opens and closes and bench_run.c runs, and the limits and side
 * events both read.
 */
#ifndef SELFMON_BENCH_BENCH_INT_H
#define SELFMON_BENCH_BENCH_INT_H

#include <stdint.h>

#include <selfmon/bench.h>
#include <selfmon/machine.h>
#include <selfmon/selfmon.h>

/*
 * The driver is part of libselfmon and stands on its public API only. Its
 * failures are the library's, so they go where every other failure goes:
 * selfmon_errmsg(), through the public selfmon_errmsg__set(), which a
 * harness of the user's own may call the same way.
 */
#define selfmon__err selfmon_errmsg__set

/* A min_time that the repetitions cannot reach stops here. */
#define MAX_REPETITIONS 100000

/* Side events: read around a region, never inside it. */
#define SIDE_EVENTS "task-clock,context-switches,cpu-migrations"
enum { SIDE_TASK_CLOCK, SIDE_SWITCHES, SIDE_MIGRATIONS, SIDE_NR };

struct selfmon_bench {
	struct selfmon_set *set; /* the region's events; NULL when none opened */
	struct selfmon_set *side; /* SIDE_EVENTS; NULL when they did not open */
	/* Read once: every set the driver opens reuses it rather than scanning sysfs again. */
	struct selfmon_machine *machine;
	struct selfmon_pages pages;
	int repetitions, warmup, calibration, keep_noisy;
	double min_time, rep_time;
	uint64_t iterations;
	char note[1024];
};

#endif /* SELFMON_BENCH_BENCH_INT_H */
