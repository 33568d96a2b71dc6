// SPDX-License-Identifier: MIT
/* The PMUs and clusters this machine has, and whether user-space reads are allowed. */
#include <stdio.h>
#include <selfmon/machine.h>
#include <selfmon/selfmon.h>

int main(void)
{
	struct selfmon_machine *m = selfmon_machine__open(NULL);
	struct selfmon_pmu_info pmu;
	struct selfmon_format_info fmt;
	struct selfmon_cluster_info cl;
	char cpus[256];
	long paranoid, access;
	int cluster;

	if (!m) {
		fprintf(stderr, "%s\n", selfmon_errmsg());
		return 1;
	}
	for (int i = 0; i < selfmon_machine__nr_pmus(m); i++)
		if (!selfmon_machine__pmu(m, i, &pmu)) {
			printf("pmu %s type %u%s\n", pmu.name, pmu.type,
			       i == selfmon_machine__default_pmu(m) ? " (default)" : "");
			for (int f = 0; f < pmu.nr_formats; f++)
				if (!selfmon_machine__format(m, i, f, &fmt))
					printf("  term %s: %s %#llx\n", fmt.name, fmt.field,
					       (unsigned long long)fmt.mask);
		}
	for (int i = 0; i < selfmon_machine__nr_clusters(m); i++)
		if (!selfmon_machine__cluster(m, i, &cl))
			printf("cluster %s: CPUs %s, rank %d%s\n", cl.name, cl.cpus, cl.rank,
			       cl.big ? " (big)" : "");
	printf("CPU 0 in cluster %d; clusters ranked by %s; sysfs at %s\n",
	       selfmon_machine__cluster_of_cpu(m, 0), selfmon_machine__ranked_by(m),
	       selfmon_machine__root(m));
	if (!selfmon_machine__resolve_pin(m, "big", -1, &cluster, cpus, sizeof(cpus)))
		printf("\"big\" pins to CPUs %s\n", cpus);
	for (int i = 0; selfmon_events__standard(i); i++)
		printf("standard event %s\n", selfmon_events__standard(i));
	printf("%d cluster(s), %d core PMU(s)\n", selfmon_machine__nr_clusters(m),
	       selfmon_machine__nr_core_pmus(m));
	if (!selfmon_machine__paranoid(m, &paranoid))
		printf("perf_event_paranoid %ld\n", paranoid);
	if (!selfmon_machine__user_access(m, &access))
		printf("user access %ld\n", access);
	selfmon_machine__close(m);
	return 0;
}
