// SPDX-License-Identifier: MIT
/* The events a list with metrics ("@ipc") opens, and which metrics this core can compute. */
#include <stdio.h>
#include <selfmon/metric.h>

int main(int argc, char **argv)
{
	char events[512], names[256];
	struct selfmon_metrics *m;
	int fallback = 0;

	if (selfmon_metrics__split(argc > 1 ? argv[1] : "instructions:u,@ipc", events,
				   sizeof(events), names, sizeof(names)))
		return 1;
	if (!names[0])
		return 0; /* no metric in the list */
	m = selfmon_metrics__new(names, -1, "u");
	if (!m) {
		fprintf(stderr, "%s\n", selfmon_errmsg());
		return 1;
	}
	printf("tables: %s%s; events: %s\n", selfmon_metrics__core(m, &fallback),
	       fallback ? " (fallback)" : "", selfmon_metrics__events(m));
	for (int i = 0; i < selfmon_metrics__nr(m); i++)
		printf("%s [%s] %s\n", selfmon_metrics__name(m, i), selfmon_metrics__unit(m, i),
		       selfmon_metrics__why(m, i));
	selfmon_metrics__delete(m);
	return 0;
}
