/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_METRIC_API_H
#define SELFMON_CORE_METRIC_API_H

/*
 * The metrics of <selfmon/metric.h> as resolved (metric_api.c), and where
 * each reads its events: its own group, or the caller's events
 * (metric_share.c).
 */
#include <stdbool.h>

#include <selfmon/metric.h>
#include "metric_int.h"
#include "pmu.h"

#define MAX_METRICS 64
#define MAX_MEVENTS 12

struct one {
	const struct selfmon_pe_metric *pm;
	char why[200];
	int nr_ev;
	char ev[MAX_MEVENTS][SELFMON_EVENT_NAME_MAX]; /* as opened, modifiers included */
	/*
	 * Counted by the caller's events (selfmon_metrics__share()): ev[e] is
	 * read from the column named col[e], and the metric opens no group of
	 * its own.
	 */
	bool shared;
	char col[MAX_MEVENTS][SELFMON_EVENT_NAME_MAX];
	/*
	 * Not shared, and every event of it in the group of an earlier metric
	 * (1 + its index; 0: none): ev[e] is read there, as event ride_at[e]
	 * of that group, and the metric opens no group of its own
	 * (selfmon_metrics__list_events(): "ipc,cpi" opens one group).
	 */
	int ride;
	int ride_at[MAX_MEVENTS];
};

struct selfmon_metrics {
	const struct selfmon_pe_table *t;
	struct selfmon_pe_ident id;
	struct selfmon_pmus pmus;
	const struct selfmon_pmu *pmu; /* the core PMU of the CPU */
	char mods[16];
	int nr;
	struct one m[MAX_METRICS];
	char events[MAX_METRICS * 64];
	/* add_columns(): the repetition and the columns of the metric being computed */
	const struct selfmon_bench_result *res;
	int rep, col[MAX_MEVENTS];
	const struct one *cur;
};

/* The events to open for the metrics that are available and not shared: one group each. */
void selfmon_metrics__list_events(struct selfmon_metrics *m);

#endif
