// SPDX-License-Identifier: MIT
/*
 * <selfmon/metric.h> of a library built with CONFIG_PMU_EVENTS_NONE: no
 * tables, and each call says so (selfmon_metrics__split() works on any
 * build: metric_split.c). Chosen instead of metric*.c when CONFIG_PMU_EVENTS
 * is off (core/objs.mk).
 */
#include <errno.h>

#include <selfmon/metric.h>
#include "error.h"

static int none(void)
{
	return selfmon__err(-EOPNOTSUPP,
			    "selfmon was built without metrics (CONFIG_PMU_EVENTS_NONE): "
			    "rebuild with a Kconfig selection of cores (docs/metrics.md)");
}

struct selfmon_metrics *selfmon_metrics__new(const char *names, int cpu, const char *mods)
{
	(void)names;
	(void)cpu;
	(void)mods;
	errno = -none();
	return NULL;
}

void selfmon_metrics__delete(struct selfmon_metrics *m)
{
	(void)m;
}

const char *selfmon_metrics__core(const struct selfmon_metrics *m, int *fallback)
{
	(void)m;
	(void)fallback;
	return NULL;
}

const char *selfmon_metrics__events(const struct selfmon_metrics *m)
{
	(void)m;
	return "";
}

int selfmon_metrics__nr(const struct selfmon_metrics *m)
{
	(void)m;
	return 0;
}

const char *selfmon_metrics__name(const struct selfmon_metrics *m, int i)
{
	(void)m;
	(void)i;
	return NULL;
}

const char *selfmon_metrics__unit(const struct selfmon_metrics *m, int i)
{
	(void)m;
	(void)i;
	return NULL;
}

const char *selfmon_metrics__why(const struct selfmon_metrics *m, int i)
{
	(void)m;
	(void)i;
	return NULL;
}

int selfmon_metrics__share(struct selfmon_metrics *m, const char *events)
{
	(void)m;
	(void)events;
	return none();
}

int selfmon_metrics__add_columns(struct selfmon_metrics *m, struct selfmon_bench_result *res)
{
	(void)m;
	(void)res;
	return none();
}

const char *selfmon_pmu_events__core(int cpu, int *fallback)
{
	(void)cpu;
	(void)fallback;
	errno = -none();
	return NULL;
}

int selfmon_pmu_events__part(int cpu, char *buf, size_t size)
{
	(void)cpu;
	if (buf && size)
		buf[0] = '\0';
	return none();
}

int selfmon_pmu_events__get(int cpu, int idx, struct selfmon_pmu_event_info *info)
{
	(void)cpu;
	(void)idx;
	(void)info;
	return none();
}
