// SPDX-License-Identifier: MIT
/* The events and metrics the tables know for this core. */
#include <stdio.h>
#include <selfmon/metric.h>

int main(void)
{
	struct selfmon_pmu_event_info info;

	for (int i = 0; selfmon_pmu_events__get(-1, i, &info) == 0; i++)
		printf("%-40s %s\n", info.name, info.expr ? info.expr : info.encoding);
	return 0;
}
