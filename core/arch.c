// SPDX-License-Identifier: MIT
/*
 * What an arch without a hook of its own puts in struct selfmon_arch
 * (core/arch_int.h): written once here, not in each arch/<arch>/gate.c.
 */
#include "arch_int.h"

bool selfmon_arch__no_retry(struct selfmon_event *ev, int err, unsigned int *notes)
{
	(void)ev;
	(void)err;
	(void)notes;
	return false;
}

bool selfmon_arch__no_raw_instructions(const char *root, const struct perf_event_attr *attr)
{
	(void)root;
	(void)attr;
	return false;
}

/*
 * A raw number means something only to the PMU that defines it: PERF_TYPE_RAW
 * goes to the default core PMU (perf_event_open(2), "type"), a "pmu/.../"
 * event to its own. An uncore or software PMU's number is another table.
 */
static bool on_core_pmu(const struct selfmon_event *ev)
{
	if (ev->attr.type == PERF_TYPE_RAW)
		return true;
	return ev->pmu && ev->pmu->core && ev->attr.type == ev->pmu->type;
}

bool selfmon_arch__counts_instructions(const struct selfmon_arch *arch, const char *root,
				       const struct selfmon_event *ev)
{
	/* The upper half of config names the PMU on hybrid machines (PERF_PMU_TYPE_SHIFT). */
	if (ev->attr.type == PERF_TYPE_HARDWARE)
		return (ev->attr.config & 0xffffffffu) == PERF_COUNT_HW_INSTRUCTIONS;
	return on_core_pmu(ev) && arch->raw_instructions(root, &ev->attr);
}
