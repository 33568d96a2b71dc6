/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_METRIC_H
#define SELFMON_CORE_METRIC_H

#include <stdbool.h>
#include <stddef.h>

#include "pmu_events_find.h"

/* How deep metrics may name other metrics (tma_* trees go about 6 deep). */
#define SELFMON_METRIC_MAX_NEST 12

/*
 * A metric evaluated on one core. The caller supplies counts and literals;
 * names are resolved here: another metric of the core, else an event of its
 * table (or of the common set), else a generic name the caller may know
 * ("cycles", "duration_time": @ev NULL).
 */
struct selfmon_metric_ctx {
	const struct selfmon_pe_table *t;
	int core;
	const char *cpuid; /* the part, for strcmp_cpuid_str() */
	const char *pmu; /* x86 hybrid: "cpu_core" / "cpu_atom"; NULL otherwise */
	/*
	 * The count of an event: @ev from the table (NULL: not in it), @name
	 * as selfmon's event parser takes it after the table name ("EVENT",
	 * "EVENT,cmask=1:k", "cycles", "topdown-retiring", "duration_time").
	 * -errno with @why when it is not counted.
	 */
	int (*count)(void *arg, const struct selfmon_pe_event *ev, const char *name, double *v,
		     char *why, size_t why_size);
	/* #slots, #smt_on, ... (the name without '#'). */
	int (*literal)(void *arg, const char *name, double *v, char *why, size_t why_size);
	void *arg;
};

/*
 * Evaluate @m; with @collect, only ask count() about each event it needs
 * (selfmon_mexpr__eval()). Return: 0, -EINVAL (the expression does not
 * parse), -ELOOP (metrics nest too deep or in a circle), or what count() or
 * literal() returned; @why says which name and why.
 */
int selfmon_metric__eval(const struct selfmon_metric_ctx *ctx, const struct selfmon_pe_metric *m,
			 bool collect, double *v, char *why, size_t why_size);

#endif
