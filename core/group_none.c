// SPDX-License-Identifier: MIT
/*
 * group.h of a library built without CONFIG_GROUPS: a "{...}" of an event
 * list is refused when its first member would join, with nothing left
 * open. Chosen instead of group.c when CONFIG_GROUPS is off (core/objs.mk):
 * a static program then links no libperf evlist, whose CPU map reading
 * would bring the C library's scanf (Kconfig, GROUPS).
 */
#include <errno.h>

#include <perf/evsel.h>

#include "error.h"
#include "group.h"

int selfmon_group__link(struct selfmon_set *set, int idx)
{
	struct selfmon_counter *c = &set->ctr[idx];

	/* In no list: nothing else would delete it (selfmon_counter__close). */
	perf_evsel__delete(c->evsel);
	c->evsel = NULL;
	return selfmon__err(-EOPNOTSUPP,
			    "event '%s' is in a group '{...}', and this selfmon was built "
			    "without groups (CONFIG_GROUPS off, as arm64_min_defconfig has it): "
			    "list the events without braces, each read on its own, or rebuild "
			    "with CONFIG_GROUPS=y",
			    c->ev.name);
}

int selfmon_group__read(struct selfmon_set *set, int leader, struct selfmon_count *counts)
{
	(void)counts;
	return selfmon__err(-EOPNOTSUPP, "group of '%s': built without groups (CONFIG_GROUPS off)",
			    set->ctr[leader].ev.name);
}

void selfmon_group__close(struct selfmon_counter *leader)
{
	leader->evlist = NULL;
}
