// SPDX-License-Identifier: MIT
/*
 * Why a counter whose gates were open at open time was read by read(2) at
 * this moment: the page withheld rdpmc (perf_event_open(2), "MMAP layout",
 * cap_user_rdpmc), the thread ran off the pinned cluster, or the event was
 * not on a counter (index 0). The counter's and the group's read both ask.
 */
#include <sched.h>

#include <selfmon/read.h>
#include "refusal.h"

enum selfmon_reason selfmon_refusal__why(const struct selfmon_set *set,
					 const struct selfmon_counter *c)
{
	int cpu;

	if (!(c->page->capabilities & SELFMON_CAP_USER_RDPMC))
		return SELFMON_REASON_CAP;
	cpu = set->pinned ? selfmon_pin__cpu() : -1;
	if (cpu >= 0 && !CPU_ISSET(cpu, &set->cluster))
		return SELFMON_REASON_OFF_CLUSTER;
	return SELFMON_REASON_INDEX;
}
