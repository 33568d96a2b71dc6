// SPDX-License-Identifier: MIT
/*
 * Whether two events count the same thing on one core PMU, whatever their
 * spelling: "instructions" and INST_RETIRED on arm64, "cycles" and Intel's
 * CPU_CLK_UNHALTED.THREAD. A metric whose events the caller already counts
 * reads them there instead of opening them twice (metric_share.c).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "event.h"

/*
 * x86's core PMU names the kernel's generic events in its events/
 * directory (arch/x86/events/core.c, the EVENT_ATTR list), each with the
 * encoding the kernel's event map gives it.
 */
static const char *const x86_generic[] = {
	[PERF_COUNT_HW_CPU_CYCLES] = "cpu-cycles",
	[PERF_COUNT_HW_INSTRUCTIONS] = "instructions",
	[PERF_COUNT_HW_CACHE_REFERENCES] = "cache-references",
	[PERF_COUNT_HW_CACHE_MISSES] = "cache-misses",
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS] = "branch-instructions",
	[PERF_COUNT_HW_BRANCH_MISSES] = "branch-misses",
	[PERF_COUNT_HW_BUS_CYCLES] = "bus-cycles",
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND] = "stalled-cycles-frontend",
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND] = "stalled-cycles-backend",
	[PERF_COUNT_HW_REF_CPU_CYCLES] = "ref-cycles",
};

/*
 * Intel's tables name fixed counters 0 and 1 by a pseudo-encoding, event
 * 0x00 with umask 1 (INST_RETIRED.ANY) or 2 (CPU_CLK_UNHALTED.THREAD). They
 * count the architectural events "instructions retired" (event 0xc0) and
 * "unhalted core cycles" (event 0x3c), which sysfs names instructions and
 * cpu-cycles (Intel SDM vol. 3B, "Architectural Performance Monitoring",
 * fixed-function counters).
 */
static void intel_fixed(struct perf_event_attr *a)
{
	if (a->config == 0x0100)
		a->config = 0x00c0;
	else if (a->config == 0x0200)
		a->config = 0x003c;
}

/* @ev as @pmu counts it: its type and config there. Return: 0 or -errno. */
static int on_pmu(const struct selfmon_event *ev, const struct selfmon_pmus *pmus,
		  const struct selfmon_pmu *pmu, bool intel, struct selfmon_event *out)
{
	uint64_t hw;
	int err;

	*out = *ev;
	if (!out->hardware)
		return 0;
	if (!pmu)
		return -ENODEV;
	err = selfmon_event__for_pmu(out, pmus, pmu);
	if (err)
		return err;
	if (out->attr.type == PERF_TYPE_HARDWARE) {
		/* x86 keeps the generic type (hybrid: the PMU in config's upper half). */
		hw = out->attr.config & 0xffffffffu;
		if (hw >= sizeof(x86_generic) / sizeof(x86_generic[0]) || !x86_generic[hw])
			return -ENOENT;
		err = selfmon_event__apply_alias(out, pmus, pmu, x86_generic[hw]);
		if (err)
			return err;
	}
	if (intel)
		intel_fixed(&out->attr);
	return 0;
}

bool selfmon_event__same_counter(const struct selfmon_event *a, const struct selfmon_event *b,
				 const struct selfmon_pmus *pmus, const struct selfmon_pmu *pmu,
				 bool intel)
{
	struct selfmon_event x, y;

	if (on_pmu(a, pmus, pmu, intel, &x) || on_pmu(b, pmus, pmu, intel, &y))
		return false;
	return x.attr.type == y.attr.type && x.attr.config == y.attr.config &&
	       x.attr.config1 == y.attr.config1 && x.attr.config2 == y.attr.config2 &&
	       x.attr.exclude_user == y.attr.exclude_user &&
	       x.attr.exclude_kernel == y.attr.exclude_kernel &&
	       x.attr.exclude_hv == y.attr.exclude_hv &&
	       x.attr.exclude_host == y.attr.exclude_host &&
	       x.attr.exclude_guest == y.attr.exclude_guest;
}
